"""Resumable checkpoints of a stable-baselines3 run (`bmoca train ppo|dqn --resume`).

SB3's own `save` keeps the weights and the optimiser but not what makes the next update
the one an uninterrupted run would make: the phones' episodes in flight, the observation
the next action is chosen from, the counters, the random generators SB3 draws from
(torch for PPO's sampled actions, numpy's global one for minibatch order and DQN's
exploration, the action space's own for DQN's random actions) and DQN's replay memory.
This module turns all of that into plain values and tensors (`model_state`) and back
(`restore_model`). A checkpoint is taken at the start of a rollout, when nothing of the
last update is pending; the phones come back by replaying their episode's actions
(`TaskEnv.restore`: the simulator is deterministic). Observations may be dicts (the
screen and the task's index); a run with demonstrations keeps their generator's state.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np
import torch

from bmoca.train.checkpoints import rng_state, set_rng_state
from bmoca.train.trees import tree_map

__all__ = ["model_state", "replay_state", "restore_model", "restore_replay"]

_ARRAYS = ("observations", "next_observations", "actions", "rewards", "dones", "timeouts")
_COUNTERS = ("num_timesteps", "_n_updates", "_episode_num", "_current_progress_remaining",
             "_n_calls", "exploration_rate")


def model_state(model: Any) -> dict[str, Any]:
    """Everything the run needs to go on exactly as it would have."""
    vec = model.env
    state: dict[str, Any] = {
        "policy": model.policy.state_dict(),
        "optimizer": model.policy.optimizer.state_dict(),
        "counters": {k: getattr(model, k) for k in _COUNTERS if hasattr(model, k)},
        "episode_starts": torch.from_numpy(np.asarray(model._last_episode_starts).copy()),
        "episode_infos": list(model.ep_info_buffer or []),
        "successes": list(model.ep_success_buffer or []),
        "action_space": model.action_space.np_random.bit_generator.state,
        "envs": vec.env_method("snapshot"),
        "rng": rng_state(),
    }
    demos = getattr(model, "demos", None)
    if demos is not None:
        state["demos"] = demos.state()
    buffer = getattr(model, "replay_buffer", None)
    if buffer is not None:
        state["replay"] = replay_state(buffer)
    return state


def restore_model(model: Any, state: dict[str, Any]) -> None:
    """Put a freshly built model and its envs back where `model_state` found them."""
    model.policy.load_state_dict(state["policy"])
    model.policy.optimizer.load_state_dict(state["optimizer"])
    for key, value in state["counters"].items():
        setattr(model, key, value)
    model._last_episode_starts = state["episode_starts"].numpy().copy()
    window = model._stats_window_size  # learn() keeps these when it does not start afresh
    model.ep_info_buffer = deque(state["episode_infos"], maxlen=window)
    model.ep_success_buffer = deque(state["successes"], maxlen=window)
    model.action_space.np_random.bit_generator.state = state["action_space"]
    if "replay" in state:
        restore_replay(model.replay_buffer, state["replay"])
    if "demos" in state:
        model.demos.restore(state["demos"])
    vec = model.env  # SB3's wrappers around `vec` (channels first for images)
    vec.reset()  # the Monitor wrappers want a reset before the first step
    screens = _stack([vec.env_method("restore", snapshot, indices=[i])[0]
                      for i, snapshot in enumerate(state["envs"])])
    transpose = getattr(vec, "transpose_observations", None)
    model._last_obs = transpose(screens) if transpose else screens
    set_rng_state(state["rng"])  # last: building and resetting drew from them


def _stack(observations: list[Any]) -> Any:
    """The envs' observations as one batch (an array, or a dict of arrays)."""
    return tree_map(lambda *o: np.stack([np.asarray(v) for v in o]), *observations)


def _tensors(values: Any, rows: slice = slice(None)) -> Any:
    return tree_map(lambda v: torch.from_numpy(np.ascontiguousarray(v[rows])), values)


def _arrays(values: Any) -> Any:
    return tree_map(lambda v: v.numpy(), values)


def _buffer_arrays(buffer: Any) -> dict[str, Any]:
    filled = buffer.buffer_size if buffer.full else buffer.pos
    arrays = {name: _tensors(getattr(buffer, name), slice(0, filled))
              for name in _ARRAYS if getattr(buffer, name, None) is not None}
    return {"pos": buffer.pos, "full": buffer.full, "arrays": arrays}


def _restore_arrays(buffer: Any, saved: dict[str, Any]) -> None:
    def put(into: np.ndarray, part: torch.Tensor) -> None:
        into[:len(part)] = part.numpy()

    for name, values in saved["arrays"].items():
        tree_map(put, getattr(buffer, name), values)
    buffer.pos, buffer.full = saved["pos"], saved["full"]


def replay_state(buffer: Any) -> dict[str, Any]:
    """A replay buffer's filled part; the split buffer's two parts and the transitions of
    episodes still running (only their timeout flag of the step's info matters)."""
    if not hasattr(buffer, "successes"):
        return {"plain": _buffer_arrays(buffer)}
    pending = [[[_tensors(part) for part in t[:5]]
                + [bool(t[5][0].get("TimeLimit.truncated", False))] for t in env]
               for env in buffer.pending]
    return {"successes": _buffer_arrays(buffer.successes),
            "failures": _buffer_arrays(buffer.failures), "pending": pending}


def restore_replay(buffer: Any, saved: dict[str, Any]) -> None:
    if "plain" in saved:
        _restore_arrays(buffer, saved["plain"])
        return
    _restore_arrays(buffer.successes, saved["successes"])
    _restore_arrays(buffer.failures, saved["failures"])
    buffer.pending = [[tuple(_arrays(part) for part in t[:5]) + ([{"TimeLimit.truncated": t[5]}],)
                       for t in env] for env in saved["pending"]]

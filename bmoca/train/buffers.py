"""DQN's replay memory split by outcome, as B-MoCA's DDQN (E.1).

With sparse rewards, early replay is almost all failures and a uniform batch seldom holds a
success to learn from. The paper keeps a success buffer and a failure buffer and draws a
quarter of every batch from the first. An episode's transitions wait until it ends, and then
go to one buffer or the other according to the task's success detector (`is_success`).
stable-baselines3 is imported only when the class is built, as in `bmoca.train.rl`.
Observations may be arrays or dicts of arrays (the screen and the task's index of a
goal-conditioned run): the buffer then holds two `DictReplayBuffer`s.
"""

from __future__ import annotations

from functools import cache
from typing import Any


@cache
def split_replay_buffer() -> type:
    """The `ReplayBuffer` subclass for `DQN(replay_buffer_class=...)`."""
    import torch
    from gymnasium import spaces
    from stable_baselines3.common.buffers import BaseBuffer, DictReplayBuffer, ReplayBuffer

    from bmoca.train.trees import tree_map

    def part(values: Any, i: int) -> Any:
        """Env `i`'s slice of a step's batched values (an array or a dict of arrays)."""
        return tree_map(lambda v: v[i:i + 1], values)

    def cat(values: list[Any]) -> Any:
        return None if values[0] is None else tree_map(lambda *v: torch.cat(v), *values)

    class SuccessFailureReplayBuffer(ReplayBuffer):
        """Two replay buffers, of successful and of failed episodes; `success_fraction` of
        each batch comes from the first (all from one while the other is empty)."""

        def __init__(self, buffer_size: int, observation_space: Any, action_space: Any,
                     device: Any = "auto", n_envs: int = 1,
                     optimize_memory_usage: bool = False,
                     handle_timeout_termination: bool = True,
                     success_fraction: float = 0.25) -> None:
            if not 0.0 < success_fraction < 1.0:
                raise ValueError(f"success_fraction must lie in (0, 1), not {success_fraction}")
            # The buffer's own arrays would hold nothing: only the base's bookkeeping is set.
            BaseBuffer.__init__(self, 1, observation_space, action_space, device, n_envs=n_envs)
            self.handle_timeout_termination = handle_timeout_termination
            kind = DictReplayBuffer if isinstance(observation_space, spaces.Dict) else ReplayBuffer
            self.success_fraction = success_fraction
            parts = {"device": device, "n_envs": 1,
                     "handle_timeout_termination": handle_timeout_termination}
            self.successes = kind(max(1, buffer_size // 2), observation_space, action_space,
                                  **parts)
            self.failures = kind(buffer_size, observation_space, action_space, **parts)
            self.pending: list[list[tuple]] = [[] for _ in range(n_envs)]

        def add(self, obs, next_obs, action, reward, done, infos) -> None:
            for i in range(self.n_envs):
                self.pending[i].append((part(obs, i), part(next_obs, i), action[i:i + 1],
                                        reward[i:i + 1], done[i:i + 1], [infos[i]]))
                if done[i]:
                    target = self.successes if infos[i].get("is_success") else self.failures
                    for transition in self.pending[i]:
                        target.add(*transition)
                    self.pending[i] = []

        def size(self) -> int:
            return self.successes.size() + self.failures.size()

        def sample(self, batch_size: int, env: Any = None) -> Any:
            wins, losses = self.successes.size(), self.failures.size()
            if wins + losses == 0:
                raise ValueError("no finished episode in the replay buffer yet")
            from_wins = round(batch_size * self.success_fraction) if wins and losses else (
                batch_size if wins else 0)
            batches = [b.sample(n, env=env) for b, n in ((self.successes, from_wins),
                                                         (self.failures, batch_size - from_wins))
                       if n]
            return type(batches[0])(*(cat(list(field)) for field in zip(*batches, strict=True)))

    return SuccessFailureReplayBuffer


__all__ = ["split_replay_buffer"]

"""One task as an RL environment: pixels in, a 385-way action out, short episodes.

`TaskEnv` is what the RL algorithms step (one phone per instance): B-MoCA's RL settings
(§6.7) by default, 5-step episodes on a configuration drawn per reset from a list (seeded),
the sparse success reward, and optionally the paper's shaping for Call 911: reward i/N when
the screen reaches the i-th state of the expert's own path in that configuration, and
`off_path_reward` (the paper's -1) for a step that reaches none further along.

A screen's state is the uiautomator hierarchy of the app windows (SystemUI's, such as the
notification shade with its clock, are left out: they change with time, not with the
task): ids, texts, descriptions and the checked, selected and focused flags, hashed. The expert's path is played once per
configuration and cached.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from bmoca import tasks
from bmoca.env import BmocaEnv, DevicePool
from bmoca.env.fork import EnvState
from bmoca.formats.hierarchy import parse as parse_dump
from bmoca.tasks import experts

__all__ = ["TaskEnv", "TaskState", "expert_path", "screen_state"]

SYSTEM_PACKAGES = ("com.android.systemui",)
_STATE_ATTRS = ("package", "resource-id", "text", "content-desc", "checked", "selected",
                "focused")


def screen_state(xml: str) -> str:
    """A digest of what a screen shows that the task can change (see the module doc)."""
    root = parse_dump(xml)
    digest = hashlib.blake2b(digest_size=12)
    for node in root.iter("node"):
        if node.get("package") in SYSTEM_PACKAGES:
            continue
        digest.update("\x1f".join(node.get(a, "") for a in _STATE_ATTRS).encode())
        digest.update(b"\x1e")
    return digest.hexdigest()


def expert_path(task: tasks.Task, config: str, pool: DevicePool | None = None) -> list[str]:
    """The screen states after each step of the task's expert in `config`, ending with
    the successful one."""
    if not task.expert:
        raise ValueError(f"task {task.id} has no expert plan to shape rewards with")
    env = BmocaEnv(task, config, device=pool or DevicePool(), observation="xml",
                   action="json")
    try:
        observation, _ = env.reset(seed=0)
        agent = experts.build(task.expert)
        agent.reset(task.goal, 0)
        states: list[str] = []
        while True:
            observation, _, terminated, truncated, info = env.step(agent.act(observation))
            states.append(screen_state(observation["xml"]))
            if terminated or truncated:
                if not info.get("success"):
                    raise RuntimeError(f"the expert of {task.id} failed in {config}")
                return states
    finally:
        if pool is None:
            env.close()


@dataclass(frozen=True)
class TaskState:
    """One moment of a `TaskEnv` episode (`TaskEnv.get_state`): what the phone's
    environment holds, and what the task environment adds on top of it."""

    env: EnvState
    progress: int
    """How far along the expert's path the shaping has paid (0 without shaping)."""

    @property
    def config_id(self) -> str:
        return self.env.config.id


class TaskEnv(gymnasium.Env):
    """`task` on configurations drawn from `config_ids` at each reset; observation the
    (256, 128, 3) screen, action a discrete index (0..384)."""

    metadata = {"render_modes": []}

    def __init__(self, task: tasks.Task | str, config_ids: Sequence[str], *,
                 horizon: int = 5, shaping: bool = False, off_path_reward: float = -1.0,
                 seed: int = 0) -> None:
        self.task = task if isinstance(task, tasks.Task) else tasks.get(task)
        if not config_ids:
            raise ValueError("TaskEnv needs at least one configuration")
        self.config_ids = list(config_ids)
        self.horizon, self.shaping, self.off_path_reward = horizon, shaping, off_path_reward
        self.pool = DevicePool()
        self.env = BmocaEnv(self.task, self.config_ids[0], device=self.pool,
                            observation="pixels", action="discrete", step_limit=horizon)
        self.observation_space = spaces.Box(0, 255, (256, 128, 3), np.uint8)
        self.action_space = spaces.Discrete(385)
        self._rng = np.random.default_rng(seed)
        self._paths: dict[str, list[str]] = {}
        self._path: list[str] = []
        self._progress = 0
        self._actions: list[int] = []  # this episode's, for `snapshot`
        self.config_id = self.config_ids[0]

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        options = dict(options or {})
        self._actions = []
        if "state" in options:
            return self._reset_to(options.pop("state"), options)
        self.config_id = options.pop("config", None) or self.config_ids[
            int(self._rng.integers(len(self.config_ids)))]
        if self.shaping:
            if self.config_id not in self._paths:
                self._paths[self.config_id] = expert_path(self.task, self.config_id, self.pool)
            self._path, self._progress = self._paths[self.config_id], 0
        observation, info = self.env.reset(options={"config": self.config_id, **options})
        return observation["pixels"], {**info, "config": self.config_id}

    def get_state(self) -> TaskState:
        """The episode as it stands; `reset(options={"state": ...})` continues from it."""
        return TaskState(self.env.get_state(), self._progress)

    def _reset_to(self, state: TaskState, options: dict[str, Any]):
        """`reset` from a `TaskState`: its last observation (the state holds its
        configuration, so no other option may come with it)."""
        if not isinstance(state, TaskState):
            raise TypeError(f"the 'state' option takes a TaskState (TaskEnv.get_state()), "
                            f"got {type(state).__name__}")
        if options:
            raise ValueError(f"reset option 'state' excludes {sorted(options)}: the state "
                             "holds its own configuration")
        self.config_id = state.config_id
        if self.shaping:
            if self.config_id not in self._paths:
                self._paths[self.config_id] = expert_path(self.task, self.config_id, self.pool)
            self._path, self._progress = self._paths[self.config_id], state.progress
        observation, info = self.env.reset(options={"state": state.env})
        return observation["pixels"], {**info, "config": self.config_id}

    def snapshot(self) -> dict[str, Any]:
        """The episode as plain values (its configuration, its actions so far, the
        generator that draws the next configurations), for a resumable checkpoint."""
        return {"config": self.config_id, "actions": list(self._actions),
                "rng": self._rng.bit_generator.state}

    def restore(self, snapshot: dict[str, Any]) -> np.ndarray:
        """Continue from `snapshot`: the simulator is deterministic, so resetting to its
        configuration and replaying its actions gives back the same screen (and the same
        shaping progress). Returns that screen."""
        observation, _ = self.reset(options={"config": snapshot["config"]})
        for action in snapshot["actions"]:
            observation, *_ = self.step(action)
        self._rng.bit_generator.state = snapshot["rng"]
        return observation

    def step(self, action: Any):
        self._actions.append(int(action))
        observation, reward, terminated, truncated, info = self.env.step(int(action))
        success = bool(info.get("success"))
        if self.shaping and not success:
            reward = self._shaped_reward()
        info = {**info, "is_success": success, "config": self.config_id}
        return observation["pixels"], float(reward), terminated, truncated, info

    def _shaped_reward(self) -> float:
        state = screen_state(self.env.device.dump_hierarchy())
        ahead = self._path[self._progress:]
        if state in ahead:
            self._progress += ahead.index(state) + 1
            return self._progress / len(self._path)
        return self.off_path_reward

    def close(self) -> None:
        self.env.close()

"""Tasks as an RL environment: pixels in, a 385-way action out, short episodes.

`TaskEnv` is what the RL algorithms step (one phone per instance): B-MoCA's RL settings
(§6.7) by default, 5-step episodes on a configuration drawn per reset from a list (seeded),
the sparse success reward, and optionally the paper's shaping for Call 911 (`shaping=
"path"`): reward i/N when the screen reaches the i-th state of the expert's own path in
that configuration, and `off_path_reward` (the paper's -1) for a step that reaches none
further along; or potential-based shaping from sub-goal progress (`shaping="progress"`,
`bmoca.train.rl_shaping`).

Given several tasks, each reset draws one (seeded, before the configuration), and
`goal_observation` makes the observation a dict of the screen and the task's index, so a
goal-conditioned policy knows which goal it is after (`goals` lists them in that order).
`horizon=0` gives each task its own step limit.

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
from bmoca.env.targets import action_target
from bmoca.formats.hierarchy import parse as parse_dump
from bmoca.train.rl_shaping import ProgressShaping, play_expert

__all__ = ["SHAPINGS", "TaskEnv", "TaskState", "expert_path", "screen_state"]

SHAPINGS = ("none", "path", "progress")

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


def expert_path(task: tasks.Task, config: str, pool: DevicePool | None = None,
                route: str = "launcher") -> list[str]:
    """The screen states after each step of the task's expert in `config` (opening
    Settings by `route`), ending with the successful one."""
    return [screen_state(seen["xml"]) for seen in play_expert(task, config, pool, route)]


@dataclass(frozen=True)
class TaskState:
    """One moment of a `TaskEnv` episode (`TaskEnv.get_state`): what the phone's
    environment holds, and what the task environment adds on top of it."""

    env: EnvState
    progress: int
    """How far along the expert's path the shaping has paid (0 without shaping)."""
    task_index: int = 0
    """Which of the environment's tasks the episode plays."""
    targets: tuple[str | None, ...] = ()
    """What each step acted on so far (progress shaping only)."""

    @property
    def config_id(self) -> str:
        return self.env.config.id


def _shaping_mode(shaping: bool | str) -> str:
    """`shaping` as one of `SHAPINGS` (True, as before the modes, is the paper's "path")."""
    mode = ("path" if shaping else "none") if isinstance(shaping, bool) else shaping
    if mode not in SHAPINGS:
        raise ValueError(f"unknown shaping {shaping!r}; use one of {SHAPINGS}")
    return mode


class TaskEnv(gymnasium.Env):
    """`task` (or one of several tasks, drawn per reset) on configurations drawn from
    `config_ids` at each reset; observation the (256, 128, 3) screen (with
    `goal_observation`: {"pixels": the screen, "task": its index}), action a discrete
    index (0..384)."""

    metadata = {"render_modes": []}

    def __init__(self, task: tasks.Task | str | Sequence[tasks.Task | str],
                 config_ids: Sequence[str], *, horizon: int = 5,
                 shaping: bool | str = False, off_path_reward: float = -1.0,
                 seed: int = 0, goal_observation: bool = False, gamma: float = 0.9,
                 route: str = "launcher") -> None:
        chosen = [task] if isinstance(task, tasks.Task | str) else list(task)
        if not chosen:
            raise ValueError("TaskEnv needs at least one task")
        self.tasks = [t if isinstance(t, tasks.Task) else tasks.get(t) for t in chosen]
        self.goals = [t.goal for t in self.tasks]
        if not config_ids:
            raise ValueError("TaskEnv needs at least one configuration")
        self.config_ids = list(config_ids)
        self.horizon, self.off_path_reward = horizon, off_path_reward
        self.shaping = _shaping_mode(shaping)
        self.goal_observation = goal_observation
        self.pool = DevicePool()
        self._envs: dict[int, BmocaEnv] = {}
        self.task_index = 0
        self.env = self._env(0)
        pixels = spaces.Box(0, 255, (256, 128, 3), np.uint8)
        self.observation_space = spaces.Dict(
            {"pixels": pixels, "task": spaces.Discrete(len(self.tasks))}
        ) if goal_observation else pixels
        self.action_space = spaces.Discrete(385)
        self._rng = np.random.default_rng(seed)
        self.route = route
        self._paths: dict[tuple[str, str], list[str]] = {}  # by task id and configuration
        self._path: list[str] = []
        self._progress = 0
        self._checkpoints = ProgressShaping(gamma, route) if self.shaping == "progress" else None
        self._actions: list[int] = []  # this episode's, for `snapshot`
        self.config_id = self.config_ids[0]

    @property
    def task(self) -> tasks.Task:
        """The task of the episode under way."""
        return self.tasks[self.task_index]

    def _env(self, index: int) -> BmocaEnv:
        """The phone environment of task `index` (all share one pool of phones)."""
        if index not in self._envs:
            self._envs[index] = BmocaEnv(self.tasks[index], self.config_ids[0],
                                         device=self.pool, observation="pixels",
                                         action="discrete", step_limit=self.horizon or None)
        return self._envs[index]

    def _observe(self, observation: dict[str, Any]) -> Any:
        pixels = observation["pixels"]
        return {"pixels": pixels, "task": self.task_index} if self.goal_observation else pixels

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        options = dict(options or {})
        self._actions = []
        if "state" in options:
            return self._reset_to(options.pop("state"), options)
        drawn = int(self._rng.integers(len(self.tasks))) if len(self.tasks) > 1 else 0
        self.task_index = int(options.pop("task", drawn))
        self.env = self._env(self.task_index)
        self.config_id = options.pop("config", None) or self.config_ids[
            int(self._rng.integers(len(self.config_ids)))]
        self._start_shaping(0, ())
        observation, info = self.env.reset(options={"config": self.config_id, **options})
        return self._observe(observation), self._info(info)

    def _start_shaping(self, progress: int, targets: Sequence[str | None]) -> None:
        if self.shaping == "path":
            key = (self.task.id, self.config_id)
            if key not in self._paths:
                self._paths[key] = expert_path(self.task, self.config_id, self.pool, self.route)
            self._path, self._progress = self._paths[key], progress
        elif self._checkpoints is not None:
            self._checkpoints.start(self.task, self.config_id, self.pool, targets)

    def _info(self, info: dict[str, Any]) -> dict[str, Any]:
        return {**info, "config": self.config_id, "task": self.task.id}

    def get_state(self) -> TaskState:
        """The episode as it stands; `reset(options={"state": ...})` continues from it."""
        targets = tuple(self._checkpoints.targets) if self._checkpoints else ()
        return TaskState(self.env.get_state(), self._progress, self.task_index, targets)

    def _reset_to(self, state: TaskState, options: dict[str, Any]):
        """`reset` from a `TaskState`: its last observation (the state holds its
        configuration, so no other option may come with it)."""
        if not isinstance(state, TaskState):
            raise TypeError(f"the 'state' option takes a TaskState (TaskEnv.get_state()), "
                            f"got {type(state).__name__}")
        if options:
            raise ValueError(f"reset option 'state' excludes {sorted(options)}: the state "
                             "holds its own configuration")
        self.task_index, self.config_id = state.task_index, state.config_id
        self.env = self._env(self.task_index)
        self._start_shaping(state.progress, state.targets)
        observation, info = self.env.reset(options={"state": state.env})
        return self._observe(observation), self._info(info)

    def snapshot(self) -> dict[str, Any]:
        """The episode as plain values (its task and configuration, its actions so far,
        the generator that draws the next ones), for a resumable checkpoint."""
        return {"task": self.task_index, "config": self.config_id,
                "actions": list(self._actions), "rng": self._rng.bit_generator.state}

    def restore(self, snapshot: dict[str, Any]) -> Any:
        """Continue from `snapshot`: the simulator is deterministic, so resetting to its
        task and configuration and replaying its actions gives back the same screen (and
        the same shaping progress). Returns that observation."""
        observation, _ = self.reset(options={"config": snapshot["config"],
                                             "task": snapshot.get("task", 0)})
        for action in snapshot["actions"]:
            observation, *_ = self.step(action)
        self._rng.bit_generator.state = snapshot["rng"]
        return observation

    def step(self, action: Any):
        self._actions.append(int(action))
        target = action_target(self.env, int(action)) if self._checkpoints else None
        observation, reward, terminated, truncated, info = self.env.step(int(action))
        success = bool(info.get("success"))
        if self.shaping == "path" and not success:
            reward = self._shaped_reward()
        elif self._checkpoints is not None:
            reward = self._checkpoints.reward(float(reward), target, terminated)
        info = {**self._info(info), "is_success": success}
        return self._observe(observation), float(reward), terminated, truncated, info

    def _shaped_reward(self) -> float:
        state = screen_state(self.env.device.dump_hierarchy())
        ahead = self._path[self._progress:]
        if state in ahead:
            self._progress += ahead.index(state) + 1
            return self._progress / len(self._path)
        return self.off_path_reward

    def close(self) -> None:
        for env in self._envs.values():
            env.close()

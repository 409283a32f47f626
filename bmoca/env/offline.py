"""The environment a Minari export recovers: pixels in, B-MoCA's 385-way actions out.

A Minari dataset stores a gymnasium environment spec so that
`minari.load_dataset(...).recover_environment()` can rebuild the environment its episodes
come from. A bmoca export holds episodes of several tasks and configurations, observed as
a bare `(height, width, 3)` uint8 image and acted on with `Discrete(385)`; `BmocaEnv`
observes a dict and plays one task. `OfflineEnv` (gymnasium id `bmoca/Offline-v0`) is that
env with the dataset's spaces: it holds the dataset's tasks and configurations, and each
reset plays the task and configuration that the reset's options name, with the keys a
Minari episode's options have (`task_id`, `config_id`), so

    env.reset(seed=meta["seed"], options=meta["options"])

starts the same episode as the recorded one (`meta` from `storage.get_episode_metadata`).
Without those options a reset draws the task (and `BmocaEnv` the configuration) with the
reset's seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np

from bmoca.env.devices import DevicePool
from bmoca.env.environment import BmocaEnv

__all__ = ["OfflineEnv"]


class OfflineEnv(gymnasium.Env):
    """One or more tasks on one or more configurations, as pixel arrays and discrete actions
    (the spaces of `bmoca demos export --format minari`)."""

    metadata = BmocaEnv.metadata

    def __init__(self, tasks: str | Sequence[str], configs: str | Sequence[str] = "test_env_100",
                 pixels_size: Sequence[int] = (128, 256), device: str = "sim",
                 render_mode: str | None = None, **options: Any) -> None:
        self.task_ids = [tasks] if isinstance(tasks, str) else list(tasks)
        self.config_ids = [configs] if isinstance(configs, str) else list(configs)
        if not self.task_ids or not self.config_ids:
            raise ValueError("OfflineEnv needs at least one task and one configuration")
        self._pool = DevicePool(device)
        self._size = (int(pixels_size[0]), int(pixels_size[1]))
        self._options = dict(options, render_mode=render_mode)
        self._envs: dict[str, BmocaEnv] = {}
        self.render_mode = render_mode
        self.env = self._env(self.task_ids[0])
        """The `BmocaEnv` of the task being played (its `task`, `config`, `goal`)."""
        self.observation_space = self.env.observation_space["pixels"]
        self.action_space = self.env.action_space

    def _env(self, task_id: str) -> BmocaEnv:
        """The task's env, made on first use; all share one device pool."""
        if task_id not in self.task_ids:
            raise ValueError(f"task {task_id!r} is not one of this environment's "
                             f"({', '.join(self.task_ids)})")
        if task_id not in self._envs:
            self._envs[task_id] = BmocaEnv(task_id, self.config_ids, self._pool,
                                           observation=("pixels",), action="discrete",
                                           pixels_size=self._size, **self._options)
        return self._envs[task_id]

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new episode of `options["task_id"]` on `options["config_id"]` (each drawn with
        the reset's seed when not given); other option keys are ignored."""
        super().reset(seed=seed)
        options = options or {}
        task_id = options.get("task_id")
        if task_id is None:
            task_id = self.task_ids[int(self.np_random.integers(len(self.task_ids)))]
        self.env = self._env(str(task_id))
        inner = {} if options.get("config_id") is None else {"config": options["config_id"]}
        observation, info = self.env.reset(seed=seed, options=inner)
        return observation["pixels"], info

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        observation, reward, terminated, truncated, info = self.env.step(action)
        return observation["pixels"], reward, terminated, truncated, info

    def render(self) -> np.ndarray | None:
        return self.env.render()

    def close(self) -> None:
        for env in self._envs.values():
            env.device = None
        self._pool.close()

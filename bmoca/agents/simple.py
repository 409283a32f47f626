"""Baselines that need no model: random, do-nothing, the scripted expert, and the
near-miss rows that check each task's criterion."""

from __future__ import annotations

from typing import Any

import numpy as np

from bmoca import tasks
from bmoca.tasks import experts


class RandomAgent:
    """Uniform random actions, seeded per episode (B-MoCA's random baseline).

    The default is the 385-way discrete space, whose taps, swipes and buttons cover what
    a phone user does; `dual_gesture` samples the continuous box instead.
    """

    observation_modes = ("xml",)

    def __init__(self, action_mode: str = "discrete"):
        if action_mode not in ("discrete", "dual_gesture"):
            raise ValueError("the random agent samples 'discrete' or 'dual_gesture' actions, "
                             f"not {action_mode!r}")
        self.action_mode = action_mode
        self.name = "random" if action_mode == "discrete" else f"random:{action_mode}"
        self._rng = np.random.default_rng(0)

    def reset(self, goal: str, seed: int | None = None) -> None:
        self._rng = np.random.default_rng(seed)

    def act(self, observation: dict[str, Any]) -> Any:
        if self.action_mode == "discrete":
            return int(self._rng.integers(0, 385))
        return self._rng.random(4, dtype=np.float32)


class NoopAgent:
    """Waits every step: a task it "solves" was already done at reset."""

    name = "noop"
    action_mode = "json"
    observation_modes = ("xml",)

    def reset(self, goal: str, seed: int | None = None) -> None:
        pass

    def act(self, observation: dict[str, Any]) -> Any:
        return {"action_type": "wait"}


class ExpertAgent:
    """The task's scripted expert (its plan is in the task's data file)."""

    name = "expert"
    action_mode = "json"
    observation_modes = ("xml",)

    def __init__(self, task: tasks.Task, route: str = "launcher"):
        if not task.expert:
            raise ValueError(f"task {task.id} has no expert plan")
        self.task = task
        self._expert = experts.build(task.expert, route)

    def reset(self, goal: str, seed: int | None = None) -> None:
        self._expert.reset(goal, seed)

    def act(self, observation: dict[str, Any]) -> Any:
        return self._expert.act(observation)


class RowAgent:
    """Plays one near-miss row of a task (`bmoca.tasks.near_misses`): a trajectory an agent
    could take, ending with its claim of being done. A row that cannot find what its play
    needs raises `ExpertStuck`, an error of the row, never a verdict."""

    action_mode = "json"
    observation_modes = ("xml",)

    def __init__(self, task: tasks.Task, name: str):
        from bmoca.tasks import near_misses

        self.row = near_misses.get(task.id, name)
        self.name = f"row:{name}"
        self._plan = experts.build(self.row.play)

    def reset(self, goal: str, seed: int | None = None) -> None:
        self._plan.reset(goal, seed)

    def act(self, observation: dict[str, Any]) -> Any:
        return self._plan.act(observation)

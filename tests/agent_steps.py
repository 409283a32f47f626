"""An episode played as an agent plays it: JSON actions through `env.step`, with taps aimed
at nodes read from the XML observation (the centre of their bounds), nothing else."""

from __future__ import annotations

from typing import Any

from conftest import bounds, nodes

import bmoca
from bmoca.tasks import experts
from bmoca.tasks.experts.base import Screen


class Episode:
    """One reset of `task_id` on a fresh phone; `step` keeps the last observation and info."""

    def __init__(self, task_id: str, config: str = "test_env_100", step_limit: int = 40) -> None:
        self.env = bmoca.make(task_id, config=config, observation=("xml",), action="json",
                              step_limit=step_limit)
        self.obs, self.info = self.env.reset(seed=0)
        self.reward = 0.0

    def step(self, action: dict[str, Any]) -> Episode:
        self.obs, self.reward, terminated, truncated, self.info = self.env.step(action)
        assert not truncated, "the episode ran out of steps"
        return self

    def find(self, index: int = 0, **attrs: str):
        found = nodes(self.obs["xml"], **attrs)
        assert len(found) > index, f"no node {attrs} on screen"
        return found[index]

    def has(self, **attrs: str) -> bool:
        return bool(nodes(self.obs["xml"], **attrs))

    def click(self, index: int = 0, **attrs: str) -> Episode:
        left, top, right, bottom = bounds(self.find(index, **attrs))
        return self.step({"action_type": "click", "x": (left + right) // 2,
                          "y": (top + bottom) // 2})

    def open_app(self, name: str) -> Episode:
        return self.step({"action_type": "open_app", "app_name": name})

    def back(self) -> Episode:
        return self.step({"action_type": "navigate_back"})

    @property
    def success(self) -> bool:
        """The task's verdict after the last step (the env checks it at every step)."""
        return bool(self.info["success"])

    def close(self) -> None:
        self.env.close()


def play_plan(task_id: str, config: str, plan: list, max_actions: int = 20,
              step_limit: int | None = None) -> tuple[Screen, list[dict], bool]:
    """Play an expert `plan` (stages as task files write them) through env.step; the last
    screen, the actions sent, and whether the task's criterion held at some step."""
    expert = experts.build(plan)
    limit = {} if step_limit is None else {"step_limit": step_limit}
    env = bmoca.make(task_id, config=config, observation=("xml",), action="json", **limit)
    try:
        obs, _ = env.reset(seed=0)
        expert.reset("")
        sent, success = [], False
        while expert.stage < len(plan) and len(sent) < max_actions:
            action = expert.act(obs)
            sent.append(action)
            obs, reward, terminated, truncated, _ = env.step(action)
            success = success or reward > 0
            if terminated or truncated:
                break
        return Screen(obs["xml"]), sent, success
    finally:
        env.close()


def replay_rewards(env: Any, steps: Any) -> tuple[list[float], bool, dict]:
    """Play a demonstration's discrete steps in a fresh reset of `env` (a `TaskEnv`) until
    the episode ends: the rewards, whether it terminated, and the last info."""
    env.reset()
    rewards: list[float] = []
    terminated, info = False, {}
    for step in steps:
        _, reward, terminated, truncated, info = env.step(step.discrete)
        rewards.append(reward)
        if terminated or truncated:
            break
    return rewards, terminated, info

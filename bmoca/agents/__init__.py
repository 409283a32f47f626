"""Agents: the protocol, baselines, and `build` to make one from a command-line name."""

from __future__ import annotations

from bmoca import tasks
from bmoca.agents.base import Agent
from bmoca.agents.simple import ExpertAgent, NoopAgent, RandomAgent

__all__ = ["Agent", "ExpertAgent", "NoopAgent", "RandomAgent", "build", "NAMES"]

NAMES = ("expert", "random", "random:dual_gesture", "noop")


def build(name: str, task: tasks.Task) -> Agent:
    """An agent for one task from its command-line name (`expert`, `random`, `noop`, ...)."""
    kind, _, option = name.partition(":")
    if kind == "expert" and not option:
        return ExpertAgent(task)
    if kind == "random":
        return RandomAgent(option or "discrete")
    if kind == "noop" and not option:
        return NoopAgent()
    raise ValueError(f"unknown agent {name!r}; available: {', '.join(NAMES)}")

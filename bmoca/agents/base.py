"""The agent protocol: what the runner needs from any agent, and nothing more."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Agent(Protocol):
    """Acts on one episode at a time.

    `action_mode` and `observation_modes` tell the runner how to build the environment
    (`bmoca.make(..., observation=agent.observation_modes, action=agent.action_mode)`).
    """

    name: str
    action_mode: str
    observation_modes: tuple[str, ...]

    def reset(self, goal: str, seed: int | None = None) -> None:
        """Start an episode with this instruction ("Goal: ...")."""

    def act(self, observation: dict[str, Any]) -> Any:
        """The next action, in the agent's action mode."""

"""Agents trained in bmoca (`bc:CHECKPOINT`, and `ppo:`/`dqn:`/`iql:` for the same kind
of network after RL fine-tuning or offline RL): a policy acting on pixels and the goal.

Imports torch only when such an agent is built, so `bmoca.agents` stays light.
Greedy by default; `--agent-option sample=true` samples from the policy's distribution,
seeded by the episode's seed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["BCAgent", "is_learned_agent"]

_TRUE = ("1", "true", "yes", "on")


KINDS = ("bc", "ppo", "dqn", "iql")


def is_learned_agent(name: str) -> bool:
    return name.partition(":")[0] in KINDS and ":" in name


class BCAgent:
    """A behaviour-cloned policy: the `pixels` observation in, a 385-way index (or a dual
    gesture) out."""

    observation_modes = ("pixels",)

    def __init__(self, checkpoint: str, options: Mapping[str, Any] | None = None,
                 kind: str = "bc") -> None:
        from bmoca.train import require_torch

        self.torch = require_torch()
        from bmoca.train import bc

        options = dict(options or {})
        unknown = set(options) - {"sample"}
        if unknown:
            raise ValueError(f"{kind} agents take the option sample=true|false, not "
                             f"{', '.join(sorted(unknown))}")
        self.sample = str(options.get("sample", "false")).lower() in _TRUE
        self.policy = _load(bc, checkpoint)
        self.action_mode = self.policy.config.get("action", "discrete")
        self.name = f"{kind}:{checkpoint}"
        self.goal = ""
        self._generator = self.torch.Generator().manual_seed(0)

    def reset(self, goal: str, seed: int | None = None) -> None:
        self.goal = goal
        self._generator = self.torch.Generator().manual_seed(0 if seed is None else seed)

    def act(self, observation: dict[str, Any]) -> Any:
        from bmoca.train.datasets import to_tensor

        torch = self.torch
        with torch.no_grad():
            out = self.policy(to_tensor(observation["pixels"])[None], [self.goal])[0]
        if self.action_mode == "dual_gesture":
            return torch.sigmoid(out).numpy().astype("float32")
        if self.sample:
            probs = torch.softmax(out, dim=-1)
            return int(torch.multinomial(probs, 1, generator=self._generator))
        return int(out.argmax())


_LOADED: dict[tuple[str, float], Any] = {}


def _load(bc: Any, checkpoint: str) -> Any:
    """One load per checkpoint file and version: the runner builds an agent per episode."""
    from pathlib import Path

    path = Path(checkpoint)
    key = (str(path.resolve()), path.stat().st_mtime if path.is_file() else 0.0)
    if key not in _LOADED:
        _LOADED.clear()
        _LOADED[key] = bc.load(path)
    return _LOADED[key]


def build(name: str, options: Mapping[str, Any] | None = None) -> BCAgent:
    kind, _, path = name.partition(":")
    if kind not in KINDS or not path:
        raise ValueError(f"{name!r}: a trained agent is bc:, ppo:, dqn: or iql:CHECKPOINT")
    return BCAgent(path, options, kind)

"""AndroidArena's exploration hint (Xing et al. 2024, section 7.2).

A UCB-style count told to the model at every step: how often the agent has been on the
current screen, M(s), and how often it took each action there, N(s, a). A screen is the
SHA-256 of the screen translator's text, so the same view in the same state counts as one
screen; actions are the agent's parsed action labels. Counts live for one episode.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict


def screen_key(observation: str) -> str:
    return hashlib.sha256(observation.encode("utf-8")).hexdigest()[:16]


class ExplorationCounter:
    """M(s) and N(s, a) over one episode."""

    def __init__(self) -> None:
        self.visits: Counter[str] = Counter()
        self.actions: defaultdict[str, Counter[str]] = defaultdict(Counter)

    def reset(self) -> None:
        self.visits.clear()
        self.actions.clear()

    def hint(self, screen: str) -> str:
        """The hint for the screen the agent is on now, before it is counted."""
        seen = self.visits[screen]
        if seen == 0:
            return "Exploration hint: you have not been in the current state before."
        taken = self.actions.get(screen, Counter())
        listed = "; ".join(f"{action} {n} time{'s' if n != 1 else ''}"
                           for action, n in sorted(taken.items(), key=lambda kv: (-kv[1], kv[0])))
        times = f"{seen} time{'s' if seen != 1 else ''}"
        return (f"Exploration hint: you have already been in the current state {times}"
                + (f", and taken these actions here: {listed}." if listed else ".")
                + " Prefer actions you have not tried here when earlier ones did not help.")

    def record(self, screen: str, action: str | None) -> None:
        """Count a visit to `screen` and, when parsed, the action taken there."""
        self.visits[screen] += 1
        if action:
            self.actions[screen][action] += 1

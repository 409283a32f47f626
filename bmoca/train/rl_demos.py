"""Demonstrations beside RL: the expert's transitions, kept for the whole run.

Two uses, both of a dataset that `bmoca demos generate --play discrete` wrote:

- DQN from demonstrations (DQfD, Hester et al., 2018): a share of every batch is expert
  transitions, which never leave (the replay memory of the agent's own episodes turns
  over; these do not), with the TD loss on them too and a large-margin loss that keeps
  the expert's action ahead of every other by a margin;
- a behaviour-cloning term for PPO or DQN: the cross-entropy of the expert's action under
  the policy on a batch of demonstration steps (`bmoca.train.rl_regularize`).

Transitions are each demonstration's consecutive steps with a discrete action (as IQL's:
`bmoca.train.iql.Transitions`), reward 1 on the last step of a successful episode, which
is terminal. Their observations are in the form stable-baselines3's buffers hold: the
screen channels first (uint8) and the task's index among the run's tasks (int64). Batches are
drawn from a generator of their own, seeded, whose state a resumable checkpoint keeps.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch

from bmoca.train import TrainError
from bmoca.train.datasets import StepDataset
from bmoca.train.iql import Transitions

__all__ = ["DemoBatch", "Demonstrations"]


class DemoBatch:
    """Expert transitions as tensors: `observations` and `next_observations` are dicts of
    `pixels` (B, 3, 256, 128) uint8 and `task` (B, 1) int64; `actions` (B, 1) long;
    `rewards`, `dones` (B, 1)."""

    def __init__(self, observations: dict[str, torch.Tensor], actions: torch.Tensor,
                 next_observations: dict[str, torch.Tensor], rewards: torch.Tensor,
                 dones: torch.Tensor) -> None:
        self.observations, self.actions = observations, actions
        self.next_observations, self.rewards, self.dones = next_observations, rewards, dones


class Demonstrations:
    """The steps of `path`'s demonstrations of the run's `task_ids` (index = the task's
    position among them, as the environment's observation names it)."""

    def __init__(self, path: str | Path, task_ids: Sequence[str], goals: Sequence[str], *,
                 seed: int = 0) -> None:
        self.data = StepDataset(path, tasks=list(task_ids))
        if not self.data.demo_steps:
            raise TrainError(f"{path}: no demonstration of the run's tasks with discrete "
                             "actions (generate them with --play discrete)")
        index_of = {goal: i for i, goal in enumerate(goals)}
        self.task_of = np.array([index_of[item[2]] for item in self.data.items], np.int64)
        self.transitions = Transitions(self.data)
        self.rng = np.random.default_rng(seed)

    def __len__(self) -> int:
        return len(self.transitions)

    def _observations(self, indices: Sequence[int], device: torch.device
                      ) -> dict[str, torch.Tensor]:
        pixels = np.stack([self.data.pixels(i) for i in indices]).transpose(0, 3, 1, 2)
        return {"pixels": torch.from_numpy(np.ascontiguousarray(pixels)).to(device),
                "task": torch.from_numpy(self.task_of[list(indices)]).to(device)[:, None]}

    def sample(self, size: int, device: torch.device | str = "cpu") -> DemoBatch:
        """`size` transitions drawn uniformly (with replacement)."""
        device = torch.device(device)
        rows = [self.transitions.rows[i] for i in self.rng.integers(len(self), size=size)]
        column = lambda k: torch.tensor([[r[k]] for r in rows], device=device)  # noqa: E731
        actions = torch.tensor([[self.data.items[r[0]][3]] for r in rows], device=device)
        return DemoBatch(self._observations([r[0] for r in rows], device), actions,
                         self._observations([r[1] for r in rows], device),
                         column(2).float(), column(3).float())

    def state(self) -> dict[str, Any]:
        return self.rng.bit_generator.state

    def restore(self, state: dict[str, Any]) -> None:
        self.rng.bit_generator.state = state

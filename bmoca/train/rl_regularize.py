"""Keeping RL near the BC policy it starts from, and DQN near the expert's actions.

Fine-tuning a cloned policy on a sparse reward drifts away from what cloning got right:
each update that fixes one configuration moves look-alike ones (docs/training.md). Two
terms pull it back, each with its coefficient (0: off):

- `kl_coef` · KL(π_BC(·|s) ‖ π(·|s)) over the states of the batch being trained on, with
  π_BC a frozen copy of the starting network (the policy's softmax; DQN's is the
  softmax of its Q-values, which start as the BC logits);
- `bc_coef` · the cross-entropy of the expert's action under π on a batch of
  demonstration steps (`bmoca.train.rl_demos`).

For PPO the terms join every minibatch's gradient step through an optimizer pre-step hook
(stable-baselines3's PPO.train stays as it is: its loss has been backpropagated and its
gradient clipped when the hook adds the terms' gradients). DQN's own `train` adds them,
with DQfD's large-margin loss (`margin_loss`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch
from torch.nn import functional

from bmoca.train.rl_demos import Demonstrations

__all__ = ["Regularizer", "install_ppo_hook", "margin_loss"]

Logits = Callable[[Any], torch.Tensor]


def margin_loss(q_values: torch.Tensor, expert: torch.Tensor, margin: float) -> torch.Tensor:
    """DQfD's supervised loss: max_a [Q(s, a) + l(a_E, a)] − Q(s, a_E), with l = `margin`
    for every action but the expert's (0). Zero once the expert's action leads all others
    by the margin."""
    bonus = torch.full_like(q_values, margin).scatter(1, expert, 0.0)
    return ((q_values + bonus).max(dim=1).values - q_values.gather(1, expert)[:, 0]).mean()


def kl_to_reference(reference: torch.Tensor, logits: torch.Tensor) -> torch.Tensor:
    """KL(softmax(reference) ‖ softmax(logits)), averaged over the batch."""
    ref = functional.log_softmax(reference, dim=1)
    return (ref.exp() * (ref - functional.log_softmax(logits, dim=1))).sum(dim=1).mean()


class Regularizer:
    """The two terms of the module doc for one model: `logits` gives the trained policy's
    logits for a batch of observations (in the buffers' form), `reference` the frozen
    starting policy's."""

    def __init__(self, logits: Logits, reference: Logits, *, kl_coef: float = 0.0,
                 bc_coef: float = 0.0, demos: Demonstrations | None = None,
                 batch_size: int = 32, device: torch.device | str = "cpu") -> None:
        if bc_coef and demos is None:
            raise ValueError("a BC term (bc_coef) needs demonstrations")
        self.logits, self.reference = logits, reference
        self.kl_coef, self.bc_coef, self.demos = kl_coef, bc_coef, demos
        self.batch_size, self.device = batch_size, device
        self.last: dict[str, float] = {}

    @property
    def active(self) -> bool:
        return bool(self.kl_coef or self.bc_coef)

    def loss(self, observations: Any) -> torch.Tensor | None:
        """The weighted terms on `observations` (KL) and a fresh demonstration batch (BC)."""
        total = None
        if self.kl_coef and observations is not None:
            with torch.no_grad():
                reference = self.reference(observations)
            kl = kl_to_reference(reference, self.logits(observations))
            self.last["kl"] = float(kl.detach())
            total = self.kl_coef * kl
        if self.bc_coef:
            batch = self.demos.sample(self.batch_size, self.device)
            ce = functional.cross_entropy(self.logits(batch.observations), batch.actions[:, 0])
            self.last["bc"] = float(ce.detach())
            total = self.bc_coef * ce if total is None else total + self.bc_coef * ce
        return total


def install_ppo_hook(policy: Any, regularizer: Regularizer) -> None:
    """Add the regularizer's gradient to each of PPO's optimizer steps, on the states of
    the minibatch that step trains on (`policy.last_observations`, which the policy keeps
    from `evaluate_actions`)."""

    def before_step(optimizer: Any, args: Any, kwargs: Any) -> None:
        if getattr(policy, "actor_frozen", False):  # the critic's warm-up (rl.freeze_actor)
            return
        loss = regularizer.loss(getattr(policy, "last_observations", None))
        if loss is not None:
            loss.backward()

    policy.optimizer.register_step_pre_hook(before_step)

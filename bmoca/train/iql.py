"""Offline RL on demonstration datasets: implicit Q-learning (IQL; Kostrikov et al., 2022)
for the 385-way discrete action, as B-MoCA's first version trained its IQL agent.

Why not d3rlpy: its IQL is for continuous actions only, and its release pins an old
gymnasium (and installs the unmaintained gym) over the one the benchmark runs on. IQL is
three small losses on top of the networks bmoca already has:

- value: expectile regression of V(s) towards min(Q1, Q2)(s, a) of the target critic
  (expectile `tau`, 0.7), so V estimates the best in-data action without querying
  out-of-data actions;
- critic: Q(s, a) towards r + γ·(1 − done)·V(s');
- actor: advantage-weighted behaviour cloning, exp(β·(Q − V)) clipped at `max_weight`,
  times the cross-entropy of the data's action.

Transitions come from each demonstration's consecutive steps with a discrete action
(`StepDataset`), reward 1 on the last step of a successful episode and 0 elsewhere. The
actor is a `Policy` (optionally started from a BC checkpoint) and is saved as a BC-format
checkpoint, so `iql:PATH` (or `bc:PATH`) plays it in `bmoca eval`.

Batches are drawn in the main process from a seeded generator and built (screens decoded)
in `workers` DataLoader processes; a resumed run replays the draws up to its checkpoint,
so it ends with the weights of an uninterrupted run.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import torch
from torch import nn
from torch.nn import functional

from bmoca.train import TrainError
from bmoca.train.checkpoints import (
    Checkpointing,
    autocast,
    grad_scaler,
    resolve_device,
    rng_state,
    set_rng_state,
    use_amp,
)
from bmoca.train.datasets import StepDataset
from bmoca.train.models import OUTPUTS, Policy, build_policy, new_config

__all__ = ["IQLSettings", "Transitions", "train"]


@dataclass
class IQLSettings:
    steps: int = 1000
    batch_size: int = 32
    lr: float = 3e-4
    gamma: float = 0.9
    expectile: float = 0.7       # tau of the value loss
    temperature: float = 3.0     # beta of the advantage weights
    max_weight: float = 100.0
    target_update: float = 0.005  # polyak rate of the target critic
    seed: int = 0
    device: str = "cpu"  # cpu, cuda, cuda:1, mps, auto
    amp: bool | None = None  # mixed precision; None: on for CUDA only
    workers: int = 0  # DataLoader worker processes building batches


class Transitions:
    """(s, a, r, s', done) index tuples over a `StepDataset`'s steps."""

    def __init__(self, data: StepDataset, successful: Callable[[int], bool] | None = None):
        self.data = data
        rows: list[tuple[int, int, float, float]] = []
        for demo, steps in enumerate(data.demo_steps):
            won = True if successful is None else successful(demo)
            for k, index in enumerate(steps):
                last = k == len(steps) - 1
                rows.append((index, steps[k + 1] if not last else index,
                             1.0 if (last and won) else 0.0, 1.0 if last else 0.0))
        self.rows = rows

    def __len__(self) -> int:
        return len(self.rows)

    def batch(self, picks: np.ndarray) -> dict[str, Any]:
        items = [self.data[self.rows[i][0]] for i in picks]
        nexts = [self.data[self.rows[i][1]] for i in picks]
        return {"pixels": torch.stack([i["pixels"] for i in items]),
                "next_pixels": torch.stack([i["pixels"] for i in nexts]),
                "goal": [i["goal"] for i in items],
                "action": torch.tensor([i["action"] for i in items], dtype=torch.long),
                "reward": torch.tensor([self.rows[i][2] for i in picks]),
                "done": torch.tensor([self.rows[i][3] for i in picks])}


class _Batches(torch.utils.data.Dataset):
    """Map-style view of `Transitions` whose index is a batch's picks (for DataLoader
    workers: the picks are drawn in the main process, the screens decoded in a worker)."""

    def __init__(self, transitions: Transitions) -> None:
        self.transitions = transitions

    def __len__(self) -> int:
        return len(self.transitions)

    def __getitem__(self, picks: tuple[int, ...]) -> dict[str, Any]:
        return self.transitions.batch(np.asarray(picks))


class _Picks(torch.utils.data.Sampler):
    """`steps` batches of uniform picks from a seeded generator, from batch `start` on
    (the ones before are drawn and dropped: a resumed run gets the batches that follow)."""

    def __init__(self, size: int, settings: IQLSettings, start: int) -> None:
        self.size, self.settings, self.start = size, settings, start

    def __len__(self) -> int:
        return max(0, self.settings.steps - self.start)

    def __iter__(self):
        rng = np.random.default_rng(self.settings.seed)
        for step in range(self.settings.steps):
            picks = rng.integers(self.size, size=self.settings.batch_size)
            if step >= self.start:
                yield tuple(int(p) for p in picks)


def _as_is(batch: dict[str, Any]) -> dict[str, Any]:
    return batch


class Critic(nn.Module):
    """Twin Q heads and a V head on one copy of the policy's encoder."""

    def __init__(self, network: Policy) -> None:
        super().__init__()
        self.backbone = copy.deepcopy(network)
        hidden, actions = network.features_dim, OUTPUTS["discrete"]
        self.q1, self.q2 = nn.Linear(hidden, actions), nn.Linear(hidden, actions)
        self.v = nn.Linear(hidden, 1)

    def forward(self, pixels: torch.Tensor, goals: list[str]):
        features = self.backbone.features(pixels, goals)
        return self.q1(features), self.q2(features), self.v(features).squeeze(-1)


def expectile_loss(diff: torch.Tensor, tau: float) -> torch.Tensor:
    weight = torch.where(diff > 0, tau, 1 - tau)
    return (weight * diff.pow(2)).mean()


def train(data: StepDataset, settings: IQLSettings, *, actor: Policy | None = None,
          on_step: Callable[[int, dict[str, float]], None] | None = None,
          checkpointing: Checkpointing | None = None,
          ) -> tuple[Policy, list[dict[str, float]]]:
    """Train an actor (and its critic) on the dataset's transitions; returns the actor and
    the losses per step. `checkpointing` writes resumable checkpoints and resumes."""
    if not len(data):
        raise TrainError("the dataset holds no steps with a discrete action to learn from")
    saved = checkpointing.read() if checkpointing else None
    device = resolve_device(settings.device)
    torch.manual_seed(settings.seed)
    if actor is None:
        actor = build_policy(new_config())
    elif actor.config.get("action", "discrete") != "discrete":
        raise TrainError("IQL here learns the discrete (385-way) action")
    actor = copy.deepcopy(actor).to(device).train()
    critic = Critic(actor).to(device).train()
    target = copy.deepcopy(critic).requires_grad_(False).eval()
    transitions = Transitions(data)
    actor_opt = torch.optim.Adam([p for p in actor.parameters() if p.requires_grad],
                                 lr=settings.lr)
    critic_opt = torch.optim.Adam([p for p in critic.parameters() if p.requires_grad],
                                  lr=settings.lr)
    amp = use_amp(settings.amp, device)
    scaler = grad_scaler(device, amp)
    history: list[dict[str, float]] = []
    if saved is not None:
        for module, key in ((actor, "actor"), (critic, "critic"), (target, "target")):
            module.load_state_dict(saved[key])
        actor_opt.load_state_dict(saved["actor_optimizer"])
        critic_opt.load_state_dict(saved["critic_optimizer"])
        scaler.load_state_dict(saved["scaler"])
        history = list(saved["history"])
        set_rng_state(saved["rng"])
    first = len(history)
    loader = torch.utils.data.DataLoader(
        _Batches(transitions), batch_size=None, sampler=_Picks(len(transitions), settings, first),
        collate_fn=_as_is, num_workers=settings.workers,
        generator=torch.Generator().manual_seed(settings.seed))
    start = time.perf_counter()
    for step, batch in enumerate(loader, start=first):
        batch = {k: v.to(device) if isinstance(v, torch.Tensor) else v for k, v in batch.items()}
        actions = batch["action"][:, None]
        with torch.no_grad(), autocast(device, amp):
            t1, t2, _ = target(batch["pixels"], batch["goal"])
            q_target = torch.min(t1, t2).gather(1, actions).squeeze(1).float()
            _, _, next_v = critic(batch["next_pixels"], batch["goal"])
            backup = batch["reward"] + settings.gamma * (1 - batch["done"]) * next_v.float()
        with autocast(device, amp):
            q1, q2, v = critic(batch["pixels"], batch["goal"])
            value_loss = expectile_loss(q_target - v.float(), settings.expectile)
            q_loss = (functional.mse_loss(q1.gather(1, actions).squeeze(1).float(), backup)
                      + functional.mse_loss(q2.gather(1, actions).squeeze(1).float(), backup))
        critic_opt.zero_grad(set_to_none=True)
        scaler.scale(value_loss + q_loss).backward()
        scaler.step(critic_opt)
        with torch.no_grad():
            weights = torch.exp(settings.temperature * (q_target - v.detach().float())).clamp(
                max=settings.max_weight)
            for p, tp in zip(critic.parameters(), target.parameters(), strict=True):
                tp.lerp_(p, settings.target_update)
        with autocast(device, amp):
            logits = actor(batch["pixels"], batch["goal"]).float()
        log_probs = functional.log_softmax(logits, dim=-1)
        actor_loss = -(weights * log_probs.gather(1, actions).squeeze(1)).mean()
        actor_opt.zero_grad(set_to_none=True)
        scaler.scale(actor_loss).backward()
        scaler.step(actor_opt)
        scaler.update()
        row = {"step": step + 1, "value_loss": value_loss.item(), "q_loss": q_loss.item(),
               "actor_loss": actor_loss.item(), "mean_weight": weights.mean().item(),
               "seconds": round(time.perf_counter() - start, 2)}
        history.append(row)
        if checkpointing and checkpointing.due(step + 1, settings.steps):
            checkpointing.write({"step": step + 1, "actor": actor.state_dict(),
                                 "critic": critic.state_dict(), "target": target.state_dict(),
                                 "actor_optimizer": actor_opt.state_dict(),
                                 "critic_optimizer": critic_opt.state_dict(),
                                 "scaler": scaler.state_dict(), "history": history,
                                 "rng": rng_state()})
        if on_step is not None:
            on_step(step, row)
    return actor.to("cpu").eval(), history


def settings_dict(settings: IQLSettings) -> dict[str, Any]:
    return asdict(settings)

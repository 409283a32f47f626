"""Behaviour cloning: the training loop, the learning-rate schedule and checkpoints.

`train` draws minibatches with `DemoSampler` (a demonstration uniformly, then a step),
minimises cross-entropy on the 385-way action (or MSE on the dual gesture), with AdamW and
cosine annealing with warm restarts (§6.6), and writes `CHECKPOINT` (a torch file with the
weights, the policy's config and the training settings). `load` rebuilds the policy.
Seeded: the same data, settings and seed give the same weights, and a run resumed from
its checkpoint (`checkpoints.Checkpointing`) ends with the weights of an uninterrupted one.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import torch
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
from bmoca.train.datasets import DemoSampler, StepDataset, collate
from bmoca.train.models import Policy, build_policy, new_config

__all__ = ["Settings", "Result", "batch_loss", "gradient_step", "load", "save", "train"]

FORMAT = "bmoca-bc"


@dataclass
class Settings:
    arch: str = "small"
    action: str = "discrete"
    steps: int = 1000
    batch_size: int = 32
    lr: float = 3e-4
    weight_decay: float = 1e-4
    restart_every: int = 500  # T_0 of cosine warm restarts, in optimisation steps
    seed: int = 0
    device: str = "cpu"  # a torch device: cpu, cuda, cuda:1, mps, auto
    model: dict[str, Any] = field(default_factory=dict)  # extra policy config
    amp: bool | None = None  # mixed precision; None: on for CUDA only
    workers: int = 0  # DataLoader worker processes decoding screens


@dataclass
class Result:
    losses: list[float]
    seconds: float
    samples: int

    @property
    def samples_per_second(self) -> float:
        return self.samples / self.seconds if self.seconds else 0.0


def batch_loss(policy: Policy, batch: dict[str, Any], device: torch.device) -> torch.Tensor:
    """Cross-entropy of the batch's discrete actions (MSE of its gestures for a gesture
    policy): the loss every cloning step minimises, filtered BC's too."""
    out = policy(batch["pixels"].to(device, non_blocking=True), batch["goal"])
    if policy.config.get("action", "discrete") == "discrete":
        return functional.cross_entropy(out, batch["action"].to(device))
    return functional.mse_loss(torch.sigmoid(out), batch["gesture"].to(device))


def gradient_step(policy: Policy, batch: dict[str, Any], optimiser: torch.optim.Optimizer,
                  scaler: Any, device: torch.device, amp: bool) -> float:
    """One optimiser step on `batch_loss` (autocast and loss scaling as `amp` says);
    returns the loss."""
    with autocast(device, amp):
        loss = batch_loss(policy, batch, device)
    optimiser.zero_grad(set_to_none=True)
    scaler.scale(loss).backward()
    scaler.step(optimiser)
    scaler.update()
    return float(loss.detach())


def train(data: StepDataset, settings: Settings, *, policy: Policy | None = None,
          on_step: Callable[[int, float], None] | None = None,
          checkpointing: Checkpointing | None = None) -> tuple[Policy, Result]:
    """Train a policy on `data` for `settings.steps` minibatches; returns it and the losses.

    With `checkpointing`, a resumable checkpoint every `every` steps, and (`resume`) the
    run continues from the last one: the sampler replays its seeded draws up to it, so the
    batches, and so the final weights, are those of an uninterrupted run."""
    if not len(data):
        raise TrainError("the dataset holds no steps with a discrete action to learn from")
    saved = checkpointing.read() if checkpointing else None
    device = resolve_device(settings.device)
    torch.manual_seed(settings.seed)  # weight initialisation; the sampler has its own seed
    if policy is None:
        config = {**new_config(settings.arch, settings.action), **settings.model}
        policy = build_policy(config)
    policy.to(device)
    params = [p for p in policy.parameters() if p.requires_grad]
    optimiser = torch.optim.AdamW(params, lr=settings.lr, weight_decay=settings.weight_decay)
    schedule = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(
        optimiser, T_0=max(1, settings.restart_every))
    amp = use_amp(settings.amp, device)
    scaler = grad_scaler(device, amp)
    losses: list[float] = []
    if saved is not None:
        policy.load_state_dict(saved["model"], strict=False)
        optimiser.load_state_dict(saved["optimizer"])
        schedule.load_state_dict(saved["scheduler"])
        scaler.load_state_dict(saved["scaler"])
        losses = list(saved["losses"])
        set_rng_state(saved["rng"])
    first = len(losses)
    sampler = DemoSampler(data, seed=settings.seed, start=first * settings.batch_size,
                          num_samples=settings.steps * settings.batch_size)
    loader = torch.utils.data.DataLoader(
        data, batch_size=settings.batch_size, sampler=sampler, collate_fn=collate,
        num_workers=settings.workers, generator=torch.Generator().manual_seed(settings.seed))
    policy.train()
    start = time.perf_counter()
    for step, batch in enumerate(loader, start=first):
        losses.append(gradient_step(policy, batch, optimiser, scaler, device, amp))
        schedule.step()
        if checkpointing and checkpointing.due(step + 1, settings.steps):
            checkpointing.write({"step": step + 1, "model": policy.weights(),
                                 "optimizer": optimiser.state_dict(),
                                 "scheduler": schedule.state_dict(),
                                 "scaler": scaler.state_dict(), "losses": losses,
                                 "rng": rng_state()})
        if on_step is not None:
            on_step(step, losses[-1])
    seconds = time.perf_counter() - start
    policy.to("cpu").eval()  # checkpoints and agents work on the CPU
    return policy, Result(losses, seconds, (len(losses) - first) * settings.batch_size)


def save(policy: Policy, path: str | Path, settings: Settings | None = None,
         extra: dict[str, Any] | None = None) -> Path:
    """Write weights and config to `path` (parents created); returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"format": FORMAT, "version": 1, "config": policy.config,
                "state": policy.weights(),
                "settings": asdict(settings) if settings else None, "extra": extra or {}},
               path)
    return path


def _refusal(exc: Exception) -> str:
    """Why torch's safe loader refused a file, in a few words (its own message is a
    paragraph of advice to load the file unsafely, which bmoca never does)."""
    message = re.sub(r"\x1b\[[0-9;]*m", "", str(exc))
    found = re.search(r"GLOBAL (\S+) was not an allowed global", message)
    if found:
        return (f"it holds {found.group(1)}, which a checkpoint may not hold: loading it "
                "could run code")
    if "Weights only load failed" in message:
        return "not a torch file of tensors and plain values"
    first = message.strip().splitlines()[0] if message.strip() else type(exc).__name__
    return first[:160]


def load(path: str | Path) -> Policy:
    """The policy stored in a checkpoint, in eval mode."""
    path = Path(path)
    if not path.is_file():
        raise TrainError(f"{path}: no such checkpoint (train one with `bmoca train bc`)")
    try:
        saved = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as exc:  # noqa: BLE001 - any unreadable file is one error
        raise TrainError(f"{path}: not a bmoca checkpoint ({_refusal(exc)})") from None
    if not isinstance(saved, dict) or saved.get("format") != FORMAT:
        raise TrainError(f"{path}: not a bmoca BC checkpoint")
    policy = build_policy(saved["config"])
    missing, unexpected = policy.load_state_dict(saved["state"], strict=False)
    missing = [k for k in missing if k not in policy.weights()]
    if missing or unexpected:
        raise TrainError(f"{path}: weights do not match the config (missing {missing[:3]}, "
                         f"unexpected {unexpected[:3]})")
    return policy.eval()

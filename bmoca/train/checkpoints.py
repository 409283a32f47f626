"""Runs that survive: resumable checkpoints, devices and mixed precision for every trainer.

A resumable checkpoint (`OUT.ckpt`, beside the trainer's `--out`) holds what the next
step needs to be the step an uninterrupted run would take: the weights, the optimiser,
scheduler and gradient scaler states, the step count, the random generators' states, and
the run's `spec` (the options that decide the result). It is written to a temporary file
and moved over the old one (`os.replace`), so a run killed while writing leaves the
previous checkpoint whole. Data order is not stored: the samplers are seeded and replay
their draws up to the checkpoint's step, so the same batches follow.

`--resume` refuses a checkpoint whose spec differs from the run's (another trainer, arch,
task, seed...): the result would be neither run's. Device, precision, data workers and
threads are left out of the spec: they change where and how fast a run goes, not what it
learns (mixed precision does round differently: resume with the same `--amp`).
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

from bmoca.train import TrainError, check_device_name

__all__ = ["Checkpointing", "autocast", "checkpoint_path", "grad_scaler", "resolve_device",
           "rng_state", "run_spec", "set_rng_state", "use_amp"]

FORMAT = "bmoca-resume"
RUNTIME_KEYS = frozenset({"device", "amp", "workers", "threads", "subprocess"})
"""Settings that change where and how fast a run goes, not its result: not in the spec."""


# -- devices and precision ----------------------------------------------------------------

def resolve_device(value: str) -> torch.device:
    """The torch device `value` names, if this machine has it: `auto` is the first of
    cuda, mps and cpu that is there; a missing one is a TrainError, not a crash later."""
    name = check_device_name(value)
    mps = getattr(torch.backends, "mps", None)
    has_mps = bool(mps and mps.is_available())
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "mps" if has_mps else "cpu")
    if name.startswith("cuda"):
        if not torch.cuda.is_available():
            why = "torch is built without CUDA" if torch.version.cuda is None else \
                "no CUDA device is visible"
            raise TrainError(f"--device {name}: {why} on this machine; use cpu or auto")
        index = int(name.split(":")[1]) if ":" in name else 0
        if index >= torch.cuda.device_count():
            raise TrainError(f"--device {name}: this machine has {torch.cuda.device_count()} "
                             "CUDA device(s)")
    if name == "mps" and not has_mps:
        raise TrainError("--device mps: no Apple GPU (MPS) on this machine; use cpu or auto")
    return torch.device(name)


def use_amp(amp: bool | None, device: torch.device) -> bool:
    """Mixed precision: as asked, and by default on CUDA only."""
    return device.type == "cuda" if amp is None else amp


def autocast(device: torch.device, enabled: bool) -> Any:
    """torch.autocast for the device: float16 on GPUs (CUDA, MPS), bfloat16 on the CPU
    (its only fast reduced type)."""
    dtype = torch.bfloat16 if device.type == "cpu" else torch.float16
    return torch.autocast(device.type, dtype=dtype, enabled=enabled)


def grad_scaler(device: torch.device, enabled: bool) -> Any:
    """Loss scaling for float16 on CUDA (bfloat16 has float32's range: no scaling); a
    disabled scaler passes the loss and the step through unchanged."""
    on = enabled and device.type == "cuda"
    if not hasattr(torch.amp, "GradScaler"):  # torch < 2.3
        return torch.cuda.amp.GradScaler(enabled=on)
    return torch.amp.GradScaler("cuda" if device.type == "cuda" else "cpu", enabled=on)


# -- random generators ---------------------------------------------------------------------

def rng_state() -> dict[str, Any]:
    """The global generators' states (torch, CUDA, numpy, python), as plain values and
    tensors that torch's safe loader reads."""
    name, keys, pos, has_gauss, gauss = np.random.get_state()
    return {"torch": torch.get_rng_state(),
            "cuda": torch.cuda.get_rng_state_all() if torch.cuda.is_available() else [],
            "numpy": [name, torch.from_numpy(keys.astype(np.int64)), int(pos),
                      int(has_gauss), float(gauss)],
            "python": random.getstate()}


def set_rng_state(state: dict[str, Any]) -> None:
    torch.set_rng_state(state["torch"])
    if state["cuda"] and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state["cuda"])
    name, keys, pos, has_gauss, gauss = state["numpy"]
    np.random.set_state((name, keys.numpy().astype(np.uint32), pos, has_gauss, gauss))
    version, internal, gauss_next = state["python"]
    random.setstate((version, tuple(internal), gauss_next))


# -- checkpoint files ----------------------------------------------------------------------

def checkpoint_path(out: str | Path) -> Path:
    """Where a run writing `out` keeps its resumable checkpoint: `OUT.ckpt`."""
    out = Path(out)
    return out.with_name(out.name + ".ckpt")


def run_spec(trainer: str, settings: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """What decides a run's result: the trainer, its settings less the runtime ones, and
    what it learns from (data, tasks, a starting checkpoint)."""
    kept = {k: v for k, v in settings.items() if k not in RUNTIME_KEYS}
    return {"trainer": trainer, **kept, **{k: _plain(v) for k, v in extra.items()}}


def _plain(value: Any) -> Any:
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


@dataclass
class Checkpointing:
    """Where and how often a run checkpoints, and whether it starts from its checkpoint."""

    path: Path
    every: int = 0  # steps (iterations for PPO/DQN) between checkpoints; 0: none
    resume: bool = False
    spec: dict[str, Any] = field(default_factory=dict)

    def due(self, done: int, total: int) -> bool:
        """Whether to checkpoint after `done` of `total` steps (never after the last one:
        the trainer writes its output then)."""
        return bool(self.every) and done % self.every == 0 and done < total

    def write(self, state: dict[str, Any]) -> Path:
        """Write `state` atomically (temporary file, then rename over the old one)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        torch.save({"format": FORMAT, "version": 1, "spec": self.spec, **state}, temporary)
        os.replace(temporary, self.path)
        return self.path

    def read(self) -> dict[str, Any] | None:
        """The checkpoint to resume from (None without `resume`); TrainError if there is
        none, it is unreadable, or it was written by a run with another spec."""
        if not self.resume:
            return None
        if not self.path.is_file():
            raise TrainError(f"--resume: no checkpoint at {self.path} (a run writes one with "
                             "--checkpoint-every N)")
        try:
            saved = torch.load(self.path, map_location="cpu", weights_only=True)
        except Exception as exc:  # noqa: BLE001 - any unreadable file is one error
            raise TrainError(f"--resume: {self.path} is not readable ({str(exc)[:120]})") \
                from None
        if not isinstance(saved, dict) or saved.get("format") != FORMAT:
            raise TrainError(f"--resume: {self.path} is not a bmoca resumable checkpoint")
        differs = spec_difference(saved.get("spec", {}), self.spec)
        if differs:
            raise TrainError(f"--resume: {self.path} is from another run ({differs}); "
                             "use the same options, or start afresh without --resume")
        return saved


def spec_difference(saved: dict[str, Any], wanted: dict[str, Any]) -> str:
    """'' when the specs agree, else the first difference in a few words."""
    for key in sorted(set(saved) | set(wanted)):
        if _plain(saved.get(key)) != _plain(wanted.get(key)):
            return f"{key} {saved.get(key)!r} there, {wanted.get(key)!r} here"
    return ""

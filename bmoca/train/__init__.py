"""Training agents on expert demonstrations (`bmoca train`): datasets, models, the BC loop.

Needs the `train` extra (`pip install -e ".[train]"`: torch). Nothing here is imported by
`import bmoca`; `require_torch` gives the one-line error the command line prints.
"""

from __future__ import annotations

import re

__all__ = ["DEVICE_CHOICES", "TrainError", "check_device_name", "require_torch"]

DEVICE_CHOICES = ("cpu", "cuda", "cuda:N", "mps", "auto")
_DEVICE = re.compile(r"cpu|mps|auto|cuda(:\d+)?")


class TrainError(RuntimeError):
    """Training cannot start or a checkpoint cannot be used; the message says why."""


def require_torch():
    """The torch module, or TrainError with the install line."""
    try:
        import torch
    except ImportError:
        raise TrainError("training needs torch: pip install -e '.[train]'") from None
    return torch


def check_device_name(value: str) -> str:
    """`value` lower-cased if it names a kind of torch device, else TrainError naming the
    choices (no torch call: the command line checks it before loading anything)."""
    name = value.strip().lower()
    if not _DEVICE.fullmatch(name):
        raise TrainError(f"unknown device {value!r}; choose one of {', '.join(DEVICE_CHOICES)}")
    return name

"""Training agents on expert demonstrations (`bmoca train`): datasets, models, the BC loop.

Needs the `train` extra (`pip install -e ".[train]"`: torch). Nothing here is imported by
`import bmoca`; `require_torch` gives the one-line error the command line prints.
"""

from __future__ import annotations

__all__ = ["TrainError", "require_torch"]


class TrainError(RuntimeError):
    """Training cannot start or a checkpoint cannot be used; the message says why."""


def require_torch():
    """The torch module, or TrainError with the install line."""
    try:
        import torch
    except ImportError:
        raise TrainError("training needs torch: pip install -e '.[train]'") from None
    return torch

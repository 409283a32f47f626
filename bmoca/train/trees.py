"""Observations that are an array or a dict of arrays, handled alike.

A goal-conditioned run observes {"pixels": the screen, "task": its index}; a single-task
run the screen alone. The replay buffers, the demonstration batches and the resumable
checkpoints slice, join, stack and convert both through `tree_map`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["tree_map"]


def tree_map(fn: Callable[..., Any], *trees: Any) -> Any:
    """`fn` applied to the leaves of `trees` (arrays, or dicts of arrays with the same
    keys), position by position: `fn(a, b)` for arrays, `{k: fn(a[k], b[k])}` for dicts."""
    if isinstance(trees[0], dict):
        return {k: fn(*(tree[k] for tree in trees)) for k in trees[0]}
    return fn(*trees)

"""Painted screens phones keep to hand out again when they come back.

A random or scripted agent often returns to a screen it saw a few inputs ago (the page
BACK returns to, home after HOME); painting it and scaling it again was most of a pixel
step. A paint is a function of the windows' looks (kinds, keys, boxes, dims, and the very
system bar windows) and of what else the painter reads (`Painter.inputs`), so a kept
image with equal looks and inputs is the image a new paint would give, byte for byte.
The images are kept for the whole process within a budget of bytes, so that many phones
in one process cost no more than one.
"""

from __future__ import annotations

from typing import Any

BUDGET_BYTES = 40 << 20
"""What the kept images of all phones in the process may hold: four 1080x2160 screens
(Pillow keeps RGB at 4 bytes a pixel)."""


def same_windows(a: list, b: list) -> bool:
    """Window by window: equal keys, or the very same (cached system bar) window."""
    return len(a) == len(b) and all(x is y or (isinstance(x, tuple) and x == y)
                                    for x, y in zip(a, b, strict=True))


class KeptScreens:
    """(owner, size, looks, inputs, image) of recent paints, oldest first, bounded by a
    count per owner and by bytes for all of them together."""

    def __init__(self, budget_bytes: int = BUDGET_BYTES):
        self.budget_bytes = budget_bytes
        self._entries: list[tuple] = []

    def find(self, owner: object, size: tuple[int, int], looks: list, inputs: tuple) -> Any:
        """The kept image of `owner` painted from the same looks and inputs, else None."""
        for kept in reversed(self._entries):
            if (kept[0] is owner and kept[1] == size and same_windows(kept[2], looks)
                    and kept[3] == inputs):
                return kept[4]
        return None

    def keep(self, owner: object, count: int, size: tuple[int, int], looks: list,
             inputs: tuple, image: Any) -> None:
        """Keep `image` as `owner`'s newest, dropping its oldest past `count` and anyone's
        oldest past the budget."""
        entries = [e for e in self._entries if e[4] is not image]
        entries.append((owner, size, looks, inputs, image))
        mine = [i for i, e in enumerate(entries) if e[0] is owner]
        dropped = set(mine[:max(0, len(mine) - count)])
        entries = [e for i, e in enumerate(entries) if i not in dropped]
        total = sum(_bytes(e[1]) for e in entries)
        while entries and total > self.budget_bytes:
            total -= _bytes(entries.pop(0)[1])
        self._entries = entries

    def forget(self, owner: object) -> None:
        """Drop everything `owner` kept (a phone that is gone)."""
        self._entries = [e for e in self._entries if e[0] is not owner]

    def __len__(self) -> int:
        return len(self._entries)


def _bytes(size: tuple[int, int]) -> int:
    return size[0] * size[1] * 4


SHARED = KeptScreens()
"""The process's kept screens."""

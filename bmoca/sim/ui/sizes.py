"""Layout results kept across frames: a view subtree measures and arranges itself the same
wherever it stands.

Screens are rebuilt after every input, and most of a new tree is the old one again (a
scroll moves every row but changes none of their sizes; going back rebuilds the page
before). Measuring is a pure function of what a subtree holds (its sizes, margins,
padding, text, font, icon, gravity, children), the space it is offered and the display
(density, font scale, direction, locale's text metrics); so is the arrangement of its
views relative to its corner, given its size, when it lies whole on screen and holds no
scrolling container. So each subtree gets a number by its content (equal subtrees, equal
numbers, in any tree of any phone) and its sizes and arrangements are kept under that
number per display.
"""

from __future__ import annotations

from collections.abc import Hashable
from operator import attrgetter

from bmoca.sim.ui.view import View

LAID_OUT = attrgetter("width", "height", "weight", "margin", "padding", "text", "hint",
                      "text_size", "font_weight", "max_lines", "include_font_padding", "icon", "icon_size",
                      "orientation", "spacing", "absolute", "gravity", "mirror", "scrollable",
                      "scroll_key")
"""Every field of a view that layout reads (its children's aside); a field layout comes to
read must be added here, or a kept size or arrangement would miss it."""

DISPLAYS = 16
"""Displays whose sizes are kept at once (a process may see many configurations)."""
MEASURE_CACHE_BYTES = 24 << 20
"""What the numbers, sizes and arrangements of `SHARED` hold at most, in bytes (about:
each is counted as it is kept, by its shape): a subtree's number holds its text, and an
arrangement one entry per view under it, so a count of subtrees bounds no bytes."""
NODE_BYTES = 360
"""A number kept: its dict slot and uses-height flag, the tuples of its LAID_OUT fields and
of its children (8 bytes a child more), besides its text and hint."""
SIZE_BYTES = 200
"""A size kept: the dict slot, its (number, width, height) key and (width, height) value."""
VIEW_BYTES = 300
"""One view of a kept arrangement: the 8-tuple of its bounds and clip, and their ints."""

INVISIBLE = -1
"""The number of a hidden view: it takes no space, whatever it holds."""


class MeasureCache:
    """Content numbers of subtrees and, per display, their measured sizes.

    Bounded by the bytes it holds (when full it starts again empty, between layout runs,
    so the numbers a run holds stay valid; a run adds at most one screen's subtrees) and
    by the number of displays."""

    def __init__(self, budget: int = MEASURE_CACHE_BYTES):
        self.budget = budget
        self.nbytes = 0
        """Bytes held, as counted when numbers, sizes and arrangements were kept."""
        self.nodes: dict[tuple, int] = {}
        """(measured fields, children's numbers) -> the subtree's number."""
        self.uses_height: dict[int, bool] = {}
        """Whether the subtree's size depends on the height it is offered."""
        self._displays: dict[Hashable, tuple[dict, dict]] = {}

    def display(self, display: Hashable) -> tuple[dict[tuple[int, int, int], tuple[int, int]],
                                                  dict[tuple[int, int, int], tuple | None]]:
        """For one display: (number, offered width, offered height or -1) -> size, and
        (number, width, height) -> the arrangement of the subtree's views (None: not kept).
        Called once per layout run, which is when a full cache starts again."""
        if self.nbytes > self.budget:
            self.nbytes = 0
            self.nodes.clear()
            self.uses_height.clear()
            self._displays.clear()
        found = self._displays.get(display)
        if found is None:
            if len(self._displays) >= DISPLAYS:  # forget the display seen first
                del self._displays[next(iter(self._displays))]
            found = self._displays[display] = ({}, {})
        return found

    def number(self, view: View, numbers: dict[int, int]) -> int:
        """The content number of `view`'s subtree, noting each view's in `numbers` (by id)."""
        children = view.children
        if children:
            sub = tuple([self.number(c, numbers) if c.visible else INVISIBLE
                         for c in children])
        else:
            sub = ()
        node = (LAID_OUT(view), sub)
        nodes = self.nodes
        found = nodes.get(node)
        if found is None:
            found = nodes[node] = len(nodes)
            self.nbytes += NODE_BYTES + 8 * len(sub) + _text_bytes(view.text) + _text_bytes(
                view.hint)
        numbers[id(view)] = found
        return found


def _text_bytes(text: object) -> int:
    return len(text) + 49 if isinstance(text, str) else 0


SHARED = MeasureCache()
"""The cache every phone of the process uses (sizes depend on the display, not the phone)."""

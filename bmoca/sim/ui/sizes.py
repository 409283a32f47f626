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

INVISIBLE = -1
"""The number of a hidden view: it takes no space, whatever it holds."""


class MeasureCache:
    """Content numbers of subtrees and, per display, their measured sizes.

    Bounded by the number of distinct subtrees (when full it starts again empty, between
    layout runs, so the numbers a run holds stay valid) and of displays."""

    def __init__(self, limit: int = 40_000):
        self.limit = limit
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
        if len(self.nodes) > self.limit:
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
        numbers[id(view)] = found
        return found


SHARED = MeasureCache()
"""The cache every phone of the process uses (sizes depend on the display, not the phone)."""

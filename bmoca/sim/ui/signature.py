"""What a built view tree looks like, as one comparable value, and moving a layout's result
from one tree to an identical one.

Screens are rebuilt from state after every input, but most inputs (a tap on an inert
spot, a scroll at the end of a list, a key nobody handles) leave the new tree exactly as
the last one. Comparing the two costs a walk; laying the new one out again cost half of
a step. Handlers are closures made afresh by each build: the signature records only
whether a view has one (the dump and the painter read no more of them), and a custom
painter (`draw`) by its code and the plain values it closes over; a painter that closes
over anything else (a file system, a model) makes the tree unlike every other, so what
it draws is never reused.
"""

from __future__ import annotations

from dataclasses import fields
from operator import attrgetter
from typing import Any

from bmoca.sim.ui.view import Box, View

_HANDLERS = ("on_click", "on_long_click", "on_drag", "on_swipe", "on_text", "on_submit")
_SKIPPED = {"children", "bounds", "clip", "draw", *_HANDLERS}
_VALUES = attrgetter(*(f.name for f in fields(View) if f.name not in _SKIPPED))
_PLAIN = (str, int, float, bool, type(None))


class _Opaque:
    """Equal to nothing but itself: stands for a value the signature cannot compare."""

    __slots__ = ()


def signature(root: View, views: list[View] | None = None) -> list:
    """Everything about a tree that layout, the dump and the painter read, before layout:
    one entry per view in a fixed walk order, each with its number of children. `views`,
    if given, receives the views in that order (what `transplant` takes)."""
    out = []
    add = out.append
    stack = [root]
    pop, push = stack.pop, stack.extend
    keep = views.append if views is not None else None
    while stack:
        view = pop()
        if keep is not None:
            keep(view)
        children, draw = view.children, view.draw
        add((_VALUES(view), view.on_click is None, view.on_long_click is None,
             view.on_drag is None, view.on_swipe is None, view.on_text is None,
             view.on_submit is None, None if draw is None else _painter_key(draw), len(children)))
        push(children)
    return out


def paints_from_state(sig: list) -> bool:
    """Whether a view of the tree has a custom painter that closes over more than plain
    values: what it draws may change while the signature stays the same."""
    return any(type(entry[7]) is _Opaque for entry in sig)  # 7: the painter's key


def _painter_key(draw: Any) -> Any:
    closure = getattr(draw, "__closure__", None)
    code = getattr(draw, "__code__", None)
    if code is None:
        return _Opaque()
    if not closure:
        return draw  # a module-level function: the same object each build
    cells = tuple(cell.cell_contents for cell in closure)
    if all(_is_plain(value) for value in cells):
        return code, cells, draw.__defaults__
    return _Opaque()


def _is_plain(value: Any) -> bool:
    if isinstance(value, _PLAIN):
        return True
    if isinstance(value, tuple):
        return all(_is_plain(item) for item in value)
    return False


def transplant(placed: tuple[list[Box], list[Box]], fresh: list[View]) -> None:
    """Give the views of a fresh tree, as `signature` listed them, the bounds and clips of
    the views of a laid-out tree of the same signature, listed the same way (`placed`:
    the same shape, so one walk order fits both trees)."""
    bounds, clips = placed
    if len(bounds) != len(fresh):
        raise ValueError("transplant: trees of different shapes")
    for view, box, clip in zip(fresh, bounds, clips, strict=True):
        view.bounds = box
        view.clip = clip


def placed(views: list[View]) -> tuple[list[Box], list[Box]]:
    """The bounds and clips of laid-out `views`, for `transplant`."""
    return [view.bounds for view in views], [view.clip for view in views]

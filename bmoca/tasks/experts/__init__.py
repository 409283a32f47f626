"""Scripted experts: one plan of stages per task, written in the task's data file.

A plan is a list of one-key mappings, e.g.

    expert:
      - open_app: com.android.settings
      - tap_id: {id: "android:id/title", index: 0}
      - set_switch: {id: "com.android.settings:id/switchWidget", checked: true}

Each key names a stage of `bmoca.tasks.experts.base`; the value is its argument (a
scalar for the first parameter, or a mapping of keyword arguments).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bmoca.tasks.experts import base, calendar, chrome, clock, files, moves
from bmoca.tasks.experts.base import ROUTES, Expert, ExpertStuck, Screen

STAGES = {
    "open_app": base.open_app, "tap_id": base.tap_id, "set_switch": base.set_switch,
    "slide": base.slide, "slide_to": base.slide_to, "tap_if_shown": base.tap_if_shown,
    "wait_for": base.wait_for,
    "tap_unless_shown": base.tap_unless_shown, "back_until": base.back_until,
    **calendar.STAGES,
    **chrome.STAGES,
    **clock.STAGES,
    **files.STAGES,
    **moves.STAGES,
}

__all__ = ["ROUTES", "Expert", "ExpertStuck", "Screen", "build", "check_plan"]


class PlanError(ValueError):
    """An expert plan that names an unknown stage or passes wrong arguments."""


def _stage(item: Any, where: str) -> base.Stage:
    if not isinstance(item, Mapping) or len(item) != 1:
        raise PlanError(f"{where}: each stage is a one-key mapping, got {item!r}")
    (name, arg), = item.items()
    factory = STAGES.get(name)
    if factory is None:
        raise PlanError(f"{where}: unknown stage {name!r}; stages are {', '.join(STAGES)}")
    try:
        if arg is None:  # `- popup_app_info:` names a stage that takes no argument
            return factory()
        return factory(**arg) if isinstance(arg, Mapping) else factory(arg)
    except (TypeError, KeyError, ValueError) as exc:  # wrong arguments, or an unknown app
        raise PlanError(f"{where}: {name}: {exc.args[0] if exc.args else exc}") from None


def check_plan(plan: Any, where: str = "expert") -> None:
    if not isinstance(plan, Sequence) or isinstance(plan, str) or not plan:
        raise PlanError(f"{where}: expected a non-empty list of stages")
    for i, item in enumerate(plan):
        _stage(item, f"{where}[{i}]")


def build(plan: Sequence[Any], route: str = "launcher") -> Expert:
    """A fresh expert for one episode; `route` is how it opens Settings (`base.ROUTES`)."""
    return Expert([_stage(item, f"expert[{i}]") for i, item in enumerate(plan)], route)

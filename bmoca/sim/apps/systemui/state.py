"""What System UI keeps between frames: how far the notification shade is pulled down,
and the flashlight (a torch is not a setting). Kept in the system state's app data, so
snapshots carry it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bmoca.sim.system.server import SYSTEMUI_PACKAGE

CLOSED, QUICK, EXPANDED = 0, 1, 2
"""Shade levels: closed; the first pull (the Quick Quick Settings row and the footer with
the settings gear); the second pull (the full Quick Settings panel with labels and the
brightness slider)."""


@dataclass
class SystemUIData:
    shade: int = CLOSED
    flashlight: bool = False


def data(system: Any) -> SystemUIData:
    found = system.state.app_data.get(SYSTEMUI_PACKAGE)
    if not isinstance(found, SystemUIData):  # a snapshot from before the shade existed
        found = system.state.app_data[SYSTEMUI_PACKAGE] = SystemUIData()
    return found


def shade_level(system: Any) -> int:
    found = system.state.app_data.get(SYSTEMUI_PACKAGE)
    return found.shade if isinstance(found, SystemUIData) else CLOSED


def pull_shade(system: Any) -> None:
    """A downward pull: closed → the quick row; the quick row → the full panel."""
    state = data(system)
    state.shade = min(EXPANDED, state.shade + 1)


def collapse_shade(system: Any) -> None:
    data(system).shade = CLOSED

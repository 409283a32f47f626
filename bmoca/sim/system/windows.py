"""The windows on screen: what the window manager composes and uiautomator, the painter
and input read (a frame is built by `bmoca.sim.frame.compose`)."""

from __future__ import annotations

from dataclasses import dataclass

from bmoca.sim.system.activity import ActivityRecord
from bmoca.sim.ui.layout import Layout, ScrollState
from bmoca.sim.ui.view import Box, View

STATUS_BAR_DP = 24
NAV_BAR_DP = 48
IME_PACKAGE = "com.google.android.inputmethod.latin"


@dataclass
class Window:
    kind: str
    """"app", "dialog", "ime", "status_bar", "nav_bar", "shade"."""
    package: str
    root: View
    box: Box
    record: ActivityRecord | None = None
    scroll: ScrollState | None = None
    dim: bool = False
    """Darken what is below (an AlertDialog's dim; a popup has none)."""


@dataclass
class Frame:
    windows: list[Window]
    """Bottom to top."""
    layout: Layout
    focused: View | None
    status_bar_px: int
    nav_bar_px: int

    @property
    def active(self) -> Window:
        """The window uiautomator dumps: the notification shade when it is pulled down,
        else a dialog if one is up, else the app."""
        for window in reversed(self.windows):
            if window.kind in ("shade", "dialog", "app"):
                return window
        raise RuntimeError("no app window")

    def window(self, kind: str) -> Window | None:
        for window in self.windows:
            if window.kind == kind:
                return window
        return None

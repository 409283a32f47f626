"""The windows on screen: what the window manager composes and uiautomator, the painter
and input read (a frame is built by `bmoca.sim.frame.compose`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from bmoca.sim.system.activity import ActivityRecord
from bmoca.sim.ui.layout import Layout, ScrollState
from bmoca.sim.ui.view import Box, View

STATUS_BAR_DP = 24
NAV_BAR_DP = 48
IME_PACKAGE = "com.google.android.inputmethod.latin"


@dataclass
class Window:
    kind: str
    """"app", "dialog", "ime", "status_bar", "nav_bar", "shade", and a perturbation's
    "toast", "heads_up" or "system_dialog" (`bmoca.sim.apps.systemui.interruptions`)."""
    package: str
    root: View
    box: Box
    record: ActivityRecord | None = None
    scroll: ScrollState | None = None
    dim: bool = False
    """Darken what is below (an AlertDialog's dim; a popup has none)."""
    key: tuple | None = field(default=None, repr=False)
    """What the window was laid out from (tree signature, box, display, scroll state): a
    window with the same key looks and dumps the same (see `bmoca.sim.frame`)."""
    laid_out: View | None = field(default=None, repr=False)
    """The tree the layout ran on (the dialog's holder; else `root`)."""
    placed: tuple[list[Box], list[Box]] | None = field(default=None, repr=False)
    """The bounds and clips of `laid_out`'s views in the signature's walk order: a fresh
    tree of the same key takes them view by view."""
    kept: object | None = field(default=None, repr=False)
    """What the phone's recent windows keep of this one (no views: a tree is freed as
    soon as no frame shows it); its dump is given to it once made."""
    dumped: str | None = field(default=None, repr=False)
    """The window's uiautomator dump, once made."""
    announced: bool = False
    """A perturbation's window that is not focused but announced itself to accessibility
    (a heads-up, a keyboard left open): the dump lists it after the active window."""


@dataclass
class Frame:
    windows: list[Window]
    """Bottom to top."""
    layout: Layout
    focused: View | None
    status_bar_px: int
    nav_bar_px: int
    reads_clock: bool = True
    """Whether building the app, dialog or keyboard window read the clock (the bars'
    clock is apart): if not, the same state draws the same windows a moment later."""
    day: object = None
    """The date the windows showed, when they read only that of the clock."""
    state: tuple | None = None
    """Where the state stood when the frame was built (the device's mark of it)."""
    dumped: str | None = field(default=None, repr=False)
    """The dump of the active window with the announced ones after it, once made."""

    @property
    def active(self) -> Window:
        """The window uiautomator dumps: the notification shade when it is pulled down,
        else a system dialog or the app's dialog if one is up, else the app."""
        for window in reversed(self.windows):
            if window.kind in ("shade", "system_dialog", "dialog", "app"):
                return window
        raise RuntimeError("no app window")

    def window(self, kind: str) -> Window | None:
        for window in self.windows:
            if window.kind == kind:
                return window
        return None

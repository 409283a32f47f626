"""Composing a frame: the windows on screen right now, built from state and laid out in pixels.

Built lazily after any input and reused by every read until the next change, so a
step that dumps the hierarchy and takes a screenshot builds the view trees once. The
trees are built again after every input, but a window whose tree is the same as before
(most inputs change nothing on screen) takes the previous layout instead of a new one. The
frame's shape (`Frame`, `Window`) lives in `bmoca.sim.system.windows`, below the apps and
the renderer that read it.
"""

from __future__ import annotations

from bmoca.sim.apps.base import Context
from bmoca.sim.apps.systemui import interruptions
from bmoca.sim.system.activity import ActivityRecord
from bmoca.sim.system.clock import ClockWatch
from bmoca.sim.system.server import SYSTEMUI_PACKAGE, SystemServer
from bmoca.sim.system.windows import IME_PACKAGE, NAV_BAR_DP, STATUS_BAR_DP, Frame, Window
from bmoca.sim.ui.layout import Layout, ScrollState
from bmoca.sim.ui.signature import placed as placed_bounds
from bmoca.sim.ui.signature import signature, transplant
from bmoca.sim.ui.sizes import MeasureCache
from bmoca.sim.ui.theme import is_dark
from bmoca.sim.ui.view import MATCH, Box, View, frame


def same_key(a: tuple | None, b: tuple) -> bool:
    """`a == b` for two window keys (signature, box, display and focus, scroll state), the
    signature last: a screen scrolled elsewhere or another box differs at once, without a
    walk of two equal signatures."""
    return a is not None and a[3] == b[3] and a[1] == b[1] and a[2] == b[2] and a[0] == b[0]


class KeptWindow:
    """What a recent window leaves for a later one of the same key: no views or handlers,
    so its tree is freed (by reference counting, not by a pass of the collector) as soon
    as no frame shows it."""

    __slots__ = ("kind", "key", "package", "placed", "dumped")

    def __init__(self, window: Window):
        self.kind, self.key, self.package = window.kind, window.key, window.package
        self.placed, self.dumped = window.placed, window.dumped


class RecentWindows:
    """The last few windows a phone laid out: a screen seen a few inputs ago (home after
    HOME, a list scrolled back to where it was, the page BACK returns to) takes their
    layout and dump instead of new ones. Only windows with the same key (tree signature,
    box, display, focus, scroll state) are taken, as from the frame just before."""

    def __init__(self, size: int = 8):
        self.size = size
        self._windows: list[KeptWindow] = []

    def find(self, kind: str, key: tuple, tried: Window | None = None) -> KeptWindow | None:
        """The latest window of `kind` with `key`; `tried`'s, already compared, is skipped."""
        skip = tried.kept if tried is not None else None
        for window in reversed(self._windows):
            if window is not skip and window.kind == kind and same_key(window.key, key):
                return window
        return None

    def remember(self, window: Window, replacing: Window | KeptWindow | None) -> None:
        """Keep `window`, in place of `replacing`, the window it took its layout from (the
        newer is the one whose dump will be made)."""
        if isinstance(replacing, Window):
            replacing = replacing.kept
        window.kept = KeptWindow(window)
        kept = [w for w in self._windows if w is not replacing]
        kept.append(window.kept)
        self._windows = kept[max(0, len(kept) - self.size):]


def compose(system: SystemServer, width: int, height: int, measure,
            bars_cache: dict | None = None, previous: Frame | None = None,
            text_height=None, sizes: MeasureCache | None = None,
            recent: RecentWindows | None = None) -> Frame:
    """The frame for the state as it is; windows whose built tree is the same as in
    `previous` or among the `recent` ones (same signature, box, display and scroll state)
    take its layout. `text_height(text, size, weight, max_width, max_lines)` is the
    height of text as the renderer wraps it, which rows with wrapping text grow by; `sizes` keeps measured
    subtrees across frames (`measure` must then depend on nothing but the display: density,
    font scale, locale)."""
    rtl = Context(system, SYSTEMUI_PACKAGE).rtl
    display = (system.density, system.font_scale, rtl, system.locale)
    layout = Layout(system.density, system.font_scale, rtl, measure, text_height, sizes,
                    display)
    before = {w.kind: w for w in previous.windows} if previous is not None else {}

    def place(kind: str, tree: View, box: Box, offsets: ScrollState, focus: str | None,
              **window) -> Window:
        """The window of `kind`, laid out, or with the layout and dump of the one before."""
        just_before = before.get(kind)
        views: list[View] = []
        key = (signature(tree, views), box, (display, focus), _scroll_key(offsets))
        # each comparison of keys walks two signatures: none is made twice
        previous = (just_before if just_before is not None and same_key(just_before.key, key)
                    else None)
        if previous is None and recent is not None:
            previous = recent.find(kind, key, tried=just_before)
        if previous is not None:
            transplant(previous.placed, views)
            key = previous.key  # equal: the fresh signature's tuples die now, not in a GC pass
            bounds = previous.placed
            dumped = previous.dumped if previous.package == window["package"] else None
        else:
            layout.run(tree, box, offsets)
            key, dumped = key[:3] + (_scroll_key(offsets),), None  # extents as laid out
            bounds = placed_bounds(views)
        window.setdefault("root", tree)
        window.setdefault("scroll", offsets)
        made = Window(kind, box=box, key=key, laid_out=tree, placed=bounds, dumped=dumped,
                      **window)
        if recent is not None:
            recent.remember(made, previous)
        return made

    sb, nb = layout.px(STATUS_BAR_DP), layout.px(NAV_BAR_DP)
    record = system.am.top_record()
    assert record is not None, "no foreground activity"
    watch = ClockWatch(system.state.clock)
    system.state.clock = watch  # type: ignore[assignment]
    try:
        windows, focused = _app_windows(system, record, layout, width, height, sb, nb, place)
    finally:
        system.state.clock = watch.clock
    frame_ = Frame(windows, layout, focused, sb, nb, reads_clock=watch.read, day=watch.day)
    return with_bars(system, frame_, width, height, bars_cache)


def _app_windows(system: SystemServer, record: ActivityRecord, layout: Layout, width: int,
                 height: int, sb: int, nb: int, place) -> tuple[list[Window], View | None]:
    """The app's window, its dialog and the keyboard, built and placed."""
    from bmoca.sim.apps.keyboard import app as keyboard

    ctx = Context(system, record.package, record)
    activity = record.activity
    root = decorated(record, activity.build(ctx), layout, sb, nb)
    app_box = (0, 0, width, height) if activity.fullscreen else (0, sb, width, height - nb)
    windows = [place("app", root, (0, 0, width, height), record.scroll, record.focus,
                     package=record.package, record=record)]

    focused = _apply_focus(root, record)
    dialog = activity.dialog(ctx)
    if dialog is not None:
        holder = dialog_holder(record, dialog, layout, app_box)
        window = place("dialog", holder, app_box, ScrollState(), record.focus, root=dialog,
                       package=record.package, record=record, dim=not activity.popup_dialog)
        window.box = dialog.bounds
        windows.append(window)
        focused = _apply_focus(dialog, record) or focused

    forced = interruptions.keyboard_forced(system)
    if focused is not None and forced:
        interruptions.field_focused(system)
        forced = False
    if focused is not None or forced:
        kb_height = int((height - sb - nb) * 0.40)
        kb_box = (0, height - nb - kb_height, width, height - nb)
        # a keyboard left open with no field types into nothing
        kb_root = keyboard.build(Context(system, IME_PACKAGE), focused or View(cls=""))
        windows.append(place("ime", kb_root, kb_box, ScrollState(), None, package=IME_PACKAGE,
                             scroll=None, announced=forced))
    return windows, focused


def decorated(record: ActivityRecord, content: View, layout: Layout, sb: int, nb: int) -> View:
    """An activity's content in its window's decor: full screen, or inset by the bars."""
    if record.activity.fullscreen:
        return frame(content, width=MATCH, height=MATCH)
    decor_content = frame(content, id="android:id/content", width=MATCH, height=MATCH)
    return frame(frame(decor_content, cls="android.widget.LinearLayout",
                       width=MATCH, height=MATCH, padding=_px_to_dp(layout, 0, sb, 0, nb)),
                 width=MATCH, height=MATCH)


def with_bars(system: SystemServer, frame_: Frame, width: int, height: int,
              bars_cache: dict | None = None) -> Frame:
    """`frame_`'s app, dialog and keyboard windows under the status and navigation bars and
    the notification shade as they are now (the clock in the status bar moves on while the
    app stands still)."""
    record = system.am.top_record()
    activity = record.activity
    windows = [w for w in frame_.windows if w.kind in ("app", "dialog", "ime")]
    windows += interruptions.windows(system, frame_.layout, width, height,
                                     frame_.status_bar_px, frame_.nav_bar_px)
    windows += _system_bars(system, frame_.layout, width, height,
                            _light_surface(system, record), activity.fullscreen,
                            activity.bar_color, bars_cache if bars_cache is not None else {})
    shade = _shade(system, frame_.layout, width, height)
    if shade is not None:
        windows.append(shade)
    return Frame(windows, frame_.layout, frame_.focused, frame_.status_bar_px,
                 frame_.nav_bar_px, reads_clock=frame_.reads_clock, day=frame_.day)


def _scroll_key(scroll: ScrollState) -> tuple:
    return tuple(sorted(scroll.offsets.items())), tuple(sorted(scroll.extents.items()))


def _shade(system: SystemServer, layout: Layout, width: int, height: int) -> Window | None:
    """The notification shade over everything, when pulled down; its box is the panel, and
    the rest of the screen is its scrim."""
    from bmoca.sim.apps.systemui import shade, state

    level = state.shade_level(system)
    if level == state.CLOSED:
        return None
    panel = shade.shade(Context(system, SYSTEMUI_PACKAGE), level, width / layout.scale)
    layout.run(frame(panel, width=MATCH, height=MATCH), (0, 0, width, height), ScrollState())
    return Window("shade", SYSTEMUI_PACKAGE, panel, panel.bounds, dim=True)


def _system_bars(system: SystemServer, layout: Layout, width: int, height: int,
                 dark_icons: bool, fullscreen: bool, bar_color: tuple[int, int, int] | None,
                 cache: dict) -> list[Window]:
    """Status and navigation bars, reused while nothing they show has changed."""
    from bmoca.sim.apps.systemui import app as systemui

    ctx = Context(system, SYSTEMUI_PACKAGE)
    key = (width, height, system.density, system.font_scale, system.locale,
           system.night_mode, system.airplane_mode, system.wifi_enabled, dark_icons, fullscreen,
           bar_color, systemui.clock_text(ctx))
    bars = cache.get(key)
    if bars is None:
        sb, nb = layout.px(STATUS_BAR_DP), layout.px(NAV_BAR_DP)
        status = systemui.status_bar(ctx, dark_icons=dark_icons)
        layout.run(status, (0, 0, width, sb), ScrollState())
        nav = systemui.navigation_bar(ctx, bar_color, dark_icons if fullscreen else None)
        layout.run(nav, (0, height - nb, width, height), ScrollState())
        bars = [Window("status_bar", SYSTEMUI_PACKAGE, status, (0, 0, width, sb)),
                Window("nav_bar", SYSTEMUI_PACKAGE, nav, (0, height - nb, width, height))]
        if len(cache) >= 8:
            cache.clear()
        cache[key] = bars
    return bars


def dialog_holder(record: ActivityRecord, dialog: View, layout: Layout, app_box: Box) -> View:
    """The full-window holder a dialog is laid out in: an AlertDialog centred, a popup where
    its own gravity puts it, neither wider than the window."""
    if not record.activity.popup_dialog:
        dialog.gravity = "center"
    _fit_width(dialog, layout, app_box[2] - app_box[0])
    return frame(dialog, width=MATCH, height=MATCH)


def _fit_width(dialog: View, layout: Layout, width_px: int) -> None:
    """A dialog or popup menu never grows past the screen (PopupWindow and AlertDialog clamp
    a fixed width to the display), so at large densities it fills the width instead."""
    if dialog.width > 0:
        margin = layout.px(dialog.margin[0]) + layout.px(dialog.margin[2])
        if layout.px(dialog.width) + margin > width_px:
            dialog.width = MATCH


def _px_to_dp(layout: Layout, *px: int) -> tuple[float, ...]:
    return tuple(p / layout.scale for p in px)


def _apply_focus(root: View, record: ActivityRecord) -> View | None:
    if not record.focus:
        return None
    for view in root.walk():
        if view.on_text is not None and view.id == record.focus and view.on_screen:
            view.focused = True
            return view
    return None


def _light_surface(system: SystemServer, record: ActivityRecord) -> bool:
    """Dark status-bar icons over light app bars, as Android 10 apps request."""
    activity = record.activity
    if activity.bar_color is not None:
        return not is_dark(activity.bar_color)
    status = activity.status_bar_color(system.night_mode)
    if status is not None:
        return not is_dark(status)
    if activity.fullscreen:
        return bool(activity.light_bars(system.night_mode))
    return not system.night_mode

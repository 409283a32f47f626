"""The Pixel launcher's floating menus: an app icon's shortcuts popup and a recent task's menu.

A long press on an app icon (home screen, hotseat, app drawer) opens Launcher3 10's
`PopupContainerWithArrow` over everything in the launcher's window
(`deep_shortcuts_container`, a rounded card with an arrow pointing at the icon). It lists
the app's shortcuts (`bmoca.sim.apps.shortcuts`; each row a `DeepShortcutView` whose
`bubble_text` shows the long label when it fits the row, else the short one) and after
them a grey `system_shortcut_icons` header holding the system shortcut "App info" as an
icon; an app without shortcuts gets a full "App info" row instead. The card opens above the icon when there is room below the status bar, else
below it, and when neither fits it is centred vertically beside the icon. It starts at
the icon's start edge, shifted so its first shortcut icon lines up with the app icon, or
ends at the icon's end edge when it would leave the screen (the start side first in
right-to-left locales), and it is kept inside the screen. Above the icon the rows are
reversed, so the first shortcut is the one nearest the icon (ArrowPopup.reorderAndShow).

A tap on a row starts that shortcut as its app (LauncherApps.startShortcut); App info
starts Settings' `InstalledAppDetails` for the package (`act=android.settings.
APPLICATION_DETAILS_SETTINGS dat=package:<pkg> flg=0x10008000`, from the launcher's uid).
A touch outside the card closes it and goes no further, except on the original icon,
where a tap still opens the app (PopupContainerWithArrow.onControllerInterceptTouchEvent);
a swipe, BACK and HOME close it. A long press on a shortcut row, which on a phone starts
dragging it to the home screen, only closes the card (pinning shortcuts is not modelled).

The Widgets system shortcut (apps with app widgets) is not modelled: the simulator has no
widget picker.

Overview's task menu (TaskMenuView, from a tap or a long press on a task's icon) is the
task's icon and name (`task_icon_and_name`) over its options; only "App info" is modelled
(Split screen, shown for resizable apps, is not).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass

from bmoca.sim.apps.base import Context
from bmoca.sim.apps.shortcuts import Shortcut, shortcuts_of
from bmoca.sim.system.intent import FLAG_ACTIVITY_CLEAR_TASK, FLAG_ACTIVITY_NEW_TASK, Intent
from bmoca.sim.system.server import HOME_PACKAGE
from bmoca.sim.ui.layout import dimension_px
from bmoca.sim.ui.view import MATCH, View, column, frame, row, spacer

Box = tuple[int, int, int, int]

# Launcher3 10's dimens (dp): res/values/dimens.xml, "Deep shortcuts"
ITEM_W = 220.0          # bg_popup_item_width
ITEM_H = 56.0           # bg_popup_item_height
HEADER_H = 48.0         # system_shortcut_header_height
HEADER_ICON = 48.0      # system_shortcut_header_icon_touch_size
SHORTCUT_ICON = 36.0    # deep_shortcut_icon_size
PADDING_START = 10.0    # popup_padding_start
PADDING_END = 16.0      # popup_padding_end
TEXT_START = 56.0       # deep_shortcuts_text_padding_start
DRAG_HANDLE = 16.0      # deep_shortcut_drag_handle_size
DRAWABLE_PADDING = 8.0  # deep_shortcut_drawable_padding
SYSTEM_ICON = 24.0      # system_shortcut_icon_size
SYSTEM_MARGIN = 16.0    # system_shortcut_margin_start
ARROW_W, ARROW_H = 10.0, 8.0  # popup_arrow_width, popup_arrow_height
ARROW_OFFSET = -2.0     # popup_arrow_vertical_offset
VERTICAL_PADDING = 4.0  # popup_vertical_padding
ARROW_START = 28.0      # popup_arrow_horizontal_center_start
ARROW_END = 24.0        # popup_arrow_horizontal_center_end
CORNER = 8.0            # the dialog corner radius the card is clipped to
ELEVATION = 9.0         # deep_shortcuts_elevation
TASK_ICON_OVERLAP = 24.0  # how far Overview's task icon stands above its card
TITLE_TOP = 12.0        # the task menu's padding above its icon
STATUS_BAR, NAV_BAR = 24.0, 48.0
"""The drag layer's insets: the launcher draws under both bars."""

SETTINGS = "com.android.settings"
INSTALLED_APP_DETAILS = "com.android.settings.applications.InstalledAppDetails"
ACTION_APPLICATION_DETAILS = "android.settings.APPLICATION_DETAILS_SETTINGS"


def lid(name: str) -> str:
    return f"{HOME_PACKAGE}:id/{name}"


@dataclass
class IconPopup:
    """An open shortcuts popup: whose it is and where its icon is on screen (pixels)."""

    package: str
    activity: str
    icon: Box
    """The icon's drawable, which the card is placed against (getTargetObjectLocation)."""
    cell: Box
    """The whole icon view: a tap there still opens the app."""


@dataclass
class TaskMenu:
    """An open task menu: the task and its card on screen (pixels)."""

    task_id: int
    package: str
    card: Box


def icon_popup(view: View, package: str, activity: str, scale: float
               ) -> Callable[[], IconPopup]:
    """A reader, for the icon's long-press handler, of where the laid-out icon draws its
    app icon (a weak reference: the handler must not keep its own view alive)."""
    ref = weakref.ref(view)

    def read() -> IconPopup:
        from bmoca.sim.render.painter import app_icon_top

        icon = ref()
        left, _top, right, _bottom = icon.bounds
        size = dimension_px(icon.icon_size, scale)
        y = app_icon_top(icon, scale)[0]
        x = (left + right - size) // 2
        return IconPopup(package, activity, (x, y, x + size, y + size), icon.clip)
    return read


def app_info_intent(package: str, bounds: Box | None) -> Intent:
    """What LauncherApps.startAppDetailsActivity starts for the system shortcut."""
    return Intent(action=ACTION_APPLICATION_DETAILS, data=f"package:{package}",
                  flags=FLAG_ACTIVITY_NEW_TASK | FLAG_ACTIVITY_CLEAR_TASK,
                  component=(SETTINGS, INSTALLED_APP_DETAILS), bounds=bounds)


@dataclass(frozen=True)
class Placement:
    """The display the floating views are placed on (pixels), and where the content box of
    the view they are added to starts (Overview's is below its 24 dp top padding)."""

    width: int
    height: int
    scale: float
    rtl: bool
    origin_top: int = 0

    def px(self, dp: float) -> int:
        return dimension_px(dp, self.scale)

    def at(self, view: View, x: int, y: int) -> View:
        """Place `view` (its width in dp) with its left edge at screen x and its top at y;
        absolute positions count from the start edge, the right one in RTL."""
        w = self.px(view.width)
        start = (self.width - x - w) if self.rtl else x
        view.absolute = (start / self.scale, (y - self.origin_top) / self.scale)
        return view


def popup_colors(ctx: Context) -> tuple[tuple, tuple, tuple]:
    """(card, header, secondary text/icon): popupColorPrimary/Secondary in either theme."""
    if ctx.theme.dark:
        return (48, 49, 52), (60, 64, 67), (154, 160, 166)
    return (255, 255, 255), (241, 243, 244), (95, 99, 104)


def _arrow_painter(color: tuple, down: bool):
    def draw(canvas, view: View) -> None:
        left, top, right, bottom = view.bounds
        mid = (left + right) / 2
        tip, base = (bottom, top) if down else (top, bottom)
        canvas.draw.polygon([(left, base), (right, base), (mid, tip)], fill=tuple(color))
    return draw


def _fits(ctx: Context, label: str, width_px: int, scale: float) -> bool:
    from bmoca.sim.render.text import get_text_renderer

    size = int(14 * scale * ctx.system.font_scale + 0.5)
    return get_text_renderer().measure(label, size, 400, ctx.locale)[0] <= width_px


def _shortcut_row(ctx: Context, shortcut: Shortcut, place: Placement, width: float,
                  start: Callable[[Shortcut, View], None], close: Callable[[], None]) -> View:
    """A DeepShortcutView: `bubble_text` (long label if it fits, else short) and `icon`."""
    room = place.px(width - TEXT_START - PADDING_END - DRAG_HANDLE - DRAWABLE_PADDING)
    label = ctx.t(shortcut.long_label)
    if not _fits(ctx, label, room, place.scale):
        label = ctx.t(shortcut.short_label)
    _card, _header, muted = popup_colors(ctx)
    bubble = View(cls="android.widget.TextView", id=lid("bubble_text"), text=label,
                  width=MATCH, height=MATCH, text_size=14, text_color=ctx.theme.text,
                  gravity="start|center_vertical", align="start",
                  padding=(TEXT_START, 0, PADDING_END + DRAG_HANDLE + DRAWABLE_PADDING, 0),
                  clickable=True, long_clickable=True, focusable=True)
    bubble.on_click = lambda: start(shortcut, bubble)
    bubble.on_long_click = close
    badge = View(cls="android.view.View", id=lid("icon"), width=SHORTCUT_ICON,
                 height=SHORTCUT_ICON, corner=SHORTCUT_ICON / 2, bg=shortcut.badge,
                 icon=shortcut.icon, icon_color=shortcut.glyph, icon_size=20,
                 gravity="start|center_vertical", margin=(PADDING_START, 0, 0, 0))
    handle = View(cls="", width=DRAG_HANDLE, height=DRAG_HANDLE, icon="drag_handle",
                  icon_size=DRAG_HANDLE, icon_color=muted, gravity="end|center_vertical",
                  margin=(0, 0, PADDING_END, 0))
    return frame(bubble, badge, handle, cls="android.widget.FrameLayout", width=width,
                 height=ITEM_H)


def _system_row(ctx: Context, label: str, go: Callable[[Box], None]) -> View:
    """The system_shortcut layout: a clickable DeepShortcutView with its text and icon;
    a tap runs `go` with the row's bounds (the intent's source bounds)."""
    _card, _header, muted = popup_colors(ctx)
    view = frame(
        View(cls="android.widget.TextView", id=lid("bubble_text"), text=label, width=MATCH,
             height=MATCH, text_size=14, text_color=ctx.theme.text,
             gravity="start|center_vertical", padding=(TEXT_START, 0, PADDING_END, 0)),
        View(cls="android.view.View", id=lid("icon"), width=SYSTEM_ICON, height=SYSTEM_ICON,
             icon="info", icon_size=SYSTEM_ICON, icon_color=muted,
             gravity="start|center_vertical", margin=(SYSTEM_MARGIN, 0, 0, 0)),
        cls="android.widget.FrameLayout", width=ITEM_W, height=ITEM_H, clickable=True,
        focusable=True)
    clip = _clip_reader(view)
    view.on_click = lambda: go(clip())
    return view


def _catchers(place: Placement, close: Callable[[], None], cell: Box | None,
              through: Callable[[], None] | None) -> list[View]:
    """The drag layer's interception while a menu is open: a touch or swipe anywhere else
    closes it; on the original icon (`cell`) a tap goes through to the icon."""
    def swiped(_swipe) -> bool:
        close()
        return True

    views = [place.at(View(cls="", width=place.width / place.scale,
                           height=place.height / place.scale, on_click=close,
                           on_swipe=swiped), 0, 0)]
    if cell is not None and through is not None:
        left, top, right, bottom = cell
        views.append(place.at(View(cls="", width=(right - left) / place.scale,
                                   height=(bottom - top) / place.scale, on_click=through,
                                   on_long_click=lambda: None, on_swipe=swiped), left, top))
    return views


def popup_views(ctx: Context, popup: IconPopup, place: Placement, close: Callable[[], None],
                launch: Callable[[], None]) -> list[View]:
    """The catchers, the arrow and the card of an open shortcuts popup, placed for
    `place`: absolute children of the launcher's root, added last so they are on top of
    everything, as floating views are in Launcher3's drag layer."""
    system = ctx.system

    def start(shortcut: Shortcut, view: View) -> None:
        close()
        system.am.start_activity(shortcut.intent(view.clip), caller=shortcut.package)

    def app_info(bounds: Box) -> None:
        close()
        system.am.start_activity(app_info_intent(popup.package, bounds), caller=HOME_PACKAGE)

    _card, header_bg, muted = popup_colors(ctx)
    shortcuts = shortcuts_of(system, popup.package)
    label = ctx.t("launcher.app_info")
    items: list[View] = []
    if shortcuts:
        width = max(ITEM_W, HEADER_ICON)  # one system shortcut: one 48 dp icon
        items = [_shortcut_row(ctx, s, place, width, start, close) for s in shortcuts]
        info = View(cls="android.widget.ImageView", desc=label, width=HEADER_ICON,
                    height=HEADER_ICON, icon="info", icon_size=SYSTEM_ICON, icon_color=muted,
                    clickable=True, focusable=True, gravity="center_vertical")
        clip = _clip_reader(info)
        info.on_click = lambda: app_info(clip())
        items.append(row(spacer(weight=1), info, cls="android.widget.LinearLayout",
                         id=lid("system_shortcut_icons"), width=width, height=HEADER_H,
                         bg=header_bg, corner=CORNER, gravity="center_vertical"))
        heights = [ITEM_H] * len(shortcuts) + [HEADER_H]
    else:
        width = ITEM_W
        items = [_system_row(ctx, label, app_info)]
        heights = [ITEM_H]
    w, h = place.px(width), sum(place.px(v) for v in heights)
    x, y, above, beside = _place(place, popup.icon, w, h)
    if above:
        items.reverse()
    card = column(*items, cls="android.widget.LinearLayout", id=lid("deep_shortcuts_container"),
                  width=width, bg=_card, corner=CORNER, elevation=ELEVATION, on_click=_inert)
    views = _catchers(place, close, popup.cell, launch)
    if not beside:
        views.append(_arrow(place, popup.icon, x, w, y, h, above, _card))
    views.append(place.at(card, x, y))
    return views


def _inert() -> None:
    """A touch on the card between its items: over the popup, so it closes nothing."""


def _clip_reader(view: View) -> Callable[[], Box]:
    ref = weakref.ref(view)
    return lambda: ref().clip  # type: ignore[union-attr]


def _place(place: Placement, icon: Box, w: int, h: int) -> tuple[int, int, bool, bool]:
    """ArrowPopup.orientAboutObject: the card's left and top (screen pixels), whether it is
    above the icon, and whether it had to be centred beside it. Worked out in the
    locale's reading direction (start = left, or right in RTL) and mirrored back."""
    px = place.px
    width, height = place.width, place.height
    left, top, right, bottom = icon
    if place.rtl:  # mirror the icon, place as in a left-to-right layout, mirror back
        left, right = width - right, width - left
    icon_w = right - left
    start_x = left + icon_w // 2 - px(SHORTCUT_ICON) // 2 - px(PADDING_START)
    end_x = right - w - (icon_w // 2 - px(DRAG_HANDLE) // 2 - px(PADDING_END))
    x = start_x if start_x + w <= width else end_x
    gap = px(ARROW_H) + px(ARROW_OFFSET) + px(VERTICAL_PADDING)
    y = top - gap - h
    above = y >= px(STATUS_BAR)
    if not above:
        y = bottom + gap
    beside = y + h > height - px(NAV_BAR)
    if beside:  # centred vertically, next to the icon: its end side first
        y = (height - h) // 2
        x = right if right + w <= width else left - w
        above = True
    x = max(0, min(x, width - w))
    y = max(0, min(y, height - h))
    if place.rtl:
        x = width - x - w
    return x, y, above, beside


def _arrow(place: Placement, icon: Box, x: int, w: int, y: int, h: int, above: bool,
           color: tuple) -> View:
    """The arrow between the card and the icon, under the card's first shortcut icon."""
    px = place.px
    aw, ah = px(ARROW_W), px(ARROW_H)
    # under the first shortcut icon (start-aligned card) or the drag handles (end-aligned)
    left, right = ((px(ARROW_END), px(ARROW_START)) if place.rtl
                   else (px(ARROW_START), px(ARROW_END)))
    middle = (icon[0] + icon[2]) // 2
    centre = min((x + left, x + w - right), key=lambda c: abs(c - middle))
    ay = y + h + px(ARROW_OFFSET) if above else y - ah - px(ARROW_OFFSET)
    arrow = View(cls="", width=ARROW_W, height=ARROW_H, draw=_arrow_painter(color, above))
    return place.at(arrow, centre - aw // 2, ay)


def task_menu_views(ctx: Context, menu: TaskMenu, place: Placement,
                    close: Callable[[], None]) -> list[View]:
    """TaskMenuView over a recent task's card: its icon and name, then App info."""
    system = ctx.system
    card_bg, _header, _muted = popup_colors(ctx)
    name = ctx.t(f"app.{menu.package}")

    def app_info(bounds: Box) -> None:
        close()
        system.am.start_activity(app_info_intent(menu.package, bounds), caller=HOME_PACKAGE)

    title = View(cls="android.widget.TextView", id=lid("task_icon_and_name"), text=name,
                 width=MATCH, height=TITLE_TOP + 48 + 36, image=f"app:{menu.package}",
                 icon_size=48, text_size=14, text_color=ctx.theme.text, align="center",
                 padding=(8, TITLE_TOP, 8, 0), clickable=True, focusable=True, on_click=close)
    content = column(title, _system_row(ctx, ctx.t("launcher.app_info"), app_info),
                     cls="android.widget.LinearLayout", width=ITEM_W,
                     bg=card_bg, corner=CORNER, elevation=ELEVATION, on_click=_inert)
    w = place.px(ITEM_W)
    left, top, right, _bottom = menu.card
    x = max(0, min((left + right - w) // 2, place.width - w))
    # TaskMenuView.orientAroundTaskView: centred on the card, its icon over the task's
    # (which sits TASK_ICON_OVERLAP above the card's top)
    y = max(place.px(STATUS_BAR), top - place.px(TASK_ICON_OVERLAP) - place.px(TITLE_TOP))
    return [*_catchers(place, close, None, None), place.at(content, x, y)]

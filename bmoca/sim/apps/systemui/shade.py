"""The notification shade and Quick Settings (android10_ui_facts.md §3.3).

A pull down from the status bar (or on the home screen) shows the quick row: six tiles
without labels and the footer with the settings gear. A second pull shows the full panel:
the brightness slider, the tiles with their labels, and the footer. Tiles toggle what they
name; a long press opens the matching Settings page; the gear opens Settings. The shade
holds no notifications (a fresh B-MoCA image has none).

What a tile does is what Android 10's does, down to the log lines a detector reads: the
Wi-Fi tile switches Wi-Fi with System UI as the caller (`setWifiEnabled
package=com.android.systemui`), the airplane tile goes through the same airplane-mode path
as Settings' switch (PhoneGlobals' lines), and the slider's drag and lift write the
'temporary' and 'manual' brightness lines.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bmoca.sim.apps.base import Context
from bmoca.sim.apps.systemui.app import seekbar, status_bar
from bmoca.sim.apps.systemui.state import EXPANDED, collapse_shade, data
from bmoca.sim.system.intent import Intent
from bmoca.sim.system.server import SYSTEMUI_PACKAGE
from bmoca.sim.system.settings import TOGGLES
from bmoca.sim.system.windows import STATUS_BAR_DP
from bmoca.sim.ui.view import MATCH, WRAP, View, column, frame, icon, row, spacer, text

QUICK_TILES = 6
"""Tiles in the quick row (QuickQSPanel's default)."""
COLUMNS = 3
TABLET_PANEL_DP = 416


def _id(name: str) -> str:
    return f"{SYSTEMUI_PACKAGE}:id/{name}"


@dataclass(frozen=True)
class Tile:
    key: str
    label_key: str
    glyph: str
    long_press_action: str | None
    """The Settings intent action a long press starts (QSTile.getLongClickIntent)."""


TILES = (
    Tile("wifi", "settings.wifi", "wifi", "android.settings.WIFI_SETTINGS"),
    Tile("bt", "settings.bluetooth", "bluetooth", "android.settings.BLUETOOTH_SETTINGS"),
    Tile("dnd", "settings.do_not_disturb", "do_not_disturb_on", None),
    Tile("flashlight", "systemui.flashlight", "flashlight_on", None),
    Tile("rotation", "systemui.auto_rotate", "screen_rotation", "android.settings.DISPLAY_SETTINGS"),
    Tile("battery", "settings.battery_saver", "battery_saver",
         "android.intent.action.POWER_USAGE_SUMMARY"),
    Tile("cell", "settings.mobile_data", "signal_cellular_alt",
         "android.settings.NETWORK_OPERATOR_SETTINGS"),
    Tile("airplane", "settings.airplane_mode", "airplanemode_active",
         "android.settings.AIRPLANE_MODE_SETTINGS"),
    Tile("location", "settings.location", "location_on",
         "android.settings.LOCATION_SOURCE_SETTINGS"),
)
"""The emulator image's default tiles, in order; the first six form the quick row."""

_SETTING_TILES = {"dnd": TOGGLES["do_not_disturb"], "rotation": TOGGLES["auto_rotate"],
                  "battery": TOGGLES["battery_saver"], "cell": TOGGLES["mobile_data"],
                  "location": TOGGLES["location"]}
"""Tiles that are one setting (`bmoca.sim.system.settings.TOGGLES`)."""


def tile_on(ctx: Context, key: str) -> bool:
    system = ctx.system
    if key == "wifi":
        return system.wifi_enabled
    if key == "bt":
        return system.bluetooth_enabled
    if key == "airplane":
        return system.airplane_mode
    if key == "flashlight":
        return data(system).flashlight
    namespace, setting, _on, off = _SETTING_TILES[key]
    return system.state.settings.get(namespace, setting) not in (off, None)  # as Settings reads it


def toggle_tile(ctx: Context, key: str) -> None:
    system = ctx.system
    on = not tile_on(ctx, key)
    if key == "wifi":
        system.set_wifi(on, caller=SYSTEMUI_PACKAGE)
    elif key == "bt":
        system.set_bluetooth(on)
    elif key == "airplane":
        system.set_airplane_mode(on)
    elif key == "flashlight":
        data(system).flashlight = on
    else:
        namespace, setting, on_value, off_value = _SETTING_TILES[key]
        system.put_setting(namespace, setting, on_value if on else off_value)


def _start_and_collapse(ctx: Context, intent: Intent) -> None:
    collapse_shade(ctx.system)
    ctx.start_activity(intent)


def _tile(ctx: Context, tile: Tile, labelled: bool, width: float) -> View:
    theme = ctx.theme
    on = tile_on(ctx, tile.key)
    if on:
        circle, glyph = theme.accent, (255, 255, 255) if not theme.dark else (32, 33, 36)
    else:
        circle = (60, 64, 67) if theme.dark else (232, 234, 237)
        glyph = (154, 160, 166) if theme.dark else (95, 99, 104)
    label = ctx.t(tile.label_key)
    long_click: Callable[[], None] | None = None
    if tile.long_press_action is not None:
        def long_click() -> None:
            _start_and_collapse(ctx, Intent(action=tile.long_press_action, flags=0x10000000))
    badge = frame(icon(tile.glyph, 24, icon_color=glyph, icon_filled=True, gravity="center",
                       cls=""),
                  cls="", width=48, height=48, bg=circle, corner=24, gravity="center_horizontal")
    parts: list[View] = [badge]
    if labelled:
        parts.append(text(label, text_size=12, text_color=theme.text, max_lines=2,
                          align="center", width=MATCH, margin=(4, 6, 4, 0),
                          cls="android.widget.TextView"))
    return column(*parts, cls="android.widget.Switch", desc=label, checkable=True, checked=on,
                  clickable=True, long_clickable=long_click is not None, focusable=True,
                  width=width, height=WRAP, padding=(0, 8, 0, 8),
                  on_click=lambda: toggle_tile(ctx, tile.key), on_long_click=long_click)


def _brightness(ctx: Context) -> View:
    system = ctx.system
    value = system.state.settings.get_int("system", "screen_brightness", 102)

    def drag(fx: float, fy: float, lifted: bool) -> None:
        system.set_brightness(round(fx * 255), final=lifted)

    return row(icon("brightness_medium", 24, icon_color=ctx.theme.accent, cls=""),
               seekbar(ctx, _id("slider"), value / 255, ctx.t("systemui.display_brightness"), drag),
               id=_id("brightness_slider"), cls="android.widget.LinearLayout", height=WRAP,
               gravity="center_vertical", spacing=8, padding=(16, 4, 16, 4))


def _footer(ctx: Context) -> View:
    theme = ctx.theme
    gear = frame(icon("settings", 22, icon_color=theme.icon, gravity="center", cls=""),
                 cls="android.widget.ImageView", id=_id("settings_button"),
                 desc=ctx.t("systemui.open_settings"), width=48, height=48, clickable=True,
                 focusable=True,
                 on_click=lambda: _start_and_collapse(
                     ctx, Intent(action="android.settings.SETTINGS", flags=0x10000000)))
    return row(spacer(weight=1),
               frame(gear, cls="android.widget.FrameLayout", id=_id("settings_button_container"),
                     width=WRAP, height=48),
               cls="android.widget.FrameLayout", id=_id("qs_footer"), height=48,
               padding=(16, 0, 8, 0), gravity="center_vertical")


def shade(ctx: Context, level: int, width_dp: float) -> View:
    """The panel at the top of the screen; what lies below it is the dimmed scrim."""
    theme = ctx.theme
    now = ctx.now()
    if ctx.system.sw600dp:  # values-sw600dp: a centred panel of notification_panel_width
        width_dp = min(width_dp, TABLET_PANEL_DP)
    header: list[View] = [frame(status_bar(ctx, dark_icons=not theme.dark), height=STATUS_BAR_DP,
                                width=MATCH)]
    inner = width_dp - 16
    if level >= EXPANDED:
        date = ctx.t("format.glance_date", weekday=ctx.t(f"date.weekday.{now.weekday()}"),
                     month=ctx.t(f"date.month_short.{now.month}"), day=now.day)
        header.append(text(date, id=_id("date"), text_size=14, text_color=theme.text_secondary,
                           height=32, margin=(16, 0, 16, 0), gravity="center_vertical"))
        cells = [_tile(ctx, tile, True, inner / COLUMNS) for tile in TILES]
        grid = column(*[row(*cells[i:i + COLUMNS], height=WRAP)
                        for i in range(0, len(cells), COLUMNS)],
                      cls="android.view.ViewGroup", id=_id("quick_settings_panel"), height=WRAP,
                      padding=(8, 0, 8, 0))
        body = [_brightness(ctx), grid]
    else:
        cells = [_tile(ctx, tile, False, inner / QUICK_TILES) for tile in TILES[:QUICK_TILES]]
        body = [row(*cells, cls="android.view.ViewGroup", id=_id("quick_qs_panel"), height=WRAP,
                    padding=(8, 0, 8, 0))]
    panel_bg = (32, 33, 36) if theme.dark else (255, 255, 255)
    return column(*header, *body, _footer(ctx),
                  cls="android.widget.FrameLayout", id=_id("quick_settings_container"),
                  width=width_dp, height=WRAP, bg=panel_bg, elevation=4,
                  gravity="top|center_horizontal")

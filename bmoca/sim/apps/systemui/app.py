"""System UI: the status bar, the 3-button navigation bar, the brightness dialog (the
notification shade and Quick Settings are in `shade.py`)."""

from __future__ import annotations

from bmoca.formats.locales import native_digits
from bmoca.sim.apps.base import Activity, App, Context
from bmoca.sim.apps.systemui.state import SystemUIData
from bmoca.sim.render.widgets import draw_nav_button
from bmoca.sim.system.server import SYSTEMUI_PACKAGE, SYSTEMUI_UID
from bmoca.sim.ui.theme import is_dark
from bmoca.sim.ui.view import MATCH, WRAP, View, frame, icon, row, spacer, text


def _id(name: str) -> str:
    return f"{SYSTEMUI_PACKAGE}:id/{name}"


def clock_text(ctx: Context) -> str:
    """The status-bar clock: h:mm in 12-hour locales, HH:mm in 24-hour ones."""
    now = ctx.now()
    if ctx.is_24_hour:
        shown = f"{now.hour:02d}:{now.minute:02d}"
    else:
        shown = f"{(now.hour % 12) or 12}:{now.minute:02d}"
    return native_digits(ctx.locale, shown)  # DateFormat: Arabic-Indic digits in ar-EG


def status_bar(ctx: Context, dark_icons: bool) -> View:
    color = (60, 64, 67) if dark_icons else (255, 255, 255)
    system = ctx.system
    icons = []
    if system.wifi_enabled:  # Wi-Fi turned back on in airplane mode shows beside the plane
        icons.append(icon("signal_wifi_4_bar", 16, id=_id("wifi_signal"), icon_color=color,
                          icon_filled=True, desc=ctx.t("systemui.wifi_signal_full")))
    if system.airplane_mode:
        icons.append(icon("airplanemode_active", 16, id=_id("airplane"), icon_color=color,
                          icon_filled=True, desc=ctx.t("systemui.airplane_mode")))
    else:
        icons.append(icon("signal_cellular_4_bar", 16, id=_id("mobile_signal"), icon_color=color,
                          icon_filled=True, desc=ctx.t("systemui.phone_signal_full")))
    icons.append(icon("battery_full", 16, id=_id("battery"), icon_color=color, icon_filled=True,
                      desc=ctx.t("systemui.battery_level", level=100)))
    return row(
        text(clock_text(ctx), id=_id("clock"), text_size=14, text_color=color, font_weight=500,
             gravity="center_vertical"),
        spacer(weight=1),
        row(*icons, id=_id("system_icons"), width=WRAP, spacing=4, gravity="center_vertical"),
        cls="android.widget.FrameLayout", id=_id("status_bar"), height=MATCH, padding=(16, 0, 12, 0),
    )


NAV_KEYS = {_id("back"): "BACK", _id("home"): "HOME", _id("recent_apps"): "APP_SWITCH"}
"""KeyButtonView injects a key event: the bar's buttons and the key they send."""


def navigation_bar(ctx: Context, bar_color: tuple[int, int, int] | None = None,
                   over_content: bool | None = None) -> View:
    """The 3-button bar. `over_content` is set for fullscreen activities: the bar is then
    transparent (the Pixel launcher draws it over the wallpaper) with dark buttons when it
    is True (a light screen below) and white ones when False."""
    system = ctx.system
    bg: tuple[int, int, int] | None
    if bar_color is not None:
        dark, bg = is_dark(bar_color), bar_color
    elif over_content is not None:
        dark, bg = not over_content, None
    else:
        dark = system.night_mode
        bg = (0, 0, 0) if dark else (250, 250, 250)
    color = (255, 255, 255) if dark else (60, 64, 67)

    def button(name: str, desc_key: str) -> View:
        # the glyph is SystemUI's 28 dp vector (ic_sysbar_<name>), drawn, not an icon font's
        return frame(View(cls="", draw=draw_nav_button, icon=name, icon_color=color,
                          width=28, height=28, gravity="center"),
                     cls="android.widget.ImageView", id=_id(name), desc=ctx.t(desc_key),
                     width=0, weight=1, height=MATCH, clickable=True)

    return row(
        spacer(weight=0.5),
        button("back", "systemui.back"),
        button("home", "systemui.home"),
        button("recent_apps", "systemui.overview"),
        spacer(weight=0.5),
        cls="android.widget.FrameLayout", id=_id("navigation_bar_frame"), height=MATCH, bg=bg,
    )  # mirrored in right-to-left locales (Back on the right), as Android 10 does


class BrightnessDialog(Activity):
    """The "Brightness level" dialog Settings opens: one slider over the current screen."""

    def __init__(self, intent):
        super().__init__(intent)
        self.value: int | None = None

    def build(self, ctx: Context) -> View:
        below = _below(ctx)
        if below is not None:
            return below.activity.build(Context(ctx.system, below.package, below))
        return frame(bg=ctx.theme.background, width=MATCH, height=MATCH)

    def dialog(self, ctx: Context) -> View:
        system = ctx.system
        value = self.value if self.value is not None else system.state.settings.get_int(
            "system", "screen_brightness", 102)

        def drag(fx: float, fy: float, lifted: bool) -> None:
            self.value = round(fx * 255)
            system.set_brightness(self.value, final=lifted)

        return frame(
            row(icon("brightness_medium", 24, icon_color=ctx.theme.accent, cls=""),
                seekbar(ctx, _id("slider"), value / 255, ctx.t("systemui.display_brightness"), drag),
                id=_id("brightness_slider"), cls="android.widget.LinearLayout", height=WRAP,
                gravity="center_vertical", spacing=8),
            cls="android.widget.FrameLayout", id=_id("brightness_mirror"), width=MATCH, height=WRAP,
            margin=(8, 0, 8, 0), padding=(16, 20, 16, 20), bg=ctx.theme.surface if ctx.theme.dark
            else (255, 255, 255), corner=8, elevation=6, gravity="top|center_horizontal",
        )


def _below(ctx: Context):
    task = ctx.system.state.am.foreground
    if task and len(task.records) >= 2:
        return task.records[-2]
    return None


def seekbar(ctx: Context, view_id: str, fraction: float, desc: str, on_drag) -> View:
    """A SeekBar; dragging anywhere on it moves the thumb there."""
    from bmoca.sim.render.widgets import draw_seekbar

    view = View(cls="android.widget.SeekBar", id=view_id, desc=desc, width=0, weight=1, height=48,
                focusable=True, clickable=True, on_drag=on_drag, draw=draw_seekbar,
                progress=max(0.0, min(1.0, fraction)), gravity="center_vertical")
    return view


class SystemUI(App):
    package = SYSTEMUI_PACKAGE
    label_key = "app.systemui"
    uid = SYSTEMUI_UID
    system_process = True
    activities = {"com.android.systemui.settings.BrightnessDialog": BrightnessDialog}
    intent_actions = {"com.android.intent.action.SHOW_BRIGHTNESS_DIALOG":
                      "com.android.systemui.settings.BrightnessDialog"}

    def initial_data(self) -> SystemUIData:
        return SystemUIData()

    def on_boot(self, ctx: Context) -> None:
        if isinstance(ctx.data, SystemUIData):
            ctx.data.shade = 0  # a framework restart closes the shade

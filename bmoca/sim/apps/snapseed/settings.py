"""Snapseed's Settings: Appearance (Dark theme) and Export and sharing (Image sizing,
Format and quality, each a single-choice dialog). Every change is written to
`Preferences.xml` at once, as SharedPreferences' `apply()` does."""

from __future__ import annotations

from bmoca.formats.locales import native_digits
from bmoca.sim.apps.base import Activity, Context
from bmoca.sim.apps.contacts.ui import icon_button
from bmoca.sim.apps.snapseed import model
from bmoca.sim.apps.snapseed.model import COMPRESSION, DARK_THEME, LONG_EDGE, colors, sid
from bmoca.sim.render.widgets import draw_switch
from bmoca.sim.ui.view import MATCH, View, column, frame, icon, row, scroller, text

SETTINGS = "com.google.android.apps.snapseed.SettingsActivity"


def size_label(ctx: Context, value: str) -> str:
    if value == "0":
        return ctx.t("snapseed.size.none")
    return ctx.t("snapseed.size.px", size=native_digits(ctx.locale, value))


def quality_label(ctx: Context, value: str) -> str:
    if value == "png":
        return "PNG"
    return ctx.t("snapseed.quality.jpg", quality=native_digits(ctx.locale, value))


class SettingsActivity(Activity):
    def __init__(self, intent):
        super().__init__(intent)
        self.choosing: str | None = None
        """The preference whose dialog is open (LONG_EDGE or COMPRESSION)."""

    def on_back(self, ctx: Context) -> bool:
        if self.choosing is not None:
            self.choosing = None
            return True
        return False

    def build(self, ctx: Context) -> View:
        c = colors(ctx)
        t = ctx.t
        data: model.SnapseedData = ctx.data
        dark = bool(data.get(DARK_THEME))

        def header(key: str) -> View:
            return text(t(key), text_size=14, font_weight=500, text_color=c.accent,
                        padding=(16, 24, 16, 8), width=MATCH)

        def pref(title: str, summary: str, view_id: str, on_click, widget=None) -> View:
            return row(
                column(text(title, id="android:id/title", text_size=16, text_color=c.text),
                       text(summary, id="android:id/summary", text_size=14,
                            text_color=c.secondary, max_lines=2, visible=bool(summary)),
                       width=0, weight=1, gravity="center_vertical"),
                widget,
                cls="android.widget.LinearLayout", id=view_id, width=MATCH, height=72,
                padding=(16, 0, 16, 0), clickable=True, focusable=True,
                gravity="center_vertical", on_click=on_click)

        switch = View(cls="android.widget.Switch", id="android:id/switch_widget", checkable=True,
                      checked=dark, width=52, height=32, draw=draw_switch,
                      gravity="center_vertical")
        rows = [
            header("snapseed.settings.appearance"),
            pref(t("snapseed.settings.dark_theme"), "", sid("pref_dark_theme"),
                 lambda: model.put(ctx, DARK_THEME, not dark), switch),
            header("snapseed.settings.export"),
            pref(t("snapseed.settings.image_sizing"),
                 size_label(ctx, str(data.get(LONG_EDGE))), sid("pref_image_sizing"),
                 lambda: setattr(self, "choosing", LONG_EDGE)),
            pref(t("snapseed.settings.format_quality"),
                 quality_label(ctx, str(data.get(COMPRESSION))), sid("pref_format_quality"),
                 lambda: setattr(self, "choosing", COMPRESSION)),
        ]
        bar = row(icon_button(ctx, "arrow_back", t("snapseed.navigate_up"), ctx.finish, c.icon,
                              tooltip=True),
                  text(t("snapseed.menu.settings"), text_size=20, font_weight=500,
                       text_color=c.text, width=0, weight=1, gravity="center_vertical",
                       margin=(20, 0, 0, 0)),
                  cls="android.view.ViewGroup", id=sid("toolbar"), width=MATCH, height=56,
                  bg=c.bar, elevation=2, gravity="center_vertical", padding=(4, 0, 4, 0))
        return column(bar, scroller(*rows, key="snapseed:settings", cls="android.widget."
                                    "ListView", id="android:id/list", width=MATCH, height=0,
                                    weight=1),
                      width=MATCH, height=MATCH, bg=c.background)

    def dialog(self, ctx: Context) -> View | None:
        if self.choosing is None:
            return None
        c = colors(ctx)
        key = self.choosing
        data: model.SnapseedData = ctx.data
        current = str(data.get(key))
        values = model.SIZES if key == LONG_EDGE else model.QUALITIES
        label = size_label if key == LONG_EDGE else quality_label

        def choose(value: str) -> None:
            model.put(ctx, key, value)
            self.choosing = None

        options = [row(icon("radio_button_checked" if value == current
                            else "radio_button_unchecked", 24,
                            icon_color=c.accent if value == current else c.secondary,
                            cls="android.widget.RadioButton", id=sid("radio"),
                            gravity="center_vertical", checkable=True,
                            checked=value == current),
                       text(label(ctx, value), id="android:id/text1", text_size=16,
                            text_color=c.text, margin=(24, 0, 0, 0), gravity="center_vertical"),
                       cls="android.widget.LinearLayout", width=MATCH, height=48,
                       padding=(20, 0, 20, 0), clickable=True, focusable=True,
                       gravity="center_vertical", on_click=lambda v=value: choose(v))
                   for value in values]
        title = ctx.t("snapseed.settings.image_sizing" if key == LONG_EDGE
                      else "snapseed.settings.format_quality")
        return column(text(title, id="android:id/alertTitle", text_size=20, font_weight=500,
                           text_color=c.text, padding=(24, 20, 24, 12), width=MATCH),
                      frame(column(*options, width=MATCH), id="android:id/select_dialog_listview",
                            cls="android.widget.ListView", width=MATCH),
                      cls="android.widget.FrameLayout", width=300, bg=c.bar, corner=4,
                      padding=(0, 0, 0, 12))

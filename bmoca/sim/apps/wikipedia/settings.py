"""Wikipedia's Settings (`org.wikipedia.settings.SettingsActivity`, preferences.xml) and the
App theme sheet, whose Reading section sets the text size (`textSizeMultiplier`, 10 % a
step from 50 % to 180 %) with the A−/A+ buttons or the seek bar."""

from __future__ import annotations

from bmoca.formats.locales import native_digits
from bmoca.sim.apps.base import Activity, Context
from bmoca.sim.apps.contacts.ui import icon_button
from bmoca.sim.apps.systemui.app import seekbar
from bmoca.sim.apps.wikipedia import model
from bmoca.sim.apps.wikipedia.configure import CONFIGURE
from bmoca.sim.apps.wikipedia.model import PACKAGE, colors, wid
from bmoca.sim.render.widgets import draw_switch
from bmoca.sim.system.intent import Intent
from bmoca.sim.ui.view import MATCH, WRAP, View, column, frame, row, scroller, text

SETTINGS = f"{PACKAGE}.settings.SettingsActivity"
ROWS = ("languages", "explore_feed", "app_theme", "download_reading_lists", "show_images",
        "link_previews", "collapse_tables", "usage_reports")
"""The preference rows, top to bottom (General, then Privacy)."""
SWITCHES = {"download_reading_lists": "downloadReadingListArticles", "show_images": "imageDownloadEnabled",
            "link_previews": model.LINK_PREVIEWS, "collapse_tables": "collapseTables",
            "usage_reports": "eventLoggingEnabled"}
DEFAULT_ON = {"downloadReadingListArticles", "imageDownloadEnabled", model.LINK_PREVIEWS,
              "collapseTables", "eventLoggingEnabled"}
STEPS = model.TEXT_SIZE_MAX - model.TEXT_SIZE_MIN


class SettingsActivity(Activity):
    def __init__(self, intent):
        super().__init__(intent)
        self.theme_sheet = False

    def on_back(self, ctx: Context) -> bool:
        if self.theme_sheet:
            self.theme_sheet = False
            return True
        return False

    def _open(self, ctx: Context, key: str) -> None:
        if key == "explore_feed":
            ctx.start_activity(Intent(component=(PACKAGE, CONFIGURE)))
        elif key == "app_theme":
            self.theme_sheet = True
        elif key in SWITCHES:
            pref = SWITCHES[key]
            model.put(ctx, **{pref: not ctx.data.prefs.get(pref, pref in DEFAULT_ON)})

    def build(self, ctx: Context) -> View:
        c = colors(ctx)
        t = ctx.t
        rows: list[View] = [text(t("wiki.settings.general"), text_size=14, font_weight=500,
                                 text_color=c.accent, padding=(16, 16, 16, 8), width=MATCH)]
        for key in ROWS:
            if key == "usage_reports":
                rows.append(text(t("wiki.settings.privacy"), text_size=14, font_weight=500,
                                 text_color=c.accent, padding=(16, 16, 16, 8), width=MATCH))
            rows.append(self._row(ctx, c, key))
        bar = row(icon_button(ctx, "arrow_back", t("wiki.navigate_up"), ctx.finish, c.text,
                              tooltip=True),
                  text(t("wiki.more.settings"), text_size=20, font_weight=500, text_color=c.text,
                       width=0, weight=1, gravity="center_vertical", margin=(20, 0, 0, 0)),
                  cls="android.view.ViewGroup", id=wid("toolbar"), width=MATCH, height=56,
                  bg=c.background, elevation=2, gravity="center_vertical", padding=(4, 0, 4, 0))
        screen = column(bar, scroller(*rows, key="wiki:settings",
                                      cls="androidx.recyclerview.widget.RecyclerView",
                                      id=wid("recycler_view"), width=MATCH, height=0, weight=1),
                        width=MATCH, height=MATCH, bg=c.background)
        if not self.theme_sheet:
            return screen
        return frame(screen, self._theme_sheet(ctx, c), width=MATCH, height=MATCH)

    def _row(self, ctx: Context, c: model.Colors, key: str) -> View:
        summary = ctx.t(f"wiki.settings.{key}.summary")
        widget = None
        if key in SWITCHES:
            pref = SWITCHES[key]
            on = bool(ctx.data.prefs.get(pref, pref in DEFAULT_ON))
            widget = View(cls="android.widget.Switch", id=wid("switchWidget"), checkable=True,
                          checked=on, width=52, height=32, draw=draw_switch,
                          gravity="center_vertical")
        return row(column(text(ctx.t(f"wiki.settings.{key}"), id="android:id/title",
                               text_size=16, text_color=c.text, max_lines=2),
                          text(summary, id="android:id/summary", text_size=14,
                               text_color=c.secondary, max_lines=3, visible=bool(summary)),
                          width=0, weight=1, gravity="center_vertical"),
                   widget,
                   cls="android.widget.LinearLayout", width=MATCH, height=WRAP,
                   padding=(16, 14, 16, 14), clickable=True, focusable=True,
                   gravity="center_vertical", on_click=lambda: self._open(ctx, key))

    def _theme_sheet(self, ctx: Context, c: model.Colors) -> View:
        size = ctx.data.text_size()

        def set_size(value: int) -> None:
            value = max(model.TEXT_SIZE_MIN, min(model.TEXT_SIZE_MAX, value))
            if value != ctx.data.text_size() or model.TEXT_SIZE not in ctx.data.prefs:
                model.put(ctx, **{model.TEXT_SIZE: value})

        def drag(fx: float, fy: float, lifted: bool) -> None:
            # a discrete SeekBar: each of the 14 steps owns an equal stretch of the track
            set_size(model.TEXT_SIZE_MIN + min(STEPS, int(max(0.0, fx) * (STEPS + 1))))

        percent = native_digits(ctx.locale, str(100 + 10 * size)) + "%"
        bar = seekbar(ctx, wid("text_size_seek_bar"), (size - model.TEXT_SIZE_MIN) / STEPS,
                      ctx.t("wiki.theme.text_size"), drag)
        themes = row(*(text(ctx.t(f"wiki.theme.{name}"), id=wid(f"button_theme_{name}"),
                            text_size=14, text_color=c.text, align="center", width=0, weight=1,
                            height=40, corner=20, gravity="center", margin=(4, 0, 4, 0),
                            bg=c.surface, cls="android.widget.Button", clickable=True,
                            on_click=lambda n=name: model.put(
                                ctx, **{model.THEME: model.THEME_IDS[n]}))
                       for name in model.THEMES), width=MATCH, padding=(12, 8, 12, 16))
        sheet = column(
            text(ctx.t("wiki.theme.reading"), text_size=14, font_weight=500,
                 text_color=c.secondary, padding=(16, 16, 16, 4), width=MATCH),
            row(text(ctx.t("wiki.theme.text_size"), text_size=16, text_color=c.text, width=0,
                     weight=1, gravity="center_vertical"),
                text(percent, id=wid("text_size_percent"), text_size=16, text_color=c.text,
                     gravity="center_vertical"),
                width=MATCH, height=40, padding=(16, 0, 16, 0)),
            row(icon_button(ctx, "text_decrease", ctx.t("wiki.theme.decrease"),
                            lambda: set_size(ctx.data.text_size() - 1), c.text,
                            wid("buttonDecreaseTextSize")),
                bar,
                icon_button(ctx, "text_increase", ctx.t("wiki.theme.increase"),
                            lambda: set_size(ctx.data.text_size() + 1), c.text,
                            wid("buttonIncreaseTextSize")),
                width=MATCH, height=56, gravity="center_vertical", padding=(8, 0, 8, 0)),
            themes,
            cls="android.widget.FrameLayout", id=wid("design_bottom_sheet"), width=MATCH,
            height=WRAP, bg=c.background, corner=12, gravity="start|bottom", elevation=16)
        scrim = View(cls="", width=MATCH, height=MATCH, bg=(0, 0, 0, 100),
                     on_click=lambda: setattr(self, "theme_sheet", False))
        return frame(scrim, sheet, width=MATCH, height=MATCH)

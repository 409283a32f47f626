"""The Google app's query entry (`com.google.android.apps.gsa.queryentry.QueryEntryActivity`):
what the Pixel Launcher's search pill opens. The search box takes the focus at once, so
Gboard attaches and logs its `AndroidIME` line for this package (the paper's first-version
task "activate the search bar in google"); a query shows matches from the phone's small
offline web (no network)."""

from __future__ import annotations

from bmoca.sim.apps.base import Activity, App, Context
from bmoca.sim.apps.chrome import web
from bmoca.sim.apps.contacts.ui import icon_button
from bmoca.sim.apps.google.home import SearchActivity
from bmoca.sim.apps.google.model import (
    ACTION_GLOBAL_SEARCH,
    PACKAGE,
    QUERY_ENTRY,
    SEARCH_ACTIVITY,
    GoogleData,
    gid,
    remember,
)
from bmoca.sim.apps.longpress import focus_field
from bmoca.sim.system.intent import Intent
from bmoca.sim.ui.view import MATCH, View, column, icon, row, scroller, text

SEARCH_BOX = gid("search_box")


class QueryEntryActivity(Activity):
    def __init__(self, intent: Intent):
        super().__init__(intent)
        self.query = ""
        self.submitted = ""

    def on_create(self, ctx: Context) -> None:
        if ctx.record is not None:
            ctx.record.focus = SEARCH_BOX

    def build(self, ctx: Context) -> View:
        dark = ctx.theme.dark
        background = (32, 33, 36) if dark else (255, 255, 255)
        fg = (232, 234, 237) if dark else (32, 33, 36)
        secondary = (154, 160, 166) if dark else (95, 99, 104)
        field_bg = (48, 49, 52) if dark else (241, 243, 244)

        def on_text(value: str) -> None:
            self.query = value

        def submit() -> None:
            self.submitted = self.query.strip()
            if self.submitted:
                remember(ctx, self.submitted)

        bar = row(icon_button(ctx, "arrow_back", ctx.t("google.back"), ctx.finish, secondary),
                  View(cls="android.widget.EditText", id=SEARCH_BOX, text=self.query,
                       hint=ctx.t("google.search_hint"), text_size=18, text_color=fg,
                       width=0, weight=1, height=48, clickable=True, focusable=True,
                       long_clickable=True, on_text=on_text,
                       on_long_click=focus_field(ctx, SEARCH_BOX), on_submit=submit,
                       ime_action="search",
                       gravity="center_vertical", padding=(8, 0, 8, 0)),
                  icon("mic", 24, icon_color=(66, 133, 244), icon_filled=True,
                       cls="android.widget.ImageView", desc=ctx.t("google.voice_search"),
                       gravity="center_vertical", margin=(0, 0, 12, 0)),
                  cls="android.widget.LinearLayout", id=f"{PACKAGE}:id/search_plate",
                  width=MATCH, height=56, bg=field_bg, corner=28, margin=(8, 8, 8, 8),
                  gravity="center_vertical")
        rows: list[View] = []
        if self.submitted:
            found = web.search(self.submitted)
            rows = [column(text(web.host_of(p.url), text_size=12, text_color=secondary,
                                text_direction="ltr"),
                           text(p.title, text_size=18, text_color=(138, 180, 248) if dark
                                else (26, 13, 171), text_direction="ltr"),
                           width=MATCH, padding=(16, 8, 16, 8))
                    for p in found]
            if not found:
                rows = [text(ctx.t("google.no_results", query=self.submitted), text_size=16,
                             text_color=fg, max_lines=3, width=MATCH,
                             padding=(16, 16, 16, 0))]
        return column(bar, scroller(*rows, key="google:results", width=MATCH, height=0,
                                    weight=1),
                      width=MATCH, height=MATCH, bg=background)


class GoogleApp(App):
    package = PACKAGE
    label_key = f"app.{PACKAGE}"
    uid = 10109
    activities = {SEARCH_ACTIVITY: SearchActivity, QUERY_ENTRY: QueryEntryActivity}
    intent_actions = {ACTION_GLOBAL_SEARCH: QUERY_ENTRY}

    def initial_data(self) -> GoogleData:
        return GoogleData()

"""The Google app's query entry (`com.google.android.apps.gsa.queryentry.QueryEntryActivity`):
what the Pixel Launcher's search pill opens. The search box takes the focus at once, so
Gboard attaches and logs its `AndroidIME` line for this package (the paper's first-version
task "activate the search bar in google"); a query shows matches from the phone's small
offline web (no network) in the results page, a WebView titled "<query> - Google Search".

The same activity takes the pill microphone's `VOICE_ASSIST` intent (the Google app's
manifest gives it that filter) and then opens listening: "Speak now" with the colour dots,
no field focused, so no keyboard and no `AndroidIME` line. The emulator has no microphone
input, so it keeps listening and hears nothing; tapping the search box leaves voice input
for typing (the field focused, the keyboard up), and the box's microphone goes back."""

from __future__ import annotations

from bmoca.sim.apps.base import Activity, App, Context
from bmoca.sim.apps.chrome import web
from bmoca.sim.apps.contacts.ui import icon_button
from bmoca.sim.apps.google.home import SearchActivity
from bmoca.sim.apps.google.model import (
    ACTION_GLOBAL_SEARCH,
    ACTION_VOICE_ASSIST,
    PACKAGE,
    QUERY_ENTRY,
    SEARCH_ACTIVITY,
    GoogleData,
    gid,
    remember,
)
from bmoca.sim.apps.longpress import focus_field
from bmoca.sim.system.intent import Intent
from bmoca.sim.ui.view import MATCH, WRAP, Color, View, column, icon, row, scroller, spacer, text

SEARCH_BOX = gid("search_box")


class QueryEntryActivity(Activity):
    def __init__(self, intent: Intent):
        super().__init__(intent)
        self.query = ""
        self.submitted = ""
        self.listening = intent.action == ACTION_VOICE_ASSIST

    def on_create(self, ctx: Context) -> None:
        if ctx.record is not None and not self.listening:
            ctx.record.focus = SEARCH_BOX

    def _listen(self, ctx: Context) -> None:
        """The search box's microphone: voice input again, the field unfocused."""
        self.listening = True
        if ctx.record is not None:
            ctx.record.focus = None

    def _type(self) -> None:
        """A tap on the box while listening: typing instead (the tap focuses the field)."""
        self.listening = False

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
                       long_clickable=True, on_text=on_text, on_submit=submit,
                       on_long_click=focus_field(ctx, SEARCH_BOX, then=self._type),
                       ime_action="search", on_click=self._type, gravity="center_vertical",
                       padding=(8, 0, 8, 0)),
                  icon("mic", 24, icon_color=(66, 133, 244), icon_filled=True,
                       cls="android.widget.ImageView", desc=ctx.t("google.voice_search"),
                       clickable=True, on_click=lambda: self._listen(ctx),
                       gravity="center_vertical", margin=(0, 0, 12, 0)),
                  cls="android.widget.LinearLayout", id=f"{PACKAGE}:id/search_plate",
                  width=MATCH, height=56, bg=field_bg, corner=28, margin=(8, 8, 8, 8),
                  gravity="center_vertical")
        if self.listening:
            return column(bar, self._listening(ctx, fg, secondary), width=MATCH,
                          height=MATCH, bg=background)
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
        # a submitted query's results page is a WebView titled as Google's results page
        # ("<query> - Google Search", the title Chrome shows for the same page)
        page = ({"cls": "android.webkit.WebView",
                 "desc": ctx.t("chrome.search_title", query=self.submitted)}
                if self.submitted else {})
        return column(bar, scroller(*rows, key="google:results", width=MATCH, height=0,
                                    weight=1, **page),
                      width=MATCH, height=MATCH, bg=background)


    def _listening(self, ctx: Context, fg: Color, secondary: Color) -> View:
        """Voice input: the prompt, the state line and Google's four colour dots."""
        dots = row(*(View(cls="android.view.View", width=12, height=12, bg=colour, corner=6,
                          margin=(6, 0, 6, 0))
                     for colour in ((66, 133, 244), (234, 67, 53), (251, 188, 5),
                                    (52, 168, 83))),
                   cls="android.widget.LinearLayout", desc=ctx.t("google.voice_search"),
                   width=WRAP, height=WRAP, gravity="center_horizontal",
                   margin=(0, 0, 0, 96))
        return column(text(ctx.t("google.speak_now"), id=gid("voice_prompt"), text_size=32,
                           text_color=fg, width=MATCH, padding=(24, 48, 24, 8)),
                      text(ctx.t("google.listening"), id=gid("voice_state"), text_size=16,
                           text_color=secondary, width=MATCH, padding=(24, 0, 24, 0)),
                      spacer(weight=1), dots,
                      width=MATCH, height=0, weight=1)


class GoogleApp(App):
    package = PACKAGE
    label_key = f"app.{PACKAGE}"
    uid = 10109
    activities = {SEARCH_ACTIVITY: SearchActivity, QUERY_ENTRY: QueryEntryActivity}
    intent_actions = {ACTION_GLOBAL_SEARCH: QUERY_ENTRY, ACTION_VOICE_ASSIST: QUERY_ENTRY}

    def initial_data(self) -> GoogleData:
        return GoogleData()

"""YouTube (`com.google.android.youtube`): home, Settings and "Link with TV code".

The launcher starts `com.google.android.youtube.app.honeycomb.Shell$HomeActivity`: the top
bar (`menu_item_0` cast, `menu_item_1` search, `mobile_topbar_avatar` the account), a feed
of our own videos with procedurally drawn thumbnails, and the pivot bar. Search turns the
bar into the `search_edit_text` field with the keyboard. The account menu (a popup) opens
`SettingsActivity`, whose "Link with TV code" row starts the smart-pairing activity.

Its class is YouTube's real one, from its shared libraries:
`com.google.android.libraries.youtube.mdx.smartpairing.PairWithTvActivity` (the class the
app's own code imports, and the one B-MoCA's first version names in its regular
expression), so the START line reads `cmp=com.google.android.youtube/com.google.android.
libraries.youtube.mdx.smartpairing.PairWithTvActivity`.
"""

from __future__ import annotations

from bmoca.sim.apps.base import Activity, App, Context
from bmoca.sim.apps.contacts.ui import icon_button
from bmoca.sim.apps.longpress import focus_field
from bmoca.sim.system.intent import Intent
from bmoca.sim.ui.view import MATCH, View, column, frame, row, scroller, text

PACKAGE = "com.google.android.youtube"
HOME = "com.google.android.youtube.app.honeycomb.Shell$HomeActivity"
SETTINGS = "com.google.android.apps.youtube.app.settings.SettingsActivity"
PAIR = "com.google.android.libraries.youtube.mdx.smartpairing.PairWithTvActivity"

VIDEOS = (
    ("Morning stretch in 10 minutes", "Daily Motion", "12:04", (229, 115, 115)),
    ("How to bake sourdough bread", "Home Kitchen", "18:30", (255, 183, 77)),
    ("Exploring tide pools", "Coast Notes", "9:47", (79, 195, 247)),
    ("Beginner guitar: first chords", "String Lab", "14:12", (129, 199, 132)),
)
"""(title, channel, duration, thumbnail colour): the feed, our own."""


def yid(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


def palette(ctx: Context) -> tuple:
    """(background, text, secondary)."""
    if ctx.theme.dark:
        return (15, 15, 15), (241, 241, 241), (170, 170, 170)
    return (255, 255, 255), (15, 15, 15), (96, 96, 96)


def _bar(ctx: Context, title: str, back) -> View:
    bg, fg, dim = palette(ctx)
    return row(icon_button(ctx, "arrow_back", ctx.t("youtube.navigate_up"), back, fg,
                           tooltip=True),
               text(title, text_size=20, text_color=fg, width=0, weight=1,
                    gravity="start|center_vertical", margin=(16, 0, 0, 0)),
               height=56, bg=bg, gravity="center_vertical")


class HomeActivity(Activity):
    popup_dialog = True

    def __init__(self, intent: Intent):
        super().__init__(intent)
        self.query: str | None = None
        self.account = False

    def _search(self, ctx: Context) -> None:
        self.query = ""
        if ctx.record is not None:
            ctx.record.focus = yid("search_edit_text")

    def _close(self, ctx: Context) -> None:
        self.query = None
        if ctx.record is not None:
            ctx.record.focus = None

    def on_back(self, ctx: Context) -> bool:
        if self.account:
            self.account = False
            return True
        if self.query is not None:
            self._close(ctx)
            return True
        return False

    def dialog(self, ctx: Context) -> View | None:
        if not self.account:
            return None
        bg, fg, _ = palette(ctx)

        def settings() -> None:
            self.account = False
            ctx.start_activity(Intent(component=(PACKAGE, SETTINGS)))

        return column(
            row(text(ctx.t("youtube.settings"), text_size=16, text_color=fg,
                     gravity="start|center_vertical", cls="android.widget.TextView",
                     id=yid("title")),
                height=48, padding=(16, 0, 16, 0), clickable=True, on_click=settings,
                gravity="center_vertical", id=yid("account_item_settings")),
            width=280, bg=bg, elevation=8, gravity="end|top", margin=(8, 48, 8, 0))

    def _video(self, ctx: Context, video: tuple) -> View:
        _, fg, dim = palette(ctx)
        title, channel, duration, color = video
        thumb = frame(frame(width=0, height=0, cls=""),
                      text(duration, text_size=12, text_color=(255, 255, 255),
                           bg=(0, 0, 0, 200), padding=(4, 1, 4, 1), gravity="end|bottom",
                           margin=(8, 8, 8, 8), text_direction="ltr"),
                      width=MATCH, height=202, bg=color, id=yid("thumbnail"),
                      cls="android.widget.ImageView")
        return column(thumb,
                      text(title, text_size=16, text_color=fg, margin=(12, 12, 12, 0),
                           id=yid("title")),
                      text(channel, text_size=12, text_color=dim, margin=(12, 4, 12, 12),
                           id=yid("details")),
                      width=MATCH, clickable=True, cls="android.view.ViewGroup")

    def build(self, ctx: Context) -> View:
        bg, fg, dim = palette(ctx)
        t = ctx.t
        if self.query is None:
            bar = row(text("YouTube", text_size=20, font_weight=700, text_color=fg, width=0,
                           weight=1, margin=(16, 0, 0, 0), gravity="start|center_vertical",
                           text_direction="ltr"),
                      icon_button(ctx, "cast", t("youtube.cast"), None, fg, yid("menu_item_0")),
                      icon_button(ctx, "search", t("youtube.search"),
                                  lambda: self._search(ctx), fg, yid("menu_item_1")),
                      icon_button(ctx, "account_circle", t("youtube.account"),
                                  lambda: setattr(self, "account", True), fg,
                                  yid("mobile_topbar_avatar")),
                      height=48, bg=bg, gravity="center_vertical", id=yid("toolbar"))
        else:
            def on_text(value: str) -> None:
                self.query = value

            bar = row(icon_button(ctx, "arrow_back", t("youtube.navigate_up"),
                                  lambda: self._close(ctx), fg),
                      View(cls="android.widget.EditText", id=yid("search_edit_text"),
                           text=self.query, hint=t("youtube.search_hint"), text_size=16,
                           text_color=fg, width=0, weight=1, height=40, clickable=True,
                           focusable=True, long_clickable=True, on_text=on_text,
                           on_long_click=focus_field(ctx, yid("search_edit_text")),
                           ime_action="search",
                           gravity="center_vertical", padding=(8, 0, 8, 0)),
                      height=48, bg=bg, gravity="center_vertical")
        videos = [v for v in VIDEOS if not self.query or self.query.lower() in v[0].lower()]
        pivot = row(*[text(t(f"youtube.{key}"), text_size=10, text_color=fg, width=0, weight=1,
                           align="center", gravity="center", id=yid("text"))
                      for key in ("home", "subscriptions", "library")],
                    height=48, bg=bg, id=yid("pivot_bar"))
        return column(bar,
                      scroller(*[self._video(ctx, v) for v in videos], key="feed",
                               cls="androidx.recyclerview.widget.RecyclerView",
                               id=yid("results"), width=MATCH, height=0, weight=1),
                      pivot, width=MATCH, height=MATCH, bg=bg)


class SettingsActivity(Activity):
    def build(self, ctx: Context) -> View:
        bg, fg, dim = palette(ctx)

        def item(key: str, on_click=None) -> View:
            return row(text(ctx.t(f"youtube.{key}"), text_size=16, text_color=fg,
                            id="android:id/title", gravity="start|center_vertical"),
                       height=56, padding=(16, 0, 16, 0), clickable=True, on_click=on_click,
                       gravity="center_vertical")

        return column(_bar(ctx, ctx.t("youtube.settings"), ctx.finish),
                      item("general"), item("link_tv",
                                            lambda: ctx.start_activity(
                                                Intent(component=(PACKAGE, PAIR)))),
                      item("history_privacy"), item("about"),
                      width=MATCH, height=MATCH, bg=bg, id="android:id/list")


class PairWithTvActivity(Activity):
    def build(self, ctx: Context) -> View:
        bg, fg, dim = palette(ctx)
        return column(_bar(ctx, ctx.t("youtube.link_tv"), ctx.finish),
                      text(ctx.t("youtube.pair_hint"), text_size=14, text_color=dim,
                           margin=(16, 16, 16, 16)),
                      View(cls="android.widget.EditText", id=yid("pairing_code"), text="",
                           hint="000 000 000 000", text_size=18, text_color=fg, width=MATCH,
                           height=56, margin=(16, 0, 16, 0), text_direction="ltr"),
                      width=MATCH, height=MATCH, bg=bg)


class YouTubeApp(App):
    package = PACKAGE
    label_key = f"app.{PACKAGE}"
    uid = 10117
    activities = {HOME: HomeActivity, SETTINGS: SettingsActivity, PAIR: PairWithTvActivity}

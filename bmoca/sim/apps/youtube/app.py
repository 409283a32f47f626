"""YouTube (`com.google.android.youtube`): home, search, Settings and "Link with TV code".

The launcher starts `com.google.android.youtube.app.honeycomb.Shell$HomeActivity` as the
2020-21 app shows it: the top bar (the YouTube logo; `menu_item_0` cast, notifications,
`menu_item_1` search, `mobile_topbar_avatar` the account), the Home feed of our own videos
(`feed.py`: 16:9 thumbnails, channel avatars, views and ages; a grid on a tablet) and the
pivot bar's five tabs: Home, Explore, the create button (+, no label), Subscriptions and
Library. Only Home is simulated: the other tabs are drawn but take no taps. Search opens
its own page (`search.py`): the `search_edit_text` field with the keyboard, and
suggestions instead of the feed. The account menu (a popup) opens `SettingsActivity`,
whose "Link with TV code" row starts the smart-pairing activity.

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
from bmoca.sim.apps.youtube.feed import PACKAGE, VIDEOS, cards, palette, yid
from bmoca.sim.apps.youtube.search import results, suggestion_list
from bmoca.sim.system.intent import Intent
from bmoca.sim.ui.view import MATCH, View, column, frame, icon, row, scroller, text

HOME = "com.google.android.youtube.app.honeycomb.Shell$HomeActivity"
SETTINGS = "com.google.android.apps.youtube.app.settings.SettingsActivity"
PAIR = "com.google.android.libraries.youtube.mdx.smartpairing.PairWithTvActivity"
RED = (255, 0, 0)
"""The logo's red."""
TABS = (("home", "home"), ("explore", "explore"), ("create", "add_circle"),
        ("subscriptions", "subscriptions"), ("library", "video_library"))
"""The pivot bar's tabs (string key, icon), start to end."""


def _bar(ctx: Context, title: str, back) -> View:
    bg, fg, dim = palette(ctx)
    return row(icon_button(ctx, "arrow_back", ctx.t("youtube.navigate_up"), back, fg,
                           tooltip=True),
               text(title, text_size=20, text_color=fg, width=0, weight=1,
                    gravity="start|center_vertical", margin=(16, 0, 0, 0)),
               height=56, bg=bg, gravity="center_vertical")


WORDMARK_EM = 3.9
"""About how wide "YouTube" is in bold, in ems of its size."""


def logo(ctx: Context, room: float) -> View:
    """The YouTube logo: the red play button and the wordmark (not translated). A Toolbar
    measures its action buttons first and gives the logo what is left; where that is too
    little for the wordmark (a 700 dpi phone), the play button stands alone."""
    _, fg, _ = palette(ctx)
    fits = room >= 31 + WORDMARK_EM * 19 * ctx.system.font_scale
    return row(frame(icon("play_arrow", 16, icon_color=(255, 255, 255), icon_filled=True,
                          cls="", gravity="center"),
                     width=28, height=20, corner=5, bg=RED, gravity="center_vertical"),
               text("YouTube", text_size=19, font_weight=700, text_color=fg,
                    margin=(3, 0, 0, 0), gravity="center_vertical", text_direction="ltr")
               if fits else None,
               width=-2, height=48, mirror=False, gravity="center_vertical",
               desc="YouTube", id=yid("youtube_logo_container"), margin=(12, 0, 0, 0))


class HomeActivity(Activity):
    popup_dialog = True

    def __init__(self, intent: Intent):
        super().__init__(intent)
        self.query: str | None = None
        """The search field's text while the search page is open, else None."""
        self.searched = False
        """Whether the page shows the results of `query` (else its suggestions)."""
        self.history: tuple[str, ...] = ()
        """The searches made, newest first."""
        self.account = False

    def _search(self, ctx: Context, shown: str = "") -> None:
        """Open the search page (or go back to typing) with `shown` in the field."""
        self.query, self.searched = shown, False
        if ctx.record is not None:
            ctx.record.focus = yid("search_edit_text")

    def _submit(self, ctx: Context, query: str) -> None:
        if not query.strip():
            return
        query = query.strip()
        self.query, self.searched = query, True
        self.history = (query.lower(), *[h for h in self.history if h != query.lower()])
        if ctx.record is not None:
            ctx.record.focus = None

    def _close(self, ctx: Context) -> None:
        self.query, self.searched = None, False
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

    def _top_bar(self, ctx: Context) -> View:
        bg, fg, _ = palette(ctx)
        t = ctx.t
        if self.query is None:
            return row(logo(ctx, ctx.system.screen_dp()[0] - 12 - 4 * 48), frame(width=0, weight=1, cls=""),
                       icon_button(ctx, "cast", t("youtube.cast"), None, fg, yid("menu_item_0")),
                       icon_button(ctx, "notifications", t("youtube.notifications"), None, fg),
                       icon_button(ctx, "search", t("youtube.search"),
                                   lambda: self._search(ctx), fg, yid("menu_item_1")),
                       icon_button(ctx, "account_circle", t("youtube.account"),
                                   lambda: setattr(self, "account", True), fg,
                                   yid("mobile_topbar_avatar")),
                       height=48, bg=bg, gravity="center_vertical", id=yid("toolbar"))

        def on_text(value: str) -> None:
            self.query, self.searched = value, False

        field_bg = (48, 48, 48) if ctx.theme.dark else (236, 236, 236)
        field = View(cls="android.widget.EditText", id=yid("search_edit_text"),
                     text=self.query, hint=t("youtube.search_hint"), text_size=16,
                     text_color=fg, width=0, weight=1, height=36, clickable=True,
                     focusable=True, long_clickable=True, on_text=on_text,
                     on_long_click=focus_field(ctx, yid("search_edit_text")),
                     on_click=(lambda: self._search(ctx, self.query or ""))
                     if self.searched else None,
                     on_submit=lambda: self._submit(ctx, self.query or ""),
                     ime_action="search", bg=field_bg, corner=2, margin=(0, 0, 12, 0),
                     gravity="center_vertical", padding=(12, 0, 12, 0))
        return row(icon_button(ctx, "arrow_back", t("youtube.navigate_up"),
                               lambda: self._close(ctx), fg),
                   field, height=48, bg=bg, gravity="center_vertical", id=yid("toolbar"))

    def _pivot_bar(self, ctx: Context) -> View:
        """Five tabs, Home selected; the create button has no label."""
        bg, fg, dim = palette(ctx)

        def tab(key: str, glyph: str) -> View:
            label = ctx.t(f"youtube.{key}")
            if key == "create":
                return frame(icon(glyph, 36, icon_color=fg, cls="", gravity="center"),
                             width=0, weight=1, height=48, desc=label,
                             cls="android.widget.Button", id=yid("pivot_bar_item_create"))
            home = key == "home"
            return column(icon(glyph, 24, icon_color=fg, icon_filled=home, cls="",
                               gravity="center_horizontal", margin=(0, 4, 0, 0)),
                          text(label, text_size=10, text_color=fg if home else dim,
                               align="center", gravity="center_horizontal", id=yid("text")),
                          width=0, weight=1, height=48, desc=label, selected=home,
                          clickable=home, cls="android.widget.Button",
                          id=yid("pivot_bar_item_tab"))

        line = (48, 48, 48) if ctx.theme.dark else (224, 224, 224)
        return column(frame(width=MATCH, height=1, bg=line, cls=""),
                      row(*[tab(k, g) for k, g in TABS], height=48, gravity="center_vertical"),
                      width=MATCH, bg=bg, id=yid("pivot_bar"))

    def build(self, ctx: Context) -> View:
        bg, _, _ = palette(ctx)
        if self.query is not None and not self.searched:
            body = suggestion_list(ctx, self.query, self.history,
                                   lambda shown: self._submit(ctx, shown),
                                   lambda shown: self._search(ctx, shown))
        else:
            videos = results(self.query) if self.searched and self.query else None
            body = scroller(*cards(ctx, videos if videos is not None else list(VIDEOS)),
                            key="results" if videos is not None else "feed",
                            cls="androidx.recyclerview.widget.RecyclerView",
                            id=yid("results"), width=MATCH, height=MATCH)
        typing = self.query is not None and not self.searched
        return column(self._top_bar(ctx), frame(body, width=MATCH, height=0, weight=1),
                      None if typing else self._pivot_bar(ctx), width=MATCH, height=MATCH,
                      bg=bg)


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

"""The Google app's home (`com.google.android.googlequicksearchbox/.SearchActivity`): what
the app's launcher icon and the search pill's "G" open.

Discover, as the Google app of Android 10's time showed it first: the weather and the
account at the top, the Google wordmark, the search box (which hands over to the query
entry, as the real box does), a feed of cards from the phone's small offline web, and the
bottom bar (Discover, Updates, Search, Recent, More). A card opens the page inside the app;
BACK closes it. Recent lists the searches made from the query entry, newest first.

The ids are ours in the app's namespace: the reference records none for this screen, and
no task reads it.
"""

from __future__ import annotations

import zlib

from bmoca.sim.apps.base import Activity, Context
from bmoca.sim.apps.chrome import web
from bmoca.sim.apps.contacts.ui import icon_button
from bmoca.sim.apps.google.model import gid, history, open_search
from bmoca.sim.ui.view import MATCH, WRAP, View, column, frame, icon, row, scroller, spacer, text

TABS = ("discover", "updates", "search", "recent", "more")
TAB_ICONS = {"discover": "auto_awesome", "updates": "assignment", "search": "search",
             "recent": "history", "more": "more_horiz"}
MORE_ROWS = ("search_activity", "settings", "your_data", "help")
WORDMARK = (("G", (66, 133, 244)), ("o", (234, 67, 53)), ("o", (251, 188, 4)),
            ("g", (66, 133, 244)), ("l", (52, 168, 83)), ("e", (234, 67, 53)))


def colors(ctx: Context) -> dict[str, tuple[int, int, int]]:
    if ctx.theme.dark:
        return {"bg": (32, 33, 36), "card": (48, 49, 52), "text": (232, 234, 237),
                "muted": (154, 160, 166), "accent": (138, 180, 248), "box": (48, 49, 52)}
    return {"bg": (255, 255, 255), "card": (255, 255, 255), "text": (32, 33, 36),
            "muted": (95, 99, 104), "accent": (26, 115, 232), "box": (241, 243, 244)}


def _thumbnail_color(url: str) -> tuple[int, int, int]:
    """A stable colour per page (crc32, not hash(): the same in every process)."""
    h = zlib.crc32(url.encode())
    return 90 + h % 120, 110 + (h >> 8) % 110, 130 + (h >> 16) % 100


class SearchActivity(Activity):
    def __init__(self, intent) -> None:
        super().__init__(intent)
        self.tab = "discover"
        self.reading: str | None = None
        """The URL of the page a card opened, shown over the feed until BACK."""

    def on_back(self, ctx: Context) -> bool:
        if self.reading is not None:
            self.reading = None
            return True
        if self.tab != "discover":
            self.tab = "discover"
            return True
        return False

    def _select(self, ctx: Context, tab: str) -> None:
        if tab == "search":  # the Search tab hands over to the query entry, as the box does
            open_search(ctx)
            return
        self.tab = tab

    def build(self, ctx: Context) -> View:
        c = colors(ctx)
        if self.reading is not None:
            return self._page(ctx, c, self.reading)
        page = {"discover": self._discover, "updates": self._updates, "recent": self._recent,
                "more": self._more}[self.tab](ctx, c)
        return column(frame(page, id=gid("content"), width=MATCH, height=0, weight=1),
                      self._bottom_bar(ctx, c), width=MATCH, height=MATCH, bg=c["bg"])

    # -- pages ----------------------------------------------------------------------
    def _discover(self, ctx: Context, c: dict) -> View:
        top = row(icon("partly_cloudy_day", 24, icon_color=(251, 188, 4),
                       gravity="center_vertical"),
                  text("21°", text_size=16, text_color=c["text"], text_direction="ltr",
                       gravity="center_vertical", margin=(6, 0, 0, 0)),
                  spacer(weight=1),
                  frame(text("B", text_size=16, font_weight=500, text_color=(255, 255, 255),
                             gravity="center"),
                        cls="android.widget.ImageView", id=gid("account_disc"),
                        desc=ctx.t("google.account"), width=32, height=32, corner=16,
                        bg=(124, 77, 255), clickable=True, gravity="center_vertical"),
                  cls="android.view.ViewGroup", id=gid("weather_row"), width=MATCH, height=56,
                  padding=(16, 0, 16, 0), desc=ctx.t("google.weather", degrees="21°"))
        wordmark = row(*[text(letter, text_size=40, font_weight=500,
                              text_color=(232, 234, 237) if ctx.theme.dark else color,
                              cls="") for letter, color in WORDMARK],
                       cls="android.widget.ImageView", id=gid("logo"), desc="Google",
                       width=WRAP, gravity="center_horizontal", mirror=False,
                       margin=(0, 8, 0, 16))
        box = row(icon("search", 24, icon_color=c["muted"], gravity="center_vertical"),
                  text(ctx.t("google.search"), text_size=18, text_color=c["muted"], width=0,
                       weight=1, gravity="start|center_vertical", margin=(12, 0, 0, 0)),
                  icon("mic", 24, icon_color=(66, 133, 244), icon_filled=True,
                       cls="android.widget.ImageView", desc=ctx.t("google.voice_search"),
                       gravity="center_vertical", margin=(0, 0, 12, 0)),
                  icon("photo_camera", 24, icon_color=(66, 133, 244),
                       cls="android.widget.ImageView", desc=ctx.t("google.lens"),
                       gravity="center_vertical"),
                  cls="android.widget.LinearLayout", id=gid("search_widget"),
                  desc=ctx.t("google.search"), clickable=True, focusable=True,
                  on_click=lambda: open_search(ctx), width=MATCH, height=52, bg=c["box"],
                  corner=26, padding=(16, 0, 16, 0), margin=(16, 0, 16, 8),
                  gravity="center_vertical")
        cards = [self._card(ctx, c, page) for page in web.PAGES
                 if page.url != "https://www.google.com/"]
        return scroller(top, wordmark, box, *cards, key="google:discover",
                        cls="androidx.recyclerview.widget.RecyclerView", id=gid("feed"),
                        width=MATCH, height=MATCH)

    def _card(self, ctx: Context, c: dict, page: web.Page) -> View:
        def open_page() -> None:
            self.reading = page.url

        snippet = page.body[0] if page.body else ""
        return column(frame(cls="android.widget.ImageView", width=MATCH, height=160,
                            bg=_thumbnail_color(page.url), corner=8),
                      text(page.title, id=gid("title"), text_size=18, text_color=c["text"],
                           max_lines=2, margin=(0, 12, 0, 0), text_direction="ltr"),
                      text(snippet, text_size=14, text_color=c["muted"], max_lines=2,
                           margin=(0, 4, 0, 0), text_direction="ltr"),
                      text(web.host_of(page.url), id=gid("source"), text_size=12,
                           text_color=c["muted"], margin=(0, 8, 0, 0), text_direction="ltr"),
                      cls="android.view.ViewGroup", id=gid("card"), clickable=True,
                      focusable=True, on_click=open_page, width=MATCH, bg=c["card"],
                      corner=8, elevation=1, padding=(12, 12, 12, 12), margin=(16, 8, 16, 8))

    def _page(self, ctx: Context, c: dict, url: str) -> View:
        page = web.page_at(url)
        title = page.title if page is not None else url
        body = page.body if page is not None else ()

        def close() -> None:
            self.reading = None

        bar = row(icon_button(ctx, "close", ctx.t("google.close"), close, c["text"]),
                  column(text(title, text_size=16, text_color=c["text"], max_lines=1,
                              text_direction="ltr"),
                         text(web.host_of(url), text_size=12, text_color=c["muted"],
                              text_direction="ltr"),
                         width=0, weight=1, gravity="center_vertical"),
                  cls="android.view.ViewGroup", id=gid("toolbar"), width=MATCH, height=56,
                  bg=c["bg"], gravity="center_vertical", elevation=2)
        paragraphs = [text(p, text_size=16, text_color=c["text"], margin=(16, 8, 16, 8),
                           text_direction="ltr") for p in body]
        return column(bar, scroller(text(title, text_size=24, text_color=c["text"],
                                         margin=(16, 16, 16, 8), text_direction="ltr"),
                                    *paragraphs, key="google:page", id=gid("web_view"),
                                    cls="android.webkit.WebView", width=MATCH, height=0,
                                    weight=1),
                      width=MATCH, height=MATCH, bg=c["bg"])

    def _header(self, ctx: Context, c: dict, key: str) -> View:
        return text(ctx.t(f"google.{key}"), text_size=22, text_color=c["text"],
                    width=MATCH, height=64, padding=(16, 0, 16, 0),
                    gravity="start|center_vertical")

    def _empty(self, ctx: Context, c: dict, key: str, note: str) -> View:
        return column(self._header(ctx, c, key),
                      text(ctx.t(f"google.{note}"), text_size=16, text_color=c["muted"],
                           width=MATCH, align="center", margin=(32, 48, 32, 0), max_lines=4),
                      width=MATCH, height=MATCH)

    def _updates(self, ctx: Context, c: dict) -> View:
        return self._empty(ctx, c, "updates", "no_updates")

    def _recent(self, ctx: Context, c: dict) -> View:
        searches = history(ctx)
        if not searches:
            return self._empty(ctx, c, "recent", "no_recent")
        rows = [row(icon("history", 24, icon_color=c["muted"], gravity="center_vertical"),
                    text(query, text_size=16, text_color=c["text"], width=0, weight=1,
                         margin=(16, 0, 0, 0), gravity="start|center_vertical", max_lines=1),
                    width=MATCH, height=56, padding=(16, 0, 16, 0), gravity="center_vertical")
                for query in reversed(searches)]
        return column(self._header(ctx, c, "recent"),
                      scroller(*rows, key="google:recent", width=MATCH, height=0, weight=1),
                      width=MATCH, height=MATCH)

    def _more(self, ctx: Context, c: dict) -> View:
        rows = [row(text(ctx.t(f"google.{key}"), id="android:id/title", text_size=16,
                         text_color=c["text"], gravity="start|center_vertical"),
                    width=MATCH, height=56, padding=(16, 0, 16, 0), clickable=True,
                    gravity="center_vertical") for key in MORE_ROWS]
        return column(self._header(ctx, c, "more"), *rows, width=MATCH, height=MATCH)

    def _bottom_bar(self, ctx: Context, c: dict) -> View:
        items = []
        for tab in TABS:
            chosen = tab == self.tab
            color = c["accent"] if chosen else c["muted"]
            items.append(column(
                icon(TAB_ICONS[tab], 24, icon_color=color, icon_filled=chosen,
                     gravity="center_horizontal", cls=""),
                text(ctx.t(f"google.{tab}"), text_size=12, text_color=color,
                     gravity="center_horizontal", max_lines=1, cls=""),
                cls="android.widget.FrameLayout", id=gid(f"bottom_nav_{tab}"),
                desc=ctx.t(f"google.{tab}"), clickable=True, focusable=True, selected=chosen,
                on_click=lambda t=tab: self._select(ctx, t), width=0, weight=1,
                height=MATCH, gravity="center", padding=(0, 8, 0, 8)))
        return row(*items, cls="android.widget.LinearLayout", id=gid("bottom_navigation"),
                   width=MATCH, height=64, bg=c["bg"], elevation=4)

"""Wikipedia's MainActivity: the Explore feed, Saved, Search and Edits tabs, the More
sheet that leads to Settings, and each feed card's menu (Customize the feed).

The bottom navigation (`main_nav_tab_layout`) has the items `nav_tab_explore`,
`nav_tab_reading_lists`, `nav_tab_search`, `nav_tab_edits` (`selected` on the current
one) and `nav_more_container`. The feed shows the enabled card types in their order, each
with a header (`view_card_header_title`) and a menu (`view_list_card_header_menu`); the
Featured article, Picture of the day and In the news cards lead with a picture across the
card (`LEAD_IMAGE_CARDS`), the others show a thumbnail beside their article.
"""

from __future__ import annotations

from bmoca.sim.apps.base import Activity, App, Context
from bmoca.sim.apps.contacts.ui import icon_button
from bmoca.sim.apps.longpress import focus_field
from bmoca.sim.apps.wikipedia import model
from bmoca.sim.apps.wikipedia.configure import CONFIGURE, ConfigureActivity
from bmoca.sim.apps.wikipedia.images import draw_wordmark, picture_painter
from bmoca.sim.apps.wikipedia.model import PACKAGE, colors, wid
from bmoca.sim.apps.wikipedia.page import PAGE, PageActivity, open_article
from bmoca.sim.apps.wikipedia.settings import SETTINGS, SettingsActivity
from bmoca.sim.system.intent import Intent
from bmoca.sim.ui.view import MATCH, WRAP, View, column, frame, icon, row, scroller, text

MAIN = f"{PACKAGE}.main.MainActivity"
LEAD_IMAGE_CARDS = {"featured_article": "view_featured_article_card_image",
                    "picture_of_the_day": "view_featured_image_card_image",
                    "in_the_news": "view_news_fullscreen_header_image"}
"""Cards the real feed leads with a full-width picture across the card's top, under the
header (FeaturedArticleCardView, FeaturedImageCardView, the news card); the list cards
(Top read, Because you read, ...) show a thumbnail beside each article instead."""
LEAD_IMAGE_DP = 180
THUMBNAIL_DP = 56
FEED_MIN_COLUMN_DP = 320
"""`view_feed_min_column_width`: the Explore feed (an AutoFitRecyclerView of staggered
columns) has a column per 320 dp, three across the 1200 dp landscape tablet; here the cards
go row by row in feed order (the real grid packs each card under the shortest column)."""
TABS = (("explore", "nav_tab_explore", "explore"),
        ("saved", "nav_tab_reading_lists", "bookmark"),
        ("search", "nav_tab_search", "search"),
        ("edits", "nav_tab_edits", "edit"))
CARD_MENU = ("hide_card", "card_languages", "customize")
MORE_ITEMS = (("login", "main_drawer_account_container", "person"),
              ("talk", "main_drawer_talk_container", "forum"),
              ("watchlist", "main_drawer_watchlist_container", "visibility"),
              ("settings", "main_drawer_settings_container", "settings"),
              ("donate", "main_drawer_donate_container", "favorite"))


class MainActivity(Activity):
    popup_dialog = True  # a card's menu opens where the card's ⋮ is

    def __init__(self, intent: Intent):
        super().__init__(intent)
        self.tab = "explore"
        self.more = False
        self.card_menu: int | None = None
        self.hidden: set[int] = set()
        """Cards dismissed with "Hide this card" (today's card only; the type stays on)."""
        self.query = ""

    def on_back(self, ctx: Context) -> bool:
        if self.more or self.card_menu is not None:
            self.more, self.card_menu = False, None
            return True
        if self.tab != "explore":
            self.tab = "explore"
            return True
        return False

    def _menu(self, ctx: Context, key: str) -> None:
        card, self.card_menu = self.card_menu, None
        if key == "customize":
            ctx.start_activity(Intent(component=(PACKAGE, CONFIGURE)))
        elif key == "hide_card" and card is not None:
            self.hidden.add(card)

    def _more(self, ctx: Context, key: str) -> None:
        self.more = False
        if key == "settings":
            ctx.start_activity(Intent(component=(PACKAGE, SETTINGS)))

    def _search(self, ctx: Context) -> None:
        self.tab = "search"
        if ctx.record is not None:
            ctx.record.focus = wid("search_src_text")

    # -- screens ----------------------------------------------------------------------
    def build(self, ctx: Context) -> View:
        c = colors(ctx)
        bar = row(View(cls="android.widget.ImageView", id=wid("main_toolbar_wordmark"),
                       desc="Wikipedia", text_color=c.text, width=0, weight=1, height=MATCH,
                       margin=(16, 0, 0, 0), draw=draw_wordmark),
                  icon_button(ctx, "search", ctx.t("wiki.search_hint"),
                              lambda: self._search(ctx), c.text, wid("menu_search")),
                  cls="android.view.ViewGroup", id=wid("main_toolbar"), width=MATCH,
                  height=56, bg=c.background, gravity="center_vertical")
        pages = {"explore": self._feed, "saved": self._saved, "search": self._search_page,
                 "edits": self._edits}
        body = frame(pages[self.tab](ctx, c), cls="androidx.viewpager2.widget.ViewPager2",
                     id=wid("main_view_pager"), width=MATCH, height=0, weight=1,
                     bg=c.background)
        nav = row(*(self._tab(ctx, c, key, view_id, glyph) for key, view_id, glyph in TABS),
                  self._more_button(ctx, c),
                  cls="android.widget.FrameLayout", id=wid("main_nav_tab_layout"),
                  width=MATCH, height=56, bg=c.surface, elevation=8)
        screen = column(bar if self.tab != "search" else None, body, nav, width=MATCH,
                        height=MATCH, bg=c.background)
        if not self.more:
            return screen
        return frame(screen, self._more_sheet(ctx, c), width=MATCH, height=MATCH)

    def _tab(self, ctx: Context, c: model.Colors, key: str, view_id: str, glyph: str) -> View:
        chosen = self.tab == key
        label = ctx.t(f"wiki.tab.{key}")
        color = c.accent if chosen else c.secondary

        def choose() -> None:
            self.tab = key

        return column(icon(glyph, 24, icon_color=color, icon_filled=chosen, cls="",
                           gravity="center"),
                      text(label, text_size=12, text_color=color, align="center",
                           width=MATCH, cls="android.widget.TextView",
                           id=wid("navigation_bar_item_large_label_view")),
                      cls="android.widget.FrameLayout", id=wid(view_id), desc=label, width=0,
                      weight=1, height=MATCH, gravity="center", clickable=True,
                      focusable=True, selected=chosen, on_click=choose,
                      # NavTabLayout is a Material BottomNavigationView: each item has its
                      # title as tooltip, so a held tab shows it and switches nothing.
                      tooltip=label)

    def _more_button(self, ctx: Context, c: model.Colors) -> View:
        label = ctx.t("wiki.tab.more")
        return column(icon("menu", 24, icon_color=c.secondary, cls="", gravity="center"),
                      text(label, text_size=12, text_color=c.secondary, align="center",
                           width=MATCH),
                      cls="android.widget.FrameLayout", id=wid("nav_more_container"),
                      desc=label, width=0, weight=1, height=MATCH, gravity="center",
                      clickable=True, focusable=True,
                      on_click=lambda: setattr(self, "more", True))

    def _feed(self, ctx: Context, c: model.Colors) -> View:
        enabled = ctx.data.cards()
        cards = [self._card(ctx, c, i) for i in range(model.CONFIGURABLE)
                 if enabled[i] and i not in self.hidden]
        if not cards:
            cards = [text(ctx.t("wiki.feed_empty"), text_size=16, text_color=c.secondary,
                          align="center", max_lines=3, width=MATCH, padding=(24, 48, 24, 0))]
        columns = max(1, int(ctx.system.screen_dp()[0] // FEED_MIN_COLUMN_DP))
        if columns > 1:  # FeedView is an AutoFitRecyclerView: a column per 320 dp
            width = ctx.system.screen_dp()[0] / columns
            for card in cards:
                card.width = width - card.margin[0] - card.margin[2]
            cards = [row(*cards[i:i + columns], width=MATCH, gravity="top")
                     for i in range(0, len(cards), columns)]
        feed = scroller(self._search_card(ctx, c), *cards, key="wiki:feed", cls="androidx.recyclerview.widget.RecyclerView",
                        id=wid("feed_view"), width=MATCH, height=MATCH,
                        padding=(0, 8, 0, 8))
        return frame(feed, cls="android.view.ViewGroup", id=wid("swipe_refresh_layout"),
                     width=MATCH, height=MATCH)

    def _search_card(self, ctx: Context, c: model.Colors) -> View:
        """The feed's own search bar above the cards (Search Wikipedia, and the microphone)."""
        return row(icon("search", 24, icon_color=c.secondary, cls="", gravity="center_vertical"),
                   text(ctx.t("wiki.search_hint"), text_size=16, text_color=c.secondary,
                        width=0, weight=1, margin=(16, 0, 0, 0), gravity="center_vertical"),
                   icon("mic", 24, icon_color=c.secondary, id=wid("voice_search_button"),
                        cls="android.widget.ImageView", gravity="center_vertical"),
                   cls="androidx.cardview.widget.CardView", id=wid("search_container"),
                   width=MATCH, height=48, bg=c.surface, corner=24, margin=(8, 6, 8, 6),
                   padding=(16, 0, 16, 0), elevation=2, clickable=True, focusable=True,
                   gravity="center_vertical", on_click=lambda: self._search(ctx))

    def _card(self, ctx: Context, c: model.Colors, index: int) -> View:
        key = model.CARDS[index]
        article = model.ARTICLES[index % len(model.ARTICLES)]

        def menu() -> None:
            self.card_menu = index

        lead = LEAD_IMAGE_CARDS.get(key)
        image = View(cls="android.widget.ImageView",
                     id=wid(lead or "view_list_card_item_image"),
                     width=MATCH if lead else THUMBNAIL_DP,
                     height=LEAD_IMAGE_DP if lead else THUMBNAIL_DP, corner=0 if lead else 4,
                     draw=picture_painter(article.title),
                     margin=(0, 0, 0, 12) if lead else (12, 0, 0, 0))

        return column(
            row(text(ctx.t(f"wiki.card.{key}"), id=wid("view_card_header_title"),
                     text_size=14, font_weight=500, text_color=c.secondary, width=0,
                     weight=1, gravity="center_vertical"),
                icon_button(ctx, "more_vert", ctx.t("wiki.more_options"), menu, c.secondary,
                            wid("view_list_card_header_menu")),
                width=MATCH, height=48, gravity="center_vertical", padding=(16, 0, 0, 0)),
            image if lead else None,
            row(column(text(article.title, text_size=20, text_color=c.text, text_direction="ltr",
                            id=wid("view_featured_article_card_article_title"), width=MATCH),
                       text(article.description, text_size=14, text_color=c.secondary,
                            max_lines=2, text_direction="ltr", width=MATCH),
                       width=0, weight=1),
                None if lead else image,
                width=MATCH, padding=(16, 0, 16, 16), clickable=True, gravity="center_vertical",
                on_click=lambda: open_article(ctx, article.title)),
            cls="androidx.cardview.widget.CardView", width=MATCH, bg=c.surface, corner=8,
            margin=(8, 6, 8, 6), elevation=2)

    def dialog(self, ctx: Context) -> View | None:
        if self.card_menu is None:
            return None
        c = colors(ctx)
        rows = [frame(text(ctx.t(f"wiki.menu.{key}"), id="android:id/title", text_size=16,
                           text_color=c.text, gravity="start|center_vertical",
                           margin=(16, 0, 16, 0)),
                      cls="android.widget.LinearLayout",
                      id=wid("menu_feed_card_customize") if key == "customize" else "",
                      width=MATCH, height=48, clickable=True, focusable=True,
                      on_click=lambda k=key: self._menu(ctx, k))
                for key in CARD_MENU]
        return column(*rows, cls="android.widget.ListView", width=240, bg=c.surface,
                      elevation=8, corner=4, gravity="end|top", margin=(0, 120, 8, 0),
                      padding=(0, 8, 0, 8))

    def _more_sheet(self, ctx: Context, c: model.Colors) -> View:
        items = [row(icon(glyph, 24, icon_color=c.secondary, cls="", gravity="center_vertical"),
                     text(ctx.t(f"wiki.more.{key}"), text_size=16, text_color=c.text,
                          margin=(24, 0, 0, 0), gravity="center_vertical"),
                     cls="android.widget.LinearLayout", id=wid(view_id), width=MATCH,
                     height=52, padding=(20, 0, 20, 0), clickable=True, focusable=True,
                     gravity="center_vertical", on_click=lambda k=key: self._more(ctx, k))
                 for key, view_id, glyph in MORE_ITEMS]
        sheet = column(*items, cls="android.widget.FrameLayout", id=wid("design_bottom_sheet"),
                       width=MATCH, height=WRAP, bg=c.surface, corner=12,
                       gravity="start|bottom", padding=(0, 12, 0, 12))
        scrim = View(cls="", width=MATCH, height=MATCH, bg=(0, 0, 0, 100),
                     on_click=lambda: setattr(self, "more", False))
        return frame(scrim, sheet, width=MATCH, height=MATCH)

    def _saved(self, ctx: Context, c: model.Colors) -> View:
        return column(icon("bookmark", 64, icon_color=c.divider, cls="", gravity="center",
                           margin=(0, 96, 0, 16)),
                      text(ctx.t("wiki.saved_empty"), id=wid("empty_title"), text_size=18,
                           text_color=c.text, align="center", width=MATCH, max_lines=2),
                      text(ctx.t("wiki.saved_empty_message"), text_size=14,
                           text_color=c.secondary, align="center", width=MATCH, max_lines=4,
                           padding=(32, 8, 32, 0)),
                      width=MATCH, height=MATCH)

    def _edits(self, ctx: Context, c: model.Colors) -> View:
        return column(text(ctx.t("wiki.edits_title"), text_size=22, text_color=c.text,
                           max_lines=2, width=MATCH, padding=(16, 24, 16, 8)),
                      text(ctx.t("wiki.edits_message"), id=wid("messageTitleView"),
                           text_size=14, text_color=c.secondary, max_lines=5, width=MATCH,
                           padding=(16, 0, 16, 0)),
                      width=MATCH, height=MATCH)

    def _search_page(self, ctx: Context, c: model.Colors) -> View:
        def on_text(value: str) -> None:
            self.query = value

        field = row(icon_button(ctx, "arrow_back", ctx.t("wiki.navigate_up"),
                                lambda: setattr(self, "tab", "explore"), c.text),
                    View(cls="android.widget.EditText", id=wid("search_src_text"),
                         text=self.query, hint=ctx.t("wiki.search_hint"), text_size=18,
                         text_color=c.text, width=0, weight=1, height=48, clickable=True,
                         focusable=True, long_clickable=True, on_text=on_text,
                         on_long_click=focus_field(ctx, wid("search_src_text")),
                         ime_action="search",
                         gravity="center_vertical", padding=(8, 0, 8, 0)),
                    cls="android.view.ViewGroup", id=wid("search_toolbar"), width=MATCH,
                    height=56, bg=c.background, gravity="center_vertical")
        results = [column(text(a.title, id=wid("page_list_item_title"), text_size=16,
                               text_color=c.text, text_direction="ltr"),
                          text(a.description, id=wid("page_list_item_description"),
                               text_size=14, text_color=c.secondary, text_direction="ltr"),
                          cls="android.widget.LinearLayout", width=MATCH, height=64,
                          padding=(16, 8, 16, 8), clickable=True,
                          on_click=lambda t=a.title: open_article(ctx, t))
                   for a in model.search(self.query)]
        if self.query.strip() and not results:
            results = [text(ctx.t("wiki.no_results"), id=wid("search_empty_text"),
                            text_size=16, text_color=c.secondary, padding=(16, 24, 16, 0),
                            width=MATCH, max_lines=2)]
        return column(field, scroller(*results, key="wiki:search",
                                      cls="androidx.recyclerview.widget.RecyclerView",
                                      id=wid("search_results_list"), width=MATCH,
                                      height=MATCH),
                      width=MATCH, height=MATCH)


class WikipediaApp(App):
    package = PACKAGE
    label_key = f"app.{PACKAGE}"
    uid = 10143
    activities = {MAIN: MainActivity, CONFIGURE: ConfigureActivity, SETTINGS: SettingsActivity,
                  PAGE: PageActivity}

    def initial_data(self) -> model.WikipediaData:
        return model.WikipediaData()

    def on_boot(self, ctx: Context) -> None:
        model.load(ctx)

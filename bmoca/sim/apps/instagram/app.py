"""Instagram (`com.instagram.android`): a logged-in account's home feed, search grid, reels
and profile behind the tab bar.

The launcher starts the alias `.activity.MainTabActivity`, which resolves to
`com.instagram.mainactivity.LauncherActivity` (both names start the same activity here, so
the START line carries the name that was asked for, as Android's does for an alias). The
tab bar has `feed_tab`, `search_tab`, `creation_tab`, `clips_tab` (Reels) and
`profile_tab`, with `selected` on the current one. BACK returns to the feed, then leaves.
"""

from __future__ import annotations

from bmoca.sim.apps.base import Activity, App, Context
from bmoca.sim.apps.instagram import content
from bmoca.sim.render.widgets import draw_story_ring
from bmoca.sim.ui.view import MATCH, View, column, frame, icon, row, scroller, text

PACKAGE = "com.instagram.android"
ALIAS = "com.instagram.android.activity.MainTabActivity"
ACTIVITY = "com.instagram.mainactivity.LauncherActivity"
TABS = ("feed", "search", "creation", "clips", "profile")
TAB_ICONS = {"feed": "home", "search": "search", "creation": "add_box", "clips": "movie",
             "profile": "account_circle"}
TAB_LABELS = {"feed": "ig.tab.home", "search": "ig.tab.search", "creation": "ig.tab.create",
              "clips": "ig.tab.reels", "profile": "ig.tab.profile"}
WHITE = (255, 255, 255)


def gid(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


def _colors(dark: bool) -> dict:
    if dark:
        return {"bg": (0, 0, 0), "text": (245, 245, 245), "muted": (168, 168, 168),
                "field": (38, 38, 38), "button": (54, 54, 54), "divider": (38, 38, 38)}
    return {"bg": (255, 255, 255), "text": (0, 0, 0), "muted": (115, 115, 115),
            "field": (239, 239, 239), "button": (239, 239, 239), "divider": (219, 219, 219)}


def _avatar(name: str, size: float, ring: bool = False) -> View:
    inner = frame(text(name[:1].upper(), text_size=size * 0.4, font_weight=700,
                       text_color=WHITE, gravity="center"),
                  orientation="z", width=size, height=size, corner=size / 2,
                  bg=content.avatar_color(name), gravity="center")
    if not ring:
        return frame(inner, cls="android.widget.ImageView", orientation="z", width=size,
                     height=size)
    return frame(inner, cls="android.widget.ImageView", orientation="z", width=size + 8,
                 height=size + 8, draw=draw_story_ring)


class MainTabActivity(Activity):
    def __init__(self, intent):
        super().__init__(intent)
        self.tab = "feed"

    def select(self, tab: str) -> None:
        if tab != "creation":  # the camera needs a permission prompt we do not show
            self.tab = tab

    def on_back(self, ctx: Context) -> bool:
        if self.tab != "feed":
            self.tab = "feed"
            return True
        return False

    def build(self, ctx: Context) -> View:
        dark = ctx.theme.dark or self.tab == "clips"
        c = _colors(dark)
        page = {"feed": self._feed, "search": self._search, "clips": self._reels,
                "profile": self._profile}[self.tab](ctx, c)
        body = frame(page, cls="android.widget.FrameLayout", id=gid("layout_container_main"),
                     width=MATCH, height=0, weight=1, bg=c["bg"])
        return column(body, self._tab_bar(ctx, c), cls="android.widget.LinearLayout",
                      id=gid("main_layout"), width=MATCH, height=MATCH, bg=c["bg"])

    def _tab_bar(self, ctx: Context, c: dict) -> View:
        items = []
        for tab in TABS:
            chosen = tab == self.tab
            child: View = (_avatar(content.ME, 26) if tab == "profile" else
                           icon(TAB_ICONS[tab], 28, cls="android.widget.ImageView",
                                icon_color=c["text"], icon_filled=chosen, gravity="center"))
            child.gravity = "center"
            items.append(frame(child, cls="android.widget.FrameLayout", id=gid(f"{tab}_tab"),
                               desc=ctx.t(TAB_LABELS[tab]), orientation="z", clickable=True,
                               focusable=True, selected=chosen, width=0, weight=1,
                               height=MATCH, on_click=lambda t=tab: self.select(t)))
        return row(*items, cls="android.widget.LinearLayout", id=gid("tab_bar"), width=MATCH,
                   height=56, bg=c["bg"])

    # -- pages ----------------------------------------------------------------------
    def _feed(self, ctx: Context, c: dict) -> View:
        bar = row(text("Instagram", id=gid("title_logo"), text_size=26, font_weight=700,
                       text_color=c["text"], width=0, weight=1, gravity="start|center_vertical"),
                  View(cls="android.widget.ImageView", desc=ctx.t("ig.notifications"),
                       icon="favorite", icon_color=c["text"], width=44, height=MATCH,
                       clickable=True),
                  View(cls="android.widget.ImageView", desc=ctx.t("ig.messages"),
                       icon="send", icon_color=c["text"], width=44, height=MATCH,
                       clickable=True),
                  cls="android.view.ViewGroup", id=gid("action_bar"), width=MATCH, height=56,
                  padding=(16, 0, 8, 0))
        stories = [column(_avatar(content.ME, 64),
                          text(ctx.t("ig.your_story"), text_size=12, text_color=c["muted"],
                               gravity="center_horizontal", margin=(0, 4, 0, 0)),
                          width=84, height=MATCH, padding=(6, 4, 6, 4))]
        stories += [column(_avatar(name, 64, ring=True),
                           text(name, text_size=12, text_color=c["text"],
                                gravity="center_horizontal", margin=(0, 4, 0, 0)),
                           id=gid("avatar_image_view"), desc=name, clickable=True, width=84,
                           height=MATCH, padding=(6, 4, 6, 4)) for name in content.STORIES]
        tray = scroller(*stories, key="ig_stories", horizontal=True,
                        id=gid("reels_tray_container"), width=MATCH, height=112)
        posts = [self._post(ctx, c, post) for post in content.FEED]
        return column(bar, scroller(tray, *posts, key="ig_feed", id=android_list(),
                                    width=MATCH, height=0, weight=1),
                      width=MATCH, height=MATCH)

    def _post(self, ctx: Context, c: dict, post: content.Post) -> View:
        header = row(_avatar(post.author, 32),
                     text(post.author, id=gid("row_feed_photo_profile_name"), text_size=14,
                          font_weight=600, text_color=c["text"], margin=(10, 0, 0, 0), width=0,
                          weight=1, gravity="start|center_vertical"),
                     icon("more_vert", 22, icon_color=c["text"]),
                     width=MATCH, height=52, padding=(12, 10, 12, 10))
        actions = row(*[View(cls="android.widget.ImageView", id=gid(rid), desc=ctx.t(key),
                             icon=symbol, icon_color=c["text"], width=44, height=MATCH,
                             clickable=True)
                        for rid, key, symbol in (("row_feed_button_like", "ig.like", "favorite"),
                                                 ("row_feed_button_comment", "ig.comment",
                                                  "mode_comment"),
                                                 ("row_feed_button_share", "ig.share", "send"))],
                      width=MATCH, height=44, padding=(4, 0, 4, 0))
        return column(header,
                      content.picture(post, height=360, id=gid("row_feed_photo_imageview")),
                      actions,
                      text(ctx.t("ig.likes", count=post.likes), id=gid("row_feed_textview_likes"),
                           text_size=14, font_weight=600, text_color=c["text"],
                           padding=(12, 0, 12, 0)),
                      text(f"{post.author}  {post.caption}", text_size=14, max_lines=2,
                           text_color=c["text"], padding=(12, 4, 12, 12),
                           id=gid("row_feed_comment_textview_layout")),
                      cls="android.widget.LinearLayout", width=MATCH)

    def _search(self, ctx: Context, c: dict) -> View:
        field = row(icon("search", 20, icon_color=c["muted"]),
                    text(ctx.t("ig.search_hint"), text_size=16, text_color=c["muted"],
                         margin=(8, 0, 8, 0), width=0, weight=1),
                    cls="android.widget.EditText", id=gid("action_bar_search_edit_text"),
                    width=MATCH, height=40, bg=c["field"], corner=10, padding=(12, 10, 12, 10),
                    margin=(12, 8, 12, 8), clickable=True)
        rows = []
        tiles = list(content.EXPLORE)
        for i in range(0, len(tiles), 3):
            rows.append(row(*[content.picture(p, width=0, weight=1, height=MATCH,
                                              margin=(1, 1, 1, 1), clickable=True,
                                              id=gid("image_button"))
                              for p in tiles[i:i + 3]], width=MATCH, height=136))
        return column(field, scroller(*rows, key="ig_explore", id=android_list(), width=MATCH,
                                      height=0, weight=1),
                      width=MATCH, height=MATCH)

    def _reels(self, ctx: Context, c: dict) -> View:
        reel = content.REELS[0]
        overlay = column(row(_avatar(reel.author, 32),
                             text(reel.author, text_size=14, font_weight=600, text_color=WHITE,
                                  margin=(8, 0, 8, 0), gravity="start|center_vertical"),
                             text(ctx.t("ig.follow"), text_size=13, font_weight=600,
                                  text_color=WHITE, border=WHITE, corner=8,
                                  padding=(10, 4, 10, 4), clickable=True),
                             height=40),
                         text(reel.caption, text_size=14, text_color=WHITE,
                              margin=(0, 8, 0, 0)),
                         gravity="start|bottom", width=MATCH, padding=(16, 16, 72, 24))
        side = column(*[column(icon(symbol, 30, icon_color=WHITE, gravity="center_horizontal"),
                               text(label, text_size=12, text_color=WHITE,
                                    gravity="center_horizontal"),
                               width=56, margin=(0, 10, 0, 10))
                        for symbol, label in (("favorite", str(reel.likes)),
                                              ("mode_comment", "48"), ("send", ""))],
                      gravity="end|bottom", width=64, padding=(0, 0, 8, 24))
        return frame(content.picture(reel, id=gid("clips_video_container")),
                     text(ctx.t("ig.tab.reels"), text_size=22, font_weight=700,
                          text_color=WHITE, gravity="start|top", margin=(16, 12, 16, 0),
                          id=gid("clips_viewer_title")),
                     overlay, side, cls="android.widget.FrameLayout",
                     id=gid("clips_viewer_view_pager"), orientation="z", width=MATCH,
                     height=MATCH, bg=(0, 0, 0))

    def _profile(self, ctx: Context, c: dict) -> View:
        posts, followers, following = content.MY_COUNTS

        def count(value: int, key: str, rid: str) -> View:
            return column(text(str(value), id=gid(rid), text_size=17, font_weight=700,
                               text_color=c["text"], gravity="center_horizontal"),
                          text(ctx.t(key), text_size=13, text_color=c["text"],
                               gravity="center_horizontal"),
                          width=0, weight=1)

        head = row(_avatar(content.ME, 86),
                   count(posts, "ig.posts", "row_profile_header_textview_post_count"),
                   count(followers, "ig.followers",
                         "row_profile_header_textview_followers_count"),
                   count(following, "ig.following",
                         "row_profile_header_textview_following_count"),
                   width=MATCH, height=110, padding=(16, 12, 16, 12))

        def button(key: str, rid: str) -> View:
            return text(ctx.t(key), cls="android.widget.Button", id=gid(rid), text_size=14,
                        font_weight=600, text_color=c["text"], bg=c["button"], corner=8,
                        align="center", width=0, weight=1, height=34, margin=(4, 0, 4, 0),
                        clickable=True)

        grid = [row(*[content.picture(p, width=0, weight=1, height=MATCH, margin=(1, 1, 1, 1))
                      for p in content.MINE[i:i + 3]], width=MATCH, height=136)
                for i in range(0, len(content.MINE), 3)]
        return column(
            row(text(content.ME, id=gid("action_bar_title"), text_size=22, font_weight=700,
                     text_color=c["text"], width=0, weight=1, gravity="start|center_vertical"),
                icon("menu", 26, icon_color=c["text"]),
                cls="android.view.ViewGroup", id=gid("action_bar"), width=MATCH, height=56,
                padding=(16, 0, 16, 0)),
            scroller(head,
                     text(content.MY_NAME, id=gid("profile_header_full_name"), text_size=14,
                          font_weight=600, text_color=c["text"], padding=(16, 0, 16, 0)),
                     text(content.MY_BIO, id=gid("profile_header_bio_text"), text_size=14,
                          text_color=c["text"], padding=(16, 2, 16, 12)),
                     row(button("ig.edit_profile", "profile_header_edit_profile_button"),
                         button("ig.share_profile", "profile_header_share_profile_button"),
                         width=MATCH, height=34, padding=(12, 0, 12, 0)),
                     frame(width=MATCH, height=12),
                     *grid, key="ig_profile", id=android_list(), width=MATCH, height=0,
                     weight=1),
            width=MATCH, height=MATCH)


def android_list() -> str:
    return "android:id/list"


class InstagramApp(App):
    package = PACKAGE
    label_key = f"app.{PACKAGE}"
    uid = 10140
    activities = {ALIAS: MainTabActivity, ACTIVITY: MainTabActivity}

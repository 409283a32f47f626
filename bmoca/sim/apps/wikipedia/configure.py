"""Customize the feed (`org.wikipedia.feed.configure.ConfigureActivity`): the card types
with their switches (`feed_content_type_checkbox`), each change stored at once in
`feedCardsEnabled`; the overflow menu's Show all, Hide all and Restore default view."""

from __future__ import annotations

from bmoca.sim.apps.base import Activity, Context
from bmoca.sim.apps.contacts.ui import icon_button, overflow_button
from bmoca.sim.apps.wikipedia import model
from bmoca.sim.apps.wikipedia.model import PACKAGE, colors, wid
from bmoca.sim.render.widgets import draw_switch
from bmoca.sim.ui.view import MATCH, WRAP, View, column, frame, icon, row, scroller, text

CONFIGURE = f"{PACKAGE}.feed.configure.ConfigureActivity"
OVERFLOW = ("show_all", "hide_all", "restore_default")


class ConfigureActivity(Activity):
    popup_dialog = True  # the overflow menu

    def __init__(self, intent):
        super().__init__(intent)
        self.overflow = False

    def on_back(self, ctx: Context) -> bool:
        if self.overflow:
            self.overflow = False
            return True
        return False

    def _all(self, ctx: Context, key: str) -> None:
        """Show all and Hide all set `isEnabled` on every FeedContentType entry, the two
        the list leaves out included; Restore default view drops the stored lists, so every
        type is enabled again. So after Hide all, switching the wanted rows back on leaves
        Suggested edits and the accessibility card off in `feedCardsEnabled`."""
        self.overflow = False
        model.set_cards(ctx, [key != "hide_all"] * len(model.CARDS))

    def build(self, ctx: Context) -> View:
        c = colors(ctx)
        t = ctx.t
        enabled = ctx.data.cards()
        rows = []
        for index in range(model.CONFIGURABLE):
            key = model.CARDS[index]
            on = enabled[index]
            switch = View(cls="android.widget.Switch", id=wid("feed_content_type_checkbox"),
                          checkable=True, checked=on, clickable=True, focusable=True,
                          width=52, height=32, draw=draw_switch, gravity="center_vertical",
                          on_click=lambda i=index, v=on: model.set_card(ctx, i, not v))
            rows.append(row(
                icon("drag_handle", 24, icon_color=c.secondary, cls="android.widget.ImageView",
                     id=wid("feed_content_type_drag_handle"), gravity="center_vertical"),
                column(text(t(f"wiki.card.{key}"), id=wid("feed_content_type_title"),
                            text_size=16, text_color=c.text),
                       text(t(f"wiki.card.{key}.subtitle"), id=wid("feed_content_type_subtitle"),
                            text_size=14, text_color=c.secondary, max_lines=2),
                       width=0, weight=1, margin=(16, 0, 16, 0), gravity="center_vertical"),
                switch,
                cls="android.widget.LinearLayout", width=MATCH, height=WRAP,
                padding=(16, 12, 16, 12), gravity="center_vertical", clickable=True,
                on_click=lambda i=index, v=on: model.set_card(ctx, i, not v)))
        bar = row(icon_button(ctx, "arrow_back", t("wiki.navigate_up"), ctx.finish, c.text,
                              tooltip=True),
                  text(t("wiki.customize_title"), text_size=20, font_weight=500,
                       text_color=c.text, width=0, weight=1, gravity="center_vertical",
                       margin=(20, 0, 0, 0)),
                  overflow_button(ctx, t("wiki.more_options"),
                                  lambda: setattr(self, "overflow", True), c.text),
                  cls="android.view.ViewGroup", id=wid("toolbar"), width=MATCH, height=56,
                  bg=c.background, elevation=2, gravity="center_vertical",
                  padding=(4, 0, 4, 0))
        return column(bar, scroller(*rows, key="wiki:configure",
                                    cls="androidx.recyclerview.widget.RecyclerView",
                                    id=wid("content_types_recycler"), width=MATCH, height=0,
                                    weight=1, padding=(0, 0, 0, 24)),
                      width=MATCH, height=MATCH, bg=c.background)

    def dialog(self, ctx: Context) -> View | None:
        if not self.overflow:
            return None
        c = colors(ctx)
        rows = [frame(text(ctx.t(f"wiki.configure.{key}"), id="android:id/title", text_size=16,
                           text_color=c.text, gravity="start|center_vertical",
                           margin=(16, 0, 16, 0)),
                      cls="android.widget.LinearLayout", width=MATCH, height=48,
                      clickable=True, focusable=True, on_click=lambda k=key: self._all(ctx, k))
                for key in OVERFLOW]
        return column(*rows, cls="android.widget.ListView", width=240, bg=c.surface,
                      elevation=8, corner=4, gravity="end|top", margin=(0, 4, 4, 0),
                      padding=(0, 8, 0, 8))

"""Chrome's History (`org.chromium.chrome.browser.history.HistoryActivity`), which phones
open as an activity of its own from the app menu: the visits newest first under a date
header, "Clear browsing data…", and an empty state."""

from __future__ import annotations

from bmoca.sim.apps.base import Activity, Context
from bmoca.sim.apps.chrome.pages import chid, colors, display_url, navigate
from bmoca.sim.apps.contacts.ui import icon_button
from bmoca.sim.ui.view import MATCH, View, column, frame, icon, row, scroller, text

HISTORY = "org.chromium.chrome.browser.history.HistoryActivity"


class HistoryActivity(Activity):
    def build(self, ctx: Context) -> View:
        c = colors(ctx, False)
        t = ctx.t
        visits = list(reversed(ctx.data.history))

        def open_visit(url: str) -> None:
            ctx.data.in_incognito = False
            navigate(ctx, url)
            ctx.finish()

        bar = row(
            icon_button(ctx, "arrow_back", t("chrome.navigate_up"), ctx.finish, c.icon,
                        tooltip=True),
            text(t("chrome.history"), text_size=20, font_weight=500, text_color=c.text,
                 width=0, weight=1, gravity="center_vertical", margin=(20, 0, 0, 0)),
            icon_button(ctx, "search", t("chrome.search_history"), None, c.icon,
                        chid("search_menu_id"), cls="android.widget.TextView", tooltip=True),
            icon_button(ctx, "close", t("chrome.close"), ctx.finish, c.icon,
                        chid("close_menu_id"), cls="android.widget.TextView", tooltip=True),
            cls="android.view.ViewGroup", id=chid("action_bar"), width=MATCH, height=56,
            bg=c.toolbar, elevation=2, gravity="center_vertical", padding=(4, 0, 4, 0))
        clear = text(t("chrome.clear_browsing_data"), id=chid("clear_browsing_data_button"),
                     text_size=16, text_color=c.link, cls="android.widget.Button",
                     clickable=True, width=MATCH, height=48, gravity="center_vertical",
                     padding=(16, 0, 16, 0))
        if not visits:
            body: View = column(
                clear,
                icon("history", 72, icon_color=c.secondary, cls="android.widget.ImageView",
                     gravity="center", margin=(0, 64, 0, 16)),
                text(t("chrome.history_empty"), id=chid("empty_view"), text_size=16,
                     text_color=c.secondary, gravity="center", max_lines=3),
                width=MATCH, height=MATCH)
        else:
            rows: list[View] = [clear, text(t("chrome.today"), text_size=14, font_weight=500,
                                            text_color=c.secondary, padding=(16, 16, 16, 8),
                                            width=MATCH)]
            for visit in visits:
                rows.append(row(
                    frame(text(visit.title[:1], text_size=14, text_color=(255, 255, 255),
                               align="center", width=24, height=24, cls=""),
                          cls="android.widget.ImageView", id=chid("icon_view"), width=24,
                          height=24, corner=12, bg=c.link, gravity="center_vertical"),
                    column(text(visit.title, id=chid("title"), text_size=16,
                                text_color=c.text),
                           text(display_url(visit.url), id=chid("description"), text_size=14,
                                text_color=c.secondary, text_direction="ltr"),
                           width=0, weight=1, margin=(24, 0, 8, 0), gravity="center_vertical"),
                    icon_button(ctx, "close", t("chrome.remove"), None, c.icon, chid("remove")),
                    cls="android.widget.LinearLayout", id=chid("history_item"), width=MATCH,
                    height=64, padding=(16, 0, 4, 0), clickable=True, focusable=True,
                    gravity="center_vertical", on_click=lambda url=visit.url: open_visit(url)))
            body = scroller(*rows, key="chrome:history",
                            cls="androidx.recyclerview.widget.RecyclerView",
                            id=chid("recycler_view"), width=MATCH, height=MATCH)
        return column(bar, frame(body, width=MATCH, height=0, weight=1, bg=c.page,
                                 cls="android.widget.FrameLayout"),
                      width=MATCH, height=MATCH, bg=c.page)


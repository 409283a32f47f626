"""Maps (`com.google.android.apps.maps`): MapsActivity.

The launcher starts `com.google.android.maps.MapsActivity`. The screen is a map drawn from
plain shapes (blocks, parks, water and roads, no tiles from the network) under the search
box (`search_omnibox_container`, "Search here"); tapping it turns it into the
`search_omnibox_edit_text` field with the keyboard, which Gboard's `AndroidIME` line names.
"""

from __future__ import annotations

from bmoca.sim.apps.base import Activity, App, Context
from bmoca.sim.apps.contacts.ui import icon_button
from bmoca.sim.apps.longpress import focus_field
from bmoca.sim.system.intent import Intent
from bmoca.sim.ui.view import MATCH, WRAP, View, frame, icon, row, text

PACKAGE = "com.google.android.apps.maps"
MAPS = "com.google.android.maps.MapsActivity"


def mid(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


def _map(ctx: Context) -> View:
    """Blocks, a park, a river and roads at fixed places (dp), in the light or night style."""
    dark = ctx.theme.dark
    land, block, park, water, road = (
        ((36, 47, 62), (46, 58, 76), (38, 66, 58), (23, 38, 60), (56, 65, 78)) if dark else
        ((240, 238, 232), (226, 223, 216), (197, 232, 197), (170, 218, 255), (255, 255, 255)))
    shapes = []
    for i in range(6):
        for j in range(9):
            color = park if (i, j) in ((1, 2), (1, 3), (4, 6)) else block
            shapes.append(frame(width=52, height=58, bg=color, corner=4,
                                margin=(8 + i * 68, 96 + j * 74, 0, 0), cls=""))
    shapes.append(frame(width=MATCH, height=40, bg=water, margin=(0, 410, 0, 0), cls=""))
    shapes.append(frame(width=12, height=MATCH, bg=road, margin=(198, 0, 0, 0), cls=""))
    shapes.append(frame(width=MATCH, height=10, bg=road, margin=(0, 300, 0, 0), cls=""))
    pin = icon("location_on", 40, icon_color=(234, 67, 53), icon_filled=True, cls="",
               margin=(184, 270, 0, 0))
    return frame(*shapes, pin, cls="android.view.View", id=mid("mainmap_container"),
                 desc=ctx.t("maps.map"), width=MATCH, height=MATCH, bg=land, mirror=False)


class MapsActivity(Activity):
    def __init__(self, intent: Intent):
        super().__init__(intent)
        self.query: str | None = None

    def _search(self, ctx: Context) -> None:
        self.query = ""
        if ctx.record is not None:
            ctx.record.focus = mid("search_omnibox_edit_text")

    def _close(self, ctx: Context) -> None:
        self.query = None
        if ctx.record is not None:
            ctx.record.focus = None

    def on_back(self, ctx: Context) -> bool:
        if self.query is not None:
            self._close(ctx)
            return True
        return False

    def build(self, ctx: Context) -> View:
        dark = ctx.theme.dark
        surface = (48, 49, 52) if dark else (255, 255, 255)
        fg, dim = ((232, 234, 237), (154, 160, 166)) if dark else ((32, 33, 36), (95, 99, 104))
        t = ctx.t
        if self.query is None:
            box = row(icon("location_on", 24, icon_color=(234, 67, 53), cls="",
                           margin=(16, 0, 12, 0), gravity="center_vertical"),
                      text(t("maps.search_here"), text_size=16, text_color=dim, width=0,
                           weight=1, id=mid("search_omnibox_text_box"),
                           gravity="start|center_vertical"),
                      cls="android.widget.LinearLayout", id=mid("search_omnibox_container"),
                      height=48, corner=24, bg=surface, elevation=3, margin=(16, 12, 16, 0),
                      clickable=True, on_click=lambda: self._search(ctx),
                      gravity="center_vertical")
        else:
            def on_text(value: str) -> None:
                self.query = value

            box = row(icon_button(ctx, "arrow_back", t("maps.navigate_up"),
                                  lambda: self._close(ctx), dim),
                      View(cls="android.widget.EditText", id=mid("search_omnibox_edit_text"),
                           text=self.query, hint=t("maps.search_here"), text_size=16,
                           text_color=fg, width=0, weight=1, height=48, clickable=True,
                           focusable=True, long_clickable=True, on_text=on_text,
                           on_long_click=focus_field(ctx, mid("search_omnibox_edit_text")),
                           ime_action="search",
                           gravity="center_vertical"),
                      height=56, bg=surface, elevation=3, gravity="center_vertical")
        explore = row(icon("explore", 20, icon_color=(26, 115, 232), cls="",
                           gravity="center_vertical"),
                      text(t("maps.explore"), text_size=14, font_weight=500, text_color=fg,
                           margin=(8, 0, 0, 0), gravity="center_vertical", cls=""),
                      cls="android.widget.Button", id=mid("explore_button"), width=WRAP,
                      height=40, corner=20, bg=surface, elevation=3, padding=(16, 0, 16, 0),
                      gravity="end|bottom", margin=(16, 16, 16, 16))
        return frame(_map(ctx), frame(box, width=MATCH, height=WRAP), explore,
                     width=MATCH, height=MATCH)


class MapsApp(App):
    package = PACKAGE
    label_key = f"app.{PACKAGE}"
    uid = 10115
    activities = {MAPS: MapsActivity}

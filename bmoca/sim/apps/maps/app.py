"""Maps (`com.google.android.apps.maps`): MapsActivity.

The launcher starts `com.google.android.maps.MapsActivity`. It opens on Explore: the map
(`mainmap_container`, one view whose streets and places are drawn, `mapdraw.py`) under the
floating search bar (`search_omnibox_container`, "Search here"), the category chips, the
map buttons and the five bottom tabs (`explore.py`). A tap on the bar opens the search page
(`search.py`) with the `search_omnibox_edit_text` field focused and the keyboard up, which
Gboard's `AndroidIME` line names; a search shows the places found on the map and in a list,
with the field keeping its text.
"""

from __future__ import annotations

from bmoca.sim.apps.base import Activity, App, Context
from bmoca.sim.apps.maps.explore import PANEL_DP, bottom_nav, explore_chrome, mid, palette
from bmoca.sim.apps.maps.mapdraw import draw_map
from bmoca.sim.apps.maps.search import (
    result_pins,
    results_list,
    search_field,
    suggestion_list,
)
from bmoca.sim.apps.maps.world import places_for
from bmoca.sim.system.intent import Intent
from bmoca.sim.ui.view import MATCH, View, column, frame

PACKAGE = "com.google.android.apps.maps"
MAPS = "com.google.android.maps.MapsActivity"
RESULTS_SHEET_SHARE = 0.42
"""Share of the phone's height the results sheet takes (its half-expanded state)."""


def _map(ctx: Context, *overlays: View | None) -> View:
    """The map view: not mirrored in right-to-left languages (north stays up, east right)."""
    return frame(*overlays, cls="android.view.View", id=mid("mainmap_container"),
                 desc=ctx.t("maps.map"), width=MATCH, height=MATCH, draw=draw_map,
                 mirror=False)


class MapsActivity(Activity):
    def __init__(self, intent: Intent):
        super().__init__(intent)
        self.query: str | None = None
        """The search field's text while the search page or results show, else None."""
        self.searched = False
        """Whether the results of `query` show (else the search page)."""
        self.history: tuple[str, ...] = ()
        """The searches made, newest first."""

    def _open(self, ctx: Context, shown: str = "") -> None:
        """The search page, typing `shown` (the keyboard up)."""
        self.query, self.searched = shown, False
        if ctx.record is not None:
            ctx.record.focus = mid("search_omnibox_edit_text")

    def _submit(self, ctx: Context, query: str) -> None:
        query = query.strip()
        if not query:
            return
        self.query, self.searched = query, True
        self.history = (query, *[h for h in self.history if h.lower() != query.lower()])
        if ctx.record is not None:
            ctx.record.focus = None

    def _close(self, ctx: Context) -> None:
        self.query, self.searched = None, False
        if ctx.record is not None:
            ctx.record.focus = None

    def on_back(self, ctx: Context) -> bool:
        if self.searched:  # results -> the search page, keyboard down
            self.searched = False
            return True
        if self.query is not None:
            self._close(ctx)
            return True
        return False

    def _typing(self, ctx: Context) -> bool:
        return ctx.record is not None and ctx.record.focus == mid("search_omnibox_edit_text")

    def _field(self, ctx: Context) -> View:
        def on_text(value: str) -> None:
            self.query, self.searched = value, False

        return search_field(ctx, self.query or "", self._typing(ctx),
                            lambda: self._close(ctx), on_text,
                            lambda: self._submit(ctx, self.query or ""),
                            lambda: self._open(ctx, self.query or ""))

    def build(self, ctx: Context) -> View:
        tablet = ctx.system.sw600dp
        surface = palette(ctx)[0]
        if self.query is None:
            body = frame(_map(ctx), explore_chrome(ctx, lambda: self._open(ctx),
                                                   lambda label: self._submit(ctx, label)),
                         width=MATCH, height=0, weight=1)
            return column(body, bottom_nav(ctx), width=MATCH, height=MATCH)
        if not self.searched:
            page = column(self._field(ctx),
                          frame(suggestion_list(ctx, self.query, self.history,
                                                lambda shown: self._submit(ctx, shown)),
                                width=MATCH, height=0, weight=1),
                          width=PANEL_DP if tablet else MATCH, height=MATCH, bg=surface,
                          elevation=4 if tablet else 0, gravity="start|top")
            if not tablet:
                return page
            return frame(_map(ctx), page, width=MATCH, height=MATCH)
        found = places_for(self.query)
        sheet = results_list(ctx, self.query, found)
        if tablet:  # the side panel at the start edge over the map
            panel = column(self._field(ctx), frame(sheet, width=MATCH, height=0, weight=1),
                           width=PANEL_DP, height=MATCH, bg=surface, elevation=4,
                           gravity="start|top")
            return frame(_map(ctx, *result_pins(ctx, found)), panel, width=MATCH,
                         height=MATCH)
        height = ctx.system.screen_dp()[1] * RESULTS_SHEET_SHARE
        return column(self._field(ctx),
                      frame(_map(ctx, *result_pins(ctx, found)),
                            frame(sheet, width=MATCH, height=height, gravity="start|bottom",
                                  cls=""),
                            width=MATCH, height=0, weight=1),
                      width=MATCH, height=MATCH)


class MapsApp(App):
    package = PACKAGE
    label_key = f"app.{PACKAGE}"
    uid = 10115
    activities = {MAPS: MapsActivity}

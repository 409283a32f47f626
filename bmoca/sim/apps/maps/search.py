"""Maps' search page and results (2020-21).

A tap on "Search here" opens a page of its own (real Maps does not leave the map under the
keyboard): a white bar with the back arrow, the `search_omnibox_edit_text` field (focused,
the keyboard up) and the microphone, and under it a list. With nothing typed: Home and Work
("Set location"), the searches made before (a clock icon each, newest first) and the
category shortcuts. While typing: the searches, categories and places that hold the text
(pin icons for places, with their address). A row, or the keyboard's search key, searches:
the map comes back with a red pin on each place found and a sheet listing them (a side
panel on a tablet); the field above keeps the search's text, and a tap on it goes back to
typing. BACK from the results returns to the search page with the keyboard down; BACK
there returns to the map.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bmoca.sim.apps.base import Context
from bmoca.sim.apps.contacts.ui import icon_button
from bmoca.sim.apps.longpress import focus_field
from bmoca.sim.apps.maps.explore import BLUE, mid, palette
from bmoca.sim.apps.maps.mapdraw import ZOOM
from bmoca.sim.apps.maps.world import CATEGORIES, PLACES, Place, category
from bmoca.sim.ui.view import MATCH, View, column, frame, icon, row, scroller, text

MAX_ROWS = 10


@dataclass(frozen=True)
class Suggestion:
    title: str
    glyph: str
    detail: str = ""
    search: str = ""
    """What a tap searches for (the title when empty)."""


def suggestions(ctx: Context, query: str, history: tuple[str, ...]) -> list[Suggestion]:
    """The rows under the field for the typed `query`."""
    typed = query.strip().lower()
    cats = [(ctx.t(f"maps.chip.{c.key}"), c.icon) for c in CATEGORIES]
    if not typed:
        rows = [Suggestion(ctx.t("maps.home"), "home", ctx.t("maps.set_location")),
                Suggestion(ctx.t("maps.work"), "work", ctx.t("maps.set_location"))]
        rows += [Suggestion(h, "history") for h in history]
        return (rows + [Suggestion(name, glyph) for name, glyph in cats])[:MAX_ROWS]
    rows = [Suggestion(h, "history") for h in history if typed in h.lower()]
    rows += [Suggestion(name, glyph) for name, glyph in cats if typed in name.lower()]
    rows += [Suggestion(p.name, "location_on", p.address) for p in PLACES
             if typed in p.name.lower()]
    return rows[:MAX_ROWS]


def suggestion_list(ctx: Context, query: str, history: tuple[str, ...],
                    on_pick: Callable[[str], None]) -> View:
    surface, fg, dim, _ = palette(ctx)

    def line(s: Suggestion) -> View:
        shown = s.search or s.title
        glyph = frame(icon(s.glyph, 20, icon_color=dim, cls="", gravity="center"),
                      width=36, height=36, corner=18,
                      bg=(60, 64, 67) if ctx.theme.dark else (241, 243, 244), cls="",
                      margin=(16, 0, 16, 0), gravity="center_vertical")
        words = column(text(s.title, text_size=16, text_color=fg, id=mid("suggestion_title"),
                            width=MATCH),
                       text(s.detail, text_size=14, text_color=dim, width=MATCH,
                            id=mid("suggestion_subtitle")) if s.detail else None,
                       width=0, weight=1, gravity="center_vertical", cls="")
        is_place = s.glyph not in ("home", "work")
        return row(glyph, words, height=64 if s.detail else 56,
                   clickable=is_place, on_click=(lambda: on_pick(shown)) if is_place else None,
                   gravity="center_vertical", id=mid("suggestion"),
                   cls="android.widget.LinearLayout", padding=(0, 0, 16, 0))

    return scroller(*[line(s) for s in suggestions(ctx, query, history)],
                    key="suggestions", cls="androidx.recyclerview.widget.RecyclerView",
                    id=mid("search_suggestions"), width=MATCH, height=MATCH, bg=surface)


def search_field(ctx: Context, query: str, focused: bool, on_back: Callable[[], None],
                 on_text: Callable[[str], None], on_submit: Callable[[], None],
                 on_tap: Callable[[], None] | None) -> View:
    """The page's bar: ←, the field, the microphone."""
    surface, fg, dim, line = palette(ctx)
    field = View(cls="android.widget.EditText", id=mid("search_omnibox_edit_text"),
                 text=query, hint=ctx.t("maps.search_here"), text_size=16, text_color=fg,
                 width=0, weight=1, height=48, clickable=True, focusable=True,
                 long_clickable=True, on_text=on_text, on_click=on_tap,
                 on_long_click=focus_field(ctx, mid("search_omnibox_edit_text")),
                 on_submit=on_submit, ime_action="search", gravity="center_vertical")
    return column(row(icon_button(ctx, "arrow_back", ctx.t("maps.navigate_up"), on_back, dim),
                      field,
                      frame(icon("mic", 24, icon_color=BLUE, cls="", gravity="center"),
                            cls="android.widget.ImageView", width=48, height=48,
                            desc=ctx.t("maps.voice_search"), gravity="center_vertical"),
                      height=56, gravity="center_vertical", padding=(4, 0, 4, 0)),
                  frame(width=MATCH, height=1, bg=line, cls=""),
                  width=MATCH, bg=surface, elevation=0 if focused else 2,
                  id=mid("search_omnibox_layout"))


def _pin(ctx: Context, place: Place) -> View | None:
    """A red result pin at the place's spot, positioned from the map's centre (the dot).

    A frame twice the pin's offset in size, centred on the map, holds the pin in the
    corner towards it; places too far out for the smallest screens get no pin."""
    dx, dy = place.at[0] * ZOOM, place.at[1] * ZOOM
    if abs(dx) > 140 or abs(dy) > 200:
        return None
    size = 32.0
    east = dx >= 0
    if ctx.rtl:  # frame gravity is relative; the map is not mirrored
        east = not east
    below = dy >= 0
    return frame(icon("location_on", size, icon_color=(234, 67, 53), icon_filled=True,
                      id=mid("result_pin"), desc=place.name,
                      margin=(0, 0, 0, size if below else 0),
                      gravity=("end" if east else "start") + "|" + ("bottom" if below else "top")),
                 width=2 * abs(dx) + size, height=2 * abs(dy) + 2 * size, gravity="center",
                 cls="")


def result_pins(ctx: Context, found: list[Place]) -> list[View]:
    return [p for p in (_pin(ctx, place) for place in found) if p is not None]


def results_list(ctx: Context, query: str, found: list[Place]) -> View:
    """The sheet (a side panel on a tablet) listing what the search found."""
    surface, fg, dim, line = palette(ctx)

    def card(place: Place) -> View:
        cat = category(place.category)
        kind = ctx.t(f"maps.chip.{cat.key}") if cat else ""
        return column(text(place.name, text_size=18, font_weight=500, text_color=fg,
                           id=mid("result_title"), width=MATCH),
                      text(" · ".join(x for x in (kind, place.address) if x), text_size=14,
                           text_color=dim, width=MATCH, id=mid("result_subtitle")),
                      padding=(16, 12, 16, 12), width=MATCH, clickable=True,
                      id=mid("result_item"), cls="android.widget.LinearLayout")

    body = [card(p) for p in found] or [
        text(ctx.t("maps.no_results", query=query), text_size=16, text_color=dim,
             margin=(16, 16, 16, 16), width=MATCH, max_lines=3, id=mid("no_results"))]
    tablet = ctx.system.sw600dp
    handle = None if tablet else frame(width=32, height=4, corner=2, bg=line, cls="",
                                       gravity="center_horizontal", margin=(0, 8, 0, 4))
    return column(handle, scroller(*body, key="results", id=mid("results_list"),
                                   width=MATCH, height=0, weight=1,
                                   cls="androidx.recyclerview.widget.RecyclerView"),
                  width=MATCH, height=MATCH, bg=surface, elevation=4,
                  id=mid("results_sheet"), cls="android.widget.FrameLayout")


"""Maps' Explore screen (the 2020 redesign, Maps 10.x on Android 10): the chrome over the map.

From the top: the floating search bar (the Maps pin, "Search here", the microphone and the
account avatar), a horizontally scrolling row of category chips (Restaurants, Gas,
Groceries, Coffee, Takeout, Hotels, Pharmacies; each with its kind's icon), the layers
button under them at the end edge; at the bottom end the "my location" button over the blue
directions button; the "Latest in Mountain View" sheet peeking above the bottom navigation,
whose five tabs are the February 2020 ones: Explore, Commute, Saved, Contribute, Updates.
Only Explore is simulated; the other tabs are drawn and take no taps.

On a tablet (sw600dp) the search bar is a 400 dp card at the start edge and the chips run
beside it, as Maps' large-screen layout puts its panel at the start over the map. The
chrome mirrors in right-to-left languages; the map does not.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from PIL import Image

from bmoca.sim.apps.base import Context
from bmoca.sim.apps.maps.world import AREA, CATEGORIES
from bmoca.sim.render.icons import icon_mask
from bmoca.sim.ui.view import MATCH, WRAP, View, column, frame, icon, row, scroller, text

PACKAGE = "com.google.android.apps.maps"
BLUE = (26, 115, 232)
PANEL_DP = 400.0
"""The tablet's start-edge panel (and search card) width."""
TABS = (("explore", "explore", "explore_button"), ("commute", "commute", "commute_tab"),
        ("saved", "bookmark", "saved_tab"), ("contribute", "add_circle", "contribute_tab"),
        ("updates", "notifications", "updates_tab"))
"""(string key, icon, resource name) of the bottom navigation's tabs, start to end; Explore
keeps the `explore_button` id the tasks' near misses tap."""


def mid(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


def palette(ctx: Context) -> tuple[tuple[int, int, int], ...]:
    """(surface, text, secondary text, divider) of Maps' day or night chrome."""
    if ctx.theme.dark:
        return (48, 49, 52), (232, 234, 237), (154, 160, 166), (60, 64, 67)
    return (255, 255, 255), (32, 33, 36), (95, 99, 104), (218, 220, 224)


LOGO_COLORS = ((234, 67, 53), (66, 133, 244), (251, 188, 4), (52, 168, 83))
"""The 2020 pin logo's red (top), blue (end), yellow (start) and green (foot)."""


@lru_cache(maxsize=8)
def _logo(size: int) -> Image.Image:
    """The four-colour Maps pin: a filled pin glyph tinted by quadrant (8 entries of at
    most 100 x 100 RGBA: 320 kB)."""
    mask = icon_mask("location_on", size, True)
    out = Image.new("RGBA", mask.size, (0, 0, 0, 0))
    w, h = mask.size
    boxes = ((0, 0, w, h // 2), (w // 2, h // 3, w, h), (0, h // 3, w // 2, h),
             (0, h * 2 // 3, w, h))
    for color, box in zip(LOGO_COLORS, boxes, strict=True):
        tile = Image.new("RGBA", mask.size, (*color, 255))
        tile.putalpha(mask)
        out.paste(tile.crop(box), box[:2], mask.crop(box))
    return out


def draw_logo(canvas, view: View) -> None:
    left, top, right, bottom = view.bounds
    size = min(right - left, bottom - top)
    if size > 0:
        canvas.paste(_logo(size), left + (right - left - size) // 2,
                     top + (bottom - top - size) // 2, view.clip)


def search_bar(ctx: Context, on_open: Callable[[], None]) -> View:
    """The floating "Search here" card."""
    surface, _, dim, _ = palette(ctx)
    t = ctx.t
    return row(View(cls="", width=24, height=24, draw=draw_logo, margin=(12, 0, 12, 0),
                    gravity="center_vertical"),
               text(t("maps.search_here"), text_size=16, text_color=dim, width=0, weight=1,
                    id=mid("search_omnibox_text_box"), gravity="start|center_vertical"),
               frame(icon("mic", 24, icon_color=BLUE, cls="", gravity="center"),
                     cls="android.widget.ImageView", width=40, height=48,
                     desc=t("maps.voice_search"), gravity="center_vertical"),
               frame(frame(text("A", text_size=14, font_weight=500, text_color=(255, 255, 255),
                                cls="", gravity="center"),
                           width=30, height=30, corner=15, bg=(123, 31, 162), cls="",
                           gravity="center"),
                     cls="android.widget.ImageView", width=44, height=48,
                     desc=t("maps.account"), gravity="center_vertical",
                     margin=(0, 0, 4, 0)),
               cls="android.widget.LinearLayout", id=mid("search_omnibox_container"),
               width=PANEL_DP if ctx.system.sw600dp else MATCH, height=48, corner=24,
               bg=surface, elevation=3, clickable=True, on_click=on_open,
               gravity="center_vertical")


def chips(ctx: Context, on_chip: Callable[[str], None]) -> View:
    """The category chips, a horizontal scroller."""
    surface, fg, _, _ = palette(ctx)

    def chip(key: str, glyph: str, color) -> View:
        label = ctx.t(f"maps.chip.{key}")
        return row(icon(glyph, 18, icon_color=color, cls="", gravity="center_vertical"),
                   text(label, text_size=14, font_weight=500, text_color=fg,
                        margin=(8, 0, 0, 0), gravity="center_vertical", cls=""),
                   cls="android.widget.Button", id=mid("category_chip"), desc=label,
                   width=WRAP, height=32, corner=16, bg=surface, elevation=2,
                   padding=(12, 0, 14, 0), margin=(4, 0, 4, 0), clickable=True,
                   on_click=lambda: on_chip(label), gravity="center_vertical")

    return scroller(*[chip(c.key, c.icon, c.color) for c in CATEGORIES], key="chips",
                    horizontal=True, id=mid("category_chips"), width=MATCH, height=44,
                    padding=(12, 6, 12, 6))


def round_button(ctx: Context, glyph: str, desc: str, name: str, size: float,
                 on_click: Callable[[], None] | None = None, blue: bool = False) -> View:
    surface, _, dim, _ = palette(ctx)
    return frame(icon(glyph, 24, icon_color=(255, 255, 255) if blue else
                      (BLUE if glyph == "my_location" else dim),
                      icon_filled=blue, cls="", gravity="center"),
                 cls="android.widget.ImageButton", id=mid(name), desc=desc, width=size,
                 height=size, corner=size / 2, bg=BLUE if blue else surface,
                 elevation=6 if size >= 56 else 3, clickable=True, on_click=on_click)


def _peek(ctx: Context) -> View:
    """The Explore sheet's peeking edge: a handle and "Latest in Mountain View"."""
    surface, fg, _, line = palette(ctx)
    return column(frame(width=32, height=4, corner=2, bg=line, cls="",
                        gravity="center_horizontal", margin=(0, 8, 0, 0)),
                  text(ctx.t("maps.latest", area=AREA), text_size=16, font_weight=500,
                       text_color=fg, gravity="center_horizontal", margin=(16, 6, 16, 8),
                       id=mid("explore_sheet_title")),
                  width=PANEL_DP if ctx.system.sw600dp else MATCH, height=WRAP, bg=surface,
                  elevation=4, gravity="start|bottom", id=mid("explore_sheet"),
                  cls="android.widget.FrameLayout")


def bottom_nav(ctx: Context) -> View:
    """Five tabs, Explore selected (blue)."""
    surface, fg, dim, line = palette(ctx)

    def tab(key: str, glyph: str, name: str) -> View:
        label = ctx.t(f"maps.{key}")
        on = key == "explore"
        color = BLUE if on else dim
        return column(icon(glyph, 24, icon_color=color, icon_filled=on, cls="",
                           gravity="center_horizontal", margin=(0, 6, 0, 0)),
                      text(label, text_size=12, text_color=color, align="center",
                           gravity="center_horizontal", id=mid("tab_label")),
                      cls="android.widget.Button", id=mid(name), desc=label, width=0,
                      weight=1, height=56, selected=on, clickable=on)

    return column(frame(width=MATCH, height=1, bg=line, cls=""),
                  row(*[tab(*t) for t in TABS], height=56),
                  width=MATCH, bg=surface, id=mid("bottom_navigation"))


def explore_chrome(ctx: Context, on_open: Callable[[], None],
                   on_chip: Callable[[str], None]) -> View:
    """What floats over the map on the Explore tab (the map itself is the caller's)."""
    t = ctx.t
    if ctx.system.sw600dp:  # the search card at the start edge, the chips beside it
        top = row(search_bar(ctx, on_open), frame(chips(ctx, on_chip), width=0, weight=1,
                                                  cls="", gravity="center_vertical"),
                  height=WRAP, margin=(16, 12, 16, 0), gravity="start|top")
        layers_top = 76
    else:
        top = column(frame(search_bar(ctx, on_open), width=MATCH, margin=(16, 12, 16, 0),
                           cls=""),
                     frame(chips(ctx, on_chip), width=MATCH, margin=(4, 6, 4, 0), cls=""),
                     width=MATCH, height=WRAP, cls="")
        layers_top = 12 + 48 + 6 + 44 + 10
    fabs = column(round_button(ctx, "my_location", t("maps.my_location"),
                               "mylocation_button", 48),
                  frame(height=16, width=8, cls=""),
                  round_button(ctx, "directions", t("maps.directions"),
                               "directions_button", 56, blue=True),
                  width=WRAP, height=WRAP, gravity="end|bottom", margin=(0, 0, 16, 72),
                  cls="", spacing=0)
    layers = frame(round_button(ctx, "layers", t("maps.layers"), "layers_button", 40),
                   width=WRAP, height=WRAP, gravity="end|top", margin=(0, layers_top, 16, 0),
                   cls="")
    return frame(top, layers, fabs, _peek(ctx), width=MATCH, height=MATCH, cls="")

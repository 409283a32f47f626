"""Drawing Maps' map: a vector street map of `world`, in Maps' day or night style.

Real Maps draws its vector tiles with OpenGL into one SurfaceView, so uiautomator sees the
map as one view (`mainmap_container`) whatever it shows: street names and place names are
pixels, not nodes. Here the map is drawn with PIL into one image per (size, density, theme)
and pasted by the view's painter; the drawing takes tens of milliseconds, the paste well
under one, so `MAP_CACHE_BYTES` keeps the drawn maps and every later frame reuses them.

Colours: the day style's beige land, white streets with a pale casing, yellow freeways,
green parks and #AADAFF water; the night style's is Google's published "night" map style
(#242F3E land, #38414E streets, #746855 freeways, #17263C water, #263C3F parks).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

from bmoca.bytecache import ByteLRU
from bmoca.sim.apps.maps.world import (
    CATEGORIES,
    CREEK,
    LAKE,
    LANDMARK,
    PARK,
    PARKS,
    PLACES,
    STREETS,
    Place,
    Street,
)
from bmoca.sim.render.icons import icon_on_circle
from bmoca.sim.render.text import load_font

if TYPE_CHECKING:
    from bmoca.sim.render.painter import Canvas
    from bmoca.sim.ui.view import View

MAP_CACHE_BYTES = 64 << 20
"""Drawn maps kept, in pixel bytes (64 MiB): an RGB map of the largest phone in the
configurations (1440 x 3120 px) is 13.5 MB, the tablet's 2.9 MB, so four of the largest
and any number of the usual ones fit; older sizes are dropped first."""


@dataclass(frozen=True)
class Style:
    land: tuple[int, int, int]
    water: tuple[int, int, int]
    park: tuple[int, int, int]
    street: tuple[int, int, int]
    casing: tuple[int, int, int]
    highway: tuple[int, int, int]
    highway_casing: tuple[int, int, int]
    label: tuple[int, int, int]
    halo: tuple[int, int, int]
    water_label: tuple[int, int, int]
    dot: tuple[int, int, int] = (66, 133, 244)


DAY = Style(land=(248, 244, 236), water=(170, 218, 255), park=(200, 230, 185),
            street=(255, 255, 255), casing=(226, 220, 208), highway=(253, 226, 147),
            highway_casing=(240, 192, 90), label=(96, 99, 104), halo=(255, 255, 255),
            water_label=(70, 130, 190))
NIGHT = Style(land=(36, 47, 62), water=(23, 38, 60), park=(38, 60, 63),
              street=(56, 65, 78), casing=(33, 42, 55), highway=(116, 104, 85),
              highway_casing=(31, 40, 53), label=(156, 165, 179), halo=(23, 31, 44),
              water_label=(81, 93, 109))

ZOOM = 0.6
"""dp per map unit of `world`: about zoom level 16, where Maps opens on the dot."""
WIDTHS = {"minor": 3.5, "local": 5.0, "arterial": 8.0, "highway": 11.0}
"""Street widths in dp (the casing adds 1.5 dp a side)."""
STREET_LABEL_SP = 11.0
PLACE_LABEL_SP = 12.0
PIN_DP = 22.0


class _Plot:
    """World dp to image pixels, with the label boxes placed so far (none overlap)."""

    def __init__(self, image: Image.Image, scale: float):
        self.image = image
        self.scale = scale
        self.cx, self.cy = image.width / 2, image.height / 2
        self.unit = scale * ZOOM
        self.taken: list[tuple[float, float, float, float]] = []

    def xy(self, p: tuple[float, float]) -> tuple[float, float]:
        return self.cx + p[0] * self.unit, self.cy + p[1] * self.unit

    def free(self, box: tuple[float, float, float, float]) -> bool:
        """Claims `box` if it is on the image and overlaps no label placed before."""
        if box[0] < 0 or box[1] < 0 or box[2] > self.image.width or box[3] > self.image.height:
            return False
        for o in self.taken:
            if box[0] < o[2] and o[0] < box[2] and box[1] < o[3] and o[1] < box[3]:
                return False
        self.taken.append(box)
        return True


def _label_sprite(text: str, size_px: int, color, halo, weight: int = 400) -> Image.Image:
    """`text` with a 2 px halo, as Maps outlines its labels, on a transparent tile."""
    font = load_font("roboto", size_px, weight)
    left, top, right, bottom = font.getbbox(text, stroke_width=2)
    tile = Image.new("RGBA", (right - left + 2, bottom - top + 2), (0, 0, 0, 0))
    ImageDraw.Draw(tile).text((1 - left, 1 - top), text, font=font, fill=color,
                              stroke_width=2, stroke_fill=halo)
    return tile


def _segments(street: Street):
    return zip(street.path, street.path[1:], strict=False)


def _street_labels(plot: _Plot, style: Style, streets: tuple[Street, ...]) -> None:
    """Each street's name along its longest straight run, repeated every ~300 dp where it
    fits, turned to the street's direction and never upside down."""
    for n, street in enumerate(streets):
        shift = (n * 137) % 300  # staggered, so parallel streets' names do not line up
        sp = STREET_LABEL_SP - (1 if street.kind == "minor" else 0)
        tile = _label_sprite(street.name, max(8, round(sp * plot.scale)), style.label,
                             style.halo, 400 if street.kind == "minor" else 500)
        for a, b in _segments(street):
            (x1, y1), (x2, y2) = plot.xy(a), plot.xy(b)
            length = math.hypot(x2 - x1, y2 - y1)
            angle = math.degrees(math.atan2(y2 - y1, x2 - x1))
            if angle > 90 or angle <= -90:
                angle += 180
            turned = tile.rotate(-angle, expand=True, resample=Image.BICUBIC)
            step = 420 * plot.unit
            for k in range(1, int(length // step) + 1):
                t = (k * step - step / 2 + shift * plot.unit) / length
                if t >= 1:
                    break
                mx, my = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
                box = (mx - turned.width / 2, my - turned.height / 2,
                       mx + turned.width / 2, my + turned.height / 2)
                if plot.free(box):
                    plot.image.paste(turned, (round(box[0]), round(box[1])), turned)


def _place_color(place: Place) -> tuple[int, int, int]:
    if place.category == "park":
        return PARK
    for c in CATEGORIES:
        if c.key == place.category:
            return c.color
    return LANDMARK


def _place_glyph(place: Place) -> str:
    if place.category == "park":
        return "park"
    for c in CATEGORIES:
        if c.key == place.category:
            return c.icon
    return "apartment"


def _places(plot: _Plot, style: Style) -> None:
    """Each place as Maps marks points of interest: a small disc of its kind's colour with
    a white glyph, its name beside it in the same colour (below it where the side is taken)."""
    pin = max(8, round(PIN_DP * plot.scale))
    size = max(8, round(PLACE_LABEL_SP * plot.scale))
    for place in PLACES:
        color = _place_color(place)
        x, y = plot.xy(place.at)
        box = (x - pin / 2, y - pin / 2, x + pin / 2, y + pin / 2)
        if not plot.free(box):
            continue
        disc = icon_on_circle(_place_glyph(place), color, pin, max(6, round(pin * 0.64)))
        plot.image.paste(disc, (round(box[0]), round(box[1])), disc)
        shade = color if style is DAY else tuple(min(255, c + 40) for c in color)
        tile = _label_sprite(place.name, size, shade, style.halo, 500)
        gap = 3 * plot.scale
        beside = (box[2] + gap, y - tile.height / 2, box[2] + gap + tile.width, y + tile.height / 2)
        below = (x - tile.width / 2, box[3] + gap, x + tile.width / 2, box[3] + gap + tile.height)
        for spot in (beside, below):
            if plot.free(spot):
                plot.image.paste(tile, (round(spot[0]), round(spot[1])), tile)
                break


def _my_location(plot: _Plot, style: Style) -> None:
    """The blue dot: a translucent accuracy circle, a white ring, the dot."""
    draw = ImageDraw.Draw(plot.image, "RGBA")
    x, y = plot.xy((0, 0))
    for radius, fill in ((36, (*style.dot, 40)), (10, (255, 255, 255, 255)),
                         (7.5, (*style.dot, 255))):
        r = radius * plot.scale
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill)


def _draw(width: int, height: int, scale: float, dark: bool) -> Image.Image:
    style = NIGHT if dark else DAY
    image = Image.new("RGB", (max(1, width), max(1, height)), style.land)
    plot = _Plot(image, scale)
    draw = ImageDraw.Draw(image)
    draw.polygon([plot.xy(p) for p in LAKE], fill=style.water)
    for left, top, right, bottom in PARKS:
        draw.rectangle((*plot.xy((left, top)), *plot.xy((right, bottom))), fill=style.park)
    draw.line([plot.xy(p) for p in CREEK], fill=style.water, width=max(1, round(9 * scale)),
              joint="curve")
    order = sorted(STREETS, key=lambda s: list(WIDTHS).index(s.kind))
    for street in order:  # casings first, so crossings join cleanly
        casing = style.highway_casing if street.kind == "highway" else style.casing
        draw.line([plot.xy(p) for p in street.path], fill=casing,
                  width=max(1, round((WIDTHS[street.kind] + 3) * scale)), joint="curve")
    for street in order:
        fill = style.highway if street.kind == "highway" else style.street
        draw.line([plot.xy(p) for p in street.path], fill=fill,
                  width=max(1, round(WIDTHS[street.kind] * scale)), joint="curve")
    _places(plot, style)
    water = _label_sprite("Shoreline Lake", max(8, round(13 * scale)), style.water_label,
                          style.water, 400)
    lx, ly = plot.xy((250, -760))
    if plot.free((lx, ly, lx + water.width, ly + water.height)):
        image.paste(water, (round(lx), round(ly)), water)
    _street_labels(plot, style, tuple(reversed(order)))  # the widest named first
    _my_location(plot, style)
    return image


_maps = ByteLRU(_draw, MAP_CACHE_BYTES)


def map_image(width: int, height: int, scale: float, dark: bool) -> Image.Image:
    """The map `width` x `height` px at `scale` px per dp, drawn once and then shared (treat
    it as read-only)."""
    return _maps(int(width), int(height), round(float(scale), 4), bool(dark))


def draw_map(canvas: Canvas, view: View) -> None:
    """The map view's painter: the cached map of the view's size, centred on the dot."""
    left, top, right, bottom = view.bounds
    if right > left and bottom > top:
        canvas.paste(map_image(right - left, bottom - top, canvas.scale, canvas.theme.dark),
                     left, top, view.clip)


def cache_bytes() -> int:
    """Pixel bytes the drawn maps hold now (at most `MAP_CACHE_BYTES`)."""
    return _maps.nbytes

"""Material Symbols glyphs as tinted RGBA sprites.

Why a font: Android 10's system icons are Material vector drawables; the Material Symbols
variable font (Apache-2.0, shipped in the `qtmaterialsymbols` wheel) has the same shapes with
FILL and weight axes, and rasterizes in microseconds. Only the package's data files are read:
importing `qtmaterialsymbols` itself would import Qt, so the package is located with
`importlib.util.find_spec`, which does not execute it.
"""

from __future__ import annotations

import importlib.util
import json
import threading
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from bmoca.bytecache import ByteLRU, byte_lru
from bmoca.sim.render.text import Color, colorize, to_rgba

ICON_CACHE_BYTES = 16 << 20
"""Coloured icon sprites kept, in bytes."""
CIRCLE_ICON_CACHE_BYTES = 8 << 20
"""Icons on circles kept, in bytes (their size is the caller's)."""
ICON_FONT_CACHE_SIZE = 4
"""Icon font faces kept open: about 1 MB each (the variable font's tables, per size and
style), while opening one again costs under 1 ms and only icons the cache lacks need one."""
OPTICAL_SIZE = 24  # Android's standard 24dp icon grid
_FONT_FILE = "MaterialSymbolsOutlined.ttf"
_NAMES_FILE = "MaterialSymbolsOutlined.json"
_lock = threading.Lock()


@lru_cache(maxsize=1)
def _resource_dir() -> Path:
    spec = importlib.util.find_spec("qtmaterialsymbols")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(
            "Material Symbols font not found: install the `qtmaterialsymbols` package "
            "(only its font and JSON files are used; Qt is not needed)"
        )
    return Path(next(iter(spec.submodule_search_locations))) / "resources"


def font_path() -> Path:
    """Path of the Material Symbols Outlined variable font (FILL, GRAD, opsz, wght axes)."""
    return _resource_dir() / _FONT_FILE


@lru_cache(maxsize=1)
def codepoints() -> dict[str, int]:
    """Icon name (e.g. "settings") → code point in the font."""
    with open(_resource_dir() / _NAMES_FILE, encoding="utf-8") as fh:
        return {str(k): int(v) for k, v in json.load(fh).items()}


def has_icon(name: str) -> bool:
    return name in codepoints()


def codepoint(name: str) -> int:
    """Code point of an icon; KeyError names the unknown icon."""
    try:
        return codepoints()[name]
    except KeyError:
        raise KeyError(f"unknown Material Symbols icon {name!r}") from None


@lru_cache(maxsize=ICON_FONT_CACHE_SIZE)
def icon_font(size_px: int, filled: bool = False, weight: int = 400) -> ImageFont.FreeTypeFont:
    """The icon font at a size with FILL/wght set; its em square is the icon's box."""
    font = ImageFont.truetype(str(font_path()), size_px)
    values = []
    for axis in font.get_variation_axes():
        name = axis["name"].decode() if isinstance(axis["name"], bytes) else str(axis["name"])
        lname = name.lower()
        if lname in ("fill",):
            val = 1 if filled else 0
        elif lname in ("weight", "wght"):
            val = weight
        elif lname in ("optical size", "opsz"):
            val = OPTICAL_SIZE
        else:
            val = axis["default"]
        values.append(max(axis["minimum"], min(axis["maximum"], val)))
    font.set_variation_by_axes(values)
    return font


def icon_mask(name: str, size_px: int, filled: bool = False, weight: int = 400) -> Image.Image:
    """8-bit coverage of an icon in a size_px square (for callers that composite themselves)."""
    cp = codepoint(name)
    mask = Image.new("L", (size_px, size_px), 0)
    font = icon_font(size_px, filled, weight)
    with _lock:
        # The glyph's em box spans [baseline - size, baseline] and [0, advance = size].
        ImageDraw.Draw(mask).text((0, size_px), chr(cp), font=font, fill=255, anchor="ls")
    return mask


def _icon_uncached(
    name: str, size_px: int, rgba: tuple[int, int, int, int], filled: bool, weight: int
) -> Image.Image:
    return colorize(icon_mask(name, size_px, filled, weight), rgba)


_icon = ByteLRU(_icon_uncached, ICON_CACHE_BYTES)


def icon(
    name: str, size_px: int, color: Color, filled: bool = False, weight: int = 400
) -> Image.Image:
    """A Material Symbols icon centred in a size_px RGBA square, cached.

    The image is shared through the cache: treat it as read-only.
    """
    if size_px < 1:
        raise ValueError(f"size_px must be >= 1, got {size_px}")
    codepoint(name)  # KeyError before touching the cache
    return _icon(name, int(size_px), to_rgba(color), bool(filled), int(weight))


@byte_lru(CIRCLE_ICON_CACHE_BYTES)
def icon_on_circle(name: str, color: tuple[int, int, int], size_px: int, glyph_px: int
                   ) -> Image.Image:
    """A white glyph centred on an anti-aliased circle of `color` (Settings' homepage icons),
    drawn at 4x and downscaled once, then reused every frame."""
    big = max(4, size_px) * 4
    disc = Image.new("L", (big, big), 0)
    ImageDraw.Draw(disc).ellipse((0, 0, big - 1, big - 1), fill=255)
    sprite = Image.new("RGBA", (size_px, size_px), (*color, 0))
    sprite.putalpha(disc.resize((size_px, size_px), Image.LANCZOS))
    if name:
        glyph = icon(name, glyph_px, (255, 255, 255), filled=True)
        off = (size_px - glyph.width) // 2
        sprite.alpha_composite(glyph, (off, off))
    return sprite

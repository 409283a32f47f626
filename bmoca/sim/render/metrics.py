"""Vertical text metrics as Android 10's TextView computes them: Paint.getFontMetricsInt
of the paint's font (Roboto, whatever the script), the extents of fallback fonts a line
uses, and how StaticLayout stacks lines with and without font padding.

Why: a row's height is its text's height plus its padding, so every list and every tap
target sits where these numbers put it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from bmoca.sim.render.fonts import font_face

ROBOTO_EM = (-2163 / 2048, -1900 / 2048, 500 / 2048, 555 / 2048)
"""Android 10's Roboto (the paint's font, whatever the script): top and bottom from its
head yMin/yMax (Skia's fTop/fBottom), ascent and descent from its hhea table, in em."""


@dataclass(frozen=True)
class FontMetricsInt:
    """Paint.getFontMetricsInt: top and ascent are negative (above the baseline), px."""

    top: int
    ascent: int
    descent: int
    bottom: int


@lru_cache(maxsize=4096)  # a size to 4 ints: ~300 bytes an entry, < 1.5 MB
def paint_metrics(size_px: int) -> FontMetricsInt:
    """Roboto's metrics at a size, rounded as Android's Paint.getFontMetricsInt rounds them
    (floor the top, round the ascent and descent, ceil the bottom)."""
    top, ascent, descent, bottom = (v * size_px for v in ROBOTO_EM)
    return FontMetricsInt(math.floor(top), math.floor(ascent + 0.5), math.floor(descent + 0.5),
                          math.ceil(bottom))


@lru_cache(maxsize=4096)  # (faces, size) to 2 ints, faces shared: < 2 MB
def line_extent(faces: frozenset[str], size_px: int) -> tuple[int, int]:
    """(ascent, descent) of a line drawn in `faces`: Roboto's, stretched to every fallback
    face's own extent (StaticLayout with fallbackLineSpacing, Android 9+)."""
    metrics = paint_metrics(size_px)
    ascent, descent = metrics.ascent, metrics.descent
    for key in faces:
        face = font_face(key)
        if face.extent_em is not None:
            em = size_px * face.scale
            ascent = min(ascent, math.floor(-face.extent_em[0] * em + 0.5))
            descent = max(descent, math.floor(face.extent_em[1] * em + 0.5))
    return ascent, descent


def stack_lines(extents: list[tuple[int, int]], size_px: int, include_pad: bool = True
                ) -> tuple[list[int], int]:
    """Baselines of lines with these (ascent, descent) and the height of the whole text, as
    StaticLayout.out stacks them with includeFontPadding (TextView's default): the first
    line reaches up to the font's top, the last down to its bottom, the lines between
    are ascent + descent apart. Without the padding (includeFontPadding="false") the text
    spans the first line's ascent to the last line's descent."""
    metrics = paint_metrics(size_px)
    baselines = []
    y = 0
    last = len(extents) - 1 if include_pad else -1
    first = 0 if include_pad else -1
    for i, (ascent, descent) in enumerate(extents):
        above = metrics.top if i == first else ascent
        below = metrics.bottom if i == last else descent
        baselines.append(y - above)
        y += below - above
    return baselines, y


def line_height(size_px: int, lines: int = 1) -> int:
    """Height of `lines` lines of Latin text: Roboto with Android's font padding (1.33 em
    for one line at any size, then 1.17 em for each further line)."""
    metrics = paint_metrics(size_px)
    return max(1, stack_lines([(metrics.ascent, metrics.descent)] * max(1, lines), size_px)[1])

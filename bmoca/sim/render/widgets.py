"""Custom painters for widgets that are more than a box, an icon and a label."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from PIL import Image

if TYPE_CHECKING:
    from bmoca.sim.render.painter import Canvas
    from bmoca.sim.ui.view import View


def draw_switch(canvas: Canvas, view: View) -> None:
    """Android 10 Material switch: a 34x14 dp track and a 20 dp thumb."""
    theme = canvas.theme
    left, top, right, bottom = view.bounds
    cx, cy = (left + right) // 2, (top + bottom) // 2
    tw, th, thumb = canvas.px(34), canvas.px(14), canvas.px(20)
    track = (cx - tw // 2, cy - th // 2, cx + tw // 2, cy + th // 2)
    if view.checked:
        accent = theme.accent
        canvas.round_rect(track, th // 2, (*accent[:3], 128), view.clip)
        tx = track[2] - thumb // 2
        color = accent
    else:
        canvas.round_rect(track, th // 2, theme.switch_track_off, view.clip)
        tx = track[0] + thumb // 2
        color = theme.switch_thumb_off
    shadow = (tx - thumb // 2, cy - thumb // 2 + canvas.px(1), tx + thumb // 2, cy + thumb // 2 + canvas.px(1))
    canvas.ellipse(shadow, (0, 0, 0, 50), view.clip)
    canvas.ellipse((tx - thumb // 2, cy - thumb // 2, tx + thumb // 2, cy + thumb // 2), color, view.clip)


def draw_seekbar(canvas: Canvas, view: View) -> None:
    """A SeekBar: 2 dp track, accent progress, 16 dp thumb (padding 16 dp each side)."""
    theme = canvas.theme
    left, top, right, bottom = view.bounds
    pad = canvas.px(16)
    cy = (top + bottom) // 2
    x0, x1 = left + pad, right - pad
    fraction = view.progress or 0.0
    if canvas.rtl:
        xp = x1 - int((x1 - x0) * fraction)
        canvas.rect((x0, cy - canvas.px(1), xp, cy + canvas.px(1)), theme.divider, view.clip)
        canvas.rect((xp, cy - canvas.px(1), x1, cy + canvas.px(1)), theme.accent, view.clip)
    else:
        xp = x0 + int((x1 - x0) * fraction)
        canvas.rect((x0, cy - canvas.px(1), xp, cy + canvas.px(1)), theme.accent, view.clip)
        canvas.rect((xp, cy - canvas.px(1), x1, cy + canvas.px(1)), theme.divider, view.clip)
    r = canvas.px(8)
    canvas.ellipse((xp - r, cy - r, xp + r, cy + r), theme.accent, view.clip)


def draw_icon_on_circle(canvas: Canvas, view: View) -> None:
    """A white glyph on a circle of the view's `icon_color` (Settings' homepage icons): one
    cached, anti-aliased sprite per colour, glyph and size."""
    from bmoca.sim.render.icons import icon_on_circle

    left, top, right, bottom = view.bounds
    size = min(right - left, bottom - top)
    sprite = icon_on_circle(view.icon or "", tuple(view.icon_color or (95, 99, 104))[:3], size,
                            canvas.px(view.icon_size))
    canvas.paste(sprite, (left + right - size) // 2, (top + bottom - size) // 2, view.clip)


def _draw_mark(canvas: Canvas, view: View, name: str) -> None:
    from bmoca.sim.render.app_icons import mark

    left, top, right, bottom = view.bounds
    size = canvas.px(view.icon_size)
    canvas.paste(mark(name, size), (left + right - size) // 2, (top + bottom - size) // 2,
                 view.clip)


def draw_google_g(canvas: Canvas, view: View) -> None:
    """The search bar's four-colour "G" (Android 10's Pixel launcher)."""
    _draw_mark(canvas, view, "g")


def draw_assistant(canvas: Canvas, view: View) -> None:
    """The Assistant's four dots at the search bar's end (Android 10's Pixel launcher)."""
    _draw_mark(canvas, view, "assistant")


INSTAGRAM_RING = ((0xFE, 0xDA, 0x75), (0xFA, 0x7E, 0x1E), (0xD6, 0x29, 0x76), (0x96, 0x2F, 0xBF),
                  (0x4F, 0x5B, 0xD5))
"""Instagram's brand gradient (yellow, orange, pink, purple, blue), which its unseen-story
rings use, running from the bottom-left to the top-right."""


@lru_cache(maxsize=32)
def gradient_ring(diameter: int, width: int, stops: tuple[tuple[int, int, int], ...]
                  ) -> Image.Image:
    """An anti-aliased ring `width` px thick, filled with a gradient through `stops` from
    its bottom-left to its top-right, transparent inside and out."""
    import numpy as np

    n = max(1, diameter)
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32) + 0.5
    r = n / 2
    dist = np.hypot(xx - r, yy - r)
    alpha = np.clip(r - dist, 0, 1) * np.clip(dist - (r - width), 0, 1)
    t = np.clip((xx + (n - yy)) / (2 * n), 0, 1)  # 0 at the bottom-left, 1 at the top-right
    pos = t * (len(stops) - 1)
    low = np.minimum(pos.astype(np.int32), len(stops) - 2)
    frac = (pos - low)[..., None]
    colors = np.asarray(stops, dtype=np.float32)
    rgb = colors[low] * (1 - frac) + colors[low + 1] * frac
    rgba = np.dstack([rgb, alpha * 255]).round().astype(np.uint8)
    return Image.fromarray(rgba, "RGBA")


def draw_story_ring(canvas: Canvas, view: View) -> None:
    """Instagram's unseen-story ring: a 2.5 dp gradient ring around the avatar, with the
    background showing through the gap between them."""
    left, top, right, bottom = view.bounds
    size = min(right - left, bottom - top)
    sprite = gradient_ring(size, max(1, canvas.px(2.5)), INSTAGRAM_RING)
    canvas.paste(sprite, left + (right - left - size) // 2, top + (bottom - top - size) // 2,
                 view.clip)

"""Custom painters for widgets that are more than a box, an icon and a label."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from PIL import Image

from bmoca.bytecache import byte_lru

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


RING_CACHE_BYTES = 4 << 20
"""Gradient rings kept, in bytes: a ring is as big as its avatar."""
INSTAGRAM_RING = ((0xFE, 0xDA, 0x75), (0xFA, 0x7E, 0x1E), (0xD6, 0x29, 0x76), (0x96, 0x2F, 0xBF),
                  (0x4F, 0x5B, 0xD5))
"""Instagram's brand gradient (yellow, orange, pink, purple, blue), which its unseen-story
rings use, running from the bottom-left to the top-right."""


@byte_lru(RING_CACHE_BYTES)
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


NAV_BOX_DP = 28.0
"""The navigation bar's button glyphs are 28 dp vector drawables (SystemUI's
ic_sysbar_back, ic_sysbar_home, ic_sysbar_recent on Android 9 and 10)."""
_NAV_SHAPES: dict[str, tuple[tuple[float, float], ...]] = {
    # in units of the 28 dp box: a left-pointing triangle 14 x 16.6 dp with round corners
    # (x 6-20, y 5.7-22.3), a 14 dp disc (7-21) and a 15 dp rounded square (6.5-21.5)
    "back": ((7.2, 14.0), (19.0, 7.05), (19.0, 20.95)),
    "home": ((7.0, 7.0), (21.0, 21.0)),
    "recent_apps": ((6.5, 6.5), (21.5, 21.5)),
}


@lru_cache(maxsize=16)  # 16 coverage squares of 28 dp, at most 224 px (1280 dpi): < 1 MB
def nav_glyph(kind: str, box_px: int) -> Image.Image:
    """8-bit coverage of a navigation button's glyph in a `box_px` square, drawn 4x larger
    and reduced, so its edges are anti-aliased as a vector drawable's are."""
    from PIL import ImageDraw

    k = 4 * box_px / NAV_BOX_DP
    big = Image.new("L", (4 * box_px, 4 * box_px), 0)
    draw = ImageDraw.Draw(big)
    pts = [(x * k, y * k) for x, y in _NAV_SHAPES[kind]]
    if kind == "back":
        radius = 1.0 * k  # the corners' rounding: the outline is the triangle grown by it
        draw.polygon(pts, fill=255)
        draw.line([*pts, pts[0]], fill=255, width=round(2 * radius), joint="curve")
        for x, y in pts:
            draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=255)
    elif kind == "home":
        draw.ellipse((*pts[0], *pts[1]), fill=255)
    else:
        draw.rounded_rectangle((*pts[0], *pts[1]), radius=1.6 * k, fill=255)
    return big.resize((box_px, box_px), Image.LANCZOS)


def draw_nav_button(canvas: Canvas, view: View) -> None:
    """A navigation bar button's glyph (its kind is the view's `icon`), centred in the view
    in its `icon_color`; Back is auto-mirrored, pointing right in right-to-left locales."""
    from bmoca.sim.render.text import colorize

    left, top, right, bottom = view.bounds
    box = canvas.px(NAV_BOX_DP)
    mask = nav_glyph(view.icon or "home", box)
    if view.icon == "back" and canvas.rtl:
        mask = mask.transpose(Image.FLIP_LEFT_RIGHT)
    sprite = colorize(mask, view.icon_color or canvas.theme.icon)
    canvas.paste(sprite, (left + right - box) // 2, (top + bottom - box) // 2, view.clip)

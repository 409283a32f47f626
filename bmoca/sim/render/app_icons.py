"""Launcher icons for the B-MoCA apps, drawn as Android 10 Pixel adaptive icons.

Why procedural: the real icons are trademarked artwork. These keep the Pixel look (a circle
mask, Google colours, a white or coloured background with a simple glyph, a soft launcher
shadow) so screenshots read like a phone, without reproducing any logo.

Each design is data: a tuple of drawing operations in the unit square of the visible circle
(0..1 on both axes), interpreted by one small painter. The shapes are drawn at 4× and
downscaled with LANCZOS, because Pillow's polygons and ellipses are not anti-aliased.
"""

from __future__ import annotations

import math

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

from bmoca.bytecache import byte_lru
from bmoca.sim.render import disk_cache
from bmoca.sim.render.icons import icon_mask
from bmoca.sim.render.text import colorize, load_font, to_rgba

SUPERSAMPLE = 4
CIRCLE_FRACTION = 0.90  # visible circle / icon box: Launcher3's normalised circle less shadow room
KEY_SHADOW_ALPHA = 61 / 255  # Launcher3 ShadowGenerator values
AMBIENT_SHADOW_ALPHA = 30 / 255
SHADOW_BLUR = 0.5 / 48  # of the icon size
KEY_SHADOW_DISTANCE = 1 / 48
APP_ICON_CACHE_BYTES = 24 << 20
"""App icons kept, in bytes (an icon is as big as the display's density makes it)."""
MARK_CACHE_BYTES = 2 << 20

Op = tuple  # ("kind", *args): see _paint for the vocabulary

# Google-ish palette.
BLUE = "#1A73E8"
LIGHT_BLUE = "#4285F4"
RED = "#EA4335"
YELLOW = "#FBBC04"
GREEN = "#34A853"
WHITE = "#FFFFFF"
GREY = "#5F6368"


def _stroke(
    top: tuple[float, float], bottom: tuple[float, float], w_top: float, w_bot: float
) -> Op:
    """A slanted letter stroke as a quadrilateral (used by the serif W)."""
    (xt, yt), (xb, yb) = top, bottom
    return (
        "poly",
        ((xt - w_top / 2, yt), (xt + w_top / 2, yt), (xb + w_bot / 2, yb), (xb - w_bot / 2, yb)),
        "#202122",
    )


def _spark(
    cx: float, cy: float, rays: int, r0: float, r1: float, width: float, color: str
) -> tuple[Op, ...]:
    """Rounded rays around a centre (a six-point spark)."""
    ops = []
    for k in range(rays):
        a = math.radians(-90 + k * 360 / rays)
        p0 = (cx + r0 * math.cos(a), cy + r0 * math.sin(a))
        p1 = (cx + r1 * math.cos(a), cy + r1 * math.sin(a))
        ops.append(("line", (p0, p1), width, color))
    return tuple(ops)


# The design table: package → drawing operations (unit square of the visible circle).
APP_ICON_DESIGNS: dict[str, tuple[Op, ...]] = {
    "com.android.settings": (
        ("fill", BLUE),
        ("glyph", "settings", 0.5, 0.5, 0.60, WHITE, True, 400),
    ),
    "com.google.android.deskclock": (  # the 2019 Clock: a blue face, two white hands
        ("fill", WHITE),
        ("circle", 0.5, 0.5, 0.43, LIGHT_BLUE),
        ("line", ((0.38, 0.16), (0.56, 0.49), (0.43, 0.76)), 0.05, WHITE),
    ),
    "com.android.dialer": (
        ("fill", WHITE),
        ("glyph", "call", 0.5, 0.5, 0.56, BLUE, True, 400),
    ),
    "com.google.android.apps.messaging": (
        ("fill", BLUE),
        ("glyph", "chat", 0.5, 0.52, 0.56, WHITE, True, 400),
    ),
    "com.android.contacts": (
        ("fill", WHITE),
        ("rect", 0.26, 0.26, 0.74, 0.74, 0.07, BLUE),
        ("glyph", "person", 0.5, 0.52, 0.40, "#D2E3FC", True, 400),
    ),
    "com.google.android.calculator": (
        ("fill", "#3C4043"),
        ("text", "+", 0.345, 0.36, 0.42, WHITE, 500),
        ("text", "\u2212", 0.655, 0.36, 0.42, WHITE, 500),
        ("text", "\u00d7", 0.345, 0.64, 0.42, WHITE, 500),
        ("text", "\u00f7", 0.655, 0.64, 0.42, "#4FD1C5", 500),
    ),
    "com.android.chrome": (
        ("fill", WHITE),
        ("pie", 0.5, 0.5, 0.40, 210, 330, RED),
        ("pie", 0.5, 0.5, 0.40, 330, 450, YELLOW),
        ("pie", 0.5, 0.5, 0.40, 90, 210, GREEN),
        ("circle", 0.5, 0.5, 0.185, WHITE),
        ("circle", 0.5, 0.5, 0.145, LIGHT_BLUE),
    ),
    "com.google.android.gm": (
        ("fill", WHITE),
        ("rect", 0.22, 0.30, 0.78, 0.70, 0.05, RED),
        ("rect", 0.275, 0.355, 0.725, 0.645, 0.015, WHITE),
        ("line", ((0.285, 0.37), (0.5, 0.53), (0.715, 0.37)), 0.06, RED),
    ),
    "com.android.camera2": (
        ("fill", LIGHT_BLUE),
        ("rect", 0.24, 0.34, 0.76, 0.71, 0.06, WHITE),
        ("poly", ((0.38, 0.35), (0.42, 0.28), (0.58, 0.28), (0.62, 0.35)), WHITE),
        ("circle", 0.5, 0.525, 0.125, LIGHT_BLUE),
        ("circle", 0.5, 0.525, 0.08, "#D2E3FC"),
    ),
    "com.google.android.apps.photos": (
        ("fill", WHITE),
        ("pie", 0.34, 0.5, 0.16, 180, 360, RED),
        ("pie", 0.5, 0.34, 0.16, 270, 450, YELLOW),
        ("pie", 0.66, 0.5, 0.16, 0, 180, GREEN),
        ("pie", 0.5, 0.66, 0.16, 90, 270, LIGHT_BLUE),
    ),
    "com.google.android.apps.maps": (  # the 2015-2020 folded map with its "G" and pin
        ("fill", "#E8EAED"),
        ("poly", ((0.0, 0.0), (0.86, 0.0), (0.5, 0.47), (0.0, 0.93)), GREEN),
        ("poly", ((0.0, 0.93), (0.5, 0.47), (0.9, 0.88), (0.9, 1.0), (0.0, 1.0)), LIGHT_BLUE),
        ("line", ((0.5, 0.47), (0.98, 0.95)), 0.05, WHITE),
        ("line", ((0.04, 0.89), (0.84, 0.10)), 0.065, YELLOW),
        ("text", "G", 0.28, 0.29, 0.30, WHITE, 700),
        ("circle", 0.665, 0.31, 0.145, RED),
        ("poly", ((0.527, 0.36), (0.803, 0.36), (0.665, 0.62)), RED),
        ("circle", 0.665, 0.31, 0.05, "#A50E0E"),
    ),
    "com.google.android.googlequicksearchbox": (
        ("fill", WHITE),
        ("pie", 0.5, 0.5, 0.30, 0, 45, LIGHT_BLUE),
        ("pie", 0.5, 0.5, 0.30, 45, 140, GREEN),
        ("pie", 0.5, 0.5, 0.30, 140, 215, YELLOW),
        ("pie", 0.5, 0.5, 0.30, 215, 320, RED),
        ("circle", 0.5, 0.5, 0.19, WHITE),
        ("rect", 0.5, 0.445, 0.80, 0.555, 0.0, LIGHT_BLUE),
    ),
    "com.google.android.youtube": (
        ("fill", WHITE),
        ("rect", 0.20, 0.31, 0.80, 0.69, 0.10, "#FF0000"),
        ("poly", ((0.44, 0.405), (0.44, 0.595), (0.605, 0.5)), WHITE),
    ),
    "com.google.android.calendar": (
        ("fill", WHITE),
        ("rect", 0.25, 0.25, 0.75, 0.75, 0.06, BLUE),
        ("rect", 0.30, 0.36, 0.70, 0.70, 0.03, WHITE),
        ("text", "31", 0.5, 0.535, 0.25, BLUE, 700),
    ),
    "com.android.documentsui": (
        ("fill", LIGHT_BLUE),
        ("glyph", "folder", 0.5, 0.5, 0.58, "#E8F0FE", True, 400),
    ),
    "org.wikipedia": (
        ("fill", WHITE),
        _stroke((0.255, 0.335), (0.385, 0.675), 0.075, 0.02),
        _stroke((0.505, 0.335), (0.385, 0.675), 0.025, 0.02),
        _stroke((0.49, 0.335), (0.615, 0.675), 0.075, 0.02),
        _stroke((0.745, 0.335), (0.615, 0.675), 0.025, 0.02),
        ("rect", 0.19, 0.32, 0.33, 0.342, 0.0, "#202122"),
        ("rect", 0.44, 0.32, 0.56, 0.342, 0.0, "#202122"),
        ("rect", 0.69, 0.32, 0.81, 0.342, 0.0, "#202122"),
    ),
    "com.instagram.android": (
        (
            "gradient",
            45,
            (
                (0.0, "#FEDA75"),
                (0.3, "#FA7E1E"),
                (0.6, "#D62976"),
                (0.85, "#962FBF"),
                (1.0, "#4F5BD5"),
            ),
        ),
        ("rect_outline", 0.26, 0.26, 0.74, 0.74, 0.14, 0.05, WHITE),
        ("ring", 0.5, 0.5, 0.115, 0.05, WHITE),
        ("circle", 0.635, 0.365, 0.03, WHITE),
    ),
    "com.niksoftware.snapseed": (
        ("gradient", 90, ((0.0, "#9CCC65"), (1.0, "#2E7D32"))),
        ("glyph", "eco", 0.5, 0.5, 0.60, WHITE, True, 400),
    ),
    "com.walmart.android": (
        ("fill", "#0071DC"),
        *_spark(0.5, 0.5, 6, 0.085, 0.28, 0.085, "#FFC220"),
    ),
}

FALLBACK_DESIGN: tuple[Op, ...] = (
    ("fill", WHITE),
    ("glyph", "android", 0.5, 0.5, 0.62, "#3DDC84", True, 400),
)


def design_for(package: str) -> tuple[Op, ...]:
    """The drawing operations of a package's icon (the generic robot for unknown ones)."""
    return APP_ICON_DESIGNS.get(package, FALLBACK_DESIGN)


def _gradient(d: int, angle_deg: float, stops: tuple[tuple[float, str], ...]) -> Image.Image:
    """A linear gradient across the circle box; angle 0 = left→right, 90 = top→bottom."""
    a = math.radians(angle_deg)
    ys, xs = np.mgrid[0:d, 0:d].astype(np.float32) / max(1, d - 1)
    dx, dy = math.cos(a), math.sin(a)
    t = (xs - 0.5) * dx + (ys - 0.5) * dy
    span = (abs(dx) + abs(dy)) / 2
    t = np.clip(t / span * 0.5 + 0.5, 0, 1)
    pos = np.array([s for s, _ in stops], np.float32)
    cols = np.array([to_rgba(c) for _, c in stops], np.float32)
    rgba = np.stack([np.interp(t, pos, cols[:, k]) for k in range(4)], axis=-1)
    return Image.fromarray(rgba.round().astype(np.uint8), "RGBA")


def _paint(ops: tuple[Op, ...], d: int) -> Image.Image:
    """Run the drawing operations onto a d×d RGBA layer (d = circle diameter at 4×)."""
    layer = Image.new("RGBA", (d, d), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer, "RGBA")

    def p(v: float) -> float:
        return v * d

    for op in ops:
        kind = op[0]
        if kind == "fill":
            draw.rectangle((0, 0, d, d), fill=to_rgba(op[1]))
        elif kind == "gradient":
            layer.alpha_composite(_gradient(d, op[1], op[2]))
        elif kind == "circle":
            _, cx, cy, r, color = op
            draw.ellipse((p(cx - r), p(cy - r), p(cx + r), p(cy + r)), fill=to_rgba(color))
        elif kind == "ring":
            _, cx, cy, r, w, color = op
            box = (p(cx - r - w / 2), p(cy - r - w / 2), p(cx + r + w / 2), p(cy + r + w / 2))
            draw.ellipse(box, outline=to_rgba(color), width=max(1, round(p(w))))
        elif kind == "pie":
            _, cx, cy, r, start, end, color = op
            draw.pieslice(
                (p(cx - r), p(cy - r), p(cx + r), p(cy + r)), start, end, fill=to_rgba(color)
            )
        elif kind == "rect":
            _, x0, y0, x1, y1, radius, color = op
            draw.rounded_rectangle(
                (p(x0), p(y0), p(x1), p(y1)), radius=p(radius), fill=to_rgba(color)
            )
        elif kind == "rect_outline":
            _, x0, y0, x1, y1, radius, w, color = op
            draw.rounded_rectangle(
                (p(x0), p(y0), p(x1), p(y1)),
                radius=p(radius),
                outline=to_rgba(color),
                width=max(1, round(p(w))),
            )
        elif kind == "poly":
            _, pts, color = op
            draw.polygon([(p(x), p(y)) for x, y in pts], fill=to_rgba(color))
        elif kind == "line":  # polyline with round caps and joints
            _, pts, w, color = op
            rgba = to_rgba(color)
            xy = [(p(x), p(y)) for x, y in pts]
            width = max(1, round(p(w)))
            draw.line(xy, fill=rgba, width=width, joint="curve")
            for x, y in xy:
                draw.ellipse(
                    (x - width / 2, y - width / 2, x + width / 2, y + width / 2), fill=rgba
                )
        elif kind == "arc":
            _, cx, cy, r, w, start, end, color = op
            box = (p(cx - r), p(cy - r), p(cx + r), p(cy + r))
            draw.arc(box, start, end, fill=to_rgba(color), width=max(1, round(p(w))))
        elif kind == "glyph":
            _, name, cx, cy, size, color, filled, weight = op
            px = max(1, round(p(size)))
            sprite = colorize(icon_mask(name, px, filled, weight), color)
            layer.alpha_composite(sprite, dest=(round(p(cx) - px / 2), round(p(cy) - px / 2)))
        elif kind == "text":
            _, text, cx, cy, size, color, weight = op
            font = load_font("roboto", max(1, round(p(size))), weight)
            draw.text((p(cx), p(cy)), text, font=font, fill=to_rgba(color), anchor="mm")
        else:
            raise ValueError(f"unknown app icon operation {kind!r}")
    return layer


def render_design(ops: tuple[Op, ...], size_px: int) -> Image.Image:
    """Rasterize a design: 4× paint, circle mask, LANCZOS downscale, launcher shadow."""
    big = size_px * SUPERSAMPLE
    d = max(2, round(big * CIRCLE_FRACTION))
    layer = _paint(ops, d)
    mask = Image.new("L", (d, d), 0)
    ImageDraw.Draw(mask).ellipse((0, 0, d - 1, d - 1), fill=255)
    alpha = Image.fromarray(
        (np.asarray(layer.getchannel("A"), np.uint16) * np.asarray(mask, np.uint16) // 255).astype(
            np.uint8
        )
    )
    layer.putalpha(alpha)
    canvas = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    off = (big - d) // 2
    canvas.alpha_composite(layer, dest=(off, off))
    fg = canvas.resize((size_px, size_px), Image.LANCZOS)

    # Launcher-style shadow: an ambient blur plus a key shadow shifted down.
    a = fg.getchannel("A")
    blur = max(0.6, size_px * SHADOW_BLUR)
    soft = np.asarray(a.filter(ImageFilter.GaussianBlur(blur)), np.float32) / 255
    shift = max(1, round(size_px * KEY_SHADOW_DISTANCE))
    key = np.zeros_like(soft)
    key[shift:] = soft[:-shift]
    shadow_a = 1 - (1 - AMBIENT_SHADOW_ALPHA * soft) * (1 - KEY_SHADOW_ALPHA * key)
    shadow = np.zeros((size_px, size_px, 4), np.uint8)
    shadow[..., 3] = np.clip(shadow_a * 255 + 0.5, 0, 255).astype(np.uint8)
    out = Image.fromarray(shadow, "RGBA")
    out.alpha_composite(fg)
    return out


CALENDAR = "com.google.android.calendar"


@byte_lru(APP_ICON_CACHE_BYTES)
def _app_icon(package: str, size_px: int, day: int | None = None) -> Image.Image:
    ops = design_for(package)
    if day is not None:
        ops = tuple(("text", str(day), *op[2:]) if op[0] == "text" else op for op in ops)
    return disk_cache.cached("app_icon", (ops, size_px), "RGBA",
                             lambda: render_design(ops, size_px))


def app_icon(package: str, size_px: int, day: int | None = None) -> Image.Image:
    """The launcher icon of a package as a size_px RGBA square, cached (treat as read-only).

    `day` is today's day of the month: Calendar's icon shows it, as the Pixel launcher's
    dynamic Calendar icon does (other packages ignore it)."""
    if size_px < 4:
        raise ValueError(f"size_px must be >= 4, got {size_px}")
    if package != CALENDAR:
        day = None
    elif day is not None and not 1 <= day <= 31:
        raise ValueError(f"day must be 1..31, got {day}")
    return _app_icon(package, int(size_px), day)


GOOGLE_G: tuple[Op, ...] = (
    ("arc", 0.5, 0.5, 0.40, 0.15, 215, 320, RED),
    ("arc", 0.5, 0.5, 0.40, 0.15, 140, 215, YELLOW),
    ("arc", 0.5, 0.5, 0.40, 0.15, 45, 140, GREEN),
    ("arc", 0.5, 0.5, 0.40, 0.15, 0, 45, LIGHT_BLUE),
    ("rect", 0.5, 0.43, 0.90, 0.57, 0.0, LIGHT_BLUE),
)
"""The search bar's four-colour "G", drawn from arcs (no logo artwork)."""

ASSISTANT_DOTS: tuple[Op, ...] = (
    ("circle", 0.22, 0.50, 0.15, LIGHT_BLUE),
    ("circle", 0.52, 0.33, 0.10, RED),
    ("circle", 0.52, 0.70, 0.10, YELLOW),
    ("circle", 0.80, 0.50, 0.12, GREEN),
)
"""Android 10's Assistant mark at the search bar's end: four dots in Google's colours."""


@byte_lru(MARK_CACHE_BYTES)
def mark(name: str, size_px: int) -> Image.Image:
    """A small unmasked mark ("g" or "assistant") at size_px, 4× supersampled."""
    ops = {"g": GOOGLE_G, "assistant": ASSISTANT_DOTS}[name]
    big = max(4, size_px * SUPERSAMPLE)
    return _paint(ops, big).resize((size_px, size_px), Image.LANCZOS)


def known_packages() -> tuple[str, ...]:
    """Packages with a dedicated design."""
    return tuple(APP_ICON_DESIGNS)

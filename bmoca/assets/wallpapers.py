"""Procedural home-screen wallpapers.

Why procedural: the reference B-MoCA image uses Unsplash photos we may not redistribute. These
are our own drawings with the same names, each evoking its subject. They are deterministic
(the random generator is seeded from the name, never from global state) and fast: the smooth
part is computed at quarter resolution with numpy and upscaled bilinearly; fine detail such as
stars or sprinkles is added at full resolution.

Layout note: images are channel-first float32 arrays (3, h, w) while drawing, because numpy
broadcasts a (h, w) alpha over a leading axis of 3 far faster than over a trailing one.
"""

from __future__ import annotations

import hashlib
import io
import math
from collections.abc import Callable

import numpy as np
from PIL import Image, ImageChops, ImageDraw

from bmoca.bytecache import byte_lru

WALLPAPERS: tuple[str, ...] = (
    "00_default",
    "01_red",
    "02_blue",
    "03_paper",
    "04_sky",
    "05_doughnut",
    "06_bubble",
    "07_food",
    "08_colors",
    "09_rainbow",
    "10_galaxy",
    "11_pyramid",
    "12_ocean",
    "13_canyon",
)

Array = np.ndarray
_SCALE = 4  # the smooth layer is drawn at 1/4 of the width and height
_LUT_SIZE = 256
CUBIC_CACHE_BYTES = 8 << 20
"""Resampling matrices kept, in bytes (one per output width and cell count)."""
GRAIN_CACHE_BYTES = 32 << 20
"""Full-screen grain layers kept, in bytes (one is a screen's pixels)."""


# --------------------------------------------------------------------------- drawing helpers


class _Area:
    """A rectangle of the quarter-resolution grid with its coordinates.

    x runs over [0, 1] across the full width, y over [0, 1] down the full height;
    `aspect` = height / width turns y distances into width units so circles stay round.
    """

    def __init__(self, x: Array, y: Array, aspect: float, px: float, sl: tuple) -> None:
        self.x, self.y, self.aspect, self.px, self.sl = x, y, aspect, px, sl

    def dist(self, cx: float, cy: float) -> Array:
        """Distance to (cx, cy) in width units."""
        return np.sqrt((self.x - cx) ** 2 + ((self.y - cy) * self.aspect) ** 2)

    def angle(self, cx: float, cy: float) -> Array:
        return np.arctan2((self.y - cy) * self.aspect, self.x - cx)


class _Canvas(_Area):
    """The whole quarter-resolution surface, plus the seeded random generator."""

    def __init__(self, width: int, height: int, rng: np.random.Generator) -> None:
        self.width, self.height = width, height
        self.qw = max(2, math.ceil(width / _SCALE))
        self.qh = max(2, math.ceil(height / _SCALE))
        x = ((np.arange(self.qw, dtype=np.float32) + 0.5) / self.qw)[None, :]
        y = ((np.arange(self.qh, dtype=np.float32) + 0.5) / self.qh)[:, None]
        super().__init__(x, y, height / width, 1.0 / self.qw, (slice(None), slice(None)))
        self.rng = rng

    def window(self, cx: float, cy: float, r: float) -> _Area | None:
        """The part of the grid within a square of half-size r (width units) around (cx, cy)."""
        x0 = max(0, int((cx - r) * self.qw) - 1)
        x1 = min(self.qw, int(math.ceil((cx + r) * self.qw)) + 1)
        ry = r / self.aspect
        y0 = max(0, int((cy - ry) * self.qh) - 1)
        y1 = min(self.qh, int(math.ceil((cy + ry) * self.qh)) + 1)
        if x0 >= x1 or y0 >= y1:
            return None
        return _Area(
            self.x[:, x0:x1], self.y[y0:y1], self.aspect, self.px, (slice(y0, y1), slice(x0, x1))
        )

    def vertical(self, stops: list[tuple[float, str]]) -> Array:
        """A top-to-bottom gradient image (3, h, w)."""
        col = _ramp(self.y, stops)  # (3, h, 1)
        return np.repeat(col, self.qw, axis=2)

    def noise(self, cells: int, octaves: int = 1, persistence: float = 0.5) -> Array:
        """Smooth value noise (fbm) in about [0, 1]; `cells` = features across the width.

        Each octave is a random grid upsampled with separable Catmull-Rom weights, done as
        two small matrix products (much cheaper than a Pillow resize plus array copies).
        """
        total = np.zeros((self.qh, self.qw), np.float32)
        amp, norm = 1.0, 0.0
        for o in range(octaves):
            cx = max(1, cells * 2**o)
            cy = max(1, round(cx * self.aspect))
            grid = self.rng.random((cy + 3, cx + 3), dtype=np.float32)
            total += amp * (_cubic_matrix(self.qh, cy) @ grid @ _cubic_matrix(self.qw, cx).T)
            norm += amp
            amp *= persistence
        return np.clip(total / norm, 0, 1)

    def profile(self, points: int, octaves: int = 3, persistence: float = 0.5) -> Array:
        """A 1-D fbm curve over x in about [-1, 1], shape (1, w) (ridges, wave lines)."""
        total = np.zeros(self.qw, np.float32)
        amp, norm = 1.0, 0.0
        xs = self.x[0]
        for o in range(octaves):
            n = points * 2**o + 1
            knots = self.rng.uniform(-1, 1, n)
            total += amp * np.interp(xs, np.linspace(0, 1, n), knots).astype(np.float32)
            norm += amp
            amp *= persistence
        return (total / norm)[None, :]


@byte_lru(CUBIC_CACHE_BYTES)
def _cubic_matrix(n_out: int, cells: int) -> Array:
    """(n_out, cells + 3) Catmull-Rom weights sampling knots 1..cells+1 at n_out pixel centres."""
    u = 1 + (np.arange(n_out) + 0.5) / n_out * cells
    i = np.floor(u).astype(np.intp)
    f = u - i
    weights = (
        ((-f + 2) * f - 1) * f / 2,
        ((3 * f - 5) * f * f + 2) / 2,
        ((-3 * f + 4) * f + 1) * f / 2,
        (f - 1) * f * f / 2,
    )
    m = np.zeros((n_out, cells + 3), np.float32)
    rows = np.arange(n_out)
    for k, w in enumerate(weights):
        np.add.at(m, (rows, np.clip(i - 1 + k, 0, cells + 2)), w)
    return m


def _smooth(e0: float | Array, e1: float | Array, v: Array) -> Array:
    """Hermite step from e0 to e1 (e1 < e0 gives a falling edge): anti-aliased masks."""
    t = np.clip((v - e0) / (e1 - e0), 0, 1)
    return t * t * (3 - 2 * t)


def _rgb(hex_color: str) -> Array:
    h = hex_color.lstrip("#")
    return np.array([int(h[i : i + 2], 16) for i in (0, 2, 4)], np.float32)[:, None, None]


def _ramp(t: Array, stops: list[tuple[float, str]]) -> Array:
    """Colour gradient through (position, hex) stops, evaluated at t → (3, *t.shape)."""
    pos = np.array([p for p, _ in stops], np.float32)
    cols = np.concatenate([_rgb(c)[:, 0, 0][None] for _, c in stops])  # (n, 3)
    if t.size <= 4096:
        return np.stack([np.interp(t, pos, cols[:, k]).astype(np.float32) for k in range(3)])
    lo, hi = float(pos[0]), float(pos[-1])
    grid = np.linspace(lo, hi, _LUT_SIZE)
    lut = np.stack([np.interp(grid, pos, cols[:, k]) for k in range(3)]).astype(np.float32)
    idx = np.clip((t - lo) * ((_LUT_SIZE - 1) / (hi - lo)) + 0.5, 0, _LUT_SIZE - 1).astype(np.uint8)
    return np.take(lut, idx, axis=1)


def _over(img: Array, color: Array | str, alpha: Array | float) -> Array:
    """Blend `color` (hex or (3, ...) array) over `img` in place with coverage `alpha`."""
    if isinstance(color, str):
        color = _rgb(color)
    img += (color - img) * alpha
    return img


def _over_at(img: Array, area: _Area, color: Array | str, alpha: Array) -> None:
    """`_over` restricted to a window of the canvas."""
    sub = img[(slice(None),) + area.sl]
    _over(sub, color, alpha)


def _upscale_array(c: _Canvas, img: Array) -> Array:
    """Quarter → full resolution, bilinear, as a writable (h, w, 3) uint8 array.

    Pillow's horizontal pass at quarter height, then the 4× vertical pass in numpy with
    Pillow's exact bilinear weights (3/8·5/8, 1/8·7/8): about half the time of one Pillow
    resize, whose full-size pass dominates the cost.
    """
    small = np.clip(img + 0.5, 0, 255).astype(np.uint8).transpose(1, 2, 0)
    wide = Image.fromarray(np.ascontiguousarray(small), "RGB").resize(
        (c.width, c.qh), Image.BILINEAR
    )
    if c.height != c.qh * _SCALE:
        return np.array(wide.resize((c.width, c.height), Image.BILINEAR))
    arr = np.asarray(wide)
    pad = np.concatenate([arr[:1], arr, arr[-1:]]).astype(np.uint16)
    up, mid, dn = pad[:-2], pad[1:-1], pad[2:]
    out = np.empty((c.qh, 4) + arr.shape[1:], np.uint16)
    np.multiply(mid, 5, out=out[:, 0])
    out[:, 0] += up * 3
    np.multiply(mid, 7, out=out[:, 1])
    out[:, 1] += up
    np.multiply(mid, 7, out=out[:, 2])
    out[:, 2] += dn
    np.multiply(mid, 5, out=out[:, 3])
    out[:, 3] += dn * 3
    out += 4
    out >>= 3
    return out.astype(np.uint8).reshape(c.height, c.width, 3)


def _upscale(c: _Canvas, img: Array) -> Image.Image:
    return Image.fromarray(_upscale_array(c, img), "RGB")


def _ridge_mask(c: _Canvas, base: float, amp: float, points: int, octaves: int = 4) -> Array:
    """Coverage below a noisy horizon line at height `base` (fraction of height)."""
    line = base + amp * c.profile(points, octaves)
    edge = c.px / c.aspect
    return _smooth(line - edge, line + edge, c.y)


def _disc(area: _Area, cx: float, cy: float, r: float | Array) -> Array:
    """Anti-aliased disc coverage."""
    return _smooth(r + area.px, r - area.px, area.dist(cx, cy))


# --------------------------------------------------------------------------- the wallpapers


def _default(c: _Canvas) -> Image.Image:
    """Pixel-like dusk: violet to pink sky, a low sun glow and layered mountain ridges."""
    img = c.vertical(
        [
            (0.0, "#3B2A6B"),
            (0.32, "#8E5AA8"),
            (0.55, "#E59AB8"),
            (0.68, "#F8C8BE"),
            (1.0, "#F8C8BE"),
        ]
    )
    _over(img, "#FFE0C4", 0.55 * np.exp(-((c.dist(0.62, 0.64) / 0.28) ** 2)))
    for base, amp, pts, color in (
        (0.645, 0.035, 3, "#B77AA6"),
        (0.70, 0.05, 4, "#7D4E8C"),
        (0.77, 0.045, 5, "#4E3168"),
        (0.86, 0.035, 6, "#2C1C42"),
    ):
        shade = 0.85 * _rgb(color) + 0.15 * _ramp(c.y, [(base - amp, color), (1.0, "#1B1029")])
        _over(img, shade, _ridge_mask(c, base, amp, pts))
    return _upscale(c, img)


def _red(c: _Canvas) -> Image.Image:
    """Paper-cut red: overlapping discs in red tones with soft shadows."""
    img = c.vertical([(0.0, "#5C0A12"), (1.0, "#A3132A")])
    tones = ["#7A0E1A", "#9E1424", "#C21B2E", "#DE3447", "#F0606E", "#FF8A8F"]
    for i, tone in enumerate(tones):
        cx = c.rng.uniform(-0.2, 1.2)
        cy = (i + 0.5) / len(tones) * 1.1 + c.rng.uniform(-0.08, 0.08)
        r = c.rng.uniform(0.45, 0.75)
        a = c.window(cx + 0.01, cy, r + 0.08)
        if a is None:
            continue
        shadow = _smooth(r + 0.06, r - 0.01, a.dist(cx + 0.01, cy + 0.012))
        _over_at(img, a, "#2A0308", 0.35 * shadow)
        d = a.dist(cx, cy)
        lit = _rgb(tone) * (1.05 - 0.1 * np.clip(d / r, 0, 1))
        _over_at(img, a, lit, _smooth(r + a.px, r - a.px, d))
    return _upscale(c, img)


def _blue(c: _Canvas) -> Image.Image:
    """A pale moon rising over a deep blue night, with faint stars."""
    img = c.vertical([(0.0, "#061633"), (0.6, "#0D2F66"), (1.0, "#1B4F8F")])
    cx, cy, r = 0.72, 0.58, 0.55
    d = c.dist(cx, cy)
    _over(img, "#5C8FD6", 0.35 * np.exp(-((np.maximum(d - r, 0) / 0.12) ** 2)))
    light = np.clip(1 - c.dist(cx - 0.25, cy - 0.2) / (1.6 * r), 0, 1)
    surface = _ramp(
        0.65 * light + 0.35 * c.noise(5, 3), [(0.0, "#4E6F9E"), (0.5, "#A7C0E3"), (1.0, "#E8F0FB")]
    )
    _over(img, surface, _smooth(r + c.px, r - c.px, d))
    out = _upscale_array(c, img)
    return _add_stars(
        out,
        c,
        density=1 / 9000,
        keep=lambda fy, fx: np.hypot(fx - cx, (fy - cy) * c.aspect) > r + 0.1,
    )


def _paper(c: _Canvas) -> Image.Image:
    """Light paper: warm off-white with soft mottling, fibres and fine grain."""
    tone = 0.6 * c.noise(6, 4, 0.55) + 0.4 * c.noise(40, 2)
    tone -= 0.12 * np.clip(c.dist(0.5, 0.5) / 0.9, 0, 1) ** 2  # gentle vignette
    img = _ramp(tone, [(-0.12, "#D9CFBA"), (0.5, "#EFE8DA"), (1.0, "#F8F4EA")])
    return _add_grain(_upscale(c, img), c, amount=5.0)


def _sky(c: _Canvas) -> Image.Image:
    """Daytime sky with fluffy clouds."""
    img = c.vertical([(0.0, "#2D6FC2"), (0.55, "#6FA8E0"), (1.0, "#BFE0F5")])
    n = c.noise(3, 5, 0.55)
    cover = _smooth(0.48, 0.62, n + 0.15 * np.sin(c.y * 7.0 + 1.3))
    shade = 0.3 * c.noise(3, 5, 0.55) + 0.7 * _smooth(0.4, 0.75, n)
    _over(img, _ramp(shade, [(0.0, "#AFC2D9"), (0.6, "#E9F0F7"), (1.0, "#FFFFFF")]), cover)
    return _upscale(c, img)


def _doughnut(c: _Canvas) -> Image.Image:
    """A pink-iced doughnut with sprinkles on pastel rings."""
    cx, cy = 0.5, 0.52
    d = c.dist(cx, cy)
    img = _ramp(d, [(0.0, "#CDEFE3"), (1.5, "#B4E2D3")])
    _over(img, _ramp(d, [(0.0, "#F9E3EC"), (1.5, "#F3D2DF")]), _smooth(-0.2, 0.2, np.sin(d * 38)))
    r_in, r_out = 0.13, 0.40
    a = c.window(cx, cy, r_out + 0.1)
    dd = a.dist(cx, cy)
    hole = _smooth(r_in - 0.02, r_in + 0.03, dd)
    _over_at(
        img,
        a,
        "#7A9E92",
        0.35 * _smooth(r_out + 0.08, r_out - 0.02, a.dist(cx + 0.02, cy + 0.02)) * hole,
    )
    tube = np.clip((dd - r_in) / (r_out - r_in), 0, 1)
    ring = _smooth(r_in - a.px, r_in + a.px, dd) * _smooth(r_out + a.px, r_out - a.px, dd)
    _over_at(img, a, _ramp(tube, [(0.0, "#C98A4B"), (0.5, "#EDB97A"), (1.0, "#C98A4B")]), ring)
    ang = a.angle(cx, cy)
    edge = r_out - 0.03 + 0.018 * np.sin(ang * 9 + 0.5) + 0.01 * np.sin(ang * 23)
    icing = _smooth(r_in + 0.025 - a.px, r_in + 0.025 + a.px, dd) * _smooth(
        edge + a.px, edge - a.px, dd
    )
    _over_at(img, a, _ramp(tube, [(0.0, "#F27BA8"), (0.45, "#FFB3CF"), (1.0, "#EE6F9F")]), icing)
    out = _upscale(c, img)
    draw = ImageDraw.Draw(out)  # sprinkles at full resolution, on the icing
    w = c.width
    colors = ["#FFFFFF", "#FFE066", "#6CD4FF", "#8BE28B", "#B38BFA", "#FF8A65"]
    length, thick = 0.012 * w, max(1, round(0.007 * w))
    for _ in range(110):
        t = c.rng.uniform(0, 2 * math.pi)
        rr = c.rng.uniform(r_in + 0.05, r_out - 0.07)
        px, py = (cx + rr * math.cos(t)) * w, cy * c.height + rr * math.sin(t) * w
        s = c.rng.uniform(0, math.pi)
        dx, dy = length * math.cos(s), length * math.sin(s)
        draw.line(
            (px - dx, py - dy, px + dx, py + dy),
            fill=colors[int(c.rng.integers(len(colors)))],
            width=thick,
        )
    return out


def _bubble(c: _Canvas) -> Image.Image:
    """Soap bubbles drifting over a teal-blue gradient."""
    img = _ramp(c.y + 0.3 * c.x, [(0.0, "#0B3D5C"), (0.7, "#1F7A9E"), (1.3, "#7FD3E6")])
    for _ in range(28):
        bx, by = c.rng.uniform(-0.1, 1.1), c.rng.uniform(-0.05, 1.05)
        r = c.rng.uniform(0.03, 0.2)
        a = c.window(bx, by, r * 1.1)
        if a is None:
            continue
        d = a.dist(bx, by)
        inside = _smooth(r + a.px, r - a.px, d)
        rim = np.exp(-(((d - r * 0.96) / (0.06 * r + a.px)) ** 2))
        highlight = np.exp(-((a.dist(bx - 0.45 * r, by - 0.45 * r / a.aspect) / (0.18 * r)) ** 2))
        tint = _ramp(
            np.clip((a.x - bx) / r, -1, 1) + 0 * a.y,
            [(-1.0, "#FFD1F7"), (0.0, "#E6FBFF"), (1.0, "#C7FFD9")],
        )
        _over_at(img, a, "#BFEFFF", 0.10 * inside)
        _over_at(img, a, tint, 0.55 * rim * inside + 0.2 * rim)
        _over_at(img, a, "#FFFFFF", 0.8 * highlight)
    return _upscale(c, img)


def _food(c: _Canvas) -> Image.Image:
    """Citrus slices (orange, lemon, lime, grapefruit) on a light table, seen from above."""
    img = _ramp(c.noise(8, 3), [(0.0, "#EADCC2"), (1.0, "#F7EEDD")])
    fruits = [
        ("#F57C00", "#FFA726", "#FFD699"),  # orange: rind, flesh, flesh near the centre
        ("#F9C80E", "#FFE45C", "#FFF4B0"),  # lemon
        ("#558B2F", "#9CCC65", "#DCEDC8"),  # lime
        ("#E64A19", "#FF7F66", "#FFC2B3"),  # grapefruit
    ]
    for i in range(12):
        rind, flesh, light = fruits[i % len(fruits)]
        r = c.rng.uniform(0.13, 0.22)
        fx, fy = c.rng.uniform(0.0, 1.0), (i + c.rng.uniform(0.1, 0.9)) / 12
        a = c.window(fx + 0.015, fy, r + 0.06)
        if a is None:
            continue
        d = a.dist(fx, fy)
        _over_at(
            img,
            a,
            "#8A7455",
            0.3 * _smooth(r + 0.04, r - 0.02, a.dist(fx + 0.012, fy + 0.018 / a.aspect)),
        )
        _over_at(img, a, rind, _smooth(r + a.px, r - a.px, d))
        _over_at(img, a, "#FFF8E8", _smooth(0.9 * r + a.px, 0.9 * r - a.px, d))
        segs = 9 + (i % 3)
        frac = ((a.angle(fx, fy) + c.rng.uniform(0, 6.3)) / (2 * math.pi) * segs) % 1.0
        walls = _smooth(0.02, 0.09, np.minimum(frac, 1 - frac)) * _smooth(0.1 * r, 0.16 * r, d)
        body = _ramp(d / r, [(0.0, light), (0.6, flesh), (0.85, flesh)])
        _over_at(img, a, body, walls * _smooth(0.85 * r + a.px, 0.85 * r - a.px, d))
    return _upscale(c, img)


def _colors(c: _Canvas) -> Image.Image:
    """Bright, overlapping organic blobs with soft shadows, spread over the whole screen."""
    img = c.vertical([(0.0, "#FFF3E0"), (1.0, "#FCE4EC")])
    palette = [
        "#FF5252",
        "#FFB300",
        "#00C853",
        "#2979FF",
        "#D500F9",
        "#FF6D00",
        "#00B8D4",
        "#F50057",
        "#76FF03",
        "#651FFF",
    ]
    rows = max(2, round(2.5 * c.aspect))
    cells = [(col, row) for row in range(rows) for col in range(3)]
    order = c.rng.permutation(len(cells))
    for k, idx in enumerate(order):
        col_i, row_i = cells[idx]
        bx = (col_i + c.rng.uniform(0.1, 0.9)) / 3
        by = (row_i + c.rng.uniform(0.1, 0.9)) / rows
        r = c.rng.uniform(0.14, 0.24)
        ph = c.rng.uniform(0, 6.3, 3)
        a = c.window(bx + 0.01, by, r * 1.25 + 0.05)
        if a is None:
            continue
        ang = a.angle(bx, by)
        edge = r * (
            1
            + 0.12 * np.sin(2 * ang + ph[0])
            + 0.08 * np.sin(3 * ang + ph[1])
            + 0.05 * np.sin(5 * ang + ph[2])
        )
        sd = a.dist(bx + 0.012, by + 0.02 / a.aspect)
        _over_at(img, a, "#3E2723", 0.28 * _smooth(edge + 0.05, edge - 0.01, sd))
        shade = 1.08 - 0.25 * np.clip(a.dist(bx - 0.3 * r, by - 0.3 * r) / (1.3 * r), 0, 1)
        col = np.clip(_rgb(palette[k % len(palette)]) * shade, 0, 255)
        _over_at(img, a, col, _smooth(edge + a.px, edge - a.px, a.dist(bx, by)))
    return _upscale(c, img)


def _rainbow(c: _Canvas) -> Image.Image:
    """A rainbow arching over a soft sky, mist and green hills."""
    img = c.vertical([(0.0, "#5B8FD0"), (0.6, "#B7D4EE"), (1.0, "#E8F1F8")])
    cx, cy, r0, width = 0.5, 0.80, 0.62, 0.16
    a = c.window(cx, cy, r0 + 0.02)
    t = (r0 - a.dist(cx, cy)) / width  # 0 at the outer (red) edge, 1 at the inner (violet)
    bows = _ramp(
        t,
        [
            (-0.1, "#FF3B30"),
            (0.0, "#FF3B30"),
            (0.17, "#FF9500"),
            (0.33, "#FFE14D"),
            (0.5, "#4CD964"),
            (0.67, "#32ADE6"),
            (0.83, "#5856D6"),
            (1.0, "#AF52DE"),
            (1.1, "#AF52DE"),
        ],
    )
    alpha = _smooth(-0.08, 0.06, t) * _smooth(1.08, 0.94, t) * _smooth(0.95, 0.6, a.y)
    _over_at(img, a, bows, 0.6 * alpha)
    _over(img, "#FFFFFF", 0.35 * _smooth(0.55, 0.8, c.noise(4, 4)) * _smooth(0.45, 0.75, c.y))
    for base, amp, col in (
        (0.78, 0.04, "#7FB77E"),
        (0.86, 0.05, "#4E944F"),
        (0.94, 0.03, "#2F6B3A"),
    ):
        _over(img, col, _ridge_mask(c, base, amp, 2, 3))
    return _upscale(c, img)


def _galaxy(c: _Canvas) -> Image.Image:
    """Deep space: a purple-blue nebula band and a dense starfield."""
    img = c.vertical([(0.0, "#03020A"), (1.0, "#0A0820")])
    band = np.exp(-((((c.y * c.aspect - 0.35 - 1.2 * c.x) * 0.75) / 0.35) ** 2))
    n1 = c.noise(4, 5, 0.6)
    col = _ramp(
        c.noise(6, 4, 0.55),
        [(0.0, "#1A237E"), (0.45, "#6A1B9A"), (0.7, "#C2185B"), (1.0, "#FF8A65")],
    )
    _over(img, col, 0.9 * _smooth(0.3, 0.8, n1) * band)
    _over(img, "#E1BEE7", 0.35 * _smooth(0.65, 0.95, n1) * band)
    _over(img, "#000000", 0.5 * _smooth(0.55, 0.8, c.noise(10, 3)) * band)
    return _add_stars(_upscale_array(c, img), c, density=1 / 700)


def _pyramid(c: _Canvas) -> Image.Image:
    """Pyramids in a golden desert under a setting sun."""
    img = c.vertical([(0.0, "#F57C00"), (0.35, "#FFB74D"), (0.6, "#FFE0A3"), (1.0, "#FFE0A3")])
    sun = c.dist(0.3, 0.42)
    _over(img, "#FFF1C1", 0.5 * np.exp(-((sun / 0.3) ** 2)))
    _over(img, "#FFF6D8", _smooth(0.09 + c.px, 0.09 - c.px, sun))
    horizon = 0.62
    for px_, base_w, height, lit, dark in (
        (0.22, 0.34, 0.16, "#D9A066", "#9C6A3A"),
        (0.62, 0.52, 0.25, "#E6B274", "#A8703C"),
        (0.92, 0.26, 0.12, "#D9A066", "#9C6A3A"),
    ):
        apex = horizon - height
        a = c.window(px_, horizon - height / 2, max(base_w / 2, height / 2 * c.aspect) + 0.02)
        yy = (a.y - apex) / height  # 0 at the apex, 1 at the base
        half = base_w / 2 * yy
        inside = _smooth(px_ - half - a.px, px_ - half + a.px, a.x) * _smooth(
            px_ + half + a.px, px_ + half - a.px, a.x
        )
        inside = inside * ((yy >= 0) & (yy <= 1.02))
        split = px_ + 0.25 * half  # the sun-side face is the larger, lit one
        face = _rgb(dark) + (_rgb(lit) - _rgb(dark)) * _smooth(split + a.px, split - a.px, a.x)
        _over_at(img, a, face, inside)
    for base, amp, pts, col in (
        (0.64, 0.02, 3, "#E9B872"),
        (0.74, 0.05, 2, "#D9A05B"),
        (0.86, 0.06, 2, "#C4883F"),
    ):
        _over(img, col, _ridge_mask(c, base, amp, pts, 2))
    img += (c.noise(60, 1) - 0.5) * 8 * (c.y > horizon)
    return _upscale(c, img)


def _ocean(c: _Canvas) -> Image.Image:
    """Ocean waves seen from above: layered swells with foam crests, sand at the bottom."""
    img = c.vertical([(0.0, "#06304F"), (0.5, "#0B5E86"), (0.85, "#1FA2B6"), (1.0, "#6FD6D0")])
    depth = _ramp(c.y, [(0.0, "#0A3D62"), (0.6, "#137C9E"), (1.0, "#3CC2C7")])
    foamy = _smooth(0.3, 0.7, c.noise(12, 2))
    for i in range(9):
        line = (
            0.08
            + i * 0.1
            + 0.025 * np.sin(c.x * (6 + i) + c.rng.uniform(0, 6.3))
            + 0.02 * c.profile(4, 3)
        )
        # Rows above `lo` are untouched by this swell; the glint fades out by `glint`.
        lo = max(0, int((line.min() - 0.02) * c.qh))
        hi = min(c.qh, int((line.max() + 0.02) * c.qh) + 1)
        glint = min(c.qh, int((line.max() + 0.16) * c.qh) + 1)
        y = c.y[lo:]
        below = _smooth(line - c.px, line + c.px, y)
        _over(img[:, lo:], depth[:, lo:] * (0.92 + 0.03 * i / 9), 0.45 * below)
        yg = c.y[lo:glint]
        _over(
            img[:, lo:glint],
            "#7FD8E8",
            0.22 * np.exp(-np.maximum(yg - line, 0) / 0.025) * (yg > line),
        )
        foam = np.exp(-(((c.y[lo:hi] - line) / 0.006) ** 2)) * foamy[lo:hi]
        _over(img[:, lo:hi], "#F2FBFF", 0.85 * foam)
    _over(img, "#E8D3A8", _ridge_mask(c, 0.93, 0.02, 3))
    return _upscale(c, img)


def _canyon(c: _Canvas) -> Image.Image:
    """An orange canyon: hazy far walls, layered rock strata and a shadowed gorge."""
    img = c.vertical([(0.0, "#7FB3D5"), (0.3, "#F6D7B0"), (1.0, "#F6D7B0")])
    gorge = 0.5 + 0.08 * c.profile(2, 2)
    # 0 on the left wall, 1 on the right; a soft blend across the gorge, so the two walls'
    # strata meet without a seam
    side = _smooth(gorge - 0.06, gorge + 0.06, c.x)
    layers = c.y * 14 + 1.5 * c.noise(3, 3)
    stops = [(0.0, "#B5471B"), (0.3, "#D9692C"), (0.55, "#E8894A"), (0.75, "#C8582A"),
             (1.0, "#B5471B")]
    strata = _ramp((layers + 0.45 * side) % 1.0, stops)
    far = _ramp(layers % 1.0, stops)  # the far walls continue behind the gorge unbroken
    _over(img, far * 0.45 + _rgb("#F3C9A0") * 0.55, _ridge_mask(c, 0.33, 0.02, 6))
    _over(img, far * 0.7 + _rgb("#E9B48A") * 0.3, _ridge_mask(c, 0.42, 0.03, 5))
    dx = np.abs(c.x - gorge)
    top = 0.5 - 0.35 * np.clip(dx * 2.2, 0, 1) + 0.02 * c.profile(8, 3)
    wall = _smooth(top - c.px, top + c.px, c.y)
    # The sunlit right wall is brighter; both darken into the gorge.
    shade = (0.72 + 0.33 * side) * (0.55 + 0.45 * _smooth(0.0, 0.18, dx))
    _over(img, np.clip(strata * shade, 0, 255), wall)
    return _upscale(c, img)


# --------------------------------------------------------------------------- full-res details


def _add_stars(
    arr: Array,
    c: _Canvas,
    density: float,
    keep: Callable[[Array, Array], Array] | None = None,
) -> Image.Image:
    """Stars drawn into the full-resolution (h, w, 3) array: pixels, the brightest with a cross."""
    h, w = arr.shape[:2]
    n = int(w * h * density)
    xs = c.rng.integers(0, w, n)
    ys = c.rng.integers(0, h, n)
    bright = (c.rng.random(n) ** 3 * 235 + 20).astype(np.int16)
    warm = c.rng.random(n) < 0.25
    if keep is not None:
        mask = keep(ys / h, xs / w)
        xs, ys, bright, warm = xs[mask], ys[mask], bright[mask], warm[mask]
    tint = np.where(warm[:, None], np.array([12, 0, -18]), np.array([-12, 0, 12])).astype(np.int16)
    cur = arr[ys, xs].astype(np.int16)
    arr[ys, xs] = np.clip(np.maximum(cur, bright[:, None] + tint), 0, 255).astype(np.uint8)
    big = bright > 200
    for dy, dx in ((0, 1), (0, -1), (1, 0), (-1, 0)):
        yy = np.clip(ys[big] + dy, 0, h - 1)
        xx = np.clip(xs[big] + dx, 0, w - 1)
        cur = arr[yy, xx].astype(np.int16)
        arr[yy, xx] = np.maximum(cur, (bright[big] * 0.55).astype(np.int16)[:, None]).astype(
            np.uint8
        )
    return Image.fromarray(arr, "RGB")


@byte_lru(GRAIN_CACHE_BYTES)
def _grain_image(width: int, height: int, seed: int, amount: float) -> Image.Image:
    """A full-resolution grain layer around 128: one random 128² tile, repeated.

    Cached because it only depends on the size and seed; it is never handed out.
    """
    rng = np.random.default_rng(seed)
    tile = np.clip(rng.standard_normal((128, 128)) * amount + 128, 0, 255).astype(np.uint8)
    tile_img = Image.fromarray(np.repeat(tile[..., None], 3, axis=2), "RGB")
    grain = Image.new("RGB", (width, height))
    for y in range(0, height, 128):
        for x in range(0, width, 128):
            grain.paste(tile_img, (x, y))
    return grain


def _add_grain(img: Image.Image, c: _Canvas, amount: float) -> Image.Image:
    """Fine paper grain added at full resolution (in C, through ImageChops)."""
    seed = int(c.rng.integers(1 << 62))
    return ImageChops.add(
        img, _grain_image(img.width, img.height, seed, amount), scale=1.0, offset=-128
    )


_GENERATORS: dict[str, Callable[[_Canvas], Image.Image]] = {
    "00_default": _default,
    "01_red": _red,
    "02_blue": _blue,
    "03_paper": _paper,
    "04_sky": _sky,
    "05_doughnut": _doughnut,
    "06_bubble": _bubble,
    "07_food": _food,
    "08_colors": _colors,
    "09_rainbow": _rainbow,
    "10_galaxy": _galaxy,
    "11_pyramid": _pyramid,
    "12_ocean": _ocean,
    "13_canyon": _canyon,
}


def seed_for(name: str) -> int:
    """Stable 64-bit seed from the wallpaper name (no global random state)."""
    return int.from_bytes(hashlib.sha256(f"bmoca-wallpaper:{name}".encode()).digest()[:8], "little")


def generate(name: str, width: int, height: int) -> Image.Image:
    """Draw wallpaper `name` as an RGB image of width × height; same arguments, same pixels."""
    if name not in _GENERATORS:
        raise ValueError(f"unknown wallpaper {name!r}; valid names: {', '.join(WALLPAPERS)}")
    if width < 1 or height < 1:
        raise ValueError(f"wallpaper size must be positive, got {width}x{height}")
    canvas = _Canvas(int(width), int(height), np.random.default_rng(seed_for(name)))
    img = _GENERATORS[name](canvas)
    if img.size != (width, height) or img.mode != "RGB":
        img = img.convert("RGB").resize((width, height), Image.BILINEAR)
    return img


def encode_png(img: Image.Image) -> bytes:
    """PNG bytes with fast compression (level 1): encoding costs more than drawing."""
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=1)
    return buf.getvalue()

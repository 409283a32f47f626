"""Procedurally drawn pictures for media the phone has no pixels for: YouTube's video
thumbnails (the feed is our own, so are its images) and the photos a task's set-up makes
with `touch` (empty files, which Photos still lists as photos here).

Why procedural: the real apps show camera photos and video frames we cannot ship. A scene
(sky, a sun, hills or a skyline, water) chosen and coloured by a seed reads as a photograph
at thumbnail size, is the same pixels on every run (a local `random.Random(seed)`, no
global state), and is cached by (seed, size).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from PIL import Image, ImageDraw

from bmoca.bytecache import byte_lru
from bmoca.sim.render.images import cropped
from bmoca.sim.system.vfs import VirtualFS
from bmoca.sim.ui.view import View

SCENE_CACHE_BYTES = 24 << 20
"""Scenes kept, in bytes: a scene is as big as the view it fills."""
SKIES = (((70, 130, 210), (240, 210, 150)), ((30, 40, 90), (230, 120, 90)),
         ((120, 180, 230), (220, 235, 245)), ((250, 170, 90), (255, 230, 170)),
         ((40, 60, 70), (150, 170, 170)), ((90, 150, 200), (180, 220, 240)))
"""(top, horizon) colours: day, dusk, haze, sunset, overcast, morning."""
GROUNDS = ((70, 120, 60), (110, 90, 60), (40, 90, 120), (150, 130, 100), (60, 70, 80),
           (190, 160, 110))


def _mix(a: tuple, b: tuple, t: float) -> tuple[int, int, int]:
    return tuple(int(x + (y - x) * t) for x, y in zip(a, b, strict=True))


@byte_lru(SCENE_CACHE_BYTES)
def scene(seed: int, width: int, height: int) -> Image.Image:
    """A landscape, a sea or a skyline at `width` x `height` px, decided by `seed`."""
    rng = random.Random(seed)
    width, height = max(1, width), max(1, height)
    image = Image.new("RGB", (width, height))
    draw = ImageDraw.Draw(image)
    top, horizon = rng.choice(SKIES)
    line = int(height * rng.uniform(0.5, 0.7))
    for y in range(line):
        draw.line([(0, y), (width, y)], fill=_mix(top, horizon, y / max(1, line)))
    ground = rng.choice(GROUNDS)
    draw.rectangle([0, line, width, height], fill=ground)
    sun = int(min(width, height) * rng.uniform(0.08, 0.16))
    sx, sy = int(width * rng.uniform(0.15, 0.85)), int(line * rng.uniform(0.25, 0.7))
    draw.ellipse([sx - sun, sy - sun, sx + sun, sy + sun], fill=_mix(horizon, (255, 250, 235),
                                                                       0.7))
    kind = rng.randrange(5)
    if kind == 0:  # hills or mountains over the horizon
        for layer in range(2):
            shade = _mix(ground, top, 0.45 - layer * 0.25)
            points = [(0, line)]
            x = 0
            while x < width:
                x += int(width * rng.uniform(0.12, 0.3))
                points.append((min(x, width), line - int(height * rng.uniform(0.08, 0.3))))
            points.append((width, line))
            draw.polygon(points, fill=shade)
    elif kind == 1:  # a sea with a glint of the sun
        water = _mix(top, (20, 60, 110), 0.5)
        draw.rectangle([0, line, width, height], fill=water)
        for y in range(line + 2, height, max(2, height // 24)):
            draw.line([(sx - sun, y), (sx + sun, y)], fill=_mix(water, horizon, 0.6))
    elif kind == 3:  # a forest of firs
        for _ in range(max(6, width // max(1, height // 6))):
            x = rng.uniform(-0.05, 1.05) * width
            h = height * rng.uniform(0.2, 0.45)
            base = line + height * rng.uniform(0.0, 0.3)
            shade = _mix(ground, (10, 40, 20), rng.uniform(0.3, 0.7))
            draw.polygon([(x - h * 0.3, base), (x, base - h), (x + h * 0.3, base)], fill=shade)
    elif kind == 4:  # a flower close up over a blurred garden
        draw.rectangle([0, 0, width, height], fill=_mix(ground, (230, 240, 220), 0.35))
        cx, cy, r = width * rng.uniform(0.35, 0.65), height * 0.5, min(width, height) * 0.18
        petal = rng.choice(((236, 64, 122), (255, 202, 40), (171, 71, 188), (255, 255, 255)))
        for k in range(8):
            dx, dy = ((1, 0), (0.7, 0.7), (0, 1), (-0.7, 0.7), (-1, 0), (-0.7, -0.7), (0, -1),
                      (0.7, -0.7))[k]
            px, py = cx + dx * r, cy + dy * r
            draw.ellipse([px - r * 0.75, py - r * 0.75, px + r * 0.75, py + r * 0.75],
                         fill=petal)
        draw.ellipse([cx - r * 0.6, cy - r * 0.6, cx + r * 0.6, cy + r * 0.6],
                     fill=(250, 190, 40) if petal != (255, 202, 40) else (120, 70, 20))
    else:  # a skyline
        x = 0
        while x < width:
            w = int(width * rng.uniform(0.06, 0.14))
            h = int(height * rng.uniform(0.12, 0.4))
            draw.rectangle([x, line - h, x + w, line], fill=_mix(ground, (30, 30, 40), 0.6))
            x += w + int(width * 0.01)
    return image


def scene_painter(seed: int) -> Callable[..., None]:
    """A view painter that fills the view with `scene(seed)`; it closes over a number only,
    so an unchanged screen's picture is reused (`bmoca.sim.ui.signature`)."""

    def draw(canvas, view: View) -> None:
        left, top, right, bottom = view.bounds
        canvas.paste(scene(seed, right - left, bottom - top), left, top, view.clip)

    return draw


def photo_painter(vfs: VirtualFS, path: str, seed: int) -> Callable[..., None]:
    """The file's picture centre-cropped to the view (a thumbnail's `centerCrop`), or the
    seed's scene when the file holds no picture (a `touch`ed placeholder)."""

    def draw(canvas, view: View) -> None:
        left, top, right, bottom = view.bounds
        size = (max(1, right - left), max(1, bottom - top))
        image = cropped(vfs.files[path], size) if path in vfs.files else None
        canvas.paste(image if image is not None else scene(seed, *size), left, top,
                     view.clip)

    return draw

"""The sample photo B-MoCA's image holds in `/sdcard/Pictures` (the reference pushes
`99_Colosseum.jpg`, a 6000 × 4000 photograph we cannot ship): a procedurally drawn
amphitheatre under a sky, 1500 × 1000, the same JPEG bytes on every run.

Every phone's boot writes it: it is drawn and encoded once per machine and kept in the data
cache (`bmoca.formats.cachedir`), keyed by this file and the JPEG encoder's versions."""

from __future__ import annotations

import io
import platform
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, features
from PIL import __version__ as pillow

from bmoca.formats import cachedir

SAMPLE_PHOTO_PATH = "/sdcard/Pictures/99_Colosseum.jpg"
WIDTH, HEIGHT = 1500, 1000


@cache
def sample_photo() -> bytes:
    """The photo's JPEG bytes (from the data cache when an earlier process drew them)."""
    versions = (pillow, features.version("jpg") or "", platform.machine())
    key = "\0".join(versions).encode() + b"\0" + Path(__file__).read_bytes()
    return cachedir.cached_bytes("photo", key, _draw)


def _draw() -> bytes:
    image = Image.new("RGB", (WIDTH, HEIGHT))
    draw = ImageDraw.Draw(image)
    for y in range(HEIGHT):  # sky: deep blue to a warm horizon
        t = min(1.0, y / (HEIGHT * 0.62))
        draw.line([(0, y), (WIDTH, y)], fill=(int(70 + 170 * t), int(130 + 80 * t),
                                               int(210 - 60 * t)))
    ground = int(HEIGHT * 0.78)
    draw.rectangle([0, ground, WIDTH, HEIGHT], fill=(150, 132, 104))
    left, right, top = 180, 1320, 300
    draw.rectangle([left, top, right, ground], fill=(196, 160, 112))
    draw.rectangle([left, top, right, top + 40], fill=(176, 140, 96))
    for storey, (y0, y1) in enumerate(((top + 60, top + 170), (top + 200, top + 310),
                                       (top + 340, ground - 10))):
        width = 54 if storey < 2 else 62
        for x in range(left + 30, right - width, width + 26):
            draw.rectangle([x, y0 + width // 2, x + width, y1], fill=(92, 70, 52))
            draw.ellipse([x, y0, x + width, y0 + width], fill=(92, 70, 52))
    draw.polygon([(1180, top), (right, top + 90), (right, ground), (1180, ground)],
                 fill=(170, 138, 98))
    out = io.BytesIO()
    image.save(out, "JPEG", quality=88)
    return out.getvalue()

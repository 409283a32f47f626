"""Product pictures for the catalogue's tiles.

The real app shows each product's photo, cut out on white. These are drawn: a few
recognisable shapes per kind of product (bananas, apples, carrots, eggs, milk, a bag of
pretzels) and a Great Value box for the rest, so a vision agent sees a product picture
where the app has one, the same at every run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

from bmoca.bytecache import byte_lru

if TYPE_CHECKING:
    from bmoca.sim.render.painter import Canvas
    from bmoca.sim.ui.view import View

_SUPERSAMPLE = 4
PRODUCT_IMAGES_BYTES = 8 << 20
"""Product pictures kept, in bytes."""
GREAT_VALUE_BLUE = (0, 113, 206)


def _bananas(d: ImageDraw.ImageDraw, s: int) -> None:
    """A bunch of three: smiles of yellow, stems together at the right."""
    for i, dy in enumerate((0.0, 0.1, 0.2)):
        box = (s * 0.08, s * (-0.15 + dy), s * 0.92, s * (0.65 + dy))
        d.arc(box, 25, 155, fill=(245, 205, 50) if i != 1 else (232, 188, 40),
              width=int(s * 0.11))
    d.rectangle((s * 0.8, s * 0.45, s * 0.9, s * 0.55), fill=(110, 85, 35))


def _apples(d: ImageDraw.ImageDraw, s: int) -> None:
    for cx, cy in ((0.35, 0.58), (0.65, 0.58), (0.5, 0.35)):
        r = s * 0.2
        d.ellipse((s * cx - r, s * cy - r, s * cx + r, s * cy + r), fill=(200, 40, 45))
        d.ellipse((s * cx - r * 0.5, s * cy - r * 0.6, s * cx - r * 0.1, s * cy - r * 0.1),
                  fill=(235, 120, 110))
        d.line((s * cx, s * cy - r, s * cx + r * 0.2, s * cy - r * 1.3), fill=(90, 60, 30),
               width=int(s * 0.03))


def _carrots(d: ImageDraw.ImageDraw, s: int) -> None:
    for i in range(4):
        x = s * (0.2 + 0.16 * i)
        d.polygon([(x, s * 0.3), (x + s * 0.12, s * 0.3), (x + s * 0.06, s * 0.9)],
                  fill=(240, 130, 30))
        d.polygon([(x + s * 0.02, s * 0.3), (x + s * 0.06, s * 0.12), (x + s * 0.1, s * 0.3)],
                  fill=(70, 160, 60))


def _eggs(d: ImageDraw.ImageDraw, s: int) -> None:
    d.rounded_rectangle((s * 0.08, s * 0.5, s * 0.92, s * 0.85), radius=s * 0.05,
                        fill=(190, 200, 210))
    for i in range(4):
        x = s * (0.13 + 0.2 * i)
        d.ellipse((x, s * 0.3, x + s * 0.16, s * 0.58), fill=(250, 248, 240),
                  outline=(210, 205, 195), width=max(1, s // 100))


def _milk(d: ImageDraw.ImageDraw, s: int) -> None:
    d.rounded_rectangle((s * 0.25, s * 0.25, s * 0.75, s * 0.92), radius=s * 0.08,
                        fill=(245, 245, 245), outline=(200, 200, 200), width=max(1, s // 80))
    d.rectangle((s * 0.4, s * 0.1, s * 0.6, s * 0.25), fill=(40, 120, 220))
    d.rectangle((s * 0.25, s * 0.5, s * 0.75, s * 0.68), fill=GREAT_VALUE_BLUE)


def _bag(d: ImageDraw.ImageDraw, s: int) -> None:
    d.polygon([(s * 0.22, s * 0.12), (s * 0.78, s * 0.12), (s * 0.84, s * 0.9),
               (s * 0.16, s * 0.9)], fill=(200, 40, 40))
    d.ellipse((s * 0.33, s * 0.4, s * 0.67, s * 0.72), fill=(170, 110, 50))


def _box(d: ImageDraw.ImageDraw, s: int) -> None:
    d.rectangle((s * 0.2, s * 0.15, s * 0.8, s * 0.9), fill=(250, 250, 250),
                outline=(200, 200, 200), width=max(1, s // 80))
    d.rectangle((s * 0.2, s * 0.35, s * 0.8, s * 0.55), fill=GREAT_VALUE_BLUE)


_KINDS = (("banana", _bananas), ("apple", _apples), ("carrot", _carrots), ("egg", _eggs),
          ("milk", _milk), ("pretzel", _bag))


@byte_lru(PRODUCT_IMAGES_BYTES)
def product_image(name: str, size: int) -> Image.Image:
    """The picture of `name` on white, `size` px square (kept within PRODUCT_IMAGES_BYTES:
    72 dp is 315 px at 700 dpi, 400 kB, and a display may be denser)."""
    big = size * _SUPERSAMPLE
    image = Image.new("RGB", (big, big), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    lowered = name.lower()
    paint = next((fn for key, fn in _KINDS if key in lowered), _box)
    paint(draw, big)
    return image.resize((size, size), Image.LANCZOS)


def product_painter(name: str):
    """A tile's painter of `name`'s picture: a closure over the name alone, so the screen's
    signature holds it and a screen drawn before is reused."""

    def draw_product(canvas: Canvas, view: View) -> None:
        left, top, right, bottom = view.bounds
        size = min(right - left, bottom - top)
        if size > 0:
            canvas.paste(product_image(name, size), (left + right - size) // 2,
                         (top + bottom - size) // 2, view.clip)

    return draw_product

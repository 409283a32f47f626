"""The pictures Wikipedia's feed shows: each article's lead image, and the wordmark.

The app loads them from the wiki (no network here), so they are drawn: Earth from space,
the Colosseum (the phone's own sample photo), the Android 10 logo, the puzzle globe. The
toolbar's wordmark is "WIKIPEDIA" in small capitals of a serif face (Noto Serif standing in
for the logo's Linux Libertine).
"""

from __future__ import annotations

import io
from functools import lru_cache
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw, ImageFont

from bmoca.bytecache import byte_lru

if TYPE_CHECKING:
    from bmoca.sim.render.painter import Canvas
    from bmoca.sim.ui.view import View

SCALED_BYTES = 24 << 20
"""Scaled lead images kept, in bytes (one is as wide as the screen)."""
WORDMARK_BYTES = 2 << 20
"""Wordmarks kept, in bytes."""
_SOURCE = 480  # each picture is kept at 480 x 270 and scaled to its view


def _earth() -> Image.Image:
    image = Image.new("RGB", (_SOURCE, _SOURCE * 9 // 16), (4, 6, 20))
    d = ImageDraw.Draw(image)
    for x, y in ((40, 30), (400, 60), (90, 220), (430, 200), (250, 15), (330, 240)):
        d.point((x, y), fill=(230, 230, 240))
    cx, cy, r = 240, 135, 110
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(30, 90, 170))
    for box in ((170, 60, 260, 140), (250, 110, 320, 200), (190, 160, 230, 215)):
        d.ellipse(box, fill=(70, 130, 60))
    for box in ((150, 40, 240, 70), (260, 170, 340, 190), (160, 120, 230, 135)):
        d.ellipse(box, fill=(240, 244, 248))
    return image


def _colosseum() -> Image.Image:
    from bmoca.assets.photos import sample_photo

    photo = Image.open(io.BytesIO(sample_photo())).convert("RGB")
    width = photo.width
    height = width * 9 // 16
    top = (photo.height - height) // 2
    return photo.crop((0, top, width, top + height)).resize((_SOURCE, _SOURCE * 9 // 16))


def _android() -> Image.Image:
    image = Image.new("RGB", (_SOURCE, _SOURCE * 9 // 16), (7, 48, 66))
    d = ImageDraw.Draw(image)
    green = (61, 220, 132)
    d.pieslice((150, 70, 330, 250), 180, 360, fill=green)  # the robot's head
    d.ellipse((200, 120, 216, 136), fill=(7, 48, 66))
    d.ellipse((264, 120, 280, 136), fill=(7, 48, 66))
    d.line((185, 85, 165, 55), fill=green, width=6)
    d.line((295, 85, 315, 55), fill=green, width=6)
    d.text((226, 190), "10", fill=(255, 255, 255), font=_serif(48), anchor="lm")
    return image


def _globe() -> Image.Image:
    image = Image.new("RGB", (_SOURCE, _SOURCE * 9 // 16), (248, 249, 250))
    d = ImageDraw.Draw(image)
    cx, cy, r = 240, 135, 100
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(200, 200, 200), outline=(120, 120, 120),
              width=3)
    for dx in (-50, 0, 50):
        d.line((cx + dx, cy - r + 12, cx + dx, cy + r - 12), fill=(120, 120, 120), width=2)
    for dy in (-50, 0, 50):
        d.line((cx - r + 12, cy + dy, cx + r - 12, cy + dy), fill=(120, 120, 120), width=2)
    d.polygon([(cx + 20, cy - r), (cx + 70, cy - r + 20), (cx + 50, cy - 40), (cx + 10, cy - 60)],
              fill=(248, 249, 250))  # the missing piece at the top
    return image


_PICTURES = {"Earth": _earth, "Colosseum": _colosseum, "Android 10": _android,
             "Wikipedia": _globe}


@lru_cache(maxsize=8)
def picture(title: str) -> Image.Image:
    """An article's picture at 480 x 270: at most 8 entries of 389 kB each (3.1 MB)."""
    return _PICTURES.get(title, _globe)()


@byte_lru(SCALED_BYTES)
def _scaled(title: str, width: int, height: int) -> Image.Image:
    """The lead image cropped to fill `width` x `height`: at most 16 screen-wide pictures
    (1440 x 800 px at most, 3.5 MB each; 55 MB) ."""
    source = picture(title)
    scale = max(width / source.width, height / source.height)
    resized = source.resize((max(1, round(source.width * scale)),
                             max(1, round(source.height * scale))), Image.BILINEAR)
    left = (resized.width - width) // 2
    top = (resized.height - height) // 2
    return resized.crop((left, top, left + width, top + height))


def picture_painter(title: str):
    """A view's painter of `title`'s lead image, cropped to fill the view (centerCrop)."""

    def draw_picture(canvas: Canvas, view: View) -> None:
        left, top, right, bottom = view.bounds
        if right > left and bottom > top:
            canvas.paste(_scaled(title, right - left, bottom - top), left, top, view.clip)

    return draw_picture


@lru_cache(maxsize=4)  # a face is 0.2-0.5 MB and a new display brings its own sizes
def _serif(size: int) -> ImageFont.FreeTypeFont:
    from bmoca.sim.render.fonts import family_file

    return ImageFont.truetype(family_file("Noto Serif"), size)


@byte_lru(WORDMARK_BYTES)
def wordmark(height: int, color: tuple[int, ...]) -> Image.Image:
    """"WIKIPEDIA" with the W and the A at full size and the rest in small capitals."""
    big, small = _serif(height), _serif(max(1, round(height * 0.78)))
    parts = [("W", big), ("IKIPEDI", small), ("A", big)]
    width = sum(round(font.getlength(s)) for s, font in parts) + 2
    image = Image.new("RGBA", (width, round(height * 1.3)), (0, 0, 0, 0))
    d = ImageDraw.Draw(image)
    x, baseline = 0, round(height * 1.0)
    for s, font in parts:
        d.text((x, baseline), s, font=font, fill=tuple(color[:3]), anchor="ls")
        x += round(font.getlength(s))
    return image


def draw_wordmark(canvas: Canvas, view: View) -> None:
    left, top, right, bottom = view.bounds
    mark = wordmark(canvas.px(20), tuple(view.text_color or canvas.theme.text))
    x = right - mark.width if canvas.rtl else left
    canvas.paste(mark, x, (top + bottom - mark.height) // 2, view.clip)

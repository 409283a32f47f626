"""Photos on the storage as apps draw them: decoded from the file's bytes, and cropped to a
square tile as an `ImageView` with `scaleType="centerCrop"` shows a thumbnail (the file
picker's grid). Snapseed's editor (`apps/snapseed/photo.py`) decodes through here too.

Decoding and cropping are cached by the bytes and the size (pure functions: the same file
draws the same pixels), so redrawing a grid costs no decoding."""

from __future__ import annotations

import io
import zlib
from collections.abc import Callable

from PIL import Image, ImageOps

from bmoca.bytecache import byte_lru
from bmoca.sim.system.vfs import VirtualFS
from bmoca.sim.ui.view import View

ERRORS = (OSError, ValueError, Image.DecompressionBombError)
"""What Pillow raises on bytes that are not a picture it can read."""
DECODED_BYTES = 48 << 20
"""Decoded photos kept, in bytes (with the file bytes their keys hold): a photo is any size."""
CROPPED_BYTES = 16 << 20
"""Cropped tiles kept, in bytes."""


def decode(raw: bytes) -> Image.Image:
    """The picture as RGB; raises one of ERRORS when the bytes are not an image."""
    return _decode(raw, zlib.crc32(raw))


def decodes(raw: bytes) -> bool:
    try:
        decode(raw)
    except ERRORS:
        return False
    return True


@byte_lru(DECODED_BYTES)
def _decode(raw: bytes, crc: int) -> Image.Image:
    image = Image.open(io.BytesIO(raw))
    image.load()
    return image.convert("RGB")


@byte_lru(CROPPED_BYTES)
def _cropped(raw: bytes, crc: int, size: tuple[int, int]) -> Image.Image:
    return ImageOps.fit(_decode(raw, crc), size)


def cropped(raw: bytes, size: tuple[int, int]) -> Image.Image | None:
    """The picture scaled to cover `size` and cut to it, centred; None if not an image."""
    try:
        return _cropped(raw, zlib.crc32(raw), size)
    except ERRORS:
        return None


def thumbnail_painter(vfs: VirtualFS, path: str) -> Callable[..., None]:
    """A view painter that fills the view with the file's picture, centre-cropped; a file
    that is not an image (or is gone) leaves the view's background."""

    def draw(canvas, view: View) -> None:
        if path not in vfs.files:
            return
        left, top, right, bottom = view.bounds
        image = cropped(vfs.files[path], (max(1, right - left), max(1, bottom - top)))
        if image is not None:
            canvas.paste(image, left, top, view.clip)

    return draw

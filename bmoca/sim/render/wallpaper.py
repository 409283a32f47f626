"""The wallpapers screens show, decoded at one screen size at a time.

A decoded 1080×2160 wallpaper is 9 MB (Pillow keeps RGB at 4 bytes a pixel). Kept decoded
per file and size, as many as eight, they were most of what a phone of a new configuration
added to a process. Now only the last one painted stays decoded (more only while they fit
in `DECODED_BYTES`); the others are kept as their pixels compressed with zlib at level 1
(0.15–1 MB each), which inflate to the same pixels in 6–14 ms, against 16–34 ms to decode
the PNG again and far more to draw the default one.
"""

from __future__ import annotations

import io
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Hashable

from PIL import Image

DECODED_BYTES = 12 << 20
"""Decoded wallpapers kept beyond the last one painted, while their pixels fit."""
PACKED_BYTES = 16 << 20
"""Compressed wallpapers kept, least recently used dropped first."""


def decode(blob: bytes, width: int, height: int) -> Image.Image:
    """Decode and center-crop a wallpaper file to the screen, as the system does; a file of
    the screen's size is taken as it is (resizing and cropping it would copy it twice)."""
    img = Image.open(io.BytesIO(blob))
    img = img.convert("RGB") if img.mode != "RGB" else _loaded(img)
    if img.size == (width, height):
        return img
    scale = max(width / img.width, height / img.height)
    size = (max(width, round(img.width * scale)), max(height, round(img.height * scale)))
    img = img.resize(size, Image.BILINEAR)
    left, top = (img.width - width) // 2, (img.height - height) // 2
    return img.crop((left, top, left + width, top + height))


def _loaded(img: Image.Image) -> Image.Image:
    img.load()
    return img


def decoded_bytes(image: Image.Image) -> int:
    """What a decoded RGB wallpaper holds: Pillow stores a pixel in 4 bytes."""
    return image.width * image.height * 4


class WallpaperCache:
    """`get(key, make)`: the RGB image `make()` gives for `key`, kept decoded only while it
    is among the last painted, and otherwise as its zlib-compressed pixels."""

    def __init__(self, decoded_budget: int = DECODED_BYTES,
                 packed_budget: int = PACKED_BYTES) -> None:
        self.decoded_budget = int(decoded_budget)
        self.packed_budget = int(packed_budget)
        self._decoded: OrderedDict[Hashable, Image.Image] = OrderedDict()
        self._packed: OrderedDict[Hashable, tuple[bytes, tuple[int, int]]] = OrderedDict()
        self._packed_bytes = 0
        self._lock = threading.Lock()
        self.made = self.inflated = 0
        """How many were made with `make()`, and how many inflated from the compressed form."""

    def get(self, key: Hashable, make: Callable[[], Image.Image]) -> Image.Image:
        with self._lock:
            image = self._decoded.get(key)
            if image is not None:
                self._decoded.move_to_end(key)
                return image
            packed = self._packed.get(key)
            if packed is not None:
                self._packed.move_to_end(key)
        if packed is not None:
            image = Image.frombytes("RGB", packed[1], zlib.decompress(packed[0]))
        else:
            image = make()
            if image.mode != "RGB":
                image = image.convert("RGB")
            packed = (zlib.compress(image.tobytes(), 1), image.size)
        with self._lock:
            if key in self._packed:
                self.inflated += 1
            else:
                self.made += 1
            self._keep_decoded(key, image)
            if key not in self._packed and len(packed[0]) <= self.packed_budget:
                self._packed[key] = packed
                self._packed_bytes += len(packed[0])
                while self._packed_bytes > self.packed_budget:
                    _, (dropped, _) = self._packed.popitem(last=False)
                    self._packed_bytes -= len(dropped)
        return image

    def _keep_decoded(self, key: Hashable, image: Image.Image) -> None:
        self._decoded[key] = image
        self._decoded.move_to_end(key)
        total = sum(decoded_bytes(i) for i in self._decoded.values())
        while len(self._decoded) > 1 and total > self.decoded_budget:
            _, dropped = self._decoded.popitem(last=False)
            total -= decoded_bytes(dropped)

    @property
    def nbytes(self) -> int:
        """Bytes held: the decoded images' pixels and the compressed forms."""
        with self._lock:
            return (sum(decoded_bytes(i) for i in self._decoded.values())
                    + self._packed_bytes)

    def cache_clear(self) -> None:
        with self._lock:
            self._decoded.clear()
            self._packed.clear()
            self._packed_bytes = 0


WALLPAPERS = WallpaperCache()
"""The process's wallpapers, shared by its phones."""

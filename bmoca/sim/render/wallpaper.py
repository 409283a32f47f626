"""The wallpapers screens show, decoded into one reused image per screen size.

A decoded 1080×2160 wallpaper is 9 MB (Pillow keeps RGB at 4 bytes a pixel). Kept decoded
per file and size, as many as eight, they were most of what a phone of a new configuration
added to a process; and each one decoded and later dropped left a 9 MB hole in the C heap
under what was allocated after it, which the process kept. Now a screen size has one
decoded image (`DECODED_BYTES` bounds the sizes kept), which the wallpaper shown last
fills in place; every wallpaper met is kept as its pixels compressed with zlib at level 1
(0.15–1 MB each), which inflate, a band of rows at a time, into that image to the same
pixels in 6–14 ms (against 16–34 ms to decode the PNG again, and far more to draw the
default one). The compressed form is also kept on disk (`stored`, the asset cache), so a
new process inflates a wallpaper an earlier one met instead of decoding the PNG and
compressing the result again (a fifth of a cold start's first frame).
"""

from __future__ import annotations

import io
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from pathlib import Path

from PIL import Image

from bmoca.bytecache import megabytes_env
from bmoca.formats import cachedir

DECODED_BYTES = 12 << 20
"""Decoded images of other screen sizes kept beside the last one used, while they fit."""
PACKED_BYTES = 16 << 20
"""Compressed wallpapers kept, least recently used dropped first."""
_BAND_BYTES = 256 << 10
"""Rows are compressed and inflated this many bytes at a time: no full-size buffer."""


def decode(blob: bytes, width: int, height: int) -> Image.Image:
    """Decode and center-crop a wallpaper file to the screen, as the system does."""
    img = Image.open(io.BytesIO(blob))
    img.load()
    if img.mode != "RGB":  # converting or resizing to what it is would only copy the pixels
        img = img.convert("RGB")
    scale = max(width / img.width, height / img.height)
    size = (max(width, round(img.width * scale)), max(height, round(img.height * scale)))
    if img.size != size:
        img = img.resize(size, Image.BILINEAR)
    if img.size == (width, height):
        return img  # as the screen is: cropping would copy it too
    left, top = (img.width - width) // 2, (img.height - height) // 2
    return img.crop((left, top, left + width, top + height))


def decoded_bytes(image: Image.Image) -> int:
    """What a decoded RGB wallpaper holds: Pillow stores a pixel in 4 bytes."""
    return image.width * image.height * 4


def _bands(width: int, height: int) -> Iterator[tuple[int, int]]:
    rows = max(1, _BAND_BYTES // (3 * width))
    for top in range(0, height, rows):
        yield top, min(rows, height - top)


def _deflate(image: Image.Image) -> bytes:
    stream = zlib.compressobj(1)
    width = image.width
    parts = [stream.compress(image.crop((0, top, width, top + rows)).tobytes())
             for top, rows in _bands(width, image.height)]
    parts.append(stream.flush())
    return b"".join(parts)


def _inflate(packed: bytes, image: Image.Image) -> bool:
    """Fill `image` from its compressed pixels; False when they are not exactly its pixels
    (a damaged file on disk: then the wallpaper is made again)."""
    stream = zlib.decompressobj()
    tail, width = packed, image.width
    try:
        for top, rows in _bands(width, image.height):
            chunk = stream.decompress(tail, 3 * width * rows)
            tail = stream.unconsumed_tail
            if len(chunk) != 3 * width * rows:
                return False
            image.paste(Image.frombytes("RGB", (width, rows), chunk), (0, top))
    except zlib.error:
        return False
    return not tail and not stream.flush()


class WallpaperCache:
    """`with cache.shown(key, size, make) as image`: the RGB image `make()` gives for `key`
    at `size` (a new image, which the cache keeps and fills again). The image is the
    size's one decoded image, valid only inside the block
    (the cache is locked meanwhile); the next wallpaper shown at that size replaces it."""

    def __init__(self, decoded_budget: int = DECODED_BYTES,
                 packed_budget: int = PACKED_BYTES, spare_budget: int = 0) -> None:
        self.decoded_budget = int(decoded_budget)
        self.packed_budget = int(packed_budget)
        self.spare_budget = int(spare_budget)
        """Bytes of further decoded wallpapers kept beside each size's shown one (none by
        default): a process that steps phones of different wallpapers in turn (a
        `SyncVectorEnv` over configurations) then swaps images instead of inflating one
        at every home screen, at 9 MB a wallpaper of a 1080×2160 screen."""
        self._slots: OrderedDict[tuple[int, int], list] = OrderedDict()
        """size -> [the key shown in it (None while being filled), its image]."""
        self._spares: OrderedDict[tuple[Hashable, tuple[int, int]], Image.Image] = OrderedDict()
        """(key, size) -> a decoded wallpaper shown before, kept within `spare_budget`."""
        self._packed: OrderedDict[Hashable, bytes] = OrderedDict()
        self._packed_bytes = 0
        self._lock = threading.Lock()
        self.made = self.inflated = 0
        """How many were made with `make()`, and how many inflated from the compressed form."""

    @contextmanager
    def shown(self, key: Hashable, size: tuple[int, int], make: Callable[[], Image.Image],
              stored: Callable[[], Path | None] | None = None) -> Iterator[Image.Image]:
        """`stored()`: the file that keeps the compressed form between processes (None:
        not kept); asked only when this process has not met the wallpaper."""
        with self._lock:
            yield self._fill(key, (int(size[0]), int(size[1])), make, stored)

    def _fill(self, key: Hashable, size: tuple[int, int], make: Callable[[], Image.Image],
              stored: Callable[[], Path | None] | None = None) -> Image.Image:
        slot = self._slots.get(size)
        if slot is not None:
            self._slots.move_to_end(size)
            if slot[0] is not None and slot[0] == key:
                return slot[1]
            if self.spare_budget > 0 and self._swap(slot, key, size):
                return slot[1]
            slot[0] = None
        packed = self._packed.get((key, size))
        entry = None
        if packed is not None:
            self._packed.move_to_end((key, size))
        elif stored is not None:
            entry = stored()
            packed = cachedir.read(entry) if entry is not None else None
        if packed is not None:
            if slot is None:  # not cleared first: inflating (or else `make`) fills every row
                slot = self._new_slot(size, Image.new("RGB", size, None))
            if _inflate(packed, slot[1]):
                if entry is not None:
                    self._pack((key, size), packed)
                self.inflated += 1
                slot[0] = key
                return slot[1]
        made = make()  # new to the process and the disk, or a damaged file
        if made.size != size:
            raise ValueError(f"wallpaper of {made.size}, not the screen's {size}")
        made = made if made.mode == "RGB" else made.convert("RGB")
        if slot is None:  # the first at this size becomes its image: no copy
            slot = self._new_slot(size, made)
        else:
            slot[1].paste(made)
        del made
        packed = _deflate(slot[1])
        self._pack((key, size), packed)
        if entry is not None:
            cachedir.write(entry, packed)
        self.made += 1
        slot[0] = key
        return slot[1]

    def _swap(self, slot: list, key: Hashable, size: tuple[int, int]) -> bool:
        """True when `key`'s image was a spare and is now the slot's. Otherwise the slot's
        image joins the spares, if they have room for it or have one of its size to give
        up (whose image the slot is then filled into), and False: fill `slot[1]`."""
        shown, image = slot
        spare = self._spares.pop((key, size), None)
        if spare is not None:
            if shown is not None:
                self._spares[(shown, size)] = image
            slot[0], slot[1] = key, spare
            return True
        if shown is None:
            return False
        used = sum(decoded_bytes(i) for i in self._spares.values())
        if used + decoded_bytes(image) <= self.spare_budget:
            fresh = Image.new("RGB", size)
        else:
            oldest = next((k for k in self._spares if k[1] == size), None)
            if oldest is None:
                return False  # no room: filled in place, as without spares
            fresh = self._spares.pop(oldest)
        self._spares[(shown, size)] = image
        slot[1] = fresh
        return False

    def _new_slot(self, size: tuple[int, int], image: Image.Image) -> list:
        slot = self._slots[size] = [None, image]
        self._drop_slots()
        return slot

    def _drop_slots(self) -> None:
        total = sum(decoded_bytes(image) for _, image in self._slots.values())
        while len(self._slots) > 1 and total > self.decoded_budget:
            _, (_, dropped) = self._slots.popitem(last=False)
            total -= decoded_bytes(dropped)

    def _pack(self, key: Hashable, packed: bytes) -> None:
        if len(packed) > self.packed_budget:
            return
        self._packed[key] = packed
        self._packed_bytes += len(packed)
        while self._packed_bytes > self.packed_budget:
            _, dropped = self._packed.popitem(last=False)
            self._packed_bytes -= len(dropped)

    @property
    def nbytes(self) -> int:
        """Bytes held: the decoded images' pixels and the compressed forms."""
        with self._lock:
            return (sum(decoded_bytes(image) for _, image in self._slots.values())
                    + sum(decoded_bytes(image) for image in self._spares.values())
                    + self._packed_bytes)

    def cache_clear(self) -> None:
        with self._lock:
            self._slots.clear()
            self._spares.clear()
            self._packed.clear()
            self._packed_bytes = 0


WALLPAPERS = WallpaperCache(spare_budget=megabytes_env("BMOCA_SPARE_WALLPAPERS_MB", 0))
"""The process's wallpapers, shared by its phones (`BMOCA_SPARE_WALLPAPERS_MB` keeps that
many megabytes of other decoded wallpapers for processes that switch between phones)."""

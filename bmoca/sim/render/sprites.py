"""A sprite cache bounded by bytes, not entries.

Label and icon sprites range from a few hundred bytes to a few hundred KB, so a cache of
N entries can hold anything from a megabyte to a gigabyte: an `lru_cache(4096)` of labels
made a long pixel run grow by tens of MB as it met new screens. This cache evicts least
recently used sprites once their pixels pass a byte budget, so memory stays flat.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from functools import _CacheInfo
from typing import Any

from PIL import Image


def sprite_bytes(image: Any) -> int:
    """The pixel bytes a cached value holds (0 for what is not an image)."""
    if isinstance(image, Image.Image):
        return image.width * image.height * len(image.getbands())
    return 0


class SpriteCache:
    """`cache(fn)(*args)`: fn's results for hashable args, LRU within `budget` bytes."""

    def __init__(self, fn: Callable[..., Any], budget: int) -> None:
        self._fn = fn
        self.budget = int(budget)
        self._items: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._bytes = 0
        self._hits = self._misses = 0
        self._lock = threading.Lock()

    def __call__(self, *args: Hashable) -> Any:
        with self._lock:
            found = self._items.get(args)
            if found is not None:
                self._items.move_to_end(args)
                self._hits += 1
                return found[0]
            self._misses += 1
        value = self._fn(*args)
        size = sprite_bytes(value)
        with self._lock:
            if args not in self._items and size <= self.budget:
                self._items[args] = (value, size)
                self._bytes += size
                while self._bytes > self.budget:
                    _, (_, dropped) = self._items.popitem(last=False)
                    self._bytes -= dropped
        return value

    def cache_info(self) -> _CacheInfo:
        with self._lock:
            return _CacheInfo(self._hits, self._misses, None, len(self._items))

    @property
    def nbytes(self) -> int:
        return self._bytes

    def cache_clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._bytes = 0

"""Caches bounded by bytes, not entries.

A cache of N entries holds anything from a kilobyte to a gigabyte when its values vary in
size (a label sprite is a few hundred bytes or a few hundred KB; a parsed command line is
as long as the line): an `lru_cache(4096)` of labels made a long pixel run grow by tens of
MB as it met new screens. `ByteLRU` evicts the least recently used entries once what they
hold (key and value, as `approx_bytes` counts it) passes a byte budget, so memory stays
flat however long the process runs and whatever it is sent.

Caches of small values of fixed size keep `functools.lru_cache(maxsize=N)` where a comment
gives the byte bound N entries imply: it is faster on hot paths.
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import fields, is_dataclass
from functools import _CacheInfo, update_wrapper
from typing import Any, Generic, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

ENTRY_BYTES = 200
"""What an entry costs beside its key and value: its slot in the ordered dict and the
(value, size) pair (so that even entries of empty values add up to the budget)."""
_DEPTH = 12
"""How deep `approx_bytes` follows containers (deeper parts count as their shell only)."""


def approx_bytes(obj: Any, _seen: set[int] | None = None, _depth: int = 0) -> int:
    """The bytes `obj` holds: images and arrays by their pixels or buffer, containers,
    dataclasses and objects with a `__dict__` by what they hold (each object once).

    An estimate that errs high (shared objects, such as interned strings, count in full):
    what matters is that it grows with what the value holds."""
    seen = set() if _seen is None else _seen
    if id(obj) in seen:
        return 0
    seen.add(id(obj))
    if hasattr(obj, "getbands") and hasattr(obj, "width"):  # a PIL image: its pixels
        return obj.width * obj.height * len(obj.getbands()) + 200
    nbytes = getattr(obj, "nbytes", None)
    if isinstance(nbytes, int) and not isinstance(obj, type):  # numpy arrays and the like
        return nbytes + 112
    size = sys.getsizeof(obj, 64)
    if _depth >= _DEPTH or isinstance(obj, str | bytes | bytearray | int | float | complex
                                      | bool | type(None) | type):
        return size
    if isinstance(obj, tuple | list | set | frozenset):
        return size + sum(approx_bytes(item, seen, _depth + 1) for item in obj)
    if isinstance(obj, dict):
        return size + sum(approx_bytes(k, seen, _depth + 1) + approx_bytes(v, seen, _depth + 1)
                          for k, v in obj.items())
    if is_dataclass(obj):
        return size + sum(approx_bytes(getattr(obj, f.name, None), seen, _depth + 1)
                          for f in fields(obj))
    held = getattr(obj, "__dict__", None)
    if isinstance(held, dict):
        return size + approx_bytes(held, seen, _depth + 1)
    return size


class ByteLRU(Generic[P, R]):
    """`ByteLRU(fn, budget)(*args)`: fn's results for hashable arguments, least recently
    used first out once entries hold more than `budget` bytes (keys counted too: a key
    can be a long string). A result bigger than the budget is returned, not kept.

    Like `functools.lru_cache`: `cache_info()`, `cache_clear()`, `__wrapped__`; plus
    `nbytes`, what its entries hold now. Thread-safe; `fn` runs outside the lock."""

    def __init__(self, fn: Callable[P, R], budget: int,
                 sizeof: Callable[[tuple, Any], int] | None = None,
                 maxsize: int | None = None) -> None:
        self._fn = fn
        self.budget = int(budget)
        self.maxsize = maxsize
        """Entries kept at most besides (None: no count): for caches of what was seen
        lately, whose older entries are never asked for again."""
        self._sizeof = sizeof or (lambda key, value: approx_bytes(key) + approx_bytes(value))
        """(key, value) -> bytes: a cache of values `approx_bytes` cannot see into (lxml
        trees) gives its own estimate."""
        self._items: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._bytes = 0
        self._hits = self._misses = 0
        self._lock = threading.Lock()
        update_wrapper(self, fn)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        key: Hashable = args + (_KWARGS, *kwargs.items()) if kwargs else args
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
                self._hits += 1
                return found[0]
            self._misses += 1
        value = self._fn(*args, **kwargs)
        size = ENTRY_BYTES + self._sizeof(key, value)
        with self._lock:
            if key not in self._items and size <= self.budget:
                self._items[key] = (value, size)
                self._bytes += size
                while self._bytes > self.budget or (
                        self.maxsize is not None and len(self._items) > self.maxsize):
                    _, (_, dropped) = self._items.popitem(last=False)
                    self._bytes -= dropped
        return value

    def cache_info(self) -> _CacheInfo:
        with self._lock:
            return _CacheInfo(self._hits, self._misses, self.maxsize, len(self._items))

    @property
    def nbytes(self) -> int:
        """Bytes its entries hold now (as counted when they were kept)."""
        return self._bytes

    def cache_clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._bytes = 0


_KWARGS = object()
"""Separates positional from keyword arguments in a key."""


def byte_lru(budget: int, sizeof: Callable[[tuple, Any], int] | None = None,
             maxsize: int | None = None) -> Callable[[Callable[P, R]], ByteLRU[P, R]]:
    """`@byte_lru(8 << 20)`: the decorator form of `ByteLRU`."""
    return lambda fn: ByteLRU(fn, budget, sizeof, maxsize)


def text_bytes(factor: int) -> Callable[[tuple, Any], int]:
    """A `sizeof` for values parsed from their first argument, a text, that hold what
    `approx_bytes` cannot see into (an lxml tree is C memory): `factor` bytes a character."""
    return lambda key, value: factor * len(key[0]) + sys.getsizeof(key[0])

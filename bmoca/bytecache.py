"""Caches bounded by bytes, not entries.

A cache of N entries holds anything from a kilobyte to a gigabyte when its values vary in
size (a label sprite is a few hundred bytes or a few hundred KB; a parsed command line is
as long as the line): an `lru_cache(4096)` of labels made a long pixel run grow by tens of
MB as it met new screens. `ByteLRU` evicts the least recently used entries once what they
hold (key and value, as `approx_bytes` counts it) passes a byte budget, so memory stays
flat however long the process runs and whatever it is sent.

Each cache has its own budget, and all of them share one more: `SHARED`, what the process's
caches may hold together (`BMOCA_MEMORY_CACHE_MB`, 160 by default). The budgets of the
separate caches add up to about 500 MB, and a long run fills them at the pace at which it
meets rare screens (a map, a Snapseed edit), so its memory crept up for tens of thousands
of steps; under the shared budget the least recently used entry of any cache goes first,
and memory stops growing once that one budget is full.

Caches of small values of fixed size keep `functools.lru_cache(maxsize=N)` where a comment
gives the byte bound N entries imply: it is faster on hot paths.
"""

from __future__ import annotations

import itertools
import os
import sys
import threading
import weakref
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
SHARED_BUDGET_ENV = "BMOCA_MEMORY_CACHE_MB"
_SHARED_DEFAULT_MB = 160
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


_TICKS = itertools.count()
"""The process's clock of cache uses: every hit and every new entry takes the next tick."""
_DEFAULT = object()
"""`ByteLRU(shared=...)` not given: the process's `SHARED` budget."""


def megabytes_env(name: str, default: float) -> int:
    """Bytes from an environment variable in megabytes (empty: `default`); one clear
    error for anything that is not a finite number of 0 or more."""
    value = os.environ.get(name, "").strip() or str(default)
    try:
        megabytes = float(value)
    except ValueError:
        megabytes = -1.0
    if not 0 <= megabytes < float("inf"):  # also NaN: a budget is a bound
        raise ValueError(f"{name} must be a number of megabytes (0 or more), not {value!r}")
    return int(megabytes * (1 << 20))


class SharedBudget:
    """A byte budget that several `ByteLRU`s share on top of their own: once what they hold
    together passes it, the least recently used entry among all of them goes first.

    `budget` is bytes, or the name of an environment variable in megabytes read when the
    budget is first needed (so a bad value is an error of the command that runs, not of
    an import)."""

    def __init__(self, budget: int | str, default_mb: float = 0) -> None:
        self._budget = budget if isinstance(budget, int) else None
        self._env = budget if isinstance(budget, str) else None
        self._default_mb = default_mb
        self._caches: weakref.WeakSet[ByteLRU] = weakref.WeakSet()
        self._lock = threading.Lock()

    @property
    def budget(self) -> int:
        if self._budget is None:
            assert self._env is not None
            self._budget = megabytes_env(self._env, self._default_mb)
        return self._budget

    def add(self, cache: ByteLRU) -> None:
        with self._lock:
            self._caches.add(cache)

    @property
    def nbytes(self) -> int:
        """What the caches sharing it hold now."""
        return sum(cache.nbytes for cache in list(self._caches))

    def trim(self) -> None:
        """Drop entries, least recently used first across the caches, until they fit.

        Called by a cache after it released its own lock (a cache's lock is only ever
        taken inside this one, never the other way round: no deadlock)."""
        if self.nbytes <= self.budget:
            return
        with self._lock:
            caches = list(self._caches)
            total = sum(cache.nbytes for cache in caches)
            while total > self.budget:
                uses = [(use, n) for n, cache in enumerate(caches)
                        if (use := cache.oldest_use()) is not None]
                if not uses:
                    return
                victim = caches[min(uses)[1]]
                before = victim.nbytes
                victim.drop_oldest()
                total -= before - victim.nbytes


class ByteLRU(Generic[P, R]):
    """`ByteLRU(fn, budget)(*args)`: fn's results for hashable arguments, least recently
    used first out once entries hold more than `budget` bytes (keys counted too: a key
    can be a long string). A result bigger than the budget is returned, not kept.

    Like `functools.lru_cache`: `cache_info()`, `cache_clear()`, `__wrapped__`; plus
    `nbytes`, what its entries hold now. Thread-safe; `fn` runs outside the lock."""

    def __init__(self, fn: Callable[P, R], budget: int,
                 sizeof: Callable[[tuple, Any], int] | None = None,
                 maxsize: int | None = None,
                 shared: SharedBudget | None | object = _DEFAULT) -> None:
        self._fn = fn
        self.budget = int(budget)
        self.maxsize = maxsize
        """Entries kept at most besides (None: no count): for caches of what was seen
        lately, whose older entries are never asked for again."""
        self._sizeof = sizeof or (lambda key, value: approx_bytes(key) + approx_bytes(value))
        """(key, value) -> bytes: a cache of values `approx_bytes` cannot see into (lxml
        trees) gives its own estimate."""
        self._items: OrderedDict[Hashable, list[Any]] = OrderedDict()
        """key -> [value, bytes, tick of its last use], least recently used first."""
        self._bytes = 0
        self._hits = self._misses = 0
        self._lock = threading.Lock()
        self._shared: SharedBudget | None = SHARED if shared is _DEFAULT else shared
        """The budget this cache shares with the process's others (None: its own only)."""
        if self._shared is not None:
            self._shared.add(self)
        update_wrapper(self, fn)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        key: Hashable = args + (_KWARGS, *kwargs.items()) if kwargs else args
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
                found[2] = next(_TICKS)
                self._hits += 1
                return found[0]
            self._misses += 1
        value = self._fn(*args, **kwargs)
        size = ENTRY_BYTES + self._sizeof(key, value)
        with self._lock:
            if key not in self._items and size <= self.budget:
                self._items[key] = [value, size, next(_TICKS)]
                self._bytes += size
                while self._bytes > self.budget or (
                        self.maxsize is not None and len(self._items) > self.maxsize):
                    self._drop_oldest()
        if self._shared is not None:
            self._shared.trim()
        return value

    def _drop_oldest(self) -> None:
        """Forget the least recently used entry (the caller holds the lock)."""
        _, (_, dropped, _) = self._items.popitem(last=False)
        self._bytes -= dropped

    def oldest_use(self) -> int | None:
        """When the least recently used entry was last used (a tick of the process's
        clock of cache uses), or None when empty: how `SharedBudget` picks what goes."""
        with self._lock:
            for entry in self._items.values():
                return entry[2]
            return None

    def drop_oldest(self) -> None:
        """Forget the least recently used entry, if any (for `SharedBudget`)."""
        with self._lock:
            if self._items:
                self._drop_oldest()

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


SHARED = SharedBudget(SHARED_BUDGET_ENV, _SHARED_DEFAULT_MB)
"""What all the process's byte-bounded caches may hold together (`BMOCA_MEMORY_CACHE_MB`)."""


def byte_lru(budget: int, sizeof: Callable[[tuple, Any], int] | None = None,
             maxsize: int | None = None) -> Callable[[Callable[P, R]], ByteLRU[P, R]]:
    """`@byte_lru(8 << 20)`: the decorator form of `ByteLRU`."""
    return lambda fn: ByteLRU(fn, budget, sizeof, maxsize)


def text_bytes(factor: int) -> Callable[[tuple, Any], int]:
    """A `sizeof` for values parsed from their first argument, a text, that hold what
    `approx_bytes` cannot see into (an lxml tree is C memory): `factor` bytes a character."""
    return lambda key, value: factor * len(key[0]) + sys.getsizeof(key[0])

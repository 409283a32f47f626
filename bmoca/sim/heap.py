"""Free heap pages go back to the system between episodes.

glibc's allocator keeps what `free()` releases inside the heap for later use. A simulated
phone draws and drops images of a few MB (screens, photos, maps, shadows) all the time,
and a hole left by one can only be reused by a block that fits it: over a long pixel run
the heap's free space grew from about 55 to 110 MB on top of everything held, so resident
memory kept rising with nothing leaking (`benchmarks/soak.py`, README "Reliability").
`malloc_trim(0)` hands every whole free page back (the holes inside the heap too, not just
its top). It costs about 5 to 10 ms on a 300 MB heap, and the pages come back dirty as the
next screens are drawn, so it runs where drawing happens: at a phone's reset once
`PAINTS_BEFORE_RESET_TRIM` screens have been painted since the last time, and in the
middle of a long episode every `PAINTS_BETWEEN_TRIMS` (well under 1 ms a painted screen,
which takes 7 ms and more). Text and XML observations paint nothing and never trim.

It changes no result: what is freed was free. Where the C library has no `malloc_trim`
(macOS, musl) nothing is done; `BMOCA_TRIM_HEAP=0` turns it off.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import threading

PAINTS_BEFORE_RESET_TRIM = 16
"""Screens painted process-wide since the last trim for a reset to trim."""
PAINTS_BETWEEN_TRIMS = 64
"""Screens painted process-wide after which the next paint trims, reset or not."""
ENV = "BMOCA_TRIM_HEAP"
_OFF = ("0", "off", "no", "false")

_lock = threading.Lock()
_paints_since_trim = 0
_trims = 0


def _load_trim():
    if os.environ.get(ENV, "").strip().lower() in _OFF:
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


_malloc_trim = _load_trim()


def note_paint() -> None:
    """Count one screen painted; trim when a long episode has painted many since the last."""
    global _paints_since_trim
    _paints_since_trim += 1  # a lost increment under threads only delays a trim
    if _paints_since_trim >= PAINTS_BETWEEN_TRIMS:
        _trim(PAINTS_BETWEEN_TRIMS)


def at_reset() -> bool:
    """At a phone's reset: give free heap pages back when enough screens have been painted
    since the last time; whether it did."""
    return _trim(PAINTS_BEFORE_RESET_TRIM)


def _trim(after_paints: int) -> bool:
    if _malloc_trim is None or _paints_since_trim < after_paints:
        return False
    return release()  # two threads may both trim: harmless


def release() -> bool:
    """Give free heap pages back now (a benchmark measuring what is held between episodes
    calls it); whether it could."""
    global _paints_since_trim, _trims
    if _malloc_trim is None:
        return False
    with _lock:
        _paints_since_trim = 0
        _malloc_trim(0)
        _trims += 1
    return True


def trims() -> int:
    """How many times this process gave free heap pages back."""
    return _trims


def available() -> bool:
    """Whether this process can give free heap pages back (glibc, not turned off)."""
    return _malloc_trim is not None

"""Free heap pages go back to the system between episodes.

glibc's allocator keeps what `free()` releases inside the heap for later use. A simulated
phone draws and drops images of a few MB (screens, photos, maps, shadows) all the time,
and a hole left by one can only be reused by a block that fits it: over a long pixel run
the heap's free space grew from about 55 to 110 MB on top of everything held, so resident
memory kept rising with nothing leaking (`benchmarks/soak.py`, README "Reliability").
`malloc_trim(0)` hands every whole free page back (the holes inside the heap too, not just
its top). It costs about 5 to 10 ms on a 300 MB heap, so a phone's reset runs it only once
`TRIM_EVERY_INPUTS` inputs have been handled since the last time (under 0.1 ms a step).

It changes no result: what is freed was free. Where the C library has no `malloc_trim`
(macOS, musl) nothing is done; `BMOCA_TRIM_HEAP=0` turns it off.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import threading

TRIM_EVERY_INPUTS = 200
"""Inputs (taps, swipes, keys, text) handled process-wide between two trims at most."""
ENV = "BMOCA_TRIM_HEAP"
_OFF = ("0", "off", "no", "false")

_lock = threading.Lock()
_inputs_since_trim = 0
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


def note_input() -> None:
    """Count one input handled (an input is what makes the phone draw anew)."""
    global _inputs_since_trim
    _inputs_since_trim += 1  # a lost increment under threads only delays a trim


def at_reset() -> bool:
    """At a phone's reset: give free heap pages back when enough inputs have passed since
    the last time; whether it did."""
    global _inputs_since_trim, _trims
    if _malloc_trim is None or _inputs_since_trim < TRIM_EVERY_INPUTS:
        return False
    with _lock:
        if _inputs_since_trim < TRIM_EVERY_INPUTS:
            return False
        _inputs_since_trim = 0
        _malloc_trim(0)
        _trims += 1
    return True


def trims() -> int:
    """How many times this process gave free heap pages back."""
    return _trims


def available() -> bool:
    """Whether this process can give free heap pages back (glibc, not turned off)."""
    return _malloc_trim is not None

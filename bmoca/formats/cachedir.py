"""Files kept in the user's cache directory between processes, named by their content.

A cold start parsed the same YAML files, read the same font tables and drew the same
sample photo in every process. What such work gives depends only on its inputs, so an
entry is named by a hash of them (the caller's `key`: the text, the code that reads it,
the libraries' versions) and holds its own digest: an entry that is absent, cut short or
damaged is made again, and a directory that cannot be written costs only the saving.

`BMOCA_DATA_CACHE=off` (or 0, no, false) turns this cache off, a path moves it (default:
`~/.cache/bmoca/data` on Linux). The rendered images have their own directory and switch
(`bmoca.sim.render.disk_cache`, `BMOCA_ASSET_CACHE`).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
from collections.abc import Callable
from pathlib import Path

ENV = "BMOCA_DATA_CACHE"
"""`off` (or 0, no, false) disables the cache; any other value is its directory."""
_OFF = ("off", "0", "no", "false")


def directory(env: str = ENV, name: str = "data") -> Path | None:
    """Where the entries of the cache switched by `env` live (`name` in the user cache
    directory unless `env` names one), or None when `env` turns it off."""
    setting = os.environ.get(env, "").strip()
    if setting.lower() in _OFF:
        return None
    if setting:
        return Path(setting)
    return _user_cache(os.environ.get("XDG_CACHE_HOME"), os.environ.get("HOME")) / name


@functools.lru_cache(maxsize=4)
def _user_cache(xdg_cache_home: str | None, home: str | None) -> Path:
    """platformdirs' user cache directory, asked once per process for the variables it
    reads (a cold start names 46 entries)."""
    import platformdirs

    return platformdirs.user_cache_path("bmoca", appauthor=False)


def keep(path: Path, write: Callable[[Path], None]) -> None:
    """Write an entry whole or not at all; a disk that refuses it costs only the saving."""
    partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write(partial)
        partial.replace(path)
    except OSError:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)


def entry(kind: str, key: bytes) -> Path | None:
    """The file of `kind`'s entry for `key` (None when the cache is off)."""
    folder = directory()
    if folder is None:
        return None
    return folder / f"{kind}-{hashlib.sha256(key).hexdigest()[:40]}.bin"


def read(path: Path) -> bytes | None:
    """An entry's bytes when it is there whole (its trailing digest checks), else None."""
    try:
        blob = path.read_bytes()
    except OSError:
        return None
    data, digest = blob[:-32], blob[-32:]
    if len(blob) >= 32 and hashlib.sha256(data).digest() == digest:
        return data
    return None


def write(path: Path, data: bytes) -> None:
    """Keep `data` as the entry at `path`, followed by its digest."""
    keep(path, lambda partial: partial.write_bytes(data + hashlib.sha256(data).digest()))


def cached_bytes(kind: str, key: bytes, make: Callable[[], bytes]) -> bytes:
    """The bytes `make()` gives for `key`, from disk when an earlier process made them."""
    return read_or_make(entry(kind, key), make)


def read_or_make(path: Path | None, make: Callable[[], bytes]) -> bytes:
    """The entry at `path`, or `make()`'s bytes, then kept there (None: no cache)."""
    if path is None:
        return make()
    data = read(path)
    if data is None:
        data = make()
        write(path, data)
    return data

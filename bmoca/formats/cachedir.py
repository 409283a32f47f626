"""Files kept in the user's cache directory between processes, named by their content.

A cold start parsed the same YAML files, read the same font tables and drew the same
sample photo in every process. What such work gives depends only on its inputs, so an
entry is named by a hash of them (the caller's `key`: the text, the code that reads it,
the libraries' versions) and ends with its seal, an HMAC of its bytes under a per-user
random key (`seal.key` in the user's cache directory, mode 0600): an entry that is absent, cut
short, damaged or rewritten by anyone without the key is made again, and a directory that
cannot be written (or whose key is not this user's own) costs only the saving.

`BMOCA_DATA_CACHE=off` (or 0, no, false) turns this cache off, a path moves it (default:
`~/.cache/bmoca/data` on Linux). This module is bmoca's one disk cache: the rendered
images keep their entries here too, in their own directory and with their own switch
(`bmoca.sim.render.disk_cache`, `BMOCA_ASSET_CACHE`), and so do the LLM agents' answers
(`bmoca.agents.llm.cache`, `BMOCA_LLM_CACHE`).

Entries are named by the code that makes them, so every upgrade or edit of that code
writes new ones and the old ones are never read again. Each directory is therefore kept
under `BMOCA_CACHE_MB` megabytes (256 by default): the first process that writes to a
directory past it deletes the entries used least recently (an entry read is marked used
at most once a day) until three quarters of it is left. Only files named as entries are
touched, so a directory shared with other files loses none of them.

One file per entry, not a database: `diskcache` was measured slower for what a cold start
does (import, open, about 46 reads; `benchmarks/cache_store.py`), its SQLite open alone
costing more than the reads.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import hmac
import os
import re
import stat
import time
from collections.abc import Callable
from pathlib import Path

from bmoca.bytecache import megabytes_env

ENV = "BMOCA_DATA_CACHE"
"""`off` (or 0, no, false) disables the cache; any other value is its directory."""
_OFF = ("off", "0", "no", "false")

BUDGET_ENV = "BMOCA_CACHE_MB"
"""Megabytes each cache directory may hold before its least recently used entries go."""
_DEFAULT_BUDGET_MB = 256
_TOUCH_AFTER_S = 86_400
"""An entry read is marked used (its modification time) when its mark is older than this:
one `utime` a day, not one per read."""
_KEEP_TMP_S = 3_600
"""A partial entry younger than this may be another process's write in progress."""
_ENTRY_NAME = re.compile(r"[a-z_]+-[0-9a-f]{40}\.(bin|png)(\.\d+\.tmp)?")
_pruned: set[Path] = set()
"""Directories this process has already pruned (once each, at its first write there)."""


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


SEAL_NAME = "seal.key"
"""A per-user random key in the user's cache directory (mode 0600, whichever folder the
entries are in): an entry ends with the HMAC of
its bytes under that key, so an entry rewritten by anyone who cannot read the key (another
user of a shared cache folder, a file dropped in from elsewhere) fails its check, however
its own content hashes. A plain content digest could be recomputed from the entry alone."""


def _seal_key() -> bytes | None:
    return _user_key(os.environ.get("XDG_CACHE_HOME"), os.environ.get("HOME"))


@functools.lru_cache(maxsize=4)
def _user_key(xdg_cache_home: str | None, home: str | None) -> bytes | None:
    """The user's key, made on first use; None (the cache is not used) when it cannot be
    made or is not this user's own, unreadable by others."""
    folder = _user_cache(xdg_cache_home, home)
    path = folder / SEAL_NAME
    try:
        folder.mkdir(parents=True, exist_ok=True)
        try:
            handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(handle, "wb") as file:
                file.write(os.urandom(32))
        info = os.stat(path, follow_symlinks=False)
        if not stat.S_ISREG(info.st_mode) or info.st_mode & 0o077 or (
                hasattr(os, "getuid") and info.st_uid != os.getuid()):
            return None
        key = path.read_bytes()
    except OSError:
        return None
    return key if len(key) == 32 else None


def _seal(data: bytes) -> bytes | None:
    key = _seal_key()
    return None if key is None else hmac.new(key, data, hashlib.sha256).digest()


def read(path: Path) -> bytes | None:
    """An entry's bytes when it is there whole and sealed with this user's key (its
    trailing HMAC checks), else None."""
    try:
        with open(path, "rb") as file:
            blob = file.read()
            marked = os.fstat(file.fileno()).st_mtime
    except OSError:
        return None
    data, digest = blob[:-32], blob[-32:]
    seal = _seal(data) if len(blob) >= 32 else None
    if seal is not None and hmac.compare_digest(seal, digest):
        if time.time() - marked > _TOUCH_AFTER_S:  # used: the last to go when pruning
            with contextlib.suppress(OSError):
                os.utime(path)
        return data
    return None


def write(path: Path, data: bytes) -> None:
    """Keep `data` as the entry at `path`, followed by its seal (nothing when no key)."""
    seal = _seal(data)
    if seal is None:
        return
    keep(path, lambda partial: partial.write_bytes(data + seal))
    if path.parent not in _pruned:
        _pruned.add(path.parent)
        prune(path.parent, budget_bytes())


def budget_bytes() -> int:
    """What `BMOCA_CACHE_MB` allows each cache directory to hold."""
    return megabytes_env(BUDGET_ENV, _DEFAULT_BUDGET_MB)


def prune(folder: Path, budget: int) -> int:
    """When the entries in `folder` hold more than `budget` bytes, delete the least
    recently used until three quarters of it is left; how many went."""
    found, total = [], 0
    try:
        with os.scandir(folder) as listing:
            for item in listing:
                if _ENTRY_NAME.fullmatch(item.name) and item.is_file(follow_symlinks=False):
                    stat = item.stat(follow_symlinks=False)
                    found.append((stat.st_mtime, stat.st_size, item.path))
                    total += stat.st_size
    except OSError:
        return 0
    if total <= budget:
        return 0
    now, removed = time.time(), 0
    for mtime, size, path in sorted(found):
        if total <= budget * 3 // 4:
            break
        if path.endswith(".tmp") and now - mtime < _KEEP_TMP_S:
            continue
        try:
            os.unlink(path)
        except OSError:
            continue
        total -= size
        removed += 1
    return removed


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

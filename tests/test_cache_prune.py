"""The disk caches stay bounded (`bmoca.formats.cachedir.prune`, `BMOCA_CACHE_MB`): entries
are named by the code that makes them, so every upgrade writes new ones; a process that
writes to a directory over its budget deletes the entries used least recently, and never
a file that is not an entry, an entry being written, or one read since."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bmoca.formats import cachedir

MB = 1 << 20
DAY = 86_400


def _entry(folder: Path, kind: str, number: int, size: int, age_days: float,
           suffix: str = "bin") -> Path:
    """A well-formed entry of `size` bytes last used `age_days` ago."""
    path = folder / f"{kind}-{number:040x}.{suffix}"
    cachedir.write(path, bytes(size - 32))
    stamp = time.time() - age_days * DAY
    os.utime(path, (stamp, stamp))
    return path


def _fill(folder: Path) -> list[Path]:
    """Ten 1 MB entries, the first the oldest (ten days) and the last the newest."""
    folder.mkdir(parents=True, exist_ok=True)
    return [_entry(folder, "app_icon", i, MB, 10 - i) for i in range(10)]


def test_a_write_past_the_budget_deletes_the_least_recently_used(tmp_path, monkeypatch):
    folder = tmp_path / "data"
    entries = _fill(folder)
    monkeypatch.setattr(cachedir, "_pruned", set())
    monkeypatch.setenv(cachedir.BUDGET_ENV, "8")
    cachedir.write(folder / f"yaml-{'f' * 40}.bin", b"new")  # 10 MB > 8: down to 6
    left = sorted(p.name for p in folder.iterdir())
    assert left == sorted([p.name for p in entries[5:]] + [f"yaml-{'f' * 40}.bin"])
    assert sum(p.stat().st_size for p in folder.iterdir()) <= 6 * MB


def test_under_the_budget_nothing_goes(tmp_path, monkeypatch):
    folder = tmp_path / "data"
    entries = _fill(folder)
    monkeypatch.setattr(cachedir, "_pruned", set())
    monkeypatch.setenv(cachedir.BUDGET_ENV, "64")
    cachedir.write(folder / f"yaml-{'f' * 40}.bin", b"new")
    assert all(p.exists() for p in entries)


def test_an_entry_read_is_kept_over_one_written_since(tmp_path):
    folder = tmp_path / "data"
    entries = _fill(folder)
    assert cachedir.read(entries[0]) == bytes(MB - 32)  # the oldest, read now: used
    assert cachedir.prune(folder, 8 * MB) == 4
    assert entries[0].exists()
    assert [p.exists() for p in entries[1:6]] == [False, False, False, False, True]


def test_only_entries_go(tmp_path):
    """A directory shared with other files (BMOCA_DATA_CACHE=~/somewhere) loses none of
    them, nor an entry another process is writing."""
    folder = tmp_path / "shared"
    folder.mkdir()
    other = folder / "notes.txt"
    other.write_bytes(bytes(4 * MB))
    stamp = time.time() - 100 * DAY
    os.utime(other, (stamp, stamp))
    writing = folder / f"app_icon-{'a' * 40}.bin.4242.tmp"
    writing.write_bytes(bytes(MB))
    stale = folder / f"app_icon-{'b' * 40}.bin.4243.tmp"
    stale.write_bytes(bytes(MB))
    os.utime(stale, (stamp, stamp))
    old_png = _entry(folder, "wallpaper", 7, MB, 50, "png")
    newest = _entry(folder, "app_icon", 8, MB, 0)
    assert cachedir.prune(folder, 3 * MB) == 2  # 4 MB of entries: down to 2.25
    assert other.exists() and writing.exists() and newest.exists()
    assert not stale.exists() and not old_png.exists()


def test_a_process_prunes_once_at_its_first_write(tmp_path):
    """A fresh process booting a phone into an over-full asset cache deletes the oldest
    entries at its first write and keeps every entry it writes (the next process to write
    there prunes again)."""
    folder = tmp_path / "assets"
    old = _fill(folder)
    env = {**os.environ, "BMOCA_ASSET_CACHE": str(folder), "BMOCA_DATA_CACHE": "off",
           cachedir.BUDGET_ENV: "9"}
    code = ("from bmoca import configs; from bmoca.device import connect; "
            "connect('sim', configs.get('test_env_100')).screenshot()")
    subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True)
    written = [p for p in folder.iterdir() if p not in old]
    assert written, "the boot wrote no entry"
    assert [p.exists() for p in old[:4]] == [False, False, False, False]
    assert all(p.exists() for p in written)


@pytest.mark.parametrize("value", ["lots", "-1", "nan"])
def test_a_bad_budget_is_named(monkeypatch, value):
    monkeypatch.setenv(cachedir.BUDGET_ENV, value)
    with pytest.raises(ValueError, match=f"BMOCA_CACHE_MB must be a number of megabytes "
                                         f"\\(0 or more\\), not '{value}'"):
        cachedir.budget_bytes()

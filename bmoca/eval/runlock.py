"""One writer per run directory: a lock file that names the process holding it.

SQLite already keeps two writers from corrupting a store; this lock makes the second
`bmoca eval` on a run directory stop at once with a message a user can act on (which
process, since when, what command) instead of failing half-way. The lock is an advisory
`flock` on RUN_DIR/.bmoca-lock: the kernel drops it when its process ends however it ends
(`kill -9` included), so a stale file never blocks a later run.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import IO

LOCK_FILE = ".bmoca-lock"


class RunLocked(Exception):
    """Another live process holds the run directory."""


class RunLock:
    """Hold RUN_DIR's lock for a `with` block; RunLocked names the holder."""

    def __init__(self, run_dir: Path, command: str = "") -> None:
        self.path = Path(run_dir) / LOCK_FILE
        self.command = command or " ".join(["bmoca", *sys.argv[1:]])
        self._file: IO[str] | None = None

    def __enter__(self) -> RunLock:
        return self if self._file is not None else self.acquire()

    def acquire(self) -> RunLock:
        """Take the lock now, or RunLocked naming the process that holds it."""
        try:
            import fcntl
        except ImportError:  # no flock (Windows): SQLite's own locking still protects the store
            return self
        handle = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115 - held until __exit__
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.seek(0)
            holder = _holder(handle.read())
            handle.close()
            raise RunLocked(f"{self.path.parent} is in use by {holder}; wait for it to finish "
                            "or stop it, then run again (finished episodes are kept)") from None
        handle.seek(0)
        handle.truncate()
        handle.write(json.dumps({"pid": os.getpid(), "since": time.strftime(
            "%Y-%m-%d %H:%M:%S %Z"), "command": self.command}) + "\n")
        handle.flush()
        self._file = handle
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def release(self) -> None:
        if self._file is not None:
            self._file.close()  # closing drops the flock; the file stays for the next holder
            self._file = None


def _holder(text: str) -> str:
    """`process 1234 (bmoca eval ..., since ...)` from the lock file, as well as it reads."""
    try:
        info = json.loads(text)
        return f"process {int(info['pid'])} ({info.get('command', '?')}, since {info.get('since', '?')})"
    except (ValueError, KeyError, TypeError):
        return "another process"

"""On-disk response cache: a rerun of the same requests is free and gives the same answers.

One SQLite file (`responses.sqlite`) under the cache directory, shared by every process of
a run (WAL, short write transactions). The key is a SHA-256 over the provider, model,
base URL, generation settings and the full messages (images by the SHA-256 of their PNG
bytes), so any change to the prompt or the settings misses. API keys are never part of
the key or the value.

Directory: `cache_dir` when given, else `$BMOCA_LLM_CACHE`, else the platform's user cache
directory (platformdirs: `~/.cache/bmoca/llm` on Linux, `~/Library/Caches/bmoca/llm` on
macOS, `%LOCALAPPDATA%\\bmoca\\Cache\\llm` on Windows).
`BMOCA_LLM_CACHE=off` (or `0`, `false`, `no`) turns caching off everywhere.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import platformdirs

ENV_VAR = "BMOCA_LLM_CACHE"
_OFF = {"off", "0", "false", "no", "none", ""}
FILENAME = "responses.sqlite"


def default_dir() -> Path | None:
    """The cache directory from the environment; None when the environment turns it off."""
    value = os.environ.get(ENV_VAR)
    if value is None:
        return platformdirs.user_cache_path("bmoca", appauthor=False) / "llm"
    if value.strip().lower() in _OFF:
        return None
    return Path(value).expanduser()


def request_key(payload: dict[str, Any]) -> str:
    """SHA-256 of the canonical JSON of a request description."""
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class ResponseCache:
    """Answers by request key; `get` returns the stored dict or None."""

    def __init__(self, directory: str | Path, *, timeout: float = 30.0) -> None:
        self.directory = Path(directory)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            self.path = self.directory / FILENAME
            self._db = sqlite3.connect(self.path, timeout=timeout, isolation_level=None,
                                       check_same_thread=False)
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = NORMAL")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, provider TEXT, "
                "model TEXT, value TEXT NOT NULL, created REAL)")
        except (OSError, sqlite3.Error) as exc:
            raise ValueError(f"cannot open the LLM response cache in {self.directory}: {exc}; "
                             f"set {ENV_VAR} to another directory or turn the cache off "
                             "(agent option cache=false)") from None
        self._lock = threading.Lock()

    def get(self, key: str) -> dict[str, Any] | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM responses WHERE key=?", (key,)).fetchone()
        return None if row is None else json.loads(row[0])

    def put(self, key: str, provider: str, model: str, value: dict[str, Any]) -> None:
        text = json.dumps(value, sort_keys=True, ensure_ascii=False)
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO responses (key, provider, model, value, created) "
                "VALUES (?, ?, ?, ?, ?)", (key, provider, model, text, time.time()))

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM responses").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()

"""On-disk response cache: a rerun of the same requests is free and gives the same answers.

One sealed file per answer under the cache directory (`bmoca.formats.cachedir`, the
module the data and asset caches use), shared by every process of a run. The key is a
SHA-256 over the provider, model, base URL, generation settings and the full messages
(images by the SHA-256 of their PNG bytes), so any change to the prompt or the settings
misses. API keys are never part of the key or the value. The directory is bounded like
the other caches (`BMOCA_CACHE_MB`, least recently used answers go first).

Directory: `cache_dir` when given, else `$BMOCA_LLM_CACHE`, else the platform's user cache
directory (platformdirs: `~/.cache/bmoca/llm` on Linux, `~/Library/Caches/bmoca/llm` on
macOS, `%LOCALAPPDATA%\\bmoca\\Cache\\llm` on Windows).
`BMOCA_LLM_CACHE=off` (or `0`, `false`, `no`) turns caching off everywhere.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import platformdirs

from bmoca.formats import cachedir

ENV_VAR = "BMOCA_LLM_CACHE"
_OFF = {"off", "0", "false", "no", "none", ""}
KIND = "llm"
"""Entries are `llm-<request key>.bin` (the name pattern `cachedir.prune` counts)."""


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
    """Answers by request key; `get` returns the stored dict or None.

    Each answer is one entry of the shared disk-cache module (`bmoca.formats.cachedir`):
    written whole or not at all (so every process of a run shares the directory without a
    lock), sealed with the user's key (an answer rewritten by anyone else, say in a shared
    folder, is never read: it would be a prompt injection with the model's authority),
    and the directory kept under `BMOCA_CACHE_MB` by dropping the answers used least
    recently. An entry holds its full request key, checked on reading."""

    def __init__(self, directory: str | Path, *, timeout: float = 30.0) -> None:
        self.directory = Path(directory)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ValueError(f"cannot open the LLM response cache in {self.directory}: {exc}; "
                             f"set {ENV_VAR} to another directory or turn the cache off "
                             "(agent option cache=false)") from None
        del timeout  # kept for callers of the SQLite version: file entries never wait

    def _entry(self, key: str) -> Path:
        return self.directory / f"{KIND}-{key[:40]}.bin"

    def get(self, key: str) -> dict[str, Any] | None:
        data = cachedir.read(self._entry(key))
        if data is None:
            return None
        try:
            stored = json.loads(data)
        except ValueError:
            return None
        return stored["value"] if isinstance(stored, dict) and stored.get("key") == key \
            else None

    def put(self, key: str, provider: str, model: str, value: dict[str, Any]) -> None:
        text = json.dumps({"key": key, "provider": provider, "model": model, "value": value},
                          sort_keys=True, ensure_ascii=False)
        cachedir.write(self._entry(key), text.encode("utf-8"))

    def __len__(self) -> int:
        return sum(1 for _ in self.directory.glob(f"{KIND}-*.bin"))

    def close(self) -> None:
        """Nothing is held open between calls."""

"""Many phones at once, one per browser tab, each released when left idle.

Why release: a simulated phone holds its screens, file system and apps in memory, and a
closed tab never says goodbye. A phone untouched for `idle_s` seconds is closed by
`release_idle` (the app calls it periodically); a later request for it gets a clear
"released" error, and the page offers to start a new one. Time comes from `clock`
(monotonic by default) so tests can move it; the simulator itself never reads it.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from bmoca.ui.errors import UiError
from bmoca.ui.phone import Phone

IDLE_S = 900.0
MAX_PHONES = 8


@dataclass
class _Slot:
    phone: Phone
    used: float
    lock: threading.Lock = field(default_factory=threading.Lock)


class Sessions:
    """The open phones by id; `use(id)` lends one to a request, serialised per phone."""

    def __init__(self, *, idle_s: float = IDLE_S, max_phones: int = MAX_PHONES,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if idle_s <= 0:
            raise ValueError(f"idle_s must be positive, got {idle_s}")
        if max_phones < 1:
            raise ValueError(f"max_phones must be at least 1, got {max_phones}")
        self.idle_s, self.max_phones, self.clock = idle_s, max_phones, clock
        self._slots: dict[str, _Slot] = {}
        self._released: dict[str, str] = {}
        self._opening = 0
        """Phones being built: they count against `max_phones` already."""
        self._lock = threading.Lock()

    def open(self, task_id: str, config_id: str, **options: Any) -> tuple[str, Phone]:
        """A new phone playing `task_id` on `config_id`; UiError when too many are open.

        The place is reserved under the lock before the (slow) phone is built, so opens
        racing each other never exceed `max_phones`; a phone that fails to build gives its
        place back."""
        self.release_idle()
        with self._lock:
            if len(self._slots) + self._opening >= self.max_phones:
                raise UiError(f"{self.max_phones} phones are open, the most this server "
                              f"keeps; close a tab or wait: a phone idle for "
                              f"{self.idle_s:g} s is released", 429)
            self._opening += 1
        try:
            phone = Phone(task_id, config_id, **options)
        except BaseException:
            with self._lock:
                self._opening -= 1
            raise
        phone_id = secrets.token_hex(6)
        with self._lock:
            self._opening -= 1
            self._slots[phone_id] = _Slot(phone, self.clock())
        return phone_id, phone

    @contextmanager
    def use(self, phone_id: str) -> Iterator[Phone]:
        """The phone, held for one request (other tabs' phones go on in parallel)."""
        with self._lock:
            slot = self._slots.get(phone_id)
            if slot is None:
                why = self._released.get(phone_id)
                if why:
                    raise UiError(f"phone {phone_id} was {why}; start a new one", 410)
                raise UiError(f"no phone {phone_id!r} on this server (it may have restarted); "
                              "start a new one", 404)
        with slot.lock:
            slot.used = self.clock()
            try:
                yield slot.phone
            finally:
                slot.used = self.clock()

    def close(self, phone_id: str, why: str = "closed") -> None:
        with self._lock:
            slot = self._slots.pop(phone_id, None)
            if slot is None:
                return
            self._released[phone_id] = why
        with slot.lock:
            slot.phone.close()

    def release_idle(self) -> list[str]:
        """Close every phone idle for longer than `idle_s`; their ids."""
        now = self.clock()
        with self._lock:
            idle = [pid for pid, s in self._slots.items()
                    if now - s.used > self.idle_s and not s.lock.locked()]
        for phone_id in idle:
            self.close(phone_id, f"released after {self.idle_s:g} s idle")
        return idle

    def ids(self) -> list[str]:
        with self._lock:
            return list(self._slots)

    def close_all(self) -> None:
        for phone_id in self.ids():
            self.close(phone_id, "closed when the server stopped")

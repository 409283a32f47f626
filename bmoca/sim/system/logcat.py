"""The log buffers, and `logcat`'s output formats and filters as Android 10 prints them."""

from __future__ import annotations

import datetime as dt
from collections import deque
from dataclasses import dataclass, field

PRIORITIES = "VDIWEF"
_SILENT = "S"

SYSTEM_BUFFER_TAGS = frozenset({
    "ActivityTaskManager", "ActivityManager", "WindowManager", "PackageManager",
    "WifiService", "DisplayPowerController", "SettingsProvider", "InputMethodManagerService",
    "AudioService", "ConditionProviders.SCP", "AlarmManager", "Telecom", "PowerManagerService",
})
"""Tags logged by system_server, which land in the `system` buffer."""


@dataclass(frozen=True, slots=True)
class LogEntry:
    time_ms: int
    pid: int
    tid: int
    priority: str
    tag: str
    message: str
    buffer: str = "main"


@dataclass
class LogBuffers:
    """Ring buffers of log entries (main, system, crash), cleared by `logcat -c`."""

    capacity: int = 20_000
    entries: deque = field(default_factory=lambda: deque(maxlen=20_000))
    serial: int = 0
    """Lines ever written, so readers can ask for 'new since' cheaply."""

    def write(self, time_ms: int, pid: int, tid: int, priority: str, tag: str, message: str) -> None:
        buffer = "system" if tag in SYSTEM_BUFFER_TAGS else "main"
        for line in message.split("\n"):
            self.entries.append(LogEntry(time_ms, pid, tid, priority, tag, line, buffer))
            self.serial += 1

    def clear(self, buffers: set[str] | None = None) -> None:
        if buffers is None:
            self.entries.clear()
        else:
            self.entries = deque((e for e in self.entries if e.buffer not in buffers),
                                 maxlen=self.entries.maxlen)

    def since(self, serial: int) -> list[LogEntry]:
        """Entries written after the given serial (those still in the ring)."""
        n = self.serial - serial
        if n <= 0:
            return []
        n = min(n, len(self.entries))
        return list(self.entries)[-n:]


def format_entry(entry: LogEntry, fmt: str = "threadtime", year: bool = False) -> str:
    moment = dt.datetime.fromtimestamp(entry.time_ms / 1000, tz=dt.UTC)
    millis = entry.time_ms % 1000
    if fmt == "epoch":
        stamp = f"{entry.time_ms // 1000:>19}.{millis:03d}"
    else:
        stamp = moment.strftime("%Y-%m-%d %H:%M:%S" if year else "%m-%d %H:%M:%S") + f".{millis:03d}"
    prio, tag, msg = entry.priority, entry.tag, entry.message
    if fmt in ("threadtime", "epoch"):
        return f"{stamp} {entry.pid:5d} {entry.tid:5d} {prio} {tag:<8}: {msg}"
    if fmt == "time":
        return f"{stamp} {prio}/{tag:<8}({entry.pid:5d}): {msg}"
    if fmt == "brief":
        return f"{prio}/{tag:<8}({entry.pid:5d}): {msg}"
    if fmt == "process":
        return f"{prio}({entry.pid:5d}) {msg}  ({tag})"
    if fmt == "tag":
        return f"{prio}/{tag:<8}: {msg}"
    if fmt == "raw":
        return msg
    if fmt == "thread":
        return f"{prio}({entry.pid:5d}:{entry.tid:5d}) {msg}"
    raise ValueError(fmt)


FORMATS = ("threadtime", "epoch", "time", "brief", "process", "tag", "raw", "thread")


class FilterSpec:
    """`Tag:P` filters; `*:S` silences the rest; the default passes everything (V)."""

    def __init__(self, specs: list[str], default: str = "V"):
        self.tags: dict[str, str] = {}
        self.default = default
        for spec in specs:
            tag, _, prio = spec.rpartition(":") if ":" in spec else (spec, "", "V")
            prio = (prio or "V").upper()[:1]
            if prio not in PRIORITIES + _SILENT:
                raise ValueError(f"Invalid filter expression '{spec}'")
            if tag == "*":
                self.default = prio
            else:
                self.tags[tag] = prio

    def passes(self, entry: LogEntry) -> bool:
        level = self.tags.get(entry.tag, self.default)
        if level == _SILENT:
            return False
        return PRIORITIES.index(entry.priority) >= PRIORITIES.index(level)

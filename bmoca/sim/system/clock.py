"""The virtual clock: device time never comes from the host's wall clock."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

BOOT_TIME_MS = int(dt.datetime(2024, 1, 17, 10, 0, 0, tzinfo=dt.UTC).timestamp() * 1000)
"""Wednesday, Jan 17 (as in B-MoCA's real screenshots), 10:00 GMT."""
MAX_TIME_MS = int(dt.datetime(9000, 1, 1, tzinfo=dt.UTC).timestamp() * 1000)
"""The latest time the clock takes: dates, time zones and alarms a day ahead must still be
representable (Python's dates end with year 9999), so a move past it is refused."""


class ClockRangeError(ValueError):
    """A move of the clock outside [0, MAX_TIME_MS]; the clock is unchanged."""


@dataclass
class VirtualClock:
    now_ms: int = BOOT_TIME_MS
    uptime_ms: int = 60_000

    def check_advance(self, ms: int) -> None:
        """ClockRangeError unless `advance(ms)` would keep the clock in range."""
        if ms < 0 or self.now_ms + ms > MAX_TIME_MS:
            raise ClockRangeError(f"moving the clock by {ms} ms would take it past year 9000")

    def advance(self, ms: int) -> None:
        self.check_advance(ms)
        self.now_ms += ms
        self.uptime_ms += ms

    def set(self, epoch_ms: int) -> None:
        if not 0 <= epoch_ms <= MAX_TIME_MS:
            raise ClockRangeError(f"time {epoch_ms} ms is outside 1970..9000")
        self.now_ms = epoch_ms

    def datetime(self) -> dt.datetime:
        return dt.datetime.fromtimestamp(self.now_ms / 1000, tz=dt.UTC)

    def today(self) -> dt.date:
        """The date alone (what a screen that shows no time of day reads)."""
        return self.datetime().date()


def toybox_date_string(moment: dt.datetime) -> str:
    """`date` output: `Wed Jan 17 10:00:00 GMT 2024`, the day space-padded (`Jan  1`)."""
    return moment.strftime("%a %b ") + f"{moment.day:>2}" + moment.strftime(" %H:%M:%S GMT %Y")


def parse_toybox_set(arg: str, now: dt.datetime) -> dt.datetime:
    """toybox `date MMDDhhmm[[CC]YY][.ss]`, as B-MoCA's clock hack sends it."""
    seconds = 0
    if "." in arg:
        arg, sec = arg.split(".", 1)
        if not (sec.isdigit() and len(sec) == 2):
            raise ValueError(arg)
        seconds = int(sec)
    if not arg.isdigit() or len(arg) not in (8, 10, 12):
        raise ValueError(arg)
    month, day, hour, minute = (int(arg[i:i + 2]) for i in range(0, 8, 2))
    year = now.year
    if len(arg) == 10:
        yy = int(arg[8:10])
        year = 2000 + yy if yy < 69 else 1900 + yy
    elif len(arg) == 12:
        year = int(arg[8:12])
    return dt.datetime(year, month, day, hour, minute, seconds, tzinfo=dt.UTC)


class ClockWatch:
    """Stands in for the clock while screens are built and notes whether anything read it:
    a screen built without reading the clock is the same screen a moment later."""

    __slots__ = ("clock", "read", "day")

    def __init__(self, clock: VirtualClock):
        object.__setattr__(self, "clock", clock)
        object.__setattr__(self, "read", False)
        object.__setattr__(self, "day", None)
        """The date, when a screen read only that (the screen holds until midnight)."""

    def today(self) -> dt.date:
        day = self.clock.today()
        object.__setattr__(self, "day", day)
        return day

    def __getattr__(self, name: str):
        object.__setattr__(self, "read", True)
        return getattr(self.clock, name)

    def __setattr__(self, name: str, value) -> None:
        object.__setattr__(self, "read", True)
        setattr(self.clock, name, value)

    def __reduce__(self):
        raise TypeError("a ClockWatch stands in for the clock only while a frame is built")

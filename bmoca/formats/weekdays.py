"""Weekday names and the first day of the week for the 15 locales (`weekdays.yaml`).

The Clock draws its day buttons from this table (content-desc = the full name, in the
locale's week order), and the Clock expert finds a day button by matching its
content-desc against the same table, so one plan works in every language and week start.

Days are numbered as the alarm database's bit mask counts them: Monday = 0 (bit 1) ...
Sunday = 6 (bit 64).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from bmoca.formats import package_files, yamlload
from bmoca.formats.locales import SUPPORTED, canonical

DAY_KEYS: tuple[str, ...] = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
"""Index = day number (Monday 0); `1 << index` is the day's bit in `daysofweek`."""


@dataclass(frozen=True)
class WeekNames:
    """One locale's week: names Monday first, and where its week starts."""

    full: tuple[str, ...]
    short: tuple[str, ...]
    narrow: tuple[str, ...]
    first_day: int

    def order(self) -> list[int]:
        """Day numbers in the order a week is shown (e.g. Sun, Mon, ... in the US)."""
        return [(self.first_day + i) % 7 for i in range(7)]


@cache
def _table() -> dict[str, WeekNames]:
    text = package_files.files("bmoca.formats").joinpath("weekdays.yaml").read_text("utf-8")
    out: dict[str, WeekNames] = {}
    for locale, entry in yamlload.load(text, cached=True).items():
        names = {k: tuple(str(v) for v in entry[k]) for k in ("full", "short", "narrow")}
        if any(len(v) != 7 for v in names.values()):
            raise ValueError(f"weekdays.yaml: {locale}: every list needs 7 names")
        out[locale] = WeekNames(first_day=DAY_KEYS.index(entry["first_day"]), **names)
    missing = [loc for loc in SUPPORTED if loc not in out]
    if missing:
        raise ValueError(f"weekdays.yaml lacks {', '.join(missing)}")
    return out


def week(locale: str) -> WeekNames:
    """The week of a locale (BCP-47 spelling, any casing); KeyError for unknown ones."""
    return _table()[canonical(locale)]


def day_number(key: str) -> int:
    """`sat` (or `saturday`, any casing) -> 5."""
    low = str(key).strip().lower()[:3]
    if low not in DAY_KEYS:
        raise ValueError(f"unknown day {key!r}; days are {', '.join(DAY_KEYS)}")
    return DAY_KEYS.index(low)


@cache
def names_of(day: int) -> frozenset[str]:
    """Every full name of a day in the 15 locales (what a day button's desc may be)."""
    return frozenset(w.full[day] for w in _table().values())


def day_of_name(name: str) -> int | None:
    """The day a full name means in any of the 15 locales, or None."""
    for day in range(7):
        if name in names_of(day):
            return day
    return None


def mask(days: list[int] | tuple[int, ...]) -> int:
    """The `daysofweek` bit mask of day numbers (Mon=1 ... Sun=64)."""
    out = 0
    for day in days:
        out |= 1 << day
    return out

"""Typed parameters of task families: the types a family declares and the values an
instance draws.

A family (`bmoca.tasks.families`) declares its parameters by type; an instance draws each
from a `random.Random` seeded by the family id and the instance's seed, so `(family, seed)`
names one instance on every machine. The drawn values fill the `${...}` placeholders of
the family's fields (`bmoca.tasks.templates`), where templates read their properties
(`${time.text}`, `${days.mask}`, `${number.keys}`).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bmoca.tasks import vocab
from bmoca.tasks.spec import TaskError

WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
DIGIT_KEYS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


# -- values ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Time:
    """A time of day as the instructions say it and the apps store it."""

    hour: int
    minute: int

    @property
    def hour12(self) -> int:
        return self.hour % 12 or 12

    @property
    def ampm(self) -> str:
        return "am" if self.hour < 12 else "pm"

    @property
    def text(self) -> str:
        """`6:30 am`, `12:05 pm` (what B-MoCA's instructions write, in their lower case)."""
        return f"{self.hour12}:{self.minute:02d} {self.ampm}"

    @property
    def hhmm(self) -> str:
        return f"{self.hour:02d}:{self.minute:02d}"

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Days:
    """A set of weekdays, Monday first."""

    keys: tuple[str, ...]

    @property
    def mask(self) -> int:
        """DeskClock's `daysofweek` bits: Monday 1, Tuesday 2, ... Sunday 64."""
        return sum(1 << WEEKDAYS.index(k) for k in self.keys)

    @property
    def text(self) -> str:
        names = [DAY_NAMES[WEEKDAYS.index(k)] for k in self.keys]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

    @property
    def count(self) -> int:
        return len(self.keys)

    @property
    def others(self) -> tuple[str, ...]:
        """The weekdays not in the set (empty when it is every day)."""
        return tuple(k for k in WEEKDAYS if k not in self.keys)

    @property
    def all_but_first(self) -> tuple[str, ...]:
        return self.keys[1:]

    @property
    def with_another(self) -> tuple[str, ...]:
        """The set and one more day (the first day missing from it; every day stays)."""
        extra = self.others[:1]
        return tuple(sorted((*self.keys, *extra), key=WEEKDAYS.index))

    @property
    def names(self) -> tuple[str, ...]:
        """The days' full names, Monday first (a `set` answer's reference)."""
        return tuple(DAY_NAMES[WEEKDAYS.index(k)] for k in self.keys)

    @property
    def other_name(self) -> str:
        """The full name of the first day missing from the set ("" when every day is in)."""
        return DAY_NAMES[WEEKDAYS.index(self.others[0])] if self.others else ""

    @property
    def calendar(self) -> str:
        """java.util.Calendar's day numbers (Sunday 1 ... Saturday 7), comma-separated, as
        SET_ALARM's `--eial android.intent.extra.alarm.DAYS` takes them."""
        return ",".join(str((WEEKDAYS.index(k) + 1) % 7 + 1) for k in self.keys)

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Phone:
    """A ten-digit North American number."""

    digits: str

    @property
    def formatted(self) -> str:
        """As the Phone app shows it in en-US: `(415) 555-0132`, a local `555-0132`."""
        d = self.digits
        return f"{d[:3]}-{d[3:]}" if len(d) == 7 else f"({d[:3]}) {d[3:6]}-{d[6:]}"

    @property
    def dashed(self) -> str:
        d = self.digits
        return f"{d[:3]}-{d[3:]}" if len(d) == 7 else f"{d[:3]}-{d[3:6]}-{d[6:]}"

    @property
    def keys(self) -> tuple[str, ...]:
        """The dialpad keys' resource-id names, digit by digit (`four`, `one`, `five`...)."""
        return tuple(DIGIT_KEYS[int(c)] for c in self.digits)

    @property
    def neighbour(self) -> Phone:
        """The number one key off in its last digit (9 wraps to 0): a near miss."""
        return Phone(self.digits[:-1] + str((int(self.digits[-1]) + 1) % 10))

    @property
    def compact(self) -> str:
        """`formatted` without its space, as `strip_spaces` criteria compare it."""
        return self.formatted.replace(" ", "")

    @property
    def keys_but_last(self) -> tuple[str, ...]:
        """The dialpad keys of every digit but the last (a number one digit short)."""
        return self.keys[:-1]

    def __str__(self) -> str:
        return self.dashed


@dataclass(frozen=True)
class Number:
    """A non-negative integer as a keypad enters it (the Calculator's digit keys)."""

    value: int

    @property
    def text(self) -> str:
        return str(self.value)

    @property
    def keys(self) -> tuple[str, ...]:
        """The Calculator's digit keys' resource-id names, digit by digit (`digit_1`...)."""
        return tuple(f"digit_{c}" for c in str(self.value))

    @property
    def next_keys(self) -> tuple[str, ...]:
        """The keys of the next number (one more), for a near miss by one."""
        return Number(self.value + 1).keys

    @property
    def last_key(self) -> str:
        return self.keys[-1]

    @property
    def all_but_last_key(self) -> tuple[str, ...]:
        return self.keys[:-1]

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Picked:
    """Some items of a list, in the list's order (e.g. cards of a settings list)."""

    items: tuple[str, ...]
    """The whole list."""
    indices: tuple[int, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.items[i] for i in self.indices)

    @property
    def text(self) -> str:
        """`'Top read'`, `'Top read' and 'Randomizer'`, `'A', 'B' and 'C'`."""
        names = [f"'{n}'" for n in self.names]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

    @property
    def count(self) -> int:
        return len(self.indices)

    @property
    def off_flags(self) -> str:
        """`true`/`false` for each item of the list, false where picked, comma-separated
        (the inside of a JSON boolean array such as Wikipedia's `feedCardsEnabled`)."""
        return ",".join("false" if i in self.indices else "true" for i in range(len(self.items)))

    @property
    def all_but_last(self) -> tuple[int, ...]:
        return self.indices[:-1]

    @property
    def another(self) -> int:
        """The first index not picked (the first of all when every one is)."""
        return next((i for i in range(len(self.items)) if i not in self.indices), 0)

    @property
    def with_another(self) -> tuple[int, ...]:
        """The picked indices and the first one not picked (the same when all are)."""
        return tuple(sorted({*self.indices, self.another}))

    @property
    def another_twice(self) -> tuple[int, ...]:
        """The picked indices and the first other one twice, in order (a row switched off
        and on again on the way through the list)."""
        return tuple(sorted((*self.indices, self.another, self.another)))

    @property
    def shifted(self) -> tuple[int, ...]:
        """Each index moved to the next row (the last wraps to the first): the neighbours."""
        return tuple(sorted({(i + 1) % len(self.items) for i in self.indices}))

    @property
    def flags(self) -> tuple[int, ...]:
        """1 where picked, 0 elsewhere, one per item (a set-up that writes each item's
        setting: `${on.flags[2]}`, or `${on.flags[4] * 3}` for a setting whose on is 3)."""
        return tuple(int(i in self.indices) for i in range(len(self.items)))

    @property
    def another_name(self) -> str:
        """The name of `another` (an answer that names one item too many)."""
        return self.items[self.another]

    def __str__(self) -> str:
        return self.text


# -- types ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Choice:
    """One of the listed values (scalars, or mappings whose fields the templates read)."""

    values: tuple[Any, ...]

    def size(self) -> int:
        return len(self.values)

    def draw(self, rng: random.Random) -> Any:
        value = self.values[rng.randrange(len(self.values))]
        return _Record(value) if isinstance(value, Mapping) else value

    def describe(self) -> str:
        shown = [str(_label(v)) if isinstance(v, Mapping) else str(v) for v in self.values]
        return "one of " + ", ".join(shown[:6]) + (", ..." if len(shown) > 6 else "")


@dataclass(frozen=True)
class IntRange:
    low: int
    high: int

    def size(self) -> int:
        return self.high - self.low + 1

    def draw(self, rng: random.Random) -> int:
        return rng.randint(self.low, self.high)

    def describe(self) -> str:
        return f"an integer from {self.low} to {self.high}"


@dataclass(frozen=True)
class TimeOfDay:
    """Any time of day on a grid of `step` minutes but the `avoid` ones ("09:00"): a family
    whose set-up writes an alarm beside the image's 09:00 one avoids that time, so that
    "the alarm at 9:00 am" never names two alarms."""

    step: int = 1
    avoid: tuple[str, ...] = ()

    def _grid(self) -> tuple[int, ...]:
        return _grid_except(self.step, tuple(self.avoid))

    def size(self) -> int:
        return len(self._grid())

    def draw(self, rng: random.Random) -> Time:
        minutes = self._grid()[rng.randrange(self.size())]
        return Time(minutes // 60, minutes % 60)

    def describe(self) -> str:
        grid = f" on a {self.step}-minute grid" if self.step > 1 else ""
        but = f" but {', '.join(self.avoid)}" if self.avoid else ""
        return f"a time of day{grid}{but}"


@functools.lru_cache(maxsize=16)
def _grid_except(step: int, avoid: tuple[str, ...]) -> tuple[int, ...]:
    """Minutes of the day on the grid, the avoided ones left out."""
    return tuple(m for m in range(0, 24 * 60, step)
                 if f"{m // 60:02d}:{m % 60:02d}" not in avoid)


def _subset_counts(n: int, low: int, high: int) -> list[int]:
    """How many subsets of `n` items there are of each size from `low` to `high`."""
    from math import comb

    return [comb(n, k) for k in range(low, high + 1)]


def _draw_subset(rng: random.Random, n: int, low: int, high: int) -> tuple[int, ...]:
    """Sorted indices of a subset of `n` items, every subset of `low` to `high` items
    equally likely (its size drawn by how many subsets have it)."""
    count = rng.choices(range(low, high + 1), weights=_subset_counts(n, low, high))[0]
    return tuple(sorted(rng.sample(range(n), count)))


@dataclass(frozen=True)
class DaySet:
    """A set of `low` to `high` weekdays."""

    low: int = 1
    high: int = 7

    def size(self) -> int:
        return sum(_subset_counts(len(WEEKDAYS), self.low, self.high))

    def draw(self, rng: random.Random) -> Days:
        return Days(tuple(WEEKDAYS[i] for i in _draw_subset(rng, len(WEEKDAYS), self.low,
                                                            self.high)))

    def describe(self) -> str:
        return f"{self.low} to {self.high} weekdays"


@dataclass(frozen=True)
class PhoneNumber:
    """A number in an area code of the list, exchange 200-999, any line."""

    areas: tuple[str, ...] = ("201", "212", "305", "312", "415", "503", "617", "713", "808")

    def size(self) -> int:
        return len(self.areas) * 800 * 10_000

    def draw(self, rng: random.Random) -> Phone:
        area = self.areas[rng.randrange(len(self.areas))]
        return Phone(f"{area}{rng.randint(200, 999)}{rng.randint(0, 9999):04d}")

    def describe(self) -> str:
        return "a ten-digit phone number"


@dataclass(frozen=True)
class NumberRange:
    """An integer from `low` to `high` that knows its keypad keys (`Number`)."""

    low: int
    high: int

    def size(self) -> int:
        return self.high - self.low + 1

    def draw(self, rng: random.Random) -> Number:
        return Number(rng.randint(self.low, self.high))

    def describe(self) -> str:
        return f"a number from {self.low} to {self.high}"


@dataclass(frozen=True)
class Subset:
    """`low` to `high` items of a list (every subset of each size equally likely)."""

    items: tuple[str, ...]
    low: int = 1
    high: int = 1

    def size(self) -> int:
        return sum(_subset_counts(len(self.items), self.low, self.high))

    def draw(self, rng: random.Random) -> Picked:
        return Picked(self.items, _draw_subset(rng, len(self.items), self.low, self.high))

    def describe(self) -> str:
        return f"{self.low} to {self.high} of {len(self.items)} items"


LOCAL_EXCHANGES = tuple(e for e in range(200, 1000) if e % 100 != 11)
"""NANP central-office codes: 200-999 but the N11 service codes (211 ... 911), which the
dialer's as-you-type formatter takes for a whole number and leaves the rest unformatted."""


@dataclass(frozen=True)
class LocalPhoneNumber:
    """A seven-digit local number, any line of an exchange (B-MoCA's `call 223-4458`)."""

    def size(self) -> int:
        return len(LOCAL_EXCHANGES) * 10_000

    def draw(self, rng: random.Random) -> Phone:
        exchange = LOCAL_EXCHANGES[rng.randrange(len(LOCAL_EXCHANGES))]
        return Phone(f"{exchange}{rng.randint(0, 9999):04d}")

    def describe(self) -> str:
        return "a seven-digit local phone number"


def _label(record: Mapping[str, Any]) -> Any:
    """What names a record in a listing: its `name`, `word`, `label` or first field."""
    for key in ("name", "word", "label", "state"):
        if key in record:
            return record[key]
    return next(iter(record.values()), "")


TYPES: dict[str, Callable[[Any], Any]] = {
    "choice": lambda spec: Choice(tuple(spec)),
    "int": lambda spec: IntRange(int(spec[0]), int(spec[1])),
    "time": lambda spec: TimeOfDay(int((spec or {}).get("step", 1)),
                                   tuple((spec or {}).get("avoid", ()))),
    "days": lambda spec: DaySet(*(spec or ())),
    "phone": lambda spec: PhoneNumber(**({"areas": tuple(spec)} if spec else {})),
    "number": lambda spec: NumberRange(int(spec[0]), int(spec[1])),
    "subset": lambda spec: Subset(tuple(str(i) for i in spec["items"]),
                                  int(spec.get("low", 1)), int(spec.get("high", 1))),
    "local_phone": lambda spec: LocalPhoneNumber(),
    "person": lambda spec: vocab.PersonName(tuple(spec or ())),
    "people": lambda spec: vocab.PeopleNames(int(spec["count"]), tuple(spec.get("cultures", ()))),
    "text": vocab.free_text,
}
"""`name: {type: spec}` in a family's `params`: `choice: [values]`, `int: [low, high]`,
`time: {step: minutes, avoid: ["09:00", ...]}`, `days: [fewest, most]`, `phone: [area
codes]`, `local_phone:` (each may be null for its default), `number: [low, high]` (an int
with its keypad keys), `subset: {items: [names], low: fewest, high: most}`, `person:` or
`person: [cultures]`, `people: {count: N}`, `text: message` or `text: {words: [low, high]}`
(`bmoca/tasks/vocab.py`)."""


def parse_type(where: str, spec: Any):
    if not isinstance(spec, Mapping) or len(spec) != 1:
        raise TaskError(f"{where}: expected one of {', '.join(TYPES)} as a one-key mapping")
    (kind, body), = spec.items()
    if kind not in TYPES:
        raise TaskError(f"{where}: unknown parameter type {kind!r}; types are {', '.join(TYPES)}")
    try:
        made = TYPES[kind](body)
    except (TypeError, ValueError, IndexError, KeyError) as exc:
        raise TaskError(f"{where}: {kind}: {exc}") from None
    if made.size() < 1:
        raise TaskError(f"{where}: {kind}: the parameter has no values")
    return made


class _Record:
    """A mapping choice, read by attribute in templates (`${dept.name}`)."""

    def __init__(self, fields: Mapping[str, Any]):
        self._fields = dict(fields)

    def __getattr__(self, name: str) -> Any:
        try:
            return self._fields[name]
        except KeyError:
            raise AttributeError(name) from None

    def __str__(self) -> str:
        return str(self._fields.get("name", self._fields))

    def as_dict(self) -> dict[str, Any]:
        """The fields (for JSON: AndroidWorld's task `params`)."""
        return dict(self._fields)

    def __repr__(self) -> str:
        return f"Record({sorted(self._fields.items(), key=lambda kv: str(kv[0]))!r})"

"""People's names and free text as family parameters (`person`, `people`, `text`).

Names come from per-culture lists (`data/vocab/names.yaml`): a drawn person's given and
family names belong to one culture, so an instance reads like a real address book. Free
text is either a short message built from slots or a run of words
(`data/vocab/words.yaml`). Everything is ASCII, so `input text` types it on any phone.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

_DIR = Path(__file__).resolve().parent / "data" / "vocab"
MESSAGE_SLOTS = ("greeting", "request", "colour", "thing", "when")


@functools.cache
def _names() -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    data = yaml.safe_load((_DIR / "names.yaml").read_text("utf-8"))
    return {culture: (tuple(lists["given"]), tuple(lists["family"]))
            for culture, lists in data.items()}


@functools.cache
def _words() -> dict[str, Any]:
    return yaml.safe_load((_DIR / "words.yaml").read_text("utf-8"))


def cultures() -> tuple[str, ...]:
    return tuple(_names())


# -- values ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Person:
    given: str
    family: str
    culture: str

    @property
    def full(self) -> str:
        """"Given Family", as Contacts displays a name."""
        return f"{self.given} {self.family}"

    @property
    def initials(self) -> str:
        return f"{self.given[0]}{self.family[0]}"

    def __str__(self) -> str:
        return self.full


@dataclass(frozen=True)
class People:
    """Distinct persons (no two share a given or a family name), read by index:
    `${guests[0].full}`."""

    persons: tuple[Person, ...]

    def __getitem__(self, index: int) -> Person:
        return self.persons[index]

    def __len__(self) -> int:
        return len(self.persons)

    @property
    def count(self) -> int:
        return len(self.persons)

    @property
    def text(self) -> str:
        """"A, B and C"."""
        names = [p.full for p in self.persons]
        return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Text:
    words: tuple[str, ...]

    @property
    def text(self) -> str:
        return " ".join(self.words)

    @property
    def count(self) -> int:
        return len(self.words)

    @property
    def without_last(self) -> str:
        """The text one word short (a near miss that stops typing early)."""
        return " ".join(self.words[:-1])

    @property
    def first(self) -> str:
        return self.words[0]

    def __str__(self) -> str:
        return self.text


# -- parameter types ----------------------------------------------------------------------


def _pool(chosen: Sequence[str]) -> tuple[str, ...]:
    known = _names()
    unknown = [c for c in chosen if c not in known]
    if unknown:
        raise ValueError(f"unknown culture {unknown[0]!r}; cultures are {', '.join(known)}")
    return tuple(chosen) or tuple(known)


@dataclass(frozen=True)
class PersonName:
    """`person:` or `person: [cultures]`: one person's name from one culture's lists."""

    cultures: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _pool(self.cultures)  # an unknown culture is an error when the family loads

    def _cultures(self) -> tuple[str, ...]:
        return _pool(self.cultures)

    def size(self) -> int:
        names = _names()
        return sum(len(names[c][0]) * len(names[c][1]) for c in self._cultures())

    def draw(self, rng: random.Random) -> Person:
        culture = rng.choice(self._cultures())
        given, family = _names()[culture]
        return Person(rng.choice(given), rng.choice(family), culture)

    def describe(self) -> str:
        n = len(self._cultures())
        return f"a person's name from {n} culture{'s' if n > 1 else ''}"


@dataclass(frozen=True)
class PeopleNames:
    """`people: {count: N, cultures: [...]}`: N persons of one culture with pairwise
    different given and family names (so "the contact named X" is never ambiguous)."""

    count: int
    cultures: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not 1 <= self.count <= 8:
            raise ValueError(f"count must be 1 to 8, got {self.count}")
        _pool(self.cultures)

    def size(self) -> int:
        names = _names()
        return sum(math.perm(len(names[c][0]), self.count) * math.perm(len(names[c][1]), self.count)
                   for c in _pool(self.cultures))

    def draw(self, rng: random.Random) -> People:
        culture = rng.choice(_pool(self.cultures))
        given, family = _names()[culture]
        return People(tuple(Person(g, f, culture) for g, f in zip(
            rng.sample(given, self.count), rng.sample(family, self.count), strict=True)))

    def describe(self) -> str:
        n = len(_pool(self.cultures))
        return f"{self.count} people's names of {'one of ' if n > 1 else ''}{n} culture{'s' if n > 1 else ''}"


@dataclass(frozen=True)
class FreeText:
    """`text: message` (a short message from slots: "hi, can you bring the blue umbrella
    tomorrow") or `text: {words: [low, high]}` (that many words from a list)."""

    low: int = 0
    high: int = 0

    @property
    def is_message(self) -> bool:
        return self.high == 0

    def size(self) -> int:
        if self.is_message:
            return math.prod(len(_words()["message"][slot]) for slot in MESSAGE_SLOTS)
        n = len(_words()["words"])
        return sum(n ** k for k in range(self.low, self.high + 1))

    def draw(self, rng: random.Random) -> Text:
        if self.is_message:
            slots = _words()["message"]
            parts = [rng.choice(slots[slot]) for slot in MESSAGE_SLOTS]
            parts[0] += ","
            return Text(tuple(" ".join(parts).split()))
        words = _words()["words"]
        return Text(tuple(rng.choice(words) for _ in range(rng.randint(self.low, self.high))))

    def describe(self) -> str:
        if self.is_message:
            return "a short message"
        return f"{self.low} to {self.high} words"


def free_text(spec: Any) -> FreeText:
    if spec in (None, "message"):
        return FreeText()
    if isinstance(spec, dict) and set(spec) == {"words"}:
        low, high = (int(v) for v in spec["words"])
        if not 1 <= low <= high <= 12:
            raise ValueError(f"words must be [low, high] within 1..12, got {spec['words']}")
        return FreeText(low, high)
    raise ValueError(f"expected message or {{words: [low, high]}}, got {spec!r}")

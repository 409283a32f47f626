"""Comparing an agent's answer with an information-retrieval task's reference answer.

An answer is free text (the JSON `answer` action); a task declares how it is compared:

* `text`: equal once case, accents' combining marks, punctuation and spacing are set aside
  ("The Eiffel Tower." == "the eiffel tower");
* `number`: the first number in the answer (after its last `=`, when it writes out the
  sum: "165 × 401 = 66,165") equals the reference within `tolerance` ("It is 42.0" == 42;
  thousands separators and a leading minus are read);
* `set`: the same items, in any order, split at commas, semicolons, "and" and new lines;
  with `among` (every item the answer could name), the items of `among` the answer names,
  so "It repeats on Monday and Friday" gives {Monday, Friday};
* `time`: the same time of day, written 24-hour ("18:05") or 12-hour ("6:05 pm");
* `phone`: the same phone number, its digits read however it is written ("(415) 555-0199",
  "415.555.0199", "+1 415 555 0199"; a North American country code 1 is set aside).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

COMPARISONS = ("text", "number", "set", "time", "phone")
_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?|-?\.\d+")
_TIME = re.compile(r"(\d{1,2})\s*[:.h]\s*(\d{2})\s*([ap])?\.?\s*m?\.?", re.IGNORECASE)
_TIME_HOUR_ONLY = re.compile(r"(\d{1,2})\s*([ap])\.?\s*m\.?", re.IGNORECASE)
_SPLIT = re.compile(r"\s*(?:,|;|\n|\band\b|&)\s*", re.IGNORECASE)


@dataclass(frozen=True)
class Claims:
    """What the agent said during the episode: its last answer and its status claim."""

    answer: str | None = None
    status: str | None = None


def normalized(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", str(text))
    kept = "".join(c for c in decomposed if not unicodedata.combining(c))
    words = re.sub(r"[^\w]+", " ", kept.casefold())
    return " ".join(words.split())


def number_in(text: str) -> float | None:
    text = str(text).rpartition("=")[2] if "=" in str(text) else str(text)
    match = _NUMBER.search(text)
    if match is None:
        return None
    try:
        return float(match.group(0).replace(",", ""))
    except ValueError:
        return None


def items_in(text: str) -> frozenset[str]:
    return frozenset(n for n in (normalized(part) for part in _SPLIT.split(str(text))) if n)


def minutes_in(text: str) -> int | None:
    """Minutes after midnight of the first time of day in `text`, or None."""
    match = _TIME.search(str(text))
    if match is not None:
        hour, minute, half = int(match.group(1)), int(match.group(2)), match.group(3)
    else:
        match = _TIME_HOUR_ONLY.search(str(text))
        if match is None:
            return None
        hour, minute, half = int(match.group(1)), 0, match.group(2)
    if half is not None:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if half.lower() == "p" else 0)
    if hour > 23 or minute > 59:
        return None
    return hour * 60 + minute


def named_in(text: str, among: Sequence[object]) -> frozenset[str]:
    """The items of `among` that `text` names, each as whole words (normalized)."""
    words = f" {normalized(text)} "
    return frozenset(n for n in (normalized(str(item)) for item in among) if f" {n} " in words)


def phone_digits(text: str) -> str:
    """A phone number's digits as the answer writes them, without a leading country code 1
    (the North American numbers the phone's dialpad formats): "+1 (415) 555-0199" and
    "415-555-0199" both give 4155550199."""
    digits = re.sub(r"\D", "", str(text))
    return digits[1:] if len(digits) == 11 and digits.startswith("1") else digits


def matches(answer: str | None, expected: object, compare: str = "text",
            tolerance: float = 0.0, among: Sequence[object] | None = None) -> bool:
    """Whether `answer` gives `expected` under `compare` (see the module's docstring)."""
    if answer is None:
        return False
    if compare == "text":
        return normalized(answer) == normalized(str(expected))
    if compare == "number":
        got, want = number_in(answer), number_in(str(expected))
        return got is not None and want is not None and abs(got - want) <= tolerance
    if compare == "set":
        want = expected if isinstance(expected, list | tuple | set | frozenset) else [expected]
        given = named_in(answer, among) if among else items_in(answer)
        return given == frozenset(normalized(str(w)) for w in want)
    if compare == "time":
        got, want = minutes_in(answer), minutes_in(str(expected))
        return got is not None and got == want
    if compare == "phone":
        got, want = phone_digits(answer), phone_digits(str(expected))
        return bool(want) and got == want
    raise ValueError(f"unknown comparison {compare!r}; comparisons are {', '.join(COMPARISONS)}")

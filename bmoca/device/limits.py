"""What a device call accepts, checked once at the contract's boundary.

Both devices run these checks before anything reaches the phone, so a bad value from an
agent or a script is an `InvalidInput` with the phone unchanged, never an OverflowError
from deep inside, and never a phone left in a state every later call fails on.
"""

from __future__ import annotations

import math
import numbers

from bmoca.device.contract import InvalidInput

MAX_DURATION_MS = 2**31 - 1
"""`input swipe`'s duration is a Java int: about 24.8 days."""

MAX_TEXT_CHARS = 100_000
"""The longest text one `input_text` call types (a real `input text` hits ADB's limit sooner)."""


def coordinate(value: object, what: str) -> int:
    """A pixel coordinate: an integral number (a float is truncated, as `input tap` does)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InvalidInput(f"{what} must be a number, got {value!r}")
    if isinstance(value, float) and not math.isfinite(value):
        raise InvalidInput(f"{what} must be finite, got {value!r}")
    try:
        return int(value)
    except (OverflowError, ValueError, TypeError):
        raise InvalidInput(f"{what} must be a finite number, got {value!r}") from None


def point(x: object, y: object, size: tuple[int, int]) -> tuple[int, int]:
    """(x, y) as ints on a `size` = (width, height) screen, or InvalidInput."""
    xi, yi = coordinate(x, "x"), coordinate(y, "y")
    width, height = size
    if not (0 <= xi < width and 0 <= yi < height):
        raise InvalidInput(f"point ({xi}, {yi}) is outside the {width}x{height} screen")
    return xi, yi


def duration_ms(value: object) -> int:
    """A gesture duration in ms: a finite number in [0, MAX_DURATION_MS]."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InvalidInput(f"duration must be a number of ms, got {value!r}")
    if isinstance(value, float) and not math.isfinite(value):
        raise InvalidInput(f"duration must be finite, got {value!r}")
    if not 0 <= value <= MAX_DURATION_MS:
        raise InvalidInput(f"duration must be in [0, {MAX_DURATION_MS}] ms (a Java int, as "
                           f"`input swipe` takes it), got {value!r}")
    return int(value)


def text(value: object) -> str:
    """Text to type: a str of at most MAX_TEXT_CHARS characters."""
    if not isinstance(value, str):
        raise InvalidInput(f"text must be a string, got {type(value).__name__}")
    if len(value) > MAX_TEXT_CHARS:
        raise InvalidInput(f"text is {len(value)} characters; one input_text call types at "
                           f"most {MAX_TEXT_CHARS}")
    return value

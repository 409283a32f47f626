"""Device-level commands: what every action mode turns an agent's action into.

The environment executes them on a `bmoca.device.Device`; `Screen` is what a conversion
may know of the current screen. Re-exported by `bmoca.env.actions`.
"""

from __future__ import annotations

from dataclasses import dataclass

from bmoca.env.observations import Element

# -- commands --------------------------------------------------------------------------


@dataclass(frozen=True)
class Tap:
    """Touch and lift at one pixel."""

    x: int
    y: int


@dataclass(frozen=True)
class Swipe:
    """Touch at (x1, y1), move to (x2, y2), lift."""

    x1: int
    y1: int
    x2: int
    y2: int
    duration_ms: int = 300


@dataclass(frozen=True)
class LongPress:
    """Touch and hold at one pixel."""

    x: int
    y: int
    duration_ms: int = 800


@dataclass(frozen=True)
class PressKey:
    """A key event; `key` is a `bmoca.device.Key` name (e.g. "HOME", "ENTER")."""

    key: str


@dataclass(frozen=True)
class TypeText:
    """Type into the focused field."""

    text: str


@dataclass(frozen=True)
class Wait:
    """Do nothing for a moment (AndroidWorld's `wait`: let the screen settle)."""


@dataclass(frozen=True)
class OpenApp:
    """Launch an app by its name as the agent wrote it."""

    name: str


@dataclass(frozen=True)
class Answer:
    """The agent's answer to an information-retrieval task; no device effect."""

    text: str


@dataclass(frozen=True)
class Status:
    """The agent declares the episode over: "complete" or "infeasible"."""

    goal_status: str


Command = Tap | Swipe | LongPress | PressKey | TypeText | Wait | OpenApp | Answer | Status


class InvalidAction(ValueError):
    """An action the mode cannot turn into commands; the message says what was wrong."""


class Unreadable(str):
    """A model's answer that its agent could not read in the model's own grammar (a GUI
    model's `Action: ...` line, a `<tool_call>`): the text as the model wrote it, with
    `reason`. JSON actions refuse it with that reason, so the step counts as the agent's
    invalid action with a message that says what was wrong with the answer, and the
    store keeps the answer verbatim."""

    reason: str

    def __new__(cls, answer: str, reason: str) -> Unreadable:
        made = super().__new__(cls, answer)
        made.reason = reason
        return made

    def __reduce__(self) -> tuple[type[Unreadable], tuple[str, str]]:
        return Unreadable, (str(self), self.reason)  # worker processes send it back


@dataclass(frozen=True)
class Screen:
    """What a conversion needs to know about the current screen.

    `elements` are the translator's output (for `tap(n)` and JSON `index`); `rtl` says the
    locale is right-to-left, which mirrors the navigation bar.
    """

    width: int
    height: int
    elements: tuple[Element, ...] = ()
    rtl: bool = False

    def __post_init__(self) -> None:
        if self.width <= 0 or self.height <= 0:
            raise ValueError(f"screen size must be positive, got {self.width}x{self.height}")
        if not isinstance(self.elements, tuple):
            object.__setattr__(self, "elements", tuple(self.elements))

    def element(self, index: int, what: str) -> Element:
        """Element `index`, or InvalidAction naming `what` referred to it."""
        count = len(self.elements)
        if not 0 <= index < count:
            valid = f"valid: 0-{count - 1}" if count else "the screen has no elements"
            raise InvalidAction(f"{what}: no element {index} on this screen ({valid})")
        return self.elements[index]

    def center_of(self, index: int, what: str) -> tuple[int, int]:
        """Centre of the on-screen part of element `index`, where a tap on it lands."""
        x1, y1, x2, y2 = self.element(index, what).bounds
        x1, y1, x2, y2 = max(x1, 0), max(y1, 0), min(x2, self.width), min(y2, self.height)
        if x2 <= x1 or y2 <= y1:
            raise InvalidAction(f"{what}: element {index} is not visible on the screen "
                                f"(bounds {self.elements[index].bounds})")
        return (x1 + x2) // 2, (y1 + y2) // 2


def to_pixel(value: float, size: int) -> int:
    """Normalised [0, 1] coordinate to a pixel: truncate, cap at the last pixel."""
    return min(int(value * size), size - 1)


def tap_at(y: float, x: float, screen: Screen) -> Tap:
    return Tap(to_pixel(x, screen.width), to_pixel(y, screen.height))


def swipe_at(ty: float, tx: float, ly: float, lx: float, screen: Screen) -> Swipe:
    return Swipe(to_pixel(tx, screen.width), to_pixel(ty, screen.height),
                 to_pixel(lx, screen.width), to_pixel(ly, screen.height))


# Navigation-bar buttons (y, x) in [0, 1]: the centre line of a 48 dp bar (reference
# 252/256) and the reference's button columns 43/128, 64/128, 85/128.
NAV_BAR_Y = 0.984
NAV_BUTTON_X: dict[str, float] = {"BACK": 0.336, "HOME": 0.5, "OVERVIEW": 0.664}


def nav_tap(button: str, screen: Screen) -> Tap:
    """Tap a navigation-bar button; the bar is mirrored in right-to-left locales."""
    x = NAV_BUTTON_X[button]
    return tap_at(NAV_BAR_Y, 1.0 - x if screen.rtl else x, screen)

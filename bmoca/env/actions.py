"""Action modes: what an agent emits, turned into device-level commands.

Each mode (`DualGesture`, `Discrete`, `TextActions`, `JsonActions`) has a gymnasium
`space()`, a `convert(action, screen)` that returns a list of `Command`s or raises
`InvalidAction`, and a `label(action)` for action histories. Everything here is pure:
the environment executes the commands on a `bmoca.device.Device`.
"""

from __future__ import annotations

import abc
import json
import math
import re
import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import gymnasium
import numpy as np

from bmoca.device.contract import InvalidInput, Key
from bmoca.env.commands import (
    NAV_BAR_Y,
    NAV_BUTTON_X,
    Answer,
    Command,
    InvalidAction,
    LongPress,
    OpenApp,
    PressKey,
    Screen,
    Status,
    Swipe,
    Tap,
    TypeText,
    Unreadable,
    Wait,
    nav_tap,
    swipe_at,
    tap_at,
    to_pixel,
)

__all__ = [
    "Answer", "Command", "Discrete", "DualGesture", "FreeText", "InvalidAction", "JsonActions",
    "LongPress", "MODES", "NAV_BAR_Y", "NAV_BUTTON_X", "ActionMode", "OpenApp", "PressKey",
    "Screen", "Status", "Swipe", "TAP_X", "TAP_Y", "Tap", "TextActions", "TypeText",
    "Unreadable", "Wait",
    "make_mode", "to_pixel",
]


# -- spaces ----------------------------------------------------------------------------


def _junk(rng: np.random.Generator) -> str:
    alphabet = string.ascii_letters + string.digits + string.punctuation + " \n"
    return "".join(alphabet[i] for i in rng.integers(0, len(alphabet), rng.integers(0, 40)))


class FreeText(gymnasium.spaces.Space[str]):
    """Any str up to `max_length` characters: the action space of LLM agents.

    gymnasium's `Text` restricts the character set, which a model's answer does not
    respect. `sample()` draws from `sampler` (valid-looking actions and junk) with the
    space's seeded `np_random`.
    """

    def __init__(self, max_length: int = 16384,
                 sampler: Callable[[np.random.Generator], str] | None = None,
                 seed: int | np.random.Generator | None = None) -> None:
        if max_length <= 0:
            raise ValueError(f"max_length must be positive, got {max_length}")
        self.max_length = int(max_length)
        self.sampler = sampler or _junk
        super().__init__(shape=None, dtype=None, seed=seed)

    @property
    def is_np_flattenable(self) -> bool:
        return False

    def sample(self, mask: Any | None = None, probability: Any | None = None) -> str:
        if mask is not None or probability is not None:
            raise NotImplementedError("FreeText.sample takes no mask or probability")
        return self.sampler(self.np_random)[: self.max_length]

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and len(x) <= self.max_length

    def to_jsonable(self, sample_n: Sequence[str]) -> list[str]:
        return list(sample_n)

    def from_jsonable(self, sample_n: Sequence[str]) -> list[str]:
        return list(sample_n)

    def __repr__(self) -> str:
        return f"FreeText(max_length={self.max_length})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FreeText) and other.max_length == self.max_length

    def __hash__(self) -> int:
        return hash((FreeText, self.max_length))


# -- modes -----------------------------------------------------------------------------


class ActionMode(abc.ABC):
    """One way for an agent to act."""

    name: ClassVar[str]

    @abc.abstractmethod
    def space(self) -> gymnasium.Space:
        """The gymnasium action space."""

    @abc.abstractmethod
    def convert(self, action: Any, screen: Screen) -> list[Command]:
        """Device commands for `action` on `screen`; InvalidAction if it is malformed."""

    @abc.abstractmethod
    def label(self, action: Any) -> str:
        """A short string for action histories; InvalidAction if it is malformed."""


def _unit_vector(action: Any, what: str) -> np.ndarray:
    """Four finite floats in [0, 1], or InvalidAction."""
    if isinstance(action, (str, bytes, Mapping)):
        raise InvalidAction(f"{what} must be 4 numbers (touch_y, touch_x, lift_y, lift_x), "
                            f"got {type(action).__name__}")
    try:
        vector = np.asarray(action, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):
        raise InvalidAction(f"{what} must be 4 numbers (touch_y, touch_x, lift_y, lift_x), "
                            f"got {_snippet(repr(action))}") from None
    if vector.shape != (4,):
        raise InvalidAction(f"{what} must have shape (4,) (touch_y, touch_x, lift_y, lift_x), "
                            f"got shape {vector.shape}")
    if not np.all(np.isfinite(vector)):
        raise InvalidAction(f"{what} has a non-finite value: {vector.tolist()}")
    if np.any(vector < 0.0) or np.any(vector > 1.0):
        raise InvalidAction(f"{what} values must lie in [0, 1], got {vector.tolist()}")
    return vector


class DualGesture(ActionMode):
    """B-MoCA's continuous action: (touch_y, touch_x, lift_y, lift_x) in [0, 1].

    A gesture is a tap at the touch point when sqrt((2*dy)^2 + dx^2) <= threshold (y is
    doubled for the 2:1 screen), otherwise a swipe from touch to lift. The comparison
    allows 1e-6 so that points written exactly `threshold` apart are a tap whatever the
    float rounding.
    """

    name = "dual_gesture"

    def __init__(self, threshold: float = 0.14) -> None:
        self.threshold = float(threshold)

    def space(self) -> gymnasium.spaces.Box:
        return gymnasium.spaces.Box(0.0, 1.0, shape=(4,), dtype=np.float32)

    def is_tap(self, vector: Sequence[float]) -> bool:
        ty, tx, ly, lx = (float(v) for v in vector)
        return math.hypot(2.0 * (ly - ty), lx - tx) <= self.threshold + 1e-6

    def convert(self, action: Any, screen: Screen) -> list[Command]:
        vector = _unit_vector(action, "dual gesture")
        ty, tx, ly, lx = (float(v) for v in vector)
        if self.is_tap(vector):
            return [tap_at(ty, tx, screen)]
        return [swipe_at(ty, tx, ly, lx, screen)]

    def label(self, action: Any) -> str:
        vector = _unit_vector(action, "dual gesture")
        return "dual-gesture({:.2f}, {:.2f}, {:.2f}, {:.2f})".format(*vector)


# Discrete grid: 27 rows x 14 columns of taps, then 4 swipes, then 3 buttons.
TAP_Y = 0.025 + 0.0375 * np.arange(27)
"""The discrete space's tap rows: y in [0, 1] of the screen's height, top to bottom."""
TAP_X = 0.025 + 0.075 * np.arange(14)
"""Its tap columns: x in [0, 1] of the width, left to right (tap i is row i // 14, column
i % 14)."""
_ROWS, _COLS = len(TAP_Y), len(TAP_X)
_N_TAPS = _ROWS * _COLS
_SWIPES: dict[str, tuple[float, float, float, float]] = {  # finger direction, (ty, tx, ly, lx)
    "up": (0.8, 0.5, 0.2, 0.5),
    "down": (0.2, 0.5, 0.8, 0.5),
    "right": (0.5, 0.2, 0.5, 0.8),
    "left": (0.5, 0.8, 0.5, 0.2),
}
_SWIPE_ORDER = ("up", "down", "right", "left")
_BUTTON_ORDER = ("BACK", "HOME", "OVERVIEW")


class Discrete(ActionMode):
    """B-MoCA's 385-way space for custom agents: 378 grid taps, 4 swipes, 3 buttons.

    0-377 tap row r = i // 14, column c = i % 14 at y = 0.025 + 0.0375 r, x = 0.025 + 0.075 c;
    378-381 swipe up, down, right, left (finger direction); 382-384 back, home, overview.

    Deviation from the reference: it taps the buttons at y = 0.95, x = 0.22/0.50/0.78, which
    misses a 48 dp navigation bar at low densities (the bar starts below y = 0.95). We tap
    the bar's centre line y = 0.984 at x = 0.336/0.5/0.664, mirrored to 1 - x when
    `screen.rtl` (Android mirrors the bar in right-to-left locales), exactly as the text
    actions' `press(...)` does.
    """

    name = "discrete"
    n = _N_TAPS + len(_SWIPES) + len(_BUTTON_ORDER)
    n_taps = _N_TAPS

    def space(self) -> gymnasium.spaces.Discrete:
        return gymnasium.spaces.Discrete(self.n)

    def _index(self, action: Any) -> int:
        if isinstance(action, np.ndarray) and action.shape in ((), (1,)):
            action = action.reshape(()).item() if action.dtype.kind in "iu" else action
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise InvalidAction(f"discrete action must be an int in [0, {self.n - 1}], "
                                f"got {action!r}")
        index = int(action)
        if not 0 <= index < self.n:
            raise InvalidAction(f"discrete action {index} is out of range [0, {self.n - 1}]")
        return index

    def convert(self, action: Any, screen: Screen) -> list[Command]:
        index = self._index(action)
        if index < _N_TAPS:
            return [tap_at(TAP_Y[index // _COLS], TAP_X[index % _COLS], screen)]
        index -= _N_TAPS
        if index < len(_SWIPE_ORDER):
            return [swipe_at(*_SWIPES[_SWIPE_ORDER[index]], screen)]
        return [nav_tap(_BUTTON_ORDER[index - len(_SWIPE_ORDER)], screen)]

    def label(self, action: Any) -> str:
        index = self._index(action)
        if index < _N_TAPS:
            return f"tap(y={TAP_Y[index // _COLS]:.3f}, x={TAP_X[index % _COLS]:.3f})"
        index -= _N_TAPS
        if index < len(_SWIPE_ORDER):
            return f"swipe({_SWIPE_ORDER[index]})"
        return f"press({_BUTTON_ORDER[index - len(_SWIPE_ORDER)]})"

    @staticmethod
    def index_of(touch_y: float, touch_x: float, lift_y: float, lift_x: float, *,
                 rtl: bool = False) -> int:
        """Discretise a recorded [0, 1] dual gesture, as the reference does demonstrations.

        In tanh space (a -> 2a - 1): a tap when the doubled-y distance is < 0.1; a tap
        within 0.01 of a button becomes that button (our button positions, see the class
        docstring); any other tap the nearest grid cell; a swipe the direction with the
        highest cosine similarity to (lift - touch).
        """
        vector = _unit_vector((touch_y, touch_x, lift_y, lift_x), "gesture") * 2.0 - 1.0
        ty, tx, ly, lx = (float(v) for v in vector)
        dy, dx = ly - ty, lx - tx
        if math.hypot(2.0 * dy, dx) < 0.1:
            for i, button in enumerate(_BUTTON_ORDER):
                bx = 1.0 - NAV_BUTTON_X[button] if rtl else NAV_BUTTON_X[button]
                if math.hypot(ty - (2 * NAV_BAR_Y - 1), tx - (2 * bx - 1)) <= 0.01:
                    return _N_TAPS + len(_SWIPE_ORDER) + i
            row = int(np.argmin(np.abs(TAP_Y * 2 - 1 - ty)))
            col = int(np.argmin(np.abs(TAP_X * 2 - 1 - tx)))
            return row * _COLS + col
        unit = {"up": (-1.0, 0.0), "down": (1.0, 0.0), "right": (0.0, 1.0), "left": (0.0, -1.0)}
        norm = math.hypot(dy, dx)
        scores = [(unit[d][0] * dy + unit[d][1] * dx) / norm for d in _SWIPE_ORDER]
        return _N_TAPS + int(np.argmax(scores))


# -- text actions ----------------------------------------------------------------------

_ACTION_LINE = re.compile(r"^[ \t>#*_`\-]*action[ \t*_`]*:", re.IGNORECASE | re.MULTILINE)
_CALLS: dict[str, re.Pattern[str]] = {
    kw: re.compile(rf"(?<![\w-]){pattern}\s*\(([^()]*)\)", re.IGNORECASE)
    for kw, pattern in (("dual-gesture", r"dual[-_ ]?gesture"), ("tap", "tap"),
                        ("swipe", "swipe"), ("press", "press"))
}
_QUOTES = "\"'`\u2018\u2019\u201c\u201d"
_TEXT_HELP = ('expected one of dual-gesture(ty, tx, ly, lx), tap(n), '
              'swipe("up"|"down"|"left"|"right"), press("HOME"|"BACK"|"OVERVIEW")')
# The reference's text-action swipes, (ty, tx, ly, lx). Note "left" moves the finger
# left-to-right, the opposite of the discrete space's "left".
TEXT_SWIPES: dict[str, tuple[float, float, float, float]] = {
    "up": (0.8, 0.5, 0.2, 0.5),
    "down": (0.2, 0.5, 0.8, 0.5),
    "left": (0.5, 0.2, 0.5, 0.8),
    "right": (0.5, 0.8, 0.5, 0.2),
}


def _snippet(text: str, limit: int = 80) -> str:
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= limit else flat[: limit - 3] + "...")


def _bare(argument: str) -> str:
    """An argument without spacing, an optional `name=` and surrounding quotes."""
    value = argument.strip()
    value = re.sub(r"^[A-Za-z_]\w*\s*=\s*", "", value)
    value = value.strip()
    while len(value) >= 1 and value[0] in _QUOTES:
        value = value[1:]
    while len(value) >= 1 and value[-1] in _QUOTES:
        value = value[:-1]
    return value.strip()


def action_section(answer: str) -> str:
    """The text after the last line starting with `Action:` (any case, markdown allowed).

    Models explain before they act; reading only the action section keeps a thought such
    as "I could tap the icon" from being executed. Without such a line: the whole answer.
    """
    lines = list(_ACTION_LINE.finditer(answer))
    return answer[lines[-1].end():] if lines else answer


@dataclass(frozen=True)
class TextCall:
    """A parsed text action: `kind` is dual-gesture/tap/swipe/press, `value` its argument."""

    kind: str
    value: tuple[float, float, float, float] | int | str

    def __str__(self) -> str:
        if self.kind == "dual-gesture":
            return "dual-gesture({:.2f}, {:.2f}, {:.2f}, {:.2f})".format(*self.value)
        return f"{self.kind}({self.value})"


class TextActions(ActionMode):
    """B-MoCA's text actions for LLM agents, read from a free-form model answer.

    Options: dual-gesture(ty, tx, ly, lx), tap(n) (centre of element n), swipe(direction),
    press(HOME|BACK|OVERVIEW) (a tap on the navigation bar). The keyword order is the
    reference's (dual-gesture, tap, swipe, press; the first found wins). Deliberate
    improvements over the reference, which searches the raw answer for keywords:
    - only the text after the last `Action:` line is read when there is one;
    - a keyword counts only as a call `kw(...)`, so a thought that mentions "tap" does not
      shadow `swipe("up")`; keywords are matched in any case;
    - arguments may be quoted with ', ", backticks or not at all (`swipe(up)` works; the
      reference strips two characters and fails) and spaced freely (`press ( "home" )`);
    - `press` mirrors x in right-to-left locales on every device, where the reference
      mirrored only on the tablet (whose env 109 is Arabic);
    - `tap(n)` taps the centre of the element's on-screen part.
    """

    name = "text"

    def __init__(self, threshold: float = 0.14, max_length: int = 16384) -> None:
        self.gesture = DualGesture(threshold)
        self.max_length = max_length

    def space(self) -> FreeText:
        return FreeText(self.max_length, sampler=_sample_text_action)

    def parse(self, answer: Any) -> TextCall:
        """The action an answer asks for, without looking at the screen."""
        if not isinstance(answer, str):
            raise InvalidAction(f"text action must be a str, got {type(answer).__name__}")
        _check_length(answer, self.max_length)
        section = action_section(answer)
        for kind, pattern in _CALLS.items():
            match = pattern.search(section)
            if match is not None:
                return self._parse_call(kind, match.group(1), match.group(0))
        mentioned = [kw for kw in _CALLS if kw in section.lower()]
        hint = (f" ({', '.join(mentioned)} mentioned but not written as a call like "
                f"{mentioned[0]}(...))" if mentioned else "")
        where = "after 'Action:'" if _ACTION_LINE.search(answer) else "in the answer"
        raise InvalidAction(f"no action found {where}{hint}; {_TEXT_HELP}; "
                            f"got {_snippet(section)}")

    def _parse_call(self, kind: str, argument: str, call: str) -> TextCall:
        if kind == "dual-gesture":
            parts = [_bare(p) for p in argument.strip().strip("[]").split(",")]
            if len(parts) != 4:
                raise InvalidAction(f"{call!r}: dual-gesture takes 4 numbers "
                                    f"(touch_y, touch_x, lift_y, lift_x), got {len(parts)}")
            try:
                values = [float(p) for p in parts]
            except ValueError:
                raise InvalidAction(f"{call!r}: dual-gesture arguments must be numbers") from None
            vector = _unit_vector(values, f"{call!r}")
            return TextCall(kind, tuple(float(v) for v in vector))
        value = _bare(argument)
        if kind == "tap":
            if not re.fullmatch(r"[+-]?\d+", value):
                raise InvalidAction(f"{call!r}: tap takes an element's numeric tag, "
                                    f"got {value!r}")
            if len(value) > 9:  # no screen has a billion elements; no 4,300-digit parse
                raise InvalidAction(f"{_snippet(call)}: no element with a {len(value)}-digit tag")
            return TextCall(kind, int(value))
        if kind == "swipe":
            direction = value.lower()
            if direction not in TEXT_SWIPES:
                raise InvalidAction(f"{call!r}: unknown swipe direction {value!r}; "
                                    f"valid: up, down, left, right")
            return TextCall(kind, direction)
        try:
            key = Key.parse(value)
        except InvalidInput:
            key = None
        button = {Key.HOME: "HOME", Key.BACK: "BACK", Key.APP_SWITCH: "OVERVIEW"}.get(key)
        if button is None:
            raise InvalidAction(f"{call!r}: unknown button {value!r}; valid: HOME, BACK, "
                                f"OVERVIEW")
        return TextCall(kind, button)

    def convert(self, action: Any, screen: Screen) -> list[Command]:
        call = self.parse(action)
        if call.kind == "dual-gesture":
            return self.gesture.convert(call.value, screen)
        if call.kind == "tap":
            x, y = screen.center_of(call.value, f"tap({call.value})")
            return [Tap(x, y)]
        if call.kind == "swipe":
            return [swipe_at(*TEXT_SWIPES[call.value], screen)]
        return [nav_tap(call.value, screen)]

    def label(self, action: Any) -> str:
        return str(self.parse(action))


def _sample_text_action(rng: np.random.Generator) -> str:
    """A random answer: mostly valid actions in varied styles, sometimes junk."""
    kind = int(rng.integers(0, 6))
    if kind == 0:
        values = ", ".join(f"{v:.2f}" for v in rng.random(4))
        action = f"dual-gesture({values})"
    elif kind == 1:
        action = f"tap({int(rng.integers(0, 40))})"
    elif kind == 2:
        quote = ("\"", "'", "")[int(rng.integers(0, 3))]
        action = f"swipe({quote}{rng.choice(list(TEXT_SWIPES))}{quote})"
    elif kind == 3:
        action = f'press("{rng.choice(list(NAV_BUTTON_X))}")'
    elif kind == 4:
        action = _junk(rng)
    else:
        return _junk(rng)
    if rng.random() < 0.5:
        return f"Thought: {_junk(rng)}\nAction: {action}"
    return action


# -- JSON actions ----------------------------------------------------------------------

JSON_FIELDS = ("action_type", "index", "x", "y", "text", "direction", "goal_status",
               "app_name", "keycode", "clear_text")
_TARGETED = {"click", "long_press"}
_KEY_ACTIONS = {"navigate_home": "HOME", "navigate_back": "BACK",
                "navigate_recents": "APP_SWITCH", "keyboard_enter": "ENTER"}
JSON_TYPES = ("click", "long_press", "input_text", "keyboard_enter", "navigate_home",
              "navigate_back", "navigate_recents", "scroll", "swipe", "open_app", "wait",
              "status", "answer")
_DIRECTIONS = ("up", "down", "left", "right")
_GOAL_STATUSES = ("complete", "infeasible")


def _check_length(answer: str, max_length: int) -> None:
    """Bounded cost: an answer longer than the action space allows is refused unread."""
    if len(answer) > max_length:
        raise InvalidAction(f"the answer is {len(answer)} characters; actions take at most "
                            f"{max_length}")


def _json_dict(action: Any, max_length: int = 16384) -> dict[str, Any]:
    """A dict from a dict, a JSON string, or a JSON object inside a model answer."""
    if isinstance(action, Unreadable):
        raise InvalidAction(action.reason)
    if isinstance(action, Mapping):
        return dict(action)
    if not isinstance(action, str):
        raise InvalidAction(f"JSON action must be a dict or a str, got {type(action).__name__}")
    _check_length(action, max_length)
    try:
        value = json.loads(action)
    except RecursionError:
        raise InvalidAction("the JSON is nested too deeply") from None
    except ValueError:  # not JSON, or a number past Python's 4,300-digit limit
        value = None
    else:
        if not isinstance(value, dict):
            raise InvalidAction(f"JSON action must be an object, got {type(value).__name__}")
        return value
    decoder = json.JSONDecoder()
    section = action_section(action)
    found: list[dict[str, Any]] = []
    for match in re.finditer(r"\{", section):
        try:
            value, _end = decoder.raw_decode(section, match.start())
        except RecursionError:
            raise InvalidAction("the JSON is nested too deeply") from None
        except ValueError:
            continue
        if isinstance(value, dict):
            if "action_type" in value:
                return value
            found.append(value)
    if found:
        return found[0]
    raise InvalidAction(f"no JSON object found in the answer; got {_snippet(section)}")


def _number(value: Any, field: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidAction(f"field {field!r} must be a number, got {value!r}")
    try:
        finite = math.isfinite(value)
    except OverflowError:  # an int too large for a float
        finite = False
    if not finite:
        raise InvalidAction(f"field {field!r} must be finite, got {_snippet(repr(value))}")
    return value


def _string(value: Any, field: str, *, coerce: bool = False) -> str:
    if isinstance(value, str):
        return value
    if coerce and isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    raise InvalidAction(f"field {field!r} must be a string, got {value!r}")


class JsonActions(ActionMode):
    """AndroidWorld's JSON actions: a dict, a JSON string, or JSON inside a model answer.

    Types: click, long_press (by `index` into the screen's elements or by pixel `x`, `y`),
    input_text (optionally tapping a target first, then typing and pressing ENTER as
    AndroidWorld does), keyboard_enter, navigate_home, navigate_back, navigate_recents,
    scroll (`direction` is where the content moves: the finger goes from the centre of the
    element or screen to the opposite edge), swipe (finger direction, edge to edge,
    500 ms), open_app, wait, status (complete|infeasible) and answer.
    Unknown fields, missing or conflicting fields and wrong types raise InvalidAction;
    known fields a type does not use are ignored and null counts as absent, as in
    AndroidWorld. `clear_text: true` is refused: the device has no select-all key.
    An `Unreadable` answer (a GUI model agent could not read it) is refused with its reason.
    """

    name = "json"

    def __init__(self, max_length: int = 16384) -> None:
        self.max_length = max_length

    def space(self) -> FreeText:
        return FreeText(self.max_length, sampler=_sample_json_action)

    def parse(self, action: Any) -> dict[str, Any]:
        """The validated action as a canonical dict (only the fields its type uses)."""
        raw = _json_dict(action, self.max_length)
        for key in raw:
            if key not in JSON_FIELDS:
                raise InvalidAction(f"unknown field {key!r}; JSON actions take "
                                    f"{', '.join(JSON_FIELDS)}")
        fields = {k: v for k, v in raw.items() if v is not None}
        if "action_type" not in fields:
            raise InvalidAction("missing field 'action_type'")
        kind = _string(fields["action_type"], "action_type").strip().lower()
        if kind not in JSON_TYPES:
            raise InvalidAction(f"unknown action_type {fields['action_type']!r}; valid: "
                                f"{', '.join(JSON_TYPES)}")
        out: dict[str, Any] = {"action_type": kind}
        if kind in _TARGETED or kind == "input_text":
            out.update(self._target(fields, kind, required=kind in _TARGETED))
        if kind == "scroll" and "index" in fields:  # x/y are ignored, as in AndroidWorld
            out.update(self._target({"index": fields["index"]}, kind, required=False))
        if kind in ("input_text", "answer"):
            if "text" not in fields:
                raise InvalidAction(f"{kind} needs field 'text'")
            out["text"] = _string(fields["text"], "text", coerce=True)
        if kind == "input_text" and "clear_text" in fields:
            if not isinstance(fields["clear_text"], bool):
                raise InvalidAction(f"field 'clear_text' must be true or false, got "
                                    f"{fields['clear_text']!r}")
            if fields["clear_text"]:
                raise InvalidAction("field 'clear_text': clearing a field is not supported "
                                    "(the device has no select-all key)")
        if kind in ("scroll", "swipe"):
            if "direction" not in fields:
                raise InvalidAction(f"{kind} needs field 'direction' (up, down, left, right)")
            direction = _string(fields["direction"], "direction").strip().lower()
            if direction not in _DIRECTIONS:
                raise InvalidAction(f"field 'direction' must be one of up, down, left, right; "
                                    f"got {fields['direction']!r}")
            out["direction"] = direction
        if kind == "open_app":
            name = _string(fields.get("app_name", ""), "app_name").strip()
            if not name:
                raise InvalidAction("open_app needs a non-empty field 'app_name'")
            out["app_name"] = name
        if kind == "status":
            if "goal_status" not in fields:
                raise InvalidAction("status needs field 'goal_status' (complete, infeasible)")
            status = _string(fields["goal_status"], "goal_status").strip().lower()
            if status not in _GOAL_STATUSES:
                raise InvalidAction(f"field 'goal_status' must be 'complete' or 'infeasible', "
                                    f"got {fields['goal_status']!r}")
            out["goal_status"] = status
        return out

    @staticmethod
    def _target(fields: dict[str, Any], kind: str, *, required: bool) -> dict[str, Any]:
        has_xy = [f for f in ("x", "y") if f in fields]
        if "index" in fields and has_xy:
            raise InvalidAction(f"{kind}: give either 'index' or 'x' and 'y', not both")
        if "index" in fields:
            index = fields["index"]
            if isinstance(index, str) and re.fullmatch(r"\s*\d+\s*", index):
                if len(index.strip()) > 9:  # no screen has a billion elements; no 4,300-digit parse
                    raise InvalidAction(f"{kind}: no element with a {len(index.strip())}-digit "
                                        "index")
                index = int(index)
            if isinstance(index, bool) or not isinstance(index, int):
                raise InvalidAction(f"field 'index' must be an integer, got {index!r}")
            return {"index": index}
        if len(has_xy) == 1:
            missing = "y" if has_xy == ["x"] else "x"
            raise InvalidAction(f"{kind}: field {has_xy[0]!r} needs field {missing!r} too")
        if has_xy:
            return {"x": _number(fields["x"], "x"), "y": _number(fields["y"], "y")}
        if required:
            raise InvalidAction(f"{kind} needs field 'index' or fields 'x' and 'y'")
        return {}

    @staticmethod
    def _point(action: dict[str, Any], screen: Screen) -> tuple[int, int]:
        kind = action["action_type"]
        if "index" in action:
            return screen.center_of(action["index"], f"{kind} field 'index'")
        x, y = action["x"], action["y"]
        if not 0 <= x < screen.width:
            raise InvalidAction(f"{kind}: field 'x' = {x} is outside the screen "
                                f"(0 <= x < {screen.width})")
        if not 0 <= y < screen.height:
            raise InvalidAction(f"{kind}: field 'y' = {y} is outside the screen "
                                f"(0 <= y < {screen.height})")
        return int(x), int(y)

    def convert(self, action: Any, screen: Screen) -> list[Command]:
        parsed = self.parse(action)
        kind = parsed["action_type"]
        if kind == "click":
            return [Tap(*self._point(parsed, screen))]
        if kind == "long_press":
            return [LongPress(*self._point(parsed, screen))]
        if kind == "input_text":
            focus: list[Command] = []
            if "index" in parsed or "x" in parsed:
                focus = [Tap(*self._point(parsed, screen))]
            return [*focus, TypeText(parsed["text"]), PressKey("ENTER")]
        if kind in _KEY_ACTIONS:
            return [PressKey(_KEY_ACTIONS[kind])]
        if kind == "scroll":
            return [self._scroll(parsed, screen)]
        if kind == "swipe":
            return [self._swipe(parsed["direction"], screen)]
        if kind == "open_app":
            return [OpenApp(parsed["app_name"])]
        if kind == "wait":
            return [Wait()]
        if kind == "status":
            return [Status(parsed["goal_status"])]
        return [Answer(parsed["text"])]

    @staticmethod
    def _scroll(parsed: dict[str, Any], screen: Screen) -> Swipe:
        """From the region's centre to the edge opposite to where the content moves."""
        if "index" in parsed:
            x1, y1, x2, y2 = screen.element(parsed["index"], "scroll field 'index'").bounds
            left, top = max(x1, 0), max(y1, 0)
            right, bottom = min(x2, screen.width) - 1, min(y2, screen.height) - 1
            if right < left or bottom < top:
                raise InvalidAction(f"scroll: element {parsed['index']} is not visible on "
                                    f"the screen (bounds {(x1, y1, x2, y2)})")
        else:
            left, top, right, bottom = 0, 0, screen.width - 1, screen.height - 1
        cx, cy = (left + right + 1) // 2, (top + bottom + 1) // 2
        end = {"down": (cx, top), "up": (cx, bottom), "right": (left, cy),
               "left": (right, cy)}[parsed["direction"]]
        return Swipe(cx, cy, *end)

    @staticmethod
    def _swipe(direction: str, screen: Screen) -> Swipe:
        """A full-screen, edge-to-edge finger movement in `direction`, 500 ms."""
        right, bottom = screen.width - 1, screen.height - 1
        mx, my = screen.width // 2, screen.height // 2
        start, end = {"down": ((mx, 0), (mx, bottom)), "up": ((mx, bottom), (mx, 0)),
                      "right": ((0, my), (right, my)), "left": ((right, my), (0, my))}[direction]
        return Swipe(*start, *end, duration_ms=500)

    def label(self, action: Any) -> str:
        parsed = self.parse(action)
        parts = []
        for key, value in parsed.items():
            if key == "action_type":
                continue
            shown = json.dumps(value, ensure_ascii=False) if key in ("text", "app_name") else value
            parts.append(f"{key}={shown}")
        return f"{parsed['action_type']}({', '.join(parts)})"


def _sample_json_action(rng: np.random.Generator) -> str:
    """A random answer: mostly valid JSON actions, sometimes in prose, sometimes junk."""
    kind = JSON_TYPES[int(rng.integers(0, len(JSON_TYPES)))]
    action: dict[str, Any] = {"action_type": kind}
    if kind in _TARGETED or (kind == "input_text" and rng.random() < 0.5):
        action["index"] = int(rng.integers(0, 40))
    if kind in ("input_text", "answer"):
        action["text"] = _junk(rng)
    if kind in ("scroll", "swipe"):
        action["direction"] = _DIRECTIONS[int(rng.integers(0, 4))]
    if kind == "open_app":
        action["app_name"] = ("Settings", "Clock", "Chrome", "Contacts")[int(rng.integers(0, 4))]
    if kind == "status":
        action["goal_status"] = _GOAL_STATUSES[int(rng.integers(0, 2))]
    roll = rng.random()
    if roll < 0.15:
        return _junk(rng)
    if roll < 0.5:
        return f"Reason: {_junk(rng)}\nAction: {json.dumps(action)}"
    return json.dumps(action)


# -- registry --------------------------------------------------------------------------

MODES: dict[str, type[ActionMode]] = {
    "dual_gesture": DualGesture,
    "discrete": Discrete,
    "text": TextActions,
    "json": JsonActions,
}


def make_mode(name: str, **kwargs: Any) -> ActionMode:
    """An action mode by name ("dual_gesture", "discrete", "text", "json")."""
    key = str(name).strip().lower().replace("-", "_")
    if key not in MODES:
        raise ValueError(f"unknown action mode {name!r}; valid: {', '.join(MODES)}")
    return MODES[key](**kwargs)

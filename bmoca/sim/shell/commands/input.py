"""`input`: tap, swipe, text, keyevent, as the input manager injects them."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from bmoca.device.contract import KEYCODES, InvalidInput, Key
from bmoca.sim.shell.errors import Io, ShellError
from bmoca.sim.shell.helpers import parse_int

if TYPE_CHECKING:
    from bmoca.sim.shell.session import Session, Tool


INPUT_SOURCES = ("dpad", "keyboard", "mouse", "touchpad", "gamepad", "touchnavigation",
                 "joystick", "touchscreen", "stylus", "trackball")
INPUT_USAGE = (
    "Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]\n\n"
    "The sources are: \n" + "".join(f"      {s}\n" for s in INPUT_SOURCES) + "\n"
    "-d: specify the display ID.\n"
    "      (Default: -1 for key event, 0 for motion event if not specified.)\n"
    "The commands and default sources are:\n"
    "      text <string> (Default: touchscreen)\n"
    "      keyevent [--longpress] <key code number or name> ... (Default: keyboard)\n"
    "      tap <x> <y> (Default: touchscreen)\n"
    "      swipe <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)\n"
    "      draganddrop <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)\n"
    "      press (Default: trackball)\n"
    "      roll <dx> <dy> (Default: trackball)\n"
    "      event <DOWN|UP|MOVE> <x> <y> (Default: touchscreen)\n"
)
_KEY_NAMES: dict[str, int] = {key.value: code for key, code in KEYCODES.items()}
_KEY_NAMES.update({str(d): 7 + d for d in range(10)})
_KEY_NAMES.update({chr(ord("A") + k): 29 + k for k in range(26)})
_PUNCT_KEYS = {"STAR": (17, "*"), "POUND": (18, "#"), "COMMA": (55, ","), "PERIOD": (56, "."),
               "GRAVE": (68, "`"), "MINUS": (69, "-"), "EQUALS": (70, "="),
               "LEFT_BRACKET": (71, "["), "RIGHT_BRACKET": (72, "]"), "BACKSLASH": (73, "\\"),
               "SEMICOLON": (74, ";"), "APOSTROPHE": (75, "'"), "SLASH": (76, "/"),
               "AT": (77, "@"), "PLUS": (81, "+")}
_KEY_NAMES.update({name: code for name, (code, _) in _PUNCT_KEYS.items()})
_NUMPAD_KEYS = {**{f"NUMPAD_{d}": (144 + d, str(d)) for d in range(10)},
                "NUMPAD_DIVIDE": (154, "/"), "NUMPAD_MULTIPLY": (155, "*"),
                "NUMPAD_SUBTRACT": (156, "-"), "NUMPAD_ADD": (157, "+"), "NUMPAD_DOT": (158, "."),
                "NUMPAD_COMMA": (159, ","), "NUMPAD_EQUALS": (161, "="),
                "NUMPAD_LEFT_PAREN": (162, "("), "NUMPAD_RIGHT_PAREN": (163, ")")}
_KEY_NAMES.update({name: code for name, (code, _) in _NUMPAD_KEYS.items()})
_KEY_NAMES.update({"NUMPAD_ENTER": 160, "DPAD_CENTER": 23, "CAMERA": 27, "SEARCH": 84,
                   "NOTIFICATION": 83, "SLEEP": 223, "WAKEUP": 224, "FORWARD_DEL": 112})
_CODE_KEYS: dict[int, Key] = {code: key for key, code in KEYCODES.items()}
_CODE_KEYS[160] = Key.ENTER
_CODE_CHARS: dict[int, str] = {7 + d: str(d) for d in range(10)}
_CODE_CHARS.update({29 + k: chr(ord("a") + k) for k in range(26)})
_CODE_CHARS.update({code: char for code, char in _PUNCT_KEYS.values()})
_CODE_CHARS.update({code: char for code, char in _NUMPAD_KEYS.values()})


def cmd_input(sh: Session, args: list[str], io: Io) -> int:
    if not args:
        io.out(INPUT_USAGE)
        return 0
    index = 1 if args[0] in INPUT_SOURCES else 0
    if index < len(args) and args[index] == "-d":
        display = args[index + 1] if index + 1 < len(args) else ""
        if not display.lstrip("-").isdigit():
            io.err("Error: Invalid arguments for display ID.\n")
            io.out(INPUT_USAGE)
            return 1
        index += 2
    if index >= len(args):
        io.out(INPUT_USAGE)
        return 0
    command, rest = args[index], args[index + 1:]
    known = ("text", "keyevent", "tap", "swipe", "draganddrop", "press", "roll", "event")
    if command not in known:
        io.err(f"Error: Unknown command: {command}\n")
        io.out(INPUT_USAGE)
        return 1
    try:
        if command == "text" and len(rest) == 1:
            _input_text(sh, rest[0])
            return 0
        if command == "keyevent" and rest:
            keys = rest[1:] if rest[0] == "--longpress" else rest
            if keys:
                for name in keys:
                    _input_key(sh, name)
                return 0
        if command == "tap" and len(rest) == 2:
            x, y = _java_float(rest[0]), _java_float(rest[1])
            _touch(lambda: sh.device.tap(x, y))
            return 0
        if command in ("swipe", "draganddrop") and len(rest) in (4, 5):
            x1, y1, x2, y2 = (_java_float(v) for v in rest[:4])
            duration = parse_int(rest[4]) if len(rest) == 5 else -1
            if duration < 0:
                duration = 300
            _touch(lambda: sh.device.swipe(x1, y1, x2, y2, duration))
            return 0
        if command == "press" and not rest:
            return 0
        if command == "roll" and len(rest) == 2:
            float(rest[0]), float(rest[1])
            return 0
        if command == "event" and len(rest) == 3 and rest[0] in ("DOWN", "UP", "MOVE"):
            float(rest[1]), float(rest[2])
            return 0
    except ValueError:
        pass
    io.err(f"Error: Invalid arguments for command: {command}\n")
    io.out(INPUT_USAGE)
    return 1


def _java_float(text: str) -> float:
    """Float.parseFloat: ValueError on text Java refuses ("nan", "inf" are not numbers)."""
    if text.strip().lower().lstrip("+-") in ("nan", "inf", "infinity") or len(text) > 400:
        raise ValueError(text)
    return float(text)


def _touch(action: Callable[[], None]) -> None:
    """Inject a touch; one outside the screen is dropped silently, as the input system does."""
    try:
        action()
    except InvalidInput:
        pass


def _input_text(sh: Session, text: str) -> None:
    """`%s` stands for a space (Input.sendText's only escape); other `%` stay."""
    chars = list(text)
    out: list[str] = []
    i = 0
    while i < len(chars):
        if chars[i] == "%" and i + 1 < len(chars) and chars[i + 1] == "s":
            out.append(" ")
            i += 2
        else:
            out.append(chars[i])
            i += 1
    try:
        sh.device.input_text("".join(out))
    except InvalidInput as exc:
        raise ShellError(f"Error: {exc}", 1) from None


def _input_key(sh: Session, name: str) -> None:
    """A key code by name (KEYCODE_HOME or HOME) or number; unknown keys do nothing."""
    if name.isdigit():
        code = int(name)
    else:
        label = name[len("KEYCODE_"):] if name.upper().startswith("KEYCODE_") else name
        code = _KEY_NAMES.get(label.upper(), 0)
    key = _CODE_KEYS.get(code)
    if key is not None:
        sh.device.press(key)
    elif code in _CODE_CHARS:
        sh.device.input_text(_CODE_CHARS[code])


COMMANDS: dict[str, Tool] = {
    "input": cmd_input,
}

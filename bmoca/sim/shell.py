"""The phone's `/system/bin/sh`: a small mksh look-alike for what tools send over `adb shell`.

Why: detectors, agents and tools (adbutils, android-env, B-MoCA's evaluators) drive a phone
through shell strings: `settings get`, `logcat -d`, `dumpsys window`, `am start`, `input tap`.
Each command here prints what Android 10 prints, returns its exit status, and changes the
simulated phone only through the same system services the apps use, so the log lines a
command causes are the ones a real device writes.

How:
- parsing: a quote-aware lexer finds the operators (`;`, newline, `&&`, `||`, `|`, `&`,
  redirections) and the raw words; each raw word is expanded (`$VAR`, `$?`, `$(...)`,
  backticks, `~`, globs) and then split by `shlex` (posix), which removes quotes exactly as
  sh does;
- output: a command writes ordered (fd, text) chunks, so `> file`, `>> file`, `2>&1`,
  `2>/dev/null` and pipes route stdout and stderr as a shell does; `adb shell` hands the
  caller both streams merged, in order;
- privileges: `id` says uid 2000 (shell), or root under `su`, and the uid shows in the log
  lines the shell causes; permission checks are not simulated (the phone behaves as after
  `adb root`, which is what provisioning assumes);
- robustness: a failing command prints an error and returns a status; an unexpected Python
  error inside a command restores the state from just before it and exits 255.
"""

from __future__ import annotations

import base64
import copy
import datetime as dt
import fnmatch
import hashlib
import io as _bytes_io
import pickle
import posixpath
import re
import shlex
import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bmoca.device.contract import KEYCODES, InvalidInput, Key
from bmoca.formats.apps import all_apps
from bmoca.sim.system.audio import STREAMS
from bmoca.sim.system.clock import BOOT_TIME_MS, parse_toybox_set, toybox_date_string
from bmoca.sim.system.intent import (
    ACTION_MAIN,
    CATEGORY_HOME,
    CATEGORY_LAUNCHER,
    FLAG_ACTIVITY_NEW_TASK,
    Intent,
)
from bmoca.sim.system.logcat import FilterSpec, LogEntry, format_entry
from bmoca.sim.system.server import (
    HOME_PACKAGE,
    PHONE_PID,
    SYSTEM_PID,
    SYSTEMUI_PACKAGE,
    SYSTEMUI_PID,
    SYSTEMUI_UID,
    ZYGOTE_PID,
)
from bmoca.sim.system.settings import DEFAULTS, NAMESPACES, uri
from bmoca.sim.system.vfs import EXTERNAL, FsError, normalize

if TYPE_CHECKING:
    from bmoca.sim.device import SimDevice
    from bmoca.sim.system.server import SystemServer
    from bmoca.sim.system.vfs import VirtualFS

SH = "/system/bin/sh"
SHELL_UID = 2000
SHELL_PACKAGE = "com.android.shell"
SHELL_PID = 3127
"""The pid `$$`, `ps` and `Force stopping ... from pid` show for the shell."""
MAX_DEPTH = 16
"""Nesting limit for `sh -c`, `su -c` and `$(...)`, so a runaway script cannot recurse forever."""

_HANDLER = Callable[[list[str], "_Io"], int]


# -- errors and streams ----------------------------------------------------------------------


class ShellError(Exception):
    """A command failing the way the real tool fails: the text it prints and its exit status."""

    def __init__(self, message: str, code: int = 1):
        super().__init__(message)
        self.message = message if not message or message.endswith("\n") else message + "\n"
        self.code = code


class _Exit(Exception):
    """`exit N`: unwinds to the script being run (the whole command line, or one `sh -c`)."""

    def __init__(self, code: int):
        super().__init__(code)
        self.code = code
        self.chunks: list[tuple[int, str]] = []


class _Io:
    """One command's standard streams: stdin text in, ordered (fd, text) chunks out."""

    __slots__ = ("stdin", "chunks")

    def __init__(self, stdin: str = ""):
        self.stdin = stdin
        self.chunks: list[tuple[int, str]] = []

    def out(self, text: str) -> None:
        if text:
            self.chunks.append((1, text))

    def err(self, text: str) -> None:
        if text:
            self.chunks.append((2, text))

    def lines(self, lines: list[str]) -> None:
        if lines:
            self.out("\n".join(lines) + "\n")


def _java_exception(message: str, cls: str = "java.lang.IllegalArgumentException") -> ShellError:
    """What `cmd`-based tools print when the service throws (ShellCommand.exec), status 255."""
    return ShellError(f"\nException occurred while executing:\n{cls}: {message}\n", 255)


# -- lexing and parsing --------------------------------------------------------------------


@dataclass
class _Redirect:
    fd: int
    """0, 1, 2; -1 stands for both 1 and 2 (`&>`)."""
    op: str
    """`>`, `>>`, `<`, `>&`, `<&`."""
    target: str = ""
    """The raw word after the operator."""


@dataclass
class _Command:
    words: list[str] = field(default_factory=list)
    redirects: list[_Redirect] = field(default_factory=list)

    def empty(self) -> bool:
        return not self.words and not self.redirects


_Script = list[tuple[str, list[_Command]]]
"""(connector, pipeline) pairs; the connector (`;`, `&&`, `||`) joins it to what came before."""


def _syntax(token: str) -> ShellError:
    shown = "newline" if token == "\n" else token
    return ShellError(f"{SH}: syntax error: '{shown}' unexpected", 1)


def _end_of_single(text: str, i: int) -> int:
    j = text.find("'", i + 1)
    if j < 0:
        raise ShellError(f"{SH}: no closing quote", 1)
    return j


def _end_of_double(text: str, i: int) -> int:
    """Index of the `"` closing the one at i (escapes and `$(...)` inside are skipped)."""
    j = i + 1
    while j < len(text):
        c = text[j]
        if c == "\\":
            j += 2
        elif c == '"':
            return j
        elif text.startswith("$(", j):
            j = _end_of_paren(text, j + 2) + 1
        elif c == "`":
            j = _end_of_backtick(text, j) + 1
        else:
            j += 1
    raise ShellError(f"{SH}: no closing quote", 1)


def _end_of_backtick(text: str, i: int) -> int:
    j = i + 1
    while j < len(text):
        if text[j] == "\\":
            j += 2
        elif text[j] == "`":
            return j
        else:
            j += 1
    raise ShellError(f"{SH}: no closing quote", 1)


def _end_of_paren(text: str, start: int) -> int:
    """Index of the `)` closing a `$(` whose body starts at `start`."""
    depth = 1
    j = start
    while j < len(text):
        c = text[j]
        if c == "\\":
            j += 2
            continue
        if c == "'":
            j = _end_of_single(text, j)
        elif c == '"':
            j = _end_of_double(text, j)
        elif c == "`":
            j = _end_of_backtick(text, j)
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return j
        j += 1
    raise ShellError(f"{SH}: no closing quote", 1)


def _lex(text: str) -> list[tuple[str, object]]:
    """Tokens: ("word", raw text with its quotes), ("op", operator), ("redir", (fd, op))."""
    tokens: list[tuple[str, object]] = []
    word: list[str] = []
    started = False
    i, n = 0, len(text)

    def flush() -> None:
        nonlocal started
        if started:
            tokens.append(("word", "".join(word)))
            word.clear()
            started = False

    while i < n:
        c = text[i]
        if c in " \t\r":
            flush()
            i += 1
        elif c == "\n":
            flush()
            tokens.append(("op", "\n"))
            i += 1
        elif c == "#" and not started:
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif c == "\\":
            if text.startswith("\\\n", i):
                i += 2
                continue
            word.append(text[i:i + 2])
            started = True
            i += 2
        elif c in "'\"`" or text.startswith("$(", i) or text.startswith("${", i):
            if c == "'":
                j = _end_of_single(text, i)
            elif c == '"':
                j = _end_of_double(text, i)
            elif c == "`":
                j = _end_of_backtick(text, i)
            elif text.startswith("$(", i):
                j = _end_of_paren(text, i + 2)
            else:
                j = text.find("}", i)
                if j < 0:
                    raise ShellError(f"{SH}: {text[i:]}: bad substitution", 1)
            word.append(text[i:j + 1])
            started = True
            i = j + 1
        elif c in "<>":
            fd: int | None = None
            if started and "".join(word).isdigit():
                fd = int("".join(word))
                word.clear()
                started = False
            flush()
            if c == ">":
                op = next(o for o in (">>", ">&", ">|", ">") if text.startswith(o, i))
                i += len(op)
                op = ">" if op == ">|" else op
                fd = 1 if fd is None else fd
            else:
                if text.startswith("<<", i):
                    raise ShellError(f"{SH}: here documents are not supported by this shell", 1)
                op, size = ("<&", 2) if text.startswith("<&", i) else ("<", 1)
                i += size
                fd = 0 if fd is None else fd
            tokens.append(("redir", (fd, op)))
        elif c == "&":
            flush()
            if text.startswith("&&", i):
                tokens.append(("op", "&&"))
                i += 2
            elif text.startswith("&>>", i):
                tokens.append(("redir", (-1, ">>")))
                i += 3
            elif text.startswith("&>", i):
                tokens.append(("redir", (-1, ">")))
                i += 2
            else:
                tokens.append(("op", "&"))
                i += 1
        elif c == "|":
            flush()
            if text.startswith("||", i):
                tokens.append(("op", "||"))
                i += 2
            else:
                tokens.append(("op", "|"))
                i += 1
        elif c == ";":
            flush()
            if text.startswith(";;", i):
                raise _syntax(";;")
            tokens.append(("op", ";"))
            i += 1
        elif c in "()":
            raise _syntax(c)
        else:
            word.append(c)
            started = True
            i += 1
    flush()
    return tokens


def _parse(tokens: list[tuple[str, object]]) -> _Script:
    script: _Script = []
    pipeline: list[_Command] = []
    cmd = _Command()
    connector = ";"
    pending: tuple[int, str] | None = None
    need_command = False
    for kind, value in tokens:
        if kind == "word":
            if pending is not None:
                cmd.redirects.append(_Redirect(pending[0], pending[1], str(value)))
                pending = None
            else:
                cmd.words.append(str(value))
            need_command = False
            continue
        if pending is not None:
            raise _syntax(str(value[1]) if kind == "redir" else str(value))  # type: ignore[index]
        if kind == "redir":
            pending = value  # type: ignore[assignment]
            continue
        op = str(value)
        if op == "|":
            if cmd.empty():
                raise _syntax(op)
            pipeline.append(cmd)
            cmd = _Command()
            need_command = True
            continue
        if cmd.empty():
            if op == "\n":
                continue
            raise _syntax(op)
        pipeline.append(cmd)
        script.append((connector, pipeline))
        pipeline, cmd = [], _Command()
        connector = op if op in ("&&", "||") else ";"
        need_command = op in ("&&", "||")
    if pending is not None:
        raise _syntax("\n")
    if not cmd.empty():
        pipeline.append(cmd)
        script.append((connector, pipeline))
    elif need_command or pipeline:
        raise ShellError(f"{SH}: syntax error: unexpected EOF", 1)
    return script


# -- small text helpers ------------------------------------------------------------------------


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ASSIGNMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=(.*)", re.S)
_ESCAPES = {"a": "\a", "b": "\b", "e": "\x1b", "f": "\f", "n": "\n", "r": "\r", "t": "\t",
            "v": "\v", "\\": "\\"}


def _unescape(text: str) -> tuple[str, bool]:
    """Backslash escapes as mksh's echo and printf %b read them; True if `\\c` stopped output."""
    out: list[str] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c != "\\" or i + 1 >= len(text):
            out.append(c)
            i += 1
            continue
        nxt = text[i + 1]
        if nxt == "c":
            return "".join(out), True
        if nxt in _ESCAPES:
            out.append(_ESCAPES[nxt])
            i += 2
        elif nxt == "0" or nxt in "1234567":
            m = re.match(r"0?([0-7]{1,3})", text[i + 1:i + 5])
            digits = m.group(1) if m else "0"
            out.append(chr(int(digits, 8) & 0xFF))
            i += 1 + (m.end() if m else 1)
        elif nxt == "x":
            m = re.match(r"[0-9a-fA-F]{1,2}", text[i + 2:i + 4])
            if m:
                out.append(chr(int(m.group(0), 16)))
                i += 2 + m.end()
            else:
                out.append("\\x")
                i += 2
        else:
            out.append("\\" + nxt)
            i += 2
    return "".join(out), False


def _field_quote(value: str) -> str:
    """An unquoted expansion for shlex: split into fields on blanks, no quote processing."""
    parts = re.split(r"([ \t\n]+)", value)
    return "".join(" " if part.isspace() else shlex.quote(part) for part in parts if part)


def _dq_quote(value: str) -> str:
    """An expansion inside double quotes, escaped for shlex's posix double-quote rules."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _split_lines(text: str) -> list[str]:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _stable_hash(*parts: object) -> str:
    """A 7-digit hex like System.identityHashCode, stable for the same object (never random)."""
    value = zlib.crc32("|".join(str(p) for p in parts).encode("utf-8"))
    return f"{value % 0xF000000 + 0x1000000:x}"


def _java_int(text: str) -> int:
    """Integer.decode: decimal, 0x hex, # hex, leading-0 octal; NumberFormatException text on error."""
    s = text.strip()
    sign = -1 if s.startswith("-") else 1
    body = s.lstrip("+-")
    try:
        if body.lower().startswith("0x"):
            return sign * int(body[2:], 16)
        if body.startswith("#"):
            return sign * int(body[1:], 16)
        if len(body) > 1 and body.startswith("0"):
            return sign * int(body[1:], 8)
        return sign * int(body, 10)
    except ValueError:
        raise ValueError(f'For input string: "{text}"') from None


def _reason(exc: FsError) -> str:
    """The strerror part of an FsError ("/path: No such file or directory")."""
    return str(exc).rsplit(": ", 1)[-1]


_POSIX_CLASSES = {"alpha": "a-zA-Z", "digit": "0-9", "alnum": "a-zA-Z0-9", "upper": "A-Z",
                  "lower": "a-z", "space": r" \t\n\r\f\v", "blank": r" \t", "xdigit": "0-9A-Fa-f",
                  "punct": r"!-/:-@\[-`{-~", "word": r"\w", "print": r" -~", "graph": r"!-~",
                  "cntrl": r"\x00-\x1f\x7f"}


def _bracket(pattern: str, i: int) -> tuple[str, int] | None:
    """A POSIX bracket expression at pattern[i] as a Python class; None if unterminated."""
    j = i + 1
    out = ["["]
    if j < len(pattern) and pattern[j] == "^":
        out.append("^")
        j += 1
    first = True
    while j < len(pattern):
        c = pattern[j]
        if c == "]" and not first:
            out.append("]")
            return "".join(out), j + 1
        first = False
        if pattern.startswith("[:", j):
            end = pattern.find(":]", j + 2)
            if end > 0 and pattern[j + 2:end] in _POSIX_CLASSES:
                out.append(_POSIX_CLASSES[pattern[j + 2:end]])
                j = end + 2
                continue
        out.append("\\" + c if c in "\\[]^" else c)
        j += 1
    return None


def _regex(pattern: str, extended: bool) -> str:
    """A grep BRE or ERE as a Python regex (GNU `\\|`, `\\+`, `\\<`, `\\>` included)."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            nxt = pattern[i + 1]
            if nxt == "<":
                out.append(r"\b(?=\w)")
            elif nxt == ">":
                out.append(r"\b(?<=\w)")
            elif not extended and nxt in "(){}|+?":
                out.append(nxt)
            else:
                out.append("\\" + nxt)
            i += 2
        elif c == "[":
            found = _bracket(pattern, i)
            if found is None:
                out.append(r"\[")
                i += 1
            else:
                out.append(found[0])
                i = found[1]
        elif not extended and c in "(){}|+?":
            out.append("\\" + c)
            i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _png(image) -> bytes:
    """PNG bytes as screencap writes them (RGBA)."""
    buf = _bytes_io.BytesIO()
    image.convert("RGBA").save(buf, format="PNG")
    return buf.getvalue()


def _raw_screencap(image) -> bytes:
    """screencap's raw format: width, height, format (RGBA_8888), dataspace (sRGB), pixels."""
    rgba = image.convert("RGBA")
    return struct.pack("<4I", rgba.width, rgba.height, 1, 1) + rgba.tobytes()


# -- texts the real tools print ----------------------------------------------------------------

SETTINGS_HELP = """\
Settings provider (settings) commands:
  help
      Print this help text.
  get [--user <USER_ID> | current] NAMESPACE KEY
      Retrieve the current value of KEY.
  put [--user <USER_ID> | current] NAMESPACE KEY VALUE [TAG] [default]
      Change the contents of KEY to VALUE.
      TAG to associate with the setting.
      {default} to set as the default, case-insensitive only for global/secure namespace
  delete NAMESPACE KEY
      Delete the entry for KEY.
  reset [--user <USER_ID> | current] NAMESPACE {PACKAGE_NAME | RESET_MODE}
      Reset the global/secure table for a package with mode.
      RESET_MODE is one of {untrusted_defaults, untrusted_clear, trusted_defaults}, case-insensitive
  list NAMESPACE
      Print all defined keys.
      NAMESPACE is one of {system, secure, global}, case-insensitive
"""

MEDIA_USAGE = """\
usage: media [subcommand] [options]
       media dispatch KEY
       media list-sessions
       media monitor <tag>
       media volume [options]

media dispatch: dispatch a media key to the system.
                KEY may be: play, pause, play-pause, mute, headsethook,
                stop, next, previous, rewind, record, fast-forword.
media list-sessions: print a list of the current sessions.
media monitor: monitor updates to the specified session.
                       Use the tag from list-sessions.
media volume:  the options are as follows:\x20
                --stream STREAM selects the stream to control, see AudioManager.STREAM_*
                                controls AudioManager.STREAM_MUSIC if no stream is specified
                --set INDEX     sets the volume index value
                --adj DIRECTION adjusts the volume, use raise|same|lower for the direction
                --get           outputs the current volume
                --show          shows the UI during the volume change
        examples:
                adb shell media volume --show --stream 3 --set 11
                adb shell media volume --stream 0 --adj lower
                adb shell media volume --stream 3 --get
"""

UIMODE_HELP = """\
UiModeManager service (uimode) commands:
  help
    Print this help text.
  night [yes|no|auto]
    Set or read night mode.
"""

WM_HELP = """\
Window manager (window) commands:
  help
      Print this help text.
  size [reset|WxH|WdpxHdp] [-d DISPLAY_ID]
    Return or override display size.
    width and height in pixels unless suffixed with 'dp'.
  density [reset|DENSITY] [-d DISPLAY_ID]
    Return or override display density.
  folded-area [reset|LEFT,TOP,RIGHT,BOTTOM]
    Return or override folded area.
  overscan [reset|LEFT,TOP,RIGHT,BOTTOM] [-d DISPLAY ID]
    Set overscan area for display.
  scaling [off|auto] [-d DISPLAY_ID]
    Set display scaling mode.
  dismiss-keyguard
    Dismiss the keyguard, prompting user for auth if necessary.
  set-user-rotation [free|lock] [-d DISPLAY_ID] [rotation]
    Set user rotation mode and user rotation.
  set-fix-to-user-rotation [-d DISPLAY_ID] [enabled|disabled]
    Enable or disable rotating display for app requested orientation.
"""

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

AM_HELP = """\
Activity manager (activity) commands:
  help
      Print this help text.
  start-activity [-D] [-N] [-W] [-P <FILE>] [--start-profiler <FILE>]
          [--sampling INTERVAL] [--streaming] [-R COUNT] [-S]
          [--track-allocation] [--user <USER_ID> | current] <INTENT>
      Start an Activity.  Options are:
      -W: wait for launch to complete
      -S: force stop the target app before starting the activity
      --user <USER_ID> | current: Specify which user to run as; if not
          specified then run as the current user.
  force-stop [--user <USER_ID> | all | current] <PACKAGE>
      Completely stop the given application package.
  kill [--user <USER_ID> | all | current] <PACKAGE>
      Kill all background processes associated with the given application.
  kill-all
      Kill all processes that are safe to kill (cached, etc).
  broadcast [--user <USER_ID> | all | current] <INTENT>
      Send a broadcast Intent.  Options are:
      --user <USER_ID> | all | current: Specify which user to send to; if not
          specified then send to all users.
      --receiver-permission <PERMISSION>: Require receiver to hold permission.
  restart
      Restart the user-space system.
  get-current-user
      Returns id of the current foreground user.
  stack list
      List all of the activity stacks and their sizes.

<INTENT> specifications include these flags and arguments:
    [-a <ACTION>] [-d <DATA_URI>] [-t <MIME_TYPE>]
    [-c <CATEGORY> [-c <CATEGORY>] ...]
    [-n <COMPONENT_NAME>]
    [-e|--es <EXTRA_KEY> <EXTRA_STRING_VALUE> ...]
    [--esn <EXTRA_KEY> ...]
    [--ez <EXTRA_KEY> <EXTRA_BOOLEAN_VALUE> ...]
    [--ei <EXTRA_KEY> <EXTRA_INT_VALUE> ...]
    [--el <EXTRA_KEY> <EXTRA_LONG_VALUE> ...]
    [--ef <EXTRA_KEY> <EXTRA_FLOAT_VALUE> ...]
    [-f <FLAG>]
    [--activity-clear-task] [--activity-clear-top] [--activity-single-top]
    [--activity-no-history] [--activity-reorder-to-front] [--activity-new-task]
    [<URI> | <PACKAGE> | <COMPONENT>]
"""

PM_HELP = """\
Package manager (package) commands:
  help
    Print this help text.

  path [--user USER_ID] PACKAGE
    Print the path to the .apk of the given PACKAGE.

  list packages [-f] [-d] [-e] [-s] [-3] [-i] [-l] [-u] [-U]\x20
      [--show-versioncode] [--apex-only] [--uid UID] [--user USER_ID] [FILTER]
    Prints all packages; optionally only those whose name contains
    the text in FILTER.  Options are:
      -f: see their associated file
      -a: all known packages (but excluding APEXes)
      -d: filter to only show disabled packages
      -e: filter to only show enabled packages
      -s: filter to only show system packages
      -3: filter to only show third party packages
      -i: see the installer for the packages
      -l: ignored (used for compatibility with older releases)
      -U: also show the package UID
      -u: also include uninstalled packages
      --uid UID: filter to only show packages with the given UID
      --user USER_ID: only list packages belonging to the given user

  clear [--user USER_ID] PACKAGE
    Deletes all data associated with a package.

  grant [--user USER_ID] PACKAGE PERMISSION
  revoke [--user USER_ID] PACKAGE PERMISSION
    These commands either grant or revoke permissions to apps.  The permissions
    must be declared as used in the app's manifest, be runtime permissions
    (protection level dangerous), and the app targeting SDK greater than Lollipop MR1.
"""

SVC_HELP = """\
Available commands:
    help     Show information about the subcommands
    power    Control the power manager
    data     Control mobile data connectivity
    wifi     Control the Wi-Fi manager
    usb      Control Usb state
    nfc      Control NFC functions
"""

SVC_WIFI_HELP = "Control the Wi-Fi manager\n\nusage: svc wifi [enable|disable]\n         Turn Wi-Fi on or off.\n\n"
SVC_DATA_HELP = ("Control mobile data connectivity\n\nusage: svc data [enable|disable]\n"
                 "         Turn mobile data on or off.\n\n")
SVC_POWER_HELP = (
    "Control the power manager\n\n"
    "usage: svc power stayon [true|false|usb|ac|wireless]\n"
    "         Set the 'keep awake while plugged in' setting.\n"
    "       svc power reboot [reason]\n"
    "         Perform a runtime shutdown and reboot device with specified reason.\n"
    "       svc power shutdown\n"
    "         Perform a runtime shutdown and power off the device.\n\n"
)

UIAUTOMATOR_HELP = """\
Usage: uiautomator <subcommand> [options]

Available subcommands:

help: displays help message

runtest: executes UI automation tests
    runtest <class spec> [options]

dump: creates an XML dump of current UI hierarchy
    dump [--verbose][file]
      [--compressed]: dumps compressed layout information.
      [file]: the location where the dumped XML should be stored, default is
      /sdcard/window_dump.xml

events: prints out accessibility events until terminated
"""

LOGCAT_USAGE = """\
Usage: logcat [options] [filterspecs]
options include:
  -s              Set default filter to silent. Equivalent to filterspec '*:S'
  -f <file>, --file=<file>               Log to file. Default is stdout
  -v <format>, --format=<format> options:
                  Sets log print format verb and adverbs, where <format> is:
                    brief help long process raw tag thread threadtime time
                  and individually flagged modifying adverbs can be added:
                    color descriptive epoch monotonic printable uid
                    usec UTC year zone
  -D, --dividers  Print dividers between each log buffer
  -c, --clear     Clear (flush) the entire log and exit
  -d              Dump the log and then exit (don't block)
  -e <expr>, --regex=<expr>
                  Only print lines where the log message matches <expr>
  -m <count>, --max-count=<count>
                  Quit after printing <count> lines.
  -t <count>      Print only the most recent <count> lines (implies -d)
  -t '<time>'     Print most recent lines since specified time (implies -d)
  -T <count>      Print only the most recent <count> lines (does not imply -d)
  -g, --buffer-size
                  Get the size of the ring buffer.
  -b <buffer>, --buffer=<buffer>         Request alternate ring buffer(s):
                  main system radio events crash default all
  --pid=<pid>     Only prints logs from the given pid.

filterspecs are a series of
  <tag>[:priority]

where <tag> is a log component tag (or * for all) and priority is:
  V    Verbose (default for <tag>)
  D    Debug (default for '*')
  I    Info
  W    Warn
  E    Error
  F    Fatal
  S    Silent (suppress all output)
"""

ID_GROUPS = ("groups={own},1004(input),1007(log),1011(adb),1015(sdcard_rw),1028(sdcard_r),"
             "3001(net_bt_admin),3002(net_bt),3003(inet),3006(net_bw_stats),3009(readproc),"
             "3011(uhid)")

SERVICES = (
    "DockObserver", "SurfaceFlinger", "accessibility", "account", "activity", "activity_task",
    "alarm", "appops", "appwidget", "audio", "backup", "battery", "batteryproperties",
    "batterystats", "bluetooth_manager", "clipboard", "connectivity", "content",
    "device_policy", "deviceidle", "display", "dropbox", "gfxinfo", "graphicsstats", "input",
    "input_method", "jobscheduler", "location", "media.audio_flinger", "media_projection",
    "media_router", "media_session", "meminfo", "mount", "netpolicy", "netstats",
    "notification", "package", "permission", "phone", "power", "procstats", "sensorservice",
    "settings", "statusbar", "telecom", "textservices", "uimode", "usagestats", "user",
    "vibrator", "wallpaper", "webviewupdate", "wifi", "window",
)
"""What `cmd -l` / `dumpsys -l` list; the ones not simulated answer with nothing."""

EXTRA_PACKAGES = (
    "android", "com.android.backupconfirm", "com.android.bluetooth",
    "com.android.bluetoothmidiservice", "com.android.bookmarkprovider",
    "com.android.captiveportallogin", "com.android.carrierconfig",
    "com.android.carrierdefaultapp", "com.android.cellbroadcastreceiver",
    "com.android.certinstaller", "com.android.companiondevicemanager",
    "com.android.cts.ctsshim", "com.android.cts.priv.ctsshim", "com.android.dynsystem",
    "com.android.egg", "com.android.emergency", "com.android.externalstorage",
    "com.android.htmlviewer", "com.android.inputdevices", "com.android.keychain",
    "com.android.localtransport", "com.android.location.fused", "com.android.managedprovisioning",
    "com.android.mms.service", "com.android.mtp", "com.android.ons", "com.android.pacprocessor",
    "com.android.phone", "com.android.printspooler", "com.android.providers.blockednumber",
    "com.android.providers.calendar", "com.android.providers.contacts",
    "com.android.providers.downloads", "com.android.providers.downloads.ui",
    "com.android.providers.media", "com.android.providers.settings",
    "com.android.providers.telephony", "com.android.providers.userdictionary",
    "com.android.proxyhandler", "com.android.se", "com.android.server.telecom",
    "com.android.sharedstoragebackup", "com.android.shell", "com.android.simappdialog",
    "com.android.smspush", "com.android.soundpicker", "com.android.statementservice",
    "com.android.stk", "com.android.storagemanager", "com.android.traceur",
    "com.android.vpndialogs", "com.android.wallpaper.livepicker", "com.android.wallpaperbackup",
    "com.google.android.apps.wellbeing", "com.google.android.backuptransport",
    "com.google.android.ext.services", "com.google.android.ext.shared",
    "com.google.android.gms", "com.google.android.gsf", "com.google.android.modulemetadata",
    "com.google.android.networkstack", "com.google.android.networkstack.permissionconfig",
    "com.google.android.onetimeinitializer", "com.google.android.packageinstaller",
    "com.google.android.partnersetup", "com.google.android.permissioncontroller",
    "com.google.android.sdksetup", "com.google.android.syncadapters.calendar",
    "com.google.android.tag", "com.google.android.webview",
)
"""System packages of an Android 10 google_apis image that the simulator has no app for."""

_PRIV_APKS = {
    "com.android.settings": "Settings", "com.android.systemui": "SystemUI",
    "com.google.android.apps.nexuslauncher": "NexusLauncherRelease",
    "com.android.contacts": "Contacts", "com.android.dialer": "Dialer",
    "com.android.documentsui": "DocumentsUIGoogle", "com.android.phone": "TeleService",
    "com.android.providers.settings": "SettingsProvider", "com.android.shell": "Shell",
    "com.google.android.gms": "PrebuiltGmsCore", "com.google.android.gsf": "GoogleServicesFramework",
    "com.android.server.telecom": "Telecom", "com.android.providers.media": "MediaProvider",
}

_KEY_NAMES: dict[str, int] = {key.value: code for key, code in KEYCODES.items()}
_KEY_NAMES.update({str(d): 7 + d for d in range(10)})
_KEY_NAMES.update({chr(ord("A") + k): 29 + k for k in range(26)})
_PUNCT_KEYS = {"STAR": (17, "*"), "POUND": (18, "#"), "COMMA": (55, ","), "PERIOD": (56, "."),
               "GRAVE": (68, "`"), "MINUS": (69, "-"), "EQUALS": (70, "="),
               "LEFT_BRACKET": (71, "["), "RIGHT_BRACKET": (72, "]"), "BACKSLASH": (73, "\\"),
               "SEMICOLON": (74, ";"), "APOSTROPHE": (75, "'"), "SLASH": (76, "/"),
               "AT": (77, "@"), "PLUS": (81, "+")}
_KEY_NAMES.update({name: code for name, (code, _) in _PUNCT_KEYS.items()})
_KEY_NAMES.update({"NUMPAD_ENTER": 160, "DPAD_CENTER": 23, "CAMERA": 27, "SEARCH": 84,
                   "NOTIFICATION": 83, "SLEEP": 223, "WAKEUP": 224, "FORWARD_DEL": 112})
_CODE_KEYS: dict[int, Key] = {code: key for key, code in KEYCODES.items()}
_CODE_KEYS[160] = Key.ENTER
_CODE_CHARS: dict[int, str] = {7 + d: str(d) for d in range(10)}
_CODE_CHARS.update({29 + k: chr(ord("a") + k) for k in range(26)})
_CODE_CHARS.update({code: char for code, char in _PUNCT_KEYS.values()})

_INTENT_FLAG_OPTIONS = {
    "--grant-read-uri-permission": 0x1, "--grant-write-uri-permission": 0x2,
    "--grant-persistable-uri-permission": 0x40, "--grant-prefix-uri-permission": 0x80,
    "--debug-log-resolution": 0x8, "--exclude-stopped-packages": 0x10,
    "--include-stopped-packages": 0x20, "--activity-brought-to-front": 0x00400000,
    "--activity-clear-top": 0x04000000, "--activity-clear-when-task-reset": 0x00080000,
    "--activity-exclude-from-recents": 0x00800000, "--activity-launched-from-history": 0x00100000,
    "--activity-multiple-task": 0x08000000, "--activity-no-animation": 0x00010000,
    "--activity-no-history": 0x40000000, "--activity-no-user-action": 0x00040000,
    "--activity-previous-is-top": 0x01000000, "--activity-reorder-to-front": 0x00020000,
    "--activity-reset-task-if-needed": 0x00200000, "--activity-single-top": 0x20000000,
    "--activity-clear-task": 0x00008000, "--activity-task-on-home": 0x00004000,
    "--activity-match-external": 0x00000800, "--activity-new-task": 0x10000000,
    "--receiver-registered-only": 0x40000000, "--receiver-replace-pending": 0x20000000,
    "--receiver-foreground": 0x10000000, "--receiver-no-abort": 0x08000000,
    "--receiver-include-background": 0x01000000,
}
_EXTRA_OPTIONS = ("--ei", "--eu", "--ecn", "--eia", "--eial", "--el", "--ela", "--elal",
                  "--ef", "--efa", "--efal", "--esa", "--esal", "--ez", "--ed")
_AM_VALUE_OPTIONS = ("-P", "--start-profiler", "--sampling", "--attach-agent",
                     "--attach-agent-bind", "-R", "--display", "--windowingMode",
                     "--activityType", "--task", "--receiver-permission", "--user")
_AM_PLAIN_OPTIONS = ("-D", "-N", "--streaming", "--track-allocation", "--task-overlay",
                     "--lock-task", "--allow-background-activity-starts", "--background")
FLAG_RECEIVER_FROM_SHELL = 0x00400000

_MONKEY_VALUE_OPTIONS = ("-s", "--throttle", "--pkg-blacklist-file", "--pkg-whitelist-file",
                         "--port", "--setup", "-f", "--profile-wait", "--device-sleep-time")

_LOGCAT_BUFFERS = ("main", "radio", "events", "system", "crash", "stats", "security", "kernel")
_LOGCAT_DEFAULT_BUFFERS = ("main", "system", "crash")
_LOGCAT_FORMATS = ("brief", "long", "process", "raw", "tag", "thread", "threadtime", "time")
_LOGCAT_MODIFIERS = ("color", "descriptive", "epoch", "monotonic", "printable", "uid", "usec",
                     "nsec", "UTC", "year", "zone")
_LOGCAT_VALUE_OPTIONS = "bvtTefrnmGpP"
_LOGCAT_LONG = {"buffer": "b", "format": "v", "regex": "e", "max-count": "m", "file": "f",
                "clear": "c", "dump": "d", "dividers": "D", "help": "h", "last": "L",
                "statistics": "S", "buffer-size": "g", "rotate-kbytes": "r", "rotate-count": "n",
                "prune": "p", "print": "", "wrap": ""}

_TOYBOX = frozenset({
    "basename", "cat", "chmod", "chown", "cp", "cut", "date", "dirname", "echo", "env", "false",
    "getenforce", "getprop", "grep", "head", "id", "ls", "mkdir", "mv", "pidof", "printf", "ps",
    "pwd", "rm", "rmdir", "setprop", "sleep", "sort", "stat", "sync", "tail", "test", "touch",
    "tr", "true", "uname", "uniq", "wc", "which", "whoami",
})
_SHELL_ONLY = frozenset({"cd", "exit", "export", "unset", ":", "exec", "command"})
"""mksh builtins with no program on disk (`su` and `/system/bin/X` cannot run them)."""
_READ_ONLY = frozenset({
    "echo", "printf", "true", "false", ":", "id", "whoami", "getprop", "ls", "cat", "stat",
    "test", "[", "grep", "head", "tail", "wc", "sort", "uniq", "cut", "tr", "dumpsys",
    "uiautomator", "screencap", "pwd", "uname", "getenforce", "which", "command", "ps",
    "pidof", "env", "basename", "dirname", "cd", "export", "unset", "exit",
    "sh", "su", "toybox", "exec", "sync",
})
"""Commands that never change device state (or only run others, which guard themselves)."""

_TEST_BINARY = frozenset({"=", "==", "!=", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt", "-ge"})
_TEST_UNARY = frozenset({"-e", "-f", "-d", "-s", "-r", "-w", "-x", "-z", "-n", "-L", "-h", "-b",
                         "-c", "-p", "-S", "-t"})

_SETTINGS_VALIDATORS: dict[str, Callable[[str], bool]] = {}


def _int_in(lo: int, hi: int) -> Callable[[str], bool]:
    def check(value: str) -> bool:
        try:
            return lo <= int(value) <= hi
        except ValueError:
            return False
    return check


def _non_negative_float(value: str) -> bool:
    try:
        return float(value) >= 0
    except ValueError:
        return False


_SETTINGS_VALIDATORS.update({
    "screen_brightness": _int_in(0, 255), "screen_brightness_mode": _int_in(0, 1),
    "font_scale": _non_negative_float, "accelerometer_rotation": _int_in(0, 1),
    "user_rotation": _int_in(0, 3), "vibrate_when_ringing": _int_in(0, 1),
    "haptic_feedback_enabled": _int_in(0, 1), "sound_effects_enabled": _int_in(0, 1),
    "screen_off_timeout": _int_in(0, 2**31 - 1), "show_touches": _int_in(0, 1),
    "pointer_location": _int_in(0, 1), "time_12_24": lambda v: v in ("12", "24"),
})
"""Android 10's Settings.System validators for the keys the simulator has (shell puts checked)."""


# -- the shell -------------------------------------------------------------------------------


class Shell:
    """One `adb shell` invocation: `run(cmd)` -> (stdout+stderr, exit status, state changed)."""

    def __init__(self, device: SimDevice):
        self.device = device
        self.uid = SHELL_UID
        self.cwd = "/"
        self.status = 0
        self.changed = False
        self.depth = 0
        self.env: dict[str, str] = {
            "HOME": "/", "PATH": "/product/bin:/apex/com.android.runtime/bin:/system/bin:"
            "/system/xbin:/odm/bin:/vendor/bin:/vendor/xbin", "SHELL": SH, "USER": "shell",
            "HOSTNAME": "localhost", "EXTERNAL_STORAGE": "/sdcard", "ANDROID_DATA": "/data",
            "ANDROID_ROOT": "/system", "ANDROID_STORAGE": "/storage", "TMPDIR": "/data/local/tmp",
            "ASEC_MOUNTPOINT": "/mnt/asec", "LOGNAME": "shell", "TERM": "dumb",
        }
        self._side: list[tuple[int, str]] = []
        self._table: dict[str, _HANDLER] = {name: getattr(self, attr)
                                            for name, attr in _COMMANDS.items()}

    # -- plumbing ---------------------------------------------------------------------------
    @property
    def system(self) -> SystemServer:
        return self.device.system

    @property
    def vfs(self) -> VirtualFS:
        return self.device.system.state.vfs

    def run(self, cmd: str) -> tuple[str, int, bool]:
        """Run one command line as `adb shell CMD` does; never raises."""
        self.changed = False
        try:
            chunks, status = self._run_text(cmd, "")
        except ShellError as exc:
            return exc.message, exc.code, self.changed
        except Exception as exc:  # noqa: BLE001 - the shell must never let an error out
            return f"{SH}: internal error: {type(exc).__name__}: {exc}\n", 255, True
        return "".join(text for _, text in chunks), status & 0xFF, self.changed

    def run_chunks(self, cmd: str, stdin: str = "") -> tuple[list[tuple[int, str]], int, bool]:
        """Like `run`, but stdout (fd 1) and stderr (fd 2) stay apart, in order; for ADB."""
        self.changed = False
        try:
            chunks, status = self._run_text(cmd, stdin)
        except ShellError as exc:
            return [(2, exc.message)], exc.code, self.changed
        except Exception as exc:  # noqa: BLE001 - the shell must never let an error out
            return [(2, f"{SH}: internal error: {type(exc).__name__}: {exc}\n")], 255, True
        return chunks, status & 0xFF, self.changed

    def _run_text(self, text: str, stdin: str) -> tuple[list[tuple[int, str]], int]:
        if self.depth >= MAX_DEPTH:
            raise ShellError(f"{SH}: too many nested shells", 1)
        script = _parse(_lex(text))
        self.depth += 1
        try:
            return self._run_script(script, stdin)
        finally:
            self.depth -= 1

    def _run_script(self, script: _Script, stdin: str) -> tuple[list[tuple[int, str]], int]:
        chunks: list[tuple[int, str]] = []
        for connector, pipeline in script:
            if connector == "&&" and self.status != 0:
                continue
            if connector == "||" and self.status == 0:
                continue
            try:
                out, self.status = self._run_pipeline(pipeline, stdin)
            except _Exit as ex:
                chunks.extend(ex.chunks)
                self.status = ex.code
                break
            chunks.extend(out)
        return chunks, self.status

    def _run_pipeline(self, pipeline: list[_Command], stdin: str) -> tuple[list[tuple[int, str]], int]:
        chunks: list[tuple[int, str]] = []
        data = stdin
        status = 0
        for k, cmd in enumerate(pipeline):
            last = k == len(pipeline) - 1
            try:
                out, status = self._run_command(cmd, data)
            except _Exit as ex:
                if len(pipeline) == 1:
                    raise
                out, status = ex.chunks, ex.code  # a pipeline stage runs in a subshell
            if last:
                chunks.extend(out)
            else:
                data = "".join(text for fd, text in out if fd == 1)
                chunks.extend((fd, text) for fd, text in out if fd != 1)
        return chunks, status

    def _run_command(self, cmd: _Command, stdin: str) -> tuple[list[tuple[int, str]], int]:
        side: list[tuple[int, str]] = []
        saved, self._side = self._side, side
        try:
            argv: list[str] = []
            for raw in cmd.words:
                argv.extend(self._expand_word(raw))
            targets = []
            for redirect in cmd.redirects:
                words = self._expand_word(redirect.target)
                if len(words) != 1:
                    raise ShellError(f"{SH}: {redirect.target}: ambiguous redirect", 1)
                targets.append((redirect, words[0]))
        except ShellError as exc:
            return side + [(2, exc.message)], exc.code
        finally:
            self._side = saved
        while argv and _ASSIGNMENT.fullmatch(argv[0]):
            name, value = _ASSIGNMENT.fullmatch(argv.pop(0)).groups()  # type: ignore[union-attr]
            if not argv:
                self.env[name] = value
        routes: dict[int, tuple] = {0: ("data", stdin), 1: ("std", 1), 2: ("std", 2)}
        files: dict[str, list[str]] = {}
        try:
            for redirect, target in targets:
                fds = (1, 2) if redirect.fd == -1 else (redirect.fd,)
                if redirect.op in (">&", "<&"):
                    if target == "-":
                        route: tuple = ("null",)
                    elif target.isdigit() and int(target) in routes:
                        route = routes[int(target)]
                    else:
                        raise ShellError(f"{SH}: {target}: illegal file descriptor name", 1)
                elif redirect.op == "<":
                    route = ("data", self._read_input(target))
                else:
                    route = self._open_output(target, redirect.op == ">>", files)
                for fd in fds:
                    routes[fd] = route
        except ShellError as exc:
            return side + [(2, exc.message)], exc.code
        stdin_route = routes.get(0, ("data", ""))
        io = _Io(stdin_route[1] if stdin_route[0] == "data" else "")
        exit_exc: _Exit | None = None
        try:
            status = self._dispatch(argv, io) if argv else 0
        except _Exit as ex:
            exit_exc, status = ex, ex.code
        result = list(side)
        for fd, text in io.chunks:
            dest = routes.get(fd, ("std", fd))
            if dest[0] == "std":
                result.append((dest[1], text))
            elif dest[0] == "file":
                files[dest[1]].append(text)
        for path, parts in files.items():
            if parts:
                data = "".join(parts).encode("utf-8", "surrogateescape")
                try:
                    self.vfs.write(path, self.vfs.files.get(path, b"") + data, make_parents=False)
                except FsError:
                    pass  # the command removed the file's directory: the data goes nowhere
                self.changed = True
        if exit_exc is not None:
            exit_exc.chunks = result
            raise exit_exc
        return result, status

    def _read_input(self, target: str) -> str:
        path = self._path(target)
        if path == "/dev/null":
            return ""
        try:
            return self.vfs.read(path).decode("utf-8", "replace")
        except FsError as exc:
            raise ShellError(f"{SH}: can't open {target}: {_reason(exc)}", 1) from None

    def _open_output(self, target: str, append: bool, files: dict[str, list[str]]) -> tuple:
        path = self._path(target)
        if path == "/dev/null":
            return ("null",)
        if path in ("/dev/stdout", "/dev/tty", "/proc/self/fd/1"):
            return ("std", 1)
        if path in ("/dev/stderr", "/proc/self/fd/2"):
            return ("std", 2)
        real = normalize(path)
        if self._read_only(real):
            raise ShellError(f"{SH}: can't create {target}: Read-only file system", 1)
        if self.vfs.is_dir(real):
            raise ShellError(f"{SH}: can't create {target}: Is a directory", 1)
        if not self.vfs.is_dir(posixpath.dirname(real)):
            raise ShellError(f"{SH}: can't create {target}: No such file or directory", 1)
        if not append or not self.vfs.exists(real):
            self.vfs.write(real, b"", make_parents=False)
            self.changed = True
        files.setdefault(real, [])
        return ("file", real)

    def _dispatch(self, argv: list[str], io: _Io) -> int:
        """Run one command with its handler; errors become messages and exit statuses."""
        name = argv[0]
        handler = self._handler(name)
        if handler is None:
            io.err(f"{SH}: {name}: inaccessible or not found\n")
            return 127
        base = posixpath.basename(name)
        guard = base not in _READ_ONLY
        before = self._state_blob() if guard else None
        log_serial = self.system.state.logs.serial
        try:
            return int(handler(argv[1:], io) or 0)
        except (ShellError, _Exit) as exc:
            if isinstance(exc, _Exit):
                raise
            io.err(exc.message)
            return exc.code
        except InvalidInput as exc:
            io.err(f"{base}: {exc}\n")
            return 1
        except Exception as exc:  # noqa: BLE001 - a bug in a command must not corrupt the phone
            if before is not None:
                self._restore(before, log_serial)
            self.changed = True
            io.err(f"{base}: internal error: {type(exc).__name__}: {exc}\n")
            return 255
        finally:
            if before is not None and not self.changed:
                self.changed = self._state_blob() != before

    def _state_blob(self) -> bytes:
        """The device state without its log buffers (which can be large and draw nothing)."""
        shallow = copy.copy(self.system.state)
        shallow.logs = None  # type: ignore[assignment]
        return pickle.dumps(shallow, protocol=pickle.HIGHEST_PROTOCOL)

    def _restore(self, blob: bytes, log_serial: int) -> None:
        """Put the state back as it was before a command that failed half-way."""
        logs = self.system.state.logs
        for _ in range(min(logs.serial - log_serial, len(logs.entries))):
            logs.entries.pop()
        logs.serial = min(logs.serial, log_serial)
        state = pickle.loads(blob)
        state.logs = logs
        self.device.restore_bytes(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))

    def _handler(self, name: str) -> _HANDLER | None:
        if "/" in name:
            directory, base = posixpath.split(name)
            if directory.rstrip("/") not in ("/system/bin", "/system/xbin", "/bin", "/sbin",
                                              "/vendor/bin", "/product/bin"):
                return None
            if base in _SHELL_ONLY:
                return None
            return self._table.get(base)
        return self._table.get(name)

    def _nested(self, text: str, io: _Io, stdin: str | None = None) -> int:
        """Run a script (`sh -c`, `su -c`) inside this command, keeping its streams apart."""
        chunks, status = self._run_text(text, io.stdin if stdin is None else stdin)
        io.chunks.extend(chunks)
        return status

    # -- expansion --------------------------------------------------------------------------
    def _expand_word(self, raw: str) -> list[str]:
        """`$...`, backticks and `~` expanded, then quotes removed and fields split by shlex."""
        if raw == "~" or raw.startswith("~/"):
            raw = self.env.get("HOME", "/").rstrip("/") + raw[1:] or "/"
        pieces: list[str] = []
        globbing = False
        dq = False
        i, n = 0, len(raw)
        while i < n:
            c = raw[i]
            if c == "\\":
                nxt = raw[i + 1:i + 2]
                pieces.append(nxt if dq and nxt in "$`" else raw[i:i + 2])
                i += 2
            elif c == "'" and not dq:
                j = _end_of_single(raw, i)
                pieces.append(raw[i:j + 1])
                i = j + 1
            elif c == '"':
                dq = not dq
                pieces.append(c)
                i += 1
            elif c == "$":
                value, i = self._dollar(raw, i)
                if value is None:
                    pieces.append("$")
                else:
                    pieces.append(_dq_quote(value) if dq else _field_quote(value))
            elif c == "`":
                j = _end_of_backtick(raw, i)
                body = re.sub(r"\\([$`\\])", r"\1", raw[i + 1:j])
                value = self._substitute(body)
                pieces.append(_dq_quote(value) if dq else _field_quote(value))
                i = j + 1
            else:
                if c in "*?[" and not dq:
                    globbing = True
                pieces.append(c)
                i += 1
        try:
            fields = shlex.split("".join(pieces))
        except ValueError as exc:
            raise ShellError(f"{SH}: {exc}", 1) from None
        if globbing:
            fields = [match for f in fields for match in (self._glob(f) or [f])]
        return fields

    def _dollar(self, raw: str, i: int) -> tuple[str | None, int]:
        """The value of the `$` expansion at raw[i] and the index after it (None: a plain `$`)."""
        if raw.startswith("$(", i):
            j = _end_of_paren(raw, i + 2)
            return self._substitute(raw[i + 2:j]), j + 1
        if raw.startswith("${", i):
            j = raw.find("}", i)
            inner = raw[i + 2:j]
            name, op, default = inner.partition(":-")
            if not op:
                name, op, default = inner.partition("-")
            if not (_NAME.fullmatch(name) or name in ("?", "$", "#", "0") or name.isdigit()):
                raise ShellError(f"{SH}: ${{{inner}}}: bad substitution", 1)
            value = self._variable(name)
            if op and (not value if op == ":-" else name not in self.env):
                value = default
            return value, j + 1
        nxt = raw[i + 1:i + 2]
        if nxt and nxt in "?$#@*!-" or nxt.isdigit():
            return self._variable(nxt), i + 2
        m = _NAME.match(raw, i + 1)
        if m:
            return self._variable(m.group(0)), m.end()
        return None, i + 1

    def _variable(self, name: str) -> str:
        if name == "?":
            return str(self.status)
        if name == "$":
            return str(SHELL_PID)
        if name == "#":
            return "0"
        if name == "0":
            return SH
        if name == "-":
            return "c"
        return self.env.get(name, "")

    def _substitute(self, body: str) -> str:
        """`$(...)`: its stdout without trailing newlines; its stderr goes to the command's."""
        chunks, _ = self._run_text(body, "")
        self._side.extend((fd, text) for fd, text in chunks if fd != 1)
        return "".join(text for fd, text in chunks if fd == 1).rstrip("\n")

    def _glob(self, pattern: str) -> list[str]:
        absolute = pattern.startswith("/")
        candidates = ["/" if absolute else ""]
        for part in [p for p in pattern.split("/") if p]:
            found: list[str] = []
            for prefix in candidates:
                joined = (prefix + part if prefix.endswith("/") or not prefix
                          else prefix + "/" + part)
                if not any(ch in part for ch in "*?["):
                    found.append(joined)
                    continue
                directory = self._path(prefix or ".")
                if not self.vfs.is_dir(directory):
                    continue
                for name in self.vfs.listdir(directory):
                    if name.startswith(".") and not part.startswith("."):
                        continue
                    if fnmatch.fnmatchcase(name, part):
                        found.append(prefix + name if prefix.endswith("/") or not prefix
                                     else prefix + "/" + name)
            candidates = found
        return sorted(c for c in candidates if self.vfs.exists(self._path(c)))

    # -- helpers ----------------------------------------------------------------------------
    def _path(self, path: str) -> str:
        return posixpath.normpath(posixpath.join(self.cwd, path)) if path else self.cwd

    @staticmethod
    def _read_only(real: str) -> bool:
        return any(real == top or real.startswith(top + "/")
                   for top in ("/system", "/vendor", "/product", "/apex", "/proc"))

    def _app(self, package: str):
        return self.system.apps.get(package)

    def _log_system(self, priority: str, tag: str, message: str) -> None:
        self.system.log_system(priority, tag, message)

    def _notify_setting(self, namespace: str, key: str) -> None:
        """SettingsProvider's change notification, for the writes that bypass put_setting."""
        self._log_system("V", "SettingsProvider", f"Notifying for 0: {uri(namespace, key)}")

    def _launcher_activity(self, package: str) -> str | None:
        app = self._app(package)
        if app is None:
            return None
        for info in all_apps():
            if info.package == package and info.activity in app.activities:
                return info.activity
        return None

    def _display_metrics(self) -> tuple[int, int, int, int, int]:
        """(width, height, density, status bar px, nav bar px) as the display is now."""
        width, height = self.system.screen_px()
        density = self.system.density
        return width, height, density, round(24 * density / 160), round(48 * density / 160)

    def _configuration(self) -> str:
        """A Configuration.toString() that matches the simulated display and locale."""
        from bmoca.sim.i18n import strings

        width, height, density, status, nav = self._display_metrics()
        scale = 160 / density
        sw = round(min(width, height) * scale)
        w_dp, h_dp = round(width * scale), round((height - status - nav) * scale)
        locale = self.system.locale.replace("-", "_")
        direction = "ldrtl" if strings(self.system.locale).rtl else "ldltr"
        night = " night" if self.system.night_mode else ""
        return (f"{{{self.system.font_scale!r} 310mcc260mnc [{locale}] {direction} sw{sw}dp "
                f"w{w_dp}dp h{h_dp}dp {density}dpi nrml long port{night} finished}}")

    # -- shell builtins -------------------------------------------------------------------
    def cmd_true(self, args: list[str], io: _Io) -> int:
        return 0

    def cmd_false(self, args: list[str], io: _Io) -> int:
        return 1

    def cmd_exit(self, args: list[str], io: _Io) -> int:
        if not args:
            raise _Exit(self.status)
        try:
            code = int(args[0])
        except ValueError:
            raise ShellError(f"{SH}: exit: {args[0]}: bad number", 1) from None
        raise _Exit(code & 0xFF)

    def cmd_echo(self, args: list[str], io: _Io) -> int:
        newline, escapes = True, True
        while args and re.fullmatch(r"-[neE]+", args[0]):
            for flag in args[0][1:]:
                if flag == "n":
                    newline = False
                else:
                    escapes = flag == "e"
            args = args[1:]
        text = " ".join(args)
        if escapes:
            text, stopped = _unescape(text)
            newline = newline and not stopped
        io.out(text + ("\n" if newline else ""))
        return 0

    def cmd_printf(self, args: list[str], io: _Io) -> int:
        if not args:
            raise ShellError("printf: Needs 1 argument", 1)
        fmt, rest = args[0], args[1:]
        spec = re.compile(r"%%|%([-+ 0#]*)(\d*)(?:\.(\d*))?([diouxXeEfgGcsb])")
        out: list[str] = []
        status = 0
        while True:
            used = 0

            def convert(m: re.Match, rest: list[str] = rest) -> str:
                nonlocal used, status
                if m.group(0) == "%%":
                    return "%"
                flags, width, precision, conv = m.groups()
                arg = rest[used] if used < len(rest) else ""
                used += 1
                if conv == "b":
                    arg, _ = _unescape(arg)
                    conv = "s"
                if conv == "c":
                    return arg[:1]
                pattern = "%" + flags + width + (f".{precision}" if precision is not None else "")
                if conv in "diouxX":
                    try:
                        value = _java_int(arg) if arg else 0
                    except ValueError:
                        io.err(f"printf: invalid number '{arg}'\n")
                        status, value = 1, 0
                    return (pattern + ("d" if conv in "iu" else conv)) % value
                if conv in "eEfgG":
                    try:
                        number = float(arg) if arg else 0.0
                    except ValueError:
                        io.err(f"printf: invalid number '{arg}'\n")
                        status, number = 1, 0.0
                    return (pattern + conv) % number
                return (pattern + "s") % arg

            text, _ = _unescape(spec.sub(convert, fmt))
            out.append(text)
            rest = rest[used:]
            if not rest or used == 0:
                break
        io.out("".join(out))
        return status

    def cmd_pwd(self, args: list[str], io: _Io) -> int:
        io.out(self.cwd + "\n")
        return 0

    def cmd_cd(self, args: list[str], io: _Io) -> int:
        target = self._path(args[0] if args else self.env.get("HOME", "/"))
        if not self.vfs.is_dir(target):
            raise ShellError(f"{SH}: cd: {target}: No such file or directory", 2)
        self.cwd = target
        return 0

    def cmd_export(self, args: list[str], io: _Io) -> int:
        for arg in args:
            m = _ASSIGNMENT.fullmatch(arg)
            if m:
                self.env[m.group(1)] = m.group(2)
            elif not args or arg == "-p":
                io.lines([f"export {k}={shlex.quote(v)}" for k, v in sorted(self.env.items())])
        return 0

    def cmd_unset(self, args: list[str], io: _Io) -> int:
        for name in args:
            self.env.pop(name, None)
        return 0

    def cmd_env(self, args: list[str], io: _Io) -> int:
        extra = dict(m.groups() for a in args if (m := _ASSIGNMENT.fullmatch(a)))
        command = [a for a in args if not _ASSIGNMENT.fullmatch(a) and a != "-i"]
        if command:
            return self._dispatch(command, io)
        io.lines([f"{k}={v}" for k, v in sorted({**self.env, **extra}.items())])
        return 0

    def cmd_exec(self, args: list[str], io: _Io) -> int:
        if not args:
            return 0
        raise _Exit(self._dispatch(args, io))

    def cmd_sh(self, args: list[str], io: _Io) -> int:
        if args and args[0] == "-c":
            if len(args) < 2:
                raise ShellError(f"{SH}: -c: option requires an argument", 1)
            return self._nested(args[1], io)
        if args:
            try:
                script = self.vfs.read(self._path(args[0])).decode("utf-8", "replace")
            except FsError:
                raise ShellError(f"{SH}: {args[0]}: No such file or directory", 127) from None
            return self._nested(script, io, stdin="")
        return self._nested(io.stdin, io, stdin="")

    def cmd_su(self, args: list[str], io: _Io) -> int:
        if args and args[0] in ("-h", "--help"):
            io.out("usage: su [WHO [COMMAND...]]\n\nSwitch to WHO (default 'root') and run the "
                   "given COMMAND (default sh).\n\nWHO is a comma-separated list of user, group, "
                   "and supplementary groups\nin that order.\n\n")
            return 0
        previous = self.uid
        try:
            if args and args[0] == "-c":
                if len(args) < 2:
                    raise ShellError("su: option requires an argument -- c", 1)
                self.uid = 0
                return self._nested(args[1], io)
            if args and args[0] in ("-", "-l", "--login"):
                args = args[1:]
            who = args[0] if args else "root"
            uid = {"root": 0, "shell": SHELL_UID, "system": 1000}.get(who.split(",")[0])
            if uid is None:
                if not who.split(",")[0].isdigit():
                    raise ShellError(f"su: unknown user {who}", 1)
                uid = int(who.split(",")[0])
            self.uid = uid
            command = args[1:]
            if not command:
                return self._nested(io.stdin, io, stdin="") if io.stdin else 0
            if command[0] in _SHELL_ONLY or self._handler(command[0]) is None:
                raise ShellError(f"su: failed to exec {command[0]}: No such file or directory", 1)
            return self._dispatch(command, io)
        finally:
            self.uid = previous

    def cmd_toybox(self, args: list[str], io: _Io) -> int:
        if not args:
            io.out(" ".join(sorted(_TOYBOX)) + "\n")
            return 0
        name = posixpath.basename(args[0])
        if name not in _TOYBOX:
            raise ShellError(f"toybox: Unknown command {name}", 1)
        return self._dispatch([name, *args[1:]], io)

    def cmd_which(self, args: list[str], io: _Io) -> int:
        status = 0
        for name in [a for a in args if not a.startswith("-")]:
            if name == "su":
                io.out("/system/xbin/su\n")
            elif name in self._table and name not in _SHELL_ONLY:
                io.out(f"/system/bin/{name}\n")
            else:
                status = 1
        return status

    def cmd_command(self, args: list[str], io: _Io) -> int:
        if args and args[0] in ("-v", "-V"):
            status = 0
            for name in args[1:]:
                if name in _SHELL_ONLY:
                    io.out(name + "\n")
                elif self._table.get(name):
                    io.out(("/system/xbin/" if name == "su" else "/system/bin/") + name + "\n")
                else:
                    status = 1
            return status
        return self._dispatch(args, io) if args else 0

    def cmd_id(self, args: list[str], io: _Io) -> int:
        flags = "".join(a[1:] for a in args if a.startswith("-"))
        name = {0: "root", SHELL_UID: "shell", 1000: "system"}.get(self.uid, str(self.uid))
        if flags.strip("n") in ("u", "g"):
            io.out((name if "n" in flags else str(self.uid)) + "\n")
            return 0
        if "G" in flags:
            groups = re.findall(r"(\d+)\((\w+)\)", ID_GROUPS.format(own=f"{self.uid}({name})"))
            io.out(" ".join(g[1] if "n" in flags else g[0] for g in groups) + "\n")
            return 0
        if self.uid == 0:
            io.out("uid=0(root) gid=0(root) " + ID_GROUPS.format(own="0(root)")
                   + " context=u:r:su:s0\n")
        elif self.uid == SHELL_UID:
            io.out("uid=2000(shell) gid=2000(shell) " + ID_GROUPS.format(own="2000(shell)")
                   + " context=u:r:shell:s0\n")
        else:
            name = "system" if self.uid == 1000 else str(self.uid)
            io.out(f"uid={self.uid}({name}) gid={self.uid}({name}) groups={self.uid}({name}) "
                   "context=u:r:su:s0\n")
        return 0

    def cmd_whoami(self, args: list[str], io: _Io) -> int:
        io.out({0: "root", SHELL_UID: "shell", 1000: "system"}.get(self.uid, str(self.uid)) + "\n")
        return 0

    def cmd_uname(self, args: list[str], io: _Io) -> int:
        fields = {"s": "Linux", "n": "localhost", "r": "4.14.112+",
                  "v": "#1 SMP PREEMPT Wed Oct 16 13:45:28 UTC 2019", "m": "x86_64",
                  "o": "Toybox"}
        flags = "".join(a[1:] for a in args if a.startswith("-")) or "s"
        if "a" in flags:
            flags = "snrvm"
        io.out(" ".join(fields[f] for f in "snrvmo" if f in flags) + "\n")
        return 0

    def cmd_getenforce(self, args: list[str], io: _Io) -> int:
        io.out("Enforcing\n")
        return 0

    def cmd_sync(self, args: list[str], io: _Io) -> int:
        return 0

    def cmd_sleep(self, args: list[str], io: _Io) -> int:
        if not args:
            raise ShellError("sleep: Needs 1 argument", 1)
        total = 0.0
        for arg in args:
            m = re.fullmatch(r"(\d+(?:\.\d*)?|\.\d+)([smhd]?)", arg)
            if not m:
                raise ShellError(f"sleep: invalid number '{arg}'", 1)
            total += float(m.group(1)) * {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}[m.group(2)]
        self.system.state.clock.advance(int(total * 1000))
        return 0

    def cmd_basename(self, args: list[str], io: _Io) -> int:
        if not args:
            raise ShellError("basename: Needs 1 argument", 1)
        name = posixpath.basename(args[0].rstrip("/")) or "/"
        if len(args) > 1 and name.endswith(args[1]) and name != args[1]:
            name = name[:-len(args[1])]
        io.out(name + "\n")
        return 0

    def cmd_dirname(self, args: list[str], io: _Io) -> int:
        if not args:
            raise ShellError("dirname: Needs 1 argument", 1)
        io.out((posixpath.dirname(args[0].rstrip("/")) or ".") + "\n")
        return 0

    # -- test / [ -------------------------------------------------------------------------
    def cmd_test(self, args: list[str], io: _Io) -> int:
        return self._test(args, "test", io)

    def cmd_bracket(self, args: list[str], io: _Io) -> int:
        if not args or args[-1] != "]":
            io.err(f"{SH}: [: missing ]\n")
            return 2
        return self._test(args[:-1], "[", io)

    def _test(self, args: list[str], name: str, io: _Io) -> int:
        pos = 0

        def number(text: str) -> int:
            try:
                return int(text.strip())
            except ValueError:
                raise ShellError(f"{SH}: {name}: {text}: bad number", 2) from None

        def primary() -> bool:
            nonlocal pos
            if pos >= len(args):
                raise ShellError(f"{SH}: {name}: argument expected", 2)
            token = args[pos]
            if token == "!":
                pos += 1
                return not primary()
            if token == "(":
                pos += 1
                value = disjunction()
                if pos >= len(args) or args[pos] != ")":
                    raise ShellError(f"{SH}: {name}: ')' expected", 2)
                pos += 1
                return value
            if pos + 2 < len(args) and args[pos + 1] in _TEST_BINARY:
                left, op, right = args[pos], args[pos + 1], args[pos + 2]
                pos += 3
                if op in ("=", "=="):
                    return left == right
                if op == "!=":
                    return left != right
                if op == "<":
                    return left < right
                if op == ">":
                    return left > right
                a, b = number(left), number(right)
                return {"-eq": a == b, "-ne": a != b, "-lt": a < b, "-le": a <= b,
                        "-gt": a > b, "-ge": a >= b}[op]
            if token in _TEST_UNARY and pos + 1 < len(args):
                operand = args[pos + 1]
                pos += 2
                if token == "-z":
                    return operand == ""
                if token == "-n":
                    return operand != ""
                if token == "-t":
                    return False
                real = normalize(self._path(operand))
                if token == "-d":
                    return self.vfs.is_dir(real)
                if token == "-f":
                    return real in self.vfs.files
                if token == "-s":
                    return real in self.vfs.files and len(self.vfs.files[real]) > 0
                if token in ("-L", "-h", "-b", "-c", "-p", "-S"):
                    return False
                return self.vfs.exists(real)
            pos += 1
            return token != ""

        def conjunction() -> bool:
            nonlocal pos
            value = primary()
            while pos < len(args) and args[pos] == "-a":
                pos += 1
                value = primary() and value
            return value

        def disjunction() -> bool:
            nonlocal pos
            value = conjunction()
            while pos < len(args) and args[pos] == "-o":
                pos += 1
                value = conjunction() or value
            return value

        if not args:
            return 1
        try:
            result = disjunction()
            if pos != len(args):
                raise ShellError(f"{SH}: {name}: {args[pos]}: unexpected operator", 2)
        except ShellError as exc:
            io.err(exc.message)
            return 2
        return 0 if result else 1

    # -- text filters -----------------------------------------------------------------------
    def _inputs(self, files: list[str], io: _Io, tool: str) -> tuple[list[tuple[str, str]], int]:
        """(name, text) of each file argument, or stdin when there are none."""
        if not files:
            return [("(standard input)", io.stdin)], 0
        found: list[tuple[str, str]] = []
        status = 0
        for name in files:
            if name == "-":
                found.append(("(standard input)", io.stdin))
                continue
            path = self._path(name)
            if path == "/dev/null":
                found.append((name, ""))
                continue
            try:
                found.append((name, self.vfs.read(path).decode("utf-8", "replace")))
            except FsError as exc:
                io.err(f"{tool}: {name}: {_reason(exc)}\n")
                status = 1 if tool != "grep" else 2
        return found, status

    def cmd_grep(self, args: list[str], io: _Io) -> int:
        opts: set[str] = set()
        patterns: list[str] = []
        positional: list[str] = []
        before = after = 0
        max_count: int | None = None
        i = 0
        while i < len(args):
            arg = args[i]
            i += 1
            if arg == "--":
                positional.extend(args[i:])
                break
            if arg.startswith("--"):
                long = {"--ignore-case": "i", "--invert-match": "v", "--count": "c",
                        "--extended-regexp": "E", "--fixed-strings": "F", "--quiet": "q",
                        "--silent": "q", "--line-number": "n", "--word-regexp": "w",
                        "--line-regexp": "x", "--only-matching": "o",
                        "--files-with-matches": "l", "--no-messages": "s"}.get(arg)
                if long is None:
                    raise ShellError(f"grep: Unknown option '{arg[2:]}'", 2)
                opts.add(long)
                continue
            if arg.startswith("-") and len(arg) > 1:
                j = 1
                while j < len(arg):
                    flag = arg[j]
                    if flag in "eABCm":
                        value = arg[j + 1:] or (args[i] if i < len(args) else None)
                        if value is None:
                            raise ShellError(f"grep: Missing argument to '-{flag}'", 2)
                        if not arg[j + 1:]:
                            i += 1
                        if flag == "e":
                            patterns.append(value)
                        elif not value.isdigit():
                            raise ShellError(f"grep: -{flag} {value}: not integer", 2)
                        elif flag == "m":
                            max_count = int(value)
                        else:
                            before = int(value) if flag in "BC" else before
                            after = int(value) if flag in "AC" else after
                        break
                    if flag not in "ivcEFqnwxolshHrRZ":
                        raise ShellError(f"grep: Unknown option '{flag}'", 2)
                    opts.add(flag)
                    j += 1
                continue
            positional.append(arg)
        if not patterns:
            if not positional:
                raise ShellError("usage: grep [-EFrivwcloqsHbhn] [-ABC NUM] [-m MAX] "
                                 "[-e REGEX]... [-MS PATTERN]... [-f REGFILE] [FILE]...", 2)
            patterns.append(positional.pop(0))
        regexes = []
        for pattern in [p for pat in patterns for p in pat.split("\n")]:
            body = re.escape(pattern) if "F" in opts else _regex(pattern, "E" in opts)
            if "w" in opts:
                body = rf"(?<!\w)(?:{body})(?!\w)"
            if "x" in opts:
                body = rf"^(?:{body})$"
            try:
                regexes.append(re.compile(body, re.I if "i" in opts else 0))
            except re.error as exc:
                raise ShellError(f"grep: bad REGEX '{pattern}': {exc}", 2) from None
        sources, status = self._inputs(positional, io, "grep")
        if "s" in opts:
            io.chunks = [c for c in io.chunks if c[0] != 2]
        show_names = (len(positional) > 1 or "H" in opts) and "h" not in opts
        listing = bool(opts & {"c", "l"})
        matched = False
        for name, text in sources:
            lines = _split_lines(text)

            def lead(number: int, sep: str, name: str = name) -> str:
                return ((f"{name}{sep}" if show_names else "")
                        + (f"{number}{sep}" if "n" in opts else ""))

            count, last, trailing = 0, -1, 0
            for index, line in enumerate(lines):
                if max_count is not None and count >= max_count and trailing == 0:
                    break
                selected = any(r.search(line) for r in regexes) != ("v" in opts)
                if selected and (max_count is None or count < max_count):
                    count += 1
                    matched = True
                    if "q" in opts:
                        return 0
                    if listing:
                        continue
                    first = max(index - before, last + 1)
                    if (before or after) and last >= 0 and first > last + 1:
                        io.out("--\n")
                    for k in range(first, index):
                        io.out(f"{lead(k + 1, '-')}{lines[k]}\n")
                    if "o" in opts and "v" not in opts:
                        hits = sorted((m for r in regexes for m in r.finditer(line)),
                                      key=lambda m: m.start())
                        for hit in hits:
                            if hit.group(0):
                                io.out(f"{lead(index + 1, ':')}{hit.group(0)}\n")
                    else:
                        io.out(f"{lead(index + 1, ':')}{line}\n")
                    last, trailing = index, after
                elif trailing > 0 and not listing:
                    io.out(f"{lead(index + 1, '-')}{line}\n")
                    last, trailing = index, trailing - 1
            if "c" in opts:
                io.out((f"{name}:" if show_names else "") + f"{count}\n")
            elif "l" in opts and count:
                io.out(f"{name}\n")
        if status:
            return 2
        return 0 if matched else 1

    def _head_tail(self, args: list[str], io: _Io, tool: str) -> int:
        count, from_start, by_bytes = 10, False, False
        files: list[str] = []
        i = 0
        while i < len(args):
            arg = args[i]
            i += 1
            if re.fullmatch(r"-\d+", arg):
                count = int(arg[1:])
            elif arg in ("-n", "-c") or re.fullmatch(r"-[nc][+-]?\d+", arg):
                value = arg[2:] if len(arg) > 2 else (args[i] if i < len(args) else "")
                if len(arg) == 2:
                    i += 1
                by_bytes = arg[1] == "c"
                from_start = value.startswith("+")
                try:
                    count = abs(int(value))
                except ValueError:
                    raise ShellError(f"{tool}: invalid number '{value}'", 1) from None
            elif arg in ("-q", "-v", "-f"):
                continue
            elif arg.startswith("-") and len(arg) > 1:
                raise ShellError(f"{tool}: Unknown option '{arg[1:]}'", 1)
            else:
                files.append(arg)
        sources, status = self._inputs(files, io, tool)
        for k, (name, text) in enumerate(sources):
            if len(files) > 1:
                io.out(("\n" if k else "") + f"==> {name} <==\n")
            if by_bytes:
                if tool == "head":
                    io.out(text[:count])
                else:
                    io.out(text[count - 1:] if from_start else text[-count:] if count else "")
                continue
            lines = text.splitlines(keepends=True)
            if tool == "head":
                chosen = lines[:count]
            elif from_start:
                chosen = lines[max(count - 1, 0):]
            else:
                chosen = lines[-count:] if count else []
            io.out("".join(chosen))
        return status

    def cmd_head(self, args: list[str], io: _Io) -> int:
        return self._head_tail(args, io, "head")

    def cmd_tail(self, args: list[str], io: _Io) -> int:
        return self._head_tail(args, io, "tail")

    def cmd_wc(self, args: list[str], io: _Io) -> int:
        flags = "".join(a[1:] for a in args if a.startswith("-") and len(a) > 1) or "lwc"
        files = [a for a in args if not (a.startswith("-") and len(a) > 1)]
        sources, status = self._inputs(files, io, "wc")
        totals = [0, 0, 0]
        for name, text in sources:
            counts = [text.count("\n"), len(text.split()), len(text.encode("utf-8"))]
            totals = [a + b for a, b in zip(totals, counts, strict=True)]
            shown = [str(v) for f, v in zip("lwc", counts, strict=True) if f in flags]
            io.out(" ".join(shown) + (f" {name}" if files else "") + "\n")
        if len(files) > 1:
            io.out(" ".join(str(v) for f, v in zip("lwc", totals, strict=True) if f in flags)
                   + " total\n")
        return status

    def cmd_sort(self, args: list[str], io: _Io) -> int:
        flags = "".join(a[1:] for a in args if a.startswith("-") and len(a) > 1)
        files = [a for a in args if not (a.startswith("-") and len(a) > 1)]
        sources, status = self._inputs(files, io, "sort")
        lines = [line for _, text in sources for line in _split_lines(text)]

        def key(line: str):
            if "n" in flags:
                m = re.match(r"\s*(-?\d+(?:\.\d+)?)", line)
                return (float(m.group(1)) if m else 0.0, line)
            return line.lower() if "f" in flags else line

        lines.sort(key=key, reverse="r" in flags)
        if "u" in flags:
            lines = list(dict.fromkeys(lines))
        io.lines(lines)
        return status

    def cmd_uniq(self, args: list[str], io: _Io) -> int:
        flags = "".join(a[1:] for a in args if a.startswith("-") and len(a) > 1)
        files = [a for a in args if not (a.startswith("-") and len(a) > 1)]
        sources, status = self._inputs(files[:1], io, "uniq")
        groups: list[list] = []
        for line in _split_lines(sources[0][1] if sources else ""):
            if groups and groups[-1][0] == line:
                groups[-1][1] += 1
            else:
                groups.append([line, 1])
        out = []
        for line, count in groups:
            if ("d" in flags and count < 2) or ("u" in flags and count > 1):
                continue
            out.append(f"{count:7d} {line}" if "c" in flags else line)
        io.lines(out)
        return status

    def cmd_cut(self, args: list[str], io: _Io) -> int:
        delimiter, fields, chars = "\t", None, None
        files: list[str] = []
        i = 0
        while i < len(args):
            arg = args[i]
            i += 1
            if arg[:2] in ("-d", "-f", "-c") and len(arg) >= 2:
                value = arg[2:] if len(arg) > 2 else (args[i] if i < len(args) else "")
                if len(arg) == 2:
                    i += 1
                if arg[1] == "d":
                    delimiter = value[:1] or "\t"
                elif arg[1] == "f":
                    fields = value
                else:
                    chars = value
            elif arg == "-s":
                continue
            else:
                files.append(arg)
        spec = fields or chars
        if spec is None:
            raise ShellError("cut: Needs -fcb", 1)
        wanted: list[tuple[int, int]] = []
        for part in spec.split(","):
            lo, dash, hi = part.partition("-")
            try:
                start = int(lo) if lo else 1
                end = (int(hi) if hi else 1 << 30) if dash else start
            except ValueError:
                raise ShellError(f"cut: bad list '{spec}'", 1) from None
            wanted.append((start, end))
        sources, status = self._inputs(files, io, "cut")
        out = []
        for _, text in sources:
            for line in _split_lines(text):
                items = line.split(delimiter) if fields is not None else list(line)
                if fields is not None and delimiter not in line:
                    out.append(line)
                    continue
                picked = [item for k, item in enumerate(items, 1)
                          if any(a <= k <= b for a, b in wanted)]
                out.append((delimiter if fields is not None else "").join(picked))
        io.lines(out)
        return status

    def cmd_tr(self, args: list[str], io: _Io) -> int:
        flags = "".join(a[1:] for a in args if re.fullmatch(r"-[dsc]+", a))
        sets = [a for a in args if not re.fullmatch(r"-[dsc]+", a)]

        def expand(spec: str) -> str:
            spec, _ = _unescape(spec)
            return re.sub(r"(.)-(.)", lambda m: "".join(chr(c) for c in range(
                ord(m.group(1)), ord(m.group(2)) + 1)), spec)

        if not sets:
            raise ShellError("tr: Needs 1 argument", 1)
        first = expand(sets[0])
        text = io.stdin
        if "d" in flags:
            text = "".join(c for c in text if c not in first)
        elif len(sets) > 1:
            second = expand(sets[1])
            if not second and first:
                raise ShellError("tr: set2 can't be empty", 1)
            second = second + second[-1:] * max(0, len(first) - len(second))
            text = text.translate(str.maketrans(first, second[:len(first)]))
        if "s" in flags:
            squeeze = expand(sets[-1])
            text = re.sub("([" + re.escape(squeeze) + "])\\1+", r"\1", text) if squeeze else text
        io.out(text)
        return 0

    # -- files ------------------------------------------------------------------------------
    def _split_flags(self, args: list[str], tool: str, allowed: str,
                     valued: str = "") -> tuple[set[str], list[str], dict[str, str]]:
        """toybox-style option parsing: clustered short flags, `--` ends options."""
        flags: set[str] = set()
        values: dict[str, str] = {}
        rest: list[str] = []
        i = 0
        while i < len(args):
            arg = args[i]
            i += 1
            if arg == "--":
                rest.extend(args[i:])
                break
            if arg.startswith("-") and len(arg) > 1:
                j = 1
                while j < len(arg):
                    flag = arg[j]
                    if flag in valued:
                        value = arg[j + 1:] or (args[i] if i < len(args) else None)
                        if value is None:
                            raise ShellError(f"{tool}: Missing argument to -{flag}", 1)
                        if not arg[j + 1:]:
                            i += 1
                        values[flag] = value
                        break
                    if flag not in allowed:
                        raise ShellError(f"{tool}: Unknown option '{flag}'", 1)
                    flags.add(flag)
                    j += 1
                continue
            rest.append(arg)
        return flags, rest, values

    @staticmethod
    def _owner(real: str, is_dir: bool) -> tuple[str, str, str]:
        """(mode string, owner, group) for a path, as the Android 10 image lays them out."""
        if real == EXTERNAL or real.startswith(EXTERNAL + "/"):
            return ("drwxrwx--x" if is_dir else "-rw-rw----"), "root", "sdcard_rw"
        if real == "/data/local/tmp" or real.startswith("/data/local/tmp/"):
            return ("drwxrwx--x" if is_dir else "-rw-rw-rw-"), "shell", "shell"
        if real.startswith("/data"):
            return ("drwxrwx--x" if is_dir else "-rw-rw----"), "system", "system"
        return ("drwxr-xr-x" if is_dir else "-rw-r--r--"), "root", "root"

    def _size(self, real: str) -> int:
        return 4096 if self.vfs.is_dir(real) else len(self.vfs.files.get(real, b""))

    def _long_lines(self, entries: list[tuple[str, str]]) -> list[str]:
        """`ls -l` rows for (shown name, real path), columns aligned as toybox aligns them."""
        stamp = dt.datetime.fromtimestamp(BOOT_TIME_MS / 1000, tz=dt.UTC)
        when = stamp.strftime("%Y-%m-%d %H:%M")
        rows = []
        for shown, real in entries:
            is_dir = self.vfs.is_dir(real)
            mode, owner, group = self._owner(real, is_dir)
            links = 2 if is_dir else 1
            rows.append((mode, str(links), owner, group, str(self._size(real)), shown))
        if not rows:
            return []
        widths = [max(len(r[k]) for r in rows) for k in range(5)]
        return [f"{m} {ln:>{widths[1]}} {o:<{widths[2]}} {g:<{widths[3]}} {s:>{widths[4]}} "
                f"{when} {name}" for m, ln, o, g, s, name in rows]

    def cmd_ls(self, args: list[str], io: _Io) -> int:
        flags, targets, _ = self._split_flags(args, "ls", "laAd1RhtrsSFnicuZ")
        targets = targets or ["."]
        status = 0
        files: list[str] = []
        dirs: list[str] = []
        for target in targets:
            real = normalize(self._path(target))
            if not self.vfs.exists(real):
                io.err(f"ls: {target}: No such file or directory\n")
                status = 1
            elif self.vfs.is_dir(real) and "d" not in flags:
                dirs.append(target)
            else:
                files.append(target)
        if files:
            entries = [(t, normalize(self._path(t))) for t in sorted(files)]
            io.lines(self._long_lines(entries) if "l" in flags else [t for t, _ in entries])
        for k, target in enumerate(sorted(dirs)):
            real = normalize(self._path(target))
            names = self.vfs.listdir(real)
            if "a" not in flags and "A" not in flags:
                names = [n for n in names if not n.startswith(".")]
            entries = [(n, posixpath.join(real, n)) for n in names]
            if "a" in flags:
                entries = [(".", real), ("..", posixpath.dirname(real) or "/")] + entries
            if len(targets) > 1:
                io.out(("\n" if files or k else "") + f"{target}:\n")
            if "l" in flags:
                io.out(f"total {sum(-(-self._size(p) // 1024) for _, p in entries)}\n")
                io.lines(self._long_lines(entries))
            else:
                io.lines([n for n, _ in entries])
        return status

    def cmd_cat(self, args: list[str], io: _Io) -> int:
        _, files, _ = self._split_flags(args, "cat", "uvteAsn")
        if not files:
            io.out(io.stdin)
            return 0
        status = 0
        for name in files:
            if name == "-":
                io.out(io.stdin)
                continue
            path = self._path(name)
            if path == "/dev/null":
                continue
            try:
                io.out(self.vfs.read(path).decode("utf-8", "replace"))
            except FsError as exc:
                io.err(f"cat: {name}: {_reason(exc)}\n")
                status = 1
        return status

    def cmd_rm(self, args: list[str], io: _Io) -> int:
        flags, targets, _ = self._split_flags(args, "rm", "rRfiv")
        if not targets and "f" not in flags:
            raise ShellError("rm: Needs 1 argument", 1)
        status = 0
        for target in targets:
            real = normalize(self._path(target))
            if not self.vfs.exists(real):
                if "f" not in flags:
                    io.err(f"rm: {target}: No such file or directory\n")
                    status = 1
                continue
            if self.vfs.is_dir(real) and not flags & {"r", "R"}:
                io.err(f"rm: {target}: Is a directory\n")
                status = 1
                continue
            if real == "/" or self._read_only(real):
                io.err(f"rm: {target}: {'Read-only file system' if real != '/' else 'Device or resource busy'}\n")
                status = 1
                continue
            self.vfs.remove(real, recursive=True)
        return status

    def cmd_rmdir(self, args: list[str], io: _Io) -> int:
        _, targets, _ = self._split_flags(args, "rmdir", "p")
        status = 0
        for target in targets:
            real = normalize(self._path(target))
            if not self.vfs.is_dir(real):
                reason = "Not a directory" if self.vfs.exists(real) else "No such file or directory"
                io.err(f"rmdir: {target}: {reason}\n")
                status = 1
            elif self.vfs.listdir(real):
                io.err(f"rmdir: {target}: Directory not empty\n")
                status = 1
            else:
                self.vfs.remove(real)
        return status

    def cmd_mkdir(self, args: list[str], io: _Io) -> int:
        flags, targets, _ = self._split_flags(args, "mkdir", "pv", valued="m")
        if not targets:
            raise ShellError("mkdir: Needs 1 argument", 1)
        status = 0
        for target in targets:
            real = normalize(self._path(target))
            if self.vfs.exists(real):
                if "p" in flags and self.vfs.is_dir(real):
                    continue
                io.err(f"mkdir: '{target}': File exists\n")
                status = 1
            elif self._read_only(real):
                io.err(f"mkdir: '{target}': Read-only file system\n")
                status = 1
            elif "p" not in flags and not self.vfs.is_dir(posixpath.dirname(real)):
                io.err(f"mkdir: '{target}': No such file or directory\n")
                status = 1
            else:
                try:
                    self.vfs.mkdir(real)
                except FsError as exc:
                    io.err(f"mkdir: '{target}': {_reason(exc)}\n")
                    status = 1
        return status

    def cmd_touch(self, args: list[str], io: _Io) -> int:
        flags, targets, _ = self._split_flags(args, "touch", "acmh", valued="dtr")
        if not targets:
            raise ShellError("touch: Needs 1 argument", 1)
        status = 0
        for target in targets:
            real = normalize(self._path(target))
            if self.vfs.exists(real) or "c" in flags:
                continue
            if self._read_only(real):
                io.err(f"touch: '{target}': Read-only file system\n")
                status = 1
                continue
            try:
                self.vfs.write(real, b"", make_parents=False)
            except FsError:
                io.err(f"touch: '{target}': No such file or directory\n")
                status = 1
        return status

    def _copy_tree(self, src: str, dst: str) -> None:
        self.vfs.mkdir(dst)
        prefix = src.rstrip("/") + "/"
        for d in sorted(p for p in self.vfs.dirs if p.startswith(prefix)):
            self.vfs.mkdir(dst + "/" + d[len(prefix):])
        for f in sorted(p for p in self.vfs.files if p.startswith(prefix)):
            self.vfs.write(dst + "/" + f[len(prefix):], self.vfs.files[f])

    def _copy_or_move(self, args: list[str], io: _Io, tool: str) -> int:
        flags, paths, _ = self._split_flags(args, tool, "rRafpnivdPlsuHLFT")
        if len(paths) < 2:
            raise ShellError(f"{tool}: Needs 2 arguments", 1)
        *sources, dest = paths
        dest_real = normalize(self._path(dest))
        into = self.vfs.is_dir(dest_real)
        if len(sources) > 1 and not into:
            raise ShellError(f"{tool}: '{dest}' not directory", 1)
        status = 0
        for source in sources:
            src = normalize(self._path(source))
            target = posixpath.join(dest_real, posixpath.basename(src)) if into else dest_real
            if not self.vfs.exists(src):
                io.err(f"{tool}: '{source}': No such file or directory\n")
                status = 1
                continue
            if self._read_only(target) or (tool == "mv" and self._read_only(src)):
                io.err(f"{tool}: '{dest}': Read-only file system\n")
                status = 1
                continue
            if src == target:
                continue
            if self.vfs.is_dir(src):
                if tool == "cp" and not flags & {"r", "R", "a"}:
                    io.err(f"cp: Skipped dir '{source}'\n")
                    status = 1
                    continue
                if target.startswith(src.rstrip("/") + "/"):
                    io.err(f"{tool}: '{source}' to '{dest}': Invalid argument\n")
                    status = 1
                    continue
            try:
                if self.vfs.is_dir(src):
                    self._copy_tree(src, target)
                else:
                    self.vfs.write(target, self.vfs.files[src], make_parents=False)
                if tool == "mv":
                    self.vfs.remove(src, recursive=True)
            except FsError as exc:
                io.err(f"{tool}: '{dest}': {_reason(exc)}\n")
                status = 1
        return status

    def cmd_cp(self, args: list[str], io: _Io) -> int:
        return self._copy_or_move(args, io, "cp")

    def cmd_mv(self, args: list[str], io: _Io) -> int:
        return self._copy_or_move(args, io, "mv")

    def cmd_stat(self, args: list[str], io: _Io) -> int:
        fmt = None
        rest: list[str] = []
        i = 0
        while i < len(args):
            arg = args[i]
            i += 1
            if arg in ("-c", "--format") and i < len(args):
                fmt = args[i]
                i += 1
            elif arg.startswith("--format=") or arg.startswith("-c"):
                fmt = arg.split("=", 1)[1] if arg.startswith("--") else arg[2:]
            elif arg in ("-L", "-f", "-t"):
                continue
            else:
                rest.append(arg)
        if not rest:
            raise ShellError("stat: Needs 1 argument", 1)
        status = 0
        stamp = dt.datetime.fromtimestamp(BOOT_TIME_MS / 1000, tz=dt.UTC)
        for name in rest:
            real = normalize(self._path(name))
            if not self.vfs.exists(real):
                io.err(f"stat: '{name}': No such file or directory\n")
                status = 1
                continue
            is_dir = self.vfs.is_dir(real)
            mode, owner, group = self._owner(real, is_dir)
            size = self._size(real)
            octal = sum(1 << (8 - k) for k, c in enumerate(mode[1:]) if c != "-")
            ids = {"root": 0, "system": 1000, "shell": 2000, "sdcard_rw": 1015}
            values = {
                "s": str(size), "n": name, "N": f"'{name}'", "a": f"{octal:o}", "A": mode,
                "F": "directory" if is_dir else ("regular empty file" if not size else "regular file"),
                "U": owner, "G": group, "u": str(ids[owner]), "g": str(ids[group]),
                "h": "2" if is_dir else "1", "b": str(-(-size // 512)), "B": "512",
                "i": str(zlib.crc32(real.encode()) & 0xFFFFF), "Y": str(BOOT_TIME_MS // 1000),
                "y": stamp.strftime("%Y-%m-%d %H:%M:%S.000000000 +0000"), "o": "4096",
            }
            values.update({"X": values["Y"], "Z": values["Y"], "x": values["y"], "z": values["y"]})
            if fmt is not None:
                text = re.sub(r"%(.)", lambda m, v=values: v.get(m.group(1), m.group(0)), fmt)
                io.out(_unescape(text)[0] + "\n")
                continue
            io.out(f"  File: {name}\n"
                   f"  Size: {size}\t Blocks: {values['b']}\t IO Blocks: 4096\t{values['F']}\n"
                   f"Device: fd00h/64768d\t Inode: {values['i']}\t Links: {values['h']}\n"
                   f"Access: (0{octal:o}/{mode})\tUid: ({ids[owner]:5d}/{owner:>8})\t"
                   f"Gid: ({ids[group]:5d}/{group:>8})\n"
                   f"Access: {values['y']}\nModify: {values['y']}\nChange: {values['y']}\n")
        return status

    def _chmod_like(self, args: list[str], io: _Io, tool: str) -> int:
        _, rest, _ = self._split_flags(args, tool, "RvfhHLP")
        if len(rest) < 2:
            raise ShellError(f"{tool}: Needs 2 arguments", 1)
        status = 0
        for name in rest[1:]:
            if not self.vfs.exists(self._path(name)):
                io.err(f"{tool}: {name}: No such file or directory\n")
                status = 1
        return status

    def cmd_chmod(self, args: list[str], io: _Io) -> int:
        return self._chmod_like(args, io, "chmod")

    def cmd_chown(self, args: list[str], io: _Io) -> int:
        return self._chmod_like(args, io, "chown")

    # -- properties and framework lifecycle -------------------------------------------------
    def _props(self) -> dict[str, str]:
        """System properties; keys starting with `_` are the simulator's own bookkeeping."""
        return {k: v for k, v in self.system.state.props.items() if not k.startswith("_")}

    def cmd_getprop(self, args: list[str], io: _Io) -> int:
        args = [a for a in args if a not in ("-T", "-Z")]
        props = self._props()
        if not args:
            io.lines([f"[{k}]: [{props[k]}]" for k in sorted(props)])
            return 0
        io.out(props.get(args[0], args[1] if len(args) > 1 else "") + "\n")
        return 0

    def cmd_setprop(self, args: list[str], io: _Io) -> int:
        if len(args) != 2:
            raise ShellError("usage: setprop NAME VALUE\n\nSets an Android system property.", 1)
        name, value = args
        if name.endswith("."):
            raise ShellError("Property names must not end with '.'", 1)
        if not re.fullmatch(r"[A-Za-z0-9_@:\-]+(\.[A-Za-z0-9_@:\-]+)*", name):
            raise ShellError(f"Invalid property name '{name}'", 1)
        if len(value.encode("utf-8")) >= 92 and not name.startswith("ro."):
            raise ShellError(f"Value '{value}' is too long, {len(value.encode('utf-8'))} bytes "
                             "vs a max of 92", 1)
        props = self.system.state.props
        if name.startswith("ctl."):
            action = name[4:]
            if action in ("restart", "start") or (action == "stop" and value == "adbd"):
                if action in ("restart", "start") and value not in ("adbd", "logd", "logcatd"):
                    self.device.restart_framework()
                return 0
            if action == "stop":
                return 0
            raise ShellError(f"Failed to set property '{name}' to '{value}'.\n"
                             "See dmesg for error reason.", 1)
        if name.startswith("ro.") and name in props:
            raise ShellError(f"Failed to set property '{name}' to '{value}'.\n"
                             "See dmesg for error reason.", 1)
        if name == "sys.powerctl":
            if value.split(",")[0] in ("reboot", "shutdown"):
                self._reboot()
            return 0
        props[name] = value
        return 0

    def _reboot(self) -> None:
        """A reboot, as far as state goes: the logs start empty and the framework starts again."""
        self.system.state.logs.clear()
        self.device.restart_framework()

    def cmd_start(self, args: list[str], io: _Io) -> int:
        if not args or any(s in ("zygote", "zygote_secondary", "surfaceflinger") for s in args):
            self.device.restart_framework()
        return 0

    def cmd_stop(self, args: list[str], io: _Io) -> int:
        return 0  # the framework goes down until `start`; the simulator keeps showing it

    def cmd_reboot(self, args: list[str], io: _Io) -> int:
        self._reboot()
        return 0

    # -- settings ---------------------------------------------------------------------------
    def cmd_settings(self, args: list[str], io: _Io) -> int:
        return self._settings(args, io)

    def _settings(self, args: list[str], io: _Io) -> int:
        """SettingsService's shell command, parsed exactly as Android 10 parses it."""
        if not args or args[0] in ("help", "-h"):
            io.out(SETTINGS_HELP)
            return 255
        verb = table = key = value = None
        user: str | None = None
        make_default = False
        valid = False
        i = 0

        def fail(message: str) -> int:
            io.err(message + "\n")
            return 255

        while i < len(args):
            arg = args[i]
            i += 1
            more = i < len(args)
            if arg == "--user":
                if user is not None:
                    break
                if not more:
                    raise _java_exception('Argument expected after "--user"')
                user = args[i]
                i += 1
                if user not in ("current", "cur") and not re.fullmatch(r"-?\d+", user):
                    raise _java_exception(f'For input string: "{user}"',
                                          "java.lang.NumberFormatException")
            elif verb is None:
                if arg.lower() not in ("get", "put", "delete", "list", "reset"):
                    return fail(f"Invalid command: {arg}")
                verb = arg.lower()
            elif table is None:
                if arg.lower() not in NAMESPACES:
                    return fail(f"Invalid namespace '{arg}'")
                table = arg.lower()
                if verb == "list":
                    valid = True
                    break
            elif verb == "reset":
                key = arg
                extra = 1 if arg.lower() not in ("untrusted_defaults", "untrusted_clear",
                                                 "trusted_defaults") else 0
                if len(args) - i > extra:
                    return fail("Too many arguments")
                valid = True
                break
            elif verb in ("get", "delete"):
                key = arg
                if more:
                    return fail("Too many arguments")
                valid = True
                break
            elif key is None:
                key = arg
            elif value is None:
                value = arg
                valid = True
            elif arg.lower() == "default":
                make_default = True
                if more:
                    return fail("Too many arguments")
                break
            elif more and args[i].lower() != "default":
                return fail("Argument expected to be 'default'")
        if not valid:
            return fail("Bad arguments")
        if user is not None:
            if verb in ("delete", "list"):
                return fail("--user not supported for delete and list.")
            if user not in ("current", "cur", "0"):
                return fail(f"Invalid user: {user}")
        assert table is not None
        settings = self.system.state.settings
        if verb == "get":
            current = settings.get(table, key or "")
            io.out(f"{'null' if current is None else current}\n")
        elif verb == "put":
            assert key is not None and value is not None
            if table == "system" and make_default:
                io.out("Ignored makeDefault - doesn't apply to system settings")
            check = _SETTINGS_VALIDATORS.get(key) if table == "system" else None
            if check is not None and not check(value):
                raise _java_exception(f"Invalid value: {value} for setting: {key}")
            self.system.put_setting(table, key, value)
        elif verb == "delete":
            deleted = settings.delete(table, key or "")
            if deleted:
                self._notify_setting(table, key or "")
            io.out(f"Deleted {1 if deleted else 0} rows\n")
        elif verb == "list":
            io.lines(sorted(f"{k}={v}" for k, v in settings.tables[table].items()))
        else:
            defaults = DEFAULTS.get(table, {})
            for name in sorted(settings.tables[table]):
                if name in defaults:
                    self.system.put_setting(table, name, defaults[name])
                elif settings.delete(table, name):
                    self._notify_setting(table, name)
        return 0

    # -- media volume ---------------------------------------------------------------------
    def cmd_media(self, args: list[str], io: _Io) -> int:
        if not args:
            io.out(MEDIA_USAGE)
            return 0
        sub, rest = args[0], args[1:]
        if sub == "volume":
            return self._media_volume(rest, io)
        if sub == "dispatch":
            keys = ("play", "pause", "play-pause", "mute", "headsethook", "stop", "next",
                    "previous", "rewind", "record", "fast-forword")
            if not rest or rest[0] not in keys:
                return self._media_error(io, f"Error: unknown dispatch code '{rest[0] if rest else ''}'")
            return 0
        if sub == "list-sessions":
            io.out("Sessions Service Dump:\n")
            return 0
        return self._media_error(io, f"Error: unknown command '{sub}'")

    @staticmethod
    def _media_error(io: _Io, message: str) -> int:
        """BaseCommand.showError: the usage, a blank line and the error, all on stderr."""
        io.err(MEDIA_USAGE + "\n" + message + "\n")
        return 1

    def _media_volume(self, args: list[str], io: _Io) -> int:
        """VolumeCtrl: `[v]` progress lines in argument order, then the action."""
        stream, level, mode, adjust, do_get = 3, 5, None, None, False

        def log(message: str) -> None:
            io.out(f"[v] {message}\n")

        i = 0
        while i < len(args):
            option = args[i]
            i += 1
            if option in ("--stream", "--set", "--adj"):
                if i >= len(args):
                    return self._media_error(io, f'Error: Argument expected after "{option}"')
                raw = args[i]
                i += 1
                if option == "--adj":
                    mode, adjust = "adj", raw
                    log("will adjust volume")
                    continue
                try:
                    number = _java_int(raw)
                except ValueError as exc:
                    return self._media_error(io, f"Error: {exc}")
                if option == "--stream":
                    stream = number
                    name = STREAMS[number].name if number in STREAMS else {
                        7: "STREAM_SYSTEM_ENFORCED", 9: "STREAM_TTS"}.get(number, "invalid stream")
                    log(f"will control stream={number} ({name})")
                else:
                    mode, level = "set", number
                    log(f"will set volume to index={number}")
            elif option == "--get":
                do_get = True
                log("will get volume")
            elif option == "--show":
                continue
            else:
                return self._media_error(io, f"Error: Unknown argument {option}")
        if mode == "adj" and adjust not in ("lower", "same", "raise"):
            return self._media_error(io, f"Error: no valid volume adjustment, was {adjust}, "
                                         "expected lower|same|raise")
        log("Connecting to AudioService")
        if stream not in STREAMS:
            if mode is not None or do_get:
                return self._media_error(io, f"Error: Bad stream type {stream}")
            return 0
        spec = STREAMS[stream]
        audio = self.system.state.audio
        if mode == "set":
            if not spec.min <= level <= spec.max:
                return self._media_error(io, f"Error: invalid volume index {level} for stream "
                                             f"{stream} (should be in [{spec.min}..{spec.max}])")
            self.system.set_volume(stream, level)
        elif mode == "adj" and adjust != "same":
            self.system.set_volume(stream, audio.get(stream) + (1 if adjust == "raise" else -1))
        if do_get:
            log(f"volume is {audio.get(stream)} in range [{spec.min}..{spec.max}]")
        return 0

    # -- cmd, uimode, wm, svc -------------------------------------------------------------
    def cmd_cmd(self, args: list[str], io: _Io) -> int:
        if not args:
            io.err("cmd: No service specified; use -l to list all services\n")
            return 20
        if args[0] == "-l":
            io.out("Currently running services:\n" + "".join(f"  {s}\n" for s in SERVICES))
            return 0
        service, rest = args[0], args[1:]
        handlers: dict[str, _HANDLER] = {
            "settings": self._settings, "activity": self._am, "package": self._pm,
            "window": self._wm, "uimode": self._uimode, "activity_task": self._am,
        }
        if service in handlers:
            return handlers[service](rest, io)
        if service not in SERVICES:
            io.err(f"cmd: Can't find service: {service}\n")
            return 20
        if not rest or rest[0] in ("help", "-h"):
            return 255
        io.out(f"Unknown command: {rest[0]}\n")
        return 255

    def _uimode(self, args: list[str], io: _Io) -> int:
        if not args or args[0] in ("help", "-h"):
            io.out(UIMODE_HELP)
            return 255
        if args[0] != "night":
            io.out(f"Unknown command: {args[0]}\n")
            return 255
        if len(args) > 1:
            if args[1] not in ("yes", "no", "auto"):
                io.err("Error: mode must be 'yes', 'no', or 'auto'\n")
                return 255
            if args[1] == "auto":
                self.system.put_setting("secure", "ui_night_mode", "0")
            else:
                self.system.set_night_mode(args[1] == "yes")
        current = self.system.state.settings.get_int("secure", "ui_night_mode", 1)
        io.out(f"Night mode: {({0: 'auto', 1: 'no', 2: 'yes'}).get(current, 'unknown')}\n")
        return 0

    def cmd_wm(self, args: list[str], io: _Io) -> int:
        return self._wm(args, io)

    def _wm(self, args: list[str], io: _Io) -> int:
        if not args or args[0] in ("help", "-h"):
            io.out(WM_HELP)
            return 255
        sub, rest = args[0], args[1:]
        if "-d" in rest:
            at = rest.index("-d")
            display = rest[at + 1] if at + 1 < len(rest) else ""
            if display != "0":
                io.err(f"Error: invalid display ID {display}\n" if display.lstrip("-").isdigit()
                       else f'Error: bad number java.lang.NumberFormatException: For input string: "{display}"\n')
                return 255
            rest = rest[:at] + rest[at + 2:]
        if sub == "size":
            return self._wm_size(rest, io)
        if sub == "density":
            return self._wm_density(rest, io)
        if sub == "dismiss-keyguard":
            return 0
        if sub == "set-user-rotation" and (not rest or rest[-1] in ("lock", "free", "0")):
            return 0
        io.out(f"Unknown command: {sub}\n")
        return 255

    def _wm_size(self, args: list[str], io: _Io) -> int:
        state = self.system.state
        physical = (state.hardware.width, state.hardware.height)
        if not args:
            io.out(f"Physical size: {physical[0]}x{physical[1]}\n")
            if state.size_override and state.size_override != physical:
                io.out(f"Override size: {state.size_override[0]}x{state.size_override[1]}\n")
            return 0
        arg = args[0]
        if arg == "reset":
            width, height = physical
        else:
            div = arg.find("x")
            if div <= 0 or div >= len(arg) - 1:
                io.err(f"Error: bad size {arg}\n")
                return 255
            try:
                width, height = (self._dimension(arg[:div]), self._dimension(arg[div + 1:]))
            except ValueError as exc:
                io.err(f"Error: bad number java.lang.NumberFormatException: {exc}\n")
                return 255
            if (width, height) != physical:
                width = min(max(width, 200), physical[0] * 2)
                height = min(max(height, 200), physical[1] * 2)
        clear = (width, height) == physical
        state.size_override = None if clear else (width, height)
        self.system.put_setting("global", "display_size_forced", "" if clear else f"{width},{height}")
        return 0

    def _dimension(self, text: str) -> int:
        if text.endswith("dp"):
            number = text[:-2]
            try:
                return int(int(number) * self.system.density / 160 + 0.5)
            except ValueError:
                raise ValueError(f'For input string: "{number}"') from None
        try:
            return int(text)
        except ValueError:
            raise ValueError(f'For input string: "{text}"') from None

    def _wm_density(self, args: list[str], io: _Io) -> int:
        state = self.system.state
        physical = state.hardware.density
        if not args:
            io.out(f"Physical density: {physical}\n")
            if state.density_override and state.density_override != physical:
                io.out(f"Override density: {state.density_override}\n")
            return 0
        if args[0] == "reset":
            density = physical
        else:
            try:
                density = int(args[0])
            except ValueError:
                io.err(f'Error: bad number java.lang.NumberFormatException: For input string: "{args[0]}"\n')
                return 255
            if density < 72:
                io.err("Error: Density must be at least 72dpi\n")
                return 255
        clear = density == physical
        state.density_override = None if clear else density
        self.system.put_setting("secure", "display_density_forced", "" if clear else str(density))
        return 0

    def cmd_svc(self, args: list[str], io: _Io) -> int:
        if not args or args[0] == "help":
            if len(args) > 1:
                helps = {"wifi": SVC_WIFI_HELP, "data": SVC_DATA_HELP, "power": SVC_POWER_HELP}
                io.out(helps.get(args[1], SVC_HELP))
            else:
                io.out(SVC_HELP)
            return 0
        sub, rest = args[0], args[1:]
        if sub in ("wifi", "data"):
            if not rest or rest[0] not in ("enable", "disable"):
                io.err(SVC_WIFI_HELP if sub == "wifi" else SVC_DATA_HELP)
                return 1
            on = rest[0] == "enable"
            if sub == "wifi":
                # WifiServiceImpl logs the caller: com.android.shell, uid 2000 (0 under su)
                self.system.set_wifi(on, caller=SHELL_PACKAGE, caller_uid=self.uid)
            else:
                self.system.put_setting("global", "mobile_data", "1" if on else "0")
            return 0
        if sub == "power":
            values = {"true": "7", "false": "0", "usb": "2", "ac": "1", "wireless": "4"}
            if len(rest) == 2 and rest[0] == "stayon" and rest[1] in values:
                self.system.put_setting("global", "stay_on_while_plugged_in", values[rest[1]])
                return 0
            if rest and rest[0] in ("reboot", "shutdown"):
                self._reboot()
                return 0
            io.err(SVC_POWER_HELP)
            return 1
        if sub in ("usb", "nfc"):
            return 0
        io.err(f"Unknown command '{sub}'\n" + SVC_HELP)
        return 1

    # -- input ------------------------------------------------------------------------------
    def cmd_input(self, args: list[str], io: _Io) -> int:
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
                self._input_text(rest[0])
                return 0
            if command == "keyevent" and rest:
                keys = rest[1:] if rest[0] == "--longpress" else rest
                if keys:
                    for name in keys:
                        self._input_key(name)
                    return 0
            if command == "tap" and len(rest) == 2:
                x, y = float(rest[0]), float(rest[1])
                self._touch(lambda: self.device.tap(int(x), int(y)))
                return 0
            if command in ("swipe", "draganddrop") and len(rest) in (4, 5):
                x1, y1, x2, y2 = (int(float(v)) for v in rest[:4])
                duration = int(rest[4]) if len(rest) == 5 else -1
                if duration < 0:
                    duration = 300
                self._touch(lambda: self.device.swipe(x1, y1, x2, y2, duration))
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

    @staticmethod
    def _touch(action: Callable[[], None]) -> None:
        """Inject a touch; one outside the screen is dropped silently, as the input system does."""
        try:
            action()
        except InvalidInput:
            pass

    def _input_text(self, text: str) -> None:
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
            self.device.input_text("".join(out))
        except InvalidInput as exc:
            raise ShellError(f"Error: {exc}", 1) from None

    def _input_key(self, name: str) -> None:
        """A key code by name (KEYCODE_HOME or HOME) or number; unknown keys do nothing."""
        if name.isdigit():
            code = int(name)
        else:
            label = name[len("KEYCODE_"):] if name.upper().startswith("KEYCODE_") else name
            code = _KEY_NAMES.get(label.upper(), 0)
        key = _CODE_KEYS.get(code)
        if key is not None:
            self.device.press(key)
        elif code in _CODE_CHARS:
            self.device.input_text(_CODE_CHARS[code])

    # -- activity manager -------------------------------------------------------------------
    def cmd_am(self, args: list[str], io: _Io) -> int:
        return self._am(args, io)

    def _am(self, args: list[str], io: _Io) -> int:
        if not args or args[0] in ("help", "-h"):
            io.out(AM_HELP)
            return 255
        sub, rest = args[0], args[1:]
        if sub in ("start", "start-activity"):
            return self._am_start(rest, io)
        if sub == "force-stop":
            return self._am_force_stop(rest, io)
        if sub == "kill":
            return self._am_kill(rest, io)
        if sub == "kill-all":
            foreground = self.system.am.state.foreground
            for package in list(self.system.am.state.processes):
                if foreground is None or foreground.package != package:
                    self.system.am.kill_process(package, "kill all background")
            return 0
        if sub == "broadcast":
            return self._am_broadcast(rest, io)
        if sub == "stack" and rest[:1] == ["list"]:
            return self._am_stack_list(io)
        if sub == "restart":
            self.device.restart_framework()
            return 0
        if sub == "task" and rest[:1] == ["lock"]:
            return 0  # screen pinning is not simulated; the task stays as it is
        if sub == "get-current-user":
            io.out("0\n")
            return 0
        if sub in ("startservice", "start-service", "start-foreground-service",
                   "startforegroundservice"):
            intent, _ = self._parse_intent(rest)
            io.out(f"Starting service: Intent {{ {intent.short_string()} }}\n")
            io.err("Error: Not found; no service started.\n")
            return 255
        io.out(f"Unknown command: {sub}\n")
        return 255

    def _parse_intent(self, args: list[str]) -> tuple[Intent, dict]:
        """Intent.parseCommandArgs plus am's own options (-W, -S, --user, ...)."""
        intent = Intent()
        options: dict = {"wait": False, "stop": False}
        categories: list[str] = []
        has_info = False
        i = 0

        def value(option: str) -> str:
            nonlocal i
            if i >= len(args):
                raise _java_exception(f'Argument expected after "{option}"')
            i += 1
            return args[i - 1]

        while i < len(args):
            option = args[i]
            i += 1
            if option == "-a":
                intent.action, has_info = value(option), True
            elif option == "-d":
                intent.data, has_info = value(option), True
            elif option == "-t":
                intent.mime_type, has_info = value(option), True
            elif option == "-c":
                categories.append(value(option))
                has_info = True
            elif option == "-n":
                text = value(option)
                component = self._unflatten(text)
                if component is None:
                    raise _java_exception(f"Bad component name: {text}")
                intent.component, has_info = component, True
            elif option == "-p":
                intent.package, has_info = value(option), True
            elif option == "-f":
                text = value(option)
                try:
                    intent.flags = _java_int(text)
                except ValueError as exc:
                    raise _java_exception(str(exc), "java.lang.NumberFormatException") from None
                has_info = True
            elif option in ("-e", "--es"):
                key = value(option)
                intent.extras[key] = value(option)
                has_info = True
            elif option == "--esn":
                intent.extras[value(option)] = None
                has_info = True
            elif option in _EXTRA_OPTIONS:
                key, text = value(option), value(option)
                if option in ("--ei", "--el"):
                    try:
                        _java_int(text)
                    except ValueError as exc:
                        raise _java_exception(str(exc), "java.lang.NumberFormatException") from None
                intent.extras[key] = text
                has_info = True
            elif option in _INTENT_FLAG_OPTIONS:
                intent.flags |= _INTENT_FLAG_OPTIONS[option]
                has_info = True
            elif option == "-W":
                options["wait"] = True
            elif option == "-S":
                options["stop"] = True
            elif option in _AM_VALUE_OPTIONS:
                options[option] = value(option)
            elif option in _AM_PLAIN_OPTIONS:
                continue
            elif option.startswith("-") and option != "-":
                raise _java_exception(f"Unknown option: {option}")
            else:
                has_info = True
                if ":" in option:
                    intent.data = option
                elif "/" in option:
                    component = self._unflatten(option)
                    if component is None:
                        raise _java_exception(f"Bad component name: {option}")
                    intent.component = component
                else:
                    intent.package = option
        intent.categories = tuple(categories)
        if not has_info:
            raise _java_exception("No intent supplied")
        return intent, options

    @staticmethod
    def _unflatten(text: str) -> tuple[str, str] | None:
        package, slash, cls = text.partition("/")
        if not slash or not package or not cls:
            return None
        return package, package + cls if cls.startswith(".") else cls

    def _am_start(self, args: list[str], io: _Io) -> int:
        intent, options = self._parse_intent(args)
        if options.get("--user", "0") not in ("0", "current", "cur"):
            raise _java_exception(f"Invalid user: {options['--user']}")
        io.out(f"Starting: Intent {{ {intent.short_string()} }}\n")
        note = io.out if options["wait"] else io.err
        launch = copy.copy(intent)
        launch.extras = dict(intent.extras)
        launch.flags |= FLAG_ACTIVITY_NEW_TASK
        if launch.component is None and launch.action == ACTION_MAIN:
            if CATEGORY_HOME in launch.categories:
                home = self._app(HOME_PACKAGE)
                if home is not None:
                    launch.component = (HOME_PACKAGE, next(iter(home.activities)))
            elif CATEGORY_LAUNCHER in launch.categories and launch.package:
                cls = self._launcher_activity(launch.package)
                if cls is not None:
                    launch.component = (launch.package, cls)
        if options["stop"]:
            target = (launch.component or (None,))[0] or launch.package
            if target:
                self._force_stop(target, f"from pid {SHELL_PID}")
        am = self.system.am
        before_top = am.top_record()
        known = {id(r) for t in [am.state.home, *am.state.recents] if t for r in t.records}
        processes = set(am.state.processes)
        serial = self.system.state.logs.serial
        if not am.start_activity(launch, caller=SHELL_PACKAGE, caller_uid=self.uid):
            if intent.component is not None:
                package, cls = intent.component
                note(f"Error type 3\nError: Activity class {{{package}/{cls}}} does not exist.\n")
            else:
                note("Error: Activity not started, unable to resolve "
                     f"Intent {{ {launch.short_string()} }}\n")
            return 1
        top = am.top_record()
        reused = top is not None and id(top) in known
        if reused:
            note("Warning: Activity not started, its current task has been brought to the front\n"
                   if top is not before_top else
                   "Warning: Activity not started, intent has been delivered to currently "
                   "running top-most instance.\n")
        if options["wait"] and top is not None:
            displayed = None
            for entry in self.system.state.logs.since(serial):
                m = re.match(r"Displayed (\S+): \+(\d+)ms", entry.message)
                if entry.tag == "ActivityTaskManager" and m:
                    displayed = int(m.group(2))
            state = ("HOT" if reused else "COLD" if set(am.state.processes) - processes
                     or top.package not in processes else "WARM")
            io.out("Status: ok\n")
            io.out(f"LaunchState: {state}\n")
            io.out(f"Activity: {top.component}\n")
            if displayed is not None:
                io.out(f"TotalTime: {displayed}\n")
            io.out(f"WaitTime: {(displayed or 0) + 12}\nComplete\n")
        return 0

    def _force_stop(self, package: str, reason: str) -> None:
        """ActivityManager.forceStopPackage: log, kill the process, drop the package's tasks."""
        app = self._app(package)
        if app is None:
            return
        am = self.system.am
        self._log_system("I", "ActivityManager",
                         f"Force stopping {package} appid={app.uid % 100000} user=0: {reason}")
        am.kill_process(package, f"stop {package}")
        for task in list(am.state.recents):
            if task.package == package:
                am.remove_task(task.id)

    def _am_force_stop(self, args: list[str], io: _Io) -> int:
        args = self._drop_user(args)
        if not args:
            raise _java_exception('Argument expected after "force-stop"')
        self._force_stop(args[0], f"from pid {SHELL_PID}")
        return 0

    @staticmethod
    def _drop_user(args: list[str]) -> list[str]:
        if len(args) >= 2 and args[0] == "--user":
            return args[2:]
        return args

    def _am_kill(self, args: list[str], io: _Io) -> int:
        args = self._drop_user(args)
        if not args:
            raise _java_exception('Argument expected after "kill"')
        foreground = self.system.am.state.foreground
        if foreground is None or foreground.package != args[0]:
            self.system.am.kill_process(args[0], "kill background")
        return 0

    def _am_broadcast(self, args: list[str], io: _Io) -> int:
        from bmoca.sim.apps.base import Context

        intent, _ = self._parse_intent(args)
        intent.flags |= FLAG_RECEIVER_FROM_SHELL
        io.out(f"Broadcasting: Intent {{ {intent.short_string()} }}\n")
        if intent.action:
            target = intent.component[0] if intent.component else intent.package
            if target is None:
                self.system.broadcast(intent.action)
            elif self._app(target) is not None:
                self._app(target).on_broadcast(Context(self.system, target), intent.action)
        io.out("Broadcast completed: result=0\n")
        return 0

    def _am_stack_list(self, io: _Io) -> int:
        """ActivityManager.StackInfo lines, front stack first (one stack per task)."""
        am = self.system.am.state
        width, height, *_ = self._display_metrics()
        bounds = f"[0,0][{width},{height}]"
        config = self._configuration()
        tasks = [t for t in [*reversed(am.recents), am.home] if t is not None]
        if am.foreground is not None and am.foreground in tasks:
            tasks.remove(am.foreground)
            tasks.insert(0, am.foreground)
        for task in tasks:
            root = task.records[0] if task.records else None
            top = task.top
            visible = "true" if task is am.foreground else "false"
            io.out(f"Stack id={task.id} bounds={bounds} displayId=0 userId=0\n")
            io.out(f" configuration={config}\n")
            name = f"{root.package}/{root.cls}" if root else task.package
            line = f"  taskId={task.id}: {name} bounds={bounds} userId=0 visible={visible}"
            if top is not None:
                line += f" topActivity=ComponentInfo{{{top.package}/{top.cls}}}"
            io.out(line + "\n")
        return 0

    # -- monkey -----------------------------------------------------------------------------
    def cmd_monkey(self, args: list[str], io: _Io) -> int:
        io.out("".join(f"  bash arg: {a}\n" for a in args))
        packages: list[str] = []
        categories: list[str] = []
        count: int | None = None
        i = 0
        while i < len(args):
            arg = args[i]
            i += 1
            if arg in ("-p", "-c") or arg in _MONKEY_VALUE_OPTIONS or arg.startswith("--pct-"):
                if i >= len(args):
                    io.err(f"** Error: option {arg} requires an argument\n")
                    return 255
                if arg == "-p":
                    packages.append(args[i])
                elif arg == "-c":
                    categories.append(args[i])
                i += 1
            elif arg.startswith("-"):
                if arg not in ("-v", "--ignore-crashes", "--ignore-timeouts", "--hprof",
                               "--ignore-security-exceptions", "--monitor-native-crashes",
                               "--ignore-native-crashes", "--kill-process-after-error",
                               "--dbg-no-events", "--wait-dbg", "--randomize-throttle",
                               "--bugreport"):
                    io.err(f"** Error: Unknown option: {arg}\n")
                    return 255
            elif arg.isdigit():
                count = int(arg)
            else:
                io.err(f"** Error: Invalid argument: {arg}\n")
                return 255
        io.out(f"args: [{', '.join(args)}]\n" + "".join(f' arg: "{a}"\n' for a in args))
        io.out("".join(f'data="{v}"\n' for v in packages + categories))
        if count is None:
            io.err("** Error: Count not specified\n")
            return 255
        if not packages:
            io.err("** Error: this simulator's monkey needs -p PACKAGE (it injects no random "
                   "events)\n")
            return 1
        if categories and CATEGORY_LAUNCHER not in categories \
                and "android.intent.category.MONKEY" not in categories:
            io.err("** No activities found to run, monkey aborted.\n")
            return 251
        for package in packages:
            cls = self._launcher_activity(package)
            if cls is not None:
                self.system.am.start_activity(Intent.launcher(package, cls), caller=SHELL_PACKAGE,
                                              caller_uid=self.uid)
                break
        else:
            io.err("** No activities found to run, monkey aborted.\n")
            return 251
        io.out(f"Events injected: {count}\n"
               "## Network stats: elapsed time=16ms (0ms mobile, 0ms wifi, 16ms not connected)\n")
        return 0

    # -- package manager --------------------------------------------------------------------
    def cmd_pm(self, args: list[str], io: _Io) -> int:
        return self._pm(args, io)

    def _packages(self) -> dict[str, tuple[bool, str, int]]:
        """Installed packages: name -> (is system, apk path, uid)."""
        found: dict[str, tuple[bool, str, int]] = {}
        for name, app in self.system.apps.items():
            third_party = not name.startswith(("com.android.", "com.google."))
            found[name] = (not third_party, self._apk_path(name, third_party), app.uid)
        for k, name in enumerate(EXTRA_PACKAGES):
            if name not in found:
                uid = {"android": 1000, "com.android.shell": SHELL_UID,
                       "com.android.phone": 1001, "com.android.providers.settings": 1000}.get(
                    name, 10010 + k)
                found[name] = (True, self._apk_path(name, False), uid)
        return found

    @staticmethod
    def _apk_path(package: str, third_party: bool) -> str:
        if package == "android":
            return "/system/framework/framework-res.apk"
        if third_party:
            digest = base64.urlsafe_b64encode(hashlib.md5(package.encode()).digest()).decode()
            return f"/data/app/{package}-{digest[:22]}==/base.apk"
        name = _PRIV_APKS.get(package) or "".join(
            part.capitalize() for part in package.split(".")[-1].split("_"))
        folder = "priv-app" if package in _PRIV_APKS else "app"
        return f"/system/{folder}/{name}/{name}.apk"

    def _pm(self, args: list[str], io: _Io) -> int:
        if not args or args[0] in ("help", "-h"):
            io.out(PM_HELP)
            return 255
        sub, rest = args[0], self._drop_user(args[1:])
        packages = self._packages()
        if sub == "list" and rest[:1] in (["packages"], ["package"]):
            return self._pm_list(rest[1:], packages, io)
        if sub == "path":
            if not rest:
                raise _java_exception('Argument expected after "path"')
            if rest[0] not in packages:
                return 1
            io.out(f"package:{packages[rest[0]][1]}\n")
            return 0
        if sub == "clear":
            while rest and rest[0].startswith("-"):
                rest = rest[2:] if rest[0] in ("--user", "-f") else rest[1:]
            if not rest:
                raise _java_exception('Argument expected after "clear"')
            if rest[0] not in packages:
                io.err("Failed\n")
                return 1
            app = self._app(rest[0])
            if app is not None:
                self._force_stop(rest[0], "clear data")
                self.system.state.app_data[rest[0]] = app.initial_data()
            io.out("Success\n")
            return 0
        if sub in ("grant", "revoke"):
            if len(rest) < 2:
                raise _java_exception(f'Argument expected after "{rest[0] if rest else sub}"')
            if rest[0] not in packages:
                raise _java_exception(f"Unknown package: {rest[0]}")
            return 0
        io.out(f"Unknown command: {sub}\n")
        return 255

    def _pm_list(self, args: list[str], packages: dict, io: _Io) -> int:
        flags: set[str] = set()
        name_filter = ""
        uid_filter = None
        i = 0
        while i < len(args):
            arg = args[i]
            i += 1
            if arg in ("--user", "--uid"):
                if i >= len(args):
                    raise _java_exception(f'Argument expected after "{arg}"')
                if arg == "--uid":
                    uid_filter = args[i]
                i += 1
            elif arg in ("--show-versioncode", "--apex-only"):
                flags.add(arg)
            elif arg.startswith("-") and len(arg) > 1:
                for flag in arg[1:]:
                    if flag not in "fdes3ilUua":
                        io.err(f"Error: Unknown option: -{flag}\n")
                        return 255
                    flags.add(flag)
            else:
                name_filter = arg
        if "--apex-only" in flags or "d" in flags:
            return 0
        lines = []
        for name in sorted(packages):
            system, path, uid = packages[name]
            if name_filter not in name or ("s" in flags and not system) \
                    or ("3" in flags and system) or (uid_filter and str(uid) != uid_filter):
                continue
            line = "package:" + (f"{path}=" if "f" in flags else "") + name
            if "--show-versioncode" in flags:
                line += " versionCode:29"
            if "i" in flags:
                line += "  installer=null"
            if "U" in flags:
                line += f" uid:{uid}"
            lines.append(line)
        io.lines(lines)
        return 0

    # -- dumpsys ------------------------------------------------------------------------------
    def cmd_dumpsys(self, args: list[str], io: _Io) -> int:
        while args and args[0] in ("-t", "-T", "--skip", "--priority"):
            args = args[2:]
        if args and args[0] == "-l":
            io.out("Currently running services:\n" + "".join(f"  {s}\n" for s in SERVICES))
            return 0
        dumps: dict[str, Callable[[list[str], _Io], None]] = {
            "activity": self._dump_activity, "window": self._dump_window,
            "display": self._dump_display, "input": self._dump_input,
            "battery": self._dump_battery, "power": self._dump_power,
        }
        if not args:
            for name in sorted(dumps):
                io.out("-" * 79 + f"\nDUMP OF SERVICE {name}:\n")
                dumps[name]([], io)
            return 0
        service, rest = args[0], args[1:]
        if service in dumps:
            dumps[service](rest, io)
        elif service not in SERVICES:
            io.err(f"Can't find service: {service}\n")
        return 0

    def _focus(self) -> dict[str, str]:
        """Names and stable hashes for the focused window, app token and activity record."""
        am = self.system.am
        record = am.top_record()
        task = am.state.foreground
        if record is None or task is None:
            return {}
        index = task.records.index(record) if record in task.records else 0
        key = (task.id, index, record.package, record.cls, self.system.state.boot_count)
        dialog = self.device.frame.window("dialog") is not None
        title = f"{record.package}/{record.cls}"
        focus_title = record.package if dialog else title
        activity = f"ActivityRecord{{{_stable_hash('record', *key)} u0 {record.component} t{task.id}}}"
        window = f"Window{{{_stable_hash('window', *key)} u0 {title}}}"
        return {
            "window": window,
            "focus": (f"Window{{{_stable_hash('dialog', *key)} u0 {focus_title}}}" if dialog
                      else window),
            "record": activity,
            "app": (f"AppWindowToken{{{_stable_hash('token', *key)} token=Token{{"
                    f"{_stable_hash('binder', *key)} {activity}}}}}"),
            "package": record.package,
            "component": record.component,
            "task": str(task.id),
        }

    def _dump_window(self, args: list[str], io: _Io) -> None:
        section = args[0] if args else ""
        names = {"windows": "w", "w": "w", "displays": "d", "d": "d", "policy": "p",
                 "p": "p", "": ""}
        if section not in names and not section.startswith("-"):
            io.out(f"Bad window command, or no windows match: {section}\nUse -h for help.\n")
            return
        kind = names.get(section, "")
        focus = self._focus()
        width, height, density, status, nav = self._display_metrics()
        hardware = self.system.state.hardware
        if kind in ("", "p"):
            io.out("WINDOW MANAGER POLICY STATE (dumpsys window policy)\n"
                   "    mSafeMode=false mSystemReady=true mSystemBooted=true\n"
                   "    mLidState=LID_ABSENT mLidOpenRotation=-1\n"
                   "    mScreenOnEarly=true mScreenOnFully=true\n"
                   "    mKeyguardDrawComplete=true mWindowManagerDrawComplete=true\n"
                   "    mHomePressed=false\n")
            if kind == "p":
                return
        if kind in ("", "d"):
            base = ""
            if (width, height) != (hardware.width, hardware.height) or density != hardware.density:
                base = f" base={width}x{height} {density}dpi"
            app_h = height - nav
            io.out("WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n"
                   "  Display: mDisplayId=0\n"
                   f"    init={hardware.width}x{hardware.height} {hardware.density}dpi{base} "
                   f"cur={width}x{height} app={width}x{app_h} "
                   f"rng={width}x{width - status}-{app_h}x{app_h - status}\n"
                   "    deferred=false mLayoutNeeded=false "
                   f"mTouchExcludeRegion=SkRegion(({0},{0},{width},{height}))\n\n"
                   f"  mCurrentFocus={focus.get('focus', 'null')}\n"
                   f"  mFocusedApp={focus.get('app', 'null')}\n\n")
        if kind in ("", "w"):
            io.out("WINDOW MANAGER WINDOWS (dumpsys window windows)\n")
            frame = self.device.frame
            for number, window in reversed(list(enumerate(frame.windows))):
                if window.kind == "nav_bar":
                    title, owner = "NavigationBar", SYSTEMUI_UID
                elif window.kind == "status_bar":
                    title, owner = "StatusBar", SYSTEMUI_UID
                elif window.kind == "ime":
                    title, owner = "InputMethod", 10090
                elif window.kind == "dialog":
                    title = window.package
                    app = self._app(window.package)
                    owner = app.uid if app else 1000
                else:
                    record = window.record
                    title = f"{record.package}/{record.cls}" if record else window.package
                    app = self._app(window.package)
                    owner = app.uid if app else 1000
                if window.kind in ("app", "dialog") and focus:
                    name = focus["window"] if window.kind == "app" else focus["focus"]
                else:
                    name = f"Window{{{_stable_hash('window', title, window.kind)} u0 {title}}}"
                left, top, right, bottom = window.box
                owner_pid = self.system.pid_of(window.package)
                shown_uid = str(owner) if owner < 10000 else f"u0a{owner - 10000}"
                io.out(f"  Window #{number} {name}:\n"
                       f"    mDisplayId=0 rootTaskId=1 mSession=Session{{"
                       f"{_stable_hash('session', owner)} {owner_pid}:{shown_uid}}} "
                       f"mClient=android.os.BinderProxy@{_stable_hash('client', title)}\n"
                       f"    mOwnerUid={owner} mShowToOwnerOnly=true package={window.package} "
                       "appop=NONE\n"
                       f"    mFrame=[{left},{top}][{right},{bottom}] "
                       f"mHasSurface=true isReadyForDisplay()=true\n")
            io.out(f"\n  mGlobalConfiguration={self._configuration()}\n"
                   "  mHasPermanentDpad=false\n"
                   "  mTopFocusedDisplayId=0\n"
                   "  mInTouchMode=true\n"
                   f"  mCurrentFocus={focus.get('focus', 'null')}\n"
                   f"  mFocusedApp={focus.get('app', 'null')}\n")

    def _dump_activity(self, args: list[str], io: _Io) -> None:
        section = args[0] if args else "activities"
        am = self.system.am.state
        focus = self._focus()
        if section not in ("activities", "a"):
            if section == "top":
                wanted = [am.foreground] if am.foreground is not None else []
            elif "." in section:
                name = section.split("/")[0]
                wanted = [t for t in [*reversed(am.recents), am.home]
                          if t is not None and t.package == name]
            else:
                return
            for task in wanted:
                record = task.top
                if record is None:
                    continue
                index = len(task.records) - 1
                key = (task.id, index, record.package, record.cls, self.system.state.boot_count)
                io.out(f"TASK {task.package} id={task.id} userId=0\n"
                       f"  ACTIVITY {record.component} {_stable_hash('activity', *key)} "
                       f"pid={self.system.pid_of(record.package)}\n")
            return
        io.out("ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\n"
               "Display #0 (activities from top to bottom):\n")
        tasks = [t for t in [*reversed(am.recents), am.home] if t is not None]
        if am.foreground in tasks:
            tasks.remove(am.foreground)
            tasks.insert(0, am.foreground)
        for task in tasks:
            home = task is am.home
            io.out(f"\n  Stack #{task.id}: type={'home' if home else 'standard'} mode=fullscreen\n"
                   "  isSleeping=false\n\n"
                   f"    Task id #{task.id}\n"
                   f"    * TaskRecord{{{_stable_hash('task', task.id)} #{task.id} "
                   f"A={task.package} U=0 StackId={task.id} sz={len(task.records)}}}\n"
                   f"      intent={{{task.root_intent.short_string()}}}\n")
            for k, record in reversed(list(enumerate(task.records))):
                key = (task.id, k, record.package, record.cls, self.system.state.boot_count)
                io.out(f"      * Hist #{k}: ActivityRecord{{{_stable_hash('record', *key)} u0 "
                       f"{record.component} t{task.id}}}\n"
                       f"          packageName={record.package} "
                       f"processName={record.package}\n")
            if task is am.foreground and focus:
                io.out(f"\n    mResumedActivity: {focus['record']}\n")
        if focus:
            io.out(f"\n ResumedActivity: {focus['record']}\n")

    def _dump_display(self, args: list[str], io: _Io) -> None:
        width, height, density, _, nav = self._display_metrics()
        hardware = self.system.state.hardware
        physical = f"{hardware.width} x {hardware.height}"
        io.out("DISPLAY MANAGER (dumpsys display)\n"
               "  mOnlyCode=false\n  mSafeMode=false\n  mPendingTraversal=false\n"
               "  mGlobalDisplayState=ON\n  mNextNonDefaultDisplayId=1\n"
               "  mViewports=[DisplayViewport{type=INTERNAL, valid=true, isActive=true, "
               "displayId=0, uniqueId='local:0', physicalPort=0, orientation=0, "
               f"logicalFrame=Rect(0, 0 - {width}, {height}), physicalFrame=Rect(0, 0 - "
               f"{hardware.width}, {hardware.height}), deviceWidth={hardware.width}, "
               f"deviceHeight={hardware.height}}}]\n"
               "  mDefaultDisplayDefaultColorMode=0\n  mSingleDisplayDemoMode=false\n"
               f"  mStableDisplaySize=Point({hardware.width}, {hardware.height})\n\n"
               "Display Devices: size=1\n"
               f"  DisplayDeviceInfo{{\"Built-in Screen\": uniqueId=\"local:0\", {physical}, "
               f"modeId 1, defaultModeId 1, supportedModes [{{id=1, width={hardware.width}, "
               f"height={hardware.height}, fps=60.0}}], colorMode 0, supportedColorModes [0], "
               f"density {hardware.density}, {hardware.density}.0 x {hardware.density}.0 dpi, "
               "appVsyncOff 1000000, presDeadline 16666666, touch INTERNAL, rotation 0, "
               "type BUILT_IN, address {port=0}, state ON, FLAG_DEFAULT_DISPLAY, "
               "FLAG_ROTATES_WITH_CONTENT, FLAG_SECURE, FLAG_SUPPORTS_PROTECTED_BUFFERS}\n\n"
               "Logical Displays: size=1\n"
               "  Display 0:\n    mDisplayId=0\n    mLayerStack=0\n    mHasContent=true\n"
               f"    mBaseDisplayInfo=DisplayInfo{{\"Built-in Screen\", displayId 0, uniqueId "
               f"\"local:0\", app {hardware.width} x {hardware.height - nav}, real {physical}, "
               f"rotation 0, density {hardware.density} ({hardware.density}.0 x "
               f"{hardware.density}.0) dpi, layerStack 0, type BUILT_IN, state ON}}\n"
               f"    mOverrideDisplayInfo=DisplayInfo{{\"Built-in Screen\", displayId 0, "
               f"uniqueId \"local:0\", app {width} x {height - nav}, real {width} x {height}, "
               f"rotation 0, density {density} ({hardware.density}.0 x "
               f"{hardware.density}.0) dpi, layerStack 0, type BUILT_IN, state ON}}\n")

    def _dump_input(self, args: list[str], io: _Io) -> None:
        hardware = self.system.state.hardware
        width, height, *_ = self._display_metrics()
        io.out("INPUT MANAGER (dumpsys input)\n\n"
               "Input Manager State:\n  Interactive: true\n  System UI Visibility: 0x8008\n"
               "  Pointer Speed: 0\n  Pointer Gestures Enabled: true\n  Show Touches: false\n"
               "  Pointer Capture Enabled: false\n\n"
               "Event Hub State:\n  BuiltInKeyboardId: -2\n\n"
               "Input Reader State:\n"
               "  Device 1: virtio_input_multi_touch_1\n"
               "    Generation: 8\n    IsExternal: false\n    HasMic:     false\n"
               "    Sources: 0x00001002\n    KeyboardType: 0\n"
               "    Touch Input Mapper (mode - direct):\n"
               f"      Viewport INTERNAL: displayId=0, uniqueId=local:0, port=0, orientation=0, "
               f"logicalFrame=[0, 0, {width}, {height}], physicalFrame=[0, 0, {hardware.width}, "
               f"{hardware.height}], deviceSize=[{hardware.width}, {hardware.height}]\n"
               f"      SurfaceWidth: {width}px\n      SurfaceHeight: {height}px\n"
               "      SurfaceLeft: 0\n      SurfaceTop: 0\n"
               f"      PhysicalWidth: {hardware.width}px\n      PhysicalHeight: {hardware.height}px\n"
               "      PhysicalLeft: 0\n      PhysicalTop: 0\n      SurfaceOrientation: 0\n")

    def _dump_battery(self, args: list[str], io: _Io) -> None:
        io.out("Current Battery Service state:\n  AC powered: true\n  USB powered: false\n"
               "  Wireless powered: false\n  Max charging current: 0\n"
               "  Max charging voltage: 0\n  Charge counter: 10000\n  status: 2\n  health: 2\n"
               "  present: true\n  level: 100\n  scale: 100\n  voltage: 5000\n"
               "  temperature: 250\n  technology: Li-ion\n")

    def _dump_power(self, args: list[str], io: _Io) -> None:
        io.out("POWER MANAGER (dumpsys power)\n\nPower Manager State:\n"
               "  mDirty=0x0\n  mWakefulness=Awake\n  mWakefulnessChanging=false\n"
               "  mIsPowered=true\n  mPlugType=1\n  mBatteryLevel=100\n"
               "  mDisplayReady=true\n  mHoldingWakeLockSuspendBlocker=false\n"
               "  mHoldingDisplaySuspendBlocker=true\n\n"
               "Display Power: state=ON\n")

    # -- screen: uiautomator, screencap -----------------------------------------------------
    def cmd_uiautomator(self, args: list[str], io: _Io) -> int:
        if not args or args[0] in ("help", "-h", "--help"):
            io.out(UIAUTOMATOR_HELP)
            return 0
        if args[0] != "dump":
            if args[0] in ("runtest", "events"):
                io.err(f"uiautomator {args[0]} is not supported by the simulator\n")
                return 1
            io.out(UIAUTOMATOR_HELP)
            return 0
        target = "/sdcard/window_dump.xml"
        for arg in args[1:]:
            if arg not in ("--compressed", "--verbose"):
                target = arg
        shown = target if target.startswith("/") else posixpath.join("/", target)
        xml = self.device.dump_hierarchy()
        path = self._path(target)
        if path in ("/dev/tty", "/dev/stdout", "/proc/self/fd/1"):
            io.out(xml)
        elif path != "/dev/null":
            real = normalize(path)
            try:
                if self._read_only(real):
                    raise FsError(f"{real}: Read-only file system")
                self.vfs.write(real, xml.encode("utf-8"), make_parents=False)
            except FsError as exc:
                io.err(f"java.io.FileNotFoundException: {shown}: open failed: "
                       f"{'ENOENT (No such file or directory)' if 'No such' in str(exc) else 'EROFS (Read-only file system)'}\n")
                return 1
        io.out(f"UI hierchary dumped to: {shown}\n")
        return 0

    def cmd_screencap(self, args: list[str], io: _Io) -> int:
        png = False
        target = None
        i = 0
        while i < len(args):
            arg = args[i]
            i += 1
            if arg == "-d":
                i += 1
            elif arg.startswith("-") and len(arg) > 1:
                for flag in arg[1:]:
                    if flag == "p":
                        png = True
                    elif flag == "h":
                        io.err("usage: screencap [-hp] [-d display-id] [FILENAME]\n"
                               "   -h: this message\n   -p: save the file as a png.\n"
                               "   -d: specify the physical display ID to capture (default: "
                               "0)\n       see \"dumpsys SurfaceFlinger --display-id\" for valid "
                               "display IDs.\nIf FILENAME ends with .png it will be saved as a "
                               "png.\nIf FILENAME is not given, the results will be printed to "
                               "stdout.\n")
                        return 1
                    else:
                        io.err(f"screencap: invalid option -- '{flag}'\n")
                        return 1
            else:
                target = arg
        if target is None:
            # Binary PNG on stdout cannot travel through this text interface; the ADB endpoint
            # serves `exec-out screencap -p` from device.screenshot_image() directly.
            return 0
        image = self.device.screenshot_image()
        data = _png(image) if png or target.endswith(".png") else _raw_screencap(image)
        real = normalize(self._path(target))
        if self._read_only(real) or not self.vfs.is_dir(posixpath.dirname(real)) \
                or self.vfs.is_dir(real):
            reason = ("Read-only file system" if self._read_only(real) else
                      "Is a directory" if self.vfs.is_dir(real) else "No such file or directory")
            io.err(f"Error opening file: {target} ({reason})\n")
            return 1
        self.vfs.write(real, data, make_parents=False)
        return 0

    # -- logcat -------------------------------------------------------------------------------
    def cmd_logcat(self, args: list[str], io: _Io) -> int:
        buffers: list[str] = []
        fmt, epoch, year = "threadtime", False, False
        silent = clear = dividers = sizes = False
        tail_count: int | None = None
        since_ms: int | None = None
        regex = None
        max_count: int | None = None
        pid: int | None = None
        out_file: str | None = None
        specs: list[str] = []

        def fail(message: str) -> int:
            io.err(message + "\n")
            return 1

        options: list[tuple[str, str | None]] = []
        i = 0
        while i < len(args):
            arg = args[i]
            i += 1
            if arg.startswith("--"):
                name, eq, value = arg[2:].partition("=")
                if name == "pid":
                    if not eq:
                        value = args[i] if i < len(args) else ""
                        i += 1
                    options.append(("pid", value))
                    continue
                short = _LOGCAT_LONG.get(name)
                if short is None:
                    return fail(f"logcat: unrecognized option '--{name}'\n{LOGCAT_USAGE}".rstrip())
                if short and short in _LOGCAT_VALUE_OPTIONS and not eq:
                    if i >= len(args):
                        return fail(f"logcat: option '--{name}' requires an argument")
                    value = args[i]
                    i += 1
                if short:
                    options.append((short, value if short in _LOGCAT_VALUE_OPTIONS else None))
            elif arg.startswith("-") and len(arg) > 1:
                j = 1
                while j < len(arg):
                    flag = arg[j]
                    if flag in _LOGCAT_VALUE_OPTIONS:
                        value = arg[j + 1:]
                        if not value:
                            if i >= len(args):
                                return fail(f"logcat: option requires an argument -- '{flag}'")
                            value = args[i]
                            i += 1
                        options.append((flag, value))
                        break
                    if flag not in "cdDhLsgSBQC":
                        return fail(f"logcat: invalid option -- '{flag}'\nUnrecognized Option")
                    options.append((flag, None))
                    j += 1
            else:
                specs.append(arg)
        for flag, value in options:
            if flag == "b":
                for name in (value or "").replace(" ", ",").split(","):
                    if not name:
                        continue
                    if name == "all":
                        buffers.extend(_LOGCAT_BUFFERS)
                    elif name == "default":
                        buffers.extend(_LOGCAT_DEFAULT_BUFFERS)
                    elif name in _LOGCAT_BUFFERS:
                        buffers.append(name)
                    else:
                        return fail(f"unknown buffer {name}")
            elif flag == "v":
                for name in (value or "").split(","):
                    if name in _LOGCAT_FORMATS:
                        fmt = name
                    elif name == "epoch":
                        epoch = True
                    elif name == "year":
                        year = True
                    elif name not in _LOGCAT_MODIFIERS:
                        return fail(f'Invalid parameter "{value}" to -v')
            elif flag in ("t", "T"):
                text = value or ""
                if text.isdigit():
                    tail_count = int(text)
                else:
                    since_ms = self._logcat_time(text)
                    if since_ms is None:
                        return fail(f"unknown time format '{text}'")
            elif flag == "e":
                try:
                    regex = re.compile(value or "")
                except re.error:
                    return fail(f"logcat: regex '{value}' is not valid")
            elif flag == "m":
                if not (value or "").isdigit() or int(value or "0") == 0:
                    return fail(f"-m \"{value}\" isn't an integer greater than zero")
                max_count = int(value or "0")
            elif flag == "pid":
                if not (value or "").isdigit():
                    return fail(f"pid \"{value}\" isn't a valid pid")
                pid = int(value or "0")
            elif flag == "f":
                out_file = value
            elif flag == "c":
                clear = True
            elif flag == "D":
                dividers = True
            elif flag == "s":
                silent = True
            elif flag == "g":
                sizes = True
            elif flag == "h":
                io.err(LOGCAT_USAGE)
                return 0
        selected = list(dict.fromkeys(buffers or _LOGCAT_DEFAULT_BUFFERS))
        logs = self.system.state.logs
        if clear:
            logs.clear(None if set(_LOGCAT_BUFFERS) <= set(selected) else set(selected))
            return 0
        if sizes:
            for name in selected:
                used = sum(len(e.message) + len(e.tag) + 28 for e in logs.entries
                           if e.buffer == name)
                io.out(f"{name}: ring buffer is 256 KiB ({used // 1024} KiB consumed), "
                       "max entry is 5120 B, max payload is 4068 B\n")
            return 0
        try:
            filters = FilterSpec(specs, default="S" if silent else "V")
        except ValueError:
            return fail("Invalid filter expression")
        entries = [e for e in logs.entries if e.buffer in selected]
        if pid is not None:
            entries = [e for e in entries if e.pid == pid]
        if since_ms is not None:
            entries = [e for e in entries if e.time_ms >= since_ms]
        if tail_count is not None:
            entries = entries[-tail_count:] if tail_count else entries
        lines: list[str] = []
        started: set[str] = set()
        previous = None
        printed = 0
        for entry in entries:
            if len(selected) > 1 and (entry.buffer not in started
                                      or (dividers and entry.buffer != previous)):
                lines.append(f"--------- {'switch to' if entry.buffer in started else 'beginning of'} "
                             f"{entry.buffer}")
                started.add(entry.buffer)
            previous = entry.buffer
            if not filters.passes(entry) or (regex is not None and not regex.search(entry.message)):
                continue
            lines.append(self._logcat_line(entry, fmt, epoch, year))
            printed += 1
            if max_count is not None and printed >= max_count:
                break
        text = "".join(line + "\n" for line in lines)
        if out_file is not None:
            real = normalize(self._path(out_file))
            try:
                if self._read_only(real):
                    raise FsError(f"{real}: Read-only file system")
                self.vfs.write(real, text.encode("utf-8"), make_parents=False)
            except FsError:
                return fail(f"Couldn't open output file: {out_file}")
            return 0
        io.out(text)
        return 0

    def _logcat_time(self, text: str) -> int | None:
        """`-t '<time>'`: `MM-DD hh:mm:ss.mmm`, `YYYY-MM-DD hh:mm:ss.mmm` or epoch `sss.mmm`."""
        if re.fullmatch(r"\d+\.\d+", text):
            return int(float(text) * 1000)
        year = self.system.state.clock.datetime().year
        for pattern, add_year in (("%Y-%m-%d %H:%M:%S.%f", False), ("%m-%d %H:%M:%S.%f", True),
                                  ("%m-%d %H:%M:%S", True)):
            try:
                moment = dt.datetime.strptime(f"{year}-{text}" if add_year else text,
                                              ("%Y-" + pattern) if add_year else pattern)
            except ValueError:
                continue
            return int(moment.replace(tzinfo=dt.UTC).timestamp() * 1000)
        return None

    @staticmethod
    def _logcat_line(entry: LogEntry, fmt: str, epoch: bool, year: bool) -> str:
        """One line in a logcat format; `epoch` swaps the timestamp for seconds since 1970."""
        if fmt == "threadtime" and epoch:
            return format_entry(entry, "epoch")
        if fmt in ("time", "long") and (epoch or fmt == "long"):
            millis = entry.time_ms % 1000
            if epoch:
                stamp = f"{entry.time_ms // 1000:>19}.{millis:03d}"
            else:
                moment = dt.datetime.fromtimestamp(entry.time_ms / 1000, tz=dt.UTC)
                stamp = moment.strftime("%Y-%m-%d %H:%M:%S" if year else "%m-%d %H:%M:%S") \
                    + f".{millis:03d}"
            if fmt == "time":
                return f"{stamp} {entry.priority}/{entry.tag:<8}({entry.pid:5d}): {entry.message}"
            return (f"[ {stamp} {entry.pid:5d}:{entry.tid:5d} {entry.priority}/{entry.tag:<8} ]\n"
                    f"{entry.message}\n")
        return format_entry(entry, fmt, year=year)

    # -- date ---------------------------------------------------------------------------------
    def cmd_date(self, args: list[str], io: _Io) -> int:
        fmt: str | None = None
        setting: str | None = None
        shown: dt.datetime | None = None
        clock = self.system.state.clock
        i = 0
        while i < len(args):
            arg = args[i]
            i += 1
            if arg == "-u":
                continue
            if arg in ("-d", "-D", "-r"):
                if i >= len(args):
                    raise ShellError(f"date: Missing argument to {arg}", 1)
                value = args[i]
                i += 1
                if arg == "-d":
                    shown = self._parse_date(value)
                    if shown is None:
                        raise ShellError(f"date: bad date '{value}'", 1)
            elif arg.startswith("+"):
                fmt = arg[1:]
            elif arg.startswith("-") and len(arg) > 1:
                raise ShellError(f"date: Unknown option '{arg[1:]}'", 1)
            else:
                setting = arg
        if setting is not None:
            try:
                moment = parse_toybox_set(setting, clock.datetime())
            except (ValueError, OverflowError):
                raise ShellError(f"date: bad date '{setting}'", 1) from None
            clock.set(int(moment.timestamp() * 1000))
            self.system.broadcast("android.intent.action.TIME_SET")
        moment = shown or clock.datetime()
        io.out((self._strftime(moment, fmt) if fmt is not None else toybox_date_string(moment))
               + "\n")
        return 0

    @staticmethod
    def _parse_date(text: str) -> dt.datetime | None:
        if text.startswith("@") and re.fullmatch(r"@-?\d+", text):
            return dt.datetime.fromtimestamp(int(text[1:]), tz=dt.UTC)
        for pattern in ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d", "%H:%M:%S", "%H:%M"):
            try:
                return dt.datetime.strptime(text, pattern).replace(tzinfo=dt.UTC)
            except ValueError:
                continue
        return None

    @staticmethod
    def _strftime(moment: dt.datetime, fmt: str) -> str:
        """toybox date's +FORMAT: strftime with %s, %N and GMT as the zone."""

        def one(m: re.Match) -> str:
            flag, code = m.group(1), m.group(2)
            if code == "%":
                return "%"
            if code == "s":
                value = str(int(moment.timestamp()))
            elif code == "N":
                value = f"{moment.microsecond * 1000:09d}"
            elif code == "Z":
                value = "GMT"
            elif code == "z":
                value = "+0000"
            elif code == "n":
                value = "\n"
            elif code == "t":
                value = "\t"
            elif code in "aAbBcCdDeFgGhHIjklmMpPrRSTuUVwWxXyY":
                value = moment.strftime("%" + code)
            else:
                return m.group(0)
            if flag == "-":
                value = value.lstrip("0 ") or "0"
            elif flag == "_":
                stripped = value.lstrip("0")
                value = " " * (len(value) - len(stripped)) + stripped if stripped else value
            return value

        return re.sub(r"%([-_0^#]?)(.)", one, fmt)

    # -- processes ----------------------------------------------------------------------------
    def _processes(self) -> list[tuple[str, int, int, str, str]]:
        """(user, pid, ppid, state, name) of the simulated processes, init first."""
        rows = [("root", 1, 0, "S", "init"), ("logd", 185, 1, "S", "logd"),
                ("system", 190, 1, "S", "servicemanager"), ("system", 232, 1, "S", "surfaceflinger"),
                ("root", ZYGOTE_PID, 1, "S", "zygote64"), ("shell", 420, 1, "S", "adbd"),
                ("system", SYSTEM_PID, ZYGOTE_PID, "S", "system_server"),
                (f"u0_a{SYSTEMUI_UID - 10000}", SYSTEMUI_PID, ZYGOTE_PID, "S", SYSTEMUI_PACKAGE),
                ("radio", PHONE_PID, ZYGOTE_PID, "S", "com.android.phone")]
        for package, app in self.system.apps.items():
            pid = self.system.pid_of(package)
            if pid in (SYSTEM_PID, SYSTEMUI_PID, PHONE_PID):
                continue
            user = "system" if app.uid == 1000 else f"u0_a{app.uid - 10000}"
            rows.append((user, pid, ZYGOTE_PID, "S", package))
        return sorted(rows, key=lambda r: r[1])

    def cmd_ps(self, args: list[str], io: _Io) -> int:
        everything = any(a.startswith("-") and set(a[1:]) & set("Aef") for a in args)
        wanted = [a for a in args if not a.startswith("-")]
        rows = self._processes()
        own = [("shell" if self.uid else "root", SHELL_PID, 420, "S", "sh"),
               ("shell" if self.uid else "root", SHELL_PID + 7, SHELL_PID, "R", "ps")]
        if everything or wanted:
            rows = rows + own
        else:
            rows = own
        if wanted:
            rows = [r for r in rows if r[4] in wanted or str(r[1]) in wanted]
        io.out(f"{'USER':<12}{'PID':>6}{'PPID':>6}{'VSZ':>8}{'RSS':>7} {'WCHAN':<16}{'ADDR':>5} S NAME\n")
        for user, pid, ppid, state, name in rows:
            vsz = 1_100_000 + (zlib.crc32(name.encode()) % 900_000) if ppid == ZYGOTE_PID else 10_000
            rss = 40_000 + (zlib.crc32(name.encode()) % 90_000) if ppid == ZYGOTE_PID else 2_000
            wchan = "0" if state == "R" else "SyS_epoll_wait"
            io.out(f"{user:<12}{pid:>6}{ppid:>6}{vsz:>8}{rss:>7} {wchan:<16}{0:>5} {state} {name}\n")
        return 0

    def cmd_pidof(self, args: list[str], io: _Io) -> int:
        names = [a for a in args if not a.startswith("-")]
        pids = [str(pid) for _, pid, _, _, name in self._processes() if name in names]
        if "sh" in names:
            pids.append(str(SHELL_PID))
        if not pids:
            return 1
        io.out(" ".join(pids) + "\n")
        return 0


_COMMANDS: dict[str, str] = {
    name[4:]: name for name in vars(Shell) if name.startswith("cmd_")
}
_COMMANDS.update({"[": "cmd_bracket", ":": "cmd_true"})
_COMMANDS.pop("bracket")

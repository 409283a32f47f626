"""Small helpers several commands share: escapes, Java-style integers, file errors' wording,
stable hashes, option validators."""

from __future__ import annotations

import re
import zlib

from bmoca.sim.system.vfs import FsError

ESCAPES = {"a": "\a", "b": "\b", "e": "\x1b", "f": "\f", "n": "\n", "r": "\r", "t": "\t",
            "v": "\v", "\\": "\\"}


def unescape(text: str) -> tuple[str, bool]:
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
        if nxt in ESCAPES:
            out.append(ESCAPES[nxt])
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


def stable_hash(*parts: object) -> str:
    """A 7-digit hex like System.identityHashCode, stable for the same object (never random)."""
    value = zlib.crc32("|".join(str(p) for p in parts).encode("utf-8"))
    return f"{value % 0xF000000 + 0x1000000:x}"


def java_int(text: str, bits: int = 32) -> int:
    """Integer.decode (Long.decode for bits=64): decimal, 0x hex, # hex, leading-0 octal;
    NumberFormatException text on error, out-of-range values included."""
    s = text.strip()
    sign = -1 if s.startswith("-") else 1
    body = s.lstrip("+-")
    try:
        if len(body) > 40:  # longer than any 64-bit number: no 4,300-digit parse
            raise ValueError(text)
        if body.lower().startswith("0x"):
            value = sign * int(body[2:], 16)
        elif body.startswith("#"):
            value = sign * int(body[1:], 16)
        elif len(body) > 1 and body.startswith("0"):
            value = sign * int(body[1:], 8)
        else:
            value = sign * int(body, 10)
    except ValueError:
        raise ValueError(f'For input string: "{text}"') from None
    if not -(1 << (bits - 1)) <= value < 1 << (bits - 1):
        raise ValueError(f'For input string: "{text}"')
    return value


def parse_int(text: str) -> int:
    """Integer.parseInt: optional sign and decimal digits, within a Java int."""
    if not re.fullmatch(r"[+-]?\d{1,10}", text):
        raise ValueError(f'For input string: "{text}"')
    value = int(text)
    if not -(1 << 31) <= value < 1 << 31:
        raise ValueError(f'For input string: "{text}"')
    return value


def reason(exc: FsError) -> str:
    """The strerror part of an FsError ("/path: No such file or directory")."""
    return str(exc).rsplit(": ", 1)[-1]


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



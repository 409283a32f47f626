"""`date`: show and set the virtual clock (toybox's formats)."""

from __future__ import annotations

import datetime as dt
import re
from typing import TYPE_CHECKING

from bmoca.sim.shell.errors import Io, ShellError
from bmoca.sim.system.clock import parse_toybox_set, toybox_date_string

if TYPE_CHECKING:
    from bmoca.sim.shell.session import Session, Tool


def cmd_date(sh: Session, args: list[str], io: Io) -> int:
    fmt: str | None = None
    setting: str | None = None
    shown: dt.datetime | None = None
    clock = sh.system.state.clock
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
                shown = _parse_date(value)
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
            clock.set(int(moment.timestamp() * 1000))  # ClockRangeError is a ValueError
        except (ValueError, OverflowError):
            raise ShellError(f"date: bad date '{setting}'", 1) from None
        sh.system.broadcast("android.intent.action.TIME_SET")
    moment = shown or clock.datetime()
    io.out((_strftime(moment, fmt) if fmt is not None else toybox_date_string(moment))
           + "\n")
    return 0


def _parse_date(text: str) -> dt.datetime | None:
    if text.startswith("@") and re.fullmatch(r"@-?\d{1,18}", text):
        try:
            return dt.datetime.fromtimestamp(int(text[1:]), tz=dt.UTC)
        except (ValueError, OverflowError, OSError):
            return None
    for pattern in ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d", "%H:%M:%S", "%H:%M"):
        try:
            return dt.datetime.strptime(text, pattern).replace(tzinfo=dt.UTC)
        except ValueError:
            continue
    return None


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


COMMANDS: dict[str, Tool] = {
    "date": cmd_date,
}

"""`logcat`: buffers, filters, formats, `-c`, `-d`, `-t`."""

from __future__ import annotations

import datetime as dt
import re
from typing import TYPE_CHECKING

from bmoca.sim.shell.errors import Io
from bmoca.sim.system.logcat import FilterSpec, LogEntry, format_entry
from bmoca.sim.system.vfs import FsError, normalize

if TYPE_CHECKING:
    from bmoca.sim.shell.session import Session, Tool


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


def cmd_logcat(sh: Session, args: list[str], io: Io) -> int:
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
                since_ms = _logcat_time(sh, text)
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
    logs = sh.system.state.logs
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
        lines.append(_logcat_line(entry, fmt, epoch, year))
        printed += 1
        if max_count is not None and printed >= max_count:
            break
    text = "".join(line + "\n" for line in lines)
    if out_file is not None:
        real = normalize(sh.path(out_file))
        try:
            if sh.read_only(real):
                raise FsError(f"{real}: Read-only file system")
            sh.vfs.write(real, text.encode("utf-8"), make_parents=False)
        except FsError:
            return fail(f"Couldn't open output file: {out_file}")
        return 0
    io.out(text)
    return 0


def _logcat_time(sh: Session, text: str) -> int | None:
    """`-t '<time>'`: `MM-DD hh:mm:ss.mmm`, `YYYY-MM-DD hh:mm:ss.mmm` or epoch `sss.mmm`."""
    if re.fullmatch(r"\d+\.\d+", text):
        return int(float(text) * 1000)
    year = sh.system.state.clock.datetime().year
    for pattern, add_year in (("%Y-%m-%d %H:%M:%S.%f", False), ("%m-%d %H:%M:%S.%f", True),
                              ("%m-%d %H:%M:%S", True)):
        try:
            moment = dt.datetime.strptime(f"{year}-{text}" if add_year else text,
                                          ("%Y-" + pattern) if add_year else pattern)
        except ValueError:
            continue
        return int(moment.replace(tzinfo=dt.UTC).timestamp() * 1000)
    return None


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
            stamp = moment.strftime("%Y-%m-%d %H:%M:%S" if year else "%m-%d %H:%M:%S")\
                + f".{millis:03d}"
        if fmt == "time":
            return f"{stamp} {entry.priority}/{entry.tag:<8}({entry.pid:5d}): {entry.message}"
        return (f"[ {stamp} {entry.pid:5d}:{entry.tid:5d} {entry.priority}/{entry.tag:<8} ]\n"
                f"{entry.message}\n")
    return format_entry(entry, fmt, year=year)


COMMANDS: dict[str, Tool] = {
    "logcat": cmd_logcat,
}

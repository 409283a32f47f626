"""Toybox's text tools: grep, head, tail, wc, sort, uniq, cut, tr."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from bmoca.sim.shell.errors import Io, ShellError
from bmoca.sim.shell.helpers import reason, unescape
from bmoca.sim.system.vfs import FsError

if TYPE_CHECKING:
    from bmoca.sim.shell.session import Session, Tool


def _split_lines(text: str) -> list[str]:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


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


def _inputs(sh: Session, files: list[str], io: Io, tool: str) -> tuple[list[tuple[str, str]], int]:
    """(name, text) of each file argument, or stdin when there are none."""
    if not files:
        return [("(standard input)", io.stdin)], 0
    found: list[tuple[str, str]] = []
    status = 0
    for name in files:
        if name == "-":
            found.append(("(standard input)", io.stdin))
            continue
        path = sh.path(name)
        if path == "/dev/null":
            found.append((name, ""))
            continue
        try:
            found.append((name, sh.vfs.read(path).decode("utf-8", "replace")))
        except FsError as exc:
            io.err(f"{tool}: {name}: {reason(exc)}\n")
            status = 1 if tool != "grep" else 2
    return found, status


def cmd_grep(sh: Session, args: list[str], io: Io) -> int:
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
    sources, status = _inputs(sh, positional, io, "grep")
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


def _head_tail(sh: Session, args: list[str], io: Io, tool: str) -> int:
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
    sources, status = _inputs(sh, files, io, tool)
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


def cmd_head(sh: Session, args: list[str], io: Io) -> int:
    return _head_tail(sh, args, io, "head")


def cmd_tail(sh: Session, args: list[str], io: Io) -> int:
    return _head_tail(sh, args, io, "tail")


def cmd_wc(sh: Session, args: list[str], io: Io) -> int:
    flags = "".join(a[1:] for a in args if a.startswith("-") and len(a) > 1) or "lwc"
    files = [a for a in args if not (a.startswith("-") and len(a) > 1)]
    sources, status = _inputs(sh, files, io, "wc")
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


def cmd_sort(sh: Session, args: list[str], io: Io) -> int:
    flags = "".join(a[1:] for a in args if a.startswith("-") and len(a) > 1)
    files = [a for a in args if not (a.startswith("-") and len(a) > 1)]
    sources, status = _inputs(sh, files, io, "sort")
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


def cmd_uniq(sh: Session, args: list[str], io: Io) -> int:
    flags = "".join(a[1:] for a in args if a.startswith("-") and len(a) > 1)
    files = [a for a in args if not (a.startswith("-") and len(a) > 1)]
    sources, status = _inputs(sh, files[:1], io, "uniq")
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


def cmd_cut(sh: Session, args: list[str], io: Io) -> int:
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
    sources, status = _inputs(sh, files, io, "cut")
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


def cmd_tr(sh: Session, args: list[str], io: Io) -> int:
    flags = "".join(a[1:] for a in args if re.fullmatch(r"-[dsc]+", a))
    sets = [a for a in args if not re.fullmatch(r"-[dsc]+", a)]

    def expand(spec: str) -> str:
        spec, _ = unescape(spec)
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


COMMANDS: dict[str, Tool] = {
    "grep": cmd_grep,
    "head": cmd_head,
    "tail": cmd_tail,
    "wc": cmd_wc,
    "sort": cmd_sort,
    "uniq": cmd_uniq,
    "cut": cmd_cut,
    "tr": cmd_tr,
}

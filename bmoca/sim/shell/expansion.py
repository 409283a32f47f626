"""Word expansion as mksh does it: `$VAR`, `${VAR:-default}`, `$?`, `$(...)`, backticks,
`~` and globs, then quote removal and field splitting by `shlex` (posix)."""

from __future__ import annotations

import fnmatch
import re
import shlex

from bmoca.sim.shell.errors import SH, SHELL_PID, ShellError
from bmoca.sim.shell.lexer import end_of_backtick, end_of_paren, end_of_single

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
ASSIGNMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=(.*)", re.S)


def field_quote(value: str) -> str:
    """An unquoted expansion for shlex: split into fields on blanks, no quote processing."""
    parts = re.split(r"([ \t\n]+)", value)
    return "".join(" " if part.isspace() else shlex.quote(part) for part in parts if part)


def dq_quote(value: str) -> str:
    """An expansion inside double quotes, escaped for shlex's posix double-quote rules."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


_PLAIN_WORD = re.compile(r"[A-Za-z0-9_./:=@%+,-]+")
"""Words made only of these are their own single field (most words detectors send)."""


class WordExpansion:
    """The expansion half of a session: needs `env`, `status`, `vfs`, `path()` and
    `_run_text()` from the class it is mixed into."""

    env: dict[str, str]
    status: int
    _side: list[tuple[int, str]]

    def _expand_word(self, raw: str) -> list[str]:
        """`$...`, backticks and `~` expanded, then quotes removed and fields split by shlex."""
        if _PLAIN_WORD.fullmatch(raw):  # nothing to expand, unquote, split or glob
            return [raw]
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
                j = end_of_single(raw, i)
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
                    pieces.append(dq_quote(value) if dq else field_quote(value))
            elif c == "`":
                j = end_of_backtick(raw, i)
                body = re.sub(r"\\([$`\\])", r"\1", raw[i + 1:j])
                value = self._substitute(body)
                pieces.append(dq_quote(value) if dq else field_quote(value))
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
            j = end_of_paren(raw, i + 2)
            return self._substitute(raw[i + 2:j]), j + 1
        if raw.startswith("${", i):
            j = raw.find("}", i)
            inner = raw[i + 2:j]
            name, op, default = inner.partition(":-")
            if not op:
                name, op, default = inner.partition("-")
            if not (NAME.fullmatch(name) or name in ("?", "$", "#", "0") or name.isdigit()):
                raise ShellError(f"{SH}: ${{{inner}}}: bad substitution", 1)
            value = self._variable(name)
            if op and (not value if op == ":-" else name not in self.env):
                value = default
            return value, j + 1
        nxt = raw[i + 1:i + 2]
        if nxt and nxt in "?$#@*!-" or nxt.isdigit():
            return self._variable(nxt), i + 2
        m = NAME.match(raw, i + 1)
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
                directory = self.path(prefix or ".")
                if not self.vfs.is_dir(directory):
                    continue
                for name in self.vfs.listdir(directory):
                    if name.startswith(".") and not part.startswith("."):
                        continue
                    if fnmatch.fnmatchcase(name, part):
                        found.append(prefix + name if prefix.endswith("/") or not prefix
                                     else prefix + "/" + name)
            candidates = found
        return sorted(c for c in candidates if self.vfs.exists(self.path(c)))

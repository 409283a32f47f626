"""The lexer: finds operators (`;`, newline, `&&`, `||`, `|`, `&`, redirections) and raw words,
quote-aware, without expanding anything."""

from __future__ import annotations

from bmoca.sim.shell.errors import SH, ShellError
from bmoca.sim.shell.parser import syntax


def end_of_single(text: str, i: int) -> int:
    j = text.find("'", i + 1)
    if j < 0:
        raise ShellError(f"{SH}: no closing quote", 1)
    return j


def end_of_double(text: str, i: int) -> int:
    """Index of the `"` closing the one at i (escapes and `$(...)` inside are skipped)."""
    j = i + 1
    while j < len(text):
        c = text[j]
        if c == "\\":
            j += 2
        elif c == '"':
            return j
        elif text.startswith("$(", j):
            j = end_of_paren(text, j + 2) + 1
        elif c == "`":
            j = end_of_backtick(text, j) + 1
        else:
            j += 1
    raise ShellError(f"{SH}: no closing quote", 1)


def end_of_backtick(text: str, i: int) -> int:
    j = i + 1
    while j < len(text):
        if text[j] == "\\":
            j += 2
        elif text[j] == "`":
            return j
        else:
            j += 1
    raise ShellError(f"{SH}: no closing quote", 1)


def end_of_paren(text: str, start: int) -> int:
    """Index of the `)` closing a `$(` whose body starts at `start`."""
    depth = 1
    j = start
    while j < len(text):
        c = text[j]
        if c == "\\":
            j += 2
            continue
        if c == "'":
            j = end_of_single(text, j)
        elif c == '"':
            j = end_of_double(text, j)
        elif c == "`":
            j = end_of_backtick(text, j)
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return j
        j += 1
    raise ShellError(f"{SH}: no closing quote", 1)


def lex(text: str) -> list[tuple[str, object]]:
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
                j = end_of_single(text, i)
            elif c == '"':
                j = end_of_double(text, i)
            elif c == "`":
                j = end_of_backtick(text, i)
            elif text.startswith("$(", i):
                j = end_of_paren(text, i + 2)
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
                raise syntax(";;")
            tokens.append(("op", ";"))
            i += 1
        elif c in "()":
            raise syntax(c)
        else:
            word.append(c)
            started = True
            i += 1
    flush()
    return tokens

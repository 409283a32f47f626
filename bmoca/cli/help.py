"""Readable `--help`: plain-word metavars and text wrapped between words, never inside one.

Typer names an option's value after its Python type (`<list[str]>`, `<int range>`), and
click's wrapper cuts a long word (`[ll` / `m|mllm...`) to fill a line. `readable` walks the
command tree once, before it runs: each value gets a metavar that says what to give
(`--tasks SPEC`, `--seed N`, `--out PATH`), and each command's context formats help with
`WordFormatter`, which wraps at spaces only (a word longer than the line overflows it).
`[default: ...]` and other `[brackets]` are left as they are.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence

try:  # typer >= 0.20 carries its own click
    from typer._click import Context, HelpFormatter
except ImportError:  # pragma: no cover - older typer uses the click package
    from click import Context, HelpFormatter

# The shared vocabulary (README, "Command-line conventions"), by option name.
BY_NAME = {
    "--tasks": "SPEC", "--task": "ID", "--config": "ID", "--configs": "IDS",
    "--eval-configs": "IDS", "--device": "TARGET", "--agent": "AGENT",
    "--agent-option": "KEY=VALUE", "--vary": "FACTOR=VALUES", "--tap": "SELECTOR",
    "--locale": "TAG", "--format": "FORMAT", "--ray": "ADDRESS", "--host": "HOST",
    "--port": "PORT", "--adb-server-port": "PORT", "--data": "DIR", "--demos": "DIR",
    "--runs": "DIR", "--screens": "DIR", "--run-dir": "DIR", "--snapshot-dir": "DIR",
    "--apks": "DIR", "--curve": "FILE", "--model": "PATH", "--init": "PATH",
}
# By the kind of value, for the rest (typer's `<int range>`, or old click's `INTEGER RANGE`).
BY_KIND = {"int": "N", "integer": "N", "float": "X", "str": "TEXT", "text": "TEXT",
           "path": "PATH", "file": "FILE", "directory": "DIR", "datetime": "TIME"}


def _kind(param, ctx: Context) -> str:
    """`int`, `float`, `str`, `path`... of a parameter, under either typer."""
    try:
        label = param.display_type(ctx)  # typer >= 0.20: `<list[int]>`, `<float range>`
    except AttributeError:  # pragma: no cover - click's own types: `INTEGER RANGE`
        label = param.type.name
    label = label.strip("<>").lower().removesuffix(" range")
    return label.removeprefix("list[").removesuffix("]")


def metavar(param, ctx: Context) -> str | None:
    """What the help shows for the value of `param`, or None to keep typer's own."""
    for opt in param.opts:
        if opt in BY_NAME:
            return BY_NAME[opt]
    return BY_KIND.get(_kind(param, ctx))


def _wrap(text: str, width: int) -> list[str]:
    """Lines of `text` at most `width` wide where its words allow, paragraphs kept."""
    lines: list[str] = []
    for paragraph in text.split("\n\n"):
        if lines:
            lines.append("")
        flat = re.sub(r"\s*\n\s*", " ", paragraph.strip())  # keeps `text  [default: x]`
        lines += textwrap.wrap(flat, width, break_long_words=False,
                               break_on_hyphens=False)
    return lines


class WordFormatter(HelpFormatter):
    """Click's help layout, wrapped between words only (`comma-separated` stays whole)."""

    def write_text(self, text: str) -> None:
        indent = " " * self.current_indent
        width = max(self.width - self.current_indent, 20)
        self.write("\n".join(indent + line if line else "" for line in _wrap(text, width)))
        self.write("\n")

    def write_dl(self, rows: Sequence[tuple[str, str]], col_max: int = 30,
                 col_spacing: int = 2) -> None:
        rows = list(rows)
        column = min(max((len(term) for term, _ in rows), default=0), col_max) + col_spacing
        indent = " " * self.current_indent
        lines_width = max(self.width - column - 2, 10)
        for term, text in rows:
            lines = _wrap(text, lines_width) if text else []
            if lines and len(term) <= column - col_spacing:
                self.write(f"{indent}{term:<{column}}{lines[0]}\n")
                lines = lines[1:]
            else:
                self.write(f"{indent}{term}\n")
            for line in lines:
                self.write(f"{indent}{'':<{column}}{line}\n" if line else "\n")


class HelpContext(Context):
    """A command's context whose help is formatted by `WordFormatter`."""

    formatter_class = WordFormatter


def readable(command, ctx: Context | None = None) -> None:
    """Give every option of `command` and its subcommands a plain-word metavar (where it
    has none) and a context that wraps help between words."""
    command.context_class = HelpContext
    ctx = ctx or Context(command)
    for param in command.params:
        if getattr(param, "param_type_name", "") != "option" or param.metavar is not None:
            continue
        if getattr(param, "is_flag", False) or getattr(param, "count", False):
            continue
        param.metavar = metavar(param, ctx)
    for sub in getattr(command, "commands", {}).values():
        readable(sub, ctx)

"""The parser: tokens to a script, a list of (connector, pipeline) pairs of commands with
their redirections."""

from __future__ import annotations

from dataclasses import dataclass, field

from bmoca.sim.shell.errors import SH, ShellError


@dataclass
class Redirect:
    fd: int
    """0, 1, 2; -1 stands for both 1 and 2 (`&>`)."""
    op: str
    """`>`, `>>`, `<`, `>&`, `<&`."""
    target: str = ""
    """The raw word after the operator."""


@dataclass
class Command:
    words: list[str] = field(default_factory=list)
    redirects: list[Redirect] = field(default_factory=list)

    def empty(self) -> bool:
        return not self.words and not self.redirects


Script = list[tuple[str, list[Command]]]
"""(connector, pipeline) pairs; the connector (`;`, `&&`, `||`) joins it to what came before."""


def syntax(token: str) -> ShellError:
    shown = "newline" if token == "\n" else token
    return ShellError(f"{SH}: syntax error: '{shown}' unexpected", 1)


def parse(tokens: list[tuple[str, object]]) -> Script:
    script: Script = []
    pipeline: list[Command] = []
    cmd = Command()
    connector = ";"
    pending: tuple[int, str] | None = None
    need_command = False
    for kind, value in tokens:
        if kind == "word":
            if pending is not None:
                cmd.redirects.append(Redirect(pending[0], pending[1], str(value)))
                pending = None
            else:
                cmd.words.append(str(value))
            need_command = False
            continue
        if pending is not None:
            raise syntax(str(value[1]) if kind == "redir" else str(value))  # type: ignore[index]
        if kind == "redir":
            pending = value  # type: ignore[assignment]
            continue
        op = str(value)
        if op == "|":
            if cmd.empty():
                raise syntax(op)
            pipeline.append(cmd)
            cmd = Command()
            need_command = True
            continue
        if cmd.empty():
            if op == "\n":
                continue
            raise syntax(op)
        pipeline.append(cmd)
        script.append((connector, pipeline))
        pipeline, cmd = [], Command()
        connector = op if op in ("&&", "||") else ";"
        need_command = op in ("&&", "||")
    if pending is not None:
        raise syntax("\n")
    if not cmd.empty():
        pipeline.append(cmd)
        script.append((connector, pipeline))
    elif need_command or pipeline:
        raise ShellError(f"{SH}: syntax error: unexpected EOF", 1)
    return script

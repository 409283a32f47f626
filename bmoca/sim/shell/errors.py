"""The shell's errors, streams and constants: what every other module of the package uses."""

from __future__ import annotations

SH = "/system/bin/sh"
SHELL_UID = 2000
SHELL_PACKAGE = "com.android.shell"
SHELL_PID = 3127
"""The pid `$$`, `ps` and `Force stopping ... from pid` show for the shell."""
MAX_DEPTH = 16
"""Nesting limit for `sh -c`, `su -c` and `$(...)`, so a runaway script cannot recurse forever."""
MAX_COMMAND_CHARS = 131072
"""Linux's MAX_ARG_STRLEN: a longer `sh -c` command line fails with E2BIG on a device, and
refusing it here keeps every command's cost bounded."""


class ShellError(Exception):
    """A command failing the way the real tool fails: the text it prints and its exit status."""

    def __init__(self, message: str, code: int = 1):
        super().__init__(message)
        self.message = message if not message or message.endswith("\n") else message + "\n"
        self.code = code


class Exit(Exception):
    """`exit N`: unwinds to the script being run (the whole command line, or one `sh -c`)."""

    def __init__(self, code: int):
        super().__init__(code)
        self.code = code
        self.chunks: list[tuple[int, str]] = []


class Io:
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


def java_exception(message: str, cls: str = "java.lang.IllegalArgumentException") -> ShellError:
    """What `cmd`-based tools print when the service throws (ShellCommand.exec), status 255."""
    return ShellError(f"\nException occurred while executing:\n{cls}: {message}\n", 255)

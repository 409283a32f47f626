"""The phone's `/system/bin/sh`: a small mksh look-alike for what tools send over `adb shell`.

Why: detectors, agents and tools (adbutils, android-env, B-MoCA's evaluators) drive a phone
through shell strings: `settings get`, `logcat -d`, `dumpsys window`, `am start`, `input tap`.
Each command here prints what Android 10 prints, returns its exit status, and changes the
simulated phone only through the same system services the apps use, so the log lines a
command causes are the ones a real device writes.

How:
- parsing: a quote-aware lexer finds the operators (`;`, newline, `&&`, `||`, `|`, `&`,
  redirections) and the raw words (`lexer.py`, `parser.py`); each raw word is expanded
  (`$VAR`, `$?`, `$(...)`, backticks, `~`, globs) and then split by `shlex` (posix), which
  removes quotes exactly as sh does (`expansion.py`);
- output: a command writes ordered (fd, text) chunks, so `> file`, `>> file`, `2>&1`,
  `2>/dev/null` and pipes route stdout and stderr as a shell does; `adb shell` hands the
  caller both streams merged, in order (`session.py`);
- commands: one module per tool or family in `commands/`, reaching the phone through the
  narrow `host.Phone` interface;
- privileges: `id` says uid 2000 (shell), or root under `su`, and the uid shows in the log
  lines the shell causes; permission checks are not simulated (the phone behaves as after
  `adb root`, which is what provisioning assumes);
- robustness: a failing command prints an error and returns a status; an unexpected Python
  error inside a command restores the state from just before it and exits 255.
"""

from __future__ import annotations

from bmoca.sim.shell.commands import COMMANDS
from bmoca.sim.shell.errors import ShellError
from bmoca.sim.shell.session import Session

__all__ = ["Shell", "ShellError"]


class Shell(Session):
    """A session with every tool of `commands/` installed."""

    commands = COMMANDS

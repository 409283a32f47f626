"""What kind of tool each name is: toybox applets, mksh builtins with no program on disk,
and the commands that never change the phone (no state guard needed)."""

from __future__ import annotations

TOYBOX = frozenset({
    "basename", "cat", "chmod", "chown", "cp", "cut", "date", "dirname", "echo", "env", "false",
    "getenforce", "getprop", "grep", "head", "id", "ls", "mkdir", "mv", "pidof", "printf", "ps",
    "pwd", "rm", "rmdir", "setprop", "sleep", "sort", "stat", "sync", "tail", "test", "touch",
    "tr", "true", "uname", "uniq", "wc", "which", "whoami",
})
SHELL_ONLY = frozenset({"cd", "exit", "export", "unset", ":", "exec", "command"})
"""mksh builtins with no program on disk (`su` and `/system/bin/X` cannot run them)."""
READ_ONLY = frozenset({
    "echo", "printf", "true", "false", ":", "id", "whoami", "getprop", "ls", "cat", "stat",
    "test", "[", "grep", "head", "tail", "wc", "sort", "uniq", "cut", "tr", "dumpsys",
    "uiautomator", "screencap", "pwd", "uname", "getenforce", "which", "command", "ps",
    "pidof", "env", "basename", "dirname", "cd", "export", "unset", "exit",
    "sh", "su", "toybox", "exec", "sync",
})
"""Commands that never change device state (or only run others, which guard themselves)."""


def reads_only(name: str, args: list[str]) -> bool:
    """Whether a command line changes nothing the state guard watches (the log buffers
    are not watched): the READ_ONLY commands, and the read forms of the commands detectors
    send every step (`logcat -d` without a file to write, `settings get|list`,
    `media volume` without `--set`/`--adj`), which need no checkpoint either."""
    if name in READ_ONLY:
        return True
    if name == "logcat":  # only -f/--file writes outside the log buffers
        return not any(a.startswith("--f") or (a.startswith("-") and not a.startswith("--")
                                                and "f" in a) for a in args)
    if name == "settings":
        return bool(args) and args[0].lower() in ("get", "list")
    if name == "content":
        return args[:1] == ["query"]
    if name == "media":
        return args[:1] == ["volume"] and "--set" not in args and "--adj" not in args
    return False

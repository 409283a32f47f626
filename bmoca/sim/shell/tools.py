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

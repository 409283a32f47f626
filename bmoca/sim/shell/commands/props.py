"""System properties and init: getprop, setprop (ctl.restart), start, stop, reboot."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from bmoca.sim.shell.errors import Io, ShellError
from bmoca.sim.system.props import START_COUNT_PROP

if TYPE_CHECKING:
    from bmoca.sim.shell.session import Session, Tool


def _props(sh: Session) -> dict[str, str]:
    """System properties; keys starting with `_` are the simulator's own bookkeeping."""
    return {k: v for k, v in sh.system.state.props.items() if not k.startswith("_")}


def cmd_getprop(sh: Session, args: list[str], io: Io) -> int:
    args = [a for a in args if a not in ("-T", "-Z")]
    props = _props(sh)
    if not args:
        io.lines([f"[{k}]: [{props[k]}]" for k in sorted(props)])
        return 0
    io.out(props.get(args[0], args[1] if len(args) > 1 else "") + "\n")
    return 0


def cmd_setprop(sh: Session, args: list[str], io: Io) -> int:
    if len(args) != 2:
        raise ShellError("usage: setprop NAME VALUE\n\nSets an Android system property.", 1)
    name, value = args
    if name.endswith("."):
        raise ShellError("Property names must not end with '.'", 1)
    if not re.fullmatch(r"[A-Za-z0-9_@:\-]+(\.[A-Za-z0-9_@:\-]+)*", name):
        raise ShellError(f"Invalid property name '{name}'", 1)
    if len(value.encode("utf-8")) >= 92 and not name.startswith("ro."):
        raise ShellError(f"Value '{value}' is too long, {len(value.encode('utf-8'))} bytes "
                         "vs a max of 92", 1)
    props = sh.system.state.props
    if name.startswith("ctl."):
        action = name[4:]
        if action in ("restart", "start") or (action == "stop" and value == "adbd"):
            if action in ("restart", "start") and value not in ("adbd", "logd", "logcatd"):
                sh.device.restart_framework()
            return 0
        if action == "stop":
            return 0
        raise ShellError(f"Failed to set property '{name}' to '{value}'.\n"
                         "See dmesg for error reason.", 1)
    if name.startswith("ro.") and name in props:
        raise ShellError(f"Failed to set property '{name}' to '{value}'.\n"
                         "See dmesg for error reason.", 1)
    if name == "sys.powerctl":
        if value.split(",")[0] in ("reboot", "shutdown"):
            reboot(sh)
        return 0
    props[name] = value
    return 0


def reboot(sh: Session) -> None:
    """A reboot, as far as state goes: the logs start empty and the framework starts again
    (system_server's start count, a property kept in memory, starts over)."""
    sh.system.state.logs.clear()
    sh.system.state.props.pop(START_COUNT_PROP, None)
    sh.device.restart_framework()


def cmd_start(sh: Session, args: list[str], io: Io) -> int:
    if not args or any(s in ("zygote", "zygote_secondary", "surfaceflinger") for s in args):
        sh.device.restart_framework()
    return 0


def cmd_stop(sh: Session, args: list[str], io: Io) -> int:
    return 0  # the framework goes down until `start`; the simulator keeps showing it


def cmd_reboot(sh: Session, args: list[str], io: Io) -> int:
    reboot(sh)
    return 0


COMMANDS: dict[str, Tool] = {
    "getprop": cmd_getprop,
    "setprop": cmd_setprop,
    "start": cmd_start,
    "stop": cmd_stop,
    "reboot": cmd_reboot,
}

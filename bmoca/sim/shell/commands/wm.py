"""`cmd` (uimode and the service list) and `wm` (size, density)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bmoca.sim.shell.commands.am import am_service
from bmoca.sim.shell.commands.pm import pm_service
from bmoca.sim.shell.commands.settings import settings_service
from bmoca.sim.shell.errors import Io
from bmoca.sim.shell.helpers import SERVICES, parse_int

if TYPE_CHECKING:
    from bmoca.sim.shell.session import Session, Tool


MAX_DENSITY = 1280
"""The highest `wm density` taken (twice xxxhdpi); beyond it the bars no longer fit."""

UIMODE_HELP = """\
UiModeManager service (uimode) commands:
  help
    Print this help text.
  night [yes|no|auto]
    Set or read night mode.
"""
WM_HELP = """\
Window manager (window) commands:
  help
      Print this help text.
  size [reset|WxH|WdpxHdp] [-d DISPLAY_ID]
    Return or override display size.
    width and height in pixels unless suffixed with 'dp'.
  density [reset|DENSITY] [-d DISPLAY_ID]
    Return or override display density.
  folded-area [reset|LEFT,TOP,RIGHT,BOTTOM]
    Return or override folded area.
  overscan [reset|LEFT,TOP,RIGHT,BOTTOM] [-d DISPLAY ID]
    Set overscan area for display.
  scaling [off|auto] [-d DISPLAY_ID]
    Set display scaling mode.
  dismiss-keyguard
    Dismiss the keyguard, prompting user for auth if necessary.
  set-user-rotation [free|lock] [-d DISPLAY_ID] [rotation]
    Set user rotation mode and user rotation.
  set-fix-to-user-rotation [-d DISPLAY_ID] [enabled|disabled]
    Enable or disable rotating display for app requested orientation.
"""


def cmd_cmd(sh: Session, args: list[str], io: Io) -> int:
    if not args:
        io.err("cmd: No service specified; use -l to list all services\n")
        return 20
    if args[0] == "-l":
        io.out("Currently running services:\n" + "".join(f"  {s}\n" for s in SERVICES))
        return 0
    service, rest = args[0], args[1:]
    handlers: dict[str, Tool] = {
        "settings": settings_service, "activity": am_service, "package": pm_service,
        "window": _wm, "uimode": _uimode, "activity_task": am_service,
    }
    if service in handlers:
        return handlers[service](sh, rest, io)
    if service not in SERVICES:
        io.err(f"cmd: Can't find service: {service}\n")
        return 20
    if not rest or rest[0] in ("help", "-h"):
        return 255
    io.out(f"Unknown command: {rest[0]}\n")
    return 255


def _uimode(sh: Session, args: list[str], io: Io) -> int:
    if not args or args[0] in ("help", "-h"):
        io.out(UIMODE_HELP)
        return 255
    if args[0] != "night":
        io.out(f"Unknown command: {args[0]}\n")
        return 255
    if len(args) > 1:
        if args[1] not in ("yes", "no", "auto"):
            io.err("Error: mode must be 'yes', 'no', or 'auto'\n")
            return 255
        if args[1] == "auto":
            sh.system.put_setting("secure", "ui_night_mode", "0")
        else:
            sh.system.set_night_mode(args[1] == "yes")
    current = sh.system.state.settings.get_int("secure", "ui_night_mode", 1)
    io.out(f"Night mode: {({0: 'auto', 1: 'no', 2: 'yes'}).get(current, 'unknown')}\n")
    return 0


def cmd_wm(sh: Session, args: list[str], io: Io) -> int:
    return _wm(sh, args, io)


def _wm(sh: Session, args: list[str], io: Io) -> int:
    if not args or args[0] in ("help", "-h"):
        io.out(WM_HELP)
        return 255
    sub, rest = args[0], args[1:]
    if "-d" in rest:
        at = rest.index("-d")
        display = rest[at + 1] if at + 1 < len(rest) else ""
        if display != "0":
            io.err(f"Error: invalid display ID {display}\n" if display.lstrip("-").isdigit()
                   else f'Error: bad number java.lang.NumberFormatException: For input string: "{display}"\n')
            return 255
        rest = rest[:at] + rest[at + 2:]
    if sub == "size":
        return _wm_size(sh, rest, io)
    if sub == "density":
        return _wm_density(sh, rest, io)
    if sub == "dismiss-keyguard":
        return 0
    if sub == "set-user-rotation" and (not rest or rest[-1] in ("lock", "free", "0")):
        return 0
    io.out(f"Unknown command: {sub}\n")
    return 255


def _wm_size(sh: Session, args: list[str], io: Io) -> int:
    state = sh.system.state
    physical = (state.hardware.width, state.hardware.height)
    if not args:
        io.out(f"Physical size: {physical[0]}x{physical[1]}\n")
        if state.size_override and state.size_override != physical:
            io.out(f"Override size: {state.size_override[0]}x{state.size_override[1]}\n")
        return 0
    arg = args[0]
    if arg == "reset":
        width, height = physical
    else:
        div = arg.find("x")
        if div <= 0 or div >= len(arg) - 1:
            io.err(f"Error: bad size {arg}\n")
            return 255
        try:
            width, height = (_dimension(sh, arg[:div]), _dimension(sh, arg[div + 1:]))
        except ValueError as exc:
            io.err(f"Error: bad number java.lang.NumberFormatException: {exc}\n")
            return 255
        if (width, height) != physical:
            width = min(max(width, 200), physical[0] * 2)
            height = min(max(height, 200), physical[1] * 2)
    clear = (width, height) == physical
    state.size_override = None if clear else (width, height)
    sh.system.put_setting("global", "display_size_forced", "" if clear else f"{width},{height}")
    return 0


def _dimension(sh: Session, text: str) -> int:
    if text.endswith("dp"):
        number = text[:-2]
        try:
            return int(parse_int(number) * sh.system.density / 160 + 0.5)
        except ValueError:
            raise ValueError(f'For input string: "{number}"') from None
    return parse_int(text)


def _wm_density(sh: Session, args: list[str], io: Io) -> int:
    state = sh.system.state
    physical = state.hardware.density
    if not args:
        io.out(f"Physical density: {physical}\n")
        if state.density_override and state.density_override != physical:
            io.out(f"Override density: {state.density_override}\n")
        return 0
    if args[0] == "reset":
        density = physical
    else:
        try:
            density = parse_int(args[0])
        except ValueError:
            io.err(f'Error: bad number java.lang.NumberFormatException: For input string: "{args[0]}"\n')
            return 255
        if density < 72:
            io.err("Error: Density must be at least 72dpi\n")
            return 255
        if density > MAX_DENSITY:  # the simulator's limit: system bars must fit the screen
            io.err(f"Error: Density must be at most {MAX_DENSITY}dpi\n")
            return 255
    clear = density == physical
    state.density_override = None if clear else density
    sh.system.put_setting("secure", "display_density_forced", "" if clear else str(density))
    return 0


COMMANDS: dict[str, Tool] = {
    "cmd": cmd_cmd,
    "wm": cmd_wm,
}

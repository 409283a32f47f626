"""`uiautomator dump`: the hierarchy XML written to a file."""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from bmoca.sim.shell.errors import Io
from bmoca.sim.system.vfs import FsError, normalize

if TYPE_CHECKING:
    from bmoca.sim.shell.session import Session, Tool


UIAUTOMATOR_HELP = """\
Usage: uiautomator <subcommand> [options]

Available subcommands:

help: displays help message

runtest: executes UI automation tests
    runtest <class spec> [options]

dump: creates an XML dump of current UI hierarchy
    dump [--verbose][file]
      [--compressed]: dumps compressed layout information.
      [file]: the location where the dumped XML should be stored, default is
      /sdcard/window_dump.xml

events: prints out accessibility events until terminated
"""


def cmd_uiautomator(sh: Session, args: list[str], io: Io) -> int:
    if not args or args[0] in ("help", "-h", "--help"):
        io.out(UIAUTOMATOR_HELP)
        return 0
    if args[0] != "dump":
        if args[0] in ("runtest", "events"):
            io.err(f"uiautomator {args[0]} is not supported by the simulator\n")
            return 1
        io.out(UIAUTOMATOR_HELP)
        return 0
    target = "/sdcard/window_dump.xml"
    for arg in args[1:]:
        if arg not in ("--compressed", "--verbose"):
            target = arg
    shown = target if target.startswith("/") else posixpath.join("/", target)
    xml = sh.device.dump_hierarchy()
    path = sh.path(target)
    if path in ("/dev/tty", "/dev/stdout", "/proc/self/fd/1"):
        io.out(xml)
    elif path != "/dev/null":
        real = normalize(path)
        try:
            if sh.read_only(real):
                raise FsError(f"{real}: Read-only file system")
            sh.vfs.write(real, xml.encode("utf-8"), make_parents=False)
        except FsError as exc:
            io.err(f"java.io.FileNotFoundException: {shown}: open failed: "
                   f"{'ENOENT (No such file or directory)' if 'No such' in str(exc) else 'EROFS (Read-only file system)'}\n")
            return 1
    io.out(f"UI hierchary dumped to: {shown}\n")
    return 0


COMMANDS: dict[str, Tool] = {
    "uiautomator": cmd_uiautomator,
}

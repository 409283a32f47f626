"""`screencap`: the screen as PNG or raw RGBA, to stdout or a file."""

from __future__ import annotations

import io as _bytes_io
import posixpath
import struct
from typing import TYPE_CHECKING

from bmoca.sim.shell.errors import Io
from bmoca.sim.system.vfs import normalize

if TYPE_CHECKING:
    from bmoca.sim.shell.session import Session, Tool


def _png(image) -> bytes:
    """PNG bytes as screencap writes them (RGBA)."""
    buf = _bytes_io.BytesIO()
    image.convert("RGBA").save(buf, format="PNG")
    return buf.getvalue()


def _raw_screencap(image) -> bytes:
    """screencap's raw format: width, height, format (RGBA_8888), dataspace (sRGB), pixels."""
    rgba = image.convert("RGBA")
    return struct.pack("<4I", rgba.width, rgba.height, 1, 1) + rgba.tobytes()


def cmd_screencap(sh: Session, args: list[str], io: Io) -> int:
    png = False
    target = None
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "-d":
            i += 1
        elif arg.startswith("-") and len(arg) > 1:
            for flag in arg[1:]:
                if flag == "p":
                    png = True
                elif flag == "h":
                    io.err("usage: screencap [-hp] [-d display-id] [FILENAME]\n"
                           "   -h: this message\n   -p: save the file as a png.\n"
                           "   -d: specify the physical display ID to capture (default: "
                           "0)\n       see \"dumpsys SurfaceFlinger --display-id\" for valid "
                           "display IDs.\nIf FILENAME ends with .png it will be saved as a "
                           "png.\nIf FILENAME is not given, the results will be printed to "
                           "stdout.\n")
                    return 1
                else:
                    io.err(f"screencap: invalid option -- '{flag}'\n")
                    return 1
        else:
            target = arg
    if target is None:
        # Binary PNG on stdout cannot travel through this text interface; the ADB endpoint
        # serves `exec-out screencap -p` from device.screenshot_image() directly.
        return 0
    image = sh.device.screenshot_image()
    data = _png(image) if png or target.endswith(".png") else _raw_screencap(image)
    real = normalize(sh.path(target))
    if sh.read_only(real) or not sh.vfs.is_dir(posixpath.dirname(real))\
            or sh.vfs.is_dir(real):
        reason = ("Read-only file system" if sh.read_only(real) else
                  "Is a directory" if sh.vfs.is_dir(real) else "No such file or directory")
        io.err(f"Error opening file: {target} ({reason})\n")
        return 1
    sh.vfs.write(real, data, make_parents=False)
    return 0


COMMANDS: dict[str, Tool] = {
    "screencap": cmd_screencap,
}

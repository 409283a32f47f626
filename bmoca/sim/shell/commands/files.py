"""Toybox's file tools: ls, cat, rm, rmdir, mkdir, touch, cp, mv, stat, chmod, chown."""

from __future__ import annotations

import datetime as dt
import posixpath
import re
import zlib
from typing import TYPE_CHECKING

from bmoca.sim.shell.errors import Io, ShellError
from bmoca.sim.shell.helpers import reason, unescape
from bmoca.sim.system.clock import BOOT_TIME_MS
from bmoca.sim.system.vfs import EXTERNAL, FsError, normalize

if TYPE_CHECKING:
    from bmoca.sim.shell.session import Session, Tool


def _split_flags(sh: Session, args: list[str], tool: str, allowed: str,
                 valued: str = "") -> tuple[set[str], list[str], dict[str, str]]:
    """toybox-style option parsing: clustered short flags, `--` ends options."""
    flags: set[str] = set()
    values: dict[str, str] = {}
    rest: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "--":
            rest.extend(args[i:])
            break
        if arg.startswith("-") and len(arg) > 1:
            j = 1
            while j < len(arg):
                flag = arg[j]
                if flag in valued:
                    value = arg[j + 1:] or (args[i] if i < len(args) else None)
                    if value is None:
                        raise ShellError(f"{tool}: Missing argument to -{flag}", 1)
                    if not arg[j + 1:]:
                        i += 1
                    values[flag] = value
                    break
                if flag not in allowed:
                    raise ShellError(f"{tool}: Unknown option '{flag}'", 1)
                flags.add(flag)
                j += 1
            continue
        rest.append(arg)
    return flags, rest, values


def _owner(real: str, is_dir: bool) -> tuple[str, str, str]:
    """(mode string, owner, group) for a path, as the Android 10 image lays them out."""
    if real == EXTERNAL or real.startswith(EXTERNAL + "/"):
        return ("drwxrwx--x" if is_dir else "-rw-rw----"), "root", "sdcard_rw"
    if real == "/data/local/tmp" or real.startswith("/data/local/tmp/"):
        return ("drwxrwx--x" if is_dir else "-rw-rw-rw-"), "shell", "shell"
    if real.startswith("/data"):
        return ("drwxrwx--x" if is_dir else "-rw-rw----"), "system", "system"
    return ("drwxr-xr-x" if is_dir else "-rw-r--r--"), "root", "root"


def _size(sh: Session, real: str) -> int:
    return 4096 if sh.vfs.is_dir(real) else len(sh.vfs.files.get(real, b""))


def _long_lines(sh: Session, entries: list[tuple[str, str]]) -> list[str]:
    """`ls -l` rows for (shown name, real path), columns aligned as toybox aligns them."""
    stamp = dt.datetime.fromtimestamp(BOOT_TIME_MS / 1000, tz=dt.UTC)
    when = stamp.strftime("%Y-%m-%d %H:%M")
    rows = []
    for shown, real in entries:
        is_dir = sh.vfs.is_dir(real)
        mode, owner, group = _owner(real, is_dir)
        links = 2 if is_dir else 1
        rows.append((mode, str(links), owner, group, str(_size(sh, real)), shown))
    if not rows:
        return []
    widths = [max(len(r[k]) for r in rows) for k in range(5)]
    return [f"{m} {ln:>{widths[1]}} {o:<{widths[2]}} {g:<{widths[3]}} {s:>{widths[4]}} "
            f"{when} {name}" for m, ln, o, g, s, name in rows]


def cmd_ls(sh: Session, args: list[str], io: Io) -> int:
    flags, targets, _ = _split_flags(sh, args, "ls", "laAd1RhtrsSFnicuZ")
    targets = targets or ["."]
    status = 0
    files: list[str] = []
    dirs: list[str] = []
    for target in targets:
        real = normalize(sh.path(target))
        if not sh.vfs.exists(real):
            io.err(f"ls: {target}: No such file or directory\n")
            status = 1
        elif sh.vfs.is_dir(real) and "d" not in flags:
            dirs.append(target)
        else:
            files.append(target)
    if files:
        entries = [(t, normalize(sh.path(t))) for t in sorted(files)]
        io.lines(_long_lines(sh, entries) if "l" in flags else [t for t, _ in entries])
    for k, target in enumerate(sorted(dirs)):
        real = normalize(sh.path(target))
        names = sh.vfs.listdir(real)
        if "a" not in flags and "A" not in flags:
            names = [n for n in names if not n.startswith(".")]
        entries = [(n, posixpath.join(real, n)) for n in names]
        if "a" in flags:
            entries = [(".", real), ("..", posixpath.dirname(real) or "/")] + entries
        if len(targets) > 1:
            io.out(("\n" if files or k else "") + f"{target}:\n")
        if "l" in flags:
            io.out(f"total {sum(-(-_size(sh, p) // 1024) for _, p in entries)}\n")
            io.lines(_long_lines(sh, entries))
        else:
            io.lines([n for n, _ in entries])
    return status


def cmd_cat(sh: Session, args: list[str], io: Io) -> int:
    _, files, _ = _split_flags(sh, args, "cat", "uvteAsn")
    if not files:
        io.out(io.stdin)
        return 0
    status = 0
    for name in files:
        if name == "-":
            io.out(io.stdin)
            continue
        path = sh.path(name)
        if path == "/dev/null":
            continue
        try:
            io.out(sh.vfs.read(path).decode("utf-8", "replace"))
        except FsError as exc:
            io.err(f"cat: {name}: {reason(exc)}\n")
            status = 1
    return status


def cmd_rm(sh: Session, args: list[str], io: Io) -> int:
    flags, targets, _ = _split_flags(sh, args, "rm", "rRfiv")
    if not targets and "f" not in flags:
        raise ShellError("rm: Needs 1 argument", 1)
    status = 0
    for target in targets:
        real = normalize(sh.path(target))
        if not sh.vfs.exists(real):
            if "f" not in flags:
                io.err(f"rm: {target}: No such file or directory\n")
                status = 1
            continue
        if sh.vfs.is_dir(real) and not flags & {"r", "R"}:
            io.err(f"rm: {target}: Is a directory\n")
            status = 1
            continue
        if real == "/" or sh.read_only(real):
            io.err(f"rm: {target}: {'Read-only file system' if real != '/' else 'Device or resource busy'}\n")
            status = 1
            continue
        sh.vfs.remove(real, recursive=True)
    return status


def cmd_rmdir(sh: Session, args: list[str], io: Io) -> int:
    _, targets, _ = _split_flags(sh, args, "rmdir", "p")
    status = 0
    for target in targets:
        real = normalize(sh.path(target))
        if not sh.vfs.is_dir(real):
            reason = "Not a directory" if sh.vfs.exists(real) else "No such file or directory"
            io.err(f"rmdir: {target}: {reason}\n")
            status = 1
        elif sh.vfs.listdir(real):
            io.err(f"rmdir: {target}: Directory not empty\n")
            status = 1
        else:
            sh.vfs.remove(real)
    return status


def cmd_mkdir(sh: Session, args: list[str], io: Io) -> int:
    flags, targets, _ = _split_flags(sh, args, "mkdir", "pv", valued="m")
    if not targets:
        raise ShellError("mkdir: Needs 1 argument", 1)
    status = 0
    for target in targets:
        real = normalize(sh.path(target))
        if sh.vfs.exists(real):
            if "p" in flags and sh.vfs.is_dir(real):
                continue
            io.err(f"mkdir: '{target}': File exists\n")
            status = 1
        elif sh.read_only(real):
            io.err(f"mkdir: '{target}': Read-only file system\n")
            status = 1
        elif "p" not in flags and not sh.vfs.is_dir(posixpath.dirname(real)):
            io.err(f"mkdir: '{target}': No such file or directory\n")
            status = 1
        else:
            try:
                sh.vfs.mkdir(real)
            except FsError as exc:
                io.err(f"mkdir: '{target}': {reason(exc)}\n")
                status = 1
    return status


def cmd_touch(sh: Session, args: list[str], io: Io) -> int:
    flags, targets, _ = _split_flags(sh, args, "touch", "acmh", valued="dtr")
    if not targets:
        raise ShellError("touch: Needs 1 argument", 1)
    status = 0
    for target in targets:
        real = normalize(sh.path(target))
        if sh.vfs.exists(real) or "c" in flags:
            continue
        if sh.read_only(real):
            io.err(f"touch: '{target}': Read-only file system\n")
            status = 1
            continue
        try:
            sh.vfs.write(real, b"", make_parents=False)
        except FsError:
            io.err(f"touch: '{target}': No such file or directory\n")
            status = 1
    return status


def _copy_tree(sh: Session, src: str, dst: str) -> None:
    sh.vfs.mkdir(dst)
    prefix = src.rstrip("/") + "/"
    for d in sorted(p for p in sh.vfs.dirs if p.startswith(prefix)):
        sh.vfs.mkdir(dst + "/" + d[len(prefix):])
    for f in sorted(p for p in sh.vfs.files if p.startswith(prefix)):
        sh.vfs.write(dst + "/" + f[len(prefix):], sh.vfs.files[f])


def _copy_or_move(sh: Session, args: list[str], io: Io, tool: str) -> int:
    flags, paths, _ = _split_flags(sh, args, tool, "rRafpnivdPlsuHLFT")
    if len(paths) < 2:
        raise ShellError(f"{tool}: Needs 2 arguments", 1)
    *sources, dest = paths
    dest_real = normalize(sh.path(dest))
    into = sh.vfs.is_dir(dest_real)
    if len(sources) > 1 and not into:
        raise ShellError(f"{tool}: '{dest}' not directory", 1)
    status = 0
    for source in sources:
        src = normalize(sh.path(source))
        target = posixpath.join(dest_real, posixpath.basename(src)) if into else dest_real
        if not sh.vfs.exists(src):
            io.err(f"{tool}: '{source}': No such file or directory\n")
            status = 1
            continue
        if sh.read_only(target) or (tool == "mv" and sh.read_only(src)):
            io.err(f"{tool}: '{dest}': Read-only file system\n")
            status = 1
            continue
        if src == target:
            continue
        if sh.vfs.is_dir(src):
            if tool == "cp" and not flags & {"r", "R", "a"}:
                io.err(f"cp: Skipped dir '{source}'\n")
                status = 1
                continue
            if target.startswith(src.rstrip("/") + "/"):
                io.err(f"{tool}: '{source}' to '{dest}': Invalid argument\n")
                status = 1
                continue
        try:
            if sh.vfs.is_dir(src):
                _copy_tree(sh, src, target)
            else:
                sh.vfs.write(target, sh.vfs.files[src], make_parents=False)
            if tool == "mv":
                sh.vfs.remove(src, recursive=True)
        except FsError as exc:
            io.err(f"{tool}: '{dest}': {reason(exc)}\n")
            status = 1
    return status


def cmd_cp(sh: Session, args: list[str], io: Io) -> int:
    return _copy_or_move(sh, args, io, "cp")


def cmd_mv(sh: Session, args: list[str], io: Io) -> int:
    return _copy_or_move(sh, args, io, "mv")


def cmd_stat(sh: Session, args: list[str], io: Io) -> int:
    fmt = None
    rest: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg in ("-c", "--format") and i < len(args):
            fmt = args[i]
            i += 1
        elif arg.startswith("--format=") or arg.startswith("-c"):
            fmt = arg.split("=", 1)[1] if arg.startswith("--") else arg[2:]
        elif arg in ("-L", "-f", "-t"):
            continue
        else:
            rest.append(arg)
    if not rest:
        raise ShellError("stat: Needs 1 argument", 1)
    status = 0
    stamp = dt.datetime.fromtimestamp(BOOT_TIME_MS / 1000, tz=dt.UTC)
    for name in rest:
        real = normalize(sh.path(name))
        if not sh.vfs.exists(real):
            io.err(f"stat: '{name}': No such file or directory\n")
            status = 1
            continue
        is_dir = sh.vfs.is_dir(real)
        mode, owner, group = _owner(real, is_dir)
        size = _size(sh, real)
        octal = sum(1 << (8 - k) for k, c in enumerate(mode[1:]) if c != "-")
        ids = {"root": 0, "system": 1000, "shell": 2000, "sdcard_rw": 1015}
        values = {
            "s": str(size), "n": name, "N": f"'{name}'", "a": f"{octal:o}", "A": mode,
            "F": "directory" if is_dir else ("regular empty file" if not size else "regular file"),
            "U": owner, "G": group, "u": str(ids[owner]), "g": str(ids[group]),
            "h": "2" if is_dir else "1", "b": str(-(-size // 512)), "B": "512",
            "i": str(zlib.crc32(real.encode()) & 0xFFFFF), "Y": str(BOOT_TIME_MS // 1000),
            "y": stamp.strftime("%Y-%m-%d %H:%M:%S.000000000 +0000"), "o": "4096",
        }
        values.update({"X": values["Y"], "Z": values["Y"], "x": values["y"], "z": values["y"]})
        if fmt is not None:
            text = re.sub(r"%(.)", lambda m, v=values: v.get(m.group(1), m.group(0)), fmt)
            io.out(unescape(text)[0] + "\n")
            continue
        io.out(f"  File: {name}\n"
               f"  Size: {size}\t Blocks: {values['b']}\t IO Blocks: 4096\t{values['F']}\n"
               f"Device: fd00h/64768d\t Inode: {values['i']}\t Links: {values['h']}\n"
               f"Access: (0{octal:o}/{mode})\tUid: ({ids[owner]:5d}/{owner:>8})\t"
               f"Gid: ({ids[group]:5d}/{group:>8})\n"
               f"Access: {values['y']}\nModify: {values['y']}\nChange: {values['y']}\n")
    return status


def _chmod_like(sh: Session, args: list[str], io: Io, tool: str) -> int:
    _, rest, _ = _split_flags(sh, args, tool, "RvfhHLP")
    if len(rest) < 2:
        raise ShellError(f"{tool}: Needs 2 arguments", 1)
    status = 0
    for name in rest[1:]:
        if not sh.vfs.exists(sh.path(name)):
            io.err(f"{tool}: {name}: No such file or directory\n")
            status = 1
    return status


def cmd_chmod(sh: Session, args: list[str], io: Io) -> int:
    return _chmod_like(sh, args, io, "chmod")


def cmd_chown(sh: Session, args: list[str], io: Io) -> int:
    return _chmod_like(sh, args, io, "chown")


COMMANDS: dict[str, Tool] = {
    "ls": cmd_ls,
    "cat": cmd_cat,
    "rm": cmd_rm,
    "rmdir": cmd_rmdir,
    "mkdir": cmd_mkdir,
    "touch": cmd_touch,
    "cp": cmd_cp,
    "mv": cmd_mv,
    "stat": cmd_stat,
    "chmod": cmd_chmod,
    "chown": cmd_chown,
}

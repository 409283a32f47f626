"""The shell's builtins and small toybox tools: echo, printf, cd, export, env, sh, su, id, uname, sleep, test and `[`."""

from __future__ import annotations

import posixpath
import re
import shlex
from typing import TYPE_CHECKING

from bmoca.sim.shell.errors import SH, SHELL_UID, Exit, Io, ShellError
from bmoca.sim.shell.expansion import ASSIGNMENT
from bmoca.sim.shell.helpers import java_int, unescape
from bmoca.sim.shell.tools import SHELL_ONLY, TOYBOX
from bmoca.sim.system.vfs import FsError, normalize

if TYPE_CHECKING:
    from bmoca.sim.shell.session import Session, Tool


ID_GROUPS = ("groups={own},1004(input),1007(log),1011(adb),1015(sdcard_rw),1028(sdcard_r),"
             "3001(net_bt_admin),3002(net_bt),3003(inet),3006(net_bw_stats),3009(readproc),"
             "3011(uhid)")
_TEST_BINARY = frozenset({"=", "==", "!=", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt", "-ge"})
_TEST_UNARY = frozenset({"-e", "-f", "-d", "-s", "-r", "-w", "-x", "-z", "-n", "-L", "-h", "-b",
                         "-c", "-p", "-S", "-t"})


def cmd_true(sh: Session, args: list[str], io: Io) -> int:
    return 0


def cmd_false(sh: Session, args: list[str], io: Io) -> int:
    return 1


def cmd_exit(sh: Session, args: list[str], io: Io) -> int:
    if not args:
        raise Exit(sh.status)
    try:
        code = int(args[0])
    except ValueError:
        raise ShellError(f"{SH}: exit: {args[0]}: bad number", 1) from None
    raise Exit(code & 0xFF)


def cmd_echo(sh: Session, args: list[str], io: Io) -> int:
    newline, escapes = True, True
    while args and re.fullmatch(r"-[neE]+", args[0]):
        for flag in args[0][1:]:
            if flag == "n":
                newline = False
            else:
                escapes = flag == "e"
        args = args[1:]
    text = " ".join(args)
    if escapes:
        text, stopped = unescape(text)
        newline = newline and not stopped
    io.out(text + ("\n" if newline else ""))
    return 0


MAX_PRINTF_WIDTH = 10_000
"""printf pads to at most this many characters: bounded output for any format."""


def cmd_printf(sh: Session, args: list[str], io: Io) -> int:
    if not args:
        raise ShellError("printf: Needs 1 argument", 1)
    fmt, rest = args[0], args[1:]
    spec = re.compile(r"%%|%([-+ 0#]*)(\d{0,12})(?:\.(\d{0,12}))?([diouxXeEfgGcsb])")
    out: list[str] = []
    status = 0
    while True:
        used = 0

        def convert(m: re.Match, rest: list[str] = rest) -> str:
            nonlocal used, status
            if m.group(0) == "%%":
                return "%"
            flags, width, precision, conv = m.groups()
            arg = rest[used] if used < len(rest) else ""
            used += 1
            if conv == "b":
                arg, _ = unescape(arg)
                conv = "s"
            if conv == "c":
                return arg[:1]
            if max(int(width or 0), int(precision or 0)) > MAX_PRINTF_WIDTH:
                raise ShellError(f"printf: {m.group(0)}: field width or precision over "
                                 f"{MAX_PRINTF_WIDTH}", 1)
            pattern = "%" + flags + width + (f".{precision}" if precision is not None else "")
            if conv in "diouxX":
                try:
                    value = java_int(arg, bits=64) if arg else 0
                except ValueError:
                    io.err(f"printf: invalid number '{arg}'\n")
                    status, value = 1, 0
                return (pattern + ("d" if conv in "iu" else conv)) % value
            if conv in "eEfgG":
                try:
                    number = float(arg) if arg else 0.0
                except ValueError:
                    io.err(f"printf: invalid number '{arg}'\n")
                    status, number = 1, 0.0
                return (pattern + conv) % number
            return (pattern + "s") % arg

        text, _ = unescape(spec.sub(convert, fmt))
        out.append(text)
        rest = rest[used:]
        if not rest or used == 0:
            break
    io.out("".join(out))
    return status


def cmd_pwd(sh: Session, args: list[str], io: Io) -> int:
    io.out(sh.cwd + "\n")
    return 0


def cmd_cd(sh: Session, args: list[str], io: Io) -> int:
    target = sh.path(args[0] if args else sh.env.get("HOME", "/"))
    if not sh.vfs.is_dir(target):
        raise ShellError(f"{SH}: cd: {target}: No such file or directory", 2)
    sh.cwd = target
    return 0


def cmd_export(sh: Session, args: list[str], io: Io) -> int:
    for arg in args:
        m = ASSIGNMENT.fullmatch(arg)
        if m:
            sh.env[m.group(1)] = m.group(2)
        elif not args or arg == "-p":
            io.lines([f"export {k}={shlex.quote(v)}" for k, v in sorted(sh.env.items())])
    return 0


def cmd_unset(sh: Session, args: list[str], io: Io) -> int:
    for name in args:
        sh.env.pop(name, None)
    return 0


def cmd_env(sh: Session, args: list[str], io: Io) -> int:
    extra = dict(m.groups() for a in args if (m := ASSIGNMENT.fullmatch(a)))
    command = [a for a in args if not ASSIGNMENT.fullmatch(a) and a != "-i"]
    if command:
        return sh.dispatch(command, io)
    io.lines([f"{k}={v}" for k, v in sorted({**sh.env, **extra}.items())])
    return 0


def cmd_exec(sh: Session, args: list[str], io: Io) -> int:
    if not args:
        return 0
    raise Exit(sh.dispatch(args, io))


def cmd_sh(sh: Session, args: list[str], io: Io) -> int:
    if args and args[0] == "-c":
        if len(args) < 2:
            raise ShellError(f"{SH}: -c: option requires an argument", 1)
        return sh.nested(args[1], io)
    if args:
        try:
            script = sh.vfs.read(sh.path(args[0])).decode("utf-8", "replace")
        except FsError:
            raise ShellError(f"{SH}: {args[0]}: No such file or directory", 127) from None
        return sh.nested(script, io, stdin="")
    return sh.nested(io.stdin, io, stdin="")


def cmd_su(sh: Session, args: list[str], io: Io) -> int:
    if args and args[0] in ("-h", "--help"):
        io.out("usage: su [WHO [COMMAND...]]\n\nSwitch to WHO (default 'root') and run the "
               "given COMMAND (default sh).\n\nWHO is a comma-separated list of user, group, "
               "and supplementary groups\nin that order.\n\n")
        return 0
    previous = sh.uid
    try:
        if args and args[0] == "-c":
            if len(args) < 2:
                raise ShellError("su: option requires an argument -- c", 1)
            sh.uid = 0
            return sh.nested(args[1], io)
        if args and args[0] in ("-", "-l", "--login"):
            args = args[1:]
        who = args[0] if args else "root"
        uid = {"root": 0, "shell": SHELL_UID, "system": 1000}.get(who.split(",")[0])
        if uid is None:
            if not who.split(",")[0].isdigit():
                raise ShellError(f"su: unknown user {who}", 1)
            uid = int(who.split(",")[0])
        sh.uid = uid
        command = args[1:]
        if not command:
            return sh.nested(io.stdin, io, stdin="") if io.stdin else 0
        if command[0] in SHELL_ONLY or sh.handler(command[0]) is None:
            raise ShellError(f"su: failed to exec {command[0]}: No such file or directory", 1)
        return sh.dispatch(command, io)
    finally:
        sh.uid = previous


def cmd_toybox(sh: Session, args: list[str], io: Io) -> int:
    if not args:
        io.out(" ".join(sorted(TOYBOX)) + "\n")
        return 0
    name = posixpath.basename(args[0])
    if name not in TOYBOX:
        raise ShellError(f"toybox: Unknown command {name}", 1)
    return sh.dispatch([name, *args[1:]], io)


def cmd_which(sh: Session, args: list[str], io: Io) -> int:
    status = 0
    for name in [a for a in args if not a.startswith("-")]:
        if name == "su":
            io.out("/system/xbin/su\n")
        elif name in sh.commands and name not in SHELL_ONLY:
            io.out(f"/system/bin/{name}\n")
        else:
            status = 1
    return status


def cmd_command(sh: Session, args: list[str], io: Io) -> int:
    if args and args[0] in ("-v", "-V"):
        status = 0
        for name in args[1:]:
            if name in SHELL_ONLY:
                io.out(name + "\n")
            elif sh.commands.get(name):
                io.out(("/system/xbin/" if name == "su" else "/system/bin/") + name + "\n")
            else:
                status = 1
        return status
    return sh.dispatch(args, io) if args else 0


def cmd_id(sh: Session, args: list[str], io: Io) -> int:
    flags = "".join(a[1:] for a in args if a.startswith("-"))
    name = {0: "root", SHELL_UID: "shell", 1000: "system"}.get(sh.uid, str(sh.uid))
    if flags.strip("n") in ("u", "g"):
        io.out((name if "n" in flags else str(sh.uid)) + "\n")
        return 0
    if "G" in flags:
        groups = re.findall(r"(\d+)\((\w+)\)", ID_GROUPS.format(own=f"{sh.uid}({name})"))
        io.out(" ".join(g[1] if "n" in flags else g[0] for g in groups) + "\n")
        return 0
    if sh.uid == 0:
        io.out("uid=0(root) gid=0(root) " + ID_GROUPS.format(own="0(root)")
               + " context=u:r:su:s0\n")
    elif sh.uid == SHELL_UID:
        io.out("uid=2000(shell) gid=2000(shell) " + ID_GROUPS.format(own="2000(shell)")
               + " context=u:r:shell:s0\n")
    else:
        name = "system" if sh.uid == 1000 else str(sh.uid)
        io.out(f"uid={sh.uid}({name}) gid={sh.uid}({name}) groups={sh.uid}({name}) "
               "context=u:r:su:s0\n")
    return 0


def cmd_whoami(sh: Session, args: list[str], io: Io) -> int:
    io.out({0: "root", SHELL_UID: "shell", 1000: "system"}.get(sh.uid, str(sh.uid)) + "\n")
    return 0


def cmd_uname(sh: Session, args: list[str], io: Io) -> int:
    fields = {"s": "Linux", "n": "localhost", "r": "4.14.112+",
              "v": "#1 SMP PREEMPT Wed Oct 16 13:45:28 UTC 2019", "m": "x86_64",
              "o": "Toybox"}
    flags = "".join(a[1:] for a in args if a.startswith("-")) or "s"
    if "a" in flags:
        flags = "snrvm"
    io.out(" ".join(fields[f] for f in "snrvmo" if f in flags) + "\n")
    return 0


def cmd_getenforce(sh: Session, args: list[str], io: Io) -> int:
    io.out("Enforcing\n")
    return 0


def cmd_sync(sh: Session, args: list[str], io: Io) -> int:
    return 0


def cmd_sleep(sh: Session, args: list[str], io: Io) -> int:
    if not args:
        raise ShellError("sleep: Needs 1 argument", 1)
    total = 0.0
    for arg in args:
        m = re.fullmatch(r"(\d+(?:\.\d*)?|\.\d+)([smhd]?)", arg)
        if not m:
            raise ShellError(f"sleep: invalid number '{arg}'", 1)
        total += float(m.group(1)) * {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}[m.group(2)]
    if total > MAX_SLEEP_S:  # toybox parses into a time_t and reports ERANGE
        raise ShellError(f"sleep: {' '.join(args)}: Numerical result out of range", 1)
    try:
        sh.system.state.clock.advance(int(total * 1000))
    except ValueError:  # past the end of the virtual clock: refused, clock unchanged
        raise ShellError(f"sleep: {' '.join(args)}: Numerical result out of range", 1) from None
    return 0


MAX_SLEEP_S = 2**31 - 1
"""The longest single sleep (about 68 years of virtual time)."""


def cmd_basename(sh: Session, args: list[str], io: Io) -> int:
    if not args:
        raise ShellError("basename: Needs 1 argument", 1)
    name = posixpath.basename(args[0].rstrip("/")) or "/"
    if len(args) > 1 and name.endswith(args[1]) and name != args[1]:
        name = name[:-len(args[1])]
    io.out(name + "\n")
    return 0


def cmd_dirname(sh: Session, args: list[str], io: Io) -> int:
    if not args:
        raise ShellError("dirname: Needs 1 argument", 1)
    io.out((posixpath.dirname(args[0].rstrip("/")) or ".") + "\n")
    return 0


def cmd_test(sh: Session, args: list[str], io: Io) -> int:
    return _test(sh, args, "test", io)


def cmd_bracket(sh: Session, args: list[str], io: Io) -> int:
    if not args or args[-1] != "]":
        io.err(f"{SH}: [: missing ]\n")
        return 2
    return _test(sh, args[:-1], "[", io)


def _test(sh: Session, args: list[str], name: str, io: Io) -> int:
    pos = 0

    def number(text: str) -> int:
        try:
            return int(text.strip())
        except ValueError:
            raise ShellError(f"{SH}: {name}: {text}: bad number", 2) from None

    def primary() -> bool:
        nonlocal pos
        if pos >= len(args):
            raise ShellError(f"{SH}: {name}: argument expected", 2)
        token = args[pos]
        if token == "!":
            pos += 1
            return not primary()
        if token == "(":
            pos += 1
            value = disjunction()
            if pos >= len(args) or args[pos] != ")":
                raise ShellError(f"{SH}: {name}: ')' expected", 2)
            pos += 1
            return value
        if pos + 2 < len(args) and args[pos + 1] in _TEST_BINARY:
            left, op, right = args[pos], args[pos + 1], args[pos + 2]
            pos += 3
            if op in ("=", "=="):
                return left == right
            if op == "!=":
                return left != right
            if op == "<":
                return left < right
            if op == ">":
                return left > right
            a, b = number(left), number(right)
            return {"-eq": a == b, "-ne": a != b, "-lt": a < b, "-le": a <= b,
                    "-gt": a > b, "-ge": a >= b}[op]
        if token in _TEST_UNARY and pos + 1 < len(args):
            operand = args[pos + 1]
            pos += 2
            if token == "-z":
                return operand == ""
            if token == "-n":
                return operand != ""
            if token == "-t":
                return False
            real = normalize(sh.path(operand))
            if token == "-d":
                return sh.vfs.is_dir(real)
            if token == "-f":
                return real in sh.vfs.files
            if token == "-s":
                return real in sh.vfs.files and len(sh.vfs.files[real]) > 0
            if token in ("-L", "-h", "-b", "-c", "-p", "-S"):
                return False
            return sh.vfs.exists(real)
        pos += 1
        return token != ""

    def conjunction() -> bool:
        nonlocal pos
        value = primary()
        while pos < len(args) and args[pos] == "-a":
            pos += 1
            value = primary() and value
        return value

    def disjunction() -> bool:
        nonlocal pos
        value = conjunction()
        while pos < len(args) and args[pos] == "-o":
            pos += 1
            value = conjunction() or value
        return value

    if not args:
        return 1
    try:
        result = disjunction()
        if pos != len(args):
            raise ShellError(f"{SH}: {name}: {args[pos]}: unexpected operator", 2)
    except ShellError as exc:
        io.err(exc.message)
        return 2
    return 0 if result else 1


COMMANDS: dict[str, Tool] = {
    "true": cmd_true,
    ":": cmd_true,
    "false": cmd_false,
    "exit": cmd_exit,
    "echo": cmd_echo,
    "printf": cmd_printf,
    "pwd": cmd_pwd,
    "cd": cmd_cd,
    "export": cmd_export,
    "unset": cmd_unset,
    "env": cmd_env,
    "exec": cmd_exec,
    "sh": cmd_sh,
    "su": cmd_su,
    "toybox": cmd_toybox,
    "which": cmd_which,
    "command": cmd_command,
    "id": cmd_id,
    "whoami": cmd_whoami,
    "uname": cmd_uname,
    "getenforce": cmd_getenforce,
    "sync": cmd_sync,
    "sleep": cmd_sleep,
    "basename": cmd_basename,
    "dirname": cmd_dirname,
    "test": cmd_test,
    "[": cmd_bracket,
}

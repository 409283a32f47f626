"""One `adb shell` invocation: the language around the commands.

Scripts are lexed and parsed (`lexer.py`, `parser.py`), words expanded (`expansion.py`),
then run here: `;`, `&&` and `||` lists, pipelines, redirections, exit statuses, and the
guard that puts the phone back as it was when a command fails half-way. The commands
themselves are in `commands/`; a `Session` runs whatever table of them it is given (the
`Shell` of this package has them all). The phone is reached only through `host.Phone`.
"""

from __future__ import annotations

import pickle
import posixpath
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, ClassVar

from bmoca.bytecache import byte_lru
from bmoca.device.contract import InvalidInput
from bmoca.formats.apps import all_apps
from bmoca.sim.shell.errors import MAX_COMMAND_CHARS, MAX_DEPTH, SH, SHELL_UID, Exit, Io, ShellError
from bmoca.sim.shell.expansion import ASSIGNMENT, WordExpansion
from bmoca.sim.shell.helpers import reason
from bmoca.sim.shell.lexer import lex
from bmoca.sim.shell.parser import Command, Script, parse
from bmoca.sim.shell.tools import SHELL_ONLY, reads_only
from bmoca.sim.system.settings import uri
from bmoca.sim.system.statecopy import Checkpoint
from bmoca.sim.system.vfs import FsError, normalize

if TYPE_CHECKING:
    from bmoca.sim.shell.host import Phone
    from bmoca.sim.system.server import SystemServer
    from bmoca.sim.system.vfs import VirtualFS

Tool = Callable[["Session", list[str], Io], int]
"""A command: `(session, args, io) -> exit status`; what it prints goes to `io`."""
PARSED_SCRIPTS_BYTES = 8 << 20
"""Parsed command lines kept, in bytes: a line is up to MAX_COMMAND_CHARS long."""


class Session(WordExpansion):
    """One `adb shell` invocation: `run(cmd)` -> (stdout+stderr, exit status, state changed)."""

    commands: ClassVar[Mapping[str, Tool]] = {}
    """Command name -> tool; `Shell` installs every module of `commands/`."""

    def __init__(self, device: Phone):
        self.device = device
        self.uid = SHELL_UID
        self.cwd = "/"
        self.status = 0
        self.changed = False
        self.depth = 0
        self.env: dict[str, str] = {
            "HOME": "/", "PATH": "/product/bin:/apex/com.android.runtime/bin:/system/bin:"
            "/system/xbin:/odm/bin:/vendor/bin:/vendor/xbin", "SHELL": SH, "USER": "shell",
            "HOSTNAME": "localhost", "EXTERNAL_STORAGE": "/sdcard", "ANDROID_DATA": "/data",
            "ANDROID_ROOT": "/system", "ANDROID_STORAGE": "/storage", "TMPDIR": "/data/local/tmp",
            "ASEC_MOUNTPOINT": "/mnt/asec", "LOGNAME": "shell", "TERM": "dumb",
        }
        self._side: list[tuple[int, str]] = []

    @property
    def system(self) -> SystemServer:
        return self.device.server  # what a command changes, `run` reports

    @property
    def vfs(self) -> VirtualFS:
        return self.device.server.state.vfs

    def run(self, cmd: str) -> tuple[str, int, bool]:
        """Run one command line as `adb shell CMD` does (stdout and stderr merged, in
        order); never raises."""
        chunks, status, changed = self.run_chunks(cmd)
        return "".join(text for _, text in chunks), status, changed

    def run_chunks(self, cmd: str, stdin: str = "") -> tuple[list[tuple[int, str]], int, bool]:
        """Like `run`, but stdout (fd 1) and stderr (fd 2) stay apart, in order, and the
        script reads `stdin` (what ADB's shell protocol v2 carries)."""
        self.changed = False
        if len(cmd) > MAX_COMMAND_CHARS:  # execve's E2BIG: refused before any parsing
            return [(2, f"{SH}: Argument list too long\n")], 126, False
        try:
            chunks, status = self._run_text(cmd, stdin)
        except ShellError as exc:
            return [(2, exc.message)] if exc.message else [], exc.code, self.changed
        except Exception as exc:  # noqa: BLE001 - the shell must never let an error out
            return [(2, f"{SH}: internal error: {type(exc).__name__}: {exc}\n")], 255, True
        return chunks, status & 0xFF, self.changed

    def _run_text(self, text: str, stdin: str) -> tuple[list[tuple[int, str]], int]:
        if self.depth >= MAX_DEPTH:
            raise ShellError(f"{SH}: too many nested shells", 1)
        script = _parsed(text)
        self.depth += 1
        try:
            return self._run_script(script, stdin)
        finally:
            self.depth -= 1

    def _run_script(self, script: Script, stdin: str) -> tuple[list[tuple[int, str]], int]:
        chunks: list[tuple[int, str]] = []
        for connector, pipeline in script:
            if connector == "&&" and self.status != 0:
                continue
            if connector == "||" and self.status == 0:
                continue
            try:
                out, self.status = self._run_pipeline(pipeline, stdin)
            except Exit as ex:
                chunks.extend(ex.chunks)
                self.status = ex.code
                break
            chunks.extend(out)
        return chunks, self.status

    def _run_pipeline(self, pipeline: list[Command], stdin: str) -> tuple[list[tuple[int, str]], int]:
        chunks: list[tuple[int, str]] = []
        data = stdin
        status = 0
        for k, cmd in enumerate(pipeline):
            last = k == len(pipeline) - 1
            try:
                out, status = self._run_command(cmd, data)
            except Exit as ex:
                if len(pipeline) == 1:
                    raise
                out, status = ex.chunks, ex.code  # a pipeline stage runs in a subshell
            if last:
                chunks.extend(out)
            else:
                data = "".join(text for fd, text in out if fd == 1)
                chunks.extend((fd, text) for fd, text in out if fd != 1)
        return chunks, status

    def _run_command(self, cmd: Command, stdin: str) -> tuple[list[tuple[int, str]], int]:
        side: list[tuple[int, str]] = []
        saved, self._side = self._side, side
        try:
            argv: list[str] = []
            for raw in cmd.words:
                argv.extend(self._expand_word(raw))
            targets = []
            for redirect in cmd.redirects:
                words = self._expand_word(redirect.target)
                if len(words) != 1:
                    raise ShellError(f"{SH}: {redirect.target}: ambiguous redirect", 1)
                targets.append((redirect, words[0]))
        except ShellError as exc:
            return side + [(2, exc.message)], exc.code
        finally:
            self._side = saved
        while argv and ASSIGNMENT.fullmatch(argv[0]):
            name, value = ASSIGNMENT.fullmatch(argv.pop(0)).groups()  # type: ignore[union-attr]
            if not argv:
                self.env[name] = value
        routes: dict[int, tuple] = {0: ("data", stdin), 1: ("std", 1), 2: ("std", 2)}
        files: dict[str, list[str]] = {}
        try:
            for redirect, target in targets:
                fds = (1, 2) if redirect.fd == -1 else (redirect.fd,)
                if redirect.op in (">&", "<&"):
                    if target == "-":
                        route: tuple = ("null",)
                    elif target.isdigit() and int(target) in routes:
                        route = routes[int(target)]
                    else:
                        raise ShellError(f"{SH}: {target}: illegal file descriptor name", 1)
                elif redirect.op == "<":
                    route = ("data", self._read_input(target))
                else:
                    route = self._open_output(target, redirect.op == ">>", files)
                for fd in fds:
                    routes[fd] = route
        except ShellError as exc:
            return side + [(2, exc.message)], exc.code
        stdin_route = routes.get(0, ("data", ""))
        io = Io(stdin_route[1] if stdin_route[0] == "data" else "")
        exit_exc: Exit | None = None
        try:
            status = self.dispatch(argv, io) if argv else 0
        except Exit as ex:
            exit_exc, status = ex, ex.code
        result = list(side)
        for fd, text in io.chunks:
            dest = routes.get(fd, ("std", fd))
            if dest[0] == "std":
                result.append((dest[1], text))
            elif dest[0] == "file":
                files[dest[1]].append(text)
        for path, parts in files.items():
            if parts:
                data = "".join(parts).encode("utf-8", "surrogateescape")
                try:
                    self.vfs.write(path, self.vfs.files.get(path, b"") + data, make_parents=False)
                except FsError:
                    pass  # the command removed the file's directory: the data goes nowhere
                self.changed = True
        if exit_exc is not None:
            exit_exc.chunks = result
            raise exit_exc
        return result, status

    def _read_input(self, target: str) -> str:
        path = self.path(target)
        if path == "/dev/null":
            return ""
        try:
            return self.vfs.read(path).decode("utf-8", "replace")
        except FsError as exc:
            raise ShellError(f"{SH}: can't open {target}: {reason(exc)}", 1) from None

    def _open_output(self, target: str, append: bool, files: dict[str, list[str]]) -> tuple:
        path = self.path(target)
        if path == "/dev/null":
            return ("null",)
        if path in ("/dev/stdout", "/dev/tty", "/proc/self/fd/1"):
            return ("std", 1)
        if path in ("/dev/stderr", "/proc/self/fd/2"):
            return ("std", 2)
        real = normalize(path)
        if self.read_only(real):
            raise ShellError(f"{SH}: can't create {target}: Read-only file system", 1)
        if self.vfs.is_dir(real):
            raise ShellError(f"{SH}: can't create {target}: Is a directory", 1)
        if not self.vfs.is_dir(posixpath.dirname(real)):
            raise ShellError(f"{SH}: can't create {target}: No such file or directory", 1)
        if not append or not self.vfs.exists(real):
            self.vfs.write(real, b"", make_parents=False)
            self.changed = True
        files.setdefault(real, [])
        return ("file", real)

    def dispatch(self, argv: list[str], io: Io) -> int:
        """Run one command with its handler; errors become messages and exit statuses."""
        name = argv[0]
        handler = self.handler(name)
        if handler is None:
            io.err(f"{SH}: {name}: inaccessible or not found\n")
            return 127
        base = posixpath.basename(name)
        guard = not reads_only(base, argv[1:])
        before = Checkpoint(self.system.state) if guard else None
        log_serial = self.system.state.logs.serial
        try:
            return int(handler(self, argv[1:], io) or 0)
        except (ShellError, Exit) as exc:
            if isinstance(exc, Exit):
                raise
            io.err(exc.message)
            return exc.code
        except InvalidInput as exc:
            io.err(f"{base}: {exc}\n")
            return 1
        except Exception as exc:  # noqa: BLE001 - a bug in a command must not corrupt the phone
            if before is not None:
                self._restore(before, log_serial)
            self.changed = True
            io.err(f"{base}: internal error: {type(exc).__name__}: {exc}\n")
            return 255
        finally:
            if before is not None and not self.changed:
                self.changed = before.changed(self.system.state)

    def _restore(self, before: Checkpoint, log_serial: int) -> None:
        """Put the state back as it was before a command that failed half-way."""
        logs = self.system.state.logs
        for _ in range(min(logs.serial - log_serial, len(logs.entries))):
            logs.entries.pop()
        logs.serial = min(logs.serial, log_serial)
        state = before.restore(logs)
        self.device.restore_bytes(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))

    def handler(self, name: str) -> Tool | None:
        if "/" in name:
            directory, base = posixpath.split(name)
            if directory.rstrip("/") not in ("/system/bin", "/system/xbin", "/bin", "/sbin",
                                              "/vendor/bin", "/product/bin"):
                return None
            if base in SHELL_ONLY:
                return None
            return self.commands.get(base)
        return self.commands.get(name)

    def nested(self, text: str, io: Io, stdin: str | None = None) -> int:
        """Run a script (`sh -c`, `su -c`) inside this command, keeping its streams apart."""
        chunks, status = self._run_text(text, io.stdin if stdin is None else stdin)
        io.chunks.extend(chunks)
        return status

    def path(self, path: str) -> str:
        return posixpath.normpath(posixpath.join(self.cwd, path)) if path else self.cwd

    @staticmethod
    def read_only(real: str) -> bool:
        return any(real == top or real.startswith(top + "/")
                   for top in ("/system", "/vendor", "/product", "/apex", "/proc"))

    def app(self, package: str):
        return self.system.apps.get(package)

    def log_system(self, priority: str, tag: str, message: str) -> None:
        self.system.log_system(priority, tag, message)

    def notify_setting(self, namespace: str, key: str) -> None:
        """SettingsProvider's change notification, for the writes that bypass put_setting."""
        self.log_system("V", "SettingsProvider", f"Notifying for 0: {uri(namespace, key)}")

    def launcher_activity(self, package: str) -> str | None:
        app = self.app(package)
        if app is None:
            return None
        for info in all_apps():
            if info.package == package and info.activity in app.activities:
                return info.activity
        return None

    def display_metrics(self) -> tuple[int, int, int, int, int]:
        """(width, height, density, status bar px, nav bar px) as the display is now."""
        width, height = self.system.screen_px()
        density = self.system.density
        return width, height, density, round(24 * density / 160), round(48 * density / 160)

    def configuration(self) -> str:
        """A Configuration.toString() that matches the simulated display and locale."""
        from bmoca.sim.i18n import strings

        width, height, density, status, nav = self.display_metrics()
        scale = 160 / density
        sw = round(min(width, height) * scale)
        w_dp, h_dp = round(width * scale), round((height - status - nav) * scale)
        locale = self.system.locale.replace("-", "_")
        direction = "ldrtl" if strings(self.system.locale).rtl else "ldltr"
        night = " night" if self.system.night_mode else ""
        return (f"{{{self.system.font_scale!r} 310mcc260mnc [{locale}] {direction} sw{sw}dp "
                f"w{w_dp}dp h{h_dp}dp {density}dpi nrml long port{night} finished}}")


@byte_lru(PARSED_SCRIPTS_BYTES)
def _parsed(text: str) -> Script:
    """A command line parsed once: detectors send the same few lines at every step
    (the script is only read when it runs; a syntax error is raised again each time)."""
    return parse(lex(text))

"""The emulator console (the even port, adb port - 1): `adb emu avd snapshot ...`, `kill`.

Line protocol with CRLF ends; every command ends in `OK` or one `KO: ...` line. Any auth
`auth` must give the content of `~/.emulator_console_auth_token`, which is created with a
fresh token when missing, as the emulator does (adb reads it for `adb emu`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bmoca.sim.device import SimDevice

LINE_MAX = 64 * 1024
"""Longest console command line: asyncio's stream limit, which `serve`'s reader has."""
DISCARD_MAX = 1024 * 1024
"""How much of a too-long line is read and dropped before the console hangs up anyway."""

GREETING = ("Android Console: Authentication required\r\n"
            "Android Console: type 'auth <auth_token>' to authenticate\r\n"
            "Android Console: you can find your <auth_token> in \r\n"
            "'/root/.emulator_console_auth_token'\r\nOK\r\n")


def auth_token(home: Path | None = None) -> str:
    """The console token from `~/.emulator_console_auth_token`, created when missing.

    The token is a secret (it grants `kill` and snapshots), so a new file is created 0600
    from the start, never world-readable even for a moment or under a lax umask.
    """
    path = (home or Path.home()) / ".emulator_console_auth_token"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    token = secrets.token_urlsafe(12)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another server made it meanwhile: use theirs
        return path.read_text().strip()
    except OSError:
        return token  # an unwritable home: this run's console still has a token
    with os.fdopen(fd, "w") as out:
        out.write(token)
    return token


class Console:
    def __init__(self, device: SimDevice, avd_name: str, on_kill: Callable[[], None],
                 token: str = ""):
        self.device = device
        self.avd_name = avd_name
        self.on_kill = on_kill
        self.token = token

    def answer(self, line: str, session: dict) -> tuple[str, bool]:
        """The reply to one command line, and whether the connection ends."""
        words = line.split()
        if not words:
            return "", False
        if words[0] in ("quit", "exit"):
            return "", True
        if words[0] == "auth":
            if self.token and (len(words) != 2 or words[1] != self.token):
                return ("KO: authentication token does not match "
                        "~/.emulator_console_auth_token\r\n"), False
            session["authed"] = True
            return "Android Console: type 'help' for a list of commands\r\nOK\r\n", False
        if self.token and not session.get("authed"):
            return "KO: authentication required; use 'auth <auth_token>'\r\n", False
        if words[0] == "ping":
            return "I am alive!\r\nOK\r\n", False
        if words[0] == "help":
            return ("Android console commands:\r\n    help|h|?         print a list of commands\r\n"
                    "    avd              control virtual device execution\r\n"
                    "    kill             kill the emulator instance\r\n"
                    "    ping             check if the emulator is alive\r\nOK\r\n"), False
        if words[0] == "kill":
            self.on_kill()
            return "OK: killing emulator, bye bye\r\n", True
        if words[0] == "avd":
            return self._avd(words[1:]), False
        return "KO: unknown command, try 'help'\r\n", False

    def _avd(self, args: list[str]) -> str:
        if args == ["name"]:
            return f"{self.avd_name}\r\nOK\r\n"
        if len(args) >= 2 and args[0] == "snapshot":
            sub, rest = args[1], args[2:]
            if sub == "list":
                names = self.device.snapshots()
                if not names:
                    return "There is no snapshot available\r\nOK\r\n"
                rows = "".join(f"--  {n}  0M 1970-01-01 00:00:00  00:00:00.000\r\n" for n in names)
                return ("List of snapshots present on all disks:\r\n"
                        "ID  TAG  VM SIZE  DATE  VM CLOCK\r\n" + rows + "OK\r\n")
            if sub in ("save", "load", "del", "delete") and len(rest) == 1:
                name = rest[0]
                try:
                    if sub == "save":
                        self.device.snapshot_save(name)
                    elif sub == "load":
                        self.device.snapshot_load(name)
                    else:
                        if name not in self.device.snapshots():
                            raise KeyError(name)
                        self.device._snapshots.pop(name, None)
                        if self.device.snapshot_dir is not None:
                            (self.device.snapshot_dir / f"{name}.snapshot").unlink(missing_ok=True)
                except Exception as exc:  # noqa: BLE001 - the console reports, never dies
                    return f"KO: snapshot {sub} '{name}' failed: {exc}\r\n"
                return "OK\r\n"
            return "KO: bad snapshot arguments; use save|load|del NAME or list\r\n"
        return "KO: unknown avd command; try 'avd name' or 'avd snapshot list'\r\n"

    async def _refuse_long_line(self, reader: asyncio.StreamReader,
                                writer: asyncio.StreamWriter) -> None:
        """One `KO:` line for a line over LINE_MAX; the rest of it (up to DISCARD_MAX) is
        read and dropped so closing does not reset the connection before the client reads
        the reply."""
        writer.write(f"KO: command line too long (over {LINE_MAX} bytes)\r\n".encode())
        await writer.drain()
        dropped = 0
        while dropped < DISCARD_MAX:
            try:
                await reader.readuntil(b"\n")
                return
            except asyncio.IncompleteReadError:
                return
            except asyncio.LimitOverrunError as over:
                await reader.readexactly(over.consumed)
                dropped += over.consumed

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            writer.write(GREETING.encode())
            await writer.drain()
            session: dict = {}
            while True:
                try:
                    raw = await reader.readuntil(b"\n")
                except asyncio.IncompleteReadError as end:  # a last line with no newline
                    raw = end.partial
                except asyncio.LimitOverrunError:  # no newline within LINE_MAX
                    await self._refuse_long_line(reader, writer)
                    break
                if not raw:
                    break
                reply, done = self.answer(raw.decode("utf-8", "replace").strip(), session)
                if reply:
                    writer.write(reply.encode())
                    await writer.drain()
                if done:
                    break
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

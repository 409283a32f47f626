"""Serve simulated phones over ADB: one adb port (odd) and one console port (even) each.

The adb server sees each as an emulator: it is either found by the server's start-up scan
(ports 5555-5585), announced with `host:emulator:PORT` (what the real emulator does; the
serial becomes `emulator-(PORT-1)`), or reached with `adb connect 127.0.0.1:PORT`.
Everything runs on one asyncio loop, in a thread of its own when started with `start()`.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import socket
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bmoca.sim.adb import protocol as p
from bmoca.sim.adb.console import LINE_MAX, Console, auth_token
from bmoca.sim.adb.listener import Listener
from bmoca.sim.adb.services import Services
from bmoca.sim.adb.transport import Connection

if TYPE_CHECKING:
    from bmoca.sim.device import SimDevice

LOOPBACK = "127.0.0.1"


def is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(socket.gethostbyname(host)).is_loopback
    except (OSError, ValueError):
        return False


def host_problem(host: str) -> str | None:
    """Why the servers could not listen on `host` (None when they can): it must resolve
    and be an address of this machine. Checked with a throwaway bind to an ephemeral port,
    so a bad value is reported before anything is printed or built."""
    try:
        infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as exc:
        return f"cannot resolve {host!r}: {getattr(exc, 'strerror', None) or exc}"
    family, kind, proto, _, address = infos[0]
    try:
        with socket.socket(family, kind, proto) as probe:
            probe.bind((address[0], 0, *address[2:]))
    except OSError as exc:
        return f"{host!r} is not an address of this machine: {exc.strerror or exc}"
    return None


def register(port: int, server_port: int = 5037, server_host: str = LOOPBACK,
             timeout: float = 2.0) -> bool:
    """Announce an emulator on `port` to the adb server (`host:emulator:PORT`).

    Returns False when no adb server listens there (it will then find the phone at its
    own start-up if `port` is in 5555-5585, or via `adb connect`).
    """
    request = f"host:emulator:{port}".encode()
    try:
        with socket.create_connection((server_host, server_port), timeout=timeout) as sock:
            sock.sendall(b"%04x" % len(request) + request)
            with contextlib.suppress(OSError):
                sock.settimeout(0.2)
                sock.recv(64)
        return True
    except OSError:
        return False


@dataclass
class ServedPhone:
    """One simulated phone on an adb port (and its console on port - 1)."""

    device: SimDevice
    port: int
    name: str = "bmoca"
    console: bool = True
    servers: list[Listener] = field(default_factory=list)
    connections: set[Connection] = field(default_factory=set)

    @property
    def serial(self) -> str:
        return f"emulator-{self.port - 1}"

    def banner(self) -> bytes:
        model = self.device.hardware.model.replace(" ", "_")
        return p.banner("sdk_gphone_x86_64", model, "generic_x86_64")


class AdbEndpoint:
    """Runs the servers for several phones; `start()` in a thread, `stop()` ends all."""

    def __init__(self, host: str = LOOPBACK):
        self.host = host
        self.phones: list[ServedPhone] = []
        self.loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._stopped = threading.Event()

    def add(self, device: SimDevice, port: int, name: str = "bmoca", console: bool = True) -> ServedPhone:
        if port % 2 == 0 and console:
            raise ValueError(f"adb port {port} must be odd: the console takes port - 1, "
                             "as an emulator's does (e.g. 5555 with console 5554)")
        phone = ServedPhone(device, port, name, console)
        self.phones.append(phone)
        return phone

    async def _open(self, phone: ServedPhone) -> None:
        services = Services(phone.device)

        async def on_adb(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            sock = writer.get_extra_info("socket")
            if sock is not None:
                with contextlib.suppress(OSError):
                    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            conn = Connection(reader, writer, phone.banner(), services.open)
            phone.connections.add(conn)
            try:
                await conn.serve()
            finally:
                phone.connections.discard(conn)

        phone.servers.append(await Listener.open(self.host, phone.port, on_adb))
        if phone.console:
            console = Console(phone.device, phone.name, lambda: self._kill(phone), auth_token())
            phone.servers.append(await Listener.open(self.host, phone.port - 1, console.serve,
                                                     limit=LINE_MAX))

    def _kill(self, phone: ServedPhone) -> None:
        """`adb emu kill`: this phone's ports close; the endpoint stops with its last phone."""
        assert self.loop is not None

        def close() -> None:
            for server in phone.servers:
                server.close()
            for conn in list(phone.connections):
                conn.writer.close()
            phone.servers.clear()
            if all(not ph.servers for ph in self.phones):
                self._stopped.set()

        self.loop.call_later(0.05, close)

    async def open_all(self) -> None:
        self.loop = asyncio.get_running_loop()
        for phone in self.phones:
            await self._open(phone)

    def start(self) -> None:
        """Bind every port (errors surface here), then serve in a daemon thread."""
        ready = threading.Event()
        errors: list[BaseException] = []
        loop = asyncio.new_event_loop()

        def main() -> None:
            asyncio.set_event_loop(loop)
            try:
                loop.run_until_complete(self.open_all())
            except BaseException as exc:  # noqa: BLE001 - reported to the caller
                errors.append(exc)
                ready.set()
                return
            ready.set()
            loop.run_forever()
            for phone in self.phones:
                for server in phone.servers:
                    server.close()
            loop.run_until_complete(asyncio.sleep(0))
            loop.close()

        self._thread = threading.Thread(target=main, name="bmoca-adb", daemon=True)
        self._thread.start()
        ready.wait()
        if errors:
            self._thread.join()
            raise errors[0]

    def wait(self, timeout: float | None = None) -> bool:
        """Block until `adb emu kill` stopped every phone (or the timeout); True if stopped."""
        return self._stopped.wait(timeout)

    def call(self, fn, *args):
        """Run `fn(*args)` on the server's loop (the phones are not thread-safe) and return it."""
        assert self.loop is not None
        future: asyncio.Future = asyncio.run_coroutine_threadsafe(_call(fn, *args), self.loop)
        return future.result()

    async def _shutdown(self) -> None:
        """Close listeners and every host connection (the adb server sees the phone go)."""
        for phone in self.phones:
            for server in phone.servers:
                server.close()
            phone.servers.clear()
            for conn in list(phone.connections):
                conn.writer.close()
        current = asyncio.current_task()
        tasks = [t for t in asyncio.all_tasks() if t is not current]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def stop(self) -> None:
        if self.loop is not None and self._thread is not None and self._thread.is_alive():
            with contextlib.suppress(Exception):
                asyncio.run_coroutine_threadsafe(self._shutdown(), self.loop).result(timeout=5)
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(timeout=5)
        self._stopped.set()


async def _call(fn, *args):
    return fn(*args)

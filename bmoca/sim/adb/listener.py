"""Listening sockets whose accept loop survives running out of file descriptors.

asyncio's own server (CPython 3.11) logs a full traceback for every failed accept(), up to
its backlog of 100 per wake-up, and re-arms once per failure: at the descriptor limit a
few idle connections make it write megabytes of tracebacks a second. This loop instead
logs one line at most once a second and pauses accepting briefly; the connections wait in
the kernel's backlog until a descriptor is free, as they do for adbd.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import socket
from collections.abc import Awaitable, Callable

log = logging.getLogger("bmoca.adb")

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]

OUT_OF_RESOURCES = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})
ACCEPT_BACKOFF_S = 0.1
"""Pause before the next accept() after running out of descriptors."""
LOG_EVERY_S = 1.0
"""At most one log line per listener in this many seconds."""


class Listener:
    """One port on every address `host` resolves to; `close()` stops accepting."""

    def __init__(self, sockets: list[socket.socket], handler: Handler, limit: int):
        self.sockets = sockets
        self.handler = handler
        self.limit = limit
        self.tasks: set[asyncio.Task] = set()
        self._last_log = float("-inf")
        self._unreported = 0
        loop = asyncio.get_running_loop()
        self._accepting = [loop.create_task(self._accept(sock)) for sock in sockets]

    @classmethod
    async def open(cls, host: str, port: int, handler: Handler, limit: int = 2 ** 16) -> Listener:
        """Bind and listen now, so a taken port raises OSError here (as start_server)."""
        loop = asyncio.get_running_loop()
        infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                       flags=socket.AI_PASSIVE)
        sockets: list[socket.socket] = []
        try:
            for family, kind, proto, _, address in dict.fromkeys(infos):
                sock = socket.socket(family, kind, proto)
                sockets.append(sock)
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                if family == socket.AF_INET6:
                    sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                sock.bind(address)
                sock.listen(100)
                sock.setblocking(False)
        except OSError:
            for sock in sockets:
                sock.close()
            raise
        return cls(sockets, handler, limit)

    async def _accept(self, sock: socket.socket) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                conn, _ = await loop.sock_accept(sock)
            except OSError as exc:
                if exc.errno not in OUT_OF_RESOURCES:
                    raise
                self._report(sock, exc, loop.time())
                await asyncio.sleep(ACCEPT_BACKOFF_S)
                continue
            task = loop.create_task(self._serve(conn))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    def _report(self, sock: socket.socket, exc: OSError, now: float) -> None:
        if now - self._last_log < LOG_EVERY_S:
            self._unreported += 1
            return
        host, port = sock.getsockname()[:2]
        more = f" ({self._unreported} more since the last report)" if self._unreported else ""
        log.warning("bmoca serve-adb: accept() on %s:%s failed: %s; new connections wait%s",
                    host, port, exc.strerror, more)
        self._last_log, self._unreported = now, 0

    async def _serve(self, conn: socket.socket) -> None:
        try:
            reader, writer = await asyncio.open_connection(sock=conn, limit=self.limit)
        except OSError:
            conn.close()
            return
        await self.handler(reader, writer)

    def close(self) -> None:
        for task in self._accepting:
            task.cancel()
        for sock in self.sockets:
            with contextlib.suppress(OSError):
                sock.close()

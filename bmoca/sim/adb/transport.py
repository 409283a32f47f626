"""One host connection: packets in and out, streams with ADB's one-WRTE-in-flight rule.

Every service runs as an asyncio task on a `Stream`; a lost connection ends them all
(reads give None, writes raise `ConnectionError`) so a client that disconnects in the
middle of a transfer costs the server nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable

from bmoca.sim.adb import protocol as p


class Stream:
    """A service's end of one ADB stream (local id on the device, remote id on the host)."""

    def __init__(self, conn: Connection, local_id: int, remote_id: int):
        self.conn = conn
        self.local_id = local_id
        self.remote_id = remote_id
        self._incoming: asyncio.Queue[bytes | None] = asyncio.Queue()
        self._may_send = asyncio.Event()
        self._may_send.set()
        self.closed = False

    # -- called by the connection -----------------------------------------------------------
    def _feed(self, data: bytes | None) -> None:
        self._incoming.put_nowait(data)

    def _okay(self) -> None:
        self._may_send.set()

    def _gone(self) -> None:
        self.closed = True
        self._incoming.put_nowait(None)
        self._may_send.set()

    # -- used by services -------------------------------------------------------------------
    async def read(self) -> bytes | None:
        """The next WRTE's payload from the host; None once the stream or connection closed."""
        if self.closed and self._incoming.empty():
            return None
        return await self._incoming.get()

    async def write(self, data: bytes) -> None:
        """Send `data`, split to the negotiated maxdata, waiting for OKAY after each WRTE."""
        view = memoryview(data)
        step = self.conn.max_data
        for start in range(0, len(view), step):
            await self._may_send.wait()
            if self.closed:
                raise ConnectionError("stream closed by the host")
            self._may_send.clear()
            self.conn.send(p.A_WRTE, self.local_id, self.remote_id, bytes(view[start:start + step]))
        await self._may_send.wait()
        if self.closed:
            raise ConnectionError("stream closed by the host")

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.conn.send(p.A_CLSE, self.local_id, self.remote_id)
            self.conn.streams.pop(self.local_id, None)


Service = Callable[[Stream], Awaitable[None]]
Opener = Callable[[str], "Service | None"]


class Connection:
    """The device side of one TCP connection from an adb server or client."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 banner: bytes, opener: Opener):
        self.reader = reader
        self.writer = writer
        self.banner = banner
        self.opener = opener
        self.version = p.A_VERSION
        self.max_data = p.MAX_PAYLOAD
        self.streams: dict[int, Stream] = {}
        self.tasks: set[asyncio.Task] = set()
        self._next_id = 1
        self.online = False

    def send(self, command: int, arg0: int, arg1: int, payload: bytes = b"") -> None:
        if self.writer.is_closing():
            return
        self.writer.write(p.pack(command, arg0, arg1, payload,
                                 with_checksum=self.version < p.A_VERSION))

    async def serve(self) -> None:
        try:
            while True:
                header = await self.reader.readexactly(p.HEADER.size)
                command, arg0, arg1, length = p.unpack_header(header)
                payload = await self.reader.readexactly(length) if length else b""
                self._handle(command, arg0, arg1, payload)
                await self.writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, p.ProtocolError, OSError):
            pass
        finally:
            for stream in list(self.streams.values()):
                stream._gone()
            self.streams.clear()
            for task in list(self.tasks):
                task.cancel()
            self.writer.close()
            with contextlib.suppress(Exception):
                await self.writer.wait_closed()

    def _handle(self, command: int, arg0: int, arg1: int, payload: bytes) -> None:
        """One packet. As adbd's handle_packet, stream packets count only once the transport
        is online: an OPEN sent before CNXN never runs, and AUTH before CNXN is dropped
        (ro.adb.secure=0, so CNXN alone brings it online)."""
        if command == p.A_CNXN:
            self.version = min(arg0, p.A_VERSION)
            self.max_data = max(256, min(arg1, p.MAX_PAYLOAD))
            self.online = True
            self.send(p.A_CNXN, p.A_VERSION, p.MAX_PAYLOAD, self.banner)
        elif not self.online:
            return  # nothing but CNXN before the handshake
        elif command == p.A_AUTH:
            # ro.adb.secure=0: any signature is accepted; answer with the banner again
            self.send(p.A_CNXN, p.A_VERSION, p.MAX_PAYLOAD, self.banner)
        elif command == p.A_OPEN:
            self._open(arg0, payload)
        elif command == p.A_OKAY:
            stream = self.streams.get(arg1)
            if stream is not None and stream.remote_id == arg0:
                stream._okay()
        elif command == p.A_WRTE:
            stream = self.streams.get(arg1)
            if stream is not None:  # late packets for closed streams are ignored
                self.send(p.A_OKAY, stream.local_id, stream.remote_id)
                stream._feed(payload)
        elif command == p.A_CLSE:
            stream = self.streams.pop(arg1, None)
            if stream is not None:
                stream._gone()
                self.send(p.A_CLSE, stream.local_id, stream.remote_id)

    def _open(self, remote_id: int, payload: bytes) -> None:
        name = payload.rstrip(b"\0").decode("utf-8", "replace")
        service = self.opener(name)
        if service is None or remote_id == 0:
            self.send(p.A_CLSE, 0, remote_id)
            return
        local_id = self._next_id
        self._next_id += 1
        stream = Stream(self, local_id, remote_id)
        self.streams[local_id] = stream
        self.send(p.A_OKAY, local_id, remote_id)
        task = asyncio.get_running_loop().create_task(self._run(service, stream))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _run(self, service: Service, stream: Stream) -> None:
        try:
            await service(stream)
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            stream.close()
            with contextlib.suppress(Exception):
                await self.writer.drain()

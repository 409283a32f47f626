"""The `sync:` service (adb pull/push/ls) over the simulator's virtual file system.

Requests are 4-byte ids + uint32 length + body and may be split or merged across WRTEs,
so the session buffers; a client may close at any point (adbutils never sends QUIT).
Times are the device's virtual clock, never the host's.
"""

from __future__ import annotations

import posixpath
import struct
from typing import TYPE_CHECKING

from bmoca.sim.adb.protocol import SYNC_DATA_MAX
from bmoca.sim.adb.transport import Stream

if TYPE_CHECKING:
    from bmoca.sim.device import SimDevice

S_IFDIR = 0o040000
S_IFREG = 0o100000
ENOENT = 2


class SyncSession:
    def __init__(self, device: SimDevice, stream: Stream):
        self.device = device
        self.stream = stream
        self.buf = bytearray()

    @property
    def vfs(self):
        return self.device.system.state.vfs

    async def _take(self, n: int) -> bytes | None:
        while len(self.buf) < n:
            data = await self.stream.read()
            if data is None:
                return None
            self.buf += data
        out = bytes(self.buf[:n])
        del self.buf[:n]
        return out

    async def _request(self) -> tuple[bytes, bytes] | None:
        head = await self._take(8)
        if head is None:
            return None
        ident, length = head[:4], struct.unpack("<I", head[4:])[0]
        if ident in (b"DATA", b"DONE"):
            return ident, struct.pack("<I", length)  # DONE carries mtime, DATA a length
        body = await self._take(length)
        if body is None:
            return None
        return ident, body

    def _now_s(self) -> int:
        return self.device.system.state.clock.now_ms // 1000

    def _stat(self, path: str) -> tuple[int, int] | None:
        """(mode, size) or None when missing."""
        vfs = self.vfs
        if vfs.is_dir(path):
            return S_IFDIR | 0o771, 4096
        if vfs.exists(path):
            return S_IFREG | 0o660, len(vfs.read(path))
        return None

    async def serve(self) -> None:
        while True:
            req = await self._request()
            if req is None:
                return
            ident, body = req
            path = body.decode("utf-8", "replace")
            if ident == b"QUIT":
                return
            if ident == b"STAT":
                st = self._stat(path)
                mode, size = st if st else (0, 0)
                mtime = self._now_s() if st else 0
                await self.stream.write(b"STAT" + struct.pack("<3I", mode, size, mtime))
            elif ident in (b"STA2", b"LST2"):
                st = self._stat(path)
                if st is None:
                    await self.stream.write(ident + struct.pack("<I", ENOENT) + bytes(64))
                else:
                    mode, size = st
                    t = self._now_s()
                    await self.stream.write(ident + struct.pack(
                        "<IQQIIIIQqqq", 0, 0, 0, mode, 1, 0, 0, size, t, t, t))
            elif ident == b"LIST":
                await self._list(path)
            elif ident == b"RECV":
                await self._recv(path)
            elif ident == b"SEND":
                if not await self._send(path):
                    return
            else:
                await self._fail(f"unknown sync request {ident!r}")
                return

    async def _fail(self, message: str) -> None:
        data = message.encode()
        await self.stream.write(b"FAIL" + struct.pack("<I", len(data)) + data)

    async def _list(self, path: str) -> None:
        out = bytearray()
        if self.vfs.is_dir(path):
            for name in [".", ".."] + sorted(self.vfs.listdir(path)):
                st = self._stat(posixpath.join(path, name)) if name not in (".", "..") else None
                mode, size = st if st else (S_IFDIR | 0o771, 4096)
                raw = name.encode()
                out += b"DENT" + struct.pack("<4I", mode, size, self._now_s(), len(raw)) + raw
        out += b"DONE" + bytes(16)
        await self.stream.write(bytes(out))

    async def _recv(self, path: str) -> None:
        from bmoca.sim.system.vfs import FsError

        try:
            data = self.vfs.read(path)
        except FsError as exc:
            reason = "No such file or directory" if "No such" in str(exc) else str(exc)
            await self._fail(f"open failed: {reason}")
            return
        out = bytearray()
        for start in range(0, len(data), SYNC_DATA_MAX):
            chunk = data[start:start + SYNC_DATA_MAX]
            out += b"DATA" + struct.pack("<I", len(chunk)) + chunk
        out += b"DONE" + struct.pack("<I", 0)
        await self.stream.write(bytes(out))

    async def _send(self, spec: str) -> bool:
        """Receive DATA chunks up to DONE, then write the file; False if the client left."""

        path, _, _mode = spec.rpartition(",")
        path = path or spec
        data = bytearray()
        while True:
            head = await self._take(8)
            if head is None:
                return False  # disconnected mid-push: nothing is written
            ident, length = head[:4], struct.unpack("<I", head[4:])[0]
            if ident == b"DATA":
                chunk = await self._take(length)
                if chunk is None:
                    return False
                data += chunk
            elif ident == b"DONE":
                break
            else:
                await self._fail(f"unexpected {ident!r} during SEND")
                return False
        try:
            self.device.push(bytes(data), path)
        except Exception as exc:  # noqa: BLE001 - the host shows the message
            await self._fail(str(exc))
            return True
        await self.stream.write(b"OKAY" + bytes(4))
        return True

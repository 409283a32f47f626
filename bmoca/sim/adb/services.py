"""The services a served phone answers: shell (v1 and v2), exec, sync, framebuffer.

Each service is a coroutine over a `Stream`; the phone itself is synchronous and runs on
the server's event loop, so commands from many clients never interleave inside it.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import shlex
import struct
import zlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bmoca.sim.adb import protocol as p
from bmoca.sim.adb.transport import Service, Stream

if TYPE_CHECKING:
    from bmoca.sim.device import SimDevice

STDIN_GRACE_S = 0.1
"""How long a v2 shell waits for stdin before running with none (clients that never
send close-stdin, e.g. adbutils' shell2(v2=True))."""
STDIN_MAX_S = 30.0


FRAME_CHUNK = 64 * 1024
"""Framebuffer bytes per WRTE: what one unacknowledged stream may hold uncompressed."""


@dataclass(frozen=True)
class Frame:
    """One captured screen for `framebuffer:`: header, and the RGBA pixels in FRAME_CHUNK
    slices compressed one by one (a UI screen shrinks ~20x), so many streams of one screen
    share ~0.5 MB instead of holding ~9 MB each."""

    digest: bytes
    header: bytes
    blocks: tuple[bytes, ...]


def screencap_png(device: SimDevice) -> bytes:
    """`screencap -p` bytes: the simulator's screenshot as an RGBA PNG, as the shell writes it."""
    buf = io.BytesIO()
    device.screenshot_image().convert("RGBA").save(buf, format="PNG")
    return buf.getvalue()


def screencap_raw(device: SimDevice) -> bytes:
    """`screencap` without -p: width, height, format RGBA_8888, dataspace sRGB, pixels."""
    rgba = device.screenshot_image().convert("RGBA")
    return struct.pack("<4I", rgba.width, rgba.height, 1, 1) + rgba.tobytes()


def _binary_stdout(device: SimDevice, cmd: str) -> bytes | None:
    """Commands whose stdout is binary and cannot pass the shell's text streams:
    `screencap [-p] [-d N]` with no file, and `cat FILE` of one existing file (so
    `adb exec-out cat app.db` is byte-exact). None for everything else."""
    try:
        argv = shlex.split(cmd)
    except ValueError:
        return None
    if argv and argv[0] == "exec":
        argv = argv[1:]
    if len(argv) == 2 and argv[0] in ("cat", "/system/bin/cat") and argv[1].startswith("/"):
        vfs = device.system.state.vfs
        if vfs.exists(argv[1]) and not vfs.is_dir(argv[1]):
            return vfs.read(argv[1])
        return None
    if not argv or argv[0] not in ("screencap", "/system/bin/screencap"):
        return None
    png = False
    i = 1
    while i < len(argv):
        arg = argv[i]
        if arg == "-d" and i + 1 < len(argv):
            i += 2
            continue
        if arg == "-p":
            png = True
        else:
            return None  # a file name, -h or a bad flag: the shell answers
        i += 1
    return screencap_png(device) if png else screencap_raw(device)


def run(device: SimDevice, cmd: str, stdin: bytes = b"") -> tuple[list[tuple[int, bytes]], int]:
    """Run one command line: ordered (fd, bytes) chunks and the exit status."""
    binary = _binary_stdout(device, cmd)
    if binary is not None:
        return [(1, binary)], 0
    return device.shell_streams(cmd, stdin)


class Services:
    """Maps service names (`shell,v2,raw:ls`, `sync:`, ...) to coroutines on one phone."""

    def __init__(self, device: SimDevice):
        self.device = device
        self._frame: Frame | None = None

    def open(self, name: str) -> Service | None:
        if name.startswith("shell,") or name.startswith("shell:"):
            head, _, cmd = name.partition(":")
            opts = head.split(",")[1:]
            if "v2" in opts:
                pty = "pty" in opts or ("raw" not in opts and not cmd)
                return lambda s: self.shell_v2(s, cmd, pty)
            return lambda s: self.shell_v1(s, cmd)
        if name.startswith("exec:"):
            cmd = name[len("exec:"):]
            return lambda s: self.shell_v1(s, cmd)
        if name.startswith("sync:"):
            return self.sync
        if name.startswith("framebuffer:"):
            return self.framebuffer
        return None

    # -- shell --------------------------------------------------------------------------------
    async def shell_v1(self, stream: Stream, cmd: str) -> None:
        """Raw bytes, stdout and stderr merged in the order produced, no exit code."""
        if not cmd.strip():
            await self._repl(stream, v2=False)
            return
        chunks, _ = run(self.device, cmd)
        data = b"".join(data for _, data in chunks)
        if data:
            await stream.write(data)

    async def shell_v2(self, stream: Stream, cmd: str, pty: bool) -> None:
        if not cmd.strip():
            await self._repl(stream, v2=True, echo=pty)
            return
        stdin = await self._v2_stdin(stream)
        chunks, code = run(self.device, cmd, stdin)
        if pty:  # a terminal has one output stream and ends lines with CRLF
            chunks = [(1, data.replace(b"\n", b"\r\n")) for _, data in chunks]
        out = b"".join(p.shell_packet(fd, data) for fd, data in chunks if data)
        await stream.write(out + p.shell_packet(p.SHELL_EXIT, bytes([code & 0xFF])))

    async def _v2_stdin(self, stream: Stream) -> bytes:
        """Collect stdin packets up to close-stdin; with none in a short grace, run without."""
        buf = bytearray()
        got: list[bytes] = []
        timeout = STDIN_GRACE_S
        while True:
            try:
                data = await asyncio.wait_for(stream.read(), timeout)
            except TimeoutError:
                return b"".join(got)
            if data is None:
                return b"".join(got)
            timeout = STDIN_MAX_S
            buf += data
            while len(buf) >= p.SHELL_HEADER.size:
                kind, length = p.SHELL_HEADER.unpack_from(buf)
                if len(buf) < p.SHELL_HEADER.size + length:
                    break
                body = bytes(buf[p.SHELL_HEADER.size:p.SHELL_HEADER.size + length])
                del buf[:p.SHELL_HEADER.size + length]
                if kind == p.SHELL_STDIN:
                    got.append(body)
                elif kind == p.SHELL_CLOSE_STDIN:
                    return b"".join(got)

    async def _repl(self, stream: Stream, v2: bool, echo: bool = False) -> None:
        """A shell reading commands from stdin, one per line, until `exit` or end of input;
        with a pty it echoes keystrokes and shows a prompt, as `adb shell` on a terminal."""
        prompt = b"generic_x86_64:/ # " if echo else b""

        async def out(fd: int, data: bytes) -> None:
            if not data:
                return
            if echo:
                data = data.replace(b"\n", b"\r\n")
            await stream.write(p.shell_packet(fd, data) if v2 else data)

        await out(1, prompt)
        pending = bytearray()
        raw = bytearray()
        status = 0
        while True:
            data = await stream.read()
            if data is None:
                return
            if v2:
                raw += data
                data = b""
                while len(raw) >= p.SHELL_HEADER.size:
                    kind, length = p.SHELL_HEADER.unpack_from(raw)
                    if len(raw) < p.SHELL_HEADER.size + length:
                        break
                    body = bytes(raw[p.SHELL_HEADER.size:p.SHELL_HEADER.size + length])
                    del raw[:p.SHELL_HEADER.size + length]
                    if kind == p.SHELL_STDIN:
                        data += body
                    elif kind == p.SHELL_CLOSE_STDIN:
                        data += b"\x04"
            for byte in data:
                ch = bytes([byte])
                if ch == b"\x04" and not pending:
                    if v2:
                        await stream.write(p.shell_packet(p.SHELL_EXIT, bytes([status])))
                    return
                if ch in (b"\r", b"\n"):
                    if echo:
                        await out(1, b"\n")
                    line = pending.decode("utf-8", "replace").strip()
                    pending.clear()
                    if line:
                        chunks, status = run(self.device, line)
                        for fd, text in chunks:
                            await out(fd, text)
                    if line.split()[:1] == ["exit"]:
                        if v2:
                            await stream.write(p.shell_packet(p.SHELL_EXIT, bytes([status])))
                        return
                    await out(1, prompt)
                elif ch in (b"\x7f", b"\x08"):
                    if pending:
                        pending.pop()
                        if echo:
                            await out(1, b"\b \b")
                elif ch != b"\x04":
                    pending += ch
                    if echo:
                        await out(1, ch)

    # -- framebuffer ---------------------------------------------------------------------------
    async def framebuffer(self, stream: Stream) -> None:
        """Version-1 header (13 uint32) then raw RGBA, as adbutils' framebuffer() reads it.

        As adbd's framebuffer_service, the frame is captured once and then written in
        chunks; each chunk is unpacked only after the host acknowledged (OKAY) the last, so
        a stream that is never read holds one chunk and its share of a compressed frame.
        """
        frame = self._capture()
        await stream.write(frame.header)
        for block in frame.blocks:
            await stream.write(zlib.decompress(block))

    def _capture(self) -> Frame:
        """The screen now, shared with earlier streams when it has not changed."""
        rgba = self.device.screenshot_image().convert("RGBA")
        (width, height), pixels = rgba.size, rgba.tobytes()
        del rgba  # only the compressed frame outlives this call
        digest = hashlib.blake2b(pixels, digest_size=16).digest()
        if self._frame is None or self._frame.digest != digest:
            header = struct.pack("<13I", 1, 32, len(pixels), width, height,
                                 0, 8, 16, 8, 8, 8, 24, 8)
            view = memoryview(pixels)
            blocks = tuple(zlib.compress(view[i:i + FRAME_CHUNK], 1)
                           for i in range(0, len(view), FRAME_CHUNK))
            self._frame = Frame(digest, header, blocks)
        return self._frame

    # -- sync ----------------------------------------------------------------------------------
    async def sync(self, stream: Stream) -> None:
        """STAT/STA2/LST2, LIST, RECV, SEND, QUIT; requests may be split across WRTEs."""
        from bmoca.sim.adb.sync import SyncSession

        await SyncSession(self.device, stream).serve()

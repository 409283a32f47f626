"""AdbDevice: a real emulator or phone (or a served simulator) behind the `Device` contract.

Discovery and `adb connect` go through `adbutils` (the optional extra `adb`); shell,
exec-out and sync speak the adb server's smart-socket protocol directly on one socket
each, because adbutils' own connection close sleeps 10 ms and a step makes several calls.
Every transport problem becomes a `DeviceError` naming the serial and what to do.
"""

from __future__ import annotations

import io
import os
import re
import shlex
import socket
import struct
import time
from pathlib import Path

import numpy as np

from bmoca.device import limits
from bmoca.device.backends import Backend
from bmoca.device.config import DeviceConfig
from bmoca.device.contract import KEYCODES, Device, DeviceError, InvalidInput, Key

DUMP_PATH = "/sdcard/window_dump.xml"
DUMP_TRIES = 5
DUMP_RETRY_S = 0.5
TIMEOUT_S = 60.0
ADB_KEYBOARD = "com.android.adbkeyboard"


def server_address() -> tuple[str, int]:
    """The adb server to use: ADB_SERVER_SOCKET (tcp:HOST:PORT), ANDROID_ADB_SERVER_PORT, 5037."""
    spec = os.environ.get("ADB_SERVER_SOCKET", "")
    if spec.startswith("tcp:"):
        host, _, port = spec[4:].rpartition(":")
        return host or "127.0.0.1", int(port)
    port = os.environ.get("ANDROID_ADB_SERVER_PORT")
    return "127.0.0.1", int(port) if port else 5037


def _require_adbutils():
    try:
        import adbutils
    except ImportError:
        raise DeviceError("AdbDevice needs adbutils: pip install 'bmoca[adb]'") from None
    return adbutils


def open_adb(target: str) -> AdbDevice:
    """`adb` (the only attached device), `adb:SERIAL` or `adb:HOST:PORT` (adb connect first)."""
    adbutils = _require_adbutils()
    host, port = server_address()
    client = adbutils.AdbClient(host=host, port=port)
    spec = target[len("adb"):].lstrip(":")
    try:
        if re.fullmatch(r"[^:]+:\d+", spec) and not spec.startswith("emulator-"):
            answer = client.connect(spec, timeout=10)
            if "connected" not in answer:
                raise DeviceError(f"adb connect {spec} failed: {answer.strip()}")
        if not spec:
            ready = [d.serial for d in client.device_list()]
            if len(ready) != 1:
                raise DeviceError(
                    f"`--device adb` needs exactly one attached device, found {len(ready)}"
                    f"{': ' + ', '.join(ready) if ready else ''}; name one with adb:SERIAL")
            spec = ready[0]
    except DeviceError:
        raise
    except Exception as exc:  # noqa: BLE001 - adbutils raises several kinds
        raise DeviceError(f"cannot reach the adb server at {host}:{port}: {exc}; "
                          "start it with `adb start-server`") from None
    return AdbDevice(spec, client, (host, port))


class AdbDevice(Device):
    """One device known to an adb server, addressed by serial."""

    def __init__(self, serial: str, client=None, server: tuple[str, int] | None = None):
        self.serial = serial
        self.server = server or server_address()
        if client is None:
            adbutils = _require_adbutils()
            client = adbutils.AdbClient(host=self.server[0], port=self.server[1])
        self.client = client
        self._size: tuple[int, int] | None = None
        self._keyboard: bool | None = None

    # -- transport ------------------------------------------------------------------------
    def _fail(self, what: str, detail: str) -> DeviceError:
        hint = ("the device is offline: wait for it, or restart it (emulator, or "
                "`bmoca serve-adb`) and run `adb reconnect offline`"
                if "offline" in detail else
                f"check `adb devices` lists {self.serial} as `device`")
        return DeviceError(f"{self.serial}: {what} failed: {detail}; {hint}")

    def _open(self, service: str, timeout: float = TIMEOUT_S) -> socket.socket:
        """A socket to `service` on this device through the adb server."""
        try:
            sock = socket.create_connection(self.server, timeout=timeout)
        except OSError as exc:
            raise DeviceError(f"{self.serial}: no adb server at {self.server[0]}:{self.server[1]} "
                              f"({exc}); start it with `adb start-server`") from None
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            for request in (f"host:transport:{self.serial}", service):
                data = request.encode()
                sock.sendall(b"%04x" % len(data) + data)
                status = _read_exact(sock, 4)
                if status != b"OKAY":
                    length = int(_read_exact(sock, 4), 16)
                    message = _read_exact(sock, length).decode("utf-8", "replace")
                    raise self._fail(f"opening {service.split(':')[0]}", message)
        except OSError as exc:
            sock.close()
            raise self._fail(f"opening {service.split(':')[0]}", str(exc)) from None
        except DeviceError:
            sock.close()
            raise
        return sock

    def shell_v2(self, cmd: str, stdin: bytes = b"") -> tuple[bytes, bytes, bytes, int]:
        """(stdout, stderr, both in order, exit status) through shell v2."""
        sock = self._open(f"shell,v2,raw:{cmd}")
        out, err, both = bytearray(), bytearray(), bytearray()
        try:
            if stdin:
                sock.sendall(struct.pack("<BI", 0, len(stdin)) + stdin)
            sock.sendall(struct.pack("<BI", 4, 0))  # close stdin: the command may start
            while True:
                head = _read_exact(sock, 5)
                kind, length = struct.unpack("<BI", head)
                body = _read_exact(sock, length)
                if kind == 1:
                    out += body
                    both += body
                elif kind == 2:
                    err += body
                    both += body
                elif kind == 3:
                    return bytes(out), bytes(err), bytes(both), body[0] if body else 255
        except (OSError, EOFError) as exc:
            raise self._fail(f"`{cmd}`", f"connection lost ({exc or 'closed'})") from None
        finally:
            sock.close()

    def exec_out(self, cmd: str) -> bytes:
        """Raw stdout bytes of `cmd` (exec:), as `adb exec-out` gives them."""
        sock = self._open(f"exec:{cmd}")
        chunks = []
        try:
            while True:
                data = sock.recv(1 << 20)
                if not data:
                    return b"".join(chunks)
                chunks.append(data)
        except OSError as exc:
            raise self._fail(f"exec-out {cmd}", str(exc)) from None
        finally:
            sock.close()

    def _input(self, args: str) -> None:
        _, err, both, code = self.shell_v2(f"input {args}")
        if code != 0 or err.strip():
            raise self._fail(f"`input {args}`", both.decode("utf-8", "replace").strip()
                             or f"exit status {code}")

    # -- screen -----------------------------------------------------------------------------
    def screen_size(self) -> tuple[int, int]:
        """`wm size` (the override when there is one), swapped when the display is rotated."""
        if self._size is None:
            text = self.shell_v2("wm size; dumpsys display | grep -m1 -o 'orientation=[0-9]'")[0]
            text = text.decode("utf-8", "replace")
            match = (re.search(r"Override size: (\d+)x(\d+)", text)
                     or re.search(r"Physical size: (\d+)x(\d+)", text))
            if match is None:
                raise self._fail("`wm size`", f"unexpected answer {text.strip()!r}")
            width, height = int(match.group(1)), int(match.group(2))
            rotation = re.search(r"orientation=(\d)", text)
            if rotation and rotation.group(1) in ("1", "3"):
                width, height = height, width
            self._size = (width, height)
        return self._size

    def screenshot(self) -> np.ndarray:
        from PIL import Image

        data = self.exec_out("screencap -p")
        try:
            image = Image.open(io.BytesIO(data))
            return np.asarray(image.convert("RGB"))
        except Exception as exc:  # noqa: BLE001 - any decoding failure is the device's
            raise self._fail("screencap -p", f"{len(data)} bytes that are not a PNG ({exc})") from None

    def dump_hierarchy(self) -> str:
        """`uiautomator dump` to a file and back; retried while the UI will not go idle."""
        last = ""
        for attempt in range(DUMP_TRIES):
            out, err, both, code = self.shell_v2(f"uiautomator dump {DUMP_PATH}")
            text = both.decode("utf-8", "replace")
            if code == 0 and "ERROR" not in text and b"dumped to" in out:
                xml = self.pull(DUMP_PATH).decode("utf-8", "replace")
                if xml.startswith("<?xml"):
                    return xml
                text = f"the dump file starts {xml[:40]!r}"
            last = text.strip() or f"exit status {code}"
            time.sleep(DUMP_RETRY_S * (attempt + 1))
        raise DeviceError(f"{self.serial}: uiautomator dump failed {DUMP_TRIES} times "
                          f"(last: {last}); the UI may never go idle (an animation), or "
                          "another uiautomator session holds the accessibility service")

    # -- input ------------------------------------------------------------------------------
    def _point(self, x: int, y: int) -> tuple[int, int]:
        return limits.point(x, y, self.screen_size())

    def tap(self, x: int, y: int) -> None:
        x, y = self._point(x, y)
        self._input(f"tap {x} {y}")

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        x1, y1 = self._point(x1, y1)
        x2, y2 = self._point(x2, y2)
        self._input(f"swipe {x1} {y1} {x2} {y2} {limits.duration_ms(duration_ms)}")

    def press(self, key: str | Key) -> None:
        self._input(f"keyevent {KEYCODES[Key.parse(key)]}")

    def _has_keyboard(self) -> bool:
        if self._keyboard is None:
            out = self.shell_v2(f"pm list packages {ADB_KEYBOARD}")[0]
            self._keyboard = f"package:{ADB_KEYBOARD}".encode() in out
        return self._keyboard

    def input_text(self, text: str) -> None:
        """`input text` with the text escaped for the device shell (`%s` for spaces);
        other characters through ADBKeyBoard's broadcast when it is installed."""
        text = limits.text(text)
        if not text:
            return
        bad = sorted({c for c in text if not (" " <= c <= "~")})
        if bad:
            if self._has_keyboard():
                self._input_broadcast(text)
                return
            raise InvalidInput(
                "the keyboard cannot type " + ", ".join(repr(c) for c in bad)
                + " (input text takes printable ASCII only; install ADBKeyBoard for more)")
        if "%s" in text:
            # `input text` reads %s as a space; type the parts around it separately
            parts = text.split("%s")
            for k, part in enumerate(parts):
                if part:
                    self._input(f"text {shlex.quote(part.replace(' ', '%s'))}")
                if k < len(parts) - 1:
                    self._input("text %")
                    self._input("text s")
            return
        self._input(f"text {shlex.quote(text.replace(' ', '%s'))}")

    def _input_broadcast(self, text: str) -> None:
        import base64

        encoded = base64.b64encode(text.encode("utf-8")).decode()
        out, _, both, code = self.shell_v2(f"am broadcast -a ADB_INPUT_B64 --es msg {encoded}")
        if code != 0:
            raise self._fail("ADBKeyBoard broadcast", both.decode("utf-8", "replace").strip())

    # -- shell and files --------------------------------------------------------------------
    def shell(self, cmd: str) -> tuple[str, int]:
        _, _, both, code = self.shell_v2(cmd)
        self._size = None  # the command may have changed `wm size` or the rotation
        return both.decode("utf-8", "replace"), code

    def pull(self, path: str) -> bytes:
        """sync RECV on one socket (adbutils' sync adds a version query and a 10 ms close)."""
        sock = self._open("sync:")
        try:
            raw = path.encode()
            sock.sendall(b"RECV" + struct.pack("<I", len(raw)) + raw)
            data = bytearray()
            while True:
                ident = _read_exact(sock, 4)
                length = struct.unpack("<I", _read_exact(sock, 4))[0]
                if ident == b"DATA":
                    data += _read_exact(sock, length)
                elif ident == b"DONE":
                    return bytes(data)
                elif ident == b"FAIL":
                    message = _read_exact(sock, length).decode("utf-8", "replace")
                    raise DeviceError(f"remote object '{path}' does not exist: {message}")
                else:
                    raise self._fail(f"pull {path}", f"unexpected sync reply {ident!r}")
        except (OSError, EOFError) as exc:
            raise self._fail(f"pull {path}", f"connection lost ({exc or 'closed'})") from None
        finally:
            sock.close()

    def push(self, data: bytes, path: str) -> None:
        sock = self._open("sync:")
        try:
            spec = f"{path},{0o100644}".encode()
            out = bytearray(b"SEND" + struct.pack("<I", len(spec)) + spec)
            view = memoryview(bytes(data))
            for start in range(0, len(view), 64 * 1024):
                chunk = view[start:start + 64 * 1024]
                out += b"DATA" + struct.pack("<I", len(chunk)) + chunk
            out += b"DONE" + struct.pack("<I", 0)
            sock.sendall(out)
            ident = _read_exact(sock, 4)
            length = struct.unpack("<I", _read_exact(sock, 4))[0]
            if ident != b"OKAY":
                message = _read_exact(sock, length).decode("utf-8", "replace")
                raise self._fail(f"push to {path}", message)
            sock.sendall(b"QUIT" + struct.pack("<I", 0))
        except (OSError, EOFError) as exc:
            raise self._fail(f"push to {path}", f"connection lost ({exc or 'closed'})") from None
        finally:
            sock.close()
        self._size = None

    # -- snapshots --------------------------------------------------------------------------
    def _console(self, command: str) -> str:
        match = re.fullmatch(r"emulator-(\d+)", self.serial)
        if match is None:
            raise DeviceError(
                f"{self.serial} is not an emulator: snapshots need the emulator console "
                "(`adb emu avd snapshot ...`); on a physical phone, reset the apps instead "
                "or use an AVD built with `bmoca avd build`")
        from bmoca.device.avd import console_command

        return console_command(int(match.group(1)), command, host=self.server[0])

    def snapshot_save(self, name: str) -> None:
        self._console(f"avd snapshot save {name}")

    def snapshot_load(self, name: str) -> None:
        self._console(f"avd snapshot load {name}")
        self._size = None

    def snapshots(self) -> list[str]:
        """The emulator's snapshot tags (`avd snapshot list`)."""
        text = self._console("avd snapshot list")
        names = []
        for line in text.splitlines():
            cols = line.split()
            if len(cols) >= 6 and cols[0] not in ("ID", "List"):
                names.append(" ".join(cols[1:-4]) if len(cols) > 5 else cols[1])
        return names


def _read_exact(sock: socket.socket, n: int) -> bytes:
    buf = bytearray()
    while len(buf) < n:
        data = sock.recv(n - len(buf))
        if not data:
            raise EOFError("closed by the adb server")
        buf += data
    return bytes(buf)


def _open(target: str, config: DeviceConfig | None, snapshot_dir: Path | None, clean: bool
          ) -> AdbDevice:
    """The device as it is, except that an emulator holding a snapshot named after the
    configuration (`bmoca avd build`) is loaded from it, and with `clean` one without it
    is reset into the configuration (`provision.reset`). `snapshot_dir` is the
    simulator's; a real device keeps its snapshots itself."""
    if target != "adb" and not target.startswith("adb:"):
        raise ValueError(f"an adb target is adb, adb:SERIAL or adb:HOST:PORT, not {target!r}")
    device = open_adb(target)
    if config is not None and device.serial.startswith("emulator-"):
        try:
            names = device.snapshots()
        except DeviceError:
            names = []
        if config.id in names:
            device.snapshot_load(config.id)
        elif clean:
            from bmoca.device.provision import reset

            reset(device, config)
    return device


BACKEND = Backend(_open)
"""`adb`, `adb:SERIAL`, `adb:HOST:PORT` (the `bmoca.devices` entry point `adb`)."""

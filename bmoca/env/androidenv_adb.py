"""The simulated phone as AndroidEnv's ADB channel and logcat stream (`bmoca.env.androidenv`).

AndroidEnv reaches a phone's software through two objects its simulator hands out: an
`AdbController`, whose `execute_command(["shell", "am", "start", ...])` runs `adb` against
the device, and a `LogStream`, which yields `adb logcat -v epoch <filters> *:S` lines for
the task's reward regexes. Here both talk to the simulated phone in-process:

- `PhoneAdbController` answers the `adb` argument vector the way the `adb` client does
  (`shell ARGS...` joins the words with spaces and runs them in the phone's shell; a
  non-zero exit status is the client's non-zero exit, which the stock controller turns into
  `AdbControllerError`; `push`, `pull`, `uninstall`, `devices`, `logcat` as the client
  does them). No `adb` binary and no server are involved, so nothing can race.
- `PhoneLogStream` clears the buffers as `AdbLogStream` does (`logcat -b all -c`), then
  yields every new line of the main, system and crash buffers that passes the filters, in
  logcat's `epoch` format. AndroidEnv reads it in its own thread; the phone waits after
  every input until that thread has taken in the lines the input wrote
  (`Phone.settle`), so a step's reward always holds the lines its action logged, as on a
  device where the agent's step interval is longer than logcat's delay.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Iterator
from typing import TYPE_CHECKING

from absl import logging
from android_env.components import adb_controller, config_classes, errors, log_stream

from bmoca.device.contract import DeviceError
from bmoca.sim.system.logcat import FilterSpec, format_entry

if TYPE_CHECKING:
    from bmoca.sim.device import SimDevice

DEFAULT_BUFFERS = frozenset({"main", "system", "crash"})
"""What `logcat` without `-b` reads (Android 10's default buffers)."""
SETTLE_TIMEOUT_S = 10.0
"""How long an input waits for the logcat reader before going on without it."""


class Phone:
    """The simulated phone behind one AndroidEnv simulator, shared by its ADB controllers
    and log streams: one lock for every use (AndroidEnv calls from its logcat and dumpsys
    threads too, and the phone is not thread-safe), and the live log streams to settle."""

    def __init__(self, device: SimDevice):
        self.device = device
        self.lock = threading.RLock()
        self._streams: weakref.WeakSet[PhoneLogStream] = weakref.WeakSet()

    def log_mark(self) -> tuple[int, int]:
        """Which log buffer the phone writes to now (a restored state brings its own) and
        how many lines it has had."""
        logs = self.device.server.state.logs
        return id(logs), logs.serial

    def add_stream(self, stream: PhoneLogStream) -> None:
        self._streams.add(stream)

    def settle(self) -> None:
        """Wait until every running log stream has handed on the lines logged so far."""
        with self.lock:
            mark = self.log_mark()
        for stream in list(self._streams):
            stream.wait_delivered(mark)


class PhoneAdbController(adb_controller.AdbController):
    """`adb -s SERIAL ...` against the simulated phone, without a subprocess."""

    def __init__(self, phone: Phone, config: config_classes.AdbControllerConfig | None = None):
        # The stock constructor is not run: it deletes ANDROID_HOME and ANDROID_ADB_SERVER_PORT
        # from os.environ and logs the whole environment, for an adb process not used here.
        self._config = config or config_classes.AdbControllerConfig(
            adb_path="adb", device_name=phone.device.serial, use_adb_server_port_from_os_env=True)
        self._os_env_vars: dict[str, str] = {}
        self._phone = phone

    def init_server(self, timeout: float | None = None) -> None:
        """Nothing to start: the phone answers in-process."""

    def execute_command(self, args: list[str], timeout: float | None = None,
                        device_specific: bool = True) -> bytes:
        """What `adb [-s SERIAL] ARGS...` prints (stdout and stderr together, as the stock
        controller reads them); a failing command raises `AdbControllerError` as the stock
        controller does once its retries are spent."""
        del timeout, device_specific  # the phone answers at once; one phone is served
        args = [str(a) for a in args]
        with self._phone.lock:
            try:
                out, code = self._run(args)
            except (DeviceError, OSError) as exc:
                out, code = f"adb: error: {exc}\n", 1
        self._phone.settle()
        if code != 0:
            command = "adb " + " ".join(self.command_prefix()[1:] + args)
            raise errors.AdbControllerError(
                f"Error executing adb command: [{command}]\nCaused by: exit status {code}: "
                f"{out.strip()}")
        return out.encode("utf-8", "surrogateescape")

    def _run(self, args: list[str]) -> tuple[str, int]:
        device = self._phone.device
        verb, rest = (args[0], args[1:]) if args else ("", [])
        if verb == "shell":
            # the adb client sends its arguments joined by spaces, unquoted, to the device
            return device.shell(" ".join(rest))
        if verb == "devices":
            return f"List of devices attached\n{device.serial}\tdevice\n\n", 0
        if verb in ("start-server", "kill-server", "wait-for-device", "reconnect"):
            return "", 0
        if verb == "get-state":
            return "device\n", 0
        if verb == "get-serialno":
            return device.serial + "\n", 0
        if verb == "root":
            return "adbd is already running as root\n", 0
        if verb == "logcat":
            return device.shell(" ".join(["logcat", *rest]))
        if verb == "uninstall" and rest:
            return device.shell(f"pm uninstall {rest[-1]}")
        if verb == "push" and len(rest) >= 2:
            with open(rest[-2], "rb") as f:
                data = f.read()
            device.push(data, rest[-1])
            return f"{rest[-2]}: 1 file pushed, 0 skipped.\n", 0
        if verb == "pull" and len(rest) >= 2:
            data = device.pull(rest[-2])
            with open(rest[-1], "wb") as f:
                f.write(data)
            return f"{rest[-2]}: 1 file pulled, 0 skipped.\n", 0
        if verb == "install":
            apk = rest[-1] if rest else ""
            return (f"adb: failed to install {apk}: Failure [INSTALL_FAILED_INVALID_APK: the "
                    "simulated phone runs its own apps and installs no APK]\n"), 1
        return f"adb: unknown command {verb}\n", 1


class PhoneLogStream(log_stream.LogStream):
    """`adb logcat -v epoch <filters> *:S` on the simulated phone, as `AdbLogStream`."""

    POLL_S = 0.05

    def __init__(self, phone: Phone, verbose: bool = False):
        super().__init__(verbose=verbose)
        self._phone = phone
        self._stop = threading.Event()
        self._moved = threading.Condition()
        with phone.lock:  # AdbLogStream first clears the buffers (`logcat -b all -c`)
            phone.device.shell("logcat -b all -c")
            self._start = phone.log_mark()
        self._delivered = self._start
        """The log mark up to which every line has been taken in by the reader."""
        phone.add_stream(self)

    def _get_stream_output(self) -> Iterator[str]:
        return self._lines(self._start)

    def _lines(self, mark: tuple[int, int]) -> Iterator[str]:
        filters = FilterSpec(list(self._filters))
        buffer_id, serial = mark
        while not self._stop.is_set():
            with self._phone.lock:
                logs = self._phone.device.server.state.logs
                if id(logs) != buffer_id:  # a restored state: its lines are not new
                    buffer_id, serial = id(logs), logs.serial
                    entries = []
                else:
                    entries = logs.since(serial)
                    serial = logs.serial
            for entry in entries:
                if entry.buffer in DEFAULT_BUFFERS and filters.passes(entry):
                    yield format_entry(entry, "epoch")
            # the reader came back for more: it has handled every line yielded above
            self._mark_delivered((buffer_id, serial))
            if not entries:
                self._stop.wait(self.POLL_S)

    def _mark_delivered(self, mark: tuple[int, int]) -> None:
        with self._moved:
            self._delivered = mark
            self._moved.notify_all()

    def wait_delivered(self, mark: tuple[int, int]) -> None:
        """Block until the reader has taken in the lines up to `mark` (or the stream is
        stopped). The clearing when the stream was made is done by then, so the wait is
        for the lines logged since."""
        with self._moved:
            ok = self._moved.wait_for(
                lambda: self._stop.is_set() or self._delivered == mark,
                timeout=SETTLE_TIMEOUT_S)
        if not ok:
            logging.warning("bmoca log stream: the logcat reader did not catch up in %ss",
                            SETTLE_TIMEOUT_S)

    def stop_stream(self) -> None:
        self._stop.set()
        with self._moved:
            self._moved.notify_all()


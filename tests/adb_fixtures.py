"""Shared set-up for the ADB tests: a served simulated phone and a private adb server.

The real `adb` client (Debian's) talks to `bmoca serve-adb`'s endpoint through its own
adb server on a free port, never the default 5037; the server is killed afterwards.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pytest


def _adb_binary() -> str | None:
    """BMOCA_TEST_ADB, else Debian's `adb` on PATH, else the one in the adbutils wheel."""
    chosen = os.environ.get("BMOCA_TEST_ADB") or shutil.which("adb")
    if chosen:
        return chosen
    try:
        import adbutils

        bundled = Path(adbutils.__file__).parent / "binaries" / "adb"
        return str(bundled) if os.access(bundled, os.X_OK) else None
    except ImportError:
        return None


ADB = _adb_binary()
SKIP_REASON = "no `adb` client (apt-get install adb, or pip install adbutils); ADB tests skipped"


def free_port_pair() -> int:
    """An odd port P with P-1 also free (adb port and console port)."""
    for _ in range(200):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1] | 1
        if port >= 65535:
            continue
        try:
            for candidate in (port, port - 1):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", candidate))
        except OSError:
            continue
        return port
    raise RuntimeError("no free port pair")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class AdbServer:
    port: int
    env: dict[str, str]
    home: Path

    def run(self, *args: str, input: bytes | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
        return subprocess.run([ADB, "-P", str(self.port), *args], env=self.env, input=input,
                              capture_output=True, timeout=timeout,
                              stdin=None if input is not None else subprocess.DEVNULL)

    def stop(self) -> None:
        self.run("kill-server")


def start_adb_server(home: Path) -> AdbServer:
    """A private adb server (own port, own HOME with adbkey and console token)."""
    if ADB is None:
        pytest.skip(SKIP_REASON)
    home.mkdir(parents=True, exist_ok=True)
    (home / ".emulator_console_auth_token").write_text("bmoca-test-token")
    port = free_port()
    env = dict(os.environ, HOME=str(home), ANDROID_ADB_SERVER_PORT=str(port))
    env.pop("ADB_SERVER_SOCKET", None)
    server = AdbServer(port, env, home)
    result = server.run("start-server")
    if result.returncode != 0:
        pytest.skip(f"adb server would not start: {result.stderr.decode().strip()}")
    return server


def wait_listed(server: AdbServer, serial: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        out = server.run("devices").stdout.decode()
        if f"{serial}\tdevice" in out:
            return
        time.sleep(0.05)
    raise AssertionError(f"{serial} never came online: {out}")

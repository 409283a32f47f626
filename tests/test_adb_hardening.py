"""`bmoca serve-adb` under hostile clients: raw ADB and console bytes on its ports.

No adb binary is needed: these tests speak the transport themselves, as an attacker would.
"""

from __future__ import annotations

import os
import socket
import struct
from pathlib import Path

import pytest
from adb_fixtures import free_port_pair

from bmoca import configs
from bmoca.device import connect
from bmoca.sim.adb import AdbEndpoint
from bmoca.sim.adb import protocol as p

pytestmark = pytest.mark.reliability


@pytest.fixture(scope="module")
def endpoint(tmp_path_factory):
    """test_env_100 served on a free port pair, the console token in a private HOME."""
    home = tmp_path_factory.mktemp("adbhome")
    (home / ".emulator_console_auth_token").write_text("tok")
    old_home = os.environ.get("HOME")
    os.environ["HOME"] = str(home)
    endpoint = AdbEndpoint()
    port = free_port_pair()
    endpoint.add(connect("sim", configs.get("test_env_100")), port, name="test_env_100")
    endpoint.start()
    try:
        yield endpoint, port
    finally:
        endpoint.stop()
        if old_home is not None:
            os.environ["HOME"] = old_home


def recv_exactly(sock: socket.socket, size: int) -> bytes:
    data = bytearray()
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        assert chunk, "connection closed"
        data += chunk
    return bytes(data)


def recv_packet(sock: socket.socket) -> tuple[int, int, int, bytes]:
    command, arg0, arg1, length, _, _ = struct.unpack("<6I", recv_exactly(sock, 24))
    return command, arg0, arg1, recv_exactly(sock, length)


def handshake(sock: socket.socket, max_data: int = p.MAX_PAYLOAD) -> None:
    sock.sendall(p.pack(p.A_CNXN, p.A_VERSION, max_data, b"host::\0"))
    assert recv_packet(sock)[0] == p.A_CNXN


def test_streams_before_the_handshake_are_ignored(endpoint):
    """adbd drops OPEN/WRTE/OKAY/CLSE until the transport is online (CNXN, then AUTH if
    asked): a command sent first never runs, and AUTH alone does not bring it online."""
    _, port = endpoint
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(p.pack(p.A_AUTH, 2, 0, b"sig")
                     + p.pack(p.A_OPEN, 5, 0, b"shell:echo pwned\0")
                     + p.pack(p.A_WRTE, 5, 1, b"x") + p.pack(p.A_CLSE, 5, 1))
        handshake(sock)
        sock.sendall(p.pack(p.A_OPEN, 6, 0, b"shell:echo fine\0"))
        packets = []
        while not packets or packets[-1][0] != p.A_CLSE:
            packets.append(recv_packet(sock))
            if packets[-1][0] == p.A_WRTE:
                sock.sendall(p.pack(p.A_OKAY, 6, packets[-1][1]))
    assert [(cmd, arg1) for cmd, _, arg1, _ in packets] == [(p.A_OKAY, 6), (p.A_WRTE, 6),
                                                           (p.A_CLSE, 6)]
    assert packets[1][3] == b"fine\n"


def test_console_token_file_is_private(tmp_path):
    """The token grants the console (snapshots, kill): only its owner may read it, whatever
    the umask."""
    from bmoca.sim.adb.console import auth_token

    old = os.umask(0o022)
    try:
        token = auth_token(tmp_path)
    finally:
        os.umask(old)
    path = tmp_path / ".emulator_console_auth_token"
    assert path.read_text() == token
    assert path.stat().st_mode & 0o777 == 0o600
    assert auth_token(tmp_path) == token  # read back, not made anew


def test_console_line_over_64k_gets_one_error_line(endpoint):
    """An endless console line is refused with one `KO:` line and the connection closes;
    the console keeps serving others."""
    _, port = endpoint
    with socket.create_connection(("127.0.0.1", port - 1), timeout=5) as sock:
        reader = sock.makefile("rb")
        while reader.readline() != b"OK\r\n":
            pass
        sock.sendall(b"a" * (70 * 1024) + b"\r\n")
        rest = reader.read()
    assert rest.count(b"\r\n") == 1 and rest.startswith(b"KO: ") and b"too long" in rest
    with socket.create_connection(("127.0.0.1", port - 1), timeout=5) as sock:
        sock.sendall(b"auth tok\r\nping\r\nquit\r\n")
        assert b"I am alive!" in sock.makefile("rb").read()


@pytest.mark.parametrize(("host", "why"), [("no.such.host.invalid", "cannot resolve"),
                                          ("192.0.2.7", "not an address of this machine")])
def test_bad_host_is_one_line_and_exit_2_before_any_warning(host, why):
    from typer.testing import CliRunner

    from bmoca.cli.main import app

    result = CliRunner().invoke(app, ["serve-adb", "--host", host, "--no-register"])
    assert result.exit_code == 2
    assert why in result.output and host in result.output and "--host" in result.output
    assert "root shell" not in result.output


def _open_framebuffers(port: int, count: int) -> socket.socket:
    """`count` framebuffer streams on one connection, each read up to its first WRTE and
    never acknowledged (no OKAY): the server may not send them more."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    handshake(sock)
    for k in range(count):
        sock.sendall(p.pack(p.A_OPEN, 100 + k, 0, b"framebuffer:\0"))
    seen = 0
    while seen < count:
        command, _, _, _ = recv_packet(sock)
        seen += command == p.A_WRTE
    return sock


def test_unread_framebuffer_streams_hold_bounded_memory(endpoint):
    """Each unread stream may hold one chunk and a share of one encoded frame: 100 unread
    streams keep the server's resident memory within 64 MB of its idle size (the issue's
    bound; it was 30 MB a stream)."""
    import gc

    _, port = endpoint
    _open_framebuffers(port, 1).close()  # warm-up: fonts, first render
    gc.collect()
    idle = _rss_bytes()
    sock = _open_framebuffers(port, 100)
    try:
        held = _rss_bytes() - idle
    finally:
        sock.close()
    assert held < 64e6, f"{held / 1e6:.1f} MB held by 100 unread streams"


def _rss_bytes() -> int:
    """This process's resident memory (the endpoint serves from its threads)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    pytest.skip("no /proc/self/status")


def test_framebuffer_streams_the_screen_in_acknowledged_chunks(endpoint):
    """Header (version 1, RGBA 8888) then the pixels, one WRTE per OKAY, equal to the
    simulator's screenshot."""
    ep, port = endpoint
    device = ep.phones[0].device
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        handshake(sock)
        sock.sendall(p.pack(p.A_OPEN, 3, 0, b"framebuffer:\0"))
        data = bytearray()
        while True:
            command, local, _, payload = recv_packet(sock)
            if command == p.A_CLSE:
                break
            if command == p.A_WRTE:
                assert len(payload) <= 64 * 1024 + 52
                data += payload
                sock.sendall(p.pack(p.A_OKAY, 3, local))
    header = struct.unpack_from("<13I", data)
    width, height = header[3], header[4]
    expected = ep.call(lambda: device.screenshot_image().convert("RGBA").tobytes())
    assert header[:3] == (1, 32, width * height * 4) and len(data) == 52 + header[2]
    assert bytes(data[52:]) == expected


AT_FD_LIMIT = """
import os, resource, sys
from bmoca import configs
from bmoca.device import connect
from bmoca.sim.adb import AdbEndpoint
endpoint = AdbEndpoint()
endpoint.add(connect("sim", configs.get("test_env_100")), int(sys.argv[1]), console=False)
endpoint.start()
used = len(os.listdir("/proc/self/fd"))
resource.setrlimit(resource.RLIMIT_NOFILE, (used + 6, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
print("ready", flush=True)
sys.stdin.read()
"""


def test_at_the_descriptor_limit_it_logs_one_line_a_second_and_recovers():
    """Idle connections past RLIMIT_NOFILE: accept() fails with EMFILE. The server says so
    in one line at most once a second (not a traceback per try) and serves again once
    descriptors are free."""
    import subprocess
    import sys
    import time
    from pathlib import Path

    port = free_port_pair()
    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONPATH=str(root))
    child = subprocess.Popen([sys.executable, "-c", AT_FD_LIMIT, str(port)], env=env, text=True,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
    try:
        assert child.stdout.readline() == "ready\n"
        started = time.monotonic()
        idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(30)]
        time.sleep(2.0)
        for sock in idle:
            sock.close()
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            handshake(sock)
    finally:
        _, err = child.communicate("", timeout=10)
    seconds = time.monotonic() - started
    lines = err.splitlines()
    assert 1 <= len(lines) <= 1 + seconds, (seconds, err[:2000])
    assert all("accept()" in line and "Too many open files" in line for line in lines)

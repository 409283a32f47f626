"""The real `adb` client against the simulated phone served over ADB (`bmoca.sim.adb`)."""

from __future__ import annotations

import io
import os
import socket
import sqlite3
import struct
import threading

import numpy as np
import pytest
from adb_fixtures import free_port_pair, start_adb_server, wait_listed
from PIL import Image

from bmoca import configs
from bmoca.device import connect
from bmoca.sim.adb import AdbEndpoint, register
from bmoca.sim.adb import protocol as p
from bmoca.sim.adb.services import screencap_png

ALARMS_DB = "/data/user_de/0/com.google.android.deskclock/databases/alarms.db"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """test_env_100 served on a free port pair, registered with a private adb server."""
    home = tmp_path_factory.mktemp("adbhome")
    server = start_adb_server(home)
    old_home = os.environ.get("HOME")
    os.environ["HOME"] = str(home)  # the console reads the token from ~ at start
    device = connect("sim", configs.get("test_env_100"))
    port = free_port_pair()
    endpoint = AdbEndpoint()
    endpoint.add(device, port, name="test_env_100")
    endpoint.start()
    try:
        assert register(port, server.port)
        serial = f"emulator-{port - 1}"
        wait_listed(server, serial)
        yield server, serial, endpoint, device, port
    finally:
        server.stop()
        endpoint.stop()
        if old_home is not None:
            os.environ["HOME"] = old_home


def adb(served, *args: str, **kw):
    server, serial = served[0], served[1]
    return server.run("-s", serial, *args, **kw)


def test_adb_devices_lists_the_phone_as_an_emulator(served):
    server, serial = served[0], served[1]
    out = server.run("devices", "-l").stdout.decode()
    line = next(line for line in out.splitlines() if line.startswith(serial))
    assert line.split()[1:4] == ["device", "product:sdk_gphone_x86_64", "model:Pixel_3"]


def test_shell_settings_and_exit_codes(served):
    result = adb(served, "shell", "settings", "get", "global", "airplane_mode_on")
    assert (result.returncode, result.stdout) == (0, b"0\n")
    assert adb(served, "shell", "false").returncode == 1
    assert adb(served, "shell", "exit 3").returncode == 3
    missing = adb(served, "shell", "ls /nonexistent")
    assert missing.returncode == 1
    assert missing.stdout == b""
    assert b"No such file or directory" in missing.stderr


def test_shell_stdin_and_ordered_streams(served):
    piped = adb(served, "shell", "cat", input=b"line one\nline two\n")
    assert piped.stdout == b"line one\nline two\n"
    import adbutils

    client = adbutils.AdbClient(port=served[0].port)
    d = client.device(served[1])
    # v1 merges stdout and stderr in order: adbutils parses the exit code from the end
    ret = d.shell2("echo out; ls /nonexistent; echo after")
    assert ret.returncode == 0
    assert ret.output.splitlines()[0] == "out"
    assert ret.output.splitlines()[-1] == "after"
    ret2 = d.shell2("ls /nonexistent", v2=True)
    assert ret2.returncode == 1 and "No such file" in ret2.stderr


def test_exec_out_screencap_is_the_simulators_screenshot(served):
    _, _, endpoint, device, _ = served
    result = adb(served, "exec-out", "screencap", "-p")
    assert result.returncode == 0
    assert result.stdout == endpoint.call(screencap_png, device)
    pixels = np.asarray(Image.open(io.BytesIO(result.stdout)).convert("RGB"))
    assert np.array_equal(pixels, endpoint.call(device.screenshot))
    # the shell's own encoder writes the same bytes to a file
    assert adb(served, "shell", "screencap -p /sdcard/shot.png").returncode == 0
    assert endpoint.call(device.pull, "/sdcard/shot.png") == result.stdout


def test_framebuffer_through_adbutils(served):
    import adbutils

    d = adbutils.AdbClient(port=served[0].port).device(served[1])
    image = d.framebuffer()
    _, _, endpoint, device, _ = served
    assert np.array_equal(np.asarray(image.convert("RGB")), endpoint.call(device.screenshot))


def test_pull_and_push_a_database(served, tmp_path):
    local = tmp_path / "alarms.db"
    assert adb(served, "pull", ALARMS_DB, str(local)).returncode == 0
    with sqlite3.connect(local) as db:
        rows = db.execute("SELECT hour, minutes, enabled FROM alarm_templates").fetchall()
        assert (9, 0, 0) in rows
        db.execute("UPDATE alarm_templates SET enabled = 1")
    pushed = adb(served, "push", str(local), "/sdcard/Download/alarms_copy.db")
    assert pushed.returncode == 0, pushed.stdout + pushed.stderr
    back = tmp_path / "back.db"
    assert adb(served, "pull", "/sdcard/Download/alarms_copy.db", str(back)).returncode == 0
    assert back.read_bytes() == local.read_bytes()
    missing = adb(served, "pull", "/sdcard/none.db", str(tmp_path / "x"))
    assert missing.returncode != 0 and b"No such file" in missing.stderr + missing.stdout


def test_uiautomator_dump_then_pull(served, tmp_path):
    dumped = adb(served, "shell", "uiautomator", "dump")
    assert dumped.stdout == b"UI hierchary dumped to: /sdcard/window_dump.xml\n"
    assert adb(served, "pull", "/sdcard/window_dump.xml", str(tmp_path / "w.xml")).returncode == 0
    _, _, endpoint, device, _ = served
    assert (tmp_path / "w.xml").read_text("utf-8") == endpoint.call(device.dump_hierarchy)


def test_input_tap_changes_the_screen(served):
    _, _, endpoint, device, _ = served
    before = adb(served, "exec-out", "screencap", "-p").stdout
    assert adb(served, "shell", "am start -n com.android.settings/.Settings").returncode == 0
    assert adb(served, "shell", "input keyevent HOME").returncode == 0
    assert adb(served, "shell", "input", "tap", "540", "1000").returncode == 0
    assert adb(served, "shell", "input keyevent HOME").returncode == 0
    assert adb(served, "exec-out", "screencap", "-p").stdout == before


def test_emulator_console_snapshots(served):
    assert adb(served, "emu", "avd", "snapshot", "save", "clean").stdout.startswith(b"OK")
    assert adb(served, "shell", "settings put global airplane_mode_on 1").returncode == 0
    loaded = adb(served, "emu", "avd", "snapshot", "load", "clean")
    assert loaded.stdout.startswith(b"OK")
    assert adb(served, "shell", "settings get global airplane_mode_on").stdout == b"0\n"
    listing = adb(served, "emu", "avd", "snapshot", "list").stdout.decode()
    assert "clean" in listing.split()
    assert b"KO:" in adb(served, "emu", "avd", "snapshot", "load", "nope").stdout
    assert adb(served, "emu", "avd", "name").stdout.startswith(b"test_env_100")


def _big_file(served) -> str:
    _, _, endpoint, device, _ = served
    path = "/sdcard/Download/big.bin"
    endpoint.call(device.push, bytes(range(256)) * (8 * 4096), path)  # 8 MiB
    return path


def test_disconnect_in_the_middle_of_a_pull_through_the_adb_server(served):
    server, serial = served[0], served[1]
    path = _big_file(served)
    for _ in range(3):
        sock = socket.create_connection(("127.0.0.1", server.port))
        for request in (f"host:transport:{serial}", "sync:"):
            sock.sendall(b"%04x" % len(request) + request.encode())
            assert sock.recv(4) == b"OKAY"
        sock.sendall(b"RECV" + struct.pack("<I", len(path)) + path.encode())
        assert sock.recv(8)[:4] == b"DATA"
        sock.close()  # mid-transfer
    assert adb(served, "shell", "echo still here").stdout == b"still here\n"


def test_disconnect_in_the_middle_of_a_transfer_on_the_device_port(served):
    """A client speaking the transport itself drops TCP mid-pull; the phone serves on."""
    path = _big_file(served)
    port = served[4]
    for _ in range(3):
        sock = socket.create_connection(("127.0.0.1", port))
        sock.sendall(p.pack(p.A_CNXN, p.A_VERSION, p.MAX_PAYLOAD, b"host::\0"))
        header = sock.recv(24, socket.MSG_WAITALL)
        assert struct.unpack("<6I", header)[0] == p.A_CNXN
        sock.recv(struct.unpack("<6I", header)[3], socket.MSG_WAITALL)
        sock.sendall(p.pack(p.A_OPEN, 7, 0, b"sync:\0"))
        request = b"RECV" + struct.pack("<I", len(path)) + path.encode()
        okay = sock.recv(24, socket.MSG_WAITALL)
        local = struct.unpack("<6I", okay)[1]
        sock.sendall(p.pack(p.A_WRTE, 7, local, request))
        sock.recv(4096)
        sock.close()
    assert adb(served, "shell", "echo still here").stdout == b"still here\n"


def test_many_concurrent_clients(served):
    failures: list[str] = []

    def client(k: int) -> None:
        for j in range(5):
            result = adb(served, "shell", f"echo {k}-{j}")
            if result.stdout != f"{k}-{j}\n".encode():
                failures.append(f"{k}-{j}: {result.stdout!r} {result.stderr!r}")

    threads = [threading.Thread(target=client, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


def test_refuses_unknown_services_and_survives_garbage(served):
    port = served[4]
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(b"this is not adb at all, just bytes....")
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(p.pack(p.A_CNXN, p.A_VERSION, p.MAX_PAYLOAD, b"host::\0"))
        header = struct.unpack("<6I", sock.recv(24, socket.MSG_WAITALL))
        sock.recv(header[3], socket.MSG_WAITALL)
        sock.sendall(p.pack(p.A_OPEN, 9, 0, b"root:\0"))
        refused = struct.unpack("<6I", sock.recv(24, socket.MSG_WAITALL))
        assert (refused[0], refused[1], refused[2]) == (p.A_CLSE, 0, 9)
    assert adb(served, "shell", "echo ok").stdout == b"ok\n"


def test_adb_connect_serial(served):
    server, port = served[0], served[4]
    out = server.run("connect", f"127.0.0.1:{port}").stdout.decode()
    assert "connected to" in out
    try:
        result = server.run("-s", f"127.0.0.1:{port}", "shell", "getprop sys.boot_completed")
        assert result.stdout == b"1\n"
    finally:
        server.run("disconnect", f"127.0.0.1:{port}")


def test_no_adb_server_means_no_registration():
    assert register(free_port_pair(), server_port=1, timeout=0.2) is False



def test_shell_with_commands_on_stdin(served):
    result = adb(served, "shell", input=b"echo one\nsettings get global airplane_mode_on\nexit 5\n")
    assert result.stdout == b"one\n0\n"
    assert result.returncode == 5


def test_features_come_from_the_banner(served):
    assert adb(served, "features").stdout.split() == [b"shell_v2", b"cmd", b"stat_v2"]


def test_only_loopback_counts_as_loopback():
    from bmoca.sim.adb import is_loopback

    assert is_loopback("127.0.0.1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.0.2.1")


def test_exec_out_cat_of_a_binary_file_is_byte_exact(served):
    _, _, endpoint, device, _ = served
    expected = endpoint.call(device.pull, ALARMS_DB)
    assert adb(served, "exec-out", "cat", ALARMS_DB).stdout == expected
    missing = adb(served, "shell", "cat /sdcard/none")
    assert missing.returncode == 1 and b"No such file" in missing.stderr


def test_pty_shell_ends_lines_with_crlf(served):
    result = adb(served, "shell", "-t", "-t", "echo hi; ls /nonexistent")
    assert result.stdout.startswith(b"hi\r\n") and b"No such file or directory\r\n" in result.stdout
    assert result.returncode == 1

"""`bmoca serve-adb` as a user runs it: another terminal's `adb` drives it, and
`bmoca eval --device adb:emulator-N` gives the simulator's table."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from adb_fixtures import free_port_pair, start_adb_server, wait_listed
from typer.testing import CliRunner

from bmoca.cli.main import app

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def serving(tmp_path):
    server = start_adb_server(tmp_path / "home")
    port = free_port_pair()
    env = dict(server.env, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-m", "bmoca.cli.main", "serve-adb", "--config",
                             "test_env_100", "--port", str(port), "--adb-server-port",
                             str(server.port), "--json"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        serial = f"emulator-{port - 1}"
        assert line.strip(), proc.stderr.read() if proc.poll() is not None else "no output"
        assert json.loads(line) == {"serial": serial, "config": "test_env_100",
                                    "host": "127.0.0.1", "adb_port": port,
                                    "console_port": port - 1, "registered": True}
        wait_listed(server, serial)
        yield server, serial, proc
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(10)
        server.stop()


def test_plain_adb_drives_the_served_phone(serving, tmp_path):
    server, serial, proc = serving
    run = lambda *a: server.run("-s", serial, *a)  # noqa: E731
    assert run("shell", "input", "tap", "540", "1200").returncode == 0
    png = run("exec-out", "screencap", "-p").stdout
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert run("shell", "uiautomator", "dump").returncode == 0
    assert run("pull", "/sdcard/window_dump.xml", str(tmp_path / "w.xml")).returncode == 0
    assert (tmp_path / "w.xml").read_text("utf-8").startswith("<?xml")
    assert run("emu", "kill").stdout.startswith(b"OK: killing emulator")
    assert proc.wait(10) == 0


def test_eval_over_adb_gives_the_simulators_table(serving, tmp_path, monkeypatch):
    server, serial, _ = serving
    monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", str(server.port))
    monkeypatch.setenv("HOME", str(server.home))
    tables = []
    for device in ("sim", f"adb:{serial}"):
        run_dir = tmp_path / device.replace(":", "_")
        result = CliRunner().invoke(app, ["eval", "--agent", "expert", "--tasks", "settings",
                                          "--configs", "test_env_100", "--repeats", "1",
                                          "--device", device, "--run-dir", str(run_dir)])
        assert result.exit_code == 0, result.output
        tables.append((run_dir / "results.md").read_text())
    assert tables[0] == tables[1]


def test_bad_device_and_port_values_exit_2(tmp_path):
    result = CliRunner().invoke(app, ["eval", "--device", "usb", "--tasks", "settings"])
    assert result.exit_code == 2 and "adb:SERIAL" in result.output
    result = CliRunner().invoke(app, ["serve-adb", "--port", "5554"])
    assert result.exit_code == 2 and "odd" in result.output
    result = CliRunner().invoke(app, ["serve-adb", "--config", "nope"])
    assert result.exit_code == 2 and "test_env_100" in result.output


def test_screenshot_and_validate_over_adb(serving, tmp_path, monkeypatch):
    import numpy as np
    from PIL import Image

    from bmoca import configs
    from bmoca.device import connect

    server, serial, _ = serving
    monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", str(server.port))
    monkeypatch.setenv("HOME", str(server.home))
    out = tmp_path / "shot.png"
    result = CliRunner().invoke(app, ["screenshot", "--device", f"adb:{serial}", "--config",
                                      "test_env_100", "--out", str(out)])
    assert result.exit_code == 0, result.output
    expected = connect("sim", configs.get("test_env_100")).screenshot()
    assert np.array_equal(np.asarray(Image.open(out).convert("RGB")), expected)
    result = CliRunner().invoke(app, ["validate", "--device", f"adb:{serial}", "--tasks", "clock",
                                      "--configs", "test_env_100"])
    assert result.exit_code == 0, result.output
    assert "every expert succeeded" in result.output


def test_eval_on_a_missing_device_fails_fast(tmp_path, monkeypatch):
    monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", "1")
    result = CliRunner().invoke(app, ["eval", "--device", "adb:emulator-5554", "--tasks",
                                      "settings", "--run-dir", str(tmp_path / "r")])
    assert result.exit_code == 1
    assert "adb server" in result.output and "adb start-server" in result.output


def test_several_configurations_one_port_pair_each(tmp_path):
    server = start_adb_server(tmp_path / "home")
    port = free_port_pair()
    while True:  # the second phone takes port + 2
        try:
            import socket

            for candidate in (port + 1, port + 2):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", candidate))
            break
        except OSError:
            port = free_port_pair()
    env = dict(server.env, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-m", "bmoca.cli.main", "serve-adb", "--config",
                             "test_env_100", "--config", "test_env_109", "--port", str(port),
                             "--adb-server-port", str(server.port), "--json"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        phones = [json.loads(proc.stdout.readline()) for _ in range(2)]
        assert [(p["serial"], p["config"]) for p in phones] == [
            (f"emulator-{port - 1}", "test_env_100"), (f"emulator-{port + 1}", "test_env_109")]
        for phone in phones:
            wait_listed(server, phone["serial"])
        size = server.run("-s", f"emulator-{port + 1}", "shell", "wm", "size").stdout
        assert size == b"Physical size: 1200x800\n"
    finally:
        proc.terminate()
        proc.wait(10)
        server.stop()


def test_binding_beyond_loopback_warns():
    port = free_port_pair()
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-m", "bmoca.cli.main", "serve-adb", "--host",
                             "0.0.0.0", "--port", str(port), "--no-register", "--json"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert json.loads(proc.stdout.readline())["host"] == "0.0.0.0"
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=10)
    assert "warning" in err and "root shell" in err

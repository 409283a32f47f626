"""`bmoca eval --device adb:...` on a phone that was used before the run: the phone is put
in the configuration's clean state before the base snapshot (B-MoCA's build: configuration
applied, framework restarted), so an app opened earlier is started afresh; a phone that
cannot be reset stops the run with one line."""

from __future__ import annotations

import pytest
from adb_fixtures import free_port_pair, start_adb_server, wait_listed
from typer.testing import CliRunner

from bmoca import configs
from bmoca.cli.main import app
from bmoca.device import connect
from bmoca.device.provision import CannotReset, reset
from bmoca.sim.adb import AdbEndpoint, register
from bmoca.sim.device import SimDevice

CONFIG = "test_env_100"


@pytest.fixture(scope="module")
def adb_server(tmp_path_factory):
    server = start_adb_server(tmp_path_factory.mktemp("adbhome"))
    yield server
    server.stop()


@pytest.fixture
def used_phone(adb_server, monkeypatch):
    """A served phone in CONFIG that someone used: Settings opened, then HOME pressed."""
    monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", str(adb_server.port))
    monkeypatch.setenv("HOME", str(adb_server.home))
    monkeypatch.delenv("ADB_SERVER_SOCKET", raising=False)
    port = free_port_pair()
    endpoint = AdbEndpoint()
    endpoint.add(connect("sim", configs.get(CONFIG)), port, name=CONFIG)
    endpoint.start()
    try:
        assert register(port, adb_server.port)
        serial = f"emulator-{port - 1}"
        wait_listed(adb_server, serial)
        adb = lambda *a: adb_server.run("-s", serial, "shell", *a)  # noqa: E731
        assert adb("monkey", "-p", "com.android.settings", "-c",
                   "android.intent.category.LAUNCHER", "1").returncode == 0
        assert adb("input", "keyevent", "3").returncode == 0
        alive = adb("pidof", "com.android.settings")
        assert alive.returncode == 0 and alive.stdout.strip(), "Settings' process is not alive"
        yield serial, adb
    finally:
        endpoint.stop()


def _eval(serial: str, run_dir) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["eval", "--agent", "expert", "--tasks", "settings",
                                      "--configs", CONFIG, "--device", f"adb:{serial}",
                                      "--run-dir", str(run_dir)])
    table = (run_dir / "results.md").read_text() if (run_dir / "results.md").exists() else ""
    return result.exit_code, result.output, table


def _row(table: str, task: str) -> list[str]:
    line = next(r for r in table.splitlines() if r.startswith(f"| {task} |"))
    return [c.strip() for c in line.strip("|").split("|")]


def test_a_used_phone_scores_as_a_clean_one_run_after_run(used_phone, tmp_path):
    serial, _ = used_phone
    for run in ("first", "second"):
        code, output, table = _eval(serial, tmp_path / run)
        assert code == 0, output
        assert _row(table, "settings/open_the_setting_app")[1:] == ["100", "100"], table
        assert _row(table, "all tasks")[1:] == ["100", "100"], table


def test_a_phone_that_cannot_be_reset_stops_the_run_with_one_line(used_phone, tmp_path):
    serial, adb = used_phone
    # the wallpaper cannot be written (a directory in its place), as on a phone without root
    adb("rm /data/system/users/0/wallpaper; mkdir /data/system/users/0/wallpaper")
    code, output, table = _eval(serial, tmp_path / "run")
    errors = [line for line in output.splitlines() if line.startswith("error:")]
    assert code == 2 and table == "", output
    assert len(errors) == 1 and "bmoca avd build" in errors[0] and serial in errors[0]
    result = CliRunner().invoke(app, ["validate", "--task", "settings/open_the_setting_app",
                                      "--configs", CONFIG, "--device", f"adb:{serial}"])
    assert result.exit_code == 2, result.output
    assert [line for line in result.output.splitlines() if line.startswith("error:")] == errors


class _NeverBack(SimDevice):
    """A phone whose framework never comes back after the restart."""

    def shell(self, cmd: str) -> tuple[str, int]:
        if cmd.startswith("dumpsys activity"):
            return "Can't find service: activity\n", 0
        return super().shell(cmd)


def test_a_framework_that_never_comes_back_stops_the_reset():
    phone = _NeverBack()
    now = [0.0]
    with pytest.raises(CannotReset, match="did not come back within 30 s"):
        reset(phone, configs.get(CONFIG), timeout_s=30, sleep=lambda s: now.__setitem__(
            0, now[0] + s), clock=lambda: now[0])
    assert now[0] >= 30

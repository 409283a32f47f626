"""AdbDevice through a private adb server against the served simulator: the contract,
its errors, and every Settings and Clock expert giving the simulator's exact result."""

from __future__ import annotations

import os

import numpy as np
import pytest
from adb_fixtures import free_port_pair, start_adb_server, wait_listed

from bmoca import configs, tasks
from bmoca.device import DeviceError, InvalidInput, connect
from bmoca.device import adb as adb_module
from bmoca.eval import runner
from bmoca.sim.adb import AdbEndpoint, register

CONFIG = "test_env_100"


@pytest.fixture(scope="module")
def phone(tmp_path_factory):
    """(AdbDevice, in-process twin, endpoint, served device, serial)."""
    home = tmp_path_factory.mktemp("adbhome")
    server = start_adb_server(home)
    saved = {k: os.environ.get(k) for k in ("HOME", "ANDROID_ADB_SERVER_PORT", "ADB_SERVER_SOCKET")}
    os.environ["HOME"] = str(home)
    os.environ["ANDROID_ADB_SERVER_PORT"] = str(server.port)
    os.environ.pop("ADB_SERVER_SOCKET", None)
    served = connect("sim", configs.get(CONFIG))
    port = free_port_pair()
    endpoint = AdbEndpoint()
    endpoint.add(served, port, name=CONFIG)
    endpoint.start()
    try:
        assert register(port, server.port)
        serial = f"emulator-{port - 1}"
        wait_listed(server, serial)
        device = connect(f"adb:{serial}")
        device.snapshot_save("fresh")
        yield device, connect("sim", configs.get(CONFIG)), endpoint, served, serial
    finally:
        server.stop()
        endpoint.stop()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


@pytest.fixture
def fresh(phone):
    device, twin, *_ = phone
    device.snapshot_load("fresh")
    twin.snapshot_save("t") if "t" not in twin.snapshots() else twin.snapshot_load("t")
    return phone


def test_screen_screenshot_and_hierarchy_match_the_simulator(fresh):
    device, twin, *_ = fresh
    assert device.screen_size() == twin.screen_size()
    assert np.array_equal(device.screenshot(), twin.screenshot())
    assert device.dump_hierarchy() == twin.dump_hierarchy()


def test_input_through_adb_matches_the_simulator(fresh):
    device, twin, *_ = fresh
    for d in (device, twin):
        d.shell("am start -n com.android.settings/.Settings")
        d.swipe(540, 1600, 540, 600, 300)
        d.tap(540, 900)
        d.press("BACK")
        d.press("HOME")
        d.long_press(300, 1200)
        d.press("BACK")
    assert device.dump_hierarchy() == twin.dump_hierarchy()


def test_text_input_escapes_for_the_device_shell(fresh):
    device, twin, *_ = fresh
    text = "a b'c\"d;$x&|*%s(1) %% \\n`id`"
    for d in (device, twin):
        d.shell("am start -a android.intent.action.INSERT -d content://com.android.contacts/contacts")
        d.tap(617, 616)  # the contact editor's first name field
        d.input_text(text)
    xml = device.dump_hierarchy()
    assert xml == twin.dump_hierarchy()
    from lxml import etree

    assert text in [n.get("text") for n in etree.fromstring(xml.encode()).iter("node")]
    with pytest.raises(InvalidInput):
        device.input_text("héllo")
    with pytest.raises(InvalidInput):
        device.tap(10_000, 5)


def test_shell_exit_codes_pull_push(fresh):
    device, *_ = fresh
    assert device.shell("settings get global airplane_mode_on") == ("0\n", 0)
    out, code = device.shell("echo out; ls /nope; exit 4")
    assert code == 4 and out.startswith("out\n") and "No such file" in out
    device.push(b"\x00\x01binary\xff", "/sdcard/Download/b.bin")
    assert device.pull("/sdcard/Download/b.bin") == b"\x00\x01binary\xff"
    with pytest.raises(DeviceError, match="does not exist"):
        device.pull("/sdcard/nothing-here")


def test_snapshots_through_the_console(fresh):
    device, *_ = fresh
    device.shell("settings put global airplane_mode_on 1")
    device.snapshot_save("airplane")
    device.snapshot_load("fresh")
    assert device.shell("settings get global airplane_mode_on")[0] == "0\n"
    device.snapshot_load("airplane")
    assert device.shell("settings get global airplane_mode_on")[0] == "1\n"
    assert {"fresh", "airplane"} <= set(device.snapshots())
    with pytest.raises(DeviceError, match="KO"):
        device.snapshot_load("never-saved")


def test_errors_say_what_happened(phone):
    _, _, _, _, serial = phone
    with pytest.raises(DeviceError, match="not found|offline"):
        connect("adb:emulator-5998").shell("true")
    with pytest.raises(DeviceError, match="not an emulator"):
        adb_module.AdbDevice("0123456789ABCDEF").snapshot_save("x")


def test_a_dump_that_keeps_failing_is_a_device_error(phone, monkeypatch):
    device = phone[0]
    monkeypatch.setattr(adb_module, "DUMP_RETRY_S", 0.0)
    calls = []

    def idle_error(cmd: str, stdin: bytes = b""):
        calls.append(cmd)
        return b"", b"ERROR: could not get idle state.\n", b"ERROR: could not get idle state.\n", 0

    monkeypatch.setattr(device, "shell_v2", idle_error)
    with pytest.raises(DeviceError, match="could not get idle state"):
        device.dump_hierarchy()
    assert len(calls) == adb_module.DUMP_TRIES


def test_a_lost_device_is_an_infrastructure_error(phone):
    spec = runner.plan("expert", [tasks.select("settings")[0]], [CONFIG], 1)[0]
    outcome = next(runner.execute([spec], device="adb:emulator-5998"))
    assert outcome.error and "emulator-5998" in outcome.error
    assert not outcome.success


@pytest.mark.slow
def test_settings_and_clock_experts_give_the_simulators_results(fresh):
    serial = fresh[4]
    task_list = [t for t in tasks.select("settings") + tasks.select("clock") if t.expert]
    specs = runner.plan("expert", task_list, [CONFIG], 1)
    sim = {o.spec.key: o for o in runner.execute(specs)}
    over_adb = {o.spec.key: o for o in runner.execute(specs, device=f"adb:{serial}")}
    assert sorted(sim) == sorted(over_adb)
    for key, expected in sim.items():
        got = over_adb[key]
        assert got.error is None, (key, got.error)
        assert (got.success, len(got.steps), got.detector_trace) == \
            (expected.success, len(expected.steps), expected.detector_trace), key
    assert all(o.success for o in sim.values())


def test_a_phone_that_goes_away_mid_run_gives_a_device_error(phone):
    port = free_port_pair()
    endpoint = AdbEndpoint()
    endpoint.add(connect("sim"), port)
    endpoint.start()
    assert register(port, int(os.environ["ANDROID_ADB_SERVER_PORT"]))
    serial = f"emulator-{port - 1}"
    device = None
    for _ in range(100):
        try:
            device = connect(f"adb:{serial}")
            device.shell("true")
            break
        except DeviceError:
            import time

            time.sleep(0.05)
    assert device is not None
    endpoint.stop()
    with pytest.raises(DeviceError, match=serial):
        device.dump_hierarchy()

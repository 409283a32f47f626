"""Issue 22's hostile inputs, one by one: each gets a clear error and leaves the phone as it
was (or, through the environment, counts as the agent's invalid action)."""

from __future__ import annotations

import os
import pickle
import time

import numpy as np
import pytest

import bmoca
from bmoca.device import InvalidInput
from bmoca.sim import snapshots
from bmoca.sim.device import SimDevice
from bmoca.sim.system.clock import MAX_TIME_MS

pytestmark = pytest.mark.reliability


def unchanged(device: SimDevice, before: bytes) -> None:
    """Same state as `before`, and the phone still dumps, draws and answers `date`."""
    assert device.snapshot_bytes() == before
    assert "<hierarchy" in device.dump_hierarchy()
    assert device.screenshot().shape[2] == 3
    assert device.shell("date")[1] == 0


# -- the device API ----------------------------------------------------------------------


@pytest.mark.parametrize("call, message", [
    (lambda d: d.long_press(100, 100, 10**15), "duration must be in [0, 2147483647]"),
    (lambda d: d.swipe(1, 1, 500, 500, float("nan")), "duration must be finite"),
    (lambda d: d.swipe(1, 1, 500, 500, float("inf")), "duration must be finite"),
    (lambda d: d.swipe(1, 1, 500, 500, "300"), "duration must be a number of ms"),
    (lambda d: d.swipe(1, 1, 500, 500, None), "duration must be a number of ms"),
    (lambda d: d.swipe(1, 1, 500, 500, -1), "duration must be in [0,"),
    (lambda d: d.tap(float("inf"), 5), "x must be finite"),
    (lambda d: d.tap(10**400, 5), "outside the"),
    (lambda d: d.tap(None, 5), "x must be a number"),
    (lambda d: d.tap(True, 5), "x must be a number"),
    (lambda d: d.input_text("a" * 100_001), "types at most 100000"),
    (lambda d: d.input_text(b"abc"), "text must be a string"),
    (lambda d: d.press("NOPE"), "unknown key"),
])
def test_device_refuses_bad_values_with_the_phone_unchanged(device, call, message):
    before = device.snapshot_bytes()
    with pytest.raises(InvalidInput, match=message.replace("[", r"\[")):
        call(device)
    unchanged(device, before)


def test_an_input_past_the_end_of_the_clock_is_refused(device):
    device.system.state.clock.now_ms = MAX_TIME_MS - 50  # 8999-12-31 23:59:59.950
    before = device.snapshot_bytes()
    with pytest.raises(InvalidInput, match="past year 9000"):
        device.tap(100, 100)
    unchanged(device, before)


# -- the shell ---------------------------------------------------------------------------


@pytest.mark.parametrize("cmd, output, code", [
    ("input swipe 100 100 500 500 9223372036854775808",
     "Error: Invalid arguments for command: swipe\n", 1),
    ("input tap 1e400 5", "", 0),  # Infinity: the input system drops a touch off the screen
    ("input tap nan 5", "Error: Invalid arguments for command: tap\n", 1),
    ("sleep 99999999999999999999d", "sleep: 99999999999999999999d: Numerical result out of "
     "range\n", 1),
    ("wm density 2147483647", "Error: Density must be at most 1280dpi\n", 255),
    ("wm density 99999999999", 'Error: bad number java.lang.NumberFormatException: For input '
     'string: "99999999999"\n', 255),
    ("wm size 99999999999x5", 'Error: bad number java.lang.NumberFormatException: For input '
     'string: "99999999999"\n', 255),
    ("date 010100009999", "date: bad date '010100009999'\n", 1),
    ("date -d @99999999999999999", "date: bad date '@99999999999999999'\n", 1),
    ("printf %99999999d 1", "printf: %99999999d: field width or precision over 10000\n", 1),
    ("printf %d " + "9" * 5000, "printf: invalid number '" + "9" * 5000 + "'\n", 1),
    ("echo " + "a" * 1_000_000, "/system/bin/sh: Argument list too long\n", 126),
])
def test_shell_validates_before_changing_anything(device, cmd, output, code):
    before = device.snapshot_bytes()
    started = time.perf_counter()
    out, status = device.shell(cmd)
    assert time.perf_counter() - started < 5  # bounded cost, whatever the argument
    assert status == code and out.startswith(output), (status, out[:200])
    unchanged(device, before)


def test_limits_in_range_still_work(device):
    assert device.shell("wm density 1280") == ("", 0)
    assert device.shell("wm size 200x200") == ("", 0)
    assert device.screenshot().shape == (200, 200, 3)
    assert device.shell("printf %5d 7") == ("    7", 0)
    assert device.shell("sleep 1d") == ("", 0)
    device.swipe(10, 100, 10, 100, 2**31 - 1)  # the longest press `input swipe` can send


# -- snapshots ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["../../x", "/tmp/x", "a/b", "..", "", ".hidden", None])
def test_snapshot_names_stay_in_their_directory(tmp_path, name):
    device = SimDevice(snapshot_dir=tmp_path / "snaps")
    with pytest.raises(InvalidInput, match="bad snapshot name"):
        device.snapshot_save(name)
    with pytest.raises(InvalidInput, match="bad snapshot name"):
        device.snapshot_load(name)
    assert not any(tmp_path.rglob("*.snapshot"))


class _Planted:
    def __reduce__(self):
        return (os.system, ("touch planted-ran",))


def test_a_planted_snapshot_file_runs_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    snaps = tmp_path / "snaps"
    snaps.mkdir()
    (snaps / "raw.snapshot").write_bytes(pickle.dumps(_Planted()))
    (snaps / "signed.snapshot").write_bytes(snapshots.encode(pickle.dumps(_Planted())))
    good = SimDevice(snapshot_dir=snaps)
    good.shell("settings put system screen_brightness 7")
    good.snapshot_save("good")
    damaged = (snaps / "good.snapshot").read_bytes()
    (snaps / "damaged.snapshot").write_bytes(damaged[:-1] + bytes([damaged[-1] ^ 1]))
    device = SimDevice(snapshot_dir=snaps)
    before = device.snapshot_bytes()
    for name, message in [("raw", "not a bmoca snapshot file"),
                          ("signed", "refers to posix.system, which is not phone state"),
                          ("damaged", "is damaged: its digest does not match")]:
        with pytest.raises(InvalidInput, match=message):
            device.snapshot_load(name)
    assert not (tmp_path / "planted-ran").exists()
    unchanged(device, before)
    device.snapshot_load("good")  # a real file from another device loads
    assert device.shell("settings get system screen_brightness") == ("7\n", 0)


# -- the environment: an agent's garbage is its own invalid action ------------------------


@pytest.fixture(scope="module")
def envs():
    made = {mode: bmoca.make("phone/call_11489", observation="xml", action=mode)
            for mode in ("dual_gesture", "discrete", "text", "json")}
    yield made
    for env in made.values():
        env.close()


@pytest.mark.parametrize("mode, action", [
    ("dual_gesture", [10**400, 0, 0, 0]),
    ("dual_gesture", [[0.5] * 4] * 1000),
    ("dual_gesture", [float("nan")] * 4),
    ("discrete", 10**400),
    ("text", "tap(" + "9" * 5000 + ")"),
    ("text", "dual-gesture(" + "9" * 5000 + ", 0, 0, 0)"),
    ("text", "Action: tap(1)" + " " * 20000),
    ("json", '{"action_type": "click", "index": ' + "9" * 5000 + "}"),
    ("json", "[" * 10000),
    ("json", "[" * 100_000),
    ("json", {"action_type": "click", "x": 10**400, "y": 1}),
    ("json", {"action_type": "input_text", "text": "a" * 200_000}),
])
def test_garbage_actions_are_counted_invalid(envs, mode, action):
    env = envs[mode]
    env.reset(seed=0)
    before = env.device.snapshot_bytes()
    observation, reward, terminated, truncated, info = env.step(action)
    assert info["action_error"] and info["invalid_actions"] == 1 and info["steps"] == 1
    assert env.observation_space.contains(observation)
    assert (reward, terminated) == (0.0, False)
    assert env.device.snapshot_bytes() == before
    assert "<hierarchy" in env.device.dump_hierarchy()


@pytest.mark.parametrize("options, message", [
    ({"pixels_size": (100000, 100000)}, "pixels_size sides must be ints in 1..4096"),
    ({"som_size": (0, 10)}, "som_size sides must be ints in 1..4096"),
    ({"pixels_size": "big"}, "pixels_size must be"),
    ({"step_limit": -1}, "step_limit must be a positive int"),
    ({"step_limit": 0}, "step_limit must be a positive int"),
])
def test_make_refuses_sizes_and_limits_out_of_range(options, message):
    with pytest.raises(ValueError, match=message):
        bmoca.make("phone/call_11489", observation="pixels", **options)


def test_step_limit_is_kept():
    env = bmoca.make("phone/call_11489", observation="xml", action="discrete", step_limit=2)
    env.reset(seed=0)
    assert env.step(383)[3] is False
    assert env.step(383)[3] is True
    assert np.isfinite(env.step_limit) and env.step_limit == 2


@pytest.mark.parametrize("action", [
    {"action_type": "click", "x": 10**400, "y": 1},
    "[" * 10000,
    '{"action_type": "click", "index": ' + "9" * 5000 + "}",
    {"action_type": "click", "index": 10**30},
])
def test_androidworld_env_refuses_garbage_with_invalid_action(action):
    from bmoca.env.actions import InvalidAction
    from bmoca.env.androidworld import AndroidWorldEnv

    with AndroidWorldEnv(config="test_env_100") as env:
        env.get_state()
        before = env.device.snapshot_bytes()
        with pytest.raises(InvalidAction):
            env.execute_action(action)
        assert env.device.snapshot_bytes() == before

"""Device backends register themselves (`bmoca.devices` entry points): the factory opens a
target through its scheme's backend and imports no other backend, the simulator
included; a package of one's own adds a scheme by declaring an entry point."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bmoca import configs
from bmoca.device import DeviceConfig, backends, connect

ROOT = Path(__file__).resolve().parent.parent


def _run(code: str, extra_path: Path | None = None) -> str:
    path = [str(ROOT)] + ([str(extra_path)] if extra_path else [])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [*path, os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, check=True, env=env, cwd=ROOT).stdout.strip()


def test_the_adb_backend_opens_without_importing_the_simulator():
    out = _run("""
        import sys
        import bmoca.device.adb
        from bmoca.device import backends, connect
        assert backends.find("adb:emulator-5554") is bmoca.device.adb.BACKEND
        print(sorted(m for m in sys.modules if m == "bmoca.sim" or m.startswith("bmoca.sim.")))
        backends.find("sim")
        print("bmoca.sim.device" in sys.modules)
    """)
    assert out.splitlines() == ["[]", "True"]


def test_sim_targets_open_the_simulated_phone_in_the_configuration():
    device = connect("sim", DeviceConfig(id="plain"))
    assert type(device).__module__ == "bmoca.sim.device" and device.serial == "sim-plain"
    with pytest.raises(ValueError, match="no address: use `sim`"):
        connect("sim:5554")


def test_an_unknown_scheme_names_the_ones_there_are():
    with pytest.raises(ValueError, match=r"unknown device target 'tcp:1'; supported: .*adb.*sim"):
        connect("tcp:1")


def test_a_package_adds_a_scheme_by_an_entry_point(tmp_path):
    """A distribution on the path declaring `bmoca.devices: echo = ...` is found by name,
    imported only when a target names it, and its device is provisioned when it asks."""
    (tmp_path / "echo_backend.py").write_text(textwrap.dedent("""
        from bmoca.device.backends import Backend

        def _open(target, config, snapshot_dir, clean):
            from bmoca.device import connect
            device = connect("sim")
            device.opened_as = target
            return device

        BACKEND = Backend(_open, provisions=True)
    """))
    info = tmp_path / "echo_backend-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: echo-backend\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[bmoca.devices]\necho = echo_backend:BACKEND\n")
    out = _run("""
        import sys
        import bmoca
        from bmoca.device import backends, connect
        print("echo" in backends.schemes(), "echo_backend" in sys.modules)
        device = connect("echo:1", "random_train_3")
        print(device.opened_as, device.shell("getprop persist.sys.locale")[0].strip())
    """, tmp_path)
    locale = configs.get("random_train_3").locale
    assert locale != "en-US"  # the stock phone's: provisioning must have changed it
    assert out.splitlines() == ["True False", f"echo:1 {locale}"]


def test_register_replaces_a_scheme_at_run_time(monkeypatch):
    opened = []
    fake = backends.Backend(lambda t, c, s, k: opened.append((t, c, k)) or "device")
    monkeypatch.setitem(backends._registered, "fake", fake)
    assert connect("fake:x", DeviceConfig(id="c"), clean=True) == "device"
    assert opened == [("fake:x", DeviceConfig(id="c"), True)]

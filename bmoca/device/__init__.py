"""The device layer: the `Device` contract and the factory that opens a phone."""

from __future__ import annotations

from pathlib import Path

from bmoca.device.config import DeviceConfig, DeviceProfile, HomeLayout
from bmoca.device.contract import Device, DeviceError, InvalidInput, Key

__all__ = ["Device", "DeviceConfig", "DeviceError", "DeviceProfile", "HomeLayout",
           "InvalidInput", "Key", "connect"]

TARGETS = ("sim", "adb", "adb:SERIAL", "adb:HOST:PORT")


def connect(target: str = "sim", config: DeviceConfig | None = None,
            snapshot_dir: str | Path | None = None) -> Device:
    """Open a phone and put it in `config` (None: a stock Pixel 3 in en-US).

    `"sim"` is the in-process simulated phone. The configuration is applied through the
    contract (`bmoca.device.provision`), the same steps a real emulator gets.

    `"adb"` (the only attached device), `"adb:SERIAL"` or `"adb:HOST:PORT"` is a real
    emulator or phone (or a served simulator) through the adb server. It is used as it
    is, except that an emulator holding a snapshot named after the configuration (built
    by `bmoca avd build`) is loaded from it.
    """
    if target == "adb" or target.startswith("adb:"):
        from bmoca.device.adb import open_adb

        adb_device = open_adb(target)
        if config is not None and adb_device.serial.startswith("emulator-"):
            try:
                names = adb_device.snapshots()
            except DeviceError:
                names = []
            if config.id in names:
                adb_device.snapshot_load(config.id)
        return adb_device
    if target != "sim":
        raise ValueError(f"unknown device target {target!r}; supported: {', '.join(TARGETS)}")
    from bmoca.sim.device import SimDevice
    from bmoca.sim.system.server import Hardware

    config = config or DeviceConfig()
    profile = config.profile
    hardware = Hardware(profile.width, profile.height, profile.density,
                        model=profile.model or profile.name, landscape=profile.landscape)
    device = SimDevice(hardware, snapshot_dir=snapshot_dir, serial=f"sim-{config.id}")
    if config != DeviceConfig(id=config.id, profile=config.profile, split=config.split):
        from bmoca.device.provision import provision

        provision(device, config)
    return device

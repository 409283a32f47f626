"""The device layer: the `Device` contract and the factory that opens a phone."""

from __future__ import annotations

from pathlib import Path

from bmoca.device.config import DeviceConfig, DeviceProfile, HomeLayout
from bmoca.device.contract import Device, DeviceError, InvalidInput, Key

__all__ = ["Device", "DeviceConfig", "DeviceError", "DeviceProfile", "HomeLayout",
           "InvalidInput", "Key", "connect"]

TARGETS = ("sim",)


def connect(target: str = "sim", config: DeviceConfig | None = None,
            snapshot_dir: str | Path | None = None) -> Device:
    """Open a phone and put it in `config` (None: a stock Pixel 3 in en-US).

    `"sim"` is the in-process simulated phone. The configuration is applied through the
    contract (`bmoca.device.provision`), the same steps a real emulator gets.
    """
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

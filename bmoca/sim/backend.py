"""The simulated phone as a device backend (`sim`), declared under the `bmoca.devices`
entry points so that `bmoca.device.connect` opens it without importing this package."""

from __future__ import annotations

from pathlib import Path

from bmoca.device.backends import Backend
from bmoca.device.config import DeviceConfig
from bmoca.sim.device import SimDevice
from bmoca.sim.system.server import Hardware

__all__ = ["BACKEND"]


def _open(target: str, config: DeviceConfig | None, snapshot_dir: Path | None,
          clean: bool) -> SimDevice:
    """A new in-process phone with the configuration's hardware (screen, density, model),
    booted as a stock phone: always clean, so `clean` asks for nothing more."""
    if target != "sim":
        raise ValueError(f"the simulated phone takes no address: use `sim`, not {target!r}")
    profile = (config or DeviceConfig()).profile
    hardware = Hardware(profile.width, profile.height, profile.density,
                        model=profile.model or profile.name, landscape=profile.landscape)
    return SimDevice(hardware, snapshot_dir=snapshot_dir,
                     serial=f"sim-{(config or DeviceConfig()).id}")


BACKEND = Backend(_open, provisions=True)

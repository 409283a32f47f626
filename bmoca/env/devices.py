"""Phones for environments: one per configuration, each reset from its own snapshot.

Provisioning a configuration (locale, wallpaper, density, home screen) takes a fraction
of a second on the simulator and minutes on an emulator, so it happens once per
configuration; every episode then starts by loading the configuration's snapshot, as
B-MoCA's environments load their emulator snapshots.
"""

from __future__ import annotations

import re

from bmoca import configs
from bmoca.device import Device, DeviceConfig, connect

BASE_SNAPSHOT = "bmoca-config-base"


class DevicePool:
    """Keeps one phone per configuration; `get` hands it back in its starting state.

    `target` is `"sim"` (a simulated phone per configuration) or an `adb...` target of
    `bmoca.device.connect` (one real phone, put in each configuration from the emulator
    snapshot named after it, or else reset to it, before its base snapshot is taken: a
    phone used before would otherwise start every episode from its used state). A phone
    passed in as a `Device` object is used as it is for every configuration: it must
    already be in the configuration the caller asks for (a real emulator loaded from its
    B-MoCA snapshot).
    """

    def __init__(self, target: str | Device = "sim"):
        self.target = target
        self._devices: dict[str, Device] = {}

    def get(self, config: DeviceConfig, fresh: bool = True) -> Device:
        """The phone of `config`, in its starting state (`fresh=False`: as it is, for a
        caller that puts a state of its own on it next)."""
        if isinstance(self.target, Device):
            return self.target
        phone = phone_id(config)
        device = self._devices.get(phone)
        if device is None:
            device = connect(self.target, config=config, clean=True)
            device.snapshot_save(f"{BASE_SNAPSHOT}-{phone}")
            self._devices[phone] = device
        elif fresh:
            device.snapshot_load(f"{BASE_SNAPSHOT}-{phone}")
        return device

    @property
    def simulated(self) -> bool | None:
        """True for simulated phones (the only ones that can fork an episode), False for
        real ones, None for a phone passed in (its own `fork_state` says)."""
        return None if isinstance(self.target, Device) else self.target == "sim"

    def close(self) -> None:
        for device in self._devices.values():
            device.close()
        self._devices.clear()


_PERTURBATION = re.compile(r"\+perturbation=[^+]*")


def phone_id(config: DeviceConfig) -> str:
    """The phone a configuration is played on, named for its base snapshot (several may
    share one emulator): configurations that differ only in their perturbation schedule,
    which acts during episodes and not on the phone, share one."""
    return _PERTURBATION.sub("", config.id)


def resolve_config(config: str | DeviceConfig) -> DeviceConfig:
    return config if isinstance(config, DeviceConfig) else configs.get(config)

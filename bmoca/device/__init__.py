"""The device layer: the `Device` contract and the factory that opens a phone.

The factory finds each kind of target's backend by name (`bmoca.device.backends`: the
`bmoca.devices` entry points), so importing it imports no backend, the simulator included.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from bmoca.device import backends
from bmoca.device.config import DeviceConfig, DeviceProfile, HomeLayout
from bmoca.device.contract import Device, DeviceError, InvalidInput, Key

__all__ = ["Device", "DeviceConfig", "DeviceError", "DeviceProfile", "HomeLayout",
           "InvalidInput", "Key", "connect", "register_config_source"]

TARGETS = ("sim", "adb", "adb:SERIAL", "adb:HOST:PORT")

_config_sources: list[Callable[[str], DeviceConfig]] = []


def register_config_source(source: Callable[[str], DeviceConfig]) -> None:
    """Let `connect` take a configuration by id. The presets live in a layer above this one
    (`bmoca.configs`), so that layer hands its lookup down instead of being imported here;
    `import bmoca` registers it."""
    if source not in _config_sources:
        _config_sources.append(source)


def _named_config(config_id: str) -> DeviceConfig:
    errors = []
    for source in _config_sources:
        try:
            return source(config_id)
        except KeyError as exc:
            errors.append(exc)
    if errors:
        raise errors[0]
    raise KeyError(f"unknown configuration {config_id!r}: no configuration source is "
                   "registered (import bmoca)")


def connect(target: str = "sim", config: DeviceConfig | str | None = None,
            snapshot_dir: str | Path | None = None, *, clean: bool = False) -> Device:
    """Open a phone and put it in `config` (None: a stock Pixel 3 in en-US).

    `"sim"` is the in-process simulated phone (`bmoca.sim.backend`). The configuration is
    applied through the contract (`bmoca.device.provision`), the same steps a real
    emulator gets.

    `"adb"` (the only attached device), `"adb:SERIAL"` or `"adb:HOST:PORT"`
    (`bmoca.device.adb`) is a real
    emulator or phone (or a served simulator) through the adb server. It is used as it
    is, except that an emulator holding a snapshot named after the configuration (built
    by `bmoca avd build`) is loaded from it. With `clean`, an emulator without that
    snapshot is put in the configuration's clean state instead (`provision.reset`: the
    configuration applied and the framework restarted, as B-MoCA's build does), since it
    may have been used before; `CannotReset` when it cannot be (no root shell).

    `config` is a `DeviceConfig` or, as `bmoca.make` takes it, a configuration id
    (`"test_env_100"`, `"random_train_7"`); an unknown id raises KeyError naming the valid ones.
    Other schemes come from packages that declare a `bmoca.devices` entry point; an
    unknown one raises ValueError naming those there are.
    """
    if isinstance(config, str):
        config = _named_config(config)
    backend = backends.find(target)
    device = backend.open(target, config, None if snapshot_dir is None else Path(snapshot_dir),
                          clean)
    if backend.provisions and config is not None and config != DeviceConfig(
            id=config.id, profile=config.profile, split=config.split):
        from bmoca.device.provision import provision

        provision(device, config)
    return device

"""Device backends: what `bmoca.device.connect` opens for each kind of target.

A target is `SCHEME` or `SCHEME:ADDRESS` (`sim`, `adb`, `adb:emulator-5554`). Each scheme
is a `Backend`, declared under the `bmoca.devices` entry-point group (the scheme is the
entry point's name, its value a `Backend` object), so the factory imports no backend until
a target asks for it: the simulated phone describes itself in its own package
(`bmoca.sim.backend`), and another package adds a scheme by declaring an entry point in
that group. `register` adds one at run time (tests, plugins loaded by hand).

This module sits with the contract at the bottom of the layers: a backend imports it to
describe itself, and it imports nothing above the contract.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bmoca.device.config import DeviceConfig
from bmoca.device.contract import Device

__all__ = ["GROUP", "Backend", "find", "register", "schemes"]

GROUP = "bmoca.devices"
"""The entry-point group whose names are target schemes and values `Backend` objects."""

BUILT_IN = {"sim": "bmoca.sim.backend:BACKEND", "adb": "bmoca.device.adb:BACKEND"}
"""The entry points bmoca's own pyproject.toml declares, used when its installed metadata
lacks them (a source tree on PYTHONPATH, an install older than the group). Names only:
nothing is imported until a target needs it."""


@dataclass(frozen=True)
class Backend:
    """How `connect` opens one kind of target.

    `open(target, config, snapshot_dir, clean)` returns the device. With `provisions`, it
    is a new phone in its profile's stock state and `connect` applies the rest of the
    configuration through the contract (`bmoca.device.provision`), the same steps a fresh
    emulator gets; otherwise `open` has put it in the configuration itself (an emulator's
    snapshot) or leaves it as it is."""

    open: Callable[[str, DeviceConfig | None, Path | None, bool], Device]
    provisions: bool = False


_registered: dict[str, Backend] = {}


def register(scheme: str, backend: Backend) -> None:
    """Make `scheme` targets open with `backend` (replacing an entry point of that name)."""
    _registered[scheme] = backend


def _entry_points() -> dict[str, str]:
    """scheme -> "module:attribute": the installed group's, then bmoca's own. Read only
    for a scheme bmoca does not have: scanning the installed distributions imports
    `zipfile` and reads every package's metadata, which a cold start does without."""
    import importlib.metadata

    found = {point.name: point.value for point in importlib.metadata.entry_points(group=GROUP)}
    return {**found, **BUILT_IN}


def schemes() -> list[str]:
    """Every scheme a target may name, sorted."""
    return sorted({*_registered, *_entry_points()})


def find(target: str) -> Backend:
    """The backend for `target`'s scheme; ValueError naming the schemes when none has it."""
    scheme = target.partition(":")[0]
    if scheme in _registered:
        return _registered[scheme]
    value = BUILT_IN.get(scheme) or _entry_points().get(scheme)
    if value is None:
        raise ValueError(f"unknown device target {target!r}; supported: "
                         f"{', '.join(schemes())} (adb:SERIAL, adb:HOST:PORT)")
    module, _, attribute = value.partition(":")
    backend = getattr(importlib.import_module(module), attribute)
    if not isinstance(backend, Backend):
        raise TypeError(f"the {GROUP} entry point {scheme} = {value!r} is not a "
                        "bmoca.device.backends.Backend")
    _registered[scheme] = backend
    return backend

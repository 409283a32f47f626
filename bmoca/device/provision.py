"""Apply a device configuration to any phone, through the Device contract only.

The steps mirror the B-MoCA environment build (`set_up.py`): locale property, wallpaper
file, display density and font scale, dark theme, home-screen database, then a framework
restart so the locale and the launcher database are read afresh. Because only `shell`
and `push` are used, the same call sets up the simulator, an emulator or a rooted phone.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from bmoca.device.config import DeviceConfig
from bmoca.device.contract import Device, DeviceError
from bmoca.formats import launcher_db

WALLPAPER_PATH = "/data/system/users/0/wallpaper"
LAUNCHER_DB_PATH = launcher_db.DEVICE_PATH


class ProvisionError(DeviceError):
    """A provisioning step failed; the message names the command and the device's output."""


def _run(device: Device, cmd: str) -> str:
    out, rc = device.shell(cmd)
    if rc != 0:
        raise ProvisionError(f"`{cmd}` failed with exit code {rc}: {out.strip() or '(no output)'}")
    return out


def _push(device: Device, data: bytes, path: str, what: str) -> None:
    try:
        device.push(data, path)
    except DeviceError as exc:
        raise ProvisionError(f"pushing the {what} to {path} failed: {exc}") from exc


def _wallpaper_png(config: DeviceConfig) -> bytes:
    """Drawn and encoded once per machine (the on-disk asset cache, keyed by the generator's
    source too), not once per process; a generator without a source file is not cached."""
    from bmoca.sim.render import disk_cache

    # Imported lazily: the generator pulls in Pillow and is only needed here.
    wallpapers = importlib.import_module("bmoca.assets.wallpapers")
    prof = config.profile

    def draw() -> bytes:
        return wallpapers.encode_png(wallpapers.generate(config.wallpaper, prof.width,
                                                         prof.height))

    source = getattr(wallpapers, "__file__", None)
    if source is None:
        return draw()
    return disk_cache.cached_bytes("wallpaper", (config.wallpaper, prof.width, prof.height),
                                   draw, (Path(source),))


def _font_scale_arg(value: float) -> str:
    return repr(float(value))  # "1.0", "1.15", "0.85"


def provision(device: Device, config: DeviceConfig) -> None:
    """Set locale, wallpaper, density, font scale, dark theme and home screen, then restart.

    Raises `ProvisionError` on the first failing step. Assumes a root shell, as B-MoCA's
    build does after `adb root`.
    """
    _run(device, f"setprop persist.sys.locale {config.locale}")
    _push(device, _wallpaper_png(config), WALLPAPER_PATH, f"wallpaper {config.wallpaper!r}")
    _run(device, "wm density reset")
    if config.density != config.profile.density:
        _run(device, f"wm density {config.density}")
    _run(device, f"settings put system font_scale {_font_scale_arg(config.font_scale)}")
    _run(device, f"cmd uimode night {'yes' if config.dark_theme else 'no'}")
    if config.home is not None:
        _push(device, launcher_db.build(config.home), LAUNCHER_DB_PATH, "launcher database")
    _run(device, "setprop ctl.restart zygote")

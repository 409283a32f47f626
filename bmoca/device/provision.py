"""Apply a device configuration to any phone, through the Device contract only.

The steps mirror the B-MoCA environment build (`set_up.py`): locale property, wallpaper
file, display density and font scale, dark theme, home-screen database, then a framework
restart so the locale and the launcher database are read afresh. Because only `shell`
and `push` are used, the same call sets up the simulator, an emulator or a rooted phone.
`reset` does the same to a phone that was used before, and waits for the restart.
"""

from __future__ import annotations

import importlib
import re
import time
from collections.abc import Callable
from pathlib import Path

from bmoca.device.config import GENERATED_PHONE, DeviceConfig
from bmoca.device.contract import Device, DeviceError
from bmoca.formats import launcher_db

WALLPAPER_PATH = "/data/system/users/0/wallpaper"
LAUNCHER_DB_PATH = launcher_db.DEVICE_PATH


RESTART_TIMEOUT_S = 180.0
"""How long a framework restart may take: 20-40 s on an emulator, more on a loaded host."""
RESTART_POLL_S = 1.0


class ProvisionError(DeviceError):
    """A provisioning step failed; the message names the command and the device's output."""


class CannotReset(ProvisionError):
    """A used phone that cannot be put in a configuration's clean state (no root shell, a
    framework that does not come back): the run must not start on it, as every score
    would be taken from the wrong state."""


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
    if config.profile.name == GENERATED_PHONE:  # an emulator built as a Pixel 3: resize it
        _run(device, f"wm size {config.profile.width}x{config.profile.height}")
        _run(device, f"wm density {config.density}")
    elif config.density != config.profile.density:
        _run(device, f"wm density {config.density}")
    _run(device, f"settings put system font_scale {_font_scale_arg(config.font_scale)}")
    _run(device, f"cmd uimode night {'yes' if config.dark_theme else 'no'}")
    if config.home is not None:
        _push(device, launcher_db.build(config.home), LAUNCHER_DB_PATH, "launcher database")
    _run(device, "setprop ctl.restart zygote")


def alarm_template_db() -> bytes:
    """B-MoCA's `alarms.db` (its one alarm template, 09:00, off) that the alarm tasks rely
    on; the build pushes it to every configuration."""
    from bmoca.sim.apps.clock import alarms_db  # the real deskclock schema and preset

    return alarms_db.build(alarms_db.PRESET)


def reset(device: Device, config: DeviceConfig, *, timeout_s: float = RESTART_TIMEOUT_S,
          sleep: Callable[[float], None] = time.sleep,
          clock: Callable[[], float] = time.monotonic) -> None:
    """Put a phone that may have been used before in `config`'s clean state, as B-MoCA's
    build leaves an emulator: the configuration applied, the alarm template written, and
    the framework restarted, which ends every app process (on a used phone an app opened
    earlier is still alive, so opening it again logs no `Start proc` line and shows the
    page it was left on) and brings up the home screen at its first page.

    Raises `CannotReset` when a step fails (a shell that is not root cannot write `/data`
    or set `persist.sys.locale`) or the framework does not come back within `timeout_s`.
    """
    from bmoca.sim.apps.clock import alarms_db

    before = _start_count(device)
    try:
        _push(device, alarm_template_db(), alarms_db.DEVICE_PATH, "alarm template")
        provision(device, config)
    except ProvisionError as exc:
        raise CannotReset(
            f"{device.serial} holds no snapshot named {config.id} and cannot be reset to "
            f"it: {exc}; give it a root shell (`adb -s {device.serial} root`) or build the "
            "configuration snapshots with `bmoca avd build`") from None
    deadline = clock() + timeout_s
    while not _restarted(device, before):
        if clock() >= deadline:
            raise CannotReset(f"{device.serial}: the framework did not come back within "
                              f"{timeout_s:g} s of `setprop ctl.restart zygote` (the launcher "
                              "is not resumed); see `adb logcat`, or restart the emulator")
        sleep(RESTART_POLL_S)


def _start_count(device: Device) -> int | None:
    """system_server's starts since boot (SystemServer's SYSPROP_START_COUNT), None where
    the phone does not say."""
    from bmoca.sim.system.props import START_COUNT_PROP

    out, code = device.shell(f"getprop {START_COUNT_PROP}")
    text = out.strip()
    return int(text) if code == 0 and text.isdigit() else None


def _restarted(device: Device, before: int | None) -> bool:
    """Whether a framework started after `before` has the launcher resumed.

    A runtime restart leaves `sys.boot_completed` at 1, so the new system_server is told
    from the old one by its start count; it is ready once the home activity is resumed
    (Settings' FallbackHome comes first while the user is being unlocked)."""
    if before is not None:
        count = _start_count(device)
        if count is None or count <= before:
            return False
    out, code = device.shell("dumpsys activity activities")
    resumed = re.search(r"mResumedActivity: ActivityRecord\{\S+ u0 ([^/\s]+)/", out)
    return code == 0 and resumed is not None and resumed.group(1) == launcher_db.PACKAGE

"""`settings`: get, put, delete, list and reset over the settings provider."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from bmoca.sim.shell.errors import Io, java_exception
from bmoca.sim.system.settings import DEFAULTS, NAMESPACES

if TYPE_CHECKING:
    from bmoca.sim.shell.session import Session, Tool


SETTINGS_HELP = """\
Settings provider (settings) commands:
  help
      Print this help text.
  get [--user <USER_ID> | current] NAMESPACE KEY
      Retrieve the current value of KEY.
  put [--user <USER_ID> | current] NAMESPACE KEY VALUE [TAG] [default]
      Change the contents of KEY to VALUE.
      TAG to associate with the setting.
      {default} to set as the default, case-insensitive only for global/secure namespace
  delete NAMESPACE KEY
      Delete the entry for KEY.
  reset [--user <USER_ID> | current] NAMESPACE {PACKAGE_NAME | RESET_MODE}
      Reset the global/secure table for a package with mode.
      RESET_MODE is one of {untrusted_defaults, untrusted_clear, trusted_defaults}, case-insensitive
  list NAMESPACE
      Print all defined keys.
      NAMESPACE is one of {system, secure, global}, case-insensitive
"""
_SETTINGS_VALIDATORS: dict[str, Callable[[str], bool]] = {}


def _int_in(lo: int, hi: int) -> Callable[[str], bool]:
    def check(value: str) -> bool:
        try:
            return lo <= int(value) <= hi
        except ValueError:
            return False
    return check


def _non_negative_float(value: str) -> bool:
    try:
        return float(value) >= 0
    except ValueError:
        return False


_SETTINGS_VALIDATORS.update({
    "screen_brightness": _int_in(0, 255), "screen_brightness_mode": _int_in(0, 1),
    "font_scale": _non_negative_float, "accelerometer_rotation": _int_in(0, 1),
    "user_rotation": _int_in(0, 3), "vibrate_when_ringing": _int_in(0, 1),
    "haptic_feedback_enabled": _int_in(0, 1), "sound_effects_enabled": _int_in(0, 1),
    "screen_off_timeout": _int_in(0, 2**31 - 1), "show_touches": _int_in(0, 1),
    "pointer_location": _int_in(0, 1), "time_12_24": lambda v: v in ("12", "24"),
})
"""Android 10's Settings.System validators for the keys the simulator has (shell puts checked)."""


def cmd_settings(sh: Session, args: list[str], io: Io) -> int:
    return settings_service(sh, args, io)


def settings_service(sh: Session, args: list[str], io: Io) -> int:
    """SettingsService's shell command, parsed exactly as Android 10 parses it."""
    if not args or args[0] in ("help", "-h"):
        io.out(SETTINGS_HELP)
        return 255
    verb = table = key = value = None
    user: str | None = None
    make_default = False
    valid = False
    i = 0

    def fail(message: str) -> int:
        io.err(message + "\n")
        return 255

    while i < len(args):
        arg = args[i]
        i += 1
        more = i < len(args)
        if arg == "--user":
            if user is not None:
                break
            if not more:
                raise java_exception('Argument expected after "--user"')
            user = args[i]
            i += 1
            if user not in ("current", "cur") and not re.fullmatch(r"-?\d+", user):
                raise java_exception(f'For input string: "{user}"',
                                      "java.lang.NumberFormatException")
        elif verb is None:
            if arg.lower() not in ("get", "put", "delete", "list", "reset"):
                return fail(f"Invalid command: {arg}")
            verb = arg.lower()
        elif table is None:
            if arg.lower() not in NAMESPACES:
                return fail(f"Invalid namespace '{arg}'")
            table = arg.lower()
            if verb == "list":
                valid = True
                break
        elif verb == "reset":
            key = arg
            extra = 1 if arg.lower() not in ("untrusted_defaults", "untrusted_clear",
                                             "trusted_defaults") else 0
            if len(args) - i > extra:
                return fail("Too many arguments")
            valid = True
            break
        elif verb in ("get", "delete"):
            key = arg
            if more:
                return fail("Too many arguments")
            valid = True
            break
        elif key is None:
            key = arg
        elif value is None:
            value = arg
            valid = True
        elif arg.lower() == "default":
            make_default = True
            if more:
                return fail("Too many arguments")
            break
        elif more and args[i].lower() != "default":
            return fail("Argument expected to be 'default'")
    if not valid:
        return fail("Bad arguments")
    if user is not None:
        if verb in ("delete", "list"):
            return fail("--user not supported for delete and list.")
        if user not in ("current", "cur", "0"):
            return fail(f"Invalid user: {user}")
    assert table is not None
    settings = sh.system.state.settings
    if verb == "get":
        current = settings.get(table, key or "")
        io.out(f"{'null' if current is None else current}\n")
    elif verb == "put":
        assert key is not None and value is not None
        if table == "system" and make_default:
            io.out("Ignored makeDefault - doesn't apply to system settings")
        check = _SETTINGS_VALIDATORS.get(key) if table == "system" else None
        if check is not None and not check(value):
            raise java_exception(f"Invalid value: {value} for setting: {key}")
        sh.system.put_setting(table, key, value)
    elif verb == "delete":
        deleted = settings.delete(table, key or "")
        if deleted:
            sh.notify_setting(table, key or "")
        io.out(f"Deleted {1 if deleted else 0} rows\n")
    elif verb == "list":
        io.lines(sorted(f"{k}={v}" for k, v in settings.tables[table].items()))
    else:
        defaults = DEFAULTS.get(table, {})
        for name in sorted(settings.tables[table]):
            if name in defaults:
                sh.system.put_setting(table, name, defaults[name])
            elif settings.delete(table, name):
                sh.notify_setting(table, name)
    return 0


COMMANDS: dict[str, Tool] = {
    "settings": cmd_settings,
}

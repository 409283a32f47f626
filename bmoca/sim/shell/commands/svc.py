"""`svc`: wifi, data and power."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bmoca.sim.shell.commands.props import reboot
from bmoca.sim.shell.errors import SHELL_PACKAGE, Io

if TYPE_CHECKING:
    from bmoca.sim.shell.session import Session, Tool


SVC_HELP = """\
Available commands:
    help     Show information about the subcommands
    power    Control the power manager
    data     Control mobile data connectivity
    wifi     Control the Wi-Fi manager
    usb      Control Usb state
    nfc      Control NFC functions
"""
SVC_WIFI_HELP = "Control the Wi-Fi manager\n\nusage: svc wifi [enable|disable]\n         Turn Wi-Fi on or off.\n\n"
SVC_DATA_HELP = ("Control mobile data connectivity\n\nusage: svc data [enable|disable]\n"
                 "         Turn mobile data on or off.\n\n")
SVC_POWER_HELP = (
    "Control the power manager\n\n"
    "usage: svc power stayon [true|false|usb|ac|wireless]\n"
    "         Set the 'keep awake while plugged in' setting.\n"
    "       svc power reboot [reason]\n"
    "         Perform a runtime shutdown and reboot device with specified reason.\n"
    "       svc power shutdown\n"
    "         Perform a runtime shutdown and power off the device.\n\n"
)


def cmd_svc(sh: Session, args: list[str], io: Io) -> int:
    if not args or args[0] == "help":
        if len(args) > 1:
            helps = {"wifi": SVC_WIFI_HELP, "data": SVC_DATA_HELP, "power": SVC_POWER_HELP}
            io.out(helps.get(args[1], SVC_HELP))
        else:
            io.out(SVC_HELP)
        return 0
    sub, rest = args[0], args[1:]
    if sub in ("wifi", "data"):
        if not rest or rest[0] not in ("enable", "disable"):
            io.err(SVC_WIFI_HELP if sub == "wifi" else SVC_DATA_HELP)
            return 1
        on = rest[0] == "enable"
        if sub == "wifi":
            # WifiServiceImpl logs the caller: com.android.shell, uid 2000 (0 under su)
            sh.system.set_wifi(on, caller=SHELL_PACKAGE, caller_uid=sh.uid)
        else:
            sh.system.put_setting("global", "mobile_data", "1" if on else "0")
        return 0
    if sub == "power":
        values = {"true": "7", "false": "0", "usb": "2", "ac": "1", "wireless": "4"}
        if len(rest) == 2 and rest[0] == "stayon" and rest[1] in values:
            sh.system.put_setting("global", "stay_on_while_plugged_in", values[rest[1]])
            return 0
        if rest and rest[0] in ("reboot", "shutdown"):
            reboot(sh)
            return 0
        io.err(SVC_POWER_HELP)
        return 1
    if sub in ("usb", "nfc"):
        return 0
    io.err(f"Unknown command '{sub}'\n" + SVC_HELP)
    return 1


COMMANDS: dict[str, Tool] = {
    "svc": cmd_svc,
}

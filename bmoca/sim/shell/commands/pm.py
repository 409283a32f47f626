"""The package manager: `pm list`, `pm path` and the rest of what tools ask it."""

from __future__ import annotations

import base64
import hashlib
from typing import TYPE_CHECKING

from bmoca.sim.shell.commands.am import drop_user, force_stop
from bmoca.sim.shell.errors import SHELL_UID, Io, java_exception

if TYPE_CHECKING:
    from bmoca.sim.shell.session import Session, Tool


PM_HELP = """\
Package manager (package) commands:
  help
    Print this help text.

  path [--user USER_ID] PACKAGE
    Print the path to the .apk of the given PACKAGE.

  list packages [-f] [-d] [-e] [-s] [-3] [-i] [-l] [-u] [-U]\x20
      [--show-versioncode] [--apex-only] [--uid UID] [--user USER_ID] [FILTER]
    Prints all packages; optionally only those whose name contains
    the text in FILTER.  Options are:
      -f: see their associated file
      -a: all known packages (but excluding APEXes)
      -d: filter to only show disabled packages
      -e: filter to only show enabled packages
      -s: filter to only show system packages
      -3: filter to only show third party packages
      -i: see the installer for the packages
      -l: ignored (used for compatibility with older releases)
      -U: also show the package UID
      -u: also include uninstalled packages
      --uid UID: filter to only show packages with the given UID
      --user USER_ID: only list packages belonging to the given user

  clear [--user USER_ID] PACKAGE
    Deletes all data associated with a package.

  grant [--user USER_ID] PACKAGE PERMISSION
  revoke [--user USER_ID] PACKAGE PERMISSION
    These commands either grant or revoke permissions to apps.  The permissions
    must be declared as used in the app's manifest, be runtime permissions
    (protection level dangerous), and the app targeting SDK greater than Lollipop MR1.
"""
EXTRA_PACKAGES = (
    "android", "com.android.backupconfirm", "com.android.bluetooth",
    "com.android.bluetoothmidiservice", "com.android.bookmarkprovider",
    "com.android.captiveportallogin", "com.android.carrierconfig",
    "com.android.carrierdefaultapp", "com.android.cellbroadcastreceiver",
    "com.android.certinstaller", "com.android.companiondevicemanager",
    "com.android.cts.ctsshim", "com.android.cts.priv.ctsshim", "com.android.dynsystem",
    "com.android.egg", "com.android.emergency", "com.android.externalstorage",
    "com.android.htmlviewer", "com.android.inputdevices", "com.android.keychain",
    "com.android.localtransport", "com.android.location.fused", "com.android.managedprovisioning",
    "com.android.mms.service", "com.android.mtp", "com.android.ons", "com.android.pacprocessor",
    "com.android.phone", "com.android.printspooler", "com.android.providers.blockednumber",
    "com.android.providers.calendar", "com.android.providers.contacts",
    "com.android.providers.downloads", "com.android.providers.downloads.ui",
    "com.android.providers.media", "com.android.providers.settings",
    "com.android.providers.telephony", "com.android.providers.userdictionary",
    "com.android.proxyhandler", "com.android.se", "com.android.server.telecom",
    "com.android.sharedstoragebackup", "com.android.shell", "com.android.simappdialog",
    "com.android.smspush", "com.android.soundpicker", "com.android.statementservice",
    "com.android.stk", "com.android.storagemanager", "com.android.traceur",
    "com.android.vpndialogs", "com.android.wallpaper.livepicker", "com.android.wallpaperbackup",
    "com.google.android.apps.wellbeing", "com.google.android.backuptransport",
    "com.google.android.ext.services", "com.google.android.ext.shared",
    "com.google.android.gms", "com.google.android.gsf", "com.google.android.modulemetadata",
    "com.google.android.networkstack", "com.google.android.networkstack.permissionconfig",
    "com.google.android.onetimeinitializer", "com.google.android.packageinstaller",
    "com.google.android.partnersetup", "com.google.android.permissioncontroller",
    "com.google.android.sdksetup", "com.google.android.syncadapters.calendar",
    "com.google.android.tag", "com.google.android.webview",
)
"""System packages of an Android 10 google_apis image that the simulator has no app for."""
_PRIV_APKS = {
    "com.android.settings": "Settings", "com.android.systemui": "SystemUI",
    "com.google.android.apps.nexuslauncher": "NexusLauncherRelease",
    "com.android.contacts": "Contacts", "com.android.dialer": "Dialer",
    "com.android.documentsui": "DocumentsUIGoogle", "com.android.phone": "TeleService",
    "com.android.providers.settings": "SettingsProvider", "com.android.shell": "Shell",
    "com.google.android.gms": "PrebuiltGmsCore", "com.google.android.gsf": "GoogleServicesFramework",
    "com.android.server.telecom": "Telecom", "com.android.providers.media": "MediaProvider",
}


def cmd_pm(sh: Session, args: list[str], io: Io) -> int:
    return pm_service(sh, args, io)


def _packages(sh: Session) -> dict[str, tuple[bool, str, int]]:
    """Installed packages: name -> (is system, apk path, uid)."""
    found: dict[str, tuple[bool, str, int]] = {}
    for name, app in sh.system.apps.items():
        third_party = not name.startswith(("com.android.", "com.google."))
        found[name] = (not third_party, _apk_path(name, third_party), app.uid)
    for k, name in enumerate(EXTRA_PACKAGES):
        if name not in found:
            uid = {"android": 1000, "com.android.shell": SHELL_UID,
                   "com.android.phone": 1001, "com.android.providers.settings": 1000}.get(
                name, 10010 + k)
            found[name] = (True, _apk_path(name, False), uid)
    return found


def _apk_path(package: str, third_party: bool) -> str:
    if package == "android":
        return "/system/framework/framework-res.apk"
    if third_party:
        digest = base64.urlsafe_b64encode(hashlib.md5(package.encode()).digest()).decode()
        return f"/data/app/{package}-{digest[:22]}==/base.apk"
    name = _PRIV_APKS.get(package) or "".join(
        part.capitalize() for part in package.split(".")[-1].split("_"))
    folder = "priv-app" if package in _PRIV_APKS else "app"
    return f"/system/{folder}/{name}/{name}.apk"


def pm_service(sh: Session, args: list[str], io: Io) -> int:
    if not args or args[0] in ("help", "-h"):
        io.out(PM_HELP)
        return 255
    sub, rest = args[0], drop_user(args[1:])
    packages = _packages(sh)
    if sub == "list" and rest[:1] in (["packages"], ["package"]):
        return _pm_list(sh, rest[1:], packages, io)
    if sub == "path":
        if not rest:
            raise java_exception('Argument expected after "path"')
        if rest[0] not in packages:
            return 1
        io.out(f"package:{packages[rest[0]][1]}\n")
        return 0
    if sub == "clear":
        while rest and rest[0].startswith("-"):
            rest = rest[2:] if rest[0] in ("--user", "-f") else rest[1:]
        if not rest:
            raise java_exception('Argument expected after "clear"')
        if rest[0] not in packages:
            io.err("Failed\n")
            return 1
        app = sh.app(rest[0])
        if app is not None:
            force_stop(sh, rest[0], "clear data")
            sh.system.state.app_data[rest[0]] = app.initial_data()
        io.out("Success\n")
        return 0
    if sub in ("grant", "revoke"):
        if len(rest) < 2:
            raise java_exception(f'Argument expected after "{rest[0] if rest else sub}"')
        if rest[0] not in packages:
            raise java_exception(f"Unknown package: {rest[0]}")
        return 0
    io.out(f"Unknown command: {sub}\n")
    return 255


def _pm_list(sh: Session, args: list[str], packages: dict, io: Io) -> int:
    flags: set[str] = set()
    name_filter = ""
    uid_filter = None
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg in ("--user", "--uid"):
            if i >= len(args):
                raise java_exception(f'Argument expected after "{arg}"')
            if arg == "--uid":
                uid_filter = args[i]
            i += 1
        elif arg in ("--show-versioncode", "--apex-only"):
            flags.add(arg)
        elif arg.startswith("-") and len(arg) > 1:
            for flag in arg[1:]:
                if flag not in "fdes3ilUua":
                    io.err(f"Error: Unknown option: -{flag}\n")
                    return 255
                flags.add(flag)
        else:
            name_filter = arg
    if "--apex-only" in flags or "d" in flags:
        return 0
    lines = []
    for name in sorted(packages):
        system, path, uid = packages[name]
        if name_filter not in name or ("s" in flags and not system)\
                or ("3" in flags and system) or (uid_filter and str(uid) != uid_filter):
            continue
        line = "package:" + (f"{path}=" if "f" in flags else "") + name
        if "--show-versioncode" in flags:
            line += " versionCode:29"
        if "i" in flags:
            line += "  installer=null"
        if "U" in flags:
            line += f" uid:{uid}"
        lines.append(line)
    io.lines(lines)
    return 0


COMMANDS: dict[str, Tool] = {
    "pm": cmd_pm,
}

"""The 45 B-MoCA configurations on a real Android emulator: AVDs, snapshots, checks.

`plan(...)` lists every command `bmoca avd build` runs (printed by `--dry-run`): one AVD
per device profile on `system-images;android-29;google_apis;x86_64`, an `init` snapshot
with the user's third-party APKs installed, then per configuration: load `init`, apply
the configuration through the same `provision()` the simulator gets (recorded as the
`adb shell` / `adb push` commands it sends), and save a snapshot named after it.
`doctor()` says what is missing (SDK tools, KVM, the system image, APKs) and how to get it.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from bmoca.device.config import GENERATED_PHONE, DeviceConfig
from bmoca.device.contract import Device, DeviceError, Key

SYSTEM_IMAGE = "system-images;android-29;google_apis;x86_64"
ALARMS_DB_PATH = "/data/user_de/0/com.google.android.deskclock/databases/alarms.db"
BASE_PORT = 5554
DISABLED_APPS = ("com.google.android.apps.docs", "com.google.android.videos",
                 "com.google.android.music")
AVD_PROFILES = {"pixel_3": "pixel_3", "pixel_4": "pixel_4", "pixel_4_xl": "pixel_4_xl",
                "pixel_5": "pixel_5", "pixel_6": "pixel_6", "WXGA_Tablet": "10.1in WXGA (Tablet)",
                GENERATED_PHONE: "pixel_3"}  # provision resizes it (wm size, wm density)
"""bmoca profile -> avdmanager hardware profile id (named, unlike B-MoCA's list indices)."""

APKS = {
    "instagram": "Instagram 325.0.0.35.91 (372509503)",
    "wikipedia": "Wikipedia 2.7.50484-r-2024-04-19 (50484)",
    "snapseed": "Snapseed 2.20.0.526050212 (1251211)",
    "walmart": "Walmart 24.19 (24190029)",
    "calculator": "Google Calculator 8.6 (612662282) (85005407)",
}
"""The APKs B-MoCA installs (its apks_versions.txt, from APKMirror); they cannot be shipped,
the user points to them. Chrome, Gmail, Maps, YouTube and the rest come with the image."""


def console_command(port: int, command: str, host: str = "127.0.0.1",
                    home: Path | None = None, timeout: float = 120.0) -> str:
    """Send one command to the emulator console on `port`; the text before `OK`, or
    `DeviceError` on `KO:` (what `adb emu` does, without swallowing the error)."""
    token_file = (home or Path.home()) / ".emulator_console_auth_token"
    token = token_file.read_text().strip() if token_file.is_file() else ""
    try:
        with socket.create_connection((host, port), timeout=timeout) as sock:
            reader = sock.makefile("rb")

            def until_status() -> list[str]:
                lines = []
                while True:
                    raw = reader.readline()
                    if not raw:
                        raise DeviceError(f"emulator console on port {port} closed the connection")
                    line = raw.decode("utf-8", "replace").rstrip("\r\n")
                    if line == "OK" or line.startswith("OK:"):
                        return lines
                    if line.startswith("KO"):
                        raise DeviceError(f"emulator console `{command}`: {line}")
                    lines.append(line)

            until_status()  # the greeting
            if token:
                sock.sendall(f"auth {token}\n".encode())
                until_status()
            sock.sendall(f"{command}\n".encode())
            lines = until_status()
            sock.sendall(b"quit\n")
            return "\n".join(lines)
    except OSError as exc:
        raise DeviceError(f"no emulator console on {host}:{port} ({exc}); is the emulator "
                          f"emulator-{port} running?") from None


# -- the build plan ---------------------------------------------------------------------------
class _Recorder(Device):
    """A device that records what `provision()` sends, for the dry-run command list."""

    def __init__(self, serial: str, config: DeviceConfig):
        self.serial = serial
        self.config = config
        self.commands: list[list[str]] = []

    def shell(self, cmd: str) -> tuple[str, int]:
        self.commands.append(["adb", "-s", self.serial, "shell", cmd])
        return "", 0

    def push(self, data: bytes, path: str) -> None:
        name = "wallpaper.png" if "wallpaper" in path else Path(path).name
        local = f"build/{self.config.id}/{name}"
        self.commands.append(["adb", "-s", self.serial, "push", local, path])

    def screen_size(self) -> tuple[int, int]:
        return self.config.profile.width, self.config.profile.height

    def screenshot(self) -> np.ndarray:
        raise DeviceError("a recording device has no screen")

    def dump_hierarchy(self) -> str:
        raise DeviceError("a recording device has no screen")

    def tap(self, x: int, y: int) -> None: ...

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None: ...

    def press(self, key: str | Key) -> None: ...

    def input_text(self, text: str) -> None: ...

    def pull(self, path: str) -> bytes:
        raise DeviceError("a recording device has no files")

    def snapshot_save(self, name: str) -> None: ...

    def snapshot_load(self, name: str) -> None: ...


def avd_name(config: DeviceConfig) -> str:
    return f"bmoca_{config.profile.name}_{config.split or 'train'}"


@dataclass
class Step:
    """One command of the build; `provision` steps are run through AdbDevice, not a shell."""

    argv: list[str]
    note: str = ""
    background: bool = False

    @property
    def generated(self) -> bool:
        """A push of a file the build makes itself (wallpaper, launcher.db, alarms.db under
        build/CONFIG/): nothing the user has to provide."""
        return self.note == "provision" and self.argv[3:4] == ["push"]

    def text(self) -> str:
        import shlex

        line = " ".join(shlex.quote(a) for a in self.argv) + (" &" if self.background else "")
        return line + ("  # generated by bmoca avd build" if self.generated else "")


@dataclass
class Plan:
    steps: list[Step] = field(default_factory=list)

    def add(self, *argv: str, note: str = "", background: bool = False) -> None:
        self.steps.append(Step(list(argv), note, background))


def plan(configs: list[DeviceConfig], apks: dict[str, Path] | None = None) -> Plan:
    """Every command to build the AVDs and one snapshot per configuration, in order."""
    from bmoca.device.provision import provision

    apks = apks or {}
    out = Plan()
    out.add("sdkmanager", SYSTEM_IMAGE, "platform-tools", "emulator", note="SDK packages")
    by_avd: dict[str, list[DeviceConfig]] = {}
    for config in configs:
        by_avd.setdefault(avd_name(config), []).append(config)
    for k, (name, members) in enumerate(by_avd.items()):
        profile = members[0].profile
        port = BASE_PORT + 2 * k
        serial = f"emulator-{port}"
        adb = ["adb", "-s", serial]
        out.add("avdmanager", "create", "avd", "--force", "-n", name, "-k", SYSTEM_IMAGE,
                "-d", AVD_PROFILES.get(profile.name, profile.name), note=f"AVD for {profile.name}")
        out.add("emulator", "-avd", name, "-port", str(port), "-no-audio", "-no-window",
                "-no-boot-anim", "-gpu", "swiftshader_indirect", background=True)
        out.add(*adb, "wait-for-device")
        out.add(*adb, "shell", "while [ \"$(getprop sys.boot_completed)\" != 1 ]; do sleep 2; done")
        out.add(*adb, "root")
        out.add(*adb, "wait-for-device")
        for package in DISABLED_APPS:
            out.add(*adb, "shell", f"pm disable-user --user 0 {package}")
        for app in sorted(apks):
            out.add(*adb, "install", "-r", "-g", str(apks[app]), note=APKS.get(app, app))
        out.add(*adb, "emu", "avd", "snapshot", "save", "init")
        for config in members:
            out.add(*adb, "emu", "avd", "snapshot", "load", "init", note=config.id)
            out.add(*adb, "root")
            out.add(*adb, "wait-for-device")
            recorder = _Recorder(serial, config)
            provision(recorder, config)
            for argv in recorder.commands:
                out.add(*argv, note="provision")
            # B-MoCA's one alarm template (09:00, disabled) that the alarm tasks rely on;
            # the Clock reads its database at start, hence the reboot
            out.add(*adb, "push", f"build/{config.id}/alarms.db", ALARMS_DB_PATH, note="provision")
            out.add(*adb, "reboot")
            out.add(*adb, "wait-for-device")
            out.add(*adb, "shell", "while [ \"$(getprop sys.boot_completed)\" != 1 ]; do sleep 2; done")
            out.add(*adb, "root")
            out.add(*adb, "wait-for-device")
            out.add(*adb, "emu", "avd", "snapshot", "save", config.id)
        out.add(*adb, "emu", "kill")
    return out


# -- doctor -----------------------------------------------------------------------------------
@dataclass
class Check:
    name: str
    ok: bool
    detail: str
    fix: str = ""


def sdk_root() -> Path | None:
    for var in ("ANDROID_SDK_ROOT", "ANDROID_HOME"):
        value = os.environ.get(var)
        if value:
            return Path(value)
    default = Path.home() / "Android" / "Sdk"
    return default if default.is_dir() else None


def _tool(name: str, sdk: Path | None, *subdirs: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    if sdk is not None:
        for sub in subdirs:
            path = sdk / sub / name
            if path.is_file():
                return str(path)
    return None


def doctor(apk_dir: Path | None = None) -> list[Check]:
    """What `bmoca avd build` needs, each with how to get it when missing."""
    sdk = sdk_root()
    checks = [Check("Android SDK", sdk is not None,
                    str(sdk) if sdk else "ANDROID_SDK_ROOT / ANDROID_HOME not set, ~/Android/Sdk missing",
                    "install the command-line tools (developer.android.com/studio#command-tools) "
                    "and set ANDROID_SDK_ROOT")]
    for name, subs, fix in (
        ("adb", ("platform-tools",), "apt-get install adb, or sdkmanager platform-tools"),
        ("emulator", ("emulator",), "sdkmanager emulator"),
        ("sdkmanager", ("cmdline-tools/latest/bin", "tools/bin"), "install the SDK command-line tools"),
        ("avdmanager", ("cmdline-tools/latest/bin", "tools/bin"), "install the SDK command-line tools"),
    ):
        path = _tool(name, sdk, *subs)
        checks.append(Check(name, path is not None, path or "not found", fix))
    kvm = Path("/dev/kvm")
    kvm_ok = kvm.exists() and os.access(kvm, os.R_OK | os.W_OK)
    checks.append(Check("KVM", kvm_ok, "/dev/kvm usable" if kvm_ok else
                        ("/dev/kvm not accessible" if kvm.exists() else "/dev/kvm missing"),
                        "enable virtualisation; add yourself to the kvm group "
                        "(sudo adduser $USER kvm)"))
    image = sdk / "system-images" / "android-29" / "google_apis" / "x86_64" if sdk else None
    checks.append(Check("system image", bool(image and image.is_dir()),
                        str(image) if image else SYSTEM_IMAGE, f'sdkmanager "{SYSTEM_IMAGE}"'))
    for apk in apk_states(apk_dir):
        checks.append(Check(f"APK {apk.app}", apk.ok, apk.detail(), apk.fix()))
    return checks


@dataclass
class ApkState:
    """One of the APKS: the file found for it in --apks DIR (or None) and what is wrong with
    it (None: it installs)."""

    app: str
    path: Path | None
    problem: str | None

    @property
    def ok(self) -> bool:
        return self.path is not None and self.problem is None

    def detail(self) -> str:
        if self.path is None:
            return "not given"
        return f"{self.path}: {self.problem}" if self.problem else str(self.path)

    def fix(self) -> str:
        return (f"download {APKS[self.app]} yourself and pass --apks DIR (file name "
                f"containing '{self.app}')")


def apk_problem(path: Path) -> str | None:
    """Why `adb install` would refuse `path` (an APK is a zip archive: it starts `PK`), or
    None. An empty file, such as an interrupted download, is not an APK."""
    try:
        with open(path, "rb") as f:
            head = f.read(2)
    except OSError as exc:
        return f"unreadable ({exc.strerror or exc})"
    if not head:
        return "empty file, not an APK (download it again)"
    if head != b"PK":
        return "not an APK (no zip header; download it again)"
    return None


def apk_states(apk_dir: Path | None) -> list[ApkState]:
    """Each of the APKS with the file found for it in `apk_dir` and its problem, if any."""
    found = find_apks(apk_dir) if apk_dir else {}
    return [ApkState(app, found.get(app), apk_problem(found[app]) if app in found else None)
            for app in APKS]


def usable_apks(apk_dir: Path | None) -> dict[str, Path]:
    """The APKs of `apk_dir` that install, by app (what `plan` installs)."""
    return {a.app: a.path for a in apk_states(apk_dir) if a.ok and a.path is not None}


def find_apks(apk_dir: Path) -> dict[str, Path]:
    """APK files in `apk_dir` by app, matched by name (`snapseed*.apk`, ...)."""
    found: dict[str, Path] = {}
    if apk_dir and Path(apk_dir).is_dir():
        for path in sorted(Path(apk_dir).glob("*.apk")):
            for app in APKS:
                if re.search(app, path.name, re.IGNORECASE):
                    found.setdefault(app, path)
    return found

"""`dumpsys`: window, activity, display, input, battery, power."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from bmoca.sim.apps.systemui import interruptions
from bmoca.sim.shell.errors import Io
from bmoca.sim.shell.helpers import SERVICES, stable_hash
from bmoca.sim.system.server import SYSTEMUI_UID

if TYPE_CHECKING:
    from bmoca.sim.shell.session import Session, Tool


def cmd_dumpsys(sh: Session, args: list[str], io: Io) -> int:
    while args and args[0] in ("-t", "-T", "--skip", "--priority"):
        args = args[2:]
    if args and args[0] == "-l":
        io.out("Currently running services:\n" + "".join(f"  {s}\n" for s in SERVICES))
        return 0
    dumps: dict[str, Callable[[Session, list[str], Io], None]] = {
        "activity": _dump_activity, "window": _dump_window,
        "display": _dump_display, "input": _dump_input,
        "battery": _dump_battery, "power": _dump_power,
    }
    if not args:
        for name in sorted(dumps):
            io.out("-" * 79 + f"\nDUMP OF SERVICE {name}:\n")
            dumps[name](sh, [], io)
        return 0
    service, rest = args[0], args[1:]
    if service in dumps:
        dumps[service](sh, rest, io)
    elif service not in SERVICES:
        io.err(f"Can't find service: {service}\n")
    return 0


def _focus(sh: Session) -> dict[str, str]:
    """Names and stable hashes for the focused window, app token and activity record."""
    am = sh.system.am
    record = am.top_record()
    task = am.state.foreground
    if record is None or task is None:
        return {}
    index = task.records.index(record) if record in task.records else 0
    key = (task.id, index, record.package, record.cls, sh.system.state.boot_count)
    dialog = sh.device.frame.window("dialog") is not None
    title = f"{record.package}/{record.cls}"
    focus_title = record.package if dialog else title
    activity = f"ActivityRecord{{{stable_hash('record', *key)} u0 {record.component} t{task.id}}}"
    window = f"Window{{{stable_hash('window', *key)} u0 {title}}}"
    return {
        "window": window,
        "focus": (f"Window{{{stable_hash('dialog', *key)} u0 {focus_title}}}" if dialog
                  else window),
        "record": activity,
        "app": (f"AppWindowToken{{{stable_hash('token', *key)} token=Token{{"
                f"{stable_hash('binder', *key)} {activity}}}}}"),
        "package": record.package,
        "component": record.component,
        "task": str(task.id),
    }


def _dump_window(sh: Session, args: list[str], io: Io) -> None:
    section = args[0] if args else ""
    names = {"windows": "w", "w": "w", "displays": "d", "d": "d", "policy": "p",
             "p": "p", "": ""}
    if section not in names and not section.startswith("-"):
        io.out(f"Bad window command, or no windows match: {section}\nUse -h for help.\n")
        return
    kind = names.get(section, "")
    focus = _focus(sh)
    width, height, density, status, nav = sh.display_metrics()
    hardware = sh.system.state.hardware
    if kind in ("", "p"):
        io.out("WINDOW MANAGER POLICY STATE (dumpsys window policy)\n"
               "    mSafeMode=false mSystemReady=true mSystemBooted=true\n"
               "    mLidState=LID_ABSENT mLidOpenRotation=-1\n"
               "    mScreenOnEarly=true mScreenOnFully=true\n"
               "    mKeyguardDrawComplete=true mWindowManagerDrawComplete=true\n"
               "    mHomePressed=false\n")
        if kind == "p":
            return
    if kind in ("", "d"):
        base = ""
        if (width, height) != (hardware.width, hardware.height) or density != hardware.density:
            base = f" base={width}x{height} {density}dpi"
        app_h = height - nav
        io.out("WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n"
               "  Display: mDisplayId=0\n"
               f"    init={hardware.width}x{hardware.height} {hardware.density}dpi{base} "
               f"cur={width}x{height} app={width}x{app_h} "
               f"rng={width}x{width - status}-{app_h}x{app_h - status}\n"
               "    deferred=false mLayoutNeeded=false "
               f"mTouchExcludeRegion=SkRegion(({0},{0},{width},{height}))\n\n"
               f"  mCurrentFocus={focus.get('focus', 'null')}\n"
               f"  mFocusedApp={focus.get('app', 'null')}\n\n")
    if kind in ("", "w"):
        io.out("WINDOW MANAGER WINDOWS (dumpsys window windows)\n")
        frame = sh.device.frame
        for number, window in reversed(list(enumerate(frame.windows))):
            if window.kind == "nav_bar":
                title, owner = "NavigationBar", SYSTEMUI_UID
            elif window.kind == "status_bar":
                title, owner = "StatusBar", SYSTEMUI_UID
            elif window.kind == "ime":
                title, owner = "InputMethod", 10090
            elif window.kind == "dialog":
                title = window.package
                app = sh.app(window.package)
                owner = app.uid if app else 1000
            elif interruptions.window_title(window) is not None:
                title = interruptions.window_title(window)
                owner = SYSTEMUI_UID if window.kind == "heads_up" else 1000
            else:
                record = window.record
                title = f"{record.package}/{record.cls}" if record else window.package
                app = sh.app(window.package)
                owner = app.uid if app else 1000
            if window.kind in ("app", "dialog") and focus:
                name = focus["window"] if window.kind == "app" else focus["focus"]
            else:
                name = f"Window{{{stable_hash('window', title, window.kind)} u0 {title}}}"
            left, top, right, bottom = window.box
            owner_pid = sh.system.pid_of(window.package)
            shown_uid = str(owner) if owner < 10000 else f"u0a{owner - 10000}"
            io.out(f"  Window #{number} {name}:\n"
                   f"    mDisplayId=0 rootTaskId=1 mSession=Session{{"
                   f"{stable_hash('session', owner)} {owner_pid}:{shown_uid}}} "
                   f"mClient=android.os.BinderProxy@{stable_hash('client', title)}\n"
                   f"    mOwnerUid={owner} mShowToOwnerOnly=true package={window.package} "
                   "appop=NONE\n"
                   f"    mFrame=[{left},{top}][{right},{bottom}] "
                   f"mHasSurface=true isReadyForDisplay()=true\n")
        io.out(f"\n  mGlobalConfiguration={sh.configuration()}\n"
               "  mHasPermanentDpad=false\n"
               "  mTopFocusedDisplayId=0\n"
               "  mInTouchMode=true\n"
               f"  mCurrentFocus={focus.get('focus', 'null')}\n"
               f"  mFocusedApp={focus.get('app', 'null')}\n")


def _dump_activity(sh: Session, args: list[str], io: Io) -> None:
    section = args[0] if args else "activities"
    am = sh.system.am.state
    focus = _focus(sh)
    if section not in ("activities", "a"):
        if section == "top":
            wanted = [am.foreground] if am.foreground is not None else []
        elif "." in section:
            name = section.split("/")[0]
            wanted = [t for t in [*reversed(am.recents), am.home]
                      if t is not None and t.package == name]
        else:
            return
        for task in wanted:
            record = task.top
            if record is None:
                continue
            index = len(task.records) - 1
            key = (task.id, index, record.package, record.cls, sh.system.state.boot_count)
            io.out(f"TASK {task.package} id={task.id} userId=0\n"
                   f"  ACTIVITY {record.component} {stable_hash('activity', *key)} "
                   f"pid={sh.system.pid_of(record.package)}\n")
        return
    io.out("ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\n"
           "Display #0 (activities from top to bottom):\n")
    tasks = [t for t in [*reversed(am.recents), am.home] if t is not None]
    if am.foreground in tasks:
        tasks.remove(am.foreground)
        tasks.insert(0, am.foreground)
    for task in tasks:
        home = task is am.home
        io.out(f"\n  Stack #{task.id}: type={'home' if home else 'standard'} mode=fullscreen\n"
               "  isSleeping=false\n\n"
               f"    Task id #{task.id}\n"
               f"    * TaskRecord{{{stable_hash('task', task.id)} #{task.id} "
               f"A={task.package} U=0 StackId={task.id} sz={len(task.records)}}}\n"
               f"      intent={{{task.root_intent.short_string()}}}\n")
        for k, record in reversed(list(enumerate(task.records))):
            key = (task.id, k, record.package, record.cls, sh.system.state.boot_count)
            io.out(f"      * Hist #{k}: ActivityRecord{{{stable_hash('record', *key)} u0 "
                   f"{record.component} t{task.id}}}\n"
                   f"          packageName={record.package} "
                   f"processName={record.package}\n")
        if task is am.foreground and focus:
            io.out(f"\n    mResumedActivity: {focus['record']}\n")
    if focus:
        io.out(f"\n ResumedActivity: {focus['record']}\n")


def _dump_display(sh: Session, args: list[str], io: Io) -> None:
    width, height, density, _, nav = sh.display_metrics()
    hardware = sh.system.state.hardware
    physical = f"{hardware.width} x {hardware.height}"
    io.out("DISPLAY MANAGER (dumpsys display)\n"
           "  mOnlyCode=false\n  mSafeMode=false\n  mPendingTraversal=false\n"
           "  mGlobalDisplayState=ON\n  mNextNonDefaultDisplayId=1\n"
           "  mViewports=[DisplayViewport{type=INTERNAL, valid=true, isActive=true, "
           "displayId=0, uniqueId='local:0', physicalPort=0, orientation=0, "
           f"logicalFrame=Rect(0, 0 - {width}, {height}), physicalFrame=Rect(0, 0 - "
           f"{hardware.width}, {hardware.height}), deviceWidth={hardware.width}, "
           f"deviceHeight={hardware.height}}}]\n"
           "  mDefaultDisplayDefaultColorMode=0\n  mSingleDisplayDemoMode=false\n"
           f"  mStableDisplaySize=Point({hardware.width}, {hardware.height})\n\n"
           "Display Devices: size=1\n"
           f"  DisplayDeviceInfo{{\"Built-in Screen\": uniqueId=\"local:0\", {physical}, "
           f"modeId 1, defaultModeId 1, supportedModes [{{id=1, width={hardware.width}, "
           f"height={hardware.height}, fps=60.0}}], colorMode 0, supportedColorModes [0], "
           f"density {hardware.density}, {hardware.density}.0 x {hardware.density}.0 dpi, "
           "appVsyncOff 1000000, presDeadline 16666666, touch INTERNAL, rotation 0, "
           "type BUILT_IN, address {port=0}, state ON, FLAG_DEFAULT_DISPLAY, "
           "FLAG_ROTATES_WITH_CONTENT, FLAG_SECURE, FLAG_SUPPORTS_PROTECTED_BUFFERS}\n\n"
           "Logical Displays: size=1\n"
           "  Display 0:\n    mDisplayId=0\n    mLayerStack=0\n    mHasContent=true\n"
           f"    mBaseDisplayInfo=DisplayInfo{{\"Built-in Screen\", displayId 0, uniqueId "
           f"\"local:0\", app {hardware.width} x {hardware.height - nav}, real {physical}, "
           f"rotation 0, density {hardware.density} ({hardware.density}.0 x "
           f"{hardware.density}.0) dpi, layerStack 0, type BUILT_IN, state ON}}\n"
           f"    mOverrideDisplayInfo=DisplayInfo{{\"Built-in Screen\", displayId 0, "
           f"uniqueId \"local:0\", app {width} x {height - nav}, real {width} x {height}, "
           f"rotation 0, density {density} ({hardware.density}.0 x "
           f"{hardware.density}.0) dpi, layerStack 0, type BUILT_IN, state ON}}\n")


def _dump_input(sh: Session, args: list[str], io: Io) -> None:
    hardware = sh.system.state.hardware
    width, height, *_ = sh.display_metrics()
    io.out("INPUT MANAGER (dumpsys input)\n\n"
           "Input Manager State:\n  Interactive: true\n  System UI Visibility: 0x8008\n"
           "  Pointer Speed: 0\n  Pointer Gestures Enabled: true\n  Show Touches: false\n"
           "  Pointer Capture Enabled: false\n\n"
           "Event Hub State:\n  BuiltInKeyboardId: -2\n\n"
           "Input Reader State:\n"
           "  Device 1: virtio_input_multi_touch_1\n"
           "    Generation: 8\n    IsExternal: false\n    HasMic:     false\n"
           "    Sources: 0x00001002\n    KeyboardType: 0\n"
           "    Touch Input Mapper (mode - direct):\n"
           f"      Viewport INTERNAL: displayId=0, uniqueId=local:0, port=0, orientation=0, "
           f"logicalFrame=[0, 0, {width}, {height}], physicalFrame=[0, 0, {hardware.width}, "
           f"{hardware.height}], deviceSize=[{hardware.width}, {hardware.height}]\n"
           f"      SurfaceWidth: {width}px\n      SurfaceHeight: {height}px\n"
           "      SurfaceLeft: 0\n      SurfaceTop: 0\n"
           f"      PhysicalWidth: {hardware.width}px\n      PhysicalHeight: {hardware.height}px\n"
           "      PhysicalLeft: 0\n      PhysicalTop: 0\n      SurfaceOrientation: 0\n")


def _dump_battery(sh: Session, args: list[str], io: Io) -> None:
    io.out("Current Battery Service state:\n  AC powered: true\n  USB powered: false\n"
           "  Wireless powered: false\n  Max charging current: 0\n"
           "  Max charging voltage: 0\n  Charge counter: 10000\n  status: 2\n  health: 2\n"
           "  present: true\n  level: 100\n  scale: 100\n  voltage: 5000\n"
           "  temperature: 250\n  technology: Li-ion\n")


def _dump_power(sh: Session, args: list[str], io: Io) -> None:
    io.out("POWER MANAGER (dumpsys power)\n\nPower Manager State:\n"
           "  mDirty=0x0\n  mWakefulness=Awake\n  mWakefulnessChanging=false\n"
           "  mIsPowered=true\n  mPlugType=1\n  mBatteryLevel=100\n"
           "  mDisplayReady=true\n  mHoldingWakeLockSuspendBlocker=false\n"
           "  mHoldingDisplaySuspendBlocker=true\n\n"
           "Display Power: state=ON\n")


COMMANDS: dict[str, Tool] = {
    "dumpsys": cmd_dumpsys,
}

"""system_server: the state of the phone and the services that change it, with their log lines.

`SystemState` is all mutable device state, plain data (pickled for snapshots);
`SystemServer` binds it to the installed apps and offers the services apps and the
shell call. Every change a detector can observe writes the same log line Android 10 does.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from bmoca.assets.photos import SAMPLE_PHOTO_PATH, sample_photo
from bmoca.sim.i18n import normalize_locale
from bmoca.sim.system import radios
from bmoca.sim.system.activity import ActivityManagerState, ActivityRecord, Task
from bmoca.sim.system.audio import STREAMS, AudioState
from bmoca.sim.system.clock import VirtualClock
from bmoca.sim.system.intent import (
    CATEGORY_HOME,
    FLAG_ACTIVITY_CLEAR_TASK,
    RESULT_CANCELED,
    Intent,
)
from bmoca.sim.system.logcat import LogBuffers
from bmoca.sim.system.props import DEFAULT_PROPS, START_COUNT_PROP, product_props
from bmoca.sim.system.settings import SettingsProvider, uri
from bmoca.sim.system.vfs import VirtualFS

SYSTEM_PID = 517
ZYGOTE_PID = 301
SYSTEMUI_PID = 760
PHONE_PID = 872
LAUNCHER_UID = 10089
SYSTEMUI_UID = 10074
HOME_PACKAGE = "com.google.android.apps.nexuslauncher"
SYSTEMUI_PACKAGE = "com.android.systemui"

_FIXED_PIDS = {"android": SYSTEM_PID, SYSTEMUI_PACKAGE: SYSTEMUI_PID, "com.android.phone": PHONE_PID}


@dataclass(frozen=True)
class Hardware:
    width: int
    height: int
    density: int
    model: str = "Pixel 3"
    landscape: bool = False


@dataclass
class SystemState:
    hardware: Hardware
    clock: VirtualClock = field(default_factory=VirtualClock)
    logs: LogBuffers = field(default_factory=LogBuffers)
    settings: SettingsProvider = field(default_factory=SettingsProvider)
    audio: AudioState = field(default_factory=AudioState)
    props: dict[str, str] = field(default_factory=dict)
    vfs: VirtualFS = field(default_factory=VirtualFS)
    am: ActivityManagerState = field(default_factory=ActivityManagerState)
    app_data: dict[str, Any] = field(default_factory=dict)
    density_override: int | None = None
    size_override: tuple[int, int] | None = None
    locale: str = "en-US"
    """The locale the framework runs in (persist.sys.locale as of the last restart)."""
    brightness_dialog: bool = False
    brightness_reason: str = "manual"
    """DisplayPowerController's last brightness reason ('manual' / 'temporary')."""
    boot_count: int = 0
    ime_target: tuple[str, str, str] | None = None
    """(package, activity, field id) the keyboard last attached to; None while it is hidden."""
    perturbations: Any = None
    """The episode's perturbation schedule and what of it is on screen, a
    `bmoca.sim.system.perturbations.Perturbations` (None: no schedule; that module reads
    this one, so the type is not imported here)."""


class InstalledApp(Protocol):
    """What the system needs of an installed package (`bmoca.sim.apps.base.App` is one).

    The context it passes to the callbacks comes from the server's context factory."""

    package: str
    uid: int
    activities: Mapping[str, Callable[[Intent], Any]]
    intent_actions: Mapping[str, str]
    system_process: bool

    def initial_data(self) -> Any: ...

    def on_boot(self, ctx: Any) -> None: ...

    def on_broadcast(self, ctx: Any, action: str) -> None: ...


ContextFactory = Callable[["SystemServer", str, "ActivityRecord | None"], Any]
"""Makes the handle an app's callbacks get (`bmoca.sim.apps.base.Context`)."""


class SystemServer:
    """Services over one `SystemState`; apps are the installed packages.

    Apps sit above the system server and their `Context` wraps it, so the server does not
    import them: the device gives it the apps and the factory of their contexts."""

    def __init__(self, state: SystemState, apps: Mapping[str, InstalledApp],
                 context: ContextFactory):
        self.state = state
        self.apps = apps
        self.new_context = context
        self.am = ActivityManager(self)
        self.task_snapshot: Callable[[int, tuple[int, int]], Any] | None = None
        """Draws a recent task's screen at a size (Overview's cards): composing a task's
        screen sits above the apps, so the device that owns this server provides it."""

    def context(self, package: str, record: ActivityRecord | None = None) -> Any:
        """The context an app's callback runs in (the activity's, when `record` is given)."""
        return self.new_context(self, package, record)

    # -- identity -------------------------------------------------------------------
    @property
    def locale(self) -> str:
        return self.state.locale

    @property
    def night_mode(self) -> bool:
        return self.state.settings.get("secure", "ui_night_mode") == "2"

    @property
    def density(self) -> int:
        return self.state.density_override or self.state.hardware.density

    @property
    def font_scale(self) -> float:
        scale = self.state.settings.get_float("system", "font_scale", 1.0)
        return scale if 0.25 <= scale <= 5.0 else 1.0

    def screen_px(self) -> tuple[int, int]:
        return self.state.size_override or (self.state.hardware.width, self.state.hardware.height)

    def screen_dp(self) -> tuple[float, float]:
        width, height = self.screen_px()
        scale = self.density / 160
        return width / scale, height / scale

    def smallest_width_dp(self) -> float:
        """Configuration.smallestScreenWidthDp: what `-swNNNdp` resource qualifiers test."""
        return min(self.screen_dp())

    @property
    def sw600dp(self) -> bool:
        """Whether apps take their large-screen (`values-sw600dp`, `layout-sw600dp`) resources."""
        return self.smallest_width_dp() >= 600

    def pid_of(self, package: str) -> int:
        if package in _FIXED_PIDS:
            return _FIXED_PIDS[package]
        return self.state.am.processes.get(package, SYSTEM_PID)

    # -- logging --------------------------------------------------------------------
    def log(self, pid: int, priority: str, tag: str, message: str, tid: int | None = None) -> None:
        self.state.clock.advance(1)
        self.state.logs.write(self.state.clock.now_ms, pid, tid or pid, priority, tag, message)

    def log_system(self, priority: str, tag: str, message: str) -> None:
        """A line from system_server (binder threads have their own tids)."""
        self.log(SYSTEM_PID, priority, tag, message, tid=SYSTEM_PID + 25)

    def log_from(self, package: str, priority: str, tag: str, message: str) -> None:
        self.log(self.pid_of(package), priority, tag, message)

    def note_ime_focus(self) -> None:
        """Gboard's `AndroidIME` line when the keyboard attaches to a newly focused text field
        (android10_ui_facts.md §1.15); called after every input, once per attach."""
        from bmoca.sim.system.windows import IME_PACKAGE

        record = self.am.top_record()
        target = ((record.package, record.cls, record.focus)
                  if record is not None and record.focus else None)
        if target == getattr(self.state, "ime_target", None):
            return
        self.state.ime_target = target
        if target is not None:
            self.log_from(IME_PACKAGE, "I", "AndroidIME",
                          "AbstractIme.onActivate():96 LatinIme.onActivate() : EditorInfo = "
                          f"EditorInfo{{packageName={target[0]}, inputType=1, "
                          "inputTypeString=Normal, enableLearning=true, autoCorrection=true, "
                          "autoComplete=true, imeOptions=2000003, privateImeOptions=null, "
                          "actionName=SEARCH}")

    # -- boot -----------------------------------------------------------------------
    def boot(self, first: bool) -> None:
        """Start (or restart) the framework: read the locale, start home, let apps load."""
        state = self.state
        if first:
            props = dict(DEFAULT_PROPS)
            props.update(product_props(state.hardware.model, state.hardware.model))
            props["ro.sf.lcd_density"] = str(state.hardware.density)
            state.props = props
            # B-MoCA's image build pushes one photo for the Snapseed tasks (reference §5.1)
            state.vfs.write(SAMPLE_PHOTO_PATH, sample_photo())
        try:
            state.locale = normalize_locale(state.props.get("persist.sys.locale", "en-US"))
        except ValueError:
            state.locale = "en-US"
        state.boot_count += 1
        # SystemServer's constructor counts its starts since the kernel booted (a runtime
        # restart, `setprop ctl.restart zygote`, adds one; `sys.boot_completed` stays 1)
        starts = state.props.get(START_COUNT_PROP, "0")
        state.props[START_COUNT_PROP] = str(int(starts) + 1 if starts.isdigit() else 1)
        state.am = ActivityManagerState(next_pid=state.am.next_pid)
        state.brightness_dialog = False
        for package, app in self.apps.items():
            if package not in state.app_data or first:
                state.app_data[package] = app.initial_data()
        for app in self.apps.values():
            app.on_boot(self.context(app.package))
        self.am.start_home()

    # -- settings -------------------------------------------------------------------
    def put_setting(self, namespace: str, key: str, value: str) -> None:
        if self.state.settings.put(namespace, key, value):
            self.log_system("V", "SettingsProvider", f"Notifying for 0: {uri(namespace, key)}")
            if (namespace, key) == ("global", "airplane_mode_on"):
                radios.bluetooth_airplane_observer(self)  # a content observer, not a receiver

    # -- connectivity (the rules are in `radios.py`) --------------------------------
    def set_wifi(self, enabled: bool, caller: str, caller_uid: int | None = None) -> None:
        uid = caller_uid if caller_uid is not None else (
            self.apps[caller].uid if caller in self.apps else 1000)
        self.log_system("I", "WifiService",
                        f"setWifiEnabled package={caller} uid={uid} enable={'true' if enabled else 'false'}")
        radios.wifi_toggled(self, enabled)

    def set_bluetooth(self, enabled: bool) -> None:
        radios.bluetooth_toggled(self, enabled)

    def set_airplane_mode(self, enabled: bool) -> None:
        radios.set_airplane_mode(self, enabled)

    @property
    def airplane_mode(self) -> bool:
        return radios.airplane_on(self)

    @property
    def wifi_enabled(self) -> bool:
        return radios.wifi_enabled(self)

    @property
    def bluetooth_enabled(self) -> bool:
        return radios.bluetooth_enabled(self)

    # -- audio ----------------------------------------------------------------------
    def set_volume(self, stream: int, level: int) -> None:
        for sid in self.state.audio.set(stream, level):
            spec = STREAMS[sid]
            self.state.settings.put("system", spec.settings_key, str(self.state.audio.get(sid)))
            if spec.logged:
                self.log(SYSTEMUI_PID, "I", "vol.Events",
                         f"writeEvent level_changed {spec.name} {self.state.audio.get(sid)}")

    # -- display --------------------------------------------------------------------
    def set_brightness(self, value: int, final: bool) -> None:
        """A slider drag sets a temporary brightness; lifting writes the setting."""
        value = max(0, min(255, value))
        previous = self.state.brightness_reason
        reason = "manual" if final else "temporary"
        if reason != previous:
            self.log_system("V", "DisplayPowerController",
                            f"Brightness [{value}] reason changing to: '{reason}', "
                            f"previous reason: '{previous}'.")
            self.state.brightness_reason = reason
        if final:
            self.put_setting("system", "screen_brightness", str(value))

    def set_night_mode(self, dark: bool) -> None:
        self.put_setting("secure", "ui_night_mode", "2" if dark else "1")

    def broadcast(self, action: str) -> None:
        if action == radios.AIRPLANE_MODE_CHANGED:
            radios.airplane_mode_changed(self)
        for app in self.apps.values():
            app.on_broadcast(self.context(app.package), action)


def format_uid(uid: int) -> str:
    """ActivityManager's formatUid: 1000 stays, 10137 -> u0a137."""
    return str(uid) if uid < 10000 else f"u0a{uid - 10000}"


class ActivityManager:
    """Starts, finishes and switches activities and tasks, with Android 10's log lines."""

    def __init__(self, system: SystemServer):
        self.system = system

    @property
    def state(self) -> ActivityManagerState:
        return self.system.state.am

    # -- queries ----------------------------------------------------------------------
    def top_record(self) -> ActivityRecord | None:
        task = self.state.foreground
        return task.top if task else None

    def resolve(self, intent: Intent) -> tuple[str, str] | None:
        if intent.component:
            package, cls = intent.component
            app = self.system.apps.get(package)
            if app and cls in app.activities:
                return intent.component
            return None
        for package, app in self.system.apps.items():
            if intent.package and intent.package != package:
                continue
            if intent.action in app.intent_actions:
                return package, app.intent_actions[intent.action]
        return None

    # -- processes --------------------------------------------------------------------
    def ensure_process(self, package: str, cls: str) -> None:
        app = self.system.apps[package]
        if app.system_process or package in self.state.processes:
            return
        pid = self.state.next_pid
        self.state.next_pid += 3
        self.state.processes[package] = pid
        self.system.log(ZYGOTE_PID, "D", "Zygote", f"Forked child process {pid}")
        self.system.log_system("I", "ActivityManager",
                               f"Start proc {pid}:{package}/{format_uid(app.uid)} "
                               f"for activity {{{package}/{cls}}}")

    def kill_process(self, package: str, reason: str) -> None:
        pid = self.state.processes.pop(package, None)
        if pid is not None:
            uid = self.system.apps[package].uid
            self.system.log_system("I", "ActivityManager",
                                   f"Killing {pid}:{package}/{format_uid(uid)} (adj 900): {reason}")

    # -- starting -------------------------------------------------------------------
    def start_home(self) -> None:
        home_app = self.system.apps[HOME_PACKAGE]
        cls = next(iter(home_app.activities))
        intent = Intent(action="android.intent.action.MAIN", categories=(CATEGORY_HOME,),
                        flags=0x10000100, component=(HOME_PACKAGE, cls))
        record = self._new_record(HOME_PACKAGE, cls, intent)
        self.state.home = Task(id=0, package=HOME_PACKAGE, root_intent=intent, records=[record])
        self.state.foreground = self.state.home
        self._create(record)

    def start_activity(self, intent: Intent, caller: str, caller_uid: int | None = None,
                       bring_to_front: bool = True, result_to: ActivityRecord | None = None,
                       request_code: int = -1) -> bool:
        """Resolve and start; False (with Android's warning line) if nothing handles it.

        A launcher intent for a package that has a task brings that task to front, unless
        `bring_to_front` is False (a launcher alias's trampoline handing over to the real
        activity inside its own task, as Gmail's does). With `result_to` (startActivityForResult)
        the new activity hands its result back to that record when it finishes; started in a
        new task it cannot, and ActivityStarter cancels the result at once, as Android does."""
        target = self.resolve(intent)
        if caller_uid is None:
            caller_uid = self.system.apps[caller].uid if caller in self.system.apps else 1000
        if target is None:
            self.system.log_system("W", "ActivityTaskManager",
                                   f"Unable to find activity for intent {{{intent.short_string()}}}")
            return False
        package, cls = target
        if intent.component is None:
            intent = copy.copy(intent)
            intent.component = target
        self.system.log_system("I", "ActivityTaskManager",
                               f"START u0 {{{intent.short_string()}}} from uid {caller_uid}")
        self.ensure_process(package, cls)
        new_task = bool(intent.flags & 0x10000000) or caller == HOME_PACKAGE
        if result_to is not None and new_task:
            self.system.log_system("W", "ActivityTaskManager", "Activity is launching as a new "
                                   "task, so cancelling activity result.")
            self._deliver_result(result_to, request_code, RESULT_CANCELED, None)
            result_to = None
        if package == HOME_PACKAGE:
            self.go_home()
            return True
        if new_task:
            task = self.state.task_for(package)
            if task is not None and task.records and intent.is_launcher and bring_to_front:
                self._bring_to_front(task)
                return True
            if task is None:
                task = Task(id=self.state.next_task_id, package=package, root_intent=intent)
                self.state.next_task_id += 1
                self.state.recents.append(task)
            elif intent.flags & FLAG_ACTIVITY_CLEAR_TASK:
                # NEW_TASK | CLEAR_TASK: the task's activities go, the new one is its root
                task.records.clear()
                task.root_intent = intent
        else:
            task = self.state.foreground
            if task is None or task is self.state.home:
                task = Task(id=self.state.next_task_id, package=package, root_intent=intent)
                self.state.next_task_id += 1
                self.state.recents.append(task)
        record = self._new_record(package, cls, intent)
        record.result_to, record.request_code = result_to, request_code
        task.records.append(record)
        self._bring_to_front(task, resume=False)
        self._create(record)
        return True

    def _new_record(self, package: str, cls: str, intent: Intent) -> ActivityRecord:
        activity_cls = self.system.apps[package].activities[cls]
        return ActivityRecord(package=package, cls=cls, intent=intent, activity=activity_cls(intent))

    def _create(self, record: ActivityRecord) -> None:
        record.activity.on_create(self.system.context(record.package, record))
        self.system.log_system("I", "ActivityTaskManager",
                               f"Displayed {record.component}: +{180 + len(record.cls) * 7}ms")

    def _bring_to_front(self, task: Task, resume: bool = True) -> None:
        if task is not self.state.home and task in self.state.recents:
            self.state.recents.remove(task)
            self.state.recents.append(task)
        self.state.foreground = task
        if resume and task.top is not None:
            task.top.activity.on_resume(self.system.context(task.top.package, task.top))

    # -- leaving --------------------------------------------------------------------
    def go_home(self) -> None:
        home = self.state.home
        if home is None or home.top is None:
            return
        self.state.foreground = home
        home.top.activity.on_home(self.system.context(HOME_PACKAGE, home.top))

    def finish(self, record: ActivityRecord) -> None:
        for task in [self.state.home, *self.state.recents]:
            if task is not None and record in task.records:
                if task is self.state.home and len(task.records) == 1:
                    return
                task.records.remove(record)
                if record.result_to is not None:
                    self._deliver_result(record.result_to, record.request_code,
                                         record.result_code, record.result_data)
                    record.result_to = None
                if not task.records:
                    self.go_home()
                elif task is self.state.foreground:
                    self._bring_to_front(task)
                return

    def _deliver_result(self, to: ActivityRecord, request_code: int, result_code: int,
                        data: Intent | None) -> None:
        """onActivityResult on the caller, if it is still alive; it runs before the caller's
        onResume, as ActivityThread delivers results first."""
        if any(to in task.records for task in self.state.recents):
            to.activity.on_activity_result(self.system.context(to.package, to), request_code,
                                           result_code, data)

    def resume_task(self, task_id: int) -> None:
        """Tap on a recents card: bring the task back, restarting its root if it was emptied."""
        for task in self.state.recents:
            if task.id == task_id:
                if task.records:
                    self.system.log_system(
                        "I", "ActivityTaskManager",
                        f"START u0 {{{task.root_intent.short_string()}}} from uid {LAUNCHER_UID}")
                    self._bring_to_front(task)
                else:
                    self.state.recents.remove(task)
                    intent = copy.copy(task.root_intent)
                    intent.flags |= 0x10000000
                    self.start_activity(intent, caller=HOME_PACKAGE)
                return

    def remove_task(self, task_id: int) -> None:
        for task in list(self.state.recents):
            if task.id == task_id:
                self.state.recents.remove(task)
                if not any(t.package == task.package for t in self.state.recents):
                    self.kill_process(task.package, "remove task")
                if self.state.foreground is task:
                    self.go_home()
                return

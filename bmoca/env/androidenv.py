"""DeepMind's AndroidEnv (`pip install android-env`) on the simulated phone.

B-MoCA's reference runs on AndroidEnv: a task is a `Task` textproto (set-up and reset steps
as ADB requests, a step limit, logcat filters and reward regexes) and the phone is an
AndroidEnv *simulator*. `BmocaSimulator` is such a simulator backed by bmoca's phone, so
AndroidEnv's own `AndroidEnv`, `Coordinator` and `TaskManager` run unmodified, task
textprotos included:

    from android_env.components import config_classes
    from bmoca.env import androidenv

    env = androidenv.load(androidenv.reference_config(
        "turn_on_wifi.textproto", configuration="test_env_100", task="settings/turn_on_wifi"))
    timestep = env.reset()                       # dm_env: pixels, orientation, timedelta
    timestep = env.step({"action_type": np.array(0), "touch_position": np.array([.5, .5])})

What the simulator gives AndroidEnv:

- screenshots: the phone's screen, H x W x 3 uint8, as the emulator's gRPC screenshot;
- touches: `send_touch` takes AndroidEnv's (x, y, is_down, finger) events. A finger that
  goes down and lifts is a gesture, played when it lifts, as the touchscreen driver
  reports it: down and up on one spot is a tap, down at one spot and down again (moved)
  elsewhere is a swipe between them. Each step a finger stays down counts
  `touch_step_ms` (20 ms, an emulator's step), so a finger held down for 25 steps is a
  long press (Android's 500 ms timeout). A lift's position is ignored, as the
  spec says (the pointer goes up where it last was). Fingers are played one after the
  other: the phone has no multi-touch gestures;
- key events: `send_key` takes the emulator's Linux key codes (XKB, evdev + 8) that
  AndroidEnv's spec names, read through Android's Generic.kl (36 Enter -> ENTER, 166 Back
  -> BACK, 180 HomePage -> HOME, ...); a key acts when it is pressed (`keypress`) or
  released after a `keydown`;
- the ADB controller and the log stream of `bmoca.env.androidenv_adb` (the phone's shell
  and log buffers, in-process);
- `load_state`/`save_state`, as the emulator's snapshots: `{"snapshot_name": "test_env_105"}`
  loads a B-MoCA configuration's snapshot (the reference's environments are snapshots of
  those names), or one saved by `save_state`. `"task": "settings/turn_on_wifi"` also runs
  that bmoca task's set-up (what bmoca's own reset does), so both start from the same
  state; `"seed"` draws a perturbation configuration's schedule.

AndroidEnv's stock device settings hide the status and navigation bars with
`policy_control` (`immersive.full=*`) and turn on touch and pointer overlays; the
simulated phone does not model immersive mode or those overlays, so `reference_config`
uses the reference's settings (bars shown, overlays off).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
from absl import logging
from android_env import environment
from android_env.components import config_classes, errors
from android_env.components import coordinator as coordinator_lib
from android_env.components import device_settings as device_settings_lib
from android_env.components import task_manager as task_manager_lib
from android_env.components.simulators import base_simulator
from android_env.proto import state_pb2, task_pb2
from google.protobuf import text_format

from bmoca import tasks
from bmoca.device import DeviceConfig
from bmoca.device.contract import DeviceError, InvalidInput, Key
from bmoca.env import actions as act
from bmoca.env.androidenv_adb import Phone, PhoneAdbController, PhoneLogStream
from bmoca.env.devices import DevicePool, resolve_config
from bmoca.formats import package_files

__all__ = ["BmocaSimulator", "BmocaSimulatorConfig", "XKB_KEYS", "load", "load_task",
           "reference_config", "task_path", "touch_actions"]

DEFAULT_SNAPSHOT = "default_snapshot"
"""The name the emulator simulator saves and loads when a request names none."""

XKB_KEYS: dict[int, Key] = {
    9: Key.ESCAPE, 22: Key.DEL, 23: Key.TAB, 36: Key.ENTER, 65: Key.SPACE, 111: Key.DPAD_UP,
    113: Key.DPAD_LEFT, 114: Key.DPAD_RIGHT, 116: Key.DPAD_DOWN, 122: Key.VOLUME_DOWN,
    123: Key.VOLUME_UP, 124: Key.POWER, 147: Key.MENU, 166: Key.BACK, 180: Key.HOME,
}
"""XKB key code (Linux evdev code + 8, what the emulator's gRPC takes on Linux) -> the
Android key Generic.kl maps that evdev key to."""


@dataclasses.dataclass
class BmocaSimulatorConfig(config_classes.SimulatorConfig):
    """Settings of `BmocaSimulator` (AndroidEnv's `SimulatorConfig` fields included)."""

    configuration: str = "test_env_100"
    """The B-MoCA configuration (any id of `bmoca configs`, derived ones included)."""
    task: str = ""
    """A bmoca task whose set-up runs at launch and on `load_state` (empty: none)."""
    seed: int = 0
    """Draws a perturbation configuration's schedule at launch."""
    touch_step_ms: int = 20
    """How long a finger down for one step counts as being down: an AndroidEnv step on an
    emulator takes some tens of milliseconds (mostly the screenshot), so TapActionWrapper's
    5-step taps are taps and a finger held 25 steps is a long press."""


class BmocaSimulator(base_simulator.BaseSimulator):
    """An AndroidEnv simulator whose device is bmoca's simulated Android 10 phone."""

    def __init__(self, config: BmocaSimulatorConfig):
        super().__init__(config)
        self._config: BmocaSimulatorConfig = config
        self._device_config: DeviceConfig = resolve_config(config.configuration)
        self._pool = DevicePool("sim")
        self._phone: Phone | None = None
        self._fingers: dict[int, list[tuple[int, int]]] = {}
        """Finger -> the points it went down at since it last lifted."""
        self._keys_down: set[int] = set()
        self._steps = 0
        """Gestures and keys played since the last start: a perturbation schedule's steps
        (KIND@STEP shows after the agent's STEP-th gesture, as after bmoca's STEP-th action)."""

    # -- what AndroidEnv asks of a simulator ------------------------------------------
    def adb_device_name(self) -> str:
        return self.phone.device.serial

    def create_adb_controller(self) -> PhoneAdbController:
        return PhoneAdbController(self.phone)

    def create_log_stream(self) -> PhoneLogStream:
        return PhoneLogStream(self.phone, verbose=self._config.verbose_logs)

    def get_logs(self) -> str:
        return (f"bmoca simulated phone ({self._device_config.id}, "
                f"launch attempt {self._num_launch_attempts})")

    def _launch_impl(self) -> None:
        """A cold boot: the configuration's snapshot, then the task's set-up if one is set."""
        self._start(self._device_config, self._config.task, self._config.seed)

    def send_touch(self, touches: list[tuple[int, int, bool, int]]) -> None:
        phone = self.phone
        with phone.lock:
            for x, y, is_down, finger in touches:
                if is_down:
                    self._fingers.setdefault(int(finger), []).append((int(x), int(y)))
                elif self._fingers.get(int(finger)):
                    self._play(self._fingers.pop(int(finger)))
                    self._stepped()
        phone.settle()

    def send_key(self, keycode: np.int32, event_type: str) -> None:
        code = int(keycode)
        if event_type not in ("keydown", "keyup", "keypress"):
            raise ValueError(f"Event type must be one of keydown, keyup, keypress but is "
                             f"{event_type}.")
        phone = self.phone
        with phone.lock:
            if event_type == "keydown":
                self._keys_down.add(code)
            elif event_type == "keypress" or code in self._keys_down:
                self._keys_down.discard(code)
                key = XKB_KEYS.get(code)
                if key is None:
                    logging.warning("bmoca simulator: key code %d has no Android key", code)
                else:
                    self._input(lambda: phone.device.press(key))
                    self._stepped()
        phone.settle()

    def _get_screenshot_impl(self) -> np.ndarray:
        phone = self.phone
        with phone.lock:
            return phone.device.screenshot()

    def load_state(self, request: state_pb2.LoadStateRequest) -> state_pb2.LoadStateResponse:
        """Load a configuration's snapshot (by its id) or a saved one, then a task's set-up."""
        status = state_pb2.LoadStateResponse.Status
        args = dict(request.args)
        name = args.get("snapshot_name", DEFAULT_SNAPSHOT)
        task = args.get("task", "")
        seed = int(args.get("seed", self._config.seed))
        try:
            unknown = ""
            try:
                config: DeviceConfig | None = resolve_config(name)
            except KeyError as exc:
                config, unknown = None, str(exc)  # not a configuration: a saved snapshot?
            if config is not None:
                if self._phone is not None and config.id != self._device_config.id:
                    size = self.phone.device.screen_size()
                    other = self._pool.get(config).screen_size()
                    if other != size:
                        return state_pb2.LoadStateResponse(
                            status=status.ERROR, error_message=(
                                f"{name} has a {other[0]}x{other[1]} screen, this env's "
                                f"is {size[0]}x{size[1]}: load it in an env of its own"))
                self._start(config, task, seed)
            else:
                phone = self.phone
                with phone.lock:
                    if name not in phone.device.snapshots():
                        return state_pb2.LoadStateResponse(
                            status=status.NOT_FOUND,
                            error_message=f"no snapshot named {name!r} and {unknown}")
                    phone.device.snapshot_load(name)
                    self._reset_inputs()
                    if task:
                        self._set_up(task, seed)
                phone.settle()
        except (KeyError, DeviceError, tasks.SetupError) as exc:
            return state_pb2.LoadStateResponse(status=status.ERROR, error_message=str(exc))
        return state_pb2.LoadStateResponse(status=status.OK)

    def save_state(self, request: state_pb2.SaveStateRequest) -> state_pb2.SaveStateResponse:
        status = state_pb2.SaveStateResponse.Status
        name = dict(request.args).get("snapshot_name", DEFAULT_SNAPSHOT)
        phone = self.phone
        try:
            with phone.lock:
                phone.device.snapshot_save(name)
        except DeviceError as exc:
            return state_pb2.SaveStateResponse(status=status.ERROR, error_message=str(exc))
        return state_pb2.SaveStateResponse(status=status.OK)

    def close(self) -> None:
        super().close()
        self._pool.close()
        self._phone = None

    # -- the phone ---------------------------------------------------------------------
    @property
    def phone(self) -> Phone:
        if self._phone is None:
            raise errors.SimulatorError("the simulator has not been launched")
        return self._phone

    def _start(self, config: DeviceConfig, task: str, seed: int) -> None:
        """Put the configuration's phone in its starting state (its snapshot), run the
        task's set-up, and make it this simulator's phone."""
        device = self._pool.get(config)
        if self._phone is None:
            self._phone = Phone(device)
        with self._phone.lock:
            self._phone.device = device
            self._device_config = config
            self._reset_inputs()
            if task:
                self._set_up(task, seed)
        self._phone.settle()

    def _set_up(self, task_id: str, seed: int) -> None:
        """What bmoca's reset does after the snapshot: the task's set-up, HOME, clear logs;
        and a perturbation configuration's schedule for the episode."""
        task = tasks.get(task_id)
        device = self.phone.device
        task.initialize(device)
        if self._device_config.perturbation != "none":
            about = " ".join((task.id, task.app, task.instruction, repr(task.success),
                              repr(task.expert), repr(task.setup))).lower()
            device.arm_perturbations(self._device_config.perturbation, seed, about)

    def _reset_inputs(self) -> None:
        self._fingers.clear()
        self._keys_down.clear()
        self._steps = 0

    def _play(self, points: list[tuple[int, int]]) -> None:
        """One finger's gesture, from where it went down to where it last was."""
        (x1, y1), (x2, y2) = points[0], points[-1]
        duration = self._config.touch_step_ms * len(points)
        device = self.phone.device
        self._input(lambda: device.swipe(x1, y1, x2, y2, duration))

    def _input(self, act) -> None:
        try:
            act()
        except InvalidInput as exc:  # the phone is unchanged; AndroidEnv logs and goes on
            raise errors.SendActionError(str(exc)) from exc

    def _stepped(self) -> None:
        """Count a played gesture or key as a step of the episode: the perturbations due
        then appear."""
        self._steps += 1
        if self._device_config.perturbation != "none":
            self.phone.device.perturb(self._steps)


# -- agents' commands as AndroidEnv actions ------------------------------------------------


TOUCH, LIFT = 0, 1
"""AndroidEnv's `ActionType.TOUCH` and `ActionType.LIFT`."""


def touch_actions(command: act.Command, screen: act.Screen,
                  step_ms: int = 20) -> list[dict[str, np.ndarray]]:
    """The AndroidEnv actions (one finger) that play a bmoca command (`bmoca.env.actions`)
    on `screen` (its size, and `rtl` for the mirrored navigation bar), for a simulator
    whose steps last `step_ms` (`BmocaSimulatorConfig.touch_step_ms`): a tap is a touch
    and a lift; a swipe, as the reference's agents swipe, a touch where it starts, a touch
    where it ends and a lift (so it lasts two steps); a long press keeps the finger down
    for its duration, then lifts; a navigation key is a tap on its navigation-bar button,
    as the reference's agents press it; `Wait` is one lift with no finger down (nothing
    happens). Typing, `open_app`, answers and statuses have no touch form: ValueError."""
    width, height = screen.width, screen.height

    def at(x: float, y: float, kind: int = TOUCH) -> dict[str, np.ndarray]:
        return {"action_type": np.array(kind, dtype=np.int32),
                "touch_position": np.array([(x + 0.5) / width, (y + 0.5) / height],
                                           dtype=np.float32)}

    if isinstance(command, act.PressKey) and command.key in ("HOME", "BACK", "APP_SWITCH"):
        button = "OVERVIEW" if command.key == "APP_SWITCH" else command.key
        command = act.nav_tap(button, screen)
    if isinstance(command, act.Tap):
        return [at(command.x, command.y), at(command.x, command.y, LIFT)]
    if isinstance(command, act.Swipe):
        return [at(command.x1, command.y1), at(command.x2, command.y2),
                at(command.x2, command.y2, LIFT)]
    if isinstance(command, act.LongPress):
        n = max(1, -(-command.duration_ms // step_ms))
        return [at(command.x, command.y)] * n + [at(command.x, command.y, LIFT)]
    if isinstance(command, act.Wait):
        return [at(0, 0, LIFT)]
    raise ValueError(f"{type(command).__name__} has no touch form in AndroidEnv")


# -- building an AndroidEnv -------------------------------------------------------------------


def task_path(task_id: str) -> Path:
    """The packaged task textproto of a B-MoCA task (`settings/turn_on_wifi`): the
    reference's format, set-up, step limit and success regex (`bmoca/assets/androidenv_tasks`)."""
    app, _, name = task_id.partition("/")
    path = Path(package_files.files("bmoca.assets")) / "androidenv_tasks" / app / f"{name}.textproto"
    if not name or not path.is_file():
        known = sorted(f"{p.parent.name}/{p.stem}" for p in path.parent.parent.glob("*/*.textproto"))
        raise KeyError(f"no task textproto for {task_id!r}; packaged: {', '.join(known)}")
    return path


def load_task(path: str | Path) -> task_pb2.Task:
    """A `Task` textproto (or binary proto) from a file, as AndroidEnv's loader reads it."""
    data = Path(path).read_bytes()
    task = task_pb2.Task()
    if Path(path).suffix == ".binarypb":
        task.ParseFromString(data)
    else:
        text_format.Parse(data.decode("utf-8"), task)
    return task


def reference_config(task_path: str | Path, configuration: str = "test_env_100",
                     task: str = "", touch_step_ms: int = 20) -> config_classes.AndroidEnvConfig:
    """AndroidEnv's config for a task textproto on the simulated phone, with the device
    settings B-MoCA's reference uses (bars shown, no touch overlays)."""
    return config_classes.AndroidEnvConfig(
        task=config_classes.FilesystemTaskConfig(path=str(task_path)),
        coordinator=config_classes.CoordinatorConfig(
            device_settings=config_classes.DeviceSettingsConfig(
                show_touches=False, show_pointer_location=False, show_status_bar=True,
                show_navigation_bar=True)),
        simulator=BmocaSimulatorConfig(configuration=configuration, task=task,
                                       touch_step_ms=touch_step_ms))


def load(config: config_classes.AndroidEnvConfig) -> environment.AndroidEnv:
    """`android_env.loader.load` for a `BmocaSimulatorConfig`: AndroidEnv's own task
    manager, device settings, coordinator and environment around a `BmocaSimulator`."""
    if not isinstance(config.simulator, BmocaSimulatorConfig):
        raise ValueError(f"expected a BmocaSimulatorConfig, got {config.simulator!r}; "
                         "other simulators load with android_env.loader.load")
    if not isinstance(config.task, config_classes.FilesystemTaskConfig):
        raise ValueError(f"unsupported TaskConfig: {config.task!r}")
    task_manager = task_manager_lib.TaskManager(load_task(config.task.path),
                                                config=config.task_manager)
    simulator = BmocaSimulator(config.simulator)
    device_settings = device_settings_lib.DeviceSettings(simulator)
    coordinator = coordinator_lib.Coordinator(simulator, task_manager,
                                              device_settings=device_settings,
                                              config=config.coordinator)
    return environment.AndroidEnv(simulator=simulator, coordinator=coordinator,
                                  task_manager=task_manager)


"""An AndroidWorld-style API beside the gymnasium one, for agents written against it.

    env = AndroidWorldEnv(config="test_env_100")
    task = AndroidWorldTask("settings/turn_on_wifi")
    task.initialize_task(env)                       # the configuration's snapshot + set-up
    state = env.get_state()                         # pixels, ui_elements, foreground_activity
    env.execute_action({"action_type": "open_app", "app_name": "Settings"})
    task.is_successful(env)                         # 1.0 or 0.0

Actions are the JSON actions of the `json` action mode (`bmoca.env.actions.JsonActions`,
the vocabulary the T3A/M3A agents use); `index` refers to `state.ui_elements`. The task
object carries no step limit or episode bookkeeping, as in AndroidWorld: the agent's loop
decides when to stop.

Everything AndroidWorld's own agents read is here under its name and meaning
(`android_world/env/interface.py`, `env/representation_utils.py`, `agents/t3a.py`,
`agents/m3a.py`, `task_evals/task_eval.py`): the env's `orientation` (0 portrait, 1
landscape, 2 and 3 reversed; the simulated phone never rotates), `physical_frame_boundary`
(read from `dumpsys input` as `adb_utils` reads it), `logical_screen_size`,
`device_screen_size`, `hide_automation_ui()`, `display_message`, `ask_question` and the
`controller`, whose `execute_adb_call` answers android_env's generic ADB requests (`shell
...`) so that `adb_utils` helpers work on it; the elements' `bbox` (normalised),
`hint_text`, `is_visible`, `tooltip`, `resource_id`; the tasks' `complexity`, `params`,
`schema`, `app_names` and `start_on_home_screen`.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from bmoca import tasks
from bmoca.device import Device, DeviceConfig
from bmoca.env import actions as act
from bmoca.env import observations as obs
from bmoca.env.devices import DevicePool, resolve_config
from bmoca.env.environment import convert_action, execute
from bmoca.formats import apps as app_table
from bmoca.formats.locales import is_rtl
from bmoca.tasks import families

__all__ = ["AndroidWorldEnv", "AndroidWorldTask", "BoundingBox", "State", "UIElement"]

_RESUMED = re.compile(r"mResumedActivity: ActivityRecord\{\S+ u\d+ (\S+)")
_PHYSICAL_FRAME = re.compile(r"physicalFrame=\[(\d+), (\d+), (\d+), (\d+)\]")
ADB_OK = 1
"""android_env's `AdbResponse.Status.OK`."""


class Controller:
    """The env's controller as AndroidWorld's agents use it: `adb_utils` helpers send it
    android_env `AdbRequest`s; `execute_adb_call` answers the generic ones (`args` such as
    `["shell", "dumpsys", "input"]`) on the phone's shell, with an `AdbResponse`-shaped
    answer (`status`, `generic.output` bytes, `error_message`). Other request kinds (tap,
    install, ...) answer with an error status: agents reach the phone through
    `execute_action`."""

    def __init__(self, env: AndroidWorldEnv):
        self.env = env

    @property
    def device_screen_size(self) -> tuple[int, int]:
        return self.env.device_screen_size

    def execute_adb_call(self, request: Any) -> Any:
        from types import SimpleNamespace

        generic = getattr(request, "generic", None)
        args = list(getattr(generic, "args", []) or [])
        if not args or args[0] != "shell":
            return SimpleNamespace(status=0, generic=SimpleNamespace(output=b""),
                                   error_message="only generic 'shell ...' requests are "
                                                 "answered by the simulated phone")
        out, code = self.env.device.shell(" ".join(args[1:]))
        return SimpleNamespace(status=ADB_OK if code == 0 else 0,
                               generic=SimpleNamespace(output=out.encode("utf-8")),
                               error_message="" if code == 0 else out.strip())


@dataclass(frozen=True)
class BoundingBox:
    """Pixels; right and bottom exclusive, as Android's bounds."""

    x_min: float
    x_max: float
    y_min: float
    y_max: float

    @property
    def center(self) -> tuple[float, float]:
        return (self.x_min + self.x_max) / 2, (self.y_min + self.y_max) / 2

    @property
    def width(self) -> float:
        return self.x_max - self.x_min

    @property
    def height(self) -> float:
        return self.y_max - self.y_min

    @property
    def area(self) -> float:
        return self.width * self.height


@dataclass(frozen=True)
class UIElement:
    """One view, with AndroidWorld's field names; `index` is what JSON actions name."""

    index: int
    text: str | None
    content_description: str | None
    class_name: str | None
    bbox_pixels: BoundingBox
    resource_name: str | None
    """The full view id, `com.android.settings:id/title`."""
    package_name: str | None
    is_checkable: bool
    is_checked: bool
    is_clickable: bool
    is_editable: bool
    is_enabled: bool
    is_focusable: bool
    is_focused: bool
    is_long_clickable: bool
    is_scrollable: bool
    is_selected: bool
    bbox: BoundingBox | None = None
    """`bbox_pixels` as fractions of the screen's width and height."""
    hint_text: str | None = None
    """uiautomator reports no hint apart from the text (an empty field's text is its hint)."""
    is_visible: bool = True
    """Every dumped node is on screen (uiautomator skips the others)."""
    tooltip: str | None = None
    resource_id: str | None = None
    metadata: dict[str, Any] | None = None


@dataclass(frozen=True)
class State:
    """The screen as an agent sees it: `pixels` is the full-size H x W x 3 screenshot."""

    pixels: np.ndarray
    ui_elements: list[UIElement]
    foreground_activity: str | None
    """`package/activity` of the resumed activity, e.g. `com.android.settings/.Settings`."""
    xml: str
    forest: Any = None
    """AndroidWorld's accessibility forest proto; here the hierarchy is `xml`."""


def _flag(node: Any, name: str) -> bool:
    return node.get(name) == "true"


def _read(xml: str, size: tuple[int, int]) -> tuple[list[obs.Element], list[UIElement]]:
    """The translator's elements (what JSON actions index) and the same views as UIElements."""
    elements = obs.translate(xml)
    width, height = size
    out = []
    for node, element in zip(obs.nodes(xml), elements, strict=True):
        x1, y1, x2, y2 = element.bounds
        out.append(UIElement(
            bbox=BoundingBox(x1 / width, x2 / width, y1 / height, y2 / height),
            resource_id=node.get("resource-id") or None,
            index=element.numeric_tag, text=node.get("text") or None,
            content_description=node.get("content-desc") or None,
            class_name=node.get("class") or None, bbox_pixels=BoundingBox(x1, x2, y1, y2),
            resource_name=node.get("resource-id") or None,
            package_name=node.get("package") or None,
            is_checkable=_flag(node, "checkable"), is_checked=_flag(node, "checked"),
            is_clickable=_flag(node, "clickable"),
            is_editable="EditText" in (node.get("class") or ""),
            is_enabled=_flag(node, "enabled"), is_focusable=_flag(node, "focusable"),
            is_focused=_flag(node, "focused"), is_long_clickable=_flag(node, "long-clickable"),
            is_scrollable=_flag(node, "scrollable"), is_selected=_flag(node, "selected")))
    return elements, out


class AndroidWorldEnv:
    """One phone in one configuration, driven by JSON actions (AndroidWorld's env shape)."""

    def __init__(self, config: str | DeviceConfig = "test_env_100",
                 device: str | Device | DevicePool = "sim"):
        self.config = resolve_config(config)
        self.pool = device if isinstance(device, DevicePool) else DevicePool(device)
        self._device: Device | None = None
        self._actions = act.JsonActions()
        self._screen: act.Screen | None = None
        self.interaction_cache = ""
        """The text of the last `answer` action (AndroidWorld keeps answers here)."""
        self.goal_status: str | None = None
        """`complete` or `infeasible` once the agent sent a `status` action."""
        self.messages: list[tuple[str, str]] = []
        """(header, message) of each `display_message`."""

    @property
    def device(self) -> Device:
        """The phone (the configuration's snapshot is loaded the first time)."""
        if self._device is None:
            self._device = self.pool.get(self.config)
        return self._device

    def reset(self, go_home: bool = True) -> State:
        """Back to the configuration's snapshot (and HOME); forget answers and status."""
        self._device = self.pool.get(self.config)
        if go_home:
            self._device.press("HOME")
        self.interaction_cache, self.goal_status = "", None
        return self.get_state()

    def get_state(self, wait_to_stabilize: bool = False) -> State:
        """Screenshot, UI elements and foreground activity. The simulator is always stable,
        so `wait_to_stabilize` is accepted for AndroidWorld code and changes nothing."""
        device = self.device
        xml = device.dump_hierarchy()
        width, height = device.screen_size()
        elements, ui_elements = _read(xml, (width, height))
        self._screen = act.Screen(width, height, tuple(elements), rtl=is_rtl(self.config.locale))
        return State(pixels=device.screenshot(), ui_elements=ui_elements,
                     foreground_activity=self.foreground_activity_name, xml=xml)

    @property
    def foreground_activity_name(self) -> str | None:
        out, code = self.device.shell("dumpsys activity activities")
        match = _RESUMED.search(out) if code == 0 else None
        return match.group(1) if match else None

    @property
    def logical_screen_size(self) -> tuple[int, int]:
        return self.device.screen_size()

    @property
    def device_screen_size(self) -> tuple[int, int]:
        """The physical display's size: the phone's own, whatever `wm size` says."""
        left, top, right, bottom = self.physical_frame_boundary
        return right - left, bottom - top

    @property
    def orientation(self) -> int:
        """0 portrait, 1 landscape, 2 reverse portrait, 3 reverse landscape: the simulated
        phone stays in its natural orientation (a tablet's is landscape), so 0."""
        return 0

    @property
    def physical_frame_boundary(self) -> tuple[int, int, int, int]:
        """(left, top, right, bottom) of the display in portrait orientation, read from
        `dumpsys input`'s physicalFrame as AndroidWorld's adb_utils reads it."""
        out, _ = self.device.shell("dumpsys input")
        for frame in _PHYSICAL_FRAME.findall(out):
            box = tuple(int(v) for v in frame)
            if box != (0, 0, 0, 0):
                return box  # type: ignore[return-value]
        width, height = self.device.screen_size()
        return 0, 0, width, height

    @property
    def controller(self) -> Controller:
        """What AndroidWorld's agents hand to `adb_utils` (see `Controller`)."""
        return Controller(self)

    def hide_automation_ui(self) -> None:
        """Turn the pointer location overlay off, as AndroidWorld does before each step."""
        self.device.shell("settings put system pointer_location 0")

    def display_message(self, message: str, header: str = "") -> None:
        """AndroidWorld shows a message on the phone for a person watching; here it is
        kept (`messages`) for the caller to read."""
        self.messages.append((header, message))

    def ask_question(self, question: str, timeout_seconds: float = -1.0) -> str | None:
        """No person answers on the simulator: None, as AndroidWorld's env without one."""
        return None

    def execute_action(self, action: Mapping[str, Any] | str | Any) -> None:
        """Do one JSON action (a dict, a JSON string, or a dataclass such as AndroidWorld's
        `JSONAction`) on the screen of the last `get_state`, read now if there is none; a
        malformed one raises `bmoca.env.actions.InvalidAction` and changes nothing."""
        if dataclasses.is_dataclass(action) and not isinstance(action, type):
            action = {k: v for k, v in dataclasses.asdict(action).items() if v is not None}
        if self._screen is None:
            self.get_state()
        assert self._screen is not None
        extra = execute(self.device, convert_action(self._actions, action, self._screen)[1])
        self._screen = None  # indexes name the elements of the screen the agent last saw
        if "answer" in extra:
            self.interaction_cache = extra["answer"]
        if "status" in extra:
            self.goal_status = extra["status"]

    def close(self) -> None:
        self.pool.close()
        self._device = None

    def __enter__(self) -> AndroidWorldEnv:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _plain(value: Any) -> Any:
    """A parameter as JSON has it: a drawn record is an object, a typed value (a time, a
    phone number, days) its text as the instruction shows it."""
    if hasattr(value, "as_dict"):
        value = value.as_dict()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return str(getattr(value, "text", value))
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


class AndroidWorldTask:
    """A B-MoCA task with AndroidWorld's task methods."""

    def __init__(self, task: tasks.Task | str):
        self.task = task if isinstance(task, tasks.Task) else tasks.get(task)
        self._start: tasks.EpisodeStart | None = None

    @property
    def name(self) -> str:
        return self.task.id

    @property
    def goal(self) -> str:
        """The instruction, as AndroidWorld's `goal` (without B-MoCA's "Goal: " prefix)."""
        return self.task.instruction

    @property
    def step_limit(self) -> int:
        return self.task.step_limit

    start_on_home_screen = True
    """Every task starts on the home screen (its set-up ends with HOME)."""

    @property
    def complexity(self) -> float:
        """AndroidWorld's step budget unit: complexity c allows up to 10 c steps."""
        return float(max(1, -(-self.task.step_limit // 10)))

    @property
    def params(self) -> dict[str, Any]:
        """A family instance's parameters (`family@seed`); a fixed task has none."""
        if not self.task.family:
            return {}
        seed = int(self.task.id.rsplit("@", 1)[1])
        return {k: _plain(v) for k, v in families.get(self.task.family).values(seed).items()}

    @property
    def schema(self) -> dict[str, Any]:
        """The parameters' JSON Schema, their JSON types from the values drawn."""
        types = {bool: "boolean", int: "integer", float: "number", str: "string",
                 list: "array", dict: "object"}
        values = self.params
        return {"type": "object",
                "properties": {k: {"type": types.get(type(v), "string")}
                               for k, v in values.items()},
                "required": sorted(values)}

    @property
    def app_names(self) -> tuple[str, ...]:
        """The apps the task works in, by their English names in lower case (the task's
        app, then the others its expert plan opens)."""
        names = [self.task.app.lower()]
        plan = repr(self.task.expert)
        for app in app_table.all_apps():
            label = app_table.label_in(app.package, "en-US").lower()
            if app.package in plan and label not in names:
                names.append(label)
        return tuple(names)

    def initialize_task(self, env: AndroidWorldEnv) -> None:
        """The configuration's snapshot, then the task's set-up, HOME and clear logs (what
        `BmocaEnv.reset` does)."""
        env.reset(go_home=False)
        self._start = self.task.initialize(env.device)

    initialize = initialize_task

    def is_successful(self, env: AndroidWorldEnv) -> float:
        """1.0 when the task's success criterion holds on the phone now, else 0.0."""
        if self._start is None:
            raise RuntimeError("call initialize_task(env) before is_successful(env)")
        return 1.0 if self.task.is_successful(env.device, self._start).ok else 0.0

    def tear_down(self, env: AndroidWorldEnv) -> None:
        """Nothing to undo: the next `initialize_task` loads the snapshot again."""
        self._start = None

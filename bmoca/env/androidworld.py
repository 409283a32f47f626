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
from bmoca.formats.locales import is_rtl

__all__ = ["AndroidWorldEnv", "AndroidWorldTask", "BoundingBox", "State", "UIElement"]

_RESUMED = re.compile(r"mResumedActivity: ActivityRecord\{\S+ u\d+ (\S+)")


@dataclass(frozen=True)
class BoundingBox:
    """Pixels; right and bottom exclusive, as Android's bounds."""

    x_min: int
    x_max: int
    y_min: int
    y_max: int

    @property
    def center(self) -> tuple[float, float]:
        return (self.x_min + self.x_max) / 2, (self.y_min + self.y_max) / 2


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


@dataclass(frozen=True)
class State:
    """The screen as an agent sees it: `pixels` is the full-size H x W x 3 screenshot."""

    pixels: np.ndarray
    ui_elements: list[UIElement]
    foreground_activity: str | None
    """`package/activity` of the resumed activity, e.g. `com.android.settings/.Settings`."""
    xml: str


def _flag(node: Any, name: str) -> bool:
    return node.get(name) == "true"


def _read(xml: str) -> tuple[list[obs.Element], list[UIElement]]:
    """The translator's elements (what JSON actions index) and the same views as UIElements."""
    elements = obs.translate(xml)
    out = []
    for node, element in zip(obs.nodes(xml), elements, strict=True):
        x1, y1, x2, y2 = element.bounds
        out.append(UIElement(
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
        elements, ui_elements = _read(xml)
        width, height = device.screen_size()
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

"""One person's phone in the browser: a task's episode, driven by mouse and keyboard.

Why gestures become JSON actions: a human episode must be a demonstration that behaviour
cloning can use as it is. So a click, drag, long press, typed text or button is mapped to
the benchmark's own AndroidWorld JSON action (`to_action`), which the environment executes
exactly as it would an agent's, and which `bmoca.demos.convert` turns into the text,
dual-gesture and 385-way discrete forms shown beside the screen and stored per step.

A drag becomes a `scroll` of the whole screen against the finger's direction (content
follows the finger), except a drag down from the status bar, which is a `swipe` down
(the notification shade opens only from the top edge). Drags shorter than `TAP_SLOP` of
the screen's width are taps.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Mapping
from typing import Any

from bmoca.ui.errors import UiError

KEYS = {"back": "navigate_back", "home": "navigate_home", "recents": "navigate_recents",
        "enter": "keyboard_enter"}
GESTURES = ("tap", "long_press", "drag", "text", "key")
TAP_SLOP = 0.02
STATUS_BAR = 0.04
"""Top fraction of the screen a drag down must start in to pull the notification shade."""
SCREEN_WIDTH = 540
"""Width of the PNGs sent to the page and stored in demonstrations (as `bmoca demos`)."""
_BOUNDS = re.compile(r"-?\d+")


def resolve_config(config_id: str, locale: str | None = None, dark: bool | None = None):
    """A configuration by id (presets and `random_<split>_<seed>`), optionally derived with
    another locale or theme; a derived one gets an id naming the change (`train_env_000
    +de-DE+dark`), so demonstrations say what they were played on."""
    from bmoca import configs
    from bmoca.formats.locales import resolve

    try:
        config = configs.get(str(config_id))
    except KeyError as exc:
        raise UiError(str(exc.args[0] if exc.args else exc), 404) from None
    changes: dict[str, Any] = {}
    suffix = ""
    if locale:
        try:
            changes["locale"] = resolve(locale)
        except ValueError as exc:
            raise UiError(f"locale: {exc}") from None
        if changes["locale"] != config.locale:
            suffix += f"+{changes['locale']}"
    if dark is not None and dark != config.dark_theme:
        changes["dark_theme"] = dark
        suffix += "+dark" if dark else "+light"
    if not changes:
        return config
    return dataclasses.replace(config, id=config.id + suffix, **changes)


def _int(gesture: Mapping[str, Any], key: str, width: int, height: int) -> int:
    """A coordinate of the gesture: a finite number on the screen (`key` starts with x or y);
    JSON lets `Infinity`, `NaN` and `1e400` through as floats, which are no pixel."""
    value = gesture.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise UiError(f"gesture field {key!r} must be a number, got {value!r}")
    if isinstance(value, float) and not math.isfinite(value):
        raise UiError(f"gesture field {key!r} must be a finite number, got {value!r}")
    limit = width if key.startswith("x") else height
    if not 0 <= value < limit:
        if isinstance(value, float):
            shown = f"{value:.4g}"
        else:
            shown = str(value) if abs(value) < 10**12 else f"a {len(str(abs(value)))}-digit number"
        raise UiError(f"gesture field {key!r} = {shown} is outside the screen "
                      f"(0 <= {key[0]} < {limit}; the screen is {width} x {height})")
    return int(value)


def _text(gesture: Mapping[str, Any]) -> str:
    """The text to type: non-empty and valid Unicode. A lone surrogate (`"\\ud800"`, legal
    in JSON) cannot be encoded as UTF-8: typed, it would sit in the phone's field and every
    later answer about the phone would fail to encode, so it is refused before typing."""
    text = gesture.get("text")
    if not isinstance(text, str) or not text:
        raise UiError("gesture 'text' needs a non-empty field 'text'")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise UiError(f"gesture 'text' is not valid Unicode: character {exc.start} is a lone "
                      f"surrogate {text[exc.start]!r}") from None
    return text


def to_action(gesture: Mapping[str, Any], width: int, height: int) -> dict[str, Any]:
    """The JSON action a browser gesture means on a `width` x `height` screen."""
    kind = gesture.get("gesture")
    if kind not in GESTURES:
        raise UiError(f"unknown gesture {kind!r}; valid: {', '.join(GESTURES)}")
    if kind in ("tap", "long_press"):
        x, y = _int(gesture, "x", width, height), _int(gesture, "y", width, height)
        return {"action_type": "click" if kind == "tap" else "long_press", "x": x, "y": y}
    if kind == "drag":
        x1, y1, x2, y2 = (_int(gesture, k, width, height) for k in ("x1", "y1", "x2", "y2"))
        dx, dy = x2 - x1, y2 - y1
        if max(abs(dx), abs(dy)) < TAP_SLOP * width:
            return {"action_type": "click", "x": x1, "y": y1}
        if abs(dy) >= abs(dx):
            if dy > 0 and y1 < STATUS_BAR * height:
                return {"action_type": "swipe", "direction": "down"}
            return {"action_type": "scroll", "direction": "down" if dy < 0 else "up"}
        return {"action_type": "scroll", "direction": "right" if dx < 0 else "left"}
    if kind == "text":
        return {"action_type": "input_text", "text": _text(gesture)}
    key = gesture.get("key")
    if key not in KEYS:
        raise UiError(f"unknown key {key!r}; valid: {', '.join(KEYS)}")
    return {"action_type": KEYS[key]}


def ui_nodes(xml: str) -> list[dict[str, Any]]:
    """Every node of the uiautomator dump, for the page's hover inspector."""
    from lxml import etree

    out = []
    for node in etree.fromstring(xml.encode()).iter("node"):
        bounds = [int(v) for v in _BOUNDS.findall(node.get("bounds", ""))]
        if len(bounds) != 4:
            continue
        out.append({"bounds": bounds, "class": node.get("class", ""),
                    "resource_id": node.get("resource-id", ""), "text": node.get("text", ""),
                    "content_desc": node.get("content-desc", ""),
                    "clickable": node.get("clickable") == "true",
                    "checked": node.get("checked") == "true"})
    return out


class Phone:
    """A simulated phone playing one task, one episode at a time, with every step kept in
    the demonstrations' form. Not thread-safe: `sessions` serialises calls per phone."""

    def __init__(self, task_id: str, config_id: str, *, seed: int = 0,
                 locale: str | None = None, dark: bool | None = None) -> None:
        from bmoca import tasks
        from bmoca.env import BmocaEnv, DevicePool

        try:
            self.task = tasks.get(str(task_id))
        except tasks.TaskError as exc:
            raise UiError(str(exc), 404) from None
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise UiError(f"seed must be an integer, got {seed!r}")
        self.config = resolve_config(config_id, locale, dark)
        self.seed = seed
        self.pool = DevicePool("sim")
        self.env = BmocaEnv(self.task, self.config, self.pool, observation=("xml", "text"),
                            action="json", render_mode="rgb_array")
        self.episodes = 0
        self.played = -1
        """The number of the episode on the screen, from 0: it names the screens' URLs,
        so the browser's cache never shows an earlier episode's frame of the same number."""
        self.reset()

    # -- an episode --------------------------------------------------------------------
    def reset(self) -> None:
        """Start a new episode of the same task on the same configuration."""
        self.observation, _info = self.env.reset(seed=self.seed)
        self.played += 1
        self.steps: list[dict[str, Any]] = []
        self.history: list[dict[str, Any]] = []
        self.screens: list[bytes] = []
        self.recorded: int | None = None
        self.ended: str | None = None
        self.trace: list[str] = []
        self._capture()

    def _capture(self) -> None:
        from bmoca.demos.generate import observed
        from bmoca.eval.runner import screen_png

        self.screen, self.elements = observed(self.env, self.observation)
        self.screens.append(screen_png(self.env.render(), SCREEN_WIDTH))
        self.nodes = ui_nodes(self.observation["xml"])

    def act(self, gesture: Mapping[str, Any]) -> dict[str, Any]:
        """Play one gesture as the benchmark's action; what it became, and the outcome."""
        from bmoca.demos.convert import convert
        from bmoca.env import actions as act

        if self.ended:
            raise UiError(f"the episode has ended ({self._ending()}); record it or reset to "
                          "play again", 409)
        if not isinstance(gesture, Mapping):
            raise UiError("a gesture must be a JSON object")
        action = to_action(gesture, self.screen.width, self.screen.height)
        try:
            forms = convert(action, self.screen)
        except act.InvalidAction as exc:
            raise UiError(f"{action['action_type']}: {exc}") from None
        shown = self.elements
        observation, reward, terminated, truncated, info = self.env.step(action)
        self.observation = observation
        step = {"step": len(self.steps), "text_observation": shown,
                "text_action": forms.text_action, "json_action": forms.json_action,
                "dual_gesture": None if forms.dual_gesture is None else list(forms.dual_gesture),
                "discrete": forms.discrete, "screenshot": None, "reward": float(reward),
                "terminated": bool(terminated), "truncated": bool(truncated)}
        self.steps.append(step)
        self.trace = [str(t) for t in info.get("detector", [])]
        self.history.append({
            "step": step["step"], "json_action": forms.json_action,
            "label": info.get("action_label"), "text_action": forms.text_action,
            "discrete": forms.discrete,
            "discrete_label": None if forms.discrete is None
            else act.Discrete().label(forms.discrete),
            "dual_gesture": step["dual_gesture"], "error": info.get("action_error"),
            "no_effect": info.get("no_effect")})
        self.ended = "terminated" if terminated else "truncated" if truncated else None
        self._capture()
        return self.history[-1]

    def _ending(self) -> str:
        n = len(self.steps)
        if self.env.success:
            return f"success after {n} step{'s' if n != 1 else ''}"
        return f"step limit of {self.env.step_limit} reached without success"

    # -- what the page and the recorder read ---------------------------------------------
    def state(self) -> dict[str, Any]:
        return {"task": self.task.id, "goal": self.task.goal, "config": self.config.id,
                "seed": self.seed, "step": len(self.steps), "step_limit": self.env.step_limit,
                "success": self.env.success, "ended": self.ended,
                "ending": self._ending() if self.ended else None,
                "width": self.screen.width, "height": self.screen.height,
                "episode": self.played, "frame": len(self.screens) - 1, "nodes": self.nodes,
                "history": self.history, "detector": self.trace,
                "recorded": self.recorded, "episodes_recorded": self.episodes}

    def episode(self) -> tuple[dict[str, Any], list[bytes]]:
        """The episode as a demonstrations line (without screenshot paths) and its PNGs."""
        line = {"task_id": self.task.id, "config_id": self.config.id, "goal": self.task.goal,
                "success": self.env.success, "seed": self.seed, "human": True,
                "steps": [dict(s) for s in self.steps],
                "final": {"text_observation": self.elements}}
        return line, list(self.screens)

    def close(self) -> None:
        self.pool.close()

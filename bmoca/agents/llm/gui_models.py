"""Open GUI models in their own formats: what the UI-TARS, Qwen-VL and 0-1000 agents share.

Open GUI models (UI-TARS, Qwen2.5-VL, Qwen3-VL, ...) were trained on one prompt, one action
grammar and one coordinate convention each; asked in another format they do much worse.
These agents send each model its published prompt with the phone's screenshot, read its
answer in its own grammar, and turn the point it names into a pixel of the phone's screen:

* `uitars/...`: UI-TARS-1.5's MOBILE_USE prompt, `Thought: ... Action: click(start_box=
  '(x,y)')`, read by the `ui-tars` package (`pip install 'bmoca[gui]'`), points in the image
  as the server resized it (`coordinates=relative`: UI-TARS 1.0's 0-1000);
* `qwen25vl/...`: Qwen2.5-VL's `mobile_use` function call, points in the resized image;
* `qwen3vl/...`: Qwen3-VL's `mobile_use` function call, points in 0-999;
* `coords1000/...`: a generic JSON grammar with points in 0-1000, for models tuned on it.

The result is one of bmoca's JSON actions (`bmoca.env.actions.JsonActions`) with pixel
`x`, `y`. An answer that cannot be read, or names a point outside the image, becomes an
`Unreadable` answer: the environment counts an invalid action whose message says what was
wrong, and the episode goes on (a provider that keeps failing is an infrastructure error,
as for every model agent).

The phone's screen size is read from the view hierarchy (the largest node bounds seen in
the episode: a full-screen window spans the screen), so the same agent is right on every
configuration's phone; the screenshot is sent at that size.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from bmoca.agents.llm import providers as prov
from bmoca.agents.llm.agent import OPTION_HELP, AgentName, AgentOptions, ModelAgent
from bmoca.agents.llm.providers import ProviderConfigError
from bmoca.env.actions import InvalidAction, JsonActions, Unreadable, to_pixel

GUI_OPTION_HELP: dict[str, str] = {
    "coordinates": "uitars: absolute (UI-TARS-1.5 and other Qwen2.5-VL-based models: pixels "
                   "of the image as the server resized it; the default) or relative "
                   "(UI-TARS 1.0 and other Qwen2-VL-based models: 0-1000)",
    "language": "uitars: the language of the Thought part (default English)",
    "min_pixels": "qwen25vl/uitars: the server's image processor min_pixels (default 3136 "
                  "for qwen25vl, 78400 for uitars, as their processors)",
    "max_pixels": "qwen25vl/uitars: the server's image processor max_pixels (default "
                  "12845056)",
}
# Options of the text agents that mean nothing to a screenshot-only model in its own format.
_NOT_FOR_GUI = ("few_shot", "few_shot_mode", "demos", "cot", "bbox", "explore")
_DEFAULTS = {"max_tokens": "1024", "image_size": "1080x2160"}
QWEN_MIN_PIXELS, QWEN_MAX_PIXELS, PATCH = 56 * 56, 16384 * 28 * 28, 28
_BOUNDS = re.compile(r'bounds="\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]"')


@dataclass(frozen=True)
class GuiOptions:
    """The GUI agents' own options (`GUI_OPTION_HELP`)."""

    coordinates: str = "absolute"
    language: str = "English"
    min_pixels: int | None = None
    max_pixels: int = QWEN_MAX_PIXELS


def split_options(kind: str, options: dict[str, Any] | None) -> tuple[AgentOptions, GuiOptions]:
    """The shared options (with this kind's defaults) and the GUI ones, checked."""
    shared: dict[str, Any] = {}
    gui: dict[str, Any] = {}
    for key, value in (options or {}).items():
        name = key.strip().lower().replace("-", "_")
        if name in _NOT_FOR_GUI:
            raise ProviderConfigError(f"agent option {name!r} does not apply to {kind} agents "
                                      "(they see the screenshot in the model's own format)")
        if name not in OPTION_HELP and name not in GUI_OPTION_HELP:
            valid = [k for k in (*OPTION_HELP, *GUI_OPTION_HELP) if k not in _NOT_FOR_GUI]
            raise ProviderConfigError(f"unknown agent option {name!r}; valid for {kind} "
                                      f"agents: {', '.join(valid)}")
        (gui if name in GUI_OPTION_HELP else shared)[name] = value
    for name in ("coordinates", "language"):
        if name in gui and kind != "uitars":
            raise ProviderConfigError(f"agent option {name!r} is for uitars agents only")
    if kind in ("qwen3vl", "coords1000") and {"min_pixels", "max_pixels"} & set(gui):
        raise ProviderConfigError(f"{kind} agents take no min_pixels/max_pixels: their "
                                  "points are relative to the image, whatever its size")
    parsed = GuiOptions()
    if "coordinates" in gui:
        mode = str(gui["coordinates"]).strip().lower()
        if mode not in ("absolute", "relative"):
            raise ProviderConfigError(f"agent option coordinates={gui['coordinates']!r}: "
                                      "expected absolute or relative")
        parsed = GuiOptions(coordinates=mode)
    language = str(gui.get("language", parsed.language)).strip() or parsed.language
    pixels: dict[str, int] = {}
    for name in ("min_pixels", "max_pixels"):
        if name in gui:
            try:
                pixels[name] = int(gui[name])
            except (TypeError, ValueError):
                raise ProviderConfigError(f"agent option {name}={gui[name]!r}: expected an "
                                          "integer") from None
            if pixels[name] < PATCH * PATCH:
                raise ProviderConfigError(f"agent option {name}={gui[name]!r}: must be >= "
                                          f"{PATCH * PATCH}")
    parsed = GuiOptions(parsed.coordinates, language, pixels.get("min_pixels"),
                        pixels.get("max_pixels", QWEN_MAX_PIXELS))
    if parsed.min_pixels is not None and parsed.min_pixels > parsed.max_pixels:
        raise ProviderConfigError("agent option min_pixels must be <= max_pixels")
    given = {k.strip().lower().replace("-", "_") for k in shared}
    defaults = {k: v for k, v in _DEFAULTS.items() if k not in given}
    return AgentOptions.parse({**defaults, **shared}), parsed


def resized(width: int, height: int, min_pixels: int, max_pixels: int) -> tuple[int, int]:
    """(width, height) of an image as Qwen2-VL's and Qwen2.5-VL's image processors resize
    it: sides rounded to multiples of 28, the area brought within [min_pixels, max_pixels]
    keeping the aspect ratio. The models' absolute points are pixels of this image."""
    w = max(PATCH, round(width / PATCH) * PATCH)
    h = max(PATCH, round(height / PATCH) * PATCH)
    if w * h > max_pixels:
        beta = (width * height / max_pixels) ** 0.5
        w = max(PATCH, int(width / beta // PATCH) * PATCH)
        h = max(PATCH, int(height / beta // PATCH) * PATCH)
    elif w * h < min_pixels:
        beta = (min_pixels / (width * height)) ** 0.5
        w = -(-width * beta // PATCH) * PATCH
        h = -(-height * beta // PATCH) * PATCH
    return int(w), int(h)


class BadAnswer(Exception):
    """The model's answer does not follow its grammar; the message says how."""


class GuiModelAgent(ModelAgent):
    """Base of the GUI model agents: screenshot in, one JSON action with pixels out.

    Subclasses build the messages (`_messages`) from `self.image` and their history, and
    read an answer (`_read`) into JSON actions with points as fractions of the image
    (`self.point`). A model's "done, and here is my answer" becomes two steps: the answer,
    then `status: complete` (no model call), as bmoca's JSON actions take one at a time.
    """

    action_mode = "json"
    observation_modes: tuple[str, ...] = ("pixels", "xml")
    kind = "gui"

    def __init__(self, name: str, spec: AgentName, options: AgentOptions, task_id: str,
                 gui: GuiOptions) -> None:
        super().__init__(name, spec, options, task_id)
        self.gui = gui
        self.env_options = {"pixels_size": options.image_size}
        self._json = JsonActions()
        self.screen: tuple[int, int] = options.image_size
        self.image: prov.ImagePart | None = None
        self._queued: list[dict[str, Any]] = []
        self._action: Any = None

    # -- the episode ---------------------------------------------------------------------------
    def _reset(self) -> None:
        self.screen = (0, 0)
        self._queued = []
        self._action = None
        self._start()

    def _start(self) -> None:
        """Clear the subclass's history."""

    def act(self, observation: dict[str, Any]) -> Any:
        if self._queued:  # the second half of "done with this answer": no model call
            self.last_call = None
            self.step += 1
            return self._queued.pop(0)
        self._look(observation)
        super().act(observation)
        return self._action

    def _look(self, observation: dict[str, Any]) -> None:
        """Learn the screen size from the hierarchy and take the screenshot at that size."""
        found = [(int(m[3]), int(m[4])) for m in _BOUNDS.finditer(str(observation.get("xml")
                                                                        or ""))]
        if found:
            width = max(self.screen[0], max(x for x, _ in found))
            height = max(self.screen[1], max(y for _, y in found))
            self.screen = (width, height)
        if self.screen[0] <= 0 or self.screen[1] <= 0:
            self.screen = self.options.image_size
        pixels = np.asarray(observation["pixels"])
        if (pixels.shape[1], pixels.shape[0]) != self.screen:
            from bmoca.env import observations

            pixels = observations.resize(pixels, self.screen)
        self.image = prov.ImagePart.from_array(pixels)

    def _after(self, observation: dict[str, Any], answer: str) -> str | None:
        try:
            actions = self._read(answer)
            for action in actions:
                self._json.parse(action)  # what we built is a valid JSON action
        except (BadAnswer, InvalidAction) as exc:
            self._action = Unreadable(answer, f"{self.kind} answer: {exc}")
            self._remember(answer, None)
            return None
        except (ValueError, TypeError, OverflowError, RecursionError) as exc:
            # a hostile answer (a 400-digit number, JSON nested 100,000 deep) is still the
            # agent's invalid action, never an error of the run
            self._action = Unreadable(answer, f"{self.kind} answer: {type(exc).__name__}: "
                                              f"{str(exc)[:200]}")
            self._remember(answer, None)
            return None
        self._action, self._queued = actions[0], actions[1:]
        label = self._json.label(actions[0])
        self._remember(answer, label)
        return label

    # -- for subclasses --------------------------------------------------------------------------
    def _read(self, answer: str) -> list[dict[str, Any]]:
        """JSON actions (one, or an answer and a status) for an answer; BadAnswer if none."""
        raise NotImplementedError

    def _remember(self, answer: str, label: str | None) -> None:
        """Keep what the history needs of this step's answer (label None: unreadable)."""

    def point(self, fx: float, fy: float, what: str) -> tuple[int, int]:
        """The screen pixel at fractions (fx, fy) of the image; BadAnswer outside it."""
        if not (0.0 <= fx <= 1.0 and 0.0 <= fy <= 1.0):
            raise BadAnswer(f"{what} is outside the screenshot")
        return to_pixel(fx, self.screen[0]), to_pixel(fy, self.screen[1])

    def at(self, kind: str, fx: float, fy: float, what: str) -> dict[str, Any]:
        x, y = self.point(fx, fy, what)
        return {"action_type": kind, "x": x, "y": y}

    def drag(self, start: tuple[float, float], end: tuple[float, float],
             what: str) -> dict[str, Any]:
        """A finger moved from `start` to `end` (fractions), as the nearest JSON action.

        JSON actions have no free swipe: a drag down from the status bar is `swipe down`
        (it pulls the notification shade, as on the phone); any other is the `scroll`
        that moves the content the same way (a finger going up shows what is below:
        `scroll down`), from the screen's centre as AndroidWorld's scroll does.
        """
        (x1, y1), (x2, y2) = self.point(*start, what), self.point(*end, what)
        dx, dy = x2 - x1, y2 - y1
        if dx == 0 and dy == 0:
            raise BadAnswer(f"{what}: the start and end points are the same")
        status_bar = max(1, round(self.screen[1] * 0.04))
        if y1 < status_bar and dy > abs(dx):
            return {"action_type": "swipe", "direction": "down"}
        if abs(dy) >= abs(dx):
            return {"action_type": "scroll", "direction": "down" if dy < 0 else "up"}
        return {"action_type": "scroll", "direction": "right" if dx < 0 else "left"}

    @staticmethod
    def finished(text: str | None, status: str = "complete") -> list[dict[str, Any]]:
        """The end of the task, with the model's answer first when it gave one."""
        done = {"action_type": "status", "goal_status": status}
        text = (text or "").strip()
        return [{"action_type": "answer", "text": text}, done] if text else [done]

    KEYS = {"back": "navigate_back", "home": "navigate_home", "enter": "keyboard_enter",
            "menu": "navigate_recents", "app_switch": "navigate_recents",
            "recent": "navigate_recents", "recents": "navigate_recents"}

    def key(self, name: Any, what: str) -> dict[str, Any]:
        """A key or system button by name; only those bmoca's JSON actions can press."""
        key = str(name or "").strip().lower().removeprefix("keycode_")
        if key not in self.KEYS:
            raise BadAnswer(f"{what} {name!r} is not a key this phone's actions can press "
                            "(back, home, enter, menu)")
        return {"action_type": self.KEYS[key]}


def number_pair(value: Any, what: str) -> tuple[float, float]:
    """An (x, y) pair of finite numbers from a list, or BadAnswer."""
    if not isinstance(value, (list, tuple)) or len(value) != 2 or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        raise BadAnswer(f"{what} must be [x, y] with two numbers, got {value!r}"[:200])
    try:
        x, y = float(value[0]), float(value[1])
    except OverflowError:
        x = y = float("inf")
    if not (np.isfinite(x) and np.isfinite(y)):
        raise BadAnswer(f"{what} must be finite numbers, got {value!r}"[:200])
    return x, y


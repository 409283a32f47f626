"""UI-TARS on a phone: its MOBILE_USE prompt, read by the `ui-tars` package.

The conversation is UI-TARS's own (its deployment guide and OSWorld's UI-TARS agent): a
system line, the prompt with the instruction, then each earlier answer as an assistant
turn with its points wrapped in `<|box_start|>...<|box_end|>` again (the server drops
those special tokens from what it returns; the model was trained with them), the last
`history` earlier screenshots (default 4) before their answers, and the current one.

Answers (`Thought: ...\\nAction: click(start_box='(x,y)')`) are read by
`ui_tars.action_parser.parse_action_to_structure_output`, which also turns the points into
fractions of the image: UI-TARS-1.5 names pixels of the image as the server's Qwen2.5-VL
processor resized it (`coordinates=absolute`, the default; `min_pixels`/`max_pixels` must
be the server's), UI-TARS 1.0 names 0-1000 (`coordinates=relative`). One action per step:
the first of several is taken. `type` always ends with Enter (bmoca's `input_text`, as
AndroidWorld's); `drag` and `scroll` become the JSON swipe or scroll that moves the content
the same way (`GuiModelAgent.drag`); `finished(content=...)` answers, then claims complete.
"""

from __future__ import annotations

import contextlib
import io
import re
from typing import Any

from bmoca.agents.llm import prompts
from bmoca.agents.llm import providers as prov
from bmoca.agents.llm.gui_models import BadAnswer, GuiModelAgent
from bmoca.agents.llm.providers import ProviderConfigError

# UI-TARS-1.5's MOBILE_USE prompt as published with the model (bytedance/UI-TARS,
# codes/prompts.py, April 2025). The `ui-tars` package ships only the Doubao variant,
# whose `<point>x y</point>` syntax UI-TARS-1.5 was not trained on.
MOBILE_USE = """You are a GUI agent. You are given a task and your action history, with screenshots. You need to perform the next action to complete the task. 
## Output Format
```
Thought: ...
Action: ...
```
## Action Space

click(start_box='<|box_start|>(x1,y1)<|box_end|>')
long_press(start_box='<|box_start|>(x1,y1)<|box_end|>')
type(content='') #If you want to submit your input, use "\\n" at the end of `content`.
scroll(start_box='<|box_start|>(x1,y1)<|box_end|>', direction='down or up or right or left')
open_app(app_name=\'\')
drag(start_box='<|box_start|>(x1,y1)<|box_end|>', end_box='<|box_start|>(x3,y3)<|box_end|>')
press_home()
press_back()
finished(content='xxx') # Use escape characters \\', \\", and \\n in content part to ensure we can parse the content in normal python string format.


## Note
- Use {language} in `Thought` part.
- Write a small plan and finally summarize your next action (with its target element) in one sentence in `Thought` part.

## User Instruction
{instruction}
"""  # noqa: W291 - the published prompt's trailing space is part of it

SYSTEM = "You are a helpful assistant."
_BOX_TOKENS = re.compile(r"<\|box_(?:start|end)\|>")
_PLAIN_BOX = re.compile(r"(start_box|end_box)='\((\d+),\s*(\d+)\)'")
_DIRECTIONS = ("up", "down", "left", "right")


def _parser() -> Any:
    try:
        from ui_tars import action_parser
    except ImportError:
        raise ProviderConfigError("uitars agents read answers with the 'ui-tars' package: "
                                  "pip install 'bmoca[gui]' (or pip install ui-tars)") from None
    return action_parser


def with_box_tokens(answer: str) -> str:
    """An earlier answer as the model wrote it, its points in box tokens again."""
    return _PLAIN_BOX.sub(r"\1='<|box_start|>(\2,\3)<|box_end|>'", answer)


class UITarsAgent(GuiModelAgent):
    """`uitars/<provider>:<model>[@url]`: UI-TARS (1.5 by default, 1.0 with
    `coordinates=relative`)."""

    kind = "uitars"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._package = _parser()
        self.answers: list[str] = []
        self.images: list[prov.ImagePart] = []

    def _start(self) -> None:
        self.answers, self.images = [], []

    def _messages(self, observation: dict[str, Any], hint: str) -> list[prov.Message]:
        assert self.image is not None
        keep = 4 if self.options.history is None else self.options.history
        text = MOBILE_USE.format(language=self.gui.language,
                                 instruction=prompts.instruction(self.goal))
        messages = [prov.system(SYSTEM), prov.user(text)]
        for i, answer in enumerate(self.answers):
            if i >= len(self.answers) - keep:
                messages.append(prov.user(self.images[i]))
            messages.append(prov.Message("assistant", (with_box_tokens(answer),)))
        messages.append(prov.user(self.image))
        return messages

    def _remember(self, answer: str, label: str | None) -> None:
        assert self.image is not None
        self.answers.append(answer)
        self.images.append(self.image)

    def _read(self, answer: str) -> list[dict[str, Any]]:
        text = _BOX_TOKENS.sub("", answer).strip()
        if "Action:" not in text:
            raise BadAnswer("no 'Action:' line (expected Thought: ... then Action: ...)")
        width, height = self.image.width, self.image.height  # type: ignore[union-attr]
        absolute = self.gui.coordinates == "absolute"
        limits = {"min_pixels": self.gui.min_pixels or self._package.MIN_PIXELS,
                  "max_pixels": self.gui.max_pixels}
        try:
            with contextlib.redirect_stdout(io.StringIO()):  # the parser prints its failures
                parsed = self._package.parse_action_to_structure_output(
                    text, 1000, height, width,
                    model_type="qwen25vl" if absolute else "qwen2vl", **limits)
        except Exception as exc:  # noqa: BLE001 - the package's own errors, named
            action = text.split("Action:")[-1].strip()
            raise BadAnswer(f"cannot read the action {action[:120]!r} "
                            f"({type(exc).__name__}: {str(exc)[:120]})") from None
        if not parsed:
            raise BadAnswer("no action after 'Action:'")
        return self._convert(parsed[0]["action_type"], parsed[0]["action_inputs"])

    def space(self) -> str:
        """What the model's points are pixels of, for messages."""
        if self.gui.coordinates == "relative":
            return "points are 0-1000"
        assert self.image is not None
        height, width = self._package.smart_resize(
            self.image.height, self.image.width,
            min_pixels=self.gui.min_pixels or self._package.MIN_PIXELS,
            max_pixels=self.gui.max_pixels)
        return f"points are pixels of the {width}x{height} image the model sees"

    def _box(self, inputs: dict[str, Any], name: str, what: str) -> tuple[float, float]:
        """The centre of a box (the parser gives [x1, y1, x2, y2] as fractions); BadAnswer
        naming the model's own numbers when it is outside the image."""
        raw = inputs.get(name)
        if raw is None:
            raise BadAnswer(f"{what} needs {name}")
        try:
            x1, y1, x2, y2 = (float(v) for v in str(raw).strip("[]").split(","))
        except ValueError:
            raise BadAnswer(f"{what}: {name} is not a point: {raw!r}") from None
        fx, fy = (x1 + x2) / 2, (y1 + y2) / 2
        if not (0.0 <= fx <= 1.0 and 0.0 <= fy <= 1.0):
            raise BadAnswer(f"{what}: {name} is outside the screenshot ({self.space()})")
        return fx, fy

    def _convert(self, kind: str, inputs: dict[str, Any]) -> list[dict[str, Any]]:
        what = f"{kind}()"
        if kind in ("click", "long_press", "left_single", "left_double"):
            json_kind = "long_press" if kind == "long_press" else "click"
            return [self.at(json_kind, *self._box(inputs, "start_box", what),
                            f"{what} start_box")]
        if kind == "type":
            return [{"action_type": "input_text",
                     "text": str(inputs.get("content", "")).rstrip("\n")}]
        if kind == "scroll":
            direction = str(inputs.get("direction", "")).strip().lower()
            if direction not in _DIRECTIONS:
                raise BadAnswer(f"{what}: direction must be up, down, left or right, got "
                                f"{inputs.get('direction')!r}")
            if "start_box" in inputs:
                self.point(*self._box(inputs, "start_box", what), f"{what} start_box")
            return [{"action_type": "scroll", "direction": direction}]
        if kind in ("drag", "swipe"):
            return [self.drag(self._box(inputs, "start_box", what),
                              self._box(inputs, "end_box", what), what)]
        if kind == "open_app":
            name = str(inputs.get("app_name", "")).strip()
            if not name:
                raise BadAnswer("open_app() needs app_name")
            return [{"action_type": "open_app", "app_name": name}]
        if kind in ("press_home", "press_back"):
            return [self.key(kind.removeprefix("press_"), "key")]
        if kind == "hotkey":
            return [self.key(inputs.get("key"), "hotkey")]
        if kind == "wait":
            return [{"action_type": "wait"}]
        if kind == "finished":
            return self.finished(inputs.get("content"))
        if kind == "call_user":
            return [{"action_type": "status", "goal_status": "infeasible"}]
        raise BadAnswer(f"unknown action {kind!r}; the prompt offers click, long_press, type, "
                        "scroll, open_app, drag, press_home, press_back, finished")

"""Qwen2.5-VL and Qwen3-VL as phone agents: the `mobile_use` function of Qwen's cookbooks.

Both follow the mobile-agent cookbooks of QwenLM/Qwen2.5-VL and QwenLM/Qwen3-VL: a system
prompt declaring one tool, `mobile_use`, in the Hermes/Nous function-call format, and a
user turn with the query, the steps done so far and the screenshot. The model answers with
`<tool_call>{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [x, y]}}
</tool_call>` (Qwen3-VL first writes `Thought:` and `Action:` lines).

* Qwen2.5-VL: the tool says the screen's resolution is the image as the server's
  processor resizes it (`bmoca.agents.llm.gui_models.resized`, with the server's
  `min_pixels`/`max_pixels`), and its points are pixels of that image; the steps so far are
  the earlier tool calls, as in the cookbook.
* Qwen3-VL: the resolution is always 999x999 and points are 0-999 of the image; the steps
  so far are the earlier answers' `Action:` lines, as in the cookbook.

Only the first tool call of an answer is read (the cookbooks read the first). `swipe`
becomes the JSON swipe or scroll that moves the content the same way; `type` ends with
Enter (bmoca's `input_text`); `key` and `system_button` press back, home, enter or the
recent-apps button (Qwen's "Menu"); `terminate` claims complete (success) or infeasible.
"""

from __future__ import annotations

import json
import re
from typing import Any

from bmoca.agents.llm import prompts
from bmoca.agents.llm import providers as prov
from bmoca.agents.llm.gui_models import (
    QWEN_MIN_PIXELS,
    BadAnswer,
    GuiModelAgent,
    number_pair,
    resized,
)

_SCREEN = (
    "Use a touchscreen to interact with a mobile device, and take screenshots.\n"
    "* This is an interface to a mobile device with touchscreen. You can perform actions like "
    "clicking, typing, swiping, etc.\n"
    "* Some applications may take time to start or process actions, so you may need to wait "
    "and take successive screenshots to see the results of your actions.\n"
    "* The screen's resolution is {width}x{height}.\n"
    "* Make sure to click any buttons, links, icons, etc with the cursor tip in the center of "
    "the element. Don't click boxes on their edges unless asked.")
_POINT = ("(x, y): The x (pixels from the left edge) and y (pixels from the top edge) "
          "coordinates to move the mouse to. Required only by `action=click`, "
          "`action=long_press`, and `action=swipe`.")
_POINT2 = ("(x, y): The x (pixels from the left edge) and y (pixels from the top edge) "
           "coordinates to move the mouse to. Required only by `action=swipe`.")
_BUTTON = ("Back means returning to the previous interface, Home means returning to the "
           "desktop, Menu means opening the application background menu, and Enter means "
           "pressing the enter. Required only by `action=system_button`")
_ACTION_LINES = {
    "key": "* `key`: Perform a key event on the mobile device.\n    - This supports adb's "
           "`keyevent` syntax.\n    - Examples: \"volume_up\", \"volume_down\", \"power\", "
           "\"camera\", \"clear\".",
    "click": "* `click`: Click the point on the screen with coordinate (x, y).",
    "long_press": "* `long_press`: Press the point on the screen with coordinate (x, y) for "
                  "specified seconds.",
    "swipe": "* `swipe`: Swipe from the starting point with coordinate (x, y) to the end point "
             "with coordinates2 (x2, y2).",
    "type": "* `type`: Input the specified text into the activated input box.",
    "answer": "* `answer`: Output the answer.",
    "system_button": "* `system_button`: Press the system button.",
    "open": "* `open`: Open an app on the device.",
    "wait": "* `wait`: Wait specified seconds for the change to happen.",
    "terminate": "* `terminate`: Terminate the current task and report its completion status.",
}
_FORMAT = ("For each function call, return a json object with function name and arguments "
           "within <tool_call></tool_call> XML tags:\n<tool_call>\n{\"name\": "
           "<function-name>, \"arguments\": <args-json-object>}\n</tool_call>")
_QWEN3_FORMAT = (
    "\n\n# Response format\n\nResponse format for every step:\n"
    "1) Thought: one concise sentence explaining the next move (no multi-step reasoning).\n"
    "2) Action: a short imperative describing what to do in the UI.\n"
    "3) A single <tool_call>...</tool_call> block containing only the JSON: {\"name\": "
    "<function-name>, \"arguments\": <args-json-object>}.\n\nRules:\n"
    "- Output exactly in the order: Thought, Action, <tool_call>.\n"
    "- Be brief: one sentence for Thought, one for Action.\n"
    "- Do not output anything else outside those three parts.\n"
    "- If finishing, use action=terminate in the tool call.")
QWEN25_ACTIONS = ("key", "click", "long_press", "swipe", "type", "system_button", "open",
                  "wait", "terminate")
QWEN3_ACTIONS = ("click", "long_press", "swipe", "type", "answer", "system_button", "wait",
                 "terminate")
_TOOL_CALL = re.compile(r"<tool_call>(.*?)(?:</tool_call>|$)", re.DOTALL)
_ACTION_LINE = re.compile(r"^\s*Action:\s*(.+?)\s*$", re.MULTILINE)


def tool(width: int, height: int, actions: tuple[str, ...], qwen3: bool) -> dict[str, Any]:
    """The `mobile_use` function as the cookbook declares it (Qwen2.5-VL's as qwen-agent
    renders it, with `name_for_human` and `args_format`)."""
    text = ("Required only by `action=type` and `action=answer`." if qwen3 else
            "Required only by `action=key`, `action=type`, and `action=open`.")
    parameters = {
        "properties": {
            "action": {"description": "The action to perform. The available actions are:\n" +
                       "\n".join(_ACTION_LINES[a] for a in actions),
                       "enum": list(actions), "type": "string"},
            "coordinate": {"description": _POINT, "type": "array"},
            "coordinate2": {"description": _POINT2, "type": "array"},
            "text": {"description": text, "type": "string"},
            "time": {"description": "The seconds to wait. Required only by "
                                    "`action=long_press` and `action=wait`.",
                     "type": "number"},
            "button": {"description": _BUTTON, "enum": ["Back", "Home", "Menu", "Enter"],
                       "type": "string"},
            "status": {"description": "The status of the task. Required only by "
                                      "`action=terminate`.",
                       "type": "string", "enum": ["success", "failure"]},
        },
        "required": ["action"], "type": "object"}
    function: dict[str, Any] = {"name": "mobile_use",
                                "description": _SCREEN.format(width=width, height=height),
                                "parameters": parameters}
    if not qwen3:
        function = {"name_for_human": "mobile_use", **function,
                    "args_format": "Format the arguments as a JSON object."}
    return {"type": "function", "function": function}


def system_prompt(width: int, height: int, qwen3: bool) -> str:
    """The system turn: Qwen2.5-VL's starts "You are a helpful assistant.", Qwen3-VL's
    cookbook prompt starts with the tools and ends with the response format."""
    declared = json.dumps(tool(width, height, QWEN3_ACTIONS if qwen3 else QWEN25_ACTIONS, qwen3),
                          ensure_ascii=False)
    body = ("\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
            "You are provided with function signatures within <tools></tools> XML tags:\n"
            f"<tools>\n{declared}\n</tools>\n\n{_FORMAT}")
    return body + _QWEN3_FORMAT if qwen3 else "You are a helpful assistant." + body


class QwenMobileAgent(GuiModelAgent):
    """`qwen25vl/...` and `qwen3vl/...` agents."""

    def __init__(self, *args: Any, qwen3: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.qwen3 = qwen3
        self.kind = "qwen3vl" if qwen3 else "qwen25vl"
        self.done: list[str] = []
        self._last: dict[str, Any] = {}

    def _start(self) -> None:
        self.done = []

    def model_size(self) -> tuple[int, int]:
        """The resolution the model's points refer to."""
        if self.qwen3:
            return 999, 999
        assert self.image is not None
        return resized(self.image.width, self.image.height,
                       self.gui.min_pixels or QWEN_MIN_PIXELS, self.gui.max_pixels)

    def _messages(self, observation: dict[str, Any], hint: str) -> list[prov.Message]:
        assert self.image is not None
        keep = self.options.history
        shown = self.done if keep is None else self.done[-keep:] if keep else []
        first = len(self.done) - len(shown)
        steps = "".join(f"Step {first + i}: {s}; " for i, s in enumerate(shown, 1))
        goal = prompts.instruction(self.goal)
        progress = "Task progress (You have done the following operation on the current device)"
        query = (f"The user query: {goal}.\n{progress}: {steps}.\n" if self.qwen3 else
                 f"The user query: {goal}\n{progress}: {steps}")
        return [prov.system(system_prompt(*self.model_size(), qwen3=self.qwen3)),
                prov.user(query, self.image)]

    def _call(self, answer: str) -> dict[str, Any]:
        match = _TOOL_CALL.search(answer)
        if match is None:
            raise BadAnswer("no <tool_call> block")
        try:
            call = json.loads(match.group(1).strip())
        except ValueError as exc:
            raise BadAnswer(f"the <tool_call> is not JSON ({exc})") from None
        if not isinstance(call, dict) or call.get("name") != "mobile_use":
            raise BadAnswer("the <tool_call> must call mobile_use, got "
                            f"{(call.get('name') if isinstance(call, dict) else call)!r}"[:200])
        arguments = call.get("arguments")
        if isinstance(arguments, str):  # some servers send the arguments JSON-encoded
            try:
                arguments = json.loads(arguments)
            except ValueError:
                pass
        if not isinstance(arguments, dict):
            raise BadAnswer("mobile_use arguments must be a JSON object")
        return arguments

    def _remember(self, answer: str, label: str | None) -> None:
        if label is None:
            return  # not an operation done on the device
        if self.qwen3:
            match = _ACTION_LINE.search(answer)
            line = match.group(1) if match else label
            self.done.append(line.replace('"', ""))
        else:
            self.done.append(json.dumps({"name": "mobile_use", "arguments": self._last},
                                        ensure_ascii=False))

    def _fraction(self, value: Any, what: str) -> tuple[float, float]:
        x, y = number_pair(value, what)
        width, height = self.model_size()
        if not (0 <= x <= width and 0 <= y <= height):
            raise BadAnswer(f"{what} {value!r} is outside the {width}x{height} screen the "
                            "tool declares")
        return x / width, y / height

    def _read(self, answer: str) -> list[dict[str, Any]]:
        args = self._call(answer)
        self._last = args
        action = str(args.get("action", "")).strip().lower()
        offered = QWEN3_ACTIONS if self.qwen3 else QWEN25_ACTIONS
        if action not in QWEN25_ACTIONS + QWEN3_ACTIONS:
            raise BadAnswer(f"unknown action {args.get('action')!r}; mobile_use offers "
                            f"{', '.join(offered)}")
        what = f"mobile_use {action}"
        if action in ("click", "long_press"):
            return [self.at(action, *self._fraction(args.get("coordinate"), "coordinate"),
                            what)]
        if action == "swipe":
            start = self._fraction(args.get("coordinate"), "coordinate")
            end = self._fraction(args.get("coordinate2"), "coordinate2")
            return [self.drag(start, end, what)]
        if action in ("type", "answer", "open"):
            text = args.get("text")
            if not isinstance(text, str) or (action == "open" and not text.strip()):
                raise BadAnswer(f"{what} needs a text string")
            if action == "open":
                return [{"action_type": "open_app", "app_name": text.strip()}]
            return [{"action_type": "input_text" if action == "type" else "answer",
                     "text": text}]
        if action == "key":
            return [self.key(args.get("text"), "key")]
        if action == "system_button":
            return [self.key(args.get("button"), "system_button")]
        if action == "wait":
            return [{"action_type": "wait"}]
        status = str(args.get("status", "")).strip().lower()
        if status not in ("success", "failure"):
            raise BadAnswer(f"terminate needs status success or failure, got "
                            f"{args.get('status')!r}")
        return self.finished(None, "complete" if status == "success" else "infeasible")

"""A generic grammar for GUI models that name points in 0-1000 of the screenshot.

Many open GUI models (and models tuned with `bmoca train` on screenshots) point in
coordinates normalised to 0-1000 whatever the image size. This agent asks for AndroidWorld's
JSON actions with `x`, `y` in that range instead of element indexes:

    Thought: <one sentence>
    Action: {"action_type": "click", "x": 512, "y": 230}

The action is read by bmoca's own JSON action parser (`JsonActions.parse`), so every type
and field rule is the environment's; `index` is refused (the model sees no element list),
and points outside 0-1000 are invalid (1000 is the last pixel).
"""

from __future__ import annotations

from typing import Any

from bmoca.agents.llm import prompts
from bmoca.agents.llm import providers as prov
from bmoca.agents.llm.gui_models import BadAnswer, GuiModelAgent

SCALE = 1000

ROLE = ("You are an agent who operates an Android phone for its user, one action at a time, "
        "to reach the user's goal. You see the phone's screenshot.")

ACTIONS = (
    "Points are given as x, y in 0-1000: x from the left edge (0) to the right edge (1000) of "
    "the screenshot, y from the top edge (0) to the bottom edge (1000).\n"
    "Each step you choose one action, written as a JSON object:\n"
    "- Tap: {\"action_type\": \"click\", \"x\": <x>, \"y\": <y>}\n"
    "- Long-press: {\"action_type\": \"long_press\", \"x\": <x>, \"y\": <y>}\n"
    "- Type into a text field (tapped first when x, y are given; Enter is pressed after): "
    "{\"action_type\": \"input_text\", \"text\": <text>, \"x\": <x>, \"y\": <y>}\n"
    "- Press Enter: {\"action_type\": \"keyboard_enter\"}\n"
    "- Go to the home screen: {\"action_type\": \"navigate_home\"}\n"
    "- Go back: {\"action_type\": \"navigate_back\"}\n"
    "- Show the recent apps: {\"action_type\": \"navigate_recents\"}\n"
    "- Scroll the screen; the direction is where the content moves, so \"down\" shows what "
    "is further below: {\"action_type\": \"scroll\", \"direction\": <up|down|left|right>}\n"
    "- Swipe a finger across the whole screen (\"down\" from the top opens the notifications): "
    "{\"action_type\": \"swipe\", \"direction\": <up|down|left|right>}\n"
    "- Open an app by its name: {\"action_type\": \"open_app\", \"app_name\": <name>}\n"
    "- Wait for the screen to change: {\"action_type\": \"wait\"}\n"
    "- Stop: {\"action_type\": \"status\", \"goal_status\": \"complete\"} once the goal is "
    "reached, or \"infeasible\" when it cannot be reached\n"
    "- Answer a question of the user: {\"action_type\": \"answer\", \"text\": <answer>}\n")

FORMAT = ("Answer in exactly this format:\n"
          "Thought: <one sentence: what you see and why this action>\n"
          "Action: <one JSON action>\n")


def user_text(goal: str, history: list[str]) -> str:
    past = "\n".join(f"Step {i}: {line}" for i, line in enumerate(history, 1)) or "No steps yet."
    return (f"{ACTIONS}\nGoal: {prompts.instruction(goal)}.\n\nPrevious steps (oldest first):\n"
            f"{past}\n\nThe current screenshot is attached.\n\n{FORMAT}")


class Coords1000Agent(GuiModelAgent):
    """`coords1000/<provider>:<model>[@url]`."""

    kind = "coords1000"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.history: list[str] = []

    def _start(self) -> None:
        self.history = []

    def _messages(self, observation: dict[str, Any], hint: str) -> list[prov.Message]:
        assert self.image is not None
        keep = self.options.history
        shown = self.history if keep is None else self.history[-keep:] if keep else []
        return [prov.system(ROLE), prov.user(user_text(self.goal, shown), self.image)]

    def _remember(self, answer: str, label: str | None) -> None:
        self.history.append(label or "invalid action (the answer could not be read); "
                                     "nothing happened")

    def _read(self, answer: str) -> list[dict[str, Any]]:
        action = self._json.parse(answer)
        if "index" in action:
            raise BadAnswer("give a point as x, y in 0-1000, not an element index")
        if "x" in action:
            x, y = action["x"], action["y"]
            if not (0 <= x <= SCALE and 0 <= y <= SCALE):
                raise BadAnswer(f"the point ({x:g}, {y:g}) is outside 0-1000")
            action["x"], action["y"] = self.point(x / SCALE, y / SCALE, "the point")
        return [action]

"""Prompt texts: B-MoCA's (paper Appendix C.2, Tables 15-16) and AndroidWorld-style T3A/M3A.

The B-MoCA wording is the paper's, word for word, so results compare with its Table 2;
the only additions are optional and off by default (bounding boxes come with the
observation itself, the exploration hint is a separate paragraph). The AndroidWorld-style
prompt is written for this benchmark's JSON actions (the types the environment accepts,
`bmoca.env.actions.JsonActions`) and asks for the step summary in the same answer.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import Any

# -- B-MoCA ----------------------------------------------------------------------------------

BMOCA_ROLE = ("You are an agent that is trained to perform daily tasks on digital devices, "
              "such as smartphones.")

_BMOCA_INTRO = (
    "You are given a goal task instruction to accomplish, an observation from the environment, "
    "and previous actions you have taken (up to 4 past steps).\n"
    "The observation is a screen description parsed from the Android view hierarchy which "
    "contains the numeric tag and relevant information (e.g., text description) of each UI "
    "element.\n")

_BMOCA_FORMAT_COT = (
    "For the response, you need to think and call the function needed to achieve the goal task "
    "instruction.\n"
    "Your output should include three parts in the given format:\n"
    "- Description: <Describe what you observe in the input>\n"
    "- Thought: <Provide a rationale on the next action you should take to complete the task>\n"
    "- Action: <Select an action option in the format of a function call with the correct "
    "parameters. You cannot output anything else except a function call.>\n")

# Without chain of thought: the custom Llama-3 agent's format (reference notes 6.4).
_BMOCA_FORMAT_PLAIN = (
    "For the response, you need to call the function needed to achieve the goal task "
    "instruction.\n"
    "Your output should include one part in the given format:\n"
    "- Action: <Select an action option in the format of a function call with the correct "
    "parameters. You cannot output anything else except a function call.>\n")

_BMOCA_ACTIONS = (
    "For the action, you need to select an action option by calling one of the following "
    "functions to control the digital device:\n"
    "1. dual-gesture(touch y: float, touch x: float, lift y: float, lift x: float): This "
    "function is used to operate a dual-gesture action. A dual-gesture comprises four "
    "floating-point numeric values between 0 and 1, indicating a normalized location of the "
    "screen in each of the x-y coordinates. A dual-gesture action is interpreted as touching "
    "the screen at the location of (touch y, touch x) and lifting at the location of (lift y, "
    "lift x). The dual-gesture action indicates a tapping action if the touch and lift "
    "locations are identical, but a swiping action if they differ. A simple use case is "
    "dual-gesture(0.5, 0.5, 0.5, 0.5) to tap the center of the screen.\n"
    "2. tap(numeric tag: int): This function is used to tap a UI element shown on the digital "
    "device screen. \"numeric tag\" is a tag assigned to a UI element shown on the digital "
    "device screen. A simple use case can be tap(5), which taps the UI element labeled with "
    "the number 5.\n"
    "3. swipe(direction: str): This function is used to swipe on the digital device screen. "
    "\"direction\" is a string that represents one of the four directions: up, down, left, "
    "right. \"direction\" must be wrapped in double quotation marks. A simple use case is "
    "swipe(\"up\"), which can be used to open the app list on the home screen.\n"
    "4. press(\"HOME\"): This function is used to press the home button.\n"
    "5. press(\"BACK\"): This function is used to press the back button.\n"
    "6. press(\"OVERVIEW\"): This function is used to press the overview button.\n"
    "You can only take one action at a time, so please directly call the function.\n"
    "Please never take action besides the options provided.\n")

_FEW_SHOT_TRAJECTORIES = (
    "Below illustrates the example of human experts.\n"
    "Each example is a full trajectory from the beginning to the end of the task completion.\n"
    "Each observation from the environment and corresponding action taken by the expert is "
    "described as:\n"
    "- Observation: <An observation from the environment>\n"
    "- Action: <An action taken by the human expert>\n")

_FEW_SHOT_PAIRS = (
    "Below illustrates the example of human experts.\n"
    "Each example is one observation from the environment and the action the expert took "
    "there, described as:\n"
    "- Observation: <An observation from the environment>\n"
    "- Action: <An action taken by the human expert>\n")


def instruction(goal: str) -> str:
    """The task instruction without the environment's "Goal: " prefix or a final period."""
    text = goal.strip()
    if text.lower().startswith("goal:"):
        text = text[5:].strip()
    return text.rstrip(".")


def bmoca_user_text(goal: str, observation: str, previous_actions: Sequence[str], *,
                    cot: bool = True, few_shot: str = "", hint: str = "") -> str:
    """Everything after the role line (Table 15), filled in."""
    parts = [_BMOCA_INTRO, "\n", _BMOCA_FORMAT_COT if cot else _BMOCA_FORMAT_PLAIN, "\n",
             _BMOCA_ACTIONS, "\n", f"Goal: {instruction(goal)}.\n"]
    if few_shot:
        parts += ["\n", few_shot.rstrip("\n"), "\n"]
    parts += ["\n", f"Previous actions: {list(previous_actions)!s}\n",
              f"Current observation: {observation}\n"]
    if hint:
        parts += [hint.rstrip("\n"), "\n"]
    parts.append("Answer: ")
    return "".join(parts)


def few_shot_block(examples: Sequence[tuple[str | None, Sequence[tuple[str, str]]]], *,
                   pairs: bool) -> str:
    """Demonstrations as Table 16: each example (goal or None, [(observation, action)]).

    A goal is shown only for a demonstration of another task (Table 16 has none: there
    every example is of the task at hand)."""
    if not examples:
        return ""
    out = [_FEW_SHOT_PAIRS if pairs else _FEW_SHOT_TRAJECTORIES]
    header = "Transition Example:" if pairs else "Demonstration Example:"
    for goal, example in examples:
        out.append(f"\n{header}\n")
        if goal:
            out.append(f"- Goal: {instruction(goal)}.\n")
        for observation, action in example:
            out.append(f"- Observation: {observation}\n- Action: {action}\n")
    return "".join(out)


# -- AndroidWorld-style (T3A, M3A) -------------------------------------------------------------

AW_ROLE = ("You are an agent who operates an Android phone for its user, one action at a "
           "time, to reach the user's goal.")

_AW_ACTIONS = (
    "Each step you choose one action, written as a JSON object:\n"
    "- Tap an element: {\"action_type\": \"click\", \"index\": <element index>}\n"
    "- Long-press an element: {\"action_type\": \"long_press\", \"index\": <element index>}\n"
    "- Type into a text field (the field is tapped first and Enter is pressed after): "
    "{\"action_type\": \"input_text\", \"text\": <text>, \"index\": <element index>}\n"
    "- Press Enter: {\"action_type\": \"keyboard_enter\"}\n"
    "- Go to the home screen: {\"action_type\": \"navigate_home\"}\n"
    "- Go back: {\"action_type\": \"navigate_back\"}\n"
    "- Scroll the screen or a scrollable element; the direction is where the content moves, "
    "so \"down\" shows what is further below: {\"action_type\": \"scroll\", \"direction\": "
    "<up|down|left|right>, \"index\": <optional element index>}\n"
    "- Open an app by its name: {\"action_type\": \"open_app\", \"app_name\": <name>}\n"
    "- Wait for the screen to change: {\"action_type\": \"wait\"}\n"
    "- Stop: {\"action_type\": \"status\", \"goal_status\": \"complete\"} once the goal is "
    "reached, or \"infeasible\" when it cannot be reached\n"
    "- Answer a question of the user: {\"action_type\": \"answer\", \"text\": <answer>}\n")

_AW_GUIDELINES = (
    "Guidelines:\n"
    "- Open apps with open_app rather than searching for their icons.\n"
    "- Use only indexes of the current screen's elements; the screen changes after each "
    "action.\n"
    "- If an action did not change the screen, do not repeat it: try something else.\n"
    "- Stop with status complete only when the current screen shows that the goal is "
    "reached.\n")


AW_XML_HINT = (
    "The screen is given as its raw view hierarchy (XML), without element indexes: tap or "
    "long-press by pixel, at the centre of the element's bounds [left,top][right,bottom]: "
    "{\"action_type\": \"click\", \"x\": <x>, \"y\": <y>}; input_text takes the same x "
    "and y instead of an index.")
"""The hint that goes with a raw-XML screen in place of the element list (the actions'
`index` counts the element list's elements, which the XML does not number)."""


def aw_elements(observation: str) -> str:
    """The screen translator's element list as AndroidWorld-style lines, one per element."""
    elements = parse_elements(observation)
    if elements is None:
        return observation
    lines = []
    for element in elements:
        fields = {k: v for k, v in element.items() if k != "numeric_tag" and v not in ("", None)}
        lines.append(f"UI element {element.get('numeric_tag')}: {fields}")
    return "\n".join(lines) if lines else "(no elements)"


def parse_elements(observation: str) -> list[dict[str, Any]] | None:
    """The element dicts of a `text` observation (a Python literal), or None."""
    try:
        value = ast.literal_eval(observation)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    if isinstance(value, list) and all(isinstance(e, dict) for e in value):
        return value
    return None


def _aw_screen(elements: str, image: bool) -> str:
    header = ("The current screen (the screenshot shows each element's box labelled with its "
              "index) has these UI elements:\n" if image else
              "The current screen has these UI elements:\n")
    return header + elements + "\n"


def _aw_answer(cot: bool) -> str:
    return "\nAnswer in exactly this format:\n" + (
        "Reason: <why this action brings you closer to the goal>\n" if cot else "") + (
        "Summary: <one line: what this action does and what you expect to see next>\n"
        "Action: <one JSON action>\n")


def aw_user_text(goal: str, elements: str, history: Sequence[str], *, cot: bool = True,
                 image: bool = False, few_shot: str = "", hint: str = "") -> str:
    past = "\n".join(f"Step {i}: {line}" for i, line in enumerate(history, 1)) or "No steps yet."
    parts = [_AW_ACTIONS, "\n", _AW_GUIDELINES, "\n", f"Goal: {instruction(goal)}.\n"]
    if few_shot:
        parts += ["\n", few_shot.rstrip("\n"), "\n"]
    parts += ["\n", "Previous steps (oldest first):\n", past, "\n\n", _aw_screen(elements, image)]
    if hint:
        parts += ["\n", hint.rstrip("\n"), "\n"]
    parts.append(_aw_answer(cot))
    return "".join(parts)


def aw_step_result(step: int, label: str | None, error: str | None, no_effect: bool) -> str:
    """One history line in the AndroidWorld agents' words: what step `step` did, or that it
    was invalid and nothing happened, and whether the screen stayed the same."""
    if error is not None:
        return f"Step {step}: invalid action ({error}); nothing happened"
    return f"Step {step}: did {label}" + (" (the screen did not change)" if no_effect else "")


def aw_next_turn(result: str, elements: str, *, cot: bool = True) -> str:
    """A later user turn of a multi-turn conversation (the first is `aw_user_text`): the
    last step's result, the new screen and the answer format again; the goal, the actions
    and the earlier steps are already in the conversation."""
    return "".join([result, "\n\n", _aw_screen(elements, False), _aw_answer(cot)])

"""Stages for what agents do and experts never need: long presses, keys, typed text, a
claim of being done, another way into an app. Near-miss rows (`bmoca.tasks.near_misses`)
are plans built from these and the experts' own stages, so that a row is played through
`env.step` with the JSON actions an agent sends, in every language and layout.

Like the experts' stages, they find elements by resource-id and position, or a launcher
icon by the app's label in any of the 15 locales.
"""

from __future__ import annotations

from bmoca.tasks.experts.base import (
    LAUNCHER,
    SCROLL_DOWN,
    Action,
    Expert,
    ExpertStuck,
    Screen,
    Stage,
    click,
    long_press,
    tap_id,
    toward_launcher_icon,
)

DRAWER = f"{LAUNCHER}:id/apps_list_view"
"""The app drawer's list: present only while the drawer is open."""
DIRECTIONS = ("up", "down", "left", "right")
KEYS = {"BACK": "navigate_back", "HOME": "navigate_home", "ENTER": "keyboard_enter",
        "OVERVIEW": "navigate_recents"}
"""The JSON action of each key an agent can press."""
GOAL_STATUSES = ("complete", "infeasible")


def once(action: Action) -> Stage:
    """Send `action` once, whatever the screen."""

    def stage(screen: Screen, expert: Expert) -> Action | None:
        return expert.advance_after(dict(action))

    return stage


def long_press_app(package: str) -> Stage:
    """Long-press the app's launcher icon (on the home screen, or in the drawer where the
    home screen has none): the Pixel launcher shows the app's shortcuts, starts nothing."""

    def stage(screen: Screen, expert: Expert) -> Action | None:
        action = toward_launcher_icon(package, screen, expert, long_press)
        return expert.advance_after(action) if action["action_type"] == "long_press" else action

    return stage


def open_from_drawer(package: str) -> Stage:
    """Open the app from the app drawer (swipe up on the home screen, tap its icon), even
    where the home screen has its icon."""

    def stage(screen: Screen, expert: Expert) -> Action | None:
        if screen.package == package:
            return None
        if screen.package == LAUNCHER and not screen.has(DRAWER):
            return SCROLL_DOWN  # the finger moves up from the centre: the drawer opens
        return toward_launcher_icon(package, screen, expert, click)

    return stage


def long_press_id(id: str, index: int = 0) -> Stage:
    """Long-press the `index`-th element with this resource-id (see `tap_id`)."""
    return tap_id(id, index, act=long_press)


def press(key: str) -> Stage:
    """Press BACK, HOME, ENTER or OVERVIEW once (`KEYS`)."""
    name = str(key).upper()
    if name not in KEYS:
        raise ValueError(f"unknown key {key!r}; keys are {', '.join(KEYS)}")
    return once({"action_type": KEYS[name]})


def type_text(text: str) -> Stage:
    """Type into the focused field (input_text without a target, then ENTER)."""
    return once({"action_type": "input_text", "text": str(text)})


def swipe(direction: str) -> Stage:
    """A full-screen swipe; "down" from the top edge pulls the notification shade."""
    if direction not in DIRECTIONS:
        raise ValueError(f"unknown direction {direction!r}; directions are {', '.join(DIRECTIONS)}")
    return once({"action_type": "swipe", "direction": direction})


def claim(status: str = "complete") -> Stage:
    """Say the task is done (or infeasible): the episode ends and is judged as it is."""
    if status not in GOAL_STATUSES:
        raise ValueError(f"unknown status {status!r}; statuses are {', '.join(GOAL_STATUSES)}")
    return once({"action_type": "status", "goal_status": status})


def leave(package: str) -> Stage:
    """Press BACK until the app is no longer in front (at most 6 times)."""

    def stage(screen: Screen, expert: Expert) -> Action | None:
        if screen.package != package:
            return None
        count = expert.scratch.get("backs", 0)
        if count >= 6:
            raise ExpertStuck(f"stage {expert.stage}: {package} stayed in front after 6 BACKs")
        expert.scratch["backs"] = count + 1
        return {"action_type": "navigate_back"}

    return stage


STAGES = {"long_press_app": long_press_app, "open_from_drawer": open_from_drawer,
          "long_press_id": long_press_id, "press": press, "type_text": type_text,
          "swipe": swipe, "claim": claim, "leave": leave}

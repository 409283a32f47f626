"""Stages for what agents do and experts never need: long presses, keys, typed text, a
claim of being done, another way into an app. Near-miss rows (`bmoca.tasks.near_misses`)
are plans built from these and the experts' own stages, so that a row is played through
`env.step` with the JSON actions an agent sends, in every language and layout.

Like the experts' stages, they find elements by resource-id and position, or a launcher
icon by the app's label in any of the 15 locales.
"""

from __future__ import annotations

from bmoca.formats import apps as app_table
from bmoca.tasks.experts.base import (
    APPS_LIST,
    LAUNCHER,
    SCROLL_DOWN,
    Action,
    Expert,
    ExpertStuck,
    Screen,
    Stage,
    click,
    click_at,
    contains,
    long_press,
    shown_in_list,
    tap_id,
    toward_launcher_icon,
)

POPUP = f"{LAUNCHER}:id/deep_shortcuts_container"
POPUP_HEADER = f"{LAUNCHER}:id/system_shortcut_icons"
POPUP_ROW = f"{LAUNCHER}:id/bubble_text"
"""An icon's shortcut popup: the card, its system-shortcut header (whose id-less
ImageView is App info), the rows' labels."""
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
    app_table.labels_of(package)  # an unknown app is the row's error at load

    def stage(screen: Screen, expert: Expert) -> Action | None:
        action = toward_launcher_icon(package, screen, expert, long_press)
        return expert.advance_after(action) if action["action_type"] == "long_press" else action

    return stage


def open_from_drawer(package: str) -> Stage:
    """Open the app from the app drawer (swipe up on the home screen, tap its icon), even
    where the home screen has its icon."""
    app_table.labels_of(package)  # an unknown app is the row's error at load

    def stage(screen: Screen, expert: Expert) -> Action | None:
        if screen.package == package:
            return None
        if screen.package == LAUNCHER and not screen.has(APPS_LIST):
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


def answer(text: str) -> Stage:
    """Give an answer (an information-retrieval task is judged on it)."""
    return once({"action_type": "answer", "text": str(text)})


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


def scroll(direction: str) -> Stage:
    """One scroll of the screen (`direction` is where the content moves: "down" moves the
    finger up from the centre, which on the home screen opens the app drawer); unlike
    `swipe`, it starts inside the app's window, never on a system bar."""
    if direction not in DIRECTIONS:
        raise ValueError(f"unknown direction {direction!r}; directions are {', '.join(DIRECTIONS)}")
    return once({"action_type": "scroll", "direction": direction})


def tap_within(within: str, cls: str, index: int = 0) -> Stage:
    """Tap the `index`-th element of class `cls` inside the first element with resource-id
    `within`, in the order of the dump (a negative index counts from the end): a toolbar's
    overflow button carries no resource-id on Android (ActionMenuView's OverflowMenuButton)
    and its content-desc is translated, but it is the toolbar's last button in every
    language and layout."""

    def stage(screen: Screen, expert: Expert) -> Action | None:
        outer = screen.first(within)
        found = [n for n in screen.nodes if outer is not None and n is not outer
                 and n.cls == cls and n.height > 0 and contains(outer.bounds, n.bounds)]
        if not -len(found) <= index < len(found):
            raise ExpertStuck(f"stage {expert.stage}: {len(found)} {cls} inside {within}, "
                              f"no #{index}")
        return expert.advance_after(click(found[index]))

    return stage


def slide_toward(id: str, toward: str, fraction: float = 1.0) -> Stage:
    """Tap a slider `fraction` of the way toward the end next to the element `toward` (the
    button beside it that moves it the same way, e.g. A+ beside a text-size bar), so the
    tap lands right in left-to-right and right-to-left layouts alike."""
    if not 0.0 <= float(fraction) <= 1.0:
        raise ValueError(f"fraction must be between 0 and 1, not {fraction!r}")

    def stage(screen: Screen, expert: Expert) -> Action | None:
        slider, beside = screen.first(id), screen.first(toward)
        if slider is None or beside is None:
            raise ExpertStuck(f"stage {expert.stage}: no slider {id} with {toward} on screen")
        right = beside.center[0] > slider.center[0]
        return expert.advance_after(click_at(slider, fraction if right else 1.0 - fraction))

    return stage


def tap_each(ids: list[str], prefix: str = "") -> Stage:
    """Tap elements in order, each the first on screen with its id (`prefix` + id): the
    keys of a keypad, which never scroll, in one stage instead of one `tap_id` each."""
    if isinstance(ids, str) or not ids:
        raise ValueError("tap_each takes a non-empty list of ids")
    wanted = [f"{prefix}{id}" for id in ids]

    def stage(screen: Screen, expert: Expert) -> Action | None:
        done = expert.scratch.get("tapped", 0)
        if done >= len(wanted):
            return None
        node = screen.first(wanted[done])
        if node is None or node.height <= 0:
            raise ExpertStuck(f"stage {expert.stage}: no {wanted[done]} on screen")
        expert.scratch["tapped"] = done + 1
        return click(node)

    return stage


def tap_id_each(id: str, indices: list[int]) -> Stage:
    """Tap the elements with this resource-id at each of `indices` (in order, counted
    from the top of the page's list, scrolling down as `tap_id` does): several rows of
    one list, e.g. the chosen cards of Wikipedia's Customize the feed, in one stage (a
    later `tap_id` stage would count from the top of the screen, not of the scrolled list)."""
    wanted = [int(i) for i in indices]
    if not wanted or wanted != sorted(wanted):
        raise ValueError("tap_id_each takes a non-empty list of indices in order")

    def stage(screen: Screen, expert: Expert) -> Action | None:
        done = expert.scratch.get("tapped", 0)
        if done >= len(wanted):
            return None
        node = shown_in_list(screen, expert, id, wanted[done])
        if node is None:
            return expert.scroll_or_fail(screen, f"no {id} #{wanted[done]} on screen", rows=id)
        expert.scratch["tapped"] = done + 1
        return click(node)

    return stage


def popup_app_info() -> Stage:
    """Tap "App info" in an open launcher popup: the icon in its system-shortcut header
    when the app has shortcuts, else its only row (Launcher3 10's PopupContainerWithArrow).
    Found by place, not by its translated content-desc."""

    def stage(screen: Screen, expert: Expert) -> Action | None:
        header = screen.first(POPUP_HEADER)
        if header is not None:
            icons = [n for n in screen.nodes if n.cls == "android.widget.ImageView"
                     and contains(header.bounds, n.bounds)]
            if icons:
                return expert.advance_after(click(icons[0]))
        card = screen.first(POPUP)
        rows = [n for n in screen.nodes if card is not None and n.id == POPUP_ROW
                and contains(card.bounds, n.bounds)]
        if header is None and len(rows) == 1:
            return expert.advance_after(click(rows[0]))
        raise ExpertStuck(f"stage {expert.stage}: no App info in a launcher popup on screen")

    return stage


def tap_class(cls: str, index: int = 0, long: bool = False) -> Stage:
    """Tap (or long-press) the `index`-th element of this class that has no resource-id, in
    the order of the dump: for views that carry no id, such as Quick Settings tiles (each an
    id-less `android.widget.Switch` of System UI, in the panel's order in every language)."""

    def stage(screen: Screen, expert: Expert) -> Action | None:
        found = [n for n in screen.nodes if n.cls == cls and not n.id and n.height > 0]
        if len(found) <= index:
            raise ExpertStuck(f"stage {expert.stage}: {len(found)} id-less {cls} on screen, "
                              f"no #{index}")
        return expert.advance_after((long_press if long else click)(found[index]))

    return stage


def answer_text(id: str, index: int = 0) -> Stage:
    """Answer with the text of the `index`-th element with this resource-id (counted from
    the top of the page's list, scrolling as `tap_id` does): an answer the screen shows
    and the configuration decides, such as About phone's model."""

    def stage(screen: Screen, expert: Expert) -> Action | None:
        node = shown_in_list(screen, expert, id, index)
        if node is None:
            return expert.scroll_or_fail(screen, f"no {id} #{index} on screen", rows=id)
        return expert.advance_after({"action_type": "answer", "text": node.text})

    return stage


STAGES = {"long_press_app": long_press_app, "open_from_drawer": open_from_drawer,
          "long_press_id": long_press_id, "press": press, "type_text": type_text,
          "swipe": swipe, "scroll": scroll, "claim": claim, "answer": answer, "leave": leave,
          "tap_within": tap_within, "slide_toward": slide_toward, "tap_each": tap_each,
          "tap_id_each": tap_id_each, "tap_class": tap_class, "popup_app_info": popup_app_info,
          "answer_text": answer_text}

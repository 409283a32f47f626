"""Expert stages for the Clock: tabs, the time picker, an alarm's repeat days.

Like every expert they read only the hierarchy and find elements by resource-id; the two
sanctioned exceptions are the launcher labels and the weekday names of
`bmoca.formats.weekdays` (a day button's content-desc is the day's full name in the
phone's language, so `set_days` matches it against the names of all 15 locales).

The time picker is driven two ways so both stay tested: by KEYBOARD INPUT when the
layout is right-to-left (the dialog's OK button is left of Cancel) or the screen is
landscape (the picker's header sits beside the dial instead of above it), and on the
DIAL otherwise. Both work in 12- and 24-hour mode (12-hour when the picker has AM/PM).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from bmoca.formats import weekdays
from bmoca.tasks.experts.base import (
    Action,
    Expert,
    ExpertStuck,
    Node,
    Screen,
    click,
    contains,
    shown_in_list,
)

PACKAGE = "com.google.android.deskclock"
TAB_ORDER = ("alarm", "clock", "timer", "stopwatch")
PAGES = {"alarm": ("alarm_recycler_view", "alarms_empty_view"), "clock": ("cities",),
         "timer": ("timer_setup_time", "timer_time_text"), "stopwatch": ("stopwatch_time_text",)}
HELPER = "android.widget.RadialTimePickerView.RadialPickerTouchHelper"
MAX_PICKER_ACTIONS = 12


def _c(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


def _a(name: str) -> str:
    return f"android:id/{name}"


ALARMS = _c("alarm_recycler_view")


def launch(package: str) -> Action | None:
    """AndroidWorld's `open_app` action (one step, no launcher) until the app is in front."""

    def stage(screen: Screen, expert: Expert):
        if screen.package == package:
            return None
        count = expert.scratch.get("launches", 0)
        if count >= 2:
            raise ExpertStuck(f"stage {expert.stage}: {package} did not come to the front")
        expert.scratch["launches"] = count + 1
        return {"action_type": "open_app", "app_name": package}

    return stage


def clock_tab(tab: str):
    """Show a Clock tab: tap its item in the tab strip (by position; the strip runs right
    to left in RTL layouts) unless its page is already shown."""
    tab = str(tab).lower()
    if tab not in TAB_ORDER:
        raise ValueError(f"unknown tab {tab!r}; tabs are {', '.join(TAB_ORDER)}")

    def stage(screen: Screen, expert: Expert):
        if any(screen.has(_c(page)) for page in PAGES[tab]):
            return None
        strip = screen.first(_c("tabs"))
        if strip is None:
            raise ExpertStuck(f"stage {expert.stage}: no Clock tab strip on screen")
        items = [n for n in screen.nodes if n.desc and n is not strip
                 and contains(strip.bounds, n.bounds) and n.id == ""]
        items = [n for n in items if not any(o is not n and contains(o.bounds, n.bounds)
                                             for o in items)]
        if len(items) != len(TAB_ORDER):
            raise ExpertStuck(f"stage {expert.stage}: expected 4 tabs, found {len(items)}")
        items.sort(key=lambda n: n.center[0], reverse=_strip_rtl(strip))
        count = expert.scratch.get("taps", 0)
        if count >= 2:
            raise ExpertStuck(f"stage {expert.stage}: the {tab} page did not open")
        expert.scratch["taps"] = count + 1
        return click(items[TAB_ORDER.index(tab)])

    return stage


def _strip_rtl(strip: Node) -> bool:
    """Whether the tab strip runs right to left: the overflow button sits at its end."""
    return strip.bounds[0] > 0


def clock_swipe(toward: str):
    """Swipe the Clock's pager one page `toward` the "next" tab (Alarm, Clock, Timer,
    Stopwatch) or the "previous" one, as a user flicks it: in a left-to-right layout the
    finger moves left for the next page, in a right-to-left one right."""
    if toward not in ("next", "previous"):
        raise ValueError(f"unknown direction {toward!r}; directions are next, previous")

    def stage(screen: Screen, expert: Expert):
        strip = screen.first(_c("tabs"))
        if strip is None:
            raise ExpertStuck(f"stage {expert.stage}: no Clock tab strip on screen")
        leftward = (toward == "next") != _strip_rtl(strip)
        return expert.advance_after({"action_type": "swipe",
                                     "direction": "left" if leftward else "right"})

    return stage


def set_time(hour: int, minute: int, mode: str = ""):
    """From an open time picker, set `hour`:`minute` (24-hour values); the plan's next
    stage taps OK. `mode` ("dial" or "keyboard") makes it use that mode of the picker
    (constrained tasks whose rule names one); by default it picks the mode that suits
    the screen."""
    if not (0 <= int(hour) <= 23 and 0 <= int(minute) <= 59):
        raise ValueError(f"no such time {hour}:{minute}")
    if mode not in ("", "dial", "keyboard"):
        raise ValueError(f"no such picker mode {mode!r}")
    hour, minute = int(hour), int(minute)

    def stage(screen: Screen, expert: Expert):
        count = expert.scratch.get("actions", 0)
        if count >= MAX_PICKER_ACTIONS:
            raise ExpertStuck(f"stage {expert.stage}: could not set {hour}:{minute:02d}")
        action = _picker_step(screen, expert, hour, minute, mode)
        if action is not None:
            expert.scratch["actions"] = count + 1
        return action

    return stage


def _picker_step(screen: Screen, expert: Expert, hour: int, minute: int, mode: str = ""):
    ok, cancel = screen.first(_a("button1")), screen.first(_a("button2"))
    if ok is None or cancel is None:
        items = [n for n in screen.all(_a("text1")) if n.cls == "android.widget.CheckedTextView"]
        if len(items) == 2:  # the AM/PM spinner's drop-down
            expert.memory["picker_pm"] = hour >= 12
            return click(items[1 if hour >= 12 else 0])
        raise ExpertStuck(f"stage {expert.stage}: no time picker on screen")
    rtl = ok.center[0] < cancel.center[0]
    dial = screen.first(_a("radial_picker"))
    if dial is not None:
        header = screen.first(_a("hours"))
        landscape = header is not None and header.bounds[3] > dial.bounds[1]
        expert.memory["clock_keyboard"] = rtl or landscape
        pm_label = screen.first(_a("pm_label"))
        # the half of the day the picker holds, kept for the episode (not the stage): a
        # second set_time on the same picker (a slip corrected) still knows what the
        # keyboard mode's spinner shows; every picker opens on its dial, which resets it
        expert.memory["picker_pm"] = pm_label.checked if pm_label is not None else None
    keyboard = mode == "keyboard" if mode else expert.memory.get("clock_keyboard", rtl)
    text_mode = screen.has(_a("input_hour"))
    if text_mode != keyboard:
        return click(screen.first(_a("toggle_mode")))
    return _keyboard_step(screen, expert, hour, minute) if text_mode else _dial_step(
        screen, hour, minute, dial)


def _number(node: Node | None) -> int | None:
    if node is None:
        return None
    digits = "".join(ch for ch in node.text if ch.isdigit())
    return int(digits) if digits else None


def _keyboard_step(screen: Screen, expert: Expert, hour: int, minute: int):
    twelve = screen.has(_a("am_pm_spinner"))
    shown_hour = (hour % 12 or 12) if twelve else hour
    for fid, want in (("input_hour", shown_hour), ("input_minute", minute)):
        field = screen.first(_a(fid))
        if _number(field) != want or len(field.text) == 0:
            x, y = field.center
            return {"action_type": "input_text", "text": f"{want:02d}" if fid == "input_minute"
                    or not twelve else str(want), "x": x, "y": y}
    if twelve and expert.memory.get("picker_pm") is not (hour >= 12):
        return click(screen.first(_a("am_pm_spinner")))
    return None


def _dial_step(screen: Screen, hour: int, minute: int, dial: Node):
    helpers = [n for n in screen.nodes if n.cls == HELPER]
    showing_hours = any(n.desc == "12" for n in helpers)
    pm_label = screen.first(_a("pm_label"))
    twelve = pm_label is not None
    shown_hour = (hour % 12 or 12) if twelve else hour
    if _number(screen.first(_a("hours"))) != shown_hour:
        if not showing_hours:
            return click(screen.first(_a("hours")))
        return _tap_helper(helpers, str(shown_hour))
    if _number(screen.first(_a("minutes"))) != minute:
        if showing_hours:
            return click(screen.first(_a("minutes")))
        if minute % 5 == 0:
            return _tap_helper(helpers, str(minute))
        x1, y1, x2, y2 = dial.bounds
        r = (x2 - x1) / 2 * 0.82
        angle = math.radians(minute * 6)
        return {"action_type": "click", "x": int((x1 + x2) / 2 + r * math.sin(angle)),
                "y": int((y1 + y2) / 2 - r * math.cos(angle))}
    if twelve and pm_label.checked != (hour >= 12):
        return click(pm_label if hour >= 12 else screen.first(_a("am_label")))
    return None


def _tap_helper(helpers: list[Node], desc: str) -> Action:
    for node in helpers:
        if node.desc == desc:
            return click(node)
    raise ExpertStuck(f"no dial number {desc!r} on the time picker")


def set_days(days: Sequence[str] | str = (), repeat: bool = True):
    """Make the expanded alarm repeat on exactly `days` (e.g. [sat, sun]; [] for none).
    Uses `repeat_onoff` (every day) first when that saves taps, unless `repeat` is false:
    then only day buttons are tapped, in the strip's order, so that a near miss with fewer
    days never passes through more days on its way."""
    if isinstance(days, str):
        days = [d for d in days.replace(",", " ").split() if d]
    target = {weekdays.day_number(d) for d in days}

    def stage(screen: Screen, expert: Expert):
        buttons = screen.all(_c("day_button_box"))
        fab = screen.first(_c("fab_container"))
        if len(buttons) != 7 or not all(_clear(b, screen, fab) for b in buttons):
            return expert.scroll_or_fail(
                screen, "no alarm with its day buttons on screen", rows=ALARMS)
        current = set()
        for button in buttons:
            day = weekdays.day_of_name(button.desc)
            if day is None:
                raise ExpertStuck(f"stage {expert.stage}: day button {button.desc!r} names "
                                  "no weekday")
            if button.checked:
                current.add(day)
        if current == target:
            return None
        count = expert.scratch.get("taps", 0)
        if count >= 10:
            raise ExpertStuck(f"stage {expert.stage}: the days never matched")
        expert.scratch["taps"] = count + 1
        box = screen.first(_c("repeat_onoff")) if repeat else None
        if not current and len(target) >= 5 and box is not None and _clear(box, screen, fab):
            return click(box)
        for button in buttons:
            day = weekdays.day_of_name(button.desc)
            if (day in target) != button.checked:
                return click(button)
        return None

    return stage


def _clear(node: Node, screen: Screen, fab: Node | None) -> bool:
    """Shown inside the list and not under the floating button bar."""
    lists = [n for n in screen.nodes if n.scrollable and contains(n.bounds, node.bounds)]
    if lists and not (node.bounds[1] >= lists[-1].bounds[1]
                      and node.bounds[3] <= lists[-1].bounds[3]):
        return False
    if node.height <= 0:
        return False
    return fab is None or node.bounds[3] <= fab.bounds[1]


SCROLL_UP: Action = {"action_type": "scroll", "direction": "up"}
"""Reveal what is above: the finger moves down from the centre of the screen."""


def clock_reveal(id: str):
    """Scroll the alarm list until the first element with this id (a part of the expanded
    card: `repeat_days`, `edit_label`) is clear of the floating button bar, which lies
    over the list's bottom. The sim's list keeps its scroll when a new alarm is added, so
    the new card may sit above what is shown: with no such element on screen the list is
    scrolled up first (at most 6 times), then down."""

    def stage(screen: Screen, expert: Expert):
        node = screen.first(id)
        if node is not None and _clear(node, screen, screen.first(_c("fab_container"))):
            return None
        ups = expert.scratch.get("ups", 0)
        if node is None and ups < 6:
            expert.scratch["ups"] = ups + 1
            return SCROLL_UP
        return expert.scroll_or_fail(
            screen, f"no {id} clear of the floating buttons", rows=ALARMS)

    return stage


def clock_tap(id: str, index: int = 0):
    """Tap the `index`-th element with this id in the alarm list (counted from the list's
    top, as `tap_id` counts) once it is clear of the floating button bar, which lies over
    the list's bottom (a tap there lands on the bar); scrolls down until it is."""
    index = int(index)

    def stage(screen: Screen, expert: Expert):
        fab = screen.first(_c("fab_container"))
        node = shown_in_list(screen, expert, id, index, lambda n: _clear(n, screen, fab))
        if node is not None:
            return expert.advance_after(click(node))
        return expert.scroll_or_fail(
            screen, f"no {id} #{index} clear of the floating buttons", rows=ALARMS)

    return stage


def clock_card(label: str, part: str = "digital_clock"):
    """Tap a part (`digital_clock`, `arrow`, `onoff`) of the alarm card labelled `label`:
    the first such part after the label in the card's order. Found by its label, which
    the time's edits leave alone, rather than by index, which a scroll of an earlier stage
    would skew. Scrolls down until the part is clear of the floating button bar (plans
    visit the cards from the list's top down)."""
    label, wanted = str(label), _c(str(part))

    def stage(screen: Screen, expert: Expert):
        fab = screen.first(_c("fab_container"))
        nodes = screen.nodes
        for at, node in enumerate(nodes):
            if node.id == _c("label") and node.text == label:
                target = next((n for n in nodes[at + 1:] if n.id == wanted), None)
                if target is not None and _clear(target, screen, fab):
                    return expert.advance_after(click(target))
                break
        return expert.scroll_or_fail(
            screen, f"no {part} of the card labelled {label!r}", rows=ALARMS)

    return stage


STAGES = {"launch": launch, "clock_tab": clock_tab, "set_time": set_time, "set_days": set_days,
          "clock_swipe": clock_swipe, "clock_reveal": clock_reveal, "clock_tap": clock_tap,
          "clock_card": clock_card}

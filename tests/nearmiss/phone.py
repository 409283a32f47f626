"""Phone (Dialer): the call tasks' near misses (the neighbouring number, dialled and not
called, a starred contact instead) and other right paths (typed digits with ENTER, the
CALL intent from the shell, a slip corrected with DEL), and the in-call tasks' rows."""

from __future__ import annotations

from conftest import bounds, nodes

from bmoca import tasks
from nearmiss.common import fails, passes, shell, start
from nearmiss.launches import from_drawer, open_app_rows

D = "com.android.dialer:id/"
MAIN = "com.android.dialer/.main.impl.MainActivity"
KEY_IDS = {"0": "zero", "1": "one", "2": "two", "3": "three", "4": "four", "5": "five",
           "6": "six", "7": "seven", "8": "eight", "9": "nine", "*": "star", "#": "pound"}


def find(device, name: str):
    found = nodes(device.dump_hierarchy(), resource_id=D + name)
    return found[0] if found else None


def tap(device, name: str) -> None:
    node = find(device, name)
    assert node is not None, f"no {name} on screen"
    left, top, right, bottom = bounds(node)
    device.tap((left + right) // 2, (top + bottom) // 2)


def dial(device, number: str, press_call: bool = True) -> None:
    if find(device, "digits") is None:
        tap(device, "fab")
    for char in number:
        tap(device, KEY_IDS[char])
    if press_call:
        tap(device, "dialpad_floating_action_button")



def open_phone(device) -> None:
    """The launcher's intent: brings back the dialer as it was (a number on the dialpad)."""
    start(device, MAIN, "-a android.intent.action.MAIN -c android.intent.category.LAUNCHER")


def keys(number: str, call: bool = True):
    def play(device) -> None:
        open_phone(device)
        dial(device, number, press_call=call)
    return play


def typed(number: str, finish: str = "enter"):
    """Digits typed into the open dialpad; ENTER or the green button calls."""
    def play(device) -> None:
        open_phone(device)
        tap(device, "fab")
        shell(device, f"input text {number}")
        if finish == "enter":
            shell(device, "input keyevent KEYCODE_ENTER")
        else:
            tap(device, "dialpad_floating_action_button")
    return play


def call_intent(number: str):
    def play(device) -> None:
        shell(device, f"am start -a android.intent.action.CALL -d tel:{number}")
    return play


def slip_then_delete(number: str):
    """One digit too many, taken back with DEL, then the call."""
    def play(device) -> None:
        open_phone(device)
        dial(device, number + "5", press_call=False)
        shell(device, "input keyevent KEYCODE_DEL")
        tap(device, "dialpad_floating_action_button")
    return play


def favourite(device) -> None:
    """The starred contact called from Favorites instead."""
    open_phone(device)
    if find(device, "digits") is not None:
        device.press("BACK")
    tap(device, "favorite_item_layout")


def neighbour(number: str) -> str:
    return number[:-1] + str((int(number[-1]) + 1) % 10)


def call_rows(task_id: str, number: str) -> list:
    return [fails(task_id, f"neighbouring_number_{neighbour(number)}", keys(neighbour(number))),
            fails(task_id, "dialled_not_called", keys(number, call=False)),
            fails(task_id, "one_digit_short", keys(number[:-1])),
            passes(task_id, "typed_with_enter", typed(number)),
            passes(task_id, "slip_then_delete", slip_then_delete(number)),
            passes(task_id, "call_intent_from_the_shell", call_intent(number))]


NUMBERS = {t.id: "".join(ch for ch in t.id.rsplit("(", 1)[-1].rsplit("_", 1)[-1] if ch.isdigit())
           for t in tasks.list(app="Phone") if t.id.startswith("phone/call_")}
PRESS = "phone/press_the_call_button_in_dial"
END = "phone/turn_off_the_call_in_process"
NINE = "phone/call_911"


def end_call(device) -> None:
    tap(device, "incall_end_call")


def first_incall_button(device) -> None:
    open_phone(device)
    grid = find(device, "incall_button_grid")
    node = next(n for n in grid.iter("node") if n.get("clickable") == "true")
    left, top, right, bottom = bounds(node)
    device.tap((left + right) // 2, (top + bottom) // 2)


ROWS = [
    *open_app_rows("phone/open_the_phone_app", "com.android.dialer", "com.android.contacts"),
    *[row for tid, number in NUMBERS.items() if tid != NINE for row in call_rows(tid, number)],
    fails(NINE, "112_instead", keys("112")),
    fails(NINE, "912_the_neighbouring_number", keys("912")),
    fails(NINE, "dialled_not_called", keys("911", call=False)),
    fails(NINE, "a_starred_contact", favourite),
    passes(NINE, "typed_with_enter", typed("911")),
    passes(NINE, "typed_with_the_button", typed("911", "button")),
    passes(NINE, "slip_then_delete", slip_then_delete("911")),
    fails(PRESS, "dialpad_closed", lambda d: (open_phone(d), d.press("BACK"))),
    fails(PRESS, "emptied_then_pressed_fills_in_only", lambda d: (
        open_phone(d), shell(d, "input keyevent " + " ".join(["KEYCODE_DEL"] * 14)),
        tap(d, "dialpad_floating_action_button"))),
    passes(PRESS, "a_digit_added", lambda d: (open_phone(d), tap(d, "three"),
                                               tap(d, "dialpad_floating_action_button"))),
    passes(PRESS, "a_starred_contact", favourite),
    passes(PRESS, "enter_key", lambda d: (open_phone(d),
                                          shell(d, "input keyevent KEYCODE_ENTER"))),
    passes(PRESS, "digit_added_and_deleted", lambda d: (
        open_phone(d), tap(d, "three"), shell(d, "input keyevent KEYCODE_DEL"),
        tap(d, "dialpad_floating_action_button"))),
    fails(END, "left_running", lambda d: d.press("HOME")),
    fails(END, "another_in_call_button", first_incall_button),
    fails(END, "another_call_holds_it", lambda d: (open_phone(d), tap(d, "incall_fourth_button"),
                                                   dial(d, "123"))),
    passes(END, "from_the_app_drawer_then_end", lambda d: (
        from_drawer("com.android.dialer")(d), end_call(d))),
    passes(END, "launcher_intent_from_the_shell_then_end", lambda d: (open_phone(d),
                                                                      end_call(d))),
]

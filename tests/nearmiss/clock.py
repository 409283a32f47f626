"""Clock: the 27 tasks' near misses (the neighbouring minute, AM for PM, the weekend for the
weekdays, a day missing, the right time with the picker cancelled or left open, the alarm
left off, a new 09:00 alarm instead of the old one, the neighbouring stream, the timer for
the stopwatch) and other right paths (the picker's keyboard mode, editing the image's 09:00
alarm, SET_ALARM from the shell, twice, a slip undone, the pager swipe).

The helpers find nodes by resource-id, the tab strip by position and the day buttons by
`bmoca.formats.weekdays`, so rows run in every language; tests/test_clock_tasks.py uses
them too."""

from __future__ import annotations

from collections.abc import Iterable

from conftest import bounds, nodes

from bmoca.formats.weekdays import day_number, day_of_name
from nearmiss.common import Play, fails, has, passes, seq, shell, tap_id, tap_node

C = "com.google.android.deskclock:id/"
A = "android:id/"
DESK = "com.google.android.deskclock/com.android.deskclock.DeskClock"
HELPER = "android.widget.RadialTimePickerView.RadialPickerTouchHelper"
TABS = ("alarm", "clock", "timer", "stopwatch")
SET_ALARM = "am start -a android.intent.action.SET_ALARM"
EXTRA = "android.intent.extra.alarm."
WEEKDAYS, MIDWEEK, WEEKEND = ("mon", "tue", "wed", "thu", "fri"), ("mon", "tue", "wed", "thu"), (
    "sat", "sun")


def rtl(device) -> bool:
    locale = device.shell("getprop persist.sys.locale")[0].strip()
    return locale.split("-")[0] in ("ar", "ur", "he", "fa")


def open_clock(device) -> None:
    shell(device, f"am start -n {DESK}")


def tab(name: str) -> Play:
    """Open Clock and tap a tab by its place in the strip (which runs right to left in RTL)."""
    def play(device) -> None:
        open_clock(device)
        items = sorted(nodes(device.dump_hierarchy(), **{"class": "rk"}),
                       key=lambda n: bounds(n)[0], reverse=rtl(device))
        assert len(items) == 4, "no Clock tab strip"
        tap_node(device, items[TABS.index(name)])
    return play


def swipe_pager(toward_end: bool) -> Play:
    """A horizontal swipe on the page: toward the strip's end (Alarm -> Clock ..) or back."""
    def play(device) -> None:
        left, top, right, bottom = bounds(nodes(device.dump_hierarchy(),
                                                resource_id=C + "desk_clock_pager")[0])
        y, a, b = (top + bottom) // 2, left + (right - left) // 5, right - (right - left) // 5
        leftward = toward_end != rtl(device)
        device.swipe(b if leftward else a, y, a if leftward else b, y)
    return play


def dial_time(device, hour: int, minute: int) -> None:
    """Set an open picker on its dial (12- or 24-hour), minutes a multiple of five."""
    twelve = has(device, A + "pm_label")
    for desc in (str(hour % 12 or 12) if twelve else str(hour), str(minute)):
        helpers = [n for n in nodes(device.dump_hierarchy(), content_desc=desc)
                   if n.get("class") == HELPER]
        tap_node(device, helpers[0])
    if twelve:
        tap_id(device, A + ("pm_label" if hour >= 12 else "am_label"))


def keyboard_time(device, hour: int, minute: int) -> None:
    """Set an open picker by its keyboard mode: the toggle, the two fields, the AM/PM spinner."""
    tap_id(device, A + "toggle_mode")
    twelve = has(device, A + "am_pm_spinner")
    for fid, value in (("input_hour", str(hour % 12 or 12) if twelve else f"{hour:02d}"),
                       ("input_minute", f"{minute:02d}")):
        tap_id(device, A + fid)
        shell(device, f"input text {value}")
    if twelve:
        tap_id(device, A + "am_pm_spinner")
        items = [n for n in nodes(device.dump_hierarchy(), resource_id=A + "text1")
                 if n.get("class") == "android.widget.CheckedTextView"]
        tap_node(device, items[1 if hour >= 12 else 0])


def ok(device) -> None:
    tap_id(device, A + "button1")


def cancel(device) -> None:
    tap_id(device, A + "button2")


def clear_nodes(device, rid: str, count: int = 1) -> list:
    """`count` nodes with this id inside the alarm list and above the FAB bar, scrolling the
    list up until they are (a big density or a landscape tablet leaves them below)."""
    for _ in range(5):
        xml = device.dump_hierarchy()
        found = nodes(xml, resource_id=rid)
        fab = nodes(xml, resource_id=C + "fab_container")
        rv = nodes(xml, resource_id=C + "alarm_recycler_view")
        floor = bounds(fab[0])[1] if fab else 10**6
        top = bounds(rv[0])[1] if rv else 0
        if len(found) >= count and all(top <= bounds(n)[1] < bounds(n)[3] <= floor
                                       for n in found):
            return found
        left, rtop, right, rbottom = bounds(rv[0])
        x = (left + right) // 2
        device.swipe(x, rtop + (rbottom - rtop) * 3 // 4, x, rtop + (rbottom - rtop) // 4)
    raise AssertionError(f"{rid} never came clear")


def visible_day_buttons(device) -> dict[int, object]:
    """The expanded card's day buttons by weekday (Mon = 0)."""
    return {day_of_name(b.get("content-desc")): b
            for b in clear_nodes(device, C + "day_button_box", 7)}


def tap_clear(rid: str) -> Play:
    return lambda d: tap_node(d, clear_nodes(d, rid)[0])


def toggle_days(*days: str) -> Play:
    def play(device) -> None:
        for day in days:
            tap_node(device, visible_day_buttons(device)[day_number(day)])
    return play


def repeat_every_day(device) -> None:
    visible_day_buttons(device)
    tap_clear(C + "repeat_onoff")(device)


def new_alarm(hour: int, minute: int, days: Iterable[str] = (), keyboard: bool = False,
              tab_first: bool = True) -> Play:
    """The Alarm tab's FAB, the time on the dial (or by keyboard), OK, then the days."""
    def play(device) -> None:
        if tab_first:
            tab("alarm")(device)
        tap_id(device, C + "fab")
        (keyboard_time if keyboard else dial_time)(device, hour, minute)
        ok(device)
        toggle_days(*days)(device)
    return play


def edit_first(hour: int, minute: int, keyboard: bool = False) -> Play:
    """Change the first card's time (the image's 09:00 alarm at reset) in its picker."""
    def play(device) -> None:
        tab("alarm")(device)
        tap_id(device, C + "digital_clock")
        (keyboard_time if keyboard else dial_time)(device, hour, minute)
        ok(device)
    return play


def expand_first(device) -> None:
    tab("alarm")(device)
    tap_id(device, C + "arrow")


def set_alarm_intent(hour: int, minute: int, days: str = "") -> Play:
    """AlarmClock.ACTION_SET_ALARM from the shell (days: Calendar numbers, Sunday = 1)."""
    extra = f" --eial {EXTRA}DAYS {days}" if days else ""
    return lambda d: shell(d, f"{SET_ALARM} --ei {EXTRA}HOUR {hour} --ei {EXTRA}MINUTES "
                              f"{minute}{extra}")


def alarm_volume(level: int = 7, stream: int = 4) -> Play:
    return lambda d: shell(d, f"media volume --stream {stream} --set {level}")


def settings_slider(index: int, fraction: float) -> Play:
    """Settings' Sound page, and a tap on a volume slider (3: alarm, 2: ring) near its end.

    The page is started directly: on the homepage Sound may lie below the fold (rows grow
    with wrapped summaries at 700 dpi), and how one gets there is not the near miss."""
    def play(device) -> None:
        shell(device, "am start -n com.android.settings/.SubSettings --es page sound")
        left, top, right, bottom = bounds(nodes(device.dump_hierarchy(),
                                                resource_id=A + "seekbar")[index])
        f = 1 - fraction if rtl(device) else fraction
        device.tap(int(left + 4 + (right - left - 8) * f), (top + bottom) // 2)
    return play


def fab(device) -> None:
    tap_id(device, C + "fab")


def task(name: str) -> str:
    return f"clock/{name}"


def plain_rows(hour: int) -> list:
    """create_alarm_at_HH:30 (the SCP's next alarm line names HH:30:00)."""
    tid = task(f"create_alarm_at_{hour:02d}:30_{'pm' if hour >= 12 else 'am'}")
    return [
        fails(tid, "am_and_pm_swapped", new_alarm((hour + 12) % 24, 30)),
        fails(tid, "the_neighbouring_minute", new_alarm(hour, 31, keyboard=True)),
        fails(tid, "right_time_then_cancel", seq(tab("alarm"), fab,
                                                 lambda d: keyboard_time(d, hour, 30), cancel)),
        fails(tid, "picker_left_open", seq(tab("alarm"), fab,
                                           lambda d: dial_time(d, hour, 30))),
        passes(tid, "keyboard_mode", new_alarm(hour, 30, keyboard=True)),
        passes(tid, "the_09_00_alarm_edited", edit_first(hour, 30)),
        passes(tid, "set_alarm_from_the_shell", set_alarm_intent(hour, 30)),
        passes(tid, "a_slip_undone", seq(new_alarm(hour, 35), lambda d: tap_id(
            d, C + "digital_clock", 1 if hour > 9 else 0), lambda d: dial_time(d, hour, 30),
            ok)),
    ]


def days_rows(hour: int, kind: str) -> list:
    """create_alarm_at_HH:30_on_every_{weekday,midweek,weekend}: alarm_templates' days."""
    tid = task(f"create_alarm_at_{hour:02d}:30_{'pm' if hour >= 12 else 'am'}_on_every_{kind}")
    want = {"weekday": WEEKDAYS, "midweek": MIDWEEK, "weekend": WEEKEND}[kind]
    calendar = {"weekday": "2,3,4,5,6", "midweek": "2,3,4,5", "weekend": "7,1"}[kind]
    other = WEEKEND if kind != "weekend" else WEEKDAYS
    return [
        fails(tid, "the_other_days", new_alarm(hour, 30, other)),
        fails(tid, "a_day_missing", new_alarm(hour, 30, want[1:])),
        fails(tid, "a_day_too_many", new_alarm(hour, 30, (*want, "sun" if kind != "weekend"
                                                               else "fri"))),
        fails(tid, "right_days_neighbouring_time", new_alarm(hour, 35, want)),
        passes(tid, "keyboard_mode", new_alarm(hour, 30, want, keyboard=True)),
        passes(tid, "set_alarm_from_the_shell", set_alarm_intent(hour, 30, calendar)),
        passes(tid, "every_day_then_untick", seq(new_alarm(hour, 30), repeat_every_day,
                                                 toggle_days(*sorted(set(
                                                     ("mon", "tue", "wed", "thu", "fri", "sat",
                                                      "sun")) - set(want)))))
    ] + ([passes(tid, "the_09_00_weekend_alarm_edited", edit_first(hour, 30))]
         if kind == "weekend" else [])


def volume_rows(hour: int, days: tuple[str, ...] = ()) -> list:
    suffix = "_on_every_weekend" if days else ""
    tid = task(f"create_alarm_at_{hour:02d}:30_{'pm' if hour >= 12 else 'am'}{suffix}"
               "_and_increase_alarm_volume_in_setting" if days else
               f"create_alarm_at_{hour:02d}:30_{'pm' if hour >= 12 else 'am'}"
               "_in_clock_and_increase_alarm_volume_in_setting")
    return [
        fails(tid, "ring_volume_instead", seq(new_alarm(hour, 30, days), settings_slider(2, 0.95))),
        fails(tid, "volume_only", settings_slider(3, 0.95)),
        fails(tid, "am_and_pm_swapped", seq(new_alarm((hour + 12) % 24, 30, days),
                                            alarm_volume())),
        passes(tid, "keyboard_and_the_slider_tapped", seq(
            new_alarm(hour, 30, days, keyboard=True), settings_slider(3, 0.9))),
        passes(tid, "volume_first_from_the_shell", seq(alarm_volume(5), new_alarm(hour, 30,
                                                                                  days))),
    ]


def stopwatch_rows() -> list:
    start, pause, reset = (task(f"{k}_the_stopwatch_in_clock") for k in ("start", "pause",
                                                                         "reset"))
    left, right = (lambda d: tap_id(d, C + "left_button")), (
        lambda d: tap_id(d, C + "right_button"))
    return [
        fails(start, "a_timer_started", seq(tab("timer"), lambda d: tap_id(
            d, C + "timer_setup_digit_5"), fab)),
        fails(start, "the_page_only", tab("stopwatch")),
        passes(start, "the_start_stopwatch_shortcut", lambda d: shell(
            d, f"am start -a com.android.deskclock.action.START_STOPWATCH -n {DESK}")),
        passes(start, "swiped_there_from_the_timer", seq(tab("timer"), swipe_pager(True),
                                                          fab)),
        passes(start, "started_paused_started", seq(tab("stopwatch"), fab, fab, fab)),
        fails(pause, "a_lap_instead", seq(open_clock, right)),
        fails(pause, "reset_instead", seq(open_clock, left)),
        fails(pause, "opened_only", open_clock),
        passes(pause, "a_lap_then_pause", seq(open_clock, right, fab)),
        passes(pause, "paused_started_paused", seq(open_clock, fab, fab, fab)),
        fails(reset, "a_lap_instead", seq(open_clock, right)),
        fails(reset, "paused_only", seq(open_clock, fab)),
        passes(reset, "paused_then_reset", seq(open_clock, fab, left)),
        passes(reset, "a_lap_then_reset", seq(open_clock, right, left)),
    ]


def page_rows() -> list:
    rows = []
    for name in ("alarm", "timer", "stopwatch"):
        tid = task(f"go_to_the_{name}_page_in_clock")
        neighbour = "timer" if name != "timer" else "stopwatch"
        rows += [fails(tid, "the_neighbouring_tab", tab(neighbour)),
                 fails(tid, "opened_on_the_clock_tab", open_clock),
                 passes(tid, "there_and_back", seq(tab(name), tab("clock"), tab(name))),
                 passes(tid, "from_another_tab", seq(tab(neighbour), tab(name)))]
    rows += [passes(task("go_to_the_timer_page_in_clock"), "swiped_from_the_clock_tab",
                    seq(open_clock, swipe_pager(True))),
             passes(task("go_to_the_alarm_page_in_clock"), "swiped_from_the_clock_tab",
                    seq(open_clock, swipe_pager(False)))]
    return rows


def nine_rows() -> list:
    on, on_vol = task("turn_on_alarm_at_9_am"), task(
        "turn_on_alarm_at_9_am_in_clock_and_increase_alarm_volume_in_setting")
    delete, both = task("delete_alarm_at_9_am"), task(
        "delete_alarm_at_9_am_and_create_alarm_at_10:30_am")
    switch = lambda d: tap_id(d, C + "onoff")  # noqa: E731
    delete_first = seq(expand_first, tap_clear(C + "delete"))
    return [
        fails(on, "a_new_09_05_alarm", new_alarm(9, 5)),
        fails(on, "a_new_09_00_alarm_the_old_left_off", new_alarm(9, 0)),
        fails(on, "on_and_off_again", seq(tab("alarm"), switch, switch)),
        fails(on, "expanded_only", expand_first),
        passes(on, "its_time_confirmed_in_the_picker", edit_first(9, 0)),
        passes(on, "twice_round", seq(tab("alarm"), switch, switch, switch)),
        passes(on, "set_alarm_from_the_shell_matches_it", set_alarm_intent(9, 0, "7,1")),
        fails(on_vol, "on_but_ring_volume_raised", seq(tab("alarm"), switch,
                                                       settings_slider(2, 0.95))),
        fails(on_vol, "volume_only", alarm_volume()),
        passes(on_vol, "the_slider_tapped", seq(tab("alarm"), switch, settings_slider(3, 0.9))),
        passes(on_vol, "picker_confirmed_and_the_shell", seq(edit_first(9, 0), alarm_volume())),
        fails(delete, "another_alarm_deleted", seq(new_alarm(9, 5), tap_clear(C + "delete"))),
        fails(delete, "expanded_only", expand_first),
        fails(delete, "moved_to_09_05_not_deleted", edit_first(9, 5, keyboard=True)),
        passes(delete, "switched_on_then_deleted", seq(tab("alarm"), switch, lambda d: tap_id(
            d, C + "arrow"), tap_clear(C + "delete"))),
        passes(delete, "after_adding_another", seq(new_alarm(10, 30), delete_first)),
        fails(both, "09_00_kept", new_alarm(10, 30)),
        fails(both, "deleted_and_the_neighbouring_minute", seq(delete_first,
                                                               new_alarm(10, 35, tab_first=False))),
        passes(both, "the_09_00_alarm_moved_to_10_30", edit_first(10, 30, keyboard=True)),
        passes(both, "created_first_then_deleted", seq(new_alarm(10, 30), delete_first)),
    ]


def pair_rows() -> list:
    after, before = (task(f"create_alarm_at_13:30_pm_and_another_alarm_2_hours_{k}_it")
                     for k in ("after", "before"))
    return [
        fails(after, "2_hours_before_instead", seq(new_alarm(13, 30), new_alarm(11, 30))),
        fails(after, "the_second_5_minutes_late", seq(new_alarm(13, 30), new_alarm(15, 35))),
        fails(after, "the_first_only", new_alarm(13, 30)),
        passes(after, "the_later_one_first", seq(new_alarm(15, 30), new_alarm(13, 30))),
        passes(after, "the_09_00_alarm_edited_and_one_by_keyboard", seq(
            edit_first(13, 30), new_alarm(15, 30, keyboard=True))),
        fails(before, "2_hours_after_instead", seq(new_alarm(13, 30), new_alarm(15, 30))),
        fails(before, "the_first_only", new_alarm(13, 30, keyboard=True)),
        passes(before, "the_earlier_one_first", seq(new_alarm(11, 30), new_alarm(13, 30))),
        passes(before, "both_from_the_shell", seq(set_alarm_intent(13, 30),
                                                  set_alarm_intent(11, 30))),
    ]


def open_rows() -> list:
    from nearmiss.launches import open_app_rows

    return open_app_rows(task("open_the_clock_app"), "com.google.android.deskclock",
                         "com.android.settings")


ROWS = [
    *open_rows(),
    *[row for hour in (6, 10, 13, 17, 20, 23) for row in plain_rows(hour)],
    *days_rows(10, "weekday"), *days_rows(10, "midweek"), *days_rows(10, "weekend"),
    *days_rows(13, "weekday"), *days_rows(13, "weekend"),
    *volume_rows(10), *volume_rows(13), *volume_rows(13, WEEKEND),
    *pair_rows(), *nine_rows(), *stopwatch_rows(), *page_rows(),
]

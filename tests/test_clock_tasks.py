"""The Clock tasks: each is not done at reset, its expert passes (on the dial and by
keyboard input), and a near miss fails it."""

from __future__ import annotations

import pytest
from conftest import bounds, nodes, run_expert

import bmoca
import bmoca.configs
import bmoca.device
from bmoca import tasks

C = "com.google.android.deskclock:id/"
DESK = "com.google.android.deskclock/com.android.deskclock.DeskClock"
HELPER = "android.widget.RadialTimePickerView.RadialPickerTouchHelper"
ALL_CLOCK = [t.id for t in tasks.load_file("bmoca/tasks/data/clock.yaml")]
WEEK = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def test_the_clock_suite():
    assert len(ALL_CLOCK) == 27
    clock_tasks = tasks.list(app="Clock")
    assert [t.id for t in clock_tasks if t.version == 1] == [
        "clock/pause_the_stopwatch_in_clock", "clock/reset_the_stopwatch_in_clock"]
    assert sorted(t.id for t in clock_tasks if t.representative) == [
        "clock/create_alarm_at_10:30_am", "clock/create_alarm_at_10:30_am_on_every_weekday"]
    limits = {t.id: t.step_limit for t in clock_tasks}
    assert limits["clock/create_alarm_at_10:30_am_on_every_weekend"] == 15
    assert limits["clock/go_to_the_stopwatch_page_in_clock"] == 3
    assert all(t.category == "Event" and t.expert for t in clock_tasks)


@pytest.mark.parametrize("task_id", ALL_CLOCK)
def test_the_expert_passes_each_task(pool, task_id):
    info = run_expert(pool, task_id, "test_env_100")
    assert info["success"], info.get("detector")


@pytest.mark.parametrize("task_id", [
    "clock/create_alarm_at_13:30_pm_on_every_weekend_and_increase_alarm_volume_in_setting",
    "clock/create_alarm_at_13:30_pm_and_another_alarm_2_hours_before_it",
    "clock/create_alarm_at_23:30_pm",
])
@pytest.mark.parametrize("config", ["test_env_108", "test_env_109", "train_env_031"])
def test_keyboard_input_and_24_hour_experts(pool, task_id, config):
    """ur-PK (RTL) and the landscape ar-EG tablet type the time; de-DE uses the 24-hour dial."""
    info = run_expert(pool, task_id, config)
    assert info["success"], info.get("detector")


# -- wrong actions -----------------------------------------------------------------------------

def _tap(device, node) -> None:
    left, top, right, bottom = bounds(node)
    device.tap((left + right) // 2, (top + bottom) // 2)


def _find(device, **attrs):
    found = nodes(device.dump_hierarchy(), **attrs)
    assert found, f"no {attrs}"
    return found[0]


def _open(device, tab: str | None = "Alarm") -> None:
    device.shell(f"am start -n {DESK}")
    if tab:
        _tap(device, [n for n in nodes(device.dump_hierarchy(), content_desc=tab)
                      if n.get("class") == "rk"][0])


def _new_alarm(device, hour: int, minute: int, days: tuple[str, ...] = ()) -> None:
    _tap(device, _find(device, resource_id=C + "fab"))
    for desc in (str(hour % 12 or 12), str(minute)):
        _tap(device, [n for n in nodes(device.dump_hierarchy(), content_desc=desc)
                      if n.get("class") == HELPER][0])
    _tap(device, _find(device, resource_id="android:id/pm_label" if hour >= 12
                       else "android:id/am_label"))
    _tap(device, _find(device, resource_id="android:id/button1"))
    for day in days:
        _tap(device, _find(device, resource_id=C + "day_button_box", content_desc=day))


def _alarm_volume_up(device) -> None:
    device.shell("media volume --stream 4 --set 7")


def wrong_action(task_id: str, device) -> None:
    """A near miss: the right app and flow, one detail wrong."""
    name = task_id.split("/", 1)[1]
    if name == "open_the_clock_app":
        device.shell("am start -n com.android.settings/.Settings")
    elif name.startswith("go_to_the_"):
        page = name.split("_")[3]
        _open(device, tab="Timer" if page != "timer" else "Alarm")
    elif name == "start_the_stopwatch_in_clock":
        _open(device, tab="Timer")  # a timer's start logs [Timer] [Start] [Tap]
        _tap(device, _find(device, resource_id=C + "timer_setup_digit_5"))
        _tap(device, _find(device, resource_id=C + "fab"))
    elif name in ("pause_the_stopwatch_in_clock", "reset_the_stopwatch_in_clock"):
        _open(device, tab=None)
        _tap(device, _find(device, resource_id=C + "right_button"))  # Lap
    elif name.startswith("turn_on_alarm_at_9_am"):
        _open(device)
        _new_alarm(device, 9, 5)  # a new alarm logs an instance; the 09:00 one stays off
        _alarm_volume_up(device)
    elif name == "delete_alarm_at_9_am":
        _open(device)
        _new_alarm(device, 9, 5)
        _tap(device, nodes(device.dump_hierarchy(), resource_id=C + "delete")[0])
    elif name == "delete_alarm_at_9_am_and_create_alarm_at_10:30_am":
        _open(device)
        _new_alarm(device, 10, 30)  # the 09:00 alarm is kept
    else:  # create_alarm_at_HH:MM...
        hour, minute = (int(v) for v in name.split("_")[3].split(":"))
        _open(device)
        if "midweek" in name or "weekday" in name:
            # the right time; the weekend instead of the weekdays
            _new_alarm(device, hour, minute, ("Saturday", "Sunday"))
        elif "weekend" in name:
            _new_alarm(device, hour, minute, ("Saturday",))
        elif "another_alarm" in name:
            _new_alarm(device, hour, minute)
            _new_alarm(device, (hour + (2 if "after" in name else -2)) % 24, minute + 5)
        else:
            _new_alarm(device, (hour + 12) % 24, minute)  # AM and PM swapped
        if "volume" in name:
            _alarm_volume_up(device)


@pytest.mark.parametrize("task_id", ALL_CLOCK)
def test_each_task_is_not_done_at_reset_and_a_near_miss_fails_it(task_id):
    task = tasks.get(task_id)
    device = bmoca.device.connect("sim", config=bmoca.configs.get("test_env_100"))
    start = task.initialize(device)
    assert task.is_successful(device, start).ok is False
    wrong_action(task_id, device)
    verdict = task.is_successful(device, start)
    assert verdict.ok is False, verdict.trace


@pytest.mark.parametrize("task_id", [
    "clock/create_alarm_at_10:30_am_in_clock_and_increase_alarm_volume_in_setting",
    "clock/turn_on_alarm_at_9_am_in_clock_and_increase_alarm_volume_in_setting",
])
def test_volume_tasks_need_the_volume_raised(task_id):
    task = tasks.get(task_id)
    device = bmoca.device.connect("sim", config=bmoca.configs.get("test_env_100"))
    start = task.initialize(device)
    out, _ = device.shell("media volume --show --stream 4 --get")
    assert "volume is 1 " in out
    _open(device)
    if "9_am" in task_id:
        _tap(device, _find(device, resource_id=C + "onoff"))
    else:
        _new_alarm(device, 10, 30)
    assert task.is_successful(device, start).ok is False
    _alarm_volume_up(device)
    assert task.is_successful(device, start).ok is True

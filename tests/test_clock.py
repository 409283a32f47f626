"""The Clock app, driven as an agent would: taps at element centres, shell, pulled alarms.db."""

from __future__ import annotations

import math
import re

import pytest
from conftest import bounds, logcat, nodes

import bmoca.configs
import bmoca.device
from bmoca.formats import weekdays
from bmoca.sim.apps.clock import alarms_db
from bmoca.sim.render.layout_check import check_device

C = "com.google.android.deskclock:id/"
DESK = "com.google.android.deskclock/com.android.deskclock.DeskClock"
HELPER = "android.widget.RadialTimePickerView.RadialPickerTouchHelper"


def clock(config: str = "test_env_100", date: str | None = "123110302015.00"):
    device = bmoca.device.connect("sim", config=bmoca.configs.get(config))
    if date:
        assert device.shell(f"su 0 toybox date {date}")[1] == 0
    assert device.shell("logcat -c")[1] == 0
    out, code = device.shell(f"am start -n {DESK}")
    assert code == 0, out
    return device


def tap_node(device, node) -> None:
    left, top, right, bottom = bounds(node)
    device.tap((left + right) // 2, (top + bottom) // 2)


def tap(device, index: int = 0, **attrs) -> None:
    found = nodes(device.dump_hierarchy(), **attrs)
    assert len(found) > index, f"no {attrs} on screen"
    tap_node(device, found[index])


def tab(device, position: int) -> None:
    items = [n for n in nodes(device.dump_hierarchy()) if n.get("class") == "rk"]
    assert len(items) == 4
    tap_node(device, items[position])


def dial(device, desc: str) -> None:
    found = [n for n in nodes(device.dump_hierarchy(), content_desc=desc)
             if n.get("class") == HELPER]
    assert found, f"no dial number {desc}"
    tap_node(device, found[0])


def text_of(device, rid: str) -> str:
    return nodes(device.dump_hierarchy(), resource_id=rid)[0].get("text")


def alarms(device) -> list[alarms_db.Alarm]:
    return alarms_db.read(device.pull(alarms_db.DEVICE_PATH))


def new_alarm_by_dial(device, hour12: int, minute: int, pm: bool) -> None:
    tap(device, resource_id=C + "fab")
    dial(device, str(hour12))
    dial(device, str(minute))
    tap(device, resource_id="android:id/pm_label" if pm else "android:id/am_label")
    tap(device, resource_id="android:id/button1")


def day_boxes(device) -> list:
    return nodes(device.dump_hierarchy(), resource_id=C + "day_button_box")


def tap_day(device, name: str) -> None:
    tap_node(device, [n for n in day_boxes(device) if n.get("content-desc") == name][0])


# -- alarms -------------------------------------------------------------------------------

@pytest.mark.parametrize("config", ["test_env_100", "test_env_109", "train_env_030"])
def test_every_phone_holds_the_disabled_weekend_alarm(config):
    device = bmoca.device.connect("sim", config=bmoca.configs.get(config))
    assert alarms(device) == [alarms_db.Alarm(id=1, hour=9, minutes=0, daysofweek=96,
                                              enabled=False, vibrate=True)]
    out, code = device.shell(f"su 0 cp {alarms_db.DEVICE_PATH} /sdcard/alarms.db")
    assert code == 0, out
    assert alarms_db.read(device.pull("/sdcard/alarms.db"))[0].daysofweek == 96


def test_alarm_card_of_the_preset_alarm():
    device = clock()
    tab(device, 0)
    xml = device.dump_hierarchy()
    assert nodes(xml, resource_id=C + "alarm_recycler_view")
    assert nodes(xml, resource_id=C + "digital_clock")[0].get("text") == "9:00 AM"
    switch = nodes(xml, resource_id=C + "onoff")[0]
    assert (switch.get("class"), switch.get("text"), switch.get("checked")) == (
        "android.widget.Switch", "OFF", "false")
    # AOSP Weekdays.toString follows the week's order: Sunday first in the US
    assert nodes(xml, resource_id=C + "days_of_week")[0].get("text") == "Sun, Sat"
    assert nodes(xml, resource_id=C + "arrow")[0].get("content-desc") == "Expand alarm"
    assert nodes(xml, resource_id=C + "fab")[0].get("content-desc") == "Add alarm"
    assert not day_boxes(device)


def test_creating_an_alarm_on_the_dial_writes_the_db_and_logs_instance_and_next_alarm():
    device = clock()  # Thu Dec 31 2015 10:30
    tab(device, 0)
    tap(device, resource_id=C + "fab")
    xml = device.dump_hierarchy()
    assert [n.get("content-desc") for n in nodes(xml) if n.get("class") == HELPER] == [
        str(h) for h in range(1, 13)]
    assert text_of(device, "android:id/hours") == "10"  # opens at the current time
    assert nodes(xml, resource_id="android:id/am_label")[0].get("checked") == "true"
    dial(device, "1")  # an hour moves on to the minutes
    xml = device.dump_hierarchy()
    assert [n.get("content-desc") for n in nodes(xml) if n.get("class") == HELPER] == [
        str(m) for m in range(0, 60, 5)]
    dial(device, "30")
    tap(device, resource_id="android:id/pm_label")
    assert (text_of(device, "android:id/hours"), text_of(device, "android:id/minutes")) == (
        "1", "30")
    tap(device, resource_id="android:id/button1")
    new = [a for a in alarms(device) if a.id != 1]
    assert [(a.hour, a.minutes, a.daysofweek, a.enabled) for a in new] == [(13, 30, 0, True)]
    log = logcat(device, "AlarmClock:I")
    assert ("Created new alarm instance: AlarmInstance{mId=1, mYear=2015, mMonth=11, mDay=31, "
            "mHour=13, mMinute=30, mLabel=, mVibrate=true, "
            "mRingtone=content://settings/system/alarm_alert, mAlarmId=2, mAlarmState=0}") in log
    scp = logcat(device, "ConditionProviders.SCP:D")
    assert re.search(r"  517 +\d+ D ConditionProviders.SCP: evaluateSubscriptionLocked cal=.*"
                     r"now=Thu Dec 31 10:30:0\d GMT 2015 .*nextUserAlarmTime=Thu Dec 31 "
                     r"13:30:00 GMT 2015 \(1451568600000\)", scp), scp
    assert nodes(device.dump_hierarchy(), resource_id=C + "repeat_onoff")  # shown expanded
    instances = alarms_db.read_instances(device.pull(alarms_db.DEVICE_PATH))
    assert [(i.month, i.day, i.hour, i.alarm_id) for i in instances] == [(11, 31, 13, 2)]


def test_a_time_already_past_today_is_scheduled_tomorrow():
    device = clock(date="123113302015.00")
    tab(device, 0)
    new_alarm_by_dial(device, 10, 30, pm=False)
    assert "nextUserAlarmTime=Fri Jan 01 10:30:00 GMT 2016" in logcat(
        device, "ConditionProviders.SCP:D")
    tap(device, 1, resource_id=C + "arrow")  # collapse the new alarm
    assert nodes(device.dump_hierarchy(), resource_id=C + "upcoming_instance_label",
                 text="Tomorrow")


def test_creating_an_alarm_by_keyboard_input():
    device = clock()
    tab(device, 0)
    tap(device, resource_id=C + "fab")
    tap(device, resource_id="android:id/toggle_mode")
    xml = device.dump_hierarchy()
    assert nodes(xml, resource_id="android:id/input_hour")[0].get("text") == "10"
    assert nodes(xml, resource_id="android:id/toggle_mode")[0].get("content-desc") == (
        "Switch to clock mode for the time input.")
    device.input_text("13")  # the hour field is focused and selected: typing replaces it
    tap(device, resource_id="android:id/button1")
    assert nodes(device.dump_hierarchy(), resource_id="android:id/label_error")  # 13 o'clock AM
    tap(device, resource_id="android:id/input_hour")
    device.input_text("1")
    device.press("ENTER")  # moves on to the minutes
    device.input_text("45")
    device.press("ENTER")
    tap(device, resource_id="android:id/am_pm_spinner")
    tap(device, 1, resource_id="android:id/text1")  # PM in the drop-down
    tap(device, resource_id="android:id/button1")
    assert [(a.hour, a.minutes, a.enabled) for a in alarms(device) if a.id != 1] == [
        (13, 45, True)]


def test_the_time_fields_get_gboards_number_pad_with_next_then_done():
    device = clock()
    tab(device, 0)
    tap(device, resource_id=C + "fab")
    tap(device, resource_id="android:id/toggle_mode")
    tap(device, resource_id="android:id/input_hour")
    windows = device.shell("dumpsys window windows")[0]
    frame = re.search(r"InputMethod\}:\n(?:.*\n)*?    mFrame=\[(\d+),(\d+)\]\[(\d+),(\d+)\]", windows)
    left, top, right, bottom = map(int, frame.groups())

    def key(row: int, column: int) -> None:  # the pad is 4 x 4: 1 2 3 - / ... / , 0 . action
        device.tap(left + (right - left) * (2 * column + 1) // 8,
                   top + (bottom - top) * (2 * row + 1) // 8)

    key(2, 0)  # 7 replaces the selected hour
    assert text_of(device, "android:id/input_hour") == "7"
    key(3, 3)  # "next": on to the minutes
    key(0, 0)
    key(1, 1)
    assert text_of(device, "android:id/input_minute") == "15"
    tap(device, resource_id="android:id/button1")
    assert [(a.hour, a.minutes) for a in alarms(device) if a.id != 1] == [(7, 15)]


@pytest.mark.parametrize("clicks, mask", [
    (["repeat", "Saturday", "Sunday"], 31),
    (["Saturday", "Sunday"], 96),
    (["repeat", "Friday", "Saturday", "Sunday"], 15),
    (["repeat"], 127),
    (["repeat", "repeat"], 0),
])
def test_repeat_days_give_the_db_masks(clicks, mask):
    device = clock()
    tab(device, 0)
    new_alarm_by_dial(device, 1, 30, pm=True)
    for click in clicks:
        if click == "repeat":
            tap(device, resource_id=C + "repeat_onoff")
        else:
            tap_day(device, click)
    row = [a for a in alarms(device) if a.id != 1][0]
    assert (row.hour, row.minutes, row.daysofweek) == (13, 30, mask)
    checked = {n.get("content-desc") for n in day_boxes(device) if n.get("checked") == "true"}
    assert checked == {weekdays.week("en-US").full[d] for d in range(7) if mask >> d & 1}
    repeat = nodes(device.dump_hierarchy(), resource_id=C + "repeat_onoff")[0]
    assert repeat.get("checked") == ("true" if mask else "false")


@pytest.mark.parametrize("config, first", [("test_env_100", "Sunday"), ("train_env_031", "Montag"),
                                           ("test_env_109", "السبت"), ("train_env_028", "日曜日")])
def test_day_buttons_follow_the_locales_week(config, first):
    device = clock(config)
    tab(device, 0)
    tap(device, resource_id=C + "arrow")
    descs = [n.get("content-desc") for n in day_boxes(device)]
    assert descs[0] == first and len(descs) == 7
    assert sorted(weekdays.day_of_name(d) for d in descs) == list(range(7))
    assert [weekdays.day_of_name(n.get("content-desc")) for n in day_boxes(device)
            if n.get("checked") == "true"] in ([5, 6], [6, 5])


@pytest.mark.parametrize("config", ["test_env_100", "test_env_105", "test_env_109"])
def test_the_seven_day_slots_fit_the_expanded_card(config):
    """Slots round to whole pixels each; seven rounded up must not overrun the card."""
    device = clock(config)
    tab(device, 0)
    tap(device, resource_id=C + "arrow")
    assert len(day_boxes(device)) == 7
    assert [str(i) for i in check_device(device) if "repeat_days" in str(i)] == []


def test_switching_the_preset_on_and_off():
    device = clock()  # Thursday: the Sat/Sun alarm is next on Saturday Jan 2
    tab(device, 0)
    tap(device, resource_id=C + "onoff")
    assert alarms(device)[0].enabled is True
    assert "Created new alarm instance: AlarmInstance{mId=1, mYear=2016, mMonth=0, mDay=2, mHour=9" \
        in logcat(device, "AlarmClock:I")
    assert "nextUserAlarmTime=Sat Jan 02 09:00:00 GMT 2016" in logcat(device, "ConditionProviders.SCP:D")
    device.shell("logcat -c")
    tap(device, resource_id=C + "onoff")
    assert alarms(device)[0].enabled is False
    assert alarms_db.read_instances(device.pull(alarms_db.DEVICE_PATH)) == []
    assert "nextUserAlarmTime=Thu Jan 01 00:00:00 GMT 1970 (0)" in logcat(
        device, "ConditionProviders.SCP:D")
    assert "Created new alarm instance" not in logcat(device, "AlarmClock:I")


def test_deleting_an_alarm():
    device = clock()
    tab(device, 0)
    tap(device, resource_id=C + "arrow")
    tap(device, resource_id=C + "delete")
    assert alarms(device) == []
    assert re.search(r"I AlarmClock: Removed alarm Alarm\{.*daysOfWeek=\[SA SU\].*hour=9, id=1",
                     logcat(device, "AlarmClock:I"))
    assert nodes(device.dump_hierarchy(), resource_id=C + "alarms_empty_view", text="No Alarms")


def test_changing_an_alarms_time_switches_it_on():
    device = clock()
    tab(device, 0)
    tap(device, resource_id=C + "digital_clock")
    assert text_of(device, "android:id/hours") == "9"
    dial(device, "7")
    tap(device, resource_id="android:id/button1")
    assert (alarms(device)[0].hour, alarms(device)[0].enabled) == (7, True)


def test_time_set_is_evaluated_by_system_server():
    device = bmoca.device.connect("sim", config=bmoca.configs.get("test_env_100"))
    device.shell("logcat -c")
    device.shell("su 0 toybox date 123106272015.00")
    line = logcat(device, "ConditionProviders.SCP:D").strip().splitlines()[-1]
    assert re.search(r" 517 +\d+ D ConditionProviders.SCP: .*now=Thu Dec 31 06:27:00 GMT 2015 "
                     r"\(1451543220000\), nextUserAlarmTime=Thu Jan 01 00:00:00 GMT 1970 \(0\)$",
                     line), line
    assert "Created new alarm instance" not in logcat(device, "AlarmClock:I")


def test_a_pushed_alarms_db_is_read_back():
    device = bmoca.device.connect("sim", config=bmoca.configs.get("test_env_100"))
    device.push(alarms_db.build([alarms_db.Alarm(id=4, hour=6, minutes=15, enabled=True)]),
                alarms_db.DEVICE_PATH)
    device.shell(f"am start -a android.intent.action.SHOW_ALARMS -n {DESK}")
    assert text_of(device, C + "digital_clock") == "6:15 AM"


# -- tabs, stopwatch, timer -------------------------------------------------------------------

def test_tabs_log_only_changes_and_the_choice_is_remembered():
    device = clock()
    items = [n for n in nodes(device.dump_hierarchy()) if n.get("class") == "rk"]
    assert [(n.get("content-desc"), n.get("selected")) for n in items] == [
        ("Alarm", "false"), ("Clock", "true"), ("Timer", "false"), ("Stopwatch", "false")]
    assert nodes(device.dump_hierarchy(), resource_id=C + "cities")
    tab(device, 1)  # the tab already shown
    assert "Show Tab" not in logcat(device, "AlarmClock:D")
    for position, name in enumerate(("Alarm", "Clock", "Timer", "Stopwatch")):
        if position != 1:
            tab(device, position)
            assert f"D AlarmClock: Events: [{name}] [Show Tab] [Tap]" in logcat(device, "AlarmClock:D")
    device.press("BACK")
    device.shell(f"am start -n {DESK}")
    assert nodes(device.dump_hierarchy(), resource_id=C + "stopwatch_time_text")


def test_the_tab_strip_runs_right_to_left_in_arabic():
    device = clock("test_env_109")
    items = [n for n in nodes(device.dump_hierarchy()) if n.get("class") == "rk"]
    alarm = [n for n in items if n.get("content-desc") == "المنبّه"][0]
    assert bounds(alarm)[0] == max(bounds(n)[0] for n in items)


def test_stopwatch_start_lap_pause_reset():
    device = clock()
    tab(device, 3)
    assert text_of(device, C + "stopwatch_time_text") == "0:00"
    assert not nodes(device.dump_hierarchy(), resource_id=C + "left_button")
    tap(device, resource_id=C + "fab", content_desc="Start")
    device.shell("sleep 0")
    for _ in range(12):  # every tap moves the virtual clock on by 100 ms
        tap(device, resource_id=C + "stopwatch_time_text")
    assert text_of(device, C + "stopwatch_time_text") == "0:01"
    tap(device, resource_id=C + "right_button", content_desc="Lap")
    assert nodes(device.dump_hierarchy(), resource_id=C + "lap_number", text="Lap 1")
    tap(device, resource_id=C + "fab", content_desc="Pause")
    tap(device, resource_id=C + "left_button", content_desc="Reset")
    assert text_of(device, C + "stopwatch_time_text") == "0:00"
    events = re.findall(r"Events: (\[Stopwatch\] \[[\w ]+\] \[Tap\])", logcat(device, "AlarmClock:D"))
    assert events == ["[Stopwatch] [Show Tab] [Tap]", "[Stopwatch] [Start] [Tap]",
                      "[Stopwatch] [Lap] [Tap]", "[Stopwatch] [Pause] [Tap]",
                      "[Stopwatch] [Reset] [Tap]"]


def test_the_start_stopwatch_intent_starts_it_on_its_tab():
    device = clock()
    device.shell(f"am start -a com.android.deskclock.action.START_STOPWATCH -n {DESK}")
    assert nodes(device.dump_hierarchy(), resource_id=C + "fab", content_desc="Pause")
    assert "Events: [Stopwatch] [Start] [Intent]" in logcat(device, "AlarmClock:D")


def test_timer_keypad_and_start():
    device = clock()
    tab(device, 2)
    setup = nodes(device.dump_hierarchy(), resource_id=C + "timer_setup_time")[0]
    assert (setup.get("text"), setup.get("content-desc")) == (
        "00h 00m 00s", "0 hours, 0 minutes, 0 seconds")
    assert not nodes(device.dump_hierarchy(), resource_id=C + "fab")
    assert "Start" not in logcat(device, "AlarmClock:D").split("Show Tab")[-1]
    for digit in "130":
        tap(device, resource_id=C + f"timer_setup_digit_{digit}")
    assert text_of(device, C + "timer_setup_time") == "00h 01m 30s"
    tap(device, resource_id=C + "fab", content_desc="Start")
    assert text_of(device, C + "timer_time_text") == "1:30"
    assert "Events: [Timer] [Start] [Tap]" in logcat(device, "AlarmClock:D")


def test_clock_page_shows_the_virtual_time_and_date():
    device = clock()
    assert text_of(device, C + "digital_clock") == "10:30 AM"
    date = nodes(device.dump_hierarchy(), resource_id=C + "date")[0]
    assert "Thursday" in date.get("content-desc") and "Dec" in date.get("content-desc")


# -- the picker in other modes -------------------------------------------------------------------

def test_24_hour_dial_in_german():
    device = clock("train_env_031")  # de-DE
    tab(device, 0)
    tap(device, resource_id=C + "fab")
    xml = device.dump_hierarchy()
    assert [n.get("content-desc") for n in nodes(xml) if n.get("class") == HELPER] == [
        str(h) for h in range(24)]
    assert not nodes(xml, resource_id="android:id/am_label")
    dial(device, "15")
    assert text_of(device, "android:id/hours") == "15"
    dial(device, "45")
    tap(device, resource_id="android:id/button1")
    assert [(a.hour, a.minutes) for a in alarms(device) if a.id != 1] == [(15, 45)]


def test_the_24_hour_setting_overrides_the_locale_as_on_android():
    device = clock("test_env_100", date=None)  # en-US, 12-hour by locale; clock at 10:00
    assert device.shell("settings get system time_12_24")[0] == "null\n"
    assert device.shell("su 0 toybox date 123115302015.00")[1] == 0
    assert text_of(device, C + "digital_clock") == "3:30 PM"
    assert device.shell("settings put system time_12_24 24")[1] == 0
    assert text_of(device, C + "digital_clock") == "15:30"
    tab(device, 0)
    tap(device, resource_id=C + "fab")
    helpers = [n for n in nodes(device.dump_hierarchy()) if n.get("class") == HELPER]
    assert len(helpers) == 24


def test_a_touch_between_numbers_picks_the_nearest_by_angle():
    device = clock()
    tab(device, 0)
    tap(device, resource_id=C + "fab")
    disc = bounds(nodes(device.dump_hierarchy(), resource_id="android:id/radial_picker")[0])
    cx, cy, r = (disc[0] + disc[2]) / 2, (disc[1] + disc[3]) / 2, (disc[2] - disc[0]) / 4
    angle = math.radians(95)  # just past 3 o'clock, half-way out
    device.tap(int(cx + r * math.sin(angle)), int(cy - r * math.cos(angle)))
    assert text_of(device, "android:id/hours") == "3"
    angle = math.radians(6 * 17)  # 17 minutes
    device.tap(int(cx + r * math.sin(angle)), int(cy - r * math.cos(angle)))
    assert text_of(device, "android:id/minutes") == "17"


def test_the_dial_is_not_mirrored_in_right_to_left_layouts():
    device = clock("test_env_108")  # ur-PK
    tab(device, 0)
    tap(device, resource_id=C + "fab")
    xml = device.dump_hierarchy()
    three = [n for n in nodes(xml, content_desc="3") if n.get("class") == HELPER][0]
    nine = [n for n in nodes(xml, content_desc="9") if n.get("class") == HELPER][0]
    assert bounds(three)[0] > bounds(nine)[0]
    ok, cancel = (bounds(nodes(xml, resource_id=f"android:id/button{i}")[0]) for i in (1, 2))
    assert ok[0] < cancel[0]  # the button bar is mirrored
    tap_node(device, three)
    assert text_of(device, "android:id/hours") == "3"


@pytest.mark.parametrize("config", ["test_env_100", "test_env_105", "test_env_109"])
def test_screens_render(config):
    device = clock(config)
    tab(device, 0)
    tap(device, resource_id=C + "arrow")
    image = device.screenshot()
    assert image.std() > 10
    tap(device, resource_id=C + "fab")
    assert device.screenshot().std() > 10

"""Google Calendar's events, played as an agent plays them through `env.step`: an event
created from the create button (title, date picker, time picker, Save) lands in the
Calendar provider's calendar.db, shows as a chip in the month, in its day and on its
detail page, and can be deleted; the provider refuses what CalendarProvider2 refuses."""

from __future__ import annotations

import datetime as dt
import sqlite3

import pytest
from agent_steps import Episode
from conftest import nodes

from bmoca.sim.system import calendar_provider as provider
from bmoca.sim.system.vfs import VirtualFS

C = "com.google.android.calendar:id/"
A = "android:id/"
TASK = "clock/go_to_the_stopwatch_page_in_clock"  # a task none of these steps completes


def texts(ep: Episode, rid: str) -> list[str]:
    return [n.get("text") for n in nodes(ep.obs["xml"], resource_id=rid)]


def events_on_phone(ep: Episode) -> list[tuple]:
    data = ep.env.device.pull(provider.DB_PATH)
    conn = sqlite3.connect(":memory:")
    conn.deserialize(data)
    return conn.execute("SELECT title, dtstart, dtend, allDay, eventTimezone, calendar_id "
                        "FROM Events WHERE deleted = 0").fetchall()


def ms(*args: int) -> int:
    return int(dt.datetime(*args, tzinfo=dt.UTC).timestamp() * 1000)


@pytest.fixture
def ep():
    episode = Episode(TASK)
    episode.open_app("com.google.android.calendar")
    yield episode
    episode.close()


def create(ep: Episode, title: str, day_desc: str, hour_text: str, minute_text: str,
           pm: bool) -> None:
    ep.click(resource_id=C + "floating_action_button")
    ep.click(resource_id=C + "speed_dial_event")
    assert nodes(ep.obs["xml"], resource_id=C + "title")[0].get("focused") == "true"
    field = ep.find(resource_id=C + "title")
    left, top, right, bottom = (int(v) for v in field.get("bounds").replace("][", ",")
                                .strip("[]").split(","))
    ep.step({"action_type": "input_text", "text": title, "x": (left + right) // 2,
             "y": (top + bottom) // 2})
    ep.click(resource_id=C + "start_date")
    ep.click(content_desc=day_desc)
    ep.click(resource_id=A + "button1")
    ep.click(resource_id=C + "start_time")
    ep.click(resource_id=A + "toggle_mode")
    for fid, value in (("input_hour", hour_text), ("input_minute", minute_text)):
        box = ep.find(resource_id=A + fid).get("bounds")
        x1, y1, x2, y2 = (int(v) for v in box.replace("][", ",").strip("[]").split(","))
        ep.step({"action_type": "input_text", "text": value, "x": (x1 + x2) // 2,
                 "y": (y1 + y2) // 2})
    if pm:
        ep.click(resource_id=A + "am_pm_spinner")
        ep.click(1, resource_id=A + "text1")
    ep.click(resource_id=A + "button1")
    ep.click(resource_id=C + "save")


def test_an_event_created_from_the_create_button_is_stored_and_shown(ep):
    create(ep, "Dentist", "25 January 2024", "3", "45", pm=True)
    assert events_on_phone(ep) == [("Dentist", ms(2024, 1, 25, 15, 45), ms(2024, 1, 25, 16, 45),
                                    0, "GMT", 1)]
    assert texts(ep, C + "chip") == ["Dentist"]
    ep.click(resource_id=C + "chip")  # the chip's day
    assert texts(ep, C + "event_title") == ["Dentist"]
    assert texts(ep, C + "event_time") == ["3:45 PM – 4:45 PM"]
    ep.click(resource_id=C + "event_chip")
    assert texts(ep, C + "title") == ["Dentist"]
    assert texts(ep, C + "date") == ["Thursday, January 25"]
    ep.back().back()
    assert ep.has(resource_id=C + "month_view")


def test_deleting_an_event_asks_first_and_then_removes_it(ep):
    create(ep, "Gym", "18 January 2024", "7", "00", pm=False)
    ep.click(resource_id=C + "chip").click(resource_id=C + "event_chip")
    ep.click(content_desc="More options").click(resource_id=C + "title")
    assert texts(ep, A + "message") == ["Delete this event?"]
    ep.click(resource_id=A + "button2")
    assert len(events_on_phone(ep)) == 1
    ep.click(content_desc="More options").click(resource_id=C + "title")
    ep.click(resource_id=A + "button1")
    assert events_on_phone(ep) == []
    assert not ep.has(resource_id=C + "event_chip")


def test_closing_the_edit_screen_discards_the_event(ep):
    ep.click(resource_id=C + "floating_action_button").click(resource_id=C + "speed_dial_event")
    ep.step({"action_type": "input_text", "text": "Draft", "x": 500, "y": 300})
    ep.click(resource_id=C + "close")
    assert ep.has(resource_id=C + "month_view") and not ep.has(resource_id=C + "chip")
    assert events_on_phone(ep) == []


def test_the_provider_checks_inserts_as_calendarprovider2_does():
    vfs = VirtualFS()
    base = {"calendar_id": 1, "title": "x", "dtstart": ms(2024, 1, 17, 9, 0),
            "eventTimezone": "GMT"}
    with pytest.raises(provider.CalendarError, match="DTEND and DURATION"):
        provider.insert_event(vfs, base)
    with pytest.raises(provider.CalendarError, match="EVENT_TIMEZONE"):
        provider.insert_event(vfs, {**base, "dtend": base["dtstart"], "eventTimezone": ""})
    with pytest.raises(provider.CalendarError, match="Calendar id 7"):
        provider.insert_event(vfs, {**base, "dtend": base["dtstart"], "calendar_id": 7})
    one = provider.insert_event(vfs, {**base, "duration": "P3600S"})
    two = provider.insert_event(vfs, {**base, "title": "y", "dtstart": ms(2024, 1, 18, 23, 0),
                                      "dtend": ms(2024, 1, 19, 1, 0)})
    assert [e.title for e in provider.events(vfs, dt.date(2024, 1, 17))] == ["x"]
    assert provider.event(vfs, one).dtend == ms(2024, 1, 17, 10, 0)
    assert [e.id for e in provider.events(vfs, dt.date(2024, 1, 19))] == [two]
    assert provider.update_event(vfs, two, {"title": "z"}) == 1
    assert provider.delete_event(vfs, one) == 1 and provider.event(vfs, one) is None
    assert [e.title for e in provider.events(vfs)] == ["z"]


def test_events_written_with_content_insert_show_in_the_month_and_their_day(ep):
    start = ms(2024, 1, 20, 18, 30)
    out, code = ep.env.device.shell(
        "content insert --uri content://com.android.calendar/events --bind calendar_id:i:1 "
        f"--bind title:s:'Book club' --bind dtstart:l:{start} --bind dtend:l:{start + 5400000} "
        "--bind eventTimezone:s:GMT --bind eventLocation:s:'Main St 5'")
    assert code == 0 and out == ""
    out, _ = ep.env.device.shell("content insert --uri content://com.android.calendar/events "
                                 "--bind calendar_id:i:1 --bind title:s:x --bind dtstart:l:1")
    assert "DTEND and DURATION cannot both be null for an event." in out
    ep.step({"action_type": "wait"})
    assert texts(ep, C + "chip") == ["Book club"]
    ep.click(resource_id=C + "chip")
    assert texts(ep, C + "event_time") == ["6:30 PM – 8:00 PM"]
    ep.click(resource_id=C + "event_chip")
    assert texts(ep, C + "location") == ["Main St 5"]


def test_the_speed_dial_closes_and_the_date_picker_steps_months(ep):
    ep.click(resource_id=C + "floating_action_button")
    assert ep.has(resource_id=C + "speed_dial_event")
    ep.click(resource_id=C + "floating_action_button")  # now the X
    assert not ep.has(resource_id=C + "speed_dial_event")
    ep.click(resource_id=C + "floating_action_button").click(resource_id=C + "speed_dial_event")
    ep.click(resource_id=C + "end_date").click(resource_id=A + "next")
    ep.click(content_desc="02 February 2024").click(resource_id=A + "button1")
    assert texts(ep, C + "end_date") == ["Fri, Feb 2"]
    assert texts(ep, C + "start_date") == ["Wed, Jan 17"]
    ep.click(resource_id=C + "all_day_switch")
    assert not ep.has(resource_id=C + "start_time")
    ep.click(resource_id=C + "save")
    assert events_on_phone(ep) == [("", ms(2024, 1, 17), ms(2024, 2, 3), 1, "UTC", 1)]
    assert texts(ep, C + "chip")[:2] == ["(No title)", "(No title)"]

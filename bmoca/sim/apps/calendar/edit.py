"""Google Calendar's event edit screen: a new event from the create button's "Event", or an
existing one from its detail page's pencil.

As in the 2020-21 app: a close button (X) and Save in the toolbar, the "Add title" field,
an All-day switch, the start and end rows (date, and time unless all-day), each date
opening the framework DatePickerDialog and each time the TimePickerDialog (the Clock's
`picker.Picker`, the same framework dialog), and "Add location". A new event starts at the
next full hour of the day it was created for and lasts an hour; moving the start keeps the
duration, as the app does. Save writes the event through the Calendar provider (the local
calendar, the device's time zone); an empty title is saved empty and shown "(No title)";
an end before the start is refused with the app's message. Closing (X or BACK) discards.

Resource ids: `title`, `all_day_switch`, `start_date`, `start_time`, `end_date`,
`end_time`, `location` and `save` are plausible names for this screen (Google Calendar's
layouts are not public); the pickers' ids are the framework's real ones.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from bmoca.sim.apps.base import Context
from bmoca.sim.apps.calendar.date_picker import short_date
from bmoca.sim.apps.clock.app import format_time
from bmoca.sim.apps.contacts.ui import icon_button, ime_inset
from bmoca.sim.apps.longpress import focus_field
from bmoca.sim.render.widgets import draw_switch
from bmoca.sim.system import calendar_provider as provider
from bmoca.sim.ui.view import MATCH, WRAP, View, column, frame, row, scroller, spacer, text

PACKAGE = "com.google.android.calendar"
HOUR_MS = 3_600_000


def kid(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


@dataclass
class EditState:
    """The edit screen's fields, kept on the activity (picklable)."""

    event_id: int | None
    """The event being changed, or None for a new one."""
    title: str
    start: dt.datetime
    end: dt.datetime
    all_day: bool = False
    location: str = ""
    error: bool = False


def new_event(now: dt.datetime, day: dt.date) -> EditState:
    """A new event: the next full hour (of `day`, at the hour after now's), one hour long."""
    hour = (now.hour + 1) % 24
    start = dt.datetime(day.year, day.month, day.day, hour, tzinfo=dt.UTC)
    if day == now.date() and now.hour == 23:
        start += dt.timedelta(days=1)
    return EditState(None, "", start, start + dt.timedelta(hours=1))


def from_event(event: provider.Event) -> EditState:
    end = event.end - dt.timedelta(days=1) if event.all_day else event.end
    return EditState(event.id, event.title, event.start, end, event.all_day, event.location)


def set_start(state: EditState, when: dt.datetime) -> None:
    """A new start moves the end with it (the duration is kept)."""
    duration = state.end - state.start
    state.start = when
    state.end = when + duration
    state.error = False


def set_end(state: EditState, when: dt.datetime) -> None:
    state.end = when
    state.error = False


def values(state: EditState, timezone: str) -> dict[str, object] | None:
    """The ContentValues the app saves, or None when the end is before the start."""
    if state.all_day:
        start = dt.datetime(state.start.year, state.start.month, state.start.day, tzinfo=dt.UTC)
        end = dt.datetime(state.end.year, state.end.month, state.end.day,
                          tzinfo=dt.UTC) + dt.timedelta(days=1)
        if end <= start:
            return None
        tz = "UTC"  # all-day events are stored at UTC midnights, as CalendarContract requires
    else:
        start, end, tz = state.start, state.end, timezone
        if end < start:
            return None
    return {"calendar_id": provider.LOCAL_CALENDAR_ID, "title": state.title.strip(),
            "eventLocation": state.location.strip(), "dtstart": int(start.timestamp() * 1000),
            "dtend": int(end.timestamp() * 1000), "allDay": int(state.all_day),
            "eventTimezone": tz}


def time_range(ctx: Context, start: dt.datetime, end: dt.datetime) -> str:
    return ctx.t("calendar.time_range", start=format_time(ctx, start.hour, start.minute),
                 end=format_time(ctx, end.hour, end.minute))


def edit_screen(ctx: Context, state: EditState, on_close, on_save, on_date, on_time) -> View:
    """The screen; `on_date(field)` / `on_time(field)` open a picker for "start" or "end"."""
    theme = ctx.theme
    t = ctx.t
    fg, dim = theme.text, theme.text_secondary
    bg = (32, 33, 36) if theme.dark else (255, 255, 255)
    accent = (138, 180, 248) if theme.dark else (26, 115, 232)
    divider = (60, 64, 67) if theme.dark else (218, 220, 224)

    def on_title(new: str) -> None:
        state.title = new

    def on_location(new: str) -> None:
        state.location = new

    def toggle_all_day() -> None:
        state.all_day = not state.all_day
        state.error = False

    def opener(handler, which: str):
        return lambda: handler(which)

    bar = row(icon_button(ctx, "close", t("calendar.close"), on_close, fg, kid("close"),
                          tooltip=True),
              spacer(weight=1),
              View(cls="android.widget.Button", id=kid("save"), text=t("calendar.save"),
                   text_size=14, font_weight=500, text_color=(255, 255, 255), bg=accent,
                   corner=4, width=WRAP, height=36, padding=(16, 8, 16, 8), clickable=True,
                   focusable=True, on_click=on_save, gravity="center_vertical",
                   margin=(0, 0, 12, 0)),
              height=56, gravity="center_vertical", id=kid("toolbar"))
    title = View(cls="android.widget.EditText", id=kid("title"), text=state.title,
                 hint=t("calendar.add_title"), text_size=24, text_color=fg, width=MATCH,
                 height=WRAP, clickable=True, focusable=True, long_clickable=True,
                 on_text=on_title, on_long_click=focus_field(ctx, kid("title")),
                 padding=(72, 12, 16, 16))

    def line(glyph: str | None, *parts: View | None, rid: str = "") -> View:
        return row(frame(View(cls="", icon=glyph, icon_color=dim, width=24, height=24,
                              gravity="center") if glyph else None,
                         cls="", width=72, height=48, gravity="center_vertical"),
                   *parts, id=rid, height=WRAP, gravity="center_vertical",
                   padding=(0, 4, 16, 4))

    def cell(rid: str, label: str, handler, end: bool = False) -> View:
        return text(label, id=kid(rid), text_size=16, text_color=fg, clickable=True,
                    focusable=True, on_click=handler, height=48, gravity="center_vertical",
                    width=0 if not end else WRAP, weight=1 if not end else 0,
                    padding=(0, 12, 0, 12))

    def when(which: str, moment: dt.datetime) -> View:
        return line(None, cell(f"{which}_date", short_date(ctx, moment.date()),
                               opener(on_date, which)),
                    None if state.all_day else cell(
                        f"{which}_time", format_time(ctx, moment.hour, moment.minute),
                        opener(on_time, which), end=True))

    switch = View(cls="android.widget.Switch", id=kid("all_day_switch"),
                  text=t("clock.switch.on") if state.all_day else t("clock.switch.off"),
                  desc=t("calendar.all_day"), checkable=True, checked=state.all_day,
                  clickable=True, focusable=True, width=52, height=40, draw=draw_switch,
                  text_color=(0, 0, 0, 0), on_click=toggle_all_day, gravity="center_vertical")
    body = scroller(
        title,
        View(cls="", width=MATCH, height=1, bg=divider),
        line("schedule", text(t("calendar.all_day"), text_size=16, text_color=fg, width=0,
                              weight=1, gravity="center_vertical"), switch),
        when("start", state.start),
        when("end", state.end),
        text(t("calendar.end_before_start"), id=kid("error"), text_size=14,
             text_color=(217, 48, 37), visible=state.error, padding=(72, 0, 16, 8),
             max_lines=2),
        View(cls="", width=MATCH, height=1, bg=divider),
        line("place", View(cls="android.widget.EditText", id=kid("location"),
                           text=state.location, hint=t("calendar.add_location"), text_size=16,
                           text_color=fg, width=0, weight=1, height=48, clickable=True,
                           focusable=True, long_clickable=True, on_text=on_location,
                           on_long_click=focus_field(ctx, kid("location")),
                           gravity="center_vertical")),
        key="edit", cls="android.widget.ScrollView", width=MATCH, height=0, weight=1)
    return column(bar, body, ime_inset(ctx, (kid("title"), kid("location"))), width=MATCH,
                  height=MATCH, bg=bg)

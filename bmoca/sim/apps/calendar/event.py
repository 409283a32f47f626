"""Google Calendar's event screens: a day's events (the Day view a month's day opens) and an
event's detail page.

The day list shows the date (weekday and day number) and each event of that day as a
card in the calendar's colour with the title and the time range ("All day" for all-day
events), by start time; a tap opens the detail page. The detail page shows the title,
the date, the time range and the location, with a close button, the pencil (edit) and
the overflow menu whose Delete asks "Delete this event?" before deleting. Resource ids of
these screens are plausible names (Google Calendar's layouts are not public).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from bmoca.formats.locales import native_digits
from bmoca.formats.weekdays import week
from bmoca.sim.apps.base import Context
from bmoca.sim.apps.calendar.edit import kid, time_range
from bmoca.sim.apps.contacts.ui import icon_button, overflow_button
from bmoca.sim.system import calendar_provider as provider
from bmoca.sim.ui.view import MATCH, WRAP, View, column, frame, row, scroller, spacer, text

CHIP = (3, 155, 229)
"""The local calendar's colour (Peacock, provider.CALENDAR_COLOR)."""


def title_of(ctx: Context, event: provider.Event) -> str:
    return event.title or ctx.t("calendar.no_title")


def when_text(ctx: Context, event: provider.Event) -> str:
    if event.all_day:
        return ctx.t("calendar.all_day")
    return time_range(ctx, event.start, event.end)


def long_date(ctx: Context, day: dt.date) -> str:
    """"Wednesday, January 17": the full weekday and month names."""
    month = ctx.t("calendar.months").split(",")[day.month - 1]
    return ctx.t("format.glance_date", weekday=week(ctx.locale).full[day.weekday()],
                 month=month, day=native_digits(ctx.locale, str(day.day)))


def day_list(ctx: Context, day: dt.date, events: list[provider.Event],
             open_event: Callable[[int], Callable[[], None]]) -> View:
    theme = ctx.theme
    accent = (138, 180, 248) if theme.dark else (26, 115, 232)
    names = week(ctx.locale)
    today = day == ctx.today()
    head = column(
        text(names.short[day.weekday()], text_size=11, text_color=accent if today
             else theme.text_secondary, width=WRAP, gravity="center_horizontal"),
        text(native_digits(ctx.locale, str(day.day)), text_size=20,
             text_color=(255, 255, 255) if today else theme.text, width=36, height=36,
             corner=18, bg=accent if today else None, align="center",
             gravity="center_horizontal"),
        id=kid("day_header"), desc=long_date(ctx, day), width=56, height=WRAP,
        padding=(0, 8, 0, 0))
    cards = [
        column(text(title_of(ctx, e), id=kid("event_title"), text_size=14, font_weight=500,
                    text_color=(255, 255, 255), width=MATCH),
               text(when_text(ctx, e), id=kid("event_time"), text_size=12,
                    text_color=(255, 255, 255), width=MATCH),
               text(e.location, text_size=12, text_color=(255, 255, 255), width=MATCH)
               if e.location else None,
               id=kid("event_chip"), width=MATCH, height=WRAP, bg=CHIP, corner=4,
               padding=(8, 6, 8, 6), margin=(0, 4, 8, 0), clickable=True, focusable=True,
               on_click=open_event(e.id))
        for e in events]
    return scroller(row(head, column(*cards, width=0, weight=1, height=WRAP), height=WRAP),
                    key="day", cls="androidx.recyclerview.widget.RecyclerView",
                    id=kid("day_view"), width=MATCH, height=MATCH)


def detail(ctx: Context, event: provider.Event, on_close: Callable[[], None],
           on_edit: Callable[[], None], on_more: Callable[[], None]) -> View:
    theme = ctx.theme
    fg, dim = theme.text, theme.text_secondary
    bg = (32, 33, 36) if theme.dark else (255, 255, 255)
    bar = row(icon_button(ctx, "close", ctx.t("calendar.close"), on_close, fg, kid("close"),
                          tooltip=True),
              spacer(weight=1),
              icon_button(ctx, "edit", ctx.t("calendar.edit"), on_edit, fg, kid("edit"),
                          tooltip=True),
              overflow_button(ctx, ctx.t("calendar.more"), on_more, fg),
              height=56, gravity="center_vertical", id=kid("toolbar"))

    def line(glyph: str, *parts: View | None) -> View:
        return row(frame(View(cls="", icon=glyph, icon_color=dim, width=24, height=24,
                              gravity="center"), cls="", width=72, height=WRAP,
                         padding=(0, 2, 0, 0), gravity="start|top"),
                   column(*parts, width=0, weight=1, height=WRAP), height=WRAP,
                   padding=(0, 8, 16, 8))

    days = long_date(ctx, event.start.date())
    last = (event.end - dt.timedelta(milliseconds=1)).date() if event.end > event.start \
        else event.start.date()
    if last != event.start.date():
        days = f"{days} – {long_date(ctx, last)}"
    body = column(
        row(frame(View(cls="", width=16, height=16, corner=4, bg=CHIP, gravity="center"),
                  cls="", width=72, height=40, gravity="center_vertical"),
            text(title_of(ctx, event), id=kid("title"), text_size=22, text_color=fg,
                 width=0, weight=1, max_lines=3, gravity="center_vertical"),
            height=WRAP, padding=(0, 8, 16, 8)),
        line("schedule", text(days, id=kid("date"), text_size=14, text_color=fg, width=MATCH),
             None if event.all_day else text(
                 time_range(ctx, event.start, event.end), id=kid("time"), text_size=14,
                 text_color=dim, width=MATCH)),
        line("place", text(event.location, id=kid("location"), text_size=14, text_color=fg,
                           width=MATCH, max_lines=2)) if event.location else None,
        line("notes", text(event.description, id=kid("description"), text_size=14,
                           text_color=fg, width=MATCH, max_lines=6))
        if event.description else None,
        width=MATCH, height=WRAP)
    return column(bar, scroller(body, key="detail", width=MATCH, height=0, weight=1),
                  width=MATCH, height=MATCH, bg=bg)


def more_menu(ctx: Context, on_delete: Callable[[], None]) -> View:
    """The detail page's overflow menu: Delete."""
    theme = ctx.theme
    return column(text(ctx.t("calendar.delete"), id=kid("title"), text_size=16,
                       text_color=theme.text, width=MATCH, height=48, clickable=True,
                       focusable=True, on_click=on_delete, padding=(16, 12, 16, 12)),
                  cls="android.widget.ListView", width=180, height=WRAP,
                  bg=(48, 49, 52) if theme.dark else (255, 255, 255), corner=4, elevation=8,
                  gravity="end|top", margin=(0, 8, 8, 0))

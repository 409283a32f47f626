"""The framework DatePickerDialog (Material calendar mode) as Google Calendar opens it from
an event's date row, with Android 10's ids.

The header (`date_picker_header_year` over `date_picker_header_date`) shows the picked
date; below it the DayPickerView shows one month, `prev` / `next` step a month, and each
day of the month is one of SimpleMonthView's accessibility virtual views: class
`android.view.View`, content-desc `dd MMMM yyyy` ("17 January 2024"), in day order inside
`android:id/month_view`. A tap on a day picks it (the header follows); OK (`button1`)
hands the date back, CANCEL (`button2`) or BACK drops it. The month's title, drawn on the
view on a phone, is a TextView here so it reads in the dump. The dialog follows the app's
light or dark theme.
"""

from __future__ import annotations

import calendar as cal
import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

from bmoca.formats.locales import native_digits
from bmoca.formats.weekdays import week
from bmoca.sim.apps.base import Context
from bmoca.sim.ui.view import MATCH, WRAP, View, column, frame, row, spacer, text


def a(name: str) -> str:
    return f"android:id/{name}"


@dataclass
class DatePickerState:
    """An open date picker (kept on the activity, so it survives snapshots)."""

    field: str
    """Which date it sets: "start" or "end"."""
    picked: dt.date
    shown: tuple[int, int]
    """(year, month) the day grid shows."""


def month_step(shown: tuple[int, int], step: int) -> tuple[int, int]:
    index = shown[0] * 12 + shown[1] - 1 + step
    return index // 12, index % 12 + 1


def short_date(ctx: Context, day: dt.date) -> str:
    """"Wed, Jan 17": the locale's short weekday, month and day (format.glance_date)."""
    return ctx.t("format.glance_date", weekday=week(ctx.locale).short[day.weekday()],
                 month=ctx.t(f"date.month_short.{day.month}"),
                 day=native_digits(ctx.locale, str(day.day)))


def day_desc(ctx: Context, day: dt.date) -> str:
    """A day's content-desc in SimpleMonthView: `dd MMMM yyyy`."""
    month = ctx.t("calendar.months").split(",")[day.month - 1]
    return native_digits(ctx.locale, f"{day.day:02d} {month} {day.year}")


def date_picker(ctx: Context, state: DatePickerState, done: Callable[[dt.date], None],
                cancel: Callable[[], None]) -> View:
    theme = ctx.theme
    surface = (48, 49, 52) if theme.dark else (255, 255, 255)
    accent = (138, 180, 248) if theme.dark else (26, 115, 232)
    on_accent = (32, 33, 36) if theme.dark else (255, 255, 255)
    width_dp, _ = ctx.system.screen_dp()
    width = min(width_dp - 32, 328)
    year, month = state.shown
    names = week(ctx.locale)

    def pick(day: dt.date) -> Callable[[], None]:
        def handler() -> None:
            state.picked = day
        return handler

    def step(n: int) -> Callable[[], None]:
        def handler() -> None:
            state.shown = month_step(state.shown, n)
        return handler

    header = column(
        text(native_digits(ctx.locale, str(state.picked.year)), id=a("date_picker_header_year"),
             text_size=16, text_color=on_accent, width=MATCH),
        text(short_date(ctx, state.picked), id=a("date_picker_header_date"), text_size=32,
             text_color=on_accent, width=MATCH, max_lines=2),
        id=a("date_picker_header"), width=MATCH, height=WRAP, bg=accent,
        padding=(24, 16, 24, 16))
    months = ctx.t("calendar.months").split(",")
    nav = row(
        View(cls="android.widget.ImageButton", id=a("prev"), desc=ctx.t("calendar.prev_month"),
             icon="chevron_left", icon_color=theme.text_secondary, width=48, height=48,
             clickable=True, focusable=True, on_click=step(-1), gravity="center_vertical"),
        text(f"{months[month - 1]} {native_digits(ctx.locale, str(year))}", text_size=14,
             font_weight=500, text_color=theme.text, width=0, weight=1, align="center",
             gravity="center_vertical"),
        View(cls="android.widget.ImageButton", id=a("next"), desc=ctx.t("calendar.next_month"),
             icon="chevron_right", icon_color=theme.text_secondary, width=48, height=48,
             clickable=True, focusable=True, on_click=step(1), gravity="center_vertical"),
        height=48, gravity="center_vertical")
    order = names.order()
    head = row(*[text(names.narrow[d], text_size=12, text_color=theme.text_secondary, width=0,
                      weight=1, align="center") for d in order], height=24)
    first = (order[0] + 1) % 7  # Calendar's numbering, Sunday 0
    weeks = []
    for days in cal.Calendar(firstweekday=(first - 1) % 7).monthdayscalendar(year, month):
        cells = []
        for n in days:
            if not n:
                cells.append(spacer(weight=1))
                continue
            day = dt.date(year, month, n)
            chosen = day == state.picked
            cells.append(View(
                cls="android.view.View", text=native_digits(ctx.locale, str(n)),
                desc=day_desc(ctx, day), text_size=13, width=0, weight=1, height=36,
                align="center", gravity="center_vertical", corner=18,
                bg=accent if chosen else None, selected=chosen,
                text_color=on_accent if chosen else theme.text, clickable=True,
                focusable=True, on_click=pick(day)))
        weeks.append(row(*cells, height=WRAP))
    grid = column(head, *weeks, id=a("month_view"), width=MATCH, height=WRAP,
                  padding=(8, 0, 8, 8))

    def button(bid: str, label: str, handler) -> View:
        return View(cls="android.widget.Button", id=a(bid), text=label.upper(), text_size=14,
                    font_weight=500, text_color=accent, width=WRAP, height=48,
                    padding=(12, 14, 12, 14), clickable=True, focusable=True,
                    on_click=handler, gravity="center_vertical")

    buttons = row(spacer(weight=1), button("button2", ctx.t("clock.picker.cancel"), cancel),
                  button("button1", ctx.t("clock.picker.ok"), lambda: done(state.picked)),
                  id=a("buttonPanel"), height=WRAP, padding=(8, 4, 8, 4))
    picker = column(header, frame(column(nav, grid, width=MATCH, height=WRAP),
                                  id=a("date_picker_day_picker"), width=MATCH, height=WRAP),
                    cls="android.widget.DatePicker", id=a("datePicker"), width=MATCH,
                    height=WRAP)
    return column(picker, buttons, cls="android.widget.FrameLayout", id=a("parentPanel"),
                  width=width, height=WRAP, bg=surface, corner=8, elevation=24)

"""Google Calendar (`com.google.android.calendar`): AllInOneActivity's month view.

The launcher starts `com.android.calendar.AllInOneActivity` (the class keeps AOSP's name).
It shows the month of the virtual clock's today (the title's month name from the string
table, the year in the locale's digits), a grid of weeks starting on Sunday with today
circled, and the create button (`floating_action_button`). No account is signed in, so
the month has no events.
"""

from __future__ import annotations

import calendar as cal

from bmoca.formats.locales import native_digits
from bmoca.sim.apps.base import Activity, App, Context
from bmoca.sim.apps.contacts.ui import icon_button
from bmoca.sim.ui.view import MATCH, WRAP, View, column, frame, icon, row, text

PACKAGE = "com.google.android.calendar"
MAIN = "com.android.calendar.AllInOneActivity"


def kid(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


class AllInOneActivity(Activity):
    def build(self, ctx: Context) -> View:
        dark = ctx.theme.dark
        bg, fg, dim = (((32, 33, 36), (232, 234, 237), (154, 160, 166)) if dark else
                       ((255, 255, 255), (60, 64, 67), (112, 117, 122)))
        accent = (138, 180, 248) if dark else (26, 115, 232)
        today = ctx.today()
        months = ctx.t("calendar.months").split(",")
        days = ctx.t("calendar.weekdays").split(",")

        def num(n: int) -> str:
            return native_digits(ctx.locale, str(n))

        title = row(icon_button(ctx, "menu", ctx.t("calendar.drawer"), None, fg, tooltip=True),
                    text(f"{months[today.month - 1]} {num(today.year)}", text_size=20,
                         text_color=fg, width=0, weight=1, margin=(16, 0, 0, 0),
                         id=kid("date_picker_text_view"), gravity="start|center_vertical"),
                    icon_button(ctx, "today", ctx.t("calendar.today"), None, fg, tooltip=True),
                    height=56, gravity="center_vertical", id=kid("toolbar"))
        head = row(*[text(d, text_size=12, text_color=dim, width=0, weight=1, align="center",
                          gravity="center") for d in days], height=32)
        weeks = []
        for week in cal.Calendar(firstweekday=6).monthdayscalendar(today.year, today.month):
            cells = []
            for day in week:
                mark = day == today.day
                label = text(num(day) if day else "", text_size=12,
                             text_color=(255, 255, 255) if mark else fg, width=24,
                             height=24, corner=12, bg=accent if mark else None,
                             align="center", gravity="center_horizontal")
                cells.append(frame(label, width=0, weight=1, height=MATCH, padding=(0, 4, 0, 0),
                                   cls="android.view.View", gravity="center_horizontal"))
            # the weeks share the height there is (MonthView), so the month always fits
            weeks.append(row(*cells, height=0, weight=1))
        grid = column(head, *weeks, width=MATCH, height=MATCH, id=kid("month_view"))
        fab = frame(icon("add", 36, icon_color=accent, cls="", gravity="center"),
                    cls="android.widget.ImageButton", id=kid("floating_action_button"),
                    desc=ctx.t("calendar.create"), width=WRAP, height=56, corner=16,
                    bg=(48, 49, 52) if dark else (255, 255, 255), elevation=6,
                    padding=(10, 0, 10, 0), clickable=True, gravity="end|bottom",
                    margin=(16, 16, 16, 16))
        return column(title, frame(grid, fab, width=MATCH, height=0, weight=1),
                      width=MATCH, height=MATCH, bg=bg)


class CalendarApp(App):
    package = PACKAGE
    label_key = f"app.{PACKAGE}"
    uid = 10106
    activities = {MAIN: AllInOneActivity}

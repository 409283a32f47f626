"""Expert stages for Google Calendar: a day of the month view, a day in the framework
DatePickerDialog.

The month view's day cells (class `android.view.View` in `month_view`, blank ones
included) run week by week from Sunday, so the expert taps a day by its position, worked
out from the date. The picker's days are SimpleMonthView's virtual views inside `android:id/month_view`, in
day order, so the expert taps the `day`-th of them by position, never by its translated
content-desc; `android:id/next` steps the month forward first when asked.
"""

from __future__ import annotations

import datetime as dt

from bmoca.tasks.experts.base import Action, Expert, ExpertStuck, Screen, click, contains

MONTH_VIEW = "android:id/month_view"
CALENDAR_MONTH = "com.google.android.calendar:id/month_view"


def calendar_day(year: int, month: int, day: int):
    """From the month view showing that month, open the day `year`-`month`-`day`."""
    first = dt.date(int(year), int(month), 1)
    index = (first.weekday() + 1) % 7 + int(day) - 1  # blanks before the 1st, Sunday first

    def stage(screen: Screen, expert: Expert) -> Action | None:
        grid = screen.first(CALENDAR_MONTH)
        if grid is None:
            raise ExpertStuck(f"stage {expert.stage}: no month view on screen")
        cells = [n for n in screen.nodes if n.cls == "android.view.View"
                 and contains(grid.bounds, n.bounds)]
        if len(cells) <= index:
            raise ExpertStuck(f"stage {expert.stage}: the month shows {len(cells)} cells")
        return expert.advance_after(click(cells[index]))

    return stage


def pick_day(day: int, months_ahead: int = 0):
    """From an open date picker, show the month `months_ahead` after the one it opened on
    and tap its day `day` (1-31); the plan's next stage taps OK."""
    day, months_ahead = int(day), int(months_ahead)
    if not 1 <= day <= 31 or months_ahead < 0:
        raise ValueError(f"no such day {day} (+{months_ahead} months)")

    def stage(screen: Screen, expert: Expert) -> Action | None:
        grid = screen.first(MONTH_VIEW)
        if grid is None:
            raise ExpertStuck(f"stage {expert.stage}: no date picker on screen")
        stepped = expert.scratch.get("stepped", 0)
        if stepped < months_ahead:
            expert.scratch["stepped"] = stepped + 1
            return click(screen.first("android:id/next"))
        days = [n for n in screen.nodes if n.cls == "android.view.View" and n.desc
                and contains(grid.bounds, n.bounds)]
        if len(days) < day:
            raise ExpertStuck(f"stage {expert.stage}: the month has {len(days)} days")
        return expert.advance_after(click(days[day - 1]))

    return stage


STAGES = {"pick_day": pick_day, "calendar_day": calendar_day}

"""Google Calendar (`com.google.android.calendar`): AllInOneActivity.

The launcher starts `com.android.calendar.AllInOneActivity` (the class keeps AOSP's name).
It opens on the month of the virtual clock's today (the title's month name from the
string table, the year in the locale's digits): a grid of weeks starting on Sunday with
today circled and, in each day, a coloured chip with the title of each of its events
(three at most, then "+N"), read from the Calendar provider (`calendar.db`). A horizontal
swipe moves a month, "Jump to Today" comes back. A tap on a day opens that day's events
(`event.day_list`), a tap on an event its detail page (`event.detail`). The create button
(`floating_action_button`) opens the speed dial; its "Event" opens the edit screen
(`edit.py`) for a new event on the day shown (today in the month view). The phone has no
Google account, so there is only the local calendar, and the speed dial offers only
Event (Reminder and Goal need an account). Screens inside the activity are its fragments
on a phone: BACK closes the picker, menu or dialog first, then the edit screen, the detail
page and the day, in that order.
"""

from __future__ import annotations

import calendar as cal
import datetime as dt

from bmoca.formats.locales import native_digits
from bmoca.sim.apps.alert_dialog import dialog_card
from bmoca.sim.apps.base import Activity, App, Context, Swipe
from bmoca.sim.apps.calendar import edit as editing
from bmoca.sim.apps.calendar.date_picker import DatePickerState, date_picker
from bmoca.sim.apps.calendar.edit import EditState, edit_screen, kid
from bmoca.sim.apps.calendar.event import CHIP, day_list, detail, more_menu, title_of
from bmoca.sim.apps.clock.picker import Picker, PickerState
from bmoca.sim.apps.contacts.ui import icon_button
from bmoca.sim.system import calendar_provider as provider
from bmoca.sim.ui.view import MATCH, WRAP, View, column, frame, icon, row, text

PACKAGE = "com.google.android.calendar"
MAIN = "com.android.calendar.AllInOneActivity"
CHIPS_PER_DAY = 3


class AllInOneActivity(Activity):
    def __init__(self, intent) -> None:
        super().__init__(intent)
        self.month: tuple[int, int] | None = None
        """The (year, month) shown; None: today's."""
        self.day: dt.date | None = None
        self.event_id: int | None = None
        self.edit: EditState | None = None
        self.speed_dial = False
        self.menu_open = False
        self.confirm_delete = False
        self.time_field = ""
        self.time_picker: PickerState | None = None
        self.date_picker: DatePickerState | None = None

    @property
    def popup_dialog(self) -> bool:  # type: ignore[override]
        """The overflow menu is a popup; the pickers and the deletion's confirmation are
        dialogs over a dim."""
        return self.menu_open

    # -- navigation ---------------------------------------------------------------------
    def _close_keyboard(self, ctx: Context) -> None:
        if ctx.record is not None:
            ctx.record.focus = None

    def on_back(self, ctx: Context) -> bool:
        if self.time_picker is not None and self.time_picker.spinner_open:
            self.time_picker.spinner_open = False
        elif self.time_picker is not None or self.date_picker is not None:
            self.time_picker = self.date_picker = None
        elif self.speed_dial or self.menu_open or self.confirm_delete:
            self.speed_dial = self.menu_open = self.confirm_delete = False
        elif self.edit is not None:
            self.edit = None
        elif self.event_id is not None:
            self.event_id = None
        elif self.day is not None:
            self.day = None
        else:
            return False
        self._close_keyboard(ctx)
        return True

    def on_swipe(self, ctx: Context, swipe: Swipe) -> bool:
        if self.edit is not None or self.event_id is not None or self.day is not None:
            return False
        if swipe.direction not in ("left", "right"):
            return False
        year, month = self.month or (ctx.today().year, ctx.today().month)
        forward = (swipe.direction == "left") != ctx.rtl
        index = year * 12 + month - 1 + (1 if forward else -1)
        self.month = (index // 12, index % 12 + 1)
        return True

    def _open_event(self, event_id: int):
        def handler() -> None:
            self.event_id = event_id
        return handler

    def _open_day(self, day: dt.date):
        def handler() -> None:
            self.day = day
        return handler

    # -- screens ------------------------------------------------------------------------
    def build(self, ctx: Context) -> View:
        vfs = ctx.system.state.vfs
        if self.edit is not None:
            return edit_screen(ctx, self.edit, lambda: self._discard(ctx), lambda: self._save(ctx),
                               self._pick_date(ctx), self._pick_time(ctx))
        if self.event_id is not None:
            event = provider.event(vfs, self.event_id)
            if event is not None:
                return detail(ctx, event, lambda: setattr(self, "event_id", None),
                              lambda: self._edit_existing(event),
                              lambda: setattr(self, "menu_open", True))
            self.event_id = None
        return self._main(ctx)

    def _main(self, ctx: Context) -> View:
        theme = ctx.theme
        dark = theme.dark
        bg, fg = ((32, 33, 36), (232, 234, 237)) if dark else ((255, 255, 255), (60, 64, 67))
        accent = (138, 180, 248) if dark else (26, 115, 232)
        today = ctx.today()
        year, month = self.month or (today.year, today.month)
        if self.day is not None:
            year, month = self.day.year, self.day.month
        months = ctx.t("calendar.months").split(",")

        def jump_today() -> None:
            self.month, self.day = None, (today if self.day is not None else None)

        title = row(icon_button(ctx, "menu", ctx.t("calendar.drawer"), None, fg, tooltip=True),
                    text(f"{months[month - 1]} {native_digits(ctx.locale, str(year))}",
                         text_size=20, text_color=fg, width=0, weight=1, margin=(16, 0, 0, 0),
                         id=kid("date_picker_text_view"), gravity="start|center_vertical"),
                    icon_button(ctx, "today", ctx.t("calendar.today"), jump_today, fg,
                                tooltip=True),
                    height=56, gravity="center_vertical", id=kid("toolbar"))
        if self.day is not None:
            content = day_list(ctx, self.day, provider.events(ctx.system.state.vfs, self.day),
                               self._open_event)
        else:
            content = self._month_grid(ctx, year, month, fg, accent)
        if self.speed_dial:  # the button turns into X over a scrim, Event above it
            fab = frame(icon("close", 24, icon_color=(255, 255, 255), cls="", gravity="center"),
                        cls="android.widget.ImageButton", id=kid("floating_action_button"),
                        desc=ctx.t("calendar.close"), width=56, height=56, corner=16,
                        bg=accent, elevation=6, clickable=True, gravity="end|bottom",
                        margin=(16, 16, 16, 16),
                        on_click=lambda: setattr(self, "speed_dial", False))
            scrim = View(cls="", width=MATCH, height=MATCH, bg=bg, alpha=0.9, clickable=True,
                         on_click=lambda: setattr(self, "speed_dial", False))
            overlay = [scrim, self._speed_dial(ctx), fab]
        else:
            overlay = [frame(icon("add", 36, icon_color=accent, cls="", gravity="center"),
                             cls="android.widget.ImageButton", id=kid("floating_action_button"),
                             desc=ctx.t("calendar.create"), width=WRAP, height=56, corner=16,
                             bg=(48, 49, 52) if dark else (255, 255, 255), elevation=6,
                             padding=(10, 0, 10, 0), clickable=True, gravity="end|bottom",
                             margin=(16, 16, 16, 16),
                             on_click=lambda: setattr(self, "speed_dial", True))]
        return column(title, frame(content, *overlay, width=MATCH, height=0, weight=1),
                      width=MATCH, height=MATCH, bg=bg)

    def _month_grid(self, ctx: Context, year: int, month: int, fg, accent) -> View:
        dim = (154, 160, 166) if ctx.theme.dark else (112, 117, 122)
        today = ctx.today()
        days = ctx.t("calendar.weekdays").split(",")
        first = dt.date(year, month, 1)
        last = dt.date(year + month // 12, month % 12 + 1, 1)
        by_day: dict[dt.date, list[provider.Event]] = {}
        lo, hi = provider.day_start_ms(first), provider.day_start_ms(last)
        for event in provider.events(ctx.system.state.vfs):
            if event.dtstart >= hi or max(event.dtend, event.dtstart + 1) <= lo:
                continue
            day = max(event.start.date(), first)
            end = (event.end - dt.timedelta(milliseconds=1)).date()
            while day <= end and day < last:
                by_day.setdefault(day, []).append(event)
                day += dt.timedelta(days=1)
            if end < event.start.date():
                by_day.setdefault(event.start.date(), []).append(event)

        def num(n: int) -> str:
            return native_digits(ctx.locale, str(n))

        head = row(*[text(d, text_size=12, text_color=dim, width=0, weight=1, align="center",
                          gravity="center") for d in days], height=32)
        weeks = []
        for week in cal.Calendar(firstweekday=6).monthdayscalendar(year, month):
            cells = []
            for n in week:
                date = dt.date(year, month, n) if n else None
                mark = date == today
                label = text(num(n) if n else "", text_size=12,
                             text_color=(255, 255, 255) if mark else fg, width=24,
                             height=24, corner=12, bg=accent if mark else None,
                             align="center", gravity="center_horizontal")
                found = by_day.get(date, []) if date else []
                chips = [text(title_of(ctx, e), text_size=10, text_color=(255, 255, 255),
                              bg=CHIP, corner=2, width=MATCH, height=16, padding=(2, 1, 2, 1),
                              margin=(1, 1, 1, 0), id=kid("chip"))
                         for e in found[:CHIPS_PER_DAY]]
                if len(found) > CHIPS_PER_DAY:
                    chips.append(text(f"+{num(len(found) - CHIPS_PER_DAY)}", text_size=10,
                                      text_color=fg, width=MATCH, align="center"))
                cells.append(column(label, *chips, width=0, weight=1, height=MATCH,
                                    padding=(0, 4, 0, 0), cls="android.view.View",
                                    gravity="center_horizontal", clickable=date is not None,
                                    on_click=self._open_day(date) if date else None))
            # the weeks share the height there is (MonthView), so the month always fits
            weeks.append(row(*cells, height=0, weight=1))
        return column(head, *weeks, width=MATCH, height=MATCH, id=kid("month_view"))

    # -- editing ------------------------------------------------------------------------
    def _new_event(self, ctx: Context) -> None:
        self.speed_dial = False
        self.edit = editing.new_event(ctx.now(), self.day or ctx.today())
        if ctx.record is not None:
            ctx.record.focus = kid("title")  # the title field takes focus, the keyboard opens

    def _edit_existing(self, event: provider.Event) -> None:
        self.edit = editing.from_event(event)

    def _discard(self, ctx: Context) -> None:
        self.edit = None
        self._close_keyboard(ctx)

    def _save(self, ctx: Context) -> None:
        state = self.edit
        if state is None:
            return
        timezone = ctx.system.state.props.get("persist.sys.timezone", "GMT") or "GMT"
        values = editing.values(state, timezone)
        if values is None:
            state.error = True
            return
        vfs = ctx.system.state.vfs
        if state.event_id is None:
            provider.insert_event(vfs, values)
        else:
            del values["calendar_id"]
            provider.update_event(vfs, state.event_id, values)
        if self.day is not None:
            self.day = state.start.date()
        elif state.event_id is None:
            self.month = (state.start.year, state.start.month)
        self.edit = None
        self._close_keyboard(ctx)

    def _pick_date(self, ctx: Context):
        def handler(which: str) -> None:
            if self.edit is None:
                return
            day = (self.edit.start if which == "start" else self.edit.end).date()
            self.date_picker = DatePickerState(which, day, (day.year, day.month))
            self._close_keyboard(ctx)
        return handler

    def _pick_time(self, ctx: Context):
        def handler(which: str) -> None:
            if self.edit is None:
                return
            moment = self.edit.start if which == "start" else self.edit.end
            self.time_field = which
            self.time_picker = PickerState(alarm_id=None, hour=moment.hour, minute=moment.minute)
            self._close_keyboard(ctx)
        return handler

    def _date_picked(self, day: dt.date) -> None:
        state, picker = self.edit, self.date_picker
        self.date_picker = None
        if state is None or picker is None:
            return
        moment = state.start if picker.field == "start" else state.end
        moved = moment.replace(year=day.year, month=day.month, day=day.day)
        (editing.set_start if picker.field == "start" else editing.set_end)(state, moved)

    def _time_picked(self, hour: int, minute: int) -> None:
        state = self.edit
        self.time_picker = None
        if state is None:
            return
        moment = state.start if self.time_field == "start" else state.end
        moved = moment.replace(hour=hour, minute=minute)
        (editing.set_start if self.time_field == "start" else editing.set_end)(state, moved)

    def _delete(self, ctx: Context) -> None:
        if self.event_id is not None:
            provider.delete_event(ctx.system.state.vfs, self.event_id)
        self.event_id, self.confirm_delete = None, False

    # -- dialogs ------------------------------------------------------------------------
    def dialog(self, ctx: Context) -> View | None:
        if self.time_picker is not None:
            return Picker(ctx, self.time_picker, self._time_picked,
                          lambda: setattr(self, "time_picker", None)).build()
        if self.date_picker is not None:
            return date_picker(ctx, self.date_picker, self._date_picked,
                               lambda: setattr(self, "date_picker", None))
        if self.confirm_delete:
            return dialog_card(ctx, "", ctx.t("calendar.delete_confirm"), [
                ("button2", ctx.t("clock.picker.cancel"),
                 lambda: setattr(self, "confirm_delete", False)),
                ("button1", ctx.t("calendar.delete"), lambda: self._delete(ctx))])
        if self.menu_open:
            def ask() -> None:
                self.menu_open, self.confirm_delete = False, True
            return more_menu(ctx, ask)
        return None

    def _speed_dial(self, ctx: Context) -> View:
        """The speed dial's one item, Event, above the create button."""
        theme = ctx.theme
        accent = (138, 180, 248) if theme.dark else (26, 115, 232)
        surface = (48, 49, 52) if theme.dark else (255, 255, 255)
        return row(text(ctx.t("calendar.event"), text_size=14, font_weight=500,
                        text_color=theme.text, bg=surface, corner=4, elevation=2,
                        padding=(12, 6, 12, 6), width=WRAP, gravity="center_vertical",
                        margin=(0, 0, 16, 0)),
                   frame(icon("event", 24, icon_color=accent, cls="", gravity="center"),
                         cls="", width=40, height=40, corner=20, bg=surface, elevation=4,
                         gravity="center_vertical"),
                   id=kid("speed_dial_event"), desc=ctx.t("calendar.event"), width=WRAP,
                   height=48, clickable=True, focusable=True, gravity="end|bottom",
                   on_click=lambda: self._new_event(ctx), margin=(16, 16, 24, 88))


class CalendarApp(App):
    package = PACKAGE
    label_key = f"app.{PACKAGE}"
    uid = 10106
    activities = {MAIN: AllInOneActivity}

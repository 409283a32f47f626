"""Clock (`com.google.android.deskclock`): Google Clock 6.x as Android 10's Pixel 3 ships it.

A tab strip at the top (Alarm, Clock, Timer, Stopwatch: items with a content-desc and
`selected`), the page below, and the floating action button at the bottom centre with
the stopwatch's and timer's side buttons. Clock 6.x has one dark look whatever the system
theme (the light theme came with Clock 7); the dialogs are the framework's.

- Alarm: the cards of `alarm_recycler_view` (see `model.py` for what changes do, and
  `picker.py` for the time picker). The day buttons are always shown on an expanded
  card, as in Clock 6.x: tapping one turns repeating on; `repeat_onoff` selects every day
  when checked and clears them when unchecked (AOSP's rule).
- Clock: the time and date; Timer: the digit keypad and a running timer; Stopwatch: time
  from the virtual clock, Start/Pause, Reset, Lap and the laps.

The selected tab is remembered across launches; the first launch shows Clock (AOSP's
default). A tap on another tab logs `Events: [Alarm] [Show Tab] [Tap]`; a pager swipe
logs the same with `[Swipe]`; re-tapping the shown tab logs nothing.

AlarmClock.ACTION_SET_ALARM goes to `HandleApiCalls` (api.py), as on a real phone.
"""

from __future__ import annotations

from bmoca.formats.locales import native_digits
from bmoca.formats.weekdays import week
from bmoca.sim.apps.base import Activity, App, Context, Swipe
from bmoca.sim.apps.clock import model
from bmoca.sim.apps.clock.api import (
    ACTION_PAUSE_STOPWATCH,
    ACTION_SET_ALARM,
    ACTION_SET_TIMER,
    ACTION_START_STOPWATCH,
    CREATE_NEW,
    HANDLE_API_CALLS,
    HANDLE_SHORTCUTS,
    SCROLL_TO_ALARM,
    TIMER_SETUP,
    HandleApiCalls,
    HandleShortcuts,
)
from bmoca.sim.apps.clock.picker import AMPM_FIRST, Picker, PickerState
from bmoca.sim.apps.longpress import focus_field
from bmoca.sim.system.intent import Intent
from bmoca.sim.ui.layout import dimension_px
from bmoca.sim.ui.view import MATCH, WRAP, View, column, frame, icon, row, scroller, spacer, text

PACKAGE = model.PACKAGE
ACTIVITY = model.ACTIVITY
TAB_CLASS = "rk"
"""The tab items' class as uiautomator reports it (ProGuard-renamed in Google Clock)."""
SCREENSAVER = "com.android.deskclock.ScreensaverActivity"
ACTION_SHOW_ALARMS = model.ACTION_SHOW_ALARMS
TAB_ICONS = {"alarm": "alarm", "clock": "schedule", "timer": "hourglass_empty",
             "stopwatch": "timer"}
COLORS = {"bg": (32, 33, 36), "card": (45, 46, 49), "text": (232, 234, 237),
          "muted": (154, 160, 166), "accent": (138, 180, 248), "on_accent": (32, 33, 36),
          "divider": (60, 64, 67)}


def cid(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


def format_time(ctx: Context, hour: int, minute: int) -> str:
    """The alarm and clock time as the locale writes it (`9:00 AM`, `오전 9:00`, `09:00`), in
    the locale's digits (DateFormat writes Arabic-Indic ones in ar-EG)."""
    return native_digits(ctx.locale, _format_time(ctx, hour, minute))


def _format_time(ctx: Context, hour: int, minute: int) -> str:
    lang = ctx.locale.split("-")[0]
    if ctx.is_24_hour:
        if ctx.locale == "fr-CA":
            return f"{hour:02d} h {minute:02d}"
        return f"{hour}:{minute:02d}" if lang == "ja" else f"{hour:02d}:{minute:02d}"
    marker = ctx.t("clock.pm" if hour >= 12 else "clock.am")
    h12 = hour % 12 or 12
    return f"{marker} {h12}:{minute:02d}" if lang in AMPM_FIRST else f"{h12}:{minute:02d} {marker}"


def _list_separator(locale: str) -> str:
    lang = locale.split("-")[0]
    return {"ar": "، ", "ur": "، ", "zh": "、", "ja": "、"}.get(lang, ", ")


def days_summary(ctx: Context, mask: int) -> str:
    if mask == 127:
        return ctx.t("clock.every_day")
    names = week(ctx.locale)
    return _list_separator(ctx.locale).join(
        names.short[d] for d in names.order() if mask >> d & 1)


def draw_checkbox(canvas, view: View) -> None:
    """A CheckBox: the box at the start, its label after it."""
    from bmoca.sim.render import icons
    from bmoca.sim.render.text import get_text_renderer

    left, top, right, bottom = view.bounds
    size = canvas.px(24)
    color = COLORS["accent"] if view.checked else COLORS["muted"]
    sprite = icons.icon("check_box" if view.checked else "check_box_outline_blank", size, color,
                        filled=view.checked)
    y = (top + bottom - size) // 2
    bx = right - size if canvas.rtl else left
    canvas.paste(sprite, bx, y, view.clip)
    if view.text:
        px = int(view.text_size * canvas.scale * canvas.font_scale + 0.5)
        label = get_text_renderer().label(view.text, px, COLORS["text"], 400, canvas.locale)
        gap = canvas.px(16)
        tx = bx - gap - label.width if canvas.rtl else bx + size + gap
        canvas.paste(label, tx, (top + bottom - label.height) // 2, view.clip)


class DeskClock(Activity):
    bar_color = COLORS["bg"]

    def __init__(self, intent: Intent):
        super().__init__(intent)
        self.picker: PickerState | None = None
        self.expanded: int | None = None
        self.menu_open = False
        self.label_edit: tuple[int, str] | None = None

    # -- life cycle -----------------------------------------------------------------------
    def on_create(self, ctx: Context) -> None:
        data = model.load(ctx)
        action = self.intent.action
        if action in (ACTION_START_STOPWATCH, ACTION_PAUSE_STOPWATCH):
            data.tab = "stopwatch"
            if action == ACTION_START_STOPWATCH:  # a no-op after HandleShortcuts started it
                model.stopwatch_start(ctx, label="Intent")
        elif self.intent.extras.get(TIMER_SETUP):
            data.tab = "timer"
        elif action == ACTION_SHOW_ALARMS:
            data.tab = "alarm"
            if SCROLL_TO_ALARM in self.intent.extras:  # from HandleApiCalls
                self.expanded = self.intent.extras[SCROLL_TO_ALARM]
            elif self.intent.extras.get(CREATE_NEW):
                self._new_alarm(ctx)()

    def on_resume(self, ctx: Context) -> None:
        model.load(ctx)

    def on_back(self, ctx: Context) -> bool:
        if self.picker is not None:
            if self.picker.spinner_open:
                self.picker.spinner_open = False
            else:
                self.picker = None
                if ctx.record is not None:
                    ctx.record.focus = None
            return True
        if self.label_edit is not None or self.menu_open:
            self.label_edit, self.menu_open = None, False
            if ctx.record is not None:
                ctx.record.focus = None
            return True
        return False

    def on_swipe(self, ctx: Context, swipe: Swipe) -> bool:
        if swipe.direction not in ("left", "right"):
            return False
        data = model.data_of(ctx)
        step = 1 if (swipe.direction == "left") != ctx.rtl else -1
        index = model.TABS.index(data.tab) + step
        if 0 <= index < len(model.TABS):
            self.select_tab(ctx, model.TABS[index], "Swipe")
        return True

    def select_tab(self, ctx: Context, tab: str, label: str = "Tap") -> None:
        data = model.data_of(ctx)
        if tab != data.tab:
            data.tab = tab
            model.event(ctx, model.EVENT_CATEGORY[tab], "Show Tab", label)

    # -- frame ------------------------------------------------------------------------------
    def build(self, ctx: Context) -> View:
        data = model.data_of(ctx)
        page = {"alarm": self._alarm_page, "clock": self._clock_page, "timer": self._timer_page,
                "stopwatch": self._stopwatch_page}[data.tab](ctx, data)
        main = column(self._app_bar(ctx, data),
                      frame(page, cls="android.view.ViewGroup", id=cid("desk_clock_pager"),
                            width=MATCH, height=0, weight=1,
                            on_swipe=lambda s: self.on_swipe(ctx, s)),
                      cls="", width=MATCH, height=MATCH)
        content = frame(main, self._fab_bar(ctx, data), cls="android.view.ViewGroup",
                        id=cid("content"), width=MATCH, height=MATCH, bg=COLORS["bg"])
        return column(content, cls="android.widget.LinearLayout", id=cid("action_bar_root"),
                      width=MATCH, height=MATCH, bg=COLORS["bg"])

    def _app_bar(self, ctx: Context, data: model.ClockData) -> View:
        items = []
        for tab in model.TABS:
            chosen = tab == data.tab
            color = COLORS["accent"] if chosen else COLORS["muted"]
            label = ctx.t(f"clock.tab.{tab}")
            items.append(column(
                icon(TAB_ICONS[tab], 24, cls="android.widget.ImageView", icon_color=color,
                     icon_filled=chosen, gravity="center_horizontal"),
                text(label, text_size=14, text_color=color, font_weight=500,
                     gravity="center_horizontal", margin=(0, 4, 0, 0)),
                cls=TAB_CLASS, desc=label, clickable=True, focusable=True, selected=chosen,
                width=0, weight=1, height=MATCH, padding=(2, 10, 2, 6),
                on_click=lambda t=tab: self.select_tab(ctx, t)))
        tabs = View(cls="android.widget.HorizontalScrollView", id=cid("tabs"), width=0,
                    weight=1, height=MATCH, children=[
                        row(*items, cls="android.widget.LinearLayout", height=MATCH)])
        # The tabs show their labels, so TabLayout gives them no tooltip (a held tab is
        # tapped on release); the overflow is AppCompat's, long-clickable with a tooltip
        # (`contacts.ui.overflow_button`): held, it shows "More options" and opens nothing.
        overflow = View(cls="android.widget.ImageView", desc=ctx.t("clock.more_options"),
                        icon="more_vert", icon_color=COLORS["muted"], width=48, height=MATCH,
                        clickable=True, focusable=True, long_clickable=True,
                        tooltip=ctx.t("clock.more_options"),
                        on_click=lambda: setattr(self, "menu_open", True))
        toolbar = row(tabs, overflow, cls="android.view.ViewGroup", id=cid("toolbar"),
                      height=72)
        return column(toolbar, cls="android.widget.LinearLayout", id=cid("app_bar_layout"),
                      width=MATCH, height=WRAP, bg=COLORS["bg"])

    def _fab_bar(self, ctx: Context, data: model.ClockData) -> View:
        t = ctx.t
        tab = data.tab
        left = right = None
        fab_icon, fab_desc, fab_action = "add", t("clock.add_alarm"), self._new_alarm(ctx)
        show_fab = True
        if tab == "clock":
            fab_icon, fab_desc, fab_action = "language", t("clock.cities"), None
        elif tab == "timer":
            timer = data.timer
            if timer is None:
                fab_icon, fab_desc = "play_arrow", t("clock.start")
                fab_action = lambda: model.timer_start(ctx)  # noqa: E731
                show_fab = bool(data.timer_digits.strip("0"))
            else:
                fab_icon = "pause" if timer.running else "play_arrow"
                fab_desc = t("clock.pause") if timer.running else t("clock.start")
                fab_action = lambda: model.timer_toggle(ctx)  # noqa: E731
                left = (t("clock.delete"), lambda: model.timer_delete(ctx))
        elif tab == "stopwatch":
            sw = data.stopwatch
            fab_icon = "pause" if sw.running else "play_arrow"
            fab_desc = t("clock.pause") if sw.running else t("clock.start")
            fab_action = (lambda: model.stopwatch_pause(ctx)) if sw.running else (
                lambda: model.stopwatch_start(ctx))
            if not sw.reset:
                left = (t("clock.reset"), lambda: model.stopwatch_reset(ctx))
                right = (t("clock.lap"), lambda: model.stopwatch_lap(ctx)) if sw.running else (
                    t("clock.share"), lambda: None)

        def side(bid: str, spec) -> View:
            if spec is None:
                return spacer(width=0, weight=1)
            label, handler = spec
            return frame(View(cls="android.widget.Button", id=cid(bid), text=label.upper(),
                              desc=label, text_size=14, font_weight=500,
                              text_color=COLORS["accent"], width=WRAP, height=48,
                              padding=(12, 14, 12, 14), clickable=True, focusable=True,
                              on_click=handler, gravity="center"),
                         cls="", width=0, weight=1, height=WRAP)

        fab = View(cls="android.widget.ImageButton", id=cid("fab"), desc=fab_desc, icon=fab_icon,
                   icon_color=COLORS["on_accent"], icon_size=28, width=64, height=64,
                   corner=32, bg=COLORS["accent"], elevation=6, clickable=True, focusable=True,
                   on_click=fab_action, visible=show_fab, gravity="center_vertical")
        return row(side("left_button", left), frame(fab, cls="", width=64, height=64),
                   side("right_button", right), cls="android.widget.FrameLayout",
                   id=cid("fab_container"), height=WRAP, gravity="bottom",
                   padding=(16, 8, 16, 20))

    # -- alarm page -------------------------------------------------------------------------
    def _new_alarm(self, ctx: Context):
        def handler() -> None:
            now = ctx.now()
            self.picker = PickerState(alarm_id=None, hour=now.hour, minute=now.minute)
        return handler

    def _alarm_page(self, ctx: Context, data: model.ClockData) -> View:
        if not data.alarms:
            return column(
                icon("alarm", 72, icon_color=COLORS["muted"], gravity="center_horizontal"),
                text(ctx.t("clock.no_alarms"), id=cid("alarms_empty_view"), text_size=18,
                     text_color=COLORS["muted"], gravity="center_horizontal",
                     margin=(0, 16, 0, 0)),
                cls="android.widget.LinearLayout", width=MATCH, height=MATCH,
                padding=(0, 120, 0, 0))
        alarms = sorted(data.alarms, key=lambda a: (a.hour, a.minutes, a.id))
        cards = [self._card(ctx, a) for a in alarms]
        return scroller(*cards, spacer(height=104), key="alarms",
                        cls="androidx.recyclerview.widget.RecyclerView",
                        id=cid("alarm_recycler_view"), width=MATCH, padding=(0, 4, 0, 0))

    def _card(self, ctx: Context, alarm) -> View:
        t = ctx.t
        expanded = self.expanded == alarm.id
        time_text = format_time(ctx, alarm.hour, alarm.minutes)

        def toggle_expand() -> None:
            self.expanded = None if expanded else alarm.id

        def open_picker() -> None:
            self.picker = PickerState(alarm_id=alarm.id, hour=alarm.hour, minute=alarm.minutes)

        def switch() -> None:
            model.update_alarm(ctx, alarm.id, enabled=not alarm.enabled)

        from bmoca.sim.render.widgets import draw_switch

        top = row(
            text(time_text, id=cid("digital_clock"), desc=time_text, text_size=44,
                 font_weight=300, text_color=COLORS["text"] if alarm.enabled else COLORS["muted"],
                 clickable=True, focusable=True, on_click=open_picker, gravity="center_vertical"),
            spacer(weight=1),
            View(cls="android.widget.Switch", id=cid("onoff"),
                 text=t("clock.switch.on") if alarm.enabled else t("clock.switch.off"),
                 checkable=True, checked=alarm.enabled, clickable=True, focusable=True,
                 width=52, height=40, draw=draw_switch, text_color=(0, 0, 0, 0),
                 on_click=switch, gravity="center_vertical"),
            height=WRAP, gravity="center_vertical")
        arrow = View(cls="android.widget.ImageButton", id=cid("arrow"),
                     desc=t("clock.collapse_alarm") if expanded else t("clock.expand_alarm"),
                     icon="expand_less" if expanded else "expand_more",
                     icon_color=COLORS["muted"], width=40, height=40, clickable=True,
                     focusable=True, on_click=toggle_expand, gravity="center_vertical")
        if alarm.daysofweek:
            when = text(days_summary(ctx, alarm.daysofweek), id=cid("days_of_week"),
                        text_size=14, text_color=COLORS["muted"], gravity="center_vertical")
        else:
            moment = model.next_time(alarm, ctx.now())
            today = moment.date() == ctx.now().date()
            when = text(t("clock.today") if today else t("clock.tomorrow"),
                        id=cid("upcoming_instance_label"), text_size=14,
                        text_color=COLORS["muted"], gravity="center_vertical")
        label = text(alarm.label, id=cid("label"), text_size=14, text_color=COLORS["muted"],
                     visible=bool(alarm.label))
        if not expanded:
            parts = [label, top, row(when, spacer(weight=1), arrow, height=WRAP,
                                     gravity="center_vertical")]
        else:
            parts = [row(label, spacer(weight=1), arrow, height=WRAP, gravity="center_vertical"),
                     top, *self._expanded_parts(ctx, alarm)]
        return column(*parts, cls="android.widget.FrameLayout", width=MATCH, height=WRAP,
                      bg=COLORS["card"], corner=8, margin=(8, 4, 8, 4), padding=(16, 8, 8, 8),
                      clickable=True, focusable=True, on_click=toggle_expand)

    def _expanded_parts(self, ctx: Context, alarm) -> list[View]:
        t = ctx.t
        names = week(ctx.locale)
        slot = _day_slot_dp(ctx.system)
        size = max(24.0, min(40.0, slot - 4))

        def day_button(day: int) -> View:
            on = bool(alarm.daysofweek >> day & 1)

            def flip() -> None:
                model.update_alarm(ctx, alarm.id, days=alarm.daysofweek ^ (1 << day))

            return frame(View(cls="android.widget.CheckBox", id=cid("day_button_box"),
                              text=names.narrow[day], desc=names.full[day], checkable=True,
                              checked=on, clickable=True, focusable=True, width=size,
                              height=size, corner=size / 2, align="center", text_size=14,
                              font_weight=500,
                              text_color=COLORS["on_accent"] if on else COLORS["text"],
                              bg=COLORS["accent"] if on else None,
                              border=None if on else COLORS["muted"], on_click=flip,
                              gravity="center"),
                         cls="", width=slot, height=WRAP)

        def repeat() -> None:
            model.update_alarm(ctx, alarm.id, days=0 if alarm.daysofweek else 127)

        def vibrate() -> None:
            model.update_alarm(ctx, alarm.id, vibrate=not alarm.vibrate)

        def edit_label() -> None:
            self.label_edit = (alarm.id, alarm.label)
            if ctx.record is not None:
                ctx.record.focus = cid("label_input_field")

        def delete() -> None:
            self.expanded = None
            model.delete_alarm(ctx, alarm.id)

        def checkbox(vid: str, label: str, on: bool, handler) -> View:
            return View(cls="android.widget.CheckBox", id=cid(vid), text=label, checkable=True,
                        checked=on, clickable=True, focusable=True, width=WRAP, height=48,
                        padding=(40, 0, 8, 0), text_size=14, draw=draw_checkbox,
                        on_click=handler)

        def icon_row(vid: str, glyph: str, label: str, handler, cls: str) -> View:
            return row(icon(glyph, 24, icon_color=COLORS["muted"], gravity="center_vertical",
                            cls=""),
                       text(label, id=cid(vid), cls=cls, text_size=14, text_color=COLORS["text"],
                            clickable=True, focusable=True, on_click=handler, width=WRAP,
                            height=48, padding=(16, 14, 16, 14), gravity="center_vertical"),
                       height=WRAP, gravity="center_vertical")

        return [
            checkbox("repeat_onoff", t("clock.repeat"), bool(alarm.daysofweek), repeat),
            row(*[day_button(d) for d in names.order()], cls="android.widget.LinearLayout",
                id=cid("repeat_days"), width=WRAP, height=WRAP, padding=(0, 4, 8, 4)),
            icon_row("choose_ringtone", "notifications", t("clock.ringtone_default"),
                     lambda: None, "android.widget.TextView"),
            checkbox("vibrate_onoff", t("clock.vibrate"), alarm.vibrate, vibrate),
            icon_row("edit_label", "label", alarm.label or t("clock.add_label"), edit_label,
                     "android.widget.TextView"),
            icon_row("delete", "delete", t("clock.delete"), delete, "android.widget.Button"),
        ]

    # -- other pages --------------------------------------------------------------------------
    def _clock_page(self, ctx: Context, data: model.ClockData) -> View:
        """`clock_fragment`: the time and date over the world cities; on a landscape screen
        (the tablet's, `layout-land/clock_fragment.xml`) side by side: the clock in
        `main_clock_left_pane`, the start half, and `cities` in the end half."""
        cities = View(cls="androidx.recyclerview.widget.RecyclerView", id=cid("cities"),
                      width=MATCH, height=0, weight=1)
        width, height = ctx.system.screen_dp()
        if width > height:
            clock = column(spacer(height=0, weight=1),
                           *time_and_date(ctx, COLORS["text"], COLORS["muted"]),
                           spacer(height=0, weight=1), cls="android.widget.LinearLayout", id=cid("main_clock_left_pane"),
                           width=0, weight=1, height=MATCH, gravity="center_vertical",
                           margin=(16, 0, 0, 0))
            cities.width, cities.height, cities.weight = 0, MATCH, 1
            return row(clock, cities, cls="android.widget.LinearLayout", width=MATCH,
                       height=MATCH)
        return column(
            *time_and_date(ctx, COLORS["text"], COLORS["muted"]),
            View(cls="", height=1, width=MATCH, bg=COLORS["divider"], margin=(16, 8, 16, 0)),
            cities, cls="android.widget.LinearLayout", width=MATCH, height=MATCH)

    def _timer_page(self, ctx: Context, data: model.ClockData) -> View:
        t = ctx.t
        if data.timer is not None:
            left_s = -(-data.timer.left(ctx.system.state.clock.now_ms) // 1000)
            h, rest = divmod(left_s, 3600)
            m, s = divmod(rest, 60)
            shown = f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"
            return column(
                text(shown, id=cid("timer_time_text"), text_size=56, font_weight=300,
                     text_color=COLORS["text"], gravity="center_horizontal",
                     margin=(0, 96, 0, 0)),
                cls="android.widget.LinearLayout", width=MATCH, height=MATCH)
        h, m, s = model.timer_digits_hms(data.timer_digits)
        setup = (f"{h:02d}{t('clock.unit_h')} {m:02d}{t('clock.unit_m')} "
                 f"{s:02d}{t('clock.unit_s')}")
        desc = t("clock.timer_setup_desc", h=h, m=m, s=s)

        def digit(n: int):
            def handler() -> None:
                if len(data.timer_digits) < 6 and (data.timer_digits or n):
                    data.timer_digits += str(n)
            return handler

        def delete() -> None:
            data.timer_digits = data.timer_digits[:-1]

        def reset() -> None:
            """TimerSetupView.onLongClick: a long press on delete clears every digit."""
            data.timer_digits = ""

        def key(n: int | None) -> View:
            if n is None:
                return spacer(weight=1)
            return View(cls="android.widget.Button", id=cid(f"timer_setup_digit_{n}"), text=str(n),
                        text_size=30, text_color=COLORS["text"], width=0, weight=1, height=MATCH,
                        align="center", clickable=True, focusable=True, on_click=digit(n))

        pad = column(*[row(*[key(n) for n in r], height=0, weight=1, mirror=False)
                       for r in ((1, 2, 3), (4, 5, 6), (7, 8, 9), (None, 0, None))],
                     cls="android.widget.LinearLayout", width=MATCH, height=0, weight=1,
                     padding=(24, 8, 24, 96))
        return column(
            row(spacer(width=48),
                text(setup, id=cid("timer_setup_time"), desc=desc, text_size=40,
                     font_weight=300, text_color=COLORS["text"] if data.timer_digits
                     else COLORS["muted"], width=0, weight=1, align="center",
                     gravity="center_vertical"),
                View(cls="android.widget.ImageButton", id=cid("timer_setup_delete"),
                     desc=t("clock.delete"), icon="backspace", icon_color=COLORS["muted"],
                     width=48, height=48, clickable=True, focusable=True, long_clickable=True,
                     on_click=delete, on_long_click=reset, gravity="center_vertical"),
                height=WRAP, padding=(8, 24, 8, 16), mirror=False),
            pad, cls="android.widget.LinearLayout", width=MATCH, height=MATCH)

    def _stopwatch_page(self, ctx: Context, data: model.ClockData) -> View:
        sw = data.stopwatch
        main, hundredths = model.format_stopwatch(sw.elapsed(ctx.system.state.clock.now_ms))
        laps = []
        previous = 0
        for n, total in enumerate(sw.laps, start=1):
            laps.append(row(
                text(ctx.t("clock.lap_number", n=n), id=cid("lap_number"), text_size=16,
                     text_color=COLORS["muted"], width=0, weight=1),
                text(".".join(model.format_stopwatch(total - previous)), id=cid("lap_time"),
                     text_size=16, text_color=COLORS["text"], width=0, weight=1, align="center"),
                text(".".join(model.format_stopwatch(total)), id=cid("lap_total"), text_size=16,
                     text_color=COLORS["muted"], width=0, weight=1, align="end"),
                height=40, padding=(24, 0, 24, 0), gravity="center_vertical"))
            previous = total
        return column(
            row(text(main, id=cid("stopwatch_time_text"), text_size=64, font_weight=300,
                     text_color=COLORS["text"], gravity="bottom"),
                text(hundredths, id=cid("stopwatch_hundredths_text"), text_size=32,
                     font_weight=300, text_color=COLORS["text"], gravity="bottom",
                     margin=(4, 0, 0, 8)),
                width=WRAP, height=WRAP, mirror=False, gravity="center_horizontal",
                margin=(0, 48, 0, 24)),
            scroller(*reversed(laps), key="laps", cls="androidx.recyclerview.widget.RecyclerView",
                     id=cid("laps_list"), width=MATCH, height=0, weight=1,
                     padding=(0, 0, 0, 104)),
            cls="android.widget.LinearLayout", width=MATCH, height=MATCH)

    # -- dialogs ------------------------------------------------------------------------------
    def dialog(self, ctx: Context) -> View | None:
        if self.picker is not None:
            return Picker(ctx, self.picker, self._picked(ctx), self._cancel_picker(ctx)).build()
        if self.label_edit is not None:
            return self._label_dialog(ctx)
        if self.menu_open:
            return self._menu(ctx)
        return None

    def _picked(self, ctx: Context):
        def done(hour: int, minute: int) -> None:
            state = self.picker
            self.picker = None
            if state is None:
                return
            if state.alarm_id is None:
                alarm = model.create_alarm(ctx, hour, minute)
                self.expanded = alarm.id
            else:
                model.update_alarm(ctx, state.alarm_id, hour=hour, minute=minute)
        return done

    def _cancel_picker(self, ctx: Context):
        def cancel() -> None:
            self.picker = None
            if ctx.record is not None:
                ctx.record.focus = None
        return cancel

    def _label_dialog(self, ctx: Context) -> View:
        t = ctx.t
        alarm_id, value = self.label_edit  # type: ignore[misc]

        def on_text(new: str) -> None:
            self.label_edit = (alarm_id, new)

        def close(save: bool):
            def handler() -> None:
                if save and self.label_edit is not None:
                    model.update_alarm(ctx, alarm_id, label=self.label_edit[1])
                self.label_edit = None
                if ctx.record is not None:
                    ctx.record.focus = None
            return handler

        def button(bid: str, label: str, handler) -> View:
            return View(cls="android.widget.Button", id=f"android:id/{bid}", text=label.upper(),
                        text_size=14, font_weight=500, text_color=COLORS["accent"], width=WRAP,
                        height=48, padding=(12, 14, 12, 14), clickable=True, focusable=True,
                        on_click=handler)

        card = column(
            text(t("clock.label"), id="android:id/alertTitle", text_size=20, font_weight=500,
                 text_color=COLORS["text"], width=MATCH),
            View(cls="android.widget.EditText", id=cid("label_input_field"), text=value,
                 text_size=18, text_color=COLORS["text"], width=MATCH, height=48,
                 clickable=True, focusable=True, long_clickable=True, on_text=on_text,
                 on_long_click=focus_field(ctx, cid("label_input_field")), on_submit=close(True),
                 margin=(0, 16, 0, 0), gravity="center_vertical"),
            row(spacer(weight=1), button("button2", t("clock.picker.cancel"), close(False)),
                button("button1", t("clock.label_ok"), close(True)), height=WRAP,
                margin=(0, 16, 0, 0)),
            cls="android.widget.FrameLayout", id="android:id/parentPanel", width=MATCH,
            height=WRAP, margin=(32, 0, 32, 0), padding=(24, 20, 16, 8), bg=(48, 49, 52),
            corner=8, elevation=24)
        _w, height_dp = ctx.system.screen_dp()
        return column(card, spacer(height=(height_dp - 72) * 0.40), width=MATCH, height=WRAP,
                      cls="android.widget.FrameLayout")

    def _menu(self, ctx: Context) -> View:
        def close() -> None:
            self.menu_open = False

        items = [text(ctx.t(f"clock.menu.{key}"), id="android:id/title", text_size=16,
                      text_color=COLORS["text"], width=MATCH, height=48, padding=(16, 14, 16, 14),
                      clickable=True, focusable=True, on_click=close)
                 for key in ("screensaver", "settings", "feedback", "help")]
        menu = column(*items, cls="android.widget.ListView", width=200, height=WRAP,
                      bg=(48, 49, 52), corner=4, elevation=8, gravity="top|end",
                      margin=(0, 8, 8, 0))
        return frame(menu, cls="android.widget.FrameLayout", width=MATCH, height=MATCH,
                     on_click=close)


def time_and_date(ctx: Context, time_color, date_color) -> tuple[View, View]:
    """The digital clock and the date under it (the Clock tab's, the screen saver's)."""
    now = ctx.now()
    names = week(ctx.locale)
    month = ctx.t(f"date.month_short.{now.month}")
    day = native_digits(ctx.locale, str(now.day))
    short = ctx.t("format.glance_date", weekday=names.short[now.weekday()], month=month,
                  day=day)
    full = ctx.t("format.glance_date", weekday=names.full[now.weekday()], month=month, day=day)
    shown = format_time(ctx, now.hour, now.minute)
    return (text(shown, cls="android.widget.TextView", id=cid("digital_clock"), desc=shown,
                 text_size=56, font_weight=300, text_color=time_color,
                 gravity="center_horizontal", margin=(0, 32, 0, 0)),
            text(short.upper(), id=cid("date"), desc=full, text_size=14, text_color=date_color,
                 gravity="center_horizontal", margin=(0, 4, 0, 16)))


class ScreensaverActivity(Activity):
    """`ScreensaverActivity` (the "Screen saver" launcher shortcut): the time and the date,
    dimmed, on black over the whole screen (`saver_container` → `main_clock`); its
    onUserInteraction finishes it, so any touch, swipe or key ends it."""

    fullscreen = True
    bar_color = (0, 0, 0)

    def build(self, ctx: Context) -> View:
        clock = column(*time_and_date(ctx, (160, 160, 160), (120, 120, 120)),
                       cls="android.widget.LinearLayout", id=cid("main_clock"), width=WRAP,
                       height=WRAP, gravity="center")
        return frame(clock, id=cid("saver_container"), width=MATCH, height=MATCH,
                     bg=(0, 0, 0), on_click=ctx.finish)

    def on_swipe(self, ctx: Context, swipe: Swipe) -> bool:
        ctx.finish()
        return True


class ClockApp(App):
    package = PACKAGE
    label_key = f"app.{PACKAGE}"
    uid = 10105
    activities = {ACTIVITY: DeskClock, HANDLE_API_CALLS: HandleApiCalls,
                  HANDLE_SHORTCUTS: HandleShortcuts, SCREENSAVER: ScreensaverActivity}
    intent_actions = {ACTION_SHOW_ALARMS: ACTIVITY, ACTION_START_STOPWATCH: ACTIVITY,
                      ACTION_SET_ALARM: HANDLE_API_CALLS, ACTION_SET_TIMER: HANDLE_API_CALLS}

    def initial_data(self) -> model.ClockData:
        return model.ClockData()

    def on_boot(self, ctx: Context) -> None:
        model.ensure_db(ctx)
        model.load(ctx)

    def on_broadcast(self, ctx: Context, action: str) -> None:
        if action in ("android.intent.action.TIME_SET", "android.intent.action.TIMEZONE_CHANGED"):
            model.time_set(ctx)


def _day_slot_dp(system) -> float:
    """Width of one repeat-day slot: a seventh of the expanded card's inner width, at most
    56 dp. Why the pixel clamp: each slot rounds to whole pixels on its own, so seven
    rounded-up slots could overrun the card (4 px at 550 dpi) and cut off Saturday."""
    scale = system.density / 160
    width_px = system.screen_px()[0]
    slot = min(56.0, (width_px / scale - 16 - 24) / 7)

    def px(dp: float) -> int:
        return dimension_px(dp, scale)  # as layout rounds each slot

    inner_px = width_px - 2 * px(8) - px(16) - px(8)
    if 7 * px(slot) > inner_px:
        slot = (inner_px // 7) / scale
    return slot

"""The framework TimePickerDialog as Google Clock shows it: the radial dial (clock mode)
and the keyboard entry (text mode), with Android 10's ids.

Dial numbers are the accessibility virtual views of `android:id/radial_picker`, dumped
with class `android.widget.RadialTimePickerView.RadialPickerTouchHelper`, content-desc
`1`..`12` (or `0`..`23` in 24-hour mode) and then the minutes `0`, `5` .. `55`, each a
square of the selector's size around its number. A touch anywhere on the dial picks the
nearest value by its angle from the centre (and, for 24-hour hours, the ring by its
distance: 00 and 13-23 outside, 1-12 inside, as Android draws them). Picking an hour
moves on to the minutes. The dial is never mirrored; the button bar is.

12- or 24-hour: `Context.is_24_hour`, the `time_12_24` setting or else the locale (`format.hour_cycle`:
12 for en-US, es-US, hi-IN, ar, ak-GH, ko-KR, ur-PK; 24 elsewhere).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from bmoca.sim.apps.base import Context
from bmoca.sim.ui.view import MATCH, WRAP, View, column, frame, row, spacer, text

TOUCH_HELPER = "android.widget.RadialTimePickerView.RadialPickerTouchHelper"
AMPM_FIRST = ("ko", "zh", "ja")
"""Languages whose time pattern puts the AM/PM marker first (`a h:mm`)."""
SELECTOR_DP = 20.0
"""The selector circle's radius (timepicker_selector_radius)."""


def a(name: str) -> str:
    return f"android:id/{name}"


@dataclass
class PickerState:
    """An open time picker (kept on the activity, so it survives snapshots)."""

    alarm_id: int | None
    """The alarm being changed, or None for a new one."""
    hour: int
    minute: int
    text_mode: bool = False
    show_minutes: bool = False
    hour_text: str = ""
    minute_text: str = ""
    text_pm: bool = False
    spinner_open: bool = False
    replace: str = ""
    """The text field whose whole text the next typing replaces (a tap selects it)."""
    error: bool = False


def hour_label(hour: int, h24: bool) -> str:
    return f"{hour:02d}" if h24 else str(hour % 12 or 12)


def _colors() -> dict:
    return {"bg": (48, 49, 52), "dial": (60, 64, 67), "accent": (138, 180, 248),
            "text": (232, 234, 237), "muted": (154, 160, 166), "on_accent": (32, 33, 36),
            "field": (70, 72, 76)}


class Picker:
    """Builds the dialog for one PickerState; `done(hour, minute)` on OK, `cancel()`."""

    def __init__(self, ctx: Context, state: PickerState, done: Callable[[int, int], None],
                 cancel: Callable[[], None]):
        self.ctx = ctx
        self.s = state
        self.done = done
        self.cancel = cancel
        self.h24 = ctx.is_24_hour
        self.c = _colors()
        width_dp, height_dp = ctx.system.screen_dp()
        self.landscape = width_dp > height_dp
        app_h = height_dp - 72
        if self.landscape:
            self.width = min(width_dp - 64, 560)
            self.dial = max(120.0, min(260.0, app_h - 52 - 56))
        else:
            self.width = min(width_dp - 32, 328)
            self.dial = max(120.0, min(260.0, self.width - 40, app_h - 96 - 52 - 48))

    # -- the dialog ---------------------------------------------------------------------------
    def build(self) -> View:
        if self.s.spinner_open:
            return self._spinner_popup()
        body = self._text_body() if self.s.text_mode else self._dial_body()
        card = column(body, self._buttons(), cls="android.widget.FrameLayout",
                      id=a("parentPanel"), width=self.width, height=WRAP, bg=self.c["bg"],
                      corner=8, elevation=24)
        if self.ctx.record is not None and self.ctx.record.focus:
            # adjustResize: the dialog moves up above the keyboard
            _w, height_dp = self.ctx.system.screen_dp()
            return column(card, spacer(height=(height_dp - 72) * 0.40), width=WRAP, height=WRAP,
                          cls="android.widget.FrameLayout")
        return card

    def _buttons(self) -> View:
        t = self.ctx.t
        s = self.s

        def toggle() -> None:
            self.switch_mode()

        def ok() -> None:
            self.confirm()

        def button(bid: str, label: str, handler) -> View:
            return View(cls="android.widget.Button", id=a(bid), text=label.upper(), text_size=14,
                        font_weight=500, text_color=self.c["accent"], width=WRAP, height=48,
                        padding=(12, 14, 12, 14), clickable=True, focusable=True,
                        on_click=handler, gravity="center_vertical")

        return row(
            View(cls="android.widget.ImageButton", id=a("toggle_mode"),
                 desc=t("clock.picker.to_clock") if s.text_mode else t("clock.picker.to_text"),
                 icon="schedule" if s.text_mode else "keyboard", icon_color=self.c["muted"],
                 width=48, height=48, clickable=True, focusable=True, on_click=toggle,
                 gravity="center_vertical"),
            spacer(weight=1),
            button("button2", t("clock.picker.cancel"), self.cancel),
            button("button1", t("clock.picker.ok"), ok),
            cls="android.widget.LinearLayout", id=a("buttonPanel"), height=WRAP,
            padding=(8, 4, 8, 4), gravity="center_vertical")

    # -- clock mode ---------------------------------------------------------------------------
    def _dial_body(self) -> View:
        s, c, t = self.s, self.c, self.ctx.t
        pm = s.hour >= 12

        def show(minutes: bool):
            return lambda: setattr(self.s, "show_minutes", minutes)

        def set_pm(value: bool):
            def handler() -> None:
                if value != (self.s.hour >= 12):
                    self.s.hour = (self.s.hour + 12) % 24
            return handler

        big = 48
        parts: list[View | None] = [
            text(hour_label(s.hour, self.h24), cls="android.widget.TextView", id=a("hours"),
                 text_size=big, text_color=c["muted"] if s.show_minutes else c["accent"],
                 clickable=True, focusable=True, on_click=show(False), gravity="center_vertical"),
            text(":", id=a("separator"), text_size=big, text_color=c["muted"],
                 gravity="center_vertical"),
            text(f"{s.minute:02d}", id=a("minutes"), text_size=big,
                 text_color=c["accent"] if s.show_minutes else c["muted"], clickable=True,
                 focusable=True, on_click=show(True), gravity="center_vertical"),
        ]
        if not self.h24:
            ampm = column(
                View(cls="android.widget.CheckedTextView", id=a("am_label"), text=t("clock.am"),
                     text_size=16, text_color=c["muted"] if pm else c["accent"], checkable=True,
                     checked=not pm, clickable=True, focusable=True, on_click=set_pm(False),
                     width=WRAP, height=WRAP, padding=(8, 4, 8, 4)),
                View(cls="android.widget.CheckedTextView", id=a("pm_label"), text=t("clock.pm"),
                     text_size=16, text_color=c["accent"] if pm else c["muted"], checkable=True,
                     checked=pm, clickable=True, focusable=True, on_click=set_pm(True),
                     width=WRAP, height=WRAP, padding=(8, 4, 8, 4)),
                cls="android.widget.LinearLayout", id=a("ampm_layout"), width=WRAP,
                gravity="center_vertical", margin=(8, 0, 8, 0))
            lang = self.ctx.locale.split("-")[0]
            parts = [ampm, *parts] if lang in AMPM_FIRST else [*parts, ampm]
        header = row(*parts, cls="android.widget.LinearLayout", id=a("time_header"),
                     width=WRAP, height=WRAP, mirror=False, gravity="center")
        dial = self._dial()
        if self.landscape:
            return row(frame(header, width=0, weight=1, height=WRAP, padding=(16, 16, 16, 16),
                             gravity="center_vertical"),
                       frame(dial, width=WRAP, height=WRAP, padding=(16, 16, 16, 8)),
                       cls="android.widget.TimePicker", id=a("timePicker"), height=WRAP,
                       gravity="center_vertical")
        return column(frame(header, width=MATCH, height=WRAP, padding=(16, 24, 16, 16)),
                      frame(dial, width=MATCH, height=WRAP, padding=(0, 0, 0, 8)),
                      cls="android.widget.TimePicker", id=a("timePicker"), height=WRAP)

    def _values(self) -> list[tuple[int, float, bool]]:
        """(value, angle in degrees clockwise from 12 o'clock, inner ring) in dump order."""
        if self.s.show_minutes:
            return [(m, m * 6.0, False) for m in range(0, 60, 5)]
        if self.h24:
            return [(h, (h % 12) * 30.0, 1 <= h <= 12) for h in range(24)]
        return [(h, (h % 12) * 30.0, False) for h in range(1, 13)]

    def _selected(self) -> tuple[float, bool, int | None]:
        """Angle and ring of the hand, and the number it sits on (None between numbers)."""
        s = self.s
        if s.show_minutes:
            return s.minute * 6.0, False, s.minute if s.minute % 5 == 0 else None
        if self.h24:
            return (s.hour % 12) * 30.0, 1 <= s.hour <= 12, s.hour
        return (s.hour % 12) * 30.0, False, s.hour % 12 or 12

    def _dial(self) -> View:
        size = self.dial
        radius = size / 2
        outer, inner = radius * 0.82, radius * 0.54
        rtl = self.ctx.rtl
        children = []
        for value, angle, is_inner in self._values():
            r = inner if is_inner else outer
            x = radius + r * math.sin(math.radians(angle)) - SELECTOR_DP
            y = radius - r * math.cos(math.radians(angle)) - SELECTOR_DP
            if rtl:  # the layout mirrors absolute positions; the dial must not be mirrored
                x = size - x - 2 * SELECTOR_DP
            children.append(View(cls=TOUCH_HELPER, desc=str(value), clickable=True,
                                 width=2 * SELECTOR_DP, height=2 * SELECTOR_DP, absolute=(x, y)))
        values = self._values()
        angle, on_inner, selected = self._selected()
        c = self.c
        h24 = self.h24
        minutes = self.s.show_minutes

        def draw(canvas, view: View) -> None:
            _draw_dial(canvas, view, values, angle, on_inner, selected, c, h24, minutes)

        def drag(fx: float, fy: float, lifted: bool) -> None:
            self.touch(1.0 - fx if rtl else fx, fy, lifted)

        return View(cls="android.view.View", id=a("radial_picker"), width=size, height=size,
                    focusable=True, draw=draw, on_drag=drag, children=children,
                    gravity="center_horizontal", mirror=False)

    def touch(self, fx: float, fy: float, lifted: bool) -> None:
        """A touch on the dial at fractions of its box: the nearest value by angle."""
        dx, dy = fx - 0.5, fy - 0.5
        angle = math.degrees(math.atan2(dx, -dy)) % 360
        s = self.s
        if s.show_minutes:
            s.minute = round(angle / 6) % 60
            return
        index = round(angle / 30) % 12
        if self.h24:
            inner = math.hypot(dx, dy) < (0.82 + 0.54) / 4
            s.hour = (index or 12) if inner else (0 if index == 0 else index + 12)
        else:
            s.hour = (index % 12) + (12 if s.hour >= 12 else 0)
        if lifted:
            s.show_minutes = True

    # -- text mode ------------------------------------------------------------------------------
    def _text_body(self) -> View:
        s, c, t = self.s, self.c, self.ctx.t
        record = self.ctx.record
        field_w = max(40.0, min(72.0, (self.width - 32 - (0 if self.h24 else 64) - 20) / 2))

        def field(fid: str, value: str, submit_to: str) -> View:
            def on_text(new: str) -> None:
                old = value
                if self.s.replace == fid and new.startswith(old):
                    new = new[len(old):]
                self.s.replace = ""
                digits = "".join(ch for ch in new if ch.isdigit())[:2]
                if fid == "input_hour":
                    self.s.hour_text = digits
                else:
                    self.s.minute_text = digits
                self.s.error = False

            def focus() -> None:
                if record is not None:
                    record.focus = a(fid)
                self.s.replace = fid

            def submit() -> None:
                if record is not None:
                    record.focus = a(submit_to) if submit_to else None
                self.s.replace = submit_to

            return View(cls="android.widget.EditText", id=a(fid), text=value, text_size=32,
                        text_color=c["text"], width=field_w, height=WRAP, align="center",
                        clickable=True, focusable=True, long_clickable=True, on_text=on_text,
                        on_click=focus, on_long_click=focus,  # selects the digits to type over
                        on_submit=submit, bg=c["field"], corner=4,
                        input_type="number", ime_action="next" if submit_to else "done",
                        padding=(4, 4, 4, 4), gravity="center_vertical")

        parts: list[View | None] = [
            field("input_hour", s.hour_text, "input_minute"),
            text(":", id=a("input_separator"), text_size=32, text_color=c["text"],
                 width=20, align="center", gravity="center_vertical"),
            field("input_minute", s.minute_text, ""),
        ]
        if not self.h24:
            spinner = View(cls="android.widget.Spinner", id=a("am_pm_spinner"),
                           clickable=True, focusable=True, width=64, height=48,
                           gravity="center_vertical",
                           on_click=lambda: setattr(self.s, "spinner_open", True),
                           children=[text(t("clock.pm") if s.text_pm else t("clock.am"),
                                          id=a("text1"), text_size=16, text_color=c["text"],
                                          width=MATCH, align="center", padding=(0, 12, 0, 12))])
            lang = self.ctx.locale.split("-")[0]
            parts = [spinner, *parts] if lang in AMPM_FIRST else [*parts, spinner]
        lead = 64 if not self.h24 and self.ctx.locale.split("-")[0] in AMPM_FIRST else 0
        labels = row(spacer(width=lead),
                     text(t("clock.picker.hour"), id=a("label_hour"), text_size=12,
                          text_color=c["muted"], width=field_w, align="center"),
                     spacer(width=20),
                     text(t("clock.picker.minute"), id=a("label_minute"), text_size=12,
                          text_color=c["muted"], width=field_w, align="center"),
                     width=WRAP, mirror=False)
        return column(
            text(t("clock.picker.type_time"), id=a("top_label"), text_size=14,
                 text_color=c["muted"], width=MATCH, margin=(0, 0, 0, 16)),
            row(*parts, id=a("input_block"), width=WRAP, height=WRAP, mirror=False,
                gravity="center_vertical"),
            labels,
            text(t("clock.picker.invalid"), id=a("label_error"), text_size=12,
                 text_color=(242, 139, 130), visible=s.error, margin=(0, 8, 0, 0)),
            cls="android.widget.TimePicker", id=a("timePicker"), height=WRAP,
            padding=(16, 24, 16, 8))

    def _spinner_popup(self) -> View:
        t, c = self.ctx.t, self.c

        def choose(pm: bool):
            def handler() -> None:
                self.s.text_pm = pm
                self.s.spinner_open = False
            return handler

        items = [View(cls="android.widget.CheckedTextView", id=a("text1"), text=t(key),
                      text_size=16, text_color=c["text"], width=MATCH, height=48,
                      padding=(16, 12, 16, 12), checkable=True, checked=self.s.text_pm == pm,
                      clickable=True, focusable=True, on_click=choose(pm),
                      gravity="center_vertical")
                 for key, pm in (("clock.am", False), ("clock.pm", True))]
        return column(*items, cls="android.widget.ListView", width=160, height=WRAP,
                      bg=c["dial"], corner=4, elevation=8)

    # -- actions ----------------------------------------------------------------------------
    def _parsed(self) -> tuple[int, int] | None:
        s = self.s
        if not (s.hour_text.isdigit() and s.minute_text.isdigit()):
            return None
        hour, minute = int(s.hour_text), int(s.minute_text)
        if minute > 59:
            return None
        if self.h24:
            return (hour, minute) if hour <= 23 else None
        if not 1 <= hour <= 12:
            return None
        return (hour % 12) + (12 if s.text_pm else 0), minute

    def switch_mode(self) -> None:
        s = self.s
        record = self.ctx.record
        if s.text_mode:
            parsed = self._parsed()
            if parsed is not None:
                s.hour, s.minute = parsed
            s.text_mode, s.show_minutes = False, False
            if record is not None:
                record.focus = None
        else:
            s.text_mode = True
            s.hour_text = hour_label(s.hour, self.h24)
            s.minute_text = f"{s.minute:02d}"
            s.text_pm = s.hour >= 12
            s.error = False
            s.replace = "input_hour"
            if record is not None:
                record.focus = a("input_hour")

    def confirm(self) -> None:
        s = self.s
        if s.text_mode:
            parsed = self._parsed()
            if parsed is None:
                s.error = True
                return
            s.hour, s.minute = parsed
        if self.ctx.record is not None:
            self.ctx.record.focus = None
        self.done(s.hour, s.minute)


def _draw_dial(canvas, view: View, values, angle: float, on_inner: bool, selected,
               c: dict, h24: bool, minutes: bool) -> None:
    """The dial: a disc, the hand to the selected value, the numbers (never mirrored)."""
    from bmoca.sim.render.text import get_text_renderer

    left, top, right, bottom = view.bounds
    size = right - left
    cx, cy = (left + right) / 2, (top + bottom) / 2
    radius = size / 2
    canvas.ellipse((left, top, right, bottom), c["dial"], view.clip)
    sel_r = canvas.px(SELECTOR_DP)
    hand_r = radius * (0.54 if on_inner else 0.82)
    hx = cx + hand_r * math.sin(math.radians(angle))
    hy = cy - hand_r * math.cos(math.radians(angle))
    canvas.draw.line((cx, cy, hx, hy), fill=c["accent"], width=max(1, canvas.px(2)))
    dot = canvas.px(3)
    canvas.ellipse((int(cx - dot), int(cy - dot), int(cx + dot), int(cy + dot)), c["accent"],
                   view.clip)
    canvas.ellipse((int(hx - sel_r), int(hy - sel_r), int(hx + sel_r), int(hy + sel_r)),
                   c["accent"], view.clip)
    renderer = get_text_renderer()
    for value, a_deg, inner in values:
        r = radius * (0.54 if inner else 0.82)
        x = cx + r * math.sin(math.radians(a_deg))
        y = cy - r * math.cos(math.radians(a_deg))
        label = f"{value:02d}" if minutes or (h24 and not inner) else str(value)
        size_sp = 12 if inner else 16
        px = int(size_sp * canvas.scale * canvas.font_scale + 0.5)
        color = c["on_accent"] if value == selected and inner == on_inner else (
            c["muted"] if inner else c["text"])
        sprite = renderer.label(label, px, color, 400, "en-US")
        canvas.paste(sprite, int(x - sprite.width / 2), int(y - sprite.height / 2), view.clip)

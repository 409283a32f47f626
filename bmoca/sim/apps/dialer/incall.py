"""The in-call screen (`com.android.incallui.InCallActivity`, part of the Dialer) and
Telecom's `UserCallActivity`, which `am start -a android.intent.action.CALL -d tel:NNN`
reaches.

The screen is InCallUI's contact grid (`contactgrid_avatar`, `contactgrid_status_text`
"Calling…" until the modem answers, `contactgrid_contact_name` with the number as dialled
or the contact's name, `contactgrid_bottom_timer` once connected), the button grid of
CheckableLabeledButtons (Mute, Keypad, Speaker, Add call, Hold; each toggles) and the red
`incall_end_call` button. BACK or HOME leave the call running; opening Phone again brings
the call back (the in-call screen sits on the Dialer's task here). As on a real phone, a
CALL intent from the shell for an emergency number only opens the dialpad with it.
"""

from __future__ import annotations

from bmoca.formats.phone_numbers import digits_of, is_emergency, tel_uri_number
from bmoca.sim.apps.base import Activity, App, Context
from bmoca.sim.apps.dialer import calls, lists
from bmoca.sim.system.intent import FLAG_ACTIVITY_NEW_TASK, Intent
from bmoca.sim.ui.view import MATCH, WRAP, View, column, frame, row, spacer, text

TELECOM = "com.android.server.telecom"
USER_CALL = "com.android.server.telecom.components.UserCallActivity"
ACTION_CALL = "android.intent.action.CALL"
ACTION_DIAL = "android.intent.action.DIAL"
BACKGROUND = (31, 48, 92)
"""InCallUI's dark blue background (the dialer theme colour, darkened)."""
WHITE = (255, 255, 255)
MUTED = (200, 208, 230)
END_RED = (234, 67, 53)


def did(name: str) -> str:
    return f"{calls.DIALER}:id/{name}"


def _elapsed(seconds: int) -> str:
    """Chronometer text: MM:SS, or H:MM:SS past an hour."""
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


class InCallActivity(Activity):
    """InCallActivity over the call in `DialerData.call`."""

    bar_color = BACKGROUND

    def on_back(self, ctx: Context) -> bool:
        call = calls.data_of(ctx.system).call
        if call is not None and call.keypad:
            call.keypad = False
            return True
        ctx.system.am.go_home()  # the call goes on; Phone brings this screen back
        return True

    def on_swipe(self, ctx: Context, swipe) -> bool:
        """A ringing call: the answer method's puck, flung up to answer or down to reject."""
        data = calls.data_of(ctx.system)
        if data.call is not None or data.ringing is None or swipe.direction not in ("up", "down"):
            return False
        if swipe.direction == "up":
            calls.answer(ctx.system)
        else:
            calls.reject(ctx.system)
        return True

    def build(self, ctx: Context) -> View:
        data = calls.data_of(ctx.system)
        call = data.call
        uptime = ctx.system.state.clock.uptime_ms
        if call is None and data.ringing is not None:
            return _ringing(ctx, data.ringing)
        if call is None:  # ended while this screen was being closed
            return frame(width=MATCH, height=MATCH, bg=BACKGROUND)
        if call.held:
            status = ctx.t("dialer.incall.on_hold")
        elif call.active(uptime):
            status = ""
        else:
            status = ctx.t("dialer.incall.calling")
        name = ctx.t("dialer.incall.emergency") if call.emergency else (call.name or call.number)
        bottom = ""
        if call.name:
            label = {1: "dialer.type.home", 2: "dialer.type.mobile", 3: "dialer.type.work"}.get(
                call.numbertype or 2, "dialer.type.mobile")
            bottom = f"{ctx.t(label)} {call.number}"
        elif call.emergency:
            bottom = call.number
        active = call.active(uptime) and not call.held
        grid = column(
            _avatar(call.name),
            row(text(status, id=did("contactgrid_status_text"), text_size=16,
                     text_color=MUTED, gravity="center_vertical"),
                id=did("contactgrid_top_row"), cls="android.widget.LinearLayout", width=WRAP,
                height=WRAP, gravity="center_horizontal", margin=(0, 16, 0, 4)),
            text(name, id=did("contactgrid_contact_name"), text_size=34, text_color=WHITE,
                 width=MATCH, align="center", max_lines=2, padding=(24, 0, 24, 0))
            if call.name or call.emergency else
            lists.number_text(ctx, name, did("contactgrid_contact_name"), 34, WHITE,
                              padding=(24, 0, 24, 0)),
            row(text(bottom, id=did("contactgrid_bottom_text"), text_size=16, text_color=MUTED,
                     visible=bool(bottom), gravity="center_vertical"),
                text(_elapsed(call.seconds(uptime)), id=did("contactgrid_bottom_timer"),
                     cls="android.widget.Chronometer", text_size=16, text_color=MUTED,
                     visible=active, gravity="center_vertical", margin=(8, 0, 0, 0)),
                id=did("contactgrid_bottom_row"), cls="android.widget.LinearLayout",
                width=WRAP, height=WRAP, gravity="center_horizontal", margin=(0, 4, 0, 0)),
            cls="android.widget.LinearLayout", id=did("incall_contact_grid"), width=MATCH,
            height=WRAP, padding=(0, 24, 0, 8))
        middle = self._keypad(ctx, call) if call.keypad else self._buttons(ctx, call)
        end = View(cls="android.widget.ImageButton", id=did("incall_end_call"),
                   desc=ctx.t("dialer.incall.end_call"), icon="call_end", icon_color=WHITE,
                   icon_filled=True, icon_size=30, width=64, height=64, corner=32, bg=END_RED,
                   elevation=6, clickable=True, focusable=True, gravity="center_horizontal",
                   on_click=lambda: calls.hang_up(ctx.system))
        return column(grid, spacer(weight=1), middle, spacer(height=16), end, spacer(height=24),
                      cls="android.widget.FrameLayout", id=did("incall_container"), width=MATCH,
                      height=MATCH, bg=BACKGROUND)

    def _buttons(self, ctx: Context, call: calls.Call) -> View:
        def toggle(attr: str):
            def handler() -> None:
                setattr(call, attr, not getattr(call, attr))
            return handler

        def add_call() -> None:
            ctx.start_activity(Intent(action=ACTION_DIAL, flags=FLAG_ACTIVITY_NEW_TASK,
                                      component=(calls.DIALER, calls.MAIN),
                                      extras={"add_call_mode": True}))

        specs = [("incall_first_button", "mic_off", "dialer.incall.mute", call.muted,
                  toggle("muted")),
                 ("incall_second_button", "dialpad", "dialer.incall.keypad", call.keypad,
                  toggle("keypad")),
                 ("incall_third_button", "volume_up", "dialer.incall.speaker", call.speaker,
                  toggle("speaker")),
                 ("incall_fourth_button", "add_call", "dialer.incall.add_call", False, add_call),
                 ("incall_fifth_button", "pause", "dialer.incall.hold", call.held,
                  toggle("held"))]
        buttons = [_checkable(ctx, *spec, enabled=not (call.emergency and i in (3, 4)))
                   for i, spec in enumerate(specs)]
        width_dp, _ = ctx.system.screen_dp()
        return column(row(*buttons[:3], height=WRAP, mirror=True),
                      row(*buttons[3:], spacer(weight=1), height=WRAP, mirror=True),
                      cls="android.widget.LinearLayout", id=did("incall_button_grid"),
                      width=min(width_dp, 400.0), height=WRAP, padding=(24, 0, 24, 0),
                      spacing=12, gravity="center_horizontal")

    def _keypad(self, ctx: Context, call: calls.Call) -> View:
        def press(char: str):
            def handler() -> None:
                call.dtmf += char
            return handler

        keys = [["1", "2", "3"], ["4", "5", "6"], ["7", "8", "9"], ["*", "0", "#"]]
        names = {"1": "one", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six",
                 "7": "seven", "8": "eight", "9": "nine", "0": "zero", "*": "star", "#": "pound"}
        rows = [row(*[View(cls="android.widget.FrameLayout", id=did(names[k]), desc=k,
                           clickable=True, focusable=True, width=0, weight=1, height=52,
                           on_click=press(k), children=[
                               text(k, id=did("dialpad_key_number"), text_size=28,
                                    text_color=WHITE, width=MATCH, height=MATCH,
                                    align="center", gravity="center")])
                      for k in keys_row], height=WRAP, mirror=False) for keys_row in keys]
        return column(
            row(text(call.dtmf, id=did("digits"), cls="android.widget.EditText", text_size=26,
                     text_color=WHITE, width=0, weight=1, align="center",
                     gravity="center_vertical"),
                View(cls="android.widget.ImageButton", id=did("dialpad_back"),
                     desc=ctx.t("dialer.incall.hide_keypad"), icon="keyboard_hide",
                     icon_color=WHITE, width=48, height=48, clickable=True, focusable=True,
                     gravity="center_vertical",
                     on_click=lambda: setattr(call, "keypad", False)),
                height=56, mirror=False),
            *rows, cls="android.widget.LinearLayout", id=did("incall_dialpad_container"),
            width=MATCH, height=WRAP, padding=(24, 0, 24, 0))


def _ringing(ctx: Context, call: calls.Call) -> View:
    """The incoming-call screen: the caller over the swipe-up-to-answer puck (Dialer's
    SwipeButtonFragment: fling up to answer, down to reject; a tap only hints)."""
    return column(
        column(_avatar(call.name),
               text(ctx.t("interruptions.call.incoming"), id=did("contactgrid_status_text"),
                    text_size=16, text_color=MUTED, width=MATCH, align="center",
                    margin=(0, 16, 0, 4)),
               lists.number_text(ctx, call.name or call.number, did("contactgrid_contact_name"),
                                 34, WHITE, padding=(24, 0, 24, 0)),
               cls="android.widget.LinearLayout", id=did("incall_contact_grid"), width=MATCH,
               height=WRAP, padding=(0, 24, 0, 8)),
        spacer(weight=1),
        text(ctx.t("interruptions.call.swipe_answer"), id=did("incoming_swipe_to_answer_text"),
             text_size=14, text_color=WHITE, width=MATCH, align="center"),
        View(cls="android.widget.ImageView", id=did("incoming_call_puck_icon"),
             desc=ctx.t("interruptions.call.answer"), icon="call", icon_color=WHITE,
             icon_filled=True, icon_size=30, width=64, height=64, corner=32,
             bg=(30, 142, 62), clickable=True, focusable=True, gravity="center_horizontal",
             margin=(0, 16, 0, 16)),
        text(ctx.t("interruptions.call.swipe_reject"), id=did("incoming_swipe_to_reject_text"),
             text_size=14, text_color=MUTED, width=MATCH, align="center"),
        spacer(height=32),
        cls="android.widget.FrameLayout", id=did("incall_container"), width=MATCH,
        height=MATCH, bg=BACKGROUND)


def _avatar(name: str | None) -> View:
    return View(cls="android.widget.ImageView", id=did("contactgrid_avatar"), width=72,
                height=72, corner=36, bg=(255, 255, 255, 40), icon="person", icon_size=44,
                icon_color=WHITE, icon_filled=True, gravity="center_horizontal",
                children=[View(cls="", text=(name or "?")[:1].upper() if name else "",
                               text_size=32, text_color=WHITE, width=72, height=72,
                               align="center", visible=bool(name))],
                orientation="z")


def _checkable(ctx: Context, view_id: str, glyph: str, label_key: str, checked: bool,
               on_click, enabled: bool = True) -> View:
    """CheckableLabeledButton: a round icon (filled white when checked) over its label."""
    label = ctx.t(label_key)
    return column(
        View(cls="android.widget.ImageView", icon=glyph, icon_size=26, width=56, height=56,
             corner=28, icon_filled=checked, icon_color=BACKGROUND if checked else WHITE,
             bg=WHITE if checked else (255, 255, 255, 36), gravity="center_horizontal"),
        text(label, text_size=13, text_color=WHITE if enabled else MUTED, width=MATCH,
             align="center", margin=(0, 6, 0, 0)),
        cls="android.widget.LinearLayout", id=did(view_id), desc=label, checkable=True,
        checked=checked, clickable=enabled, focusable=enabled, enabled=enabled, width=0,
        weight=1, height=WRAP, on_click=on_click if enabled else None,
        alpha=1.0 if enabled else 0.5)


class UserCallActivity(Activity):
    """Telecom's trampoline for CALL intents: places the call and goes away (NoDisplay)."""

    def on_create(self, ctx: Context) -> None:
        am = ctx.system.am
        for task in list(am.state.recents):
            if ctx.record is not None and ctx.record in task.records:
                am.remove_task(task.id)
        number = tel_uri_number(self.intent.data or "")
        if not digits_of(number):
            return
        if is_emergency(number):
            # a CALL intent from an app may not dial an emergency number: show it instead
            ctx.start_activity(Intent(action=ACTION_DIAL, data=self.intent.data,
                                      flags=FLAG_ACTIVITY_NEW_TASK))
            return
        calls.place_call(ctx.system, number, session="UCA.oC")

    def build(self, ctx: Context) -> View:
        return frame(width=MATCH, height=MATCH)


class TelecomApp(App):
    """com.android.server.telecom: runs inside system_server as the system uid."""

    package = TELECOM
    label_key = "app.com.android.server.telecom"
    uid = 1000
    activities = {USER_CALL: UserCallActivity}
    intent_actions = {ACTION_CALL: USER_CALL}
    system_process = True

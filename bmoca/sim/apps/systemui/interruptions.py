"""Perturbations as Android 10 draws them, and what a tap, a swipe or BACK on them does.

The schedule and the data are `bmoca.sim.system.perturbations`; this module shows an event
when it is due (`tick`), builds its window for the frame (`windows`) and answers the input
that reaches it. Each kind is the real thing's window:

* **incoming_call**: the Dialer's heads-up in System UI's status-bar window ("Incoming
  call", DECLINE and ANSWER); the call rings in Telecom (`calls.ring`) and, unanswered for
  30 s, is a missed call. A tap on the body opens the in-call screen (swipe the puck up to
  answer, down to reject); a swipe on the heads-up hides it while the call rings on.
* **heads_up**: a Google app story; **low_battery**: System UI's "Battery is low"
  (action: turn on Battery Saver); **injection**: text that asks for something else, in
  the content of the app in front (a paragraph of Chrome's page or Wikipedia's article)
  or else in a message notification. A swipe up or sideways dismisses a heads-up; a tap
  on its body opens its app; after 5 s it folds into the shade (which keeps no
  notifications here).
* **permission**: GrantPermissionsActivity's dialog over the app in front (ALLOW / DENY;
  BACK denies; a touch outside does nothing).
* **anr**: the system's "<app> isn't responding" dialog (Close app kills the app, Wait
  closes the dialog; BACK and a touch outside are Wait).
* **system_update**: Google Play services' update prompt (LATER / DOWNLOAD; BACK or a touch
  outside is Later).
* **toast**: a toast at the bottom, which takes no touches and is gone after 3.5 s.
* **keyboard**: Gboard opens with no field (an input connection left behind): keys type
  nothing, BACK hides it, focusing a field makes it that field's keyboard.

uiautomator reports a focused window (the dialogs) as the active window; a heads-up and a
keyboard opened this way announce themselves to accessibility, and the dump lists them
after the app's window, so an agent reading the hierarchy sees what covers its target.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bmoca.formats import apps as app_table
from bmoca.sim.apps.alert_dialog import dialog_card
from bmoca.sim.apps.base import Context, Swipe
from bmoca.sim.apps.dialer import calls
from bmoca.sim.apps.systemui.shade import TABLET_PANEL_DP
from bmoca.sim.i18n import strings
from bmoca.sim.system import perturbations as data
from bmoca.sim.system import telephony
from bmoca.sim.system.intent import FLAG_ACTIVITY_NEW_TASK, Intent
from bmoca.sim.system.perturbations import Event, Shown
from bmoca.sim.system.server import SYSTEMUI_PACKAGE, SystemServer
from bmoca.sim.system.windows import Window
from bmoca.sim.ui.layout import Layout, ScrollState
from bmoca.sim.ui.view import MATCH, WRAP, View, column, frame, icon, row, spacer, text

PERMISSION_PACKAGE = "com.google.android.permissioncontroller"
PERMISSION_RES = "com.android.permissioncontroller"
"""The Google build's package keeps AOSP's resource package in its view ids."""
GMS = "com.google.android.gms"
LAUNCHER = "com.google.android.apps.nexuslauncher"
GOOGLE = "com.google.android.googlequicksearchbox"
MESSAGES = "com.google.android.apps.messaging"
HEADS_UP_KINDS = ("incoming_call", "heads_up", "low_battery", "injection")
NOTIFICATION_PACKAGE = {"incoming_call": calls.DIALER, "heads_up": GOOGLE,
                        "low_battery": SYSTEMUI_PACKAGE}
APP_GLYPH = {calls.DIALER: "call", GOOGLE: "newspaper", SYSTEMUI_PACKAGE: "battery_alert",
             MESSAGES: "chat"}
DIALOG_MAX_DP = 560
"""The widest a dialog grows (Material's dialog width limit), on a tablet."""
INJECTED_FROM = "(555) 010-4477"
"""The sender an injected message shows (555 numbers are fictional)."""


# -- what happens without the user ---------------------------------------------------------

def tick(system: SystemServer, step: int) -> bool:
    """After the agent's `step`-th step: decays, the ask check, and the events due; whether
    anything on the phone changed (the screen need not be built again otherwise)."""
    state = data.state_of(system)
    if state is None:
        return False
    dialer = calls.data_of(system)
    before = (len(state.log), dialer.ringing)
    ringing = dialer.ringing
    if ringing is not None and system.state.clock.uptime_ms - ringing.dialed_uptime_ms \
            >= data.RING_MS:
        calls.reject(system, missed=True)
    _drop_ended_call(system)
    for shown in data.tick(system, step):
        _on_shown(system, shown)
    return (len(state.log), dialer.ringing) != before


def _on_shown(system: SystemServer, shown: Shown) -> None:
    """What the system does as an event appears, with the log lines Android writes."""
    state = data.state_of(system)
    assert state is not None
    event = shown.event
    if event.kind == "incoming_call":
        if calls.ring(system, event.param("number")) is None:
            state.remove(shown, "missed: a call was up")
    elif event.kind == "anr":
        package = shown.package or SYSTEMUI_PACKAGE
        record = system.am.top_record()
        component = f"{package}/{record.cls}" if record is not None else package
        system.log_system("E", "ActivityManager", f"ANR in {package} ({component})")
        system.log_system("E", "ActivityManager", f"PID: {system.pid_of(package)}")
        system.log_system("E", "ActivityManager", "Reason: Input dispatching timed out "
                          "(Waiting to send non-key event because the touched window has not "
                          "finished processing certain input events that were delivered to it "
                          "over 500.0ms ago.)")
    elif event.kind == "keyboard":
        system.log_from("com.google.android.inputmethod.latin", "I", "LatinIME",
                        "onStartInputView: no editor (input connection left over)")
    elif event.kind == "permission":
        system.log_from(PERMISSION_PACKAGE, "I", "GrantPermissionsActivity",
                        f"Requesting permission group {_group(event)} for {shown.package}")
    elif event.kind in ("heads_up", "low_battery") or shown.carrier in ("message", "google"):
        if shown.carrier == "message":  # the SMS itself lands in the inbox first
            telephony.receive(system.state.vfs, re.sub(r"\D", "", INJECTED_FROM),
                              data.injected_text(event), system.state.clock.now_ms)
            system.log_from("com.android.phone", "I", "InboundSmsHandler",
                            "Delivering SMS to: com.google.android.apps.messaging "
                            "com.android.messaging.datamodel.receiver.SmsDeliverReceiver")
        system.log_system("I", "NotificationService", "enqueueNotificationInternal: pkg="
                          f"{_package(shown)} id={900 + event.step}")


def _drop_ended_call(system: SystemServer) -> None:
    """A call heads-up goes when its call stops ringing (answered, declined, missed)."""
    state = data.state_of(system)
    if state is None:
        return
    shown = state.in_slot("heads_up")
    if shown is not None and shown.event.kind == "incoming_call" \
            and calls.data_of(system).ringing is None:
        state.remove(shown, "call ended")


def _group(event: Event) -> str:
    return f"android.permission-group.{event.param('group').upper()}"


# -- windows ------------------------------------------------------------------------------

def windows(system: SystemServer, layout: Layout, width: int, height: int, sb: int,
            nb: int) -> list[Window]:
    """The perturbations' windows over the app, bottom to top (the forced keyboard is the
    frame's keyboard window: see `keyboard_forced`)."""
    state = data.state_of(system)
    if state is None or not state.shown:
        return []
    out: list[Window] = []
    for slot in ("toast", "heads_up", "dialog"):
        shown = state.in_slot(slot)
        if shown is None or (shown.event.kind == "incoming_call"
                             and calls.data_of(system).ringing is None):
            continue  # a call's heads-up goes with its ringing (the next tick logs it)
        ctx = Context(system, SYSTEMUI_PACKAGE)
        if slot == "toast":
            card = _toast(ctx, shown)
            holder = frame(card, width=MATCH, height=MATCH, padding=(0, 0, 0, 64))
            layout.run(holder, (0, sb, width, height - nb), ScrollState())
            out.append(Window("toast", "android", card, card.bounds))
        elif slot == "heads_up":
            card = _heads_up(ctx, shown)
            holder = frame(card, width=MATCH, height=MATCH)
            layout.run(holder, (0, sb, width, height - nb), ScrollState())
            out.append(Window("heads_up", SYSTEMUI_PACKAGE, card, card.bounds, announced=True))
        else:
            card, package = _dialog(ctx, shown)
            if system.sw600dp:  # a dialog on a tablet keeps its phone width, centred
                card.width = DIALOG_MAX_DP
            holder = frame(card, width=MATCH, height=MATCH)
            layout.run(holder, (0, sb, width, height - nb), ScrollState())
            out.append(Window("system_dialog", package, card, card.bounds, dim=True))
    return out


def keyboard_forced(system: SystemServer) -> bool:
    state = data.state_of(system)
    return state is not None and state.in_slot("keyboard") is not None


def field_focused(system: SystemServer) -> None:
    """A field took the focus: the keyboard left open is that field's keyboard now."""
    state = data.state_of(system)
    shown = state.in_slot("keyboard") if state is not None else None
    if shown is not None:
        state.remove(shown, "taken by a field")


def window_title(window: Window) -> str | None:
    """The title `dumpsys window windows` gives a perturbation's window."""
    if window.kind == "toast":
        return "Toast"
    if window.kind == "heads_up":
        return "StatusBar"
    if window.kind == "system_dialog":
        if window.package == "android":
            return f"Application Not Responding: {window.root.desc}"
        if window.package == PERMISSION_PACKAGE:
            return (f"{PERMISSION_PACKAGE}/com.android.packageinstaller.permission.ui."
                    "GrantPermissionsActivity")
        return f"{GMS}/.update.SystemUpdateActivity"
    return None


# -- input the perturbations take ------------------------------------------------------------

def on_back(system: SystemServer) -> bool:
    """BACK reaches a system dialog, then a keyboard left open; True if one took it."""
    state = data.state_of(system)
    if state is None:
        return False
    dialog = state.in_slot("dialog")
    if dialog is not None:
        _dismiss(system, dialog, {"permission": "denied (back)", "anr": "wait (back)",
                                  "system_update": "later (back)"}[dialog.event.kind])
        return True
    keyboard = state.in_slot("keyboard")
    if keyboard is not None:
        state.remove(keyboard, "hidden (back)")
        return True
    return False


def on_home(system: SystemServer) -> None:
    """HOME: the keyboard hides and an activity's dialog goes to the background with it
    (the permission request and the update prompt); the ANR dialog, a system window, stays."""
    state = data.state_of(system)
    if state is None:
        return
    for shown in list(state.shown):
        if shown.event.kind in ("keyboard", "permission", "system_update"):
            state.remove(shown, "left (home)")


def outside_dialog(system: SystemServer) -> None:
    """A touch outside a system dialog: the update prompt cancels on it, the ANR dialog
    waits, the permission dialog ignores it (setFinishOnTouchOutside(false))."""
    state = data.state_of(system)
    dialog = state.in_slot("dialog") if state is not None else None
    if dialog is None:
        return
    if dialog.event.kind == "system_update":
        _dismiss(system, dialog, "later (outside)")
    elif dialog.event.kind == "anr":
        _dismiss(system, dialog, "wait (outside)")


def _dismiss(system: SystemServer, shown: Shown, outcome: str) -> None:
    state = data.state_of(system)
    assert state is not None
    kind = shown.event.kind
    if kind == "permission":
        granted = outcome.startswith("allowed")
        system.log_from(PERMISSION_PACKAGE, "I", "GrantPermissionsActivity",
                        f"Permission grant result requestId=0 callingUid=u0 "
                        f"callingPackage={shown.package} permission={_group(shown.event)} "
                        f"isImplicit=false result={'GRANTED' if granted else 'DENIED'}")
    state.remove(shown, outcome)


def _swiped_away(system: SystemServer, shown: Shown) -> Callable[[Swipe], bool]:
    def on_swipe(swipe: Swipe) -> bool:
        if swipe.direction == "down":
            return True  # pulls the heads-up open; nothing new is shown here
        state = data.state_of(system)
        assert state is not None
        if shown.event.kind == "incoming_call":
            state.remove(shown, "hidden (swipe); the call rings on")
        else:
            system.log_system("I", "NotificationService", "Cancel: pkg="
                              f"{_package(shown)} id={900 + shown.event.step}"
                              " reason=REASON_CANCEL")
            state.remove(shown, "dismissed (swipe)")
        return True
    return on_swipe


def _opened(system: SystemServer, shown: Shown) -> None:
    """A tap on a heads-up's body: its content intent."""
    state = data.state_of(system)
    assert state is not None
    kind = shown.event.kind
    state.remove(shown, "opened")
    if kind == "incoming_call":
        calls.show_incall(system)
    elif kind == "low_battery":
        system.am.start_activity(Intent(action="android.intent.action.POWER_USAGE_SUMMARY",
                                        flags=FLAG_ACTIVITY_NEW_TASK), caller=SYSTEMUI_PACKAGE)
    else:
        package = _package(shown)
        info = next((a for a in app_table.all_apps() if a.package == package), None)
        if info is not None and package in system.apps:
            system.am.start_activity(Intent.launcher(package, info.activity),
                                     caller=SYSTEMUI_PACKAGE)


# -- drawing ------------------------------------------------------------------------------

def _sid(name: str) -> str:
    return f"{SYSTEMUI_PACKAGE}:id/{name}"


def _heads_up(ctx: Context, shown: Shown) -> View:
    """A heads-up: Notification's template (header, title, text, actions) on a card."""
    theme = ctx.theme
    system = ctx.system
    surface = (48, 49, 52) if theme.dark else (255, 255, 255)
    title, body, actions = _notification(ctx, shown)
    header = row(
        icon(APP_GLYPH[_package(shown)], 18, id="android:id/icon", icon_color=theme.accent,
             gravity="center_vertical"),
        text(_app_name(ctx, shown), id="android:id/app_name_text", text_size=12,
             text_color=theme.text_secondary, margin=(8, 0, 0, 0), gravity="center_vertical"),
        text("•", text_size=12, text_color=theme.text_secondary, margin=(4, 0, 4, 0),
             gravity="center_vertical"),
        text(ctx.t("interruptions.now"), id="android:id/time", text_size=12,
             text_color=theme.text_secondary, gravity="center_vertical"),
        id="android:id/notification_header", height=WRAP)
    buttons = [View(cls="android.widget.Button", id=f"android:id/action{i}", text=label.upper(),
                    text_size=14, font_weight=500, text_color=color or theme.accent,
                    width=WRAP, height=48, padding=(8, 14, 8, 14), clickable=True,
                    focusable=True, on_click=handler, gravity="center_vertical")
               for i, (label, color, handler) in enumerate(actions)]
    return column(
        header,
        text(title, id="android:id/title", text_size=14, font_weight=500, text_color=theme.text,
             width=MATCH, margin=(0, 6, 0, 0)),
        text(body, id="android:id/text", text_size=14, text_color=theme.text_secondary,
             width=MATCH, max_lines=3),
        row(*buttons, id="android:id/actions", height=WRAP, margin=(-8, 4, 0, 0))
        if buttons else spacer(height=12),
        cls="android.widget.FrameLayout", id="android:id/status_bar_latest_event_content",
        # a tablet's heads-ups are as wide as its notification panel, centred
        width=TABLET_PANEL_DP if system.sw600dp else MATCH, height=WRAP, margin=(8, 8, 8, 0), padding=(16, 12, 16, 0), bg=surface,
        corner=8, elevation=8, clickable=True, focusable=True,
        on_click=lambda: _opened(system, shown), on_swipe=_swiped_away(system, shown),
        gravity="top|center_horizontal")


def _package(shown: Shown) -> str:
    """The app that posted a heads-up."""
    if shown.event.kind == "injection":
        return MESSAGES if shown.carrier == "message" else GOOGLE
    return NOTIFICATION_PACKAGE[shown.event.kind]


def _app_name(ctx: Context, shown: Shown) -> str:
    if shown.event.kind == "low_battery":
        return ctx.t("interruptions.android_system")
    return ctx.t(f"app.{_package(shown)}")


def _notification(ctx: Context, shown: Shown) -> tuple[str, str, list]:
    """Title, text and actions (label, colour or None, handler) of a heads-up."""
    event, system = shown.event, ctx.system
    if event.kind == "incoming_call":
        ringing = calls.data_of(system).ringing
        caller = (ringing.name or ringing.number) if ringing is not None else event.param("number")
        def decline() -> None:
            data.state_of(system).remove(shown, "declined")
            calls.reject(system)

        def answer() -> None:
            data.state_of(system).remove(shown, "answered")
            calls.answer(system)
        return caller, ctx.t("interruptions.call.incoming"), [
            (ctx.t("interruptions.call.decline"), (217, 48, 37), decline),
            (ctx.t("interruptions.call.answer"), (30, 142, 62), answer)]
    if event.kind == "low_battery":
        def saver() -> None:
            system.put_setting("global", "low_power", "1")
            data.state_of(system).remove(shown, "battery saver on")
        return (ctx.t("interruptions.battery.title"),
                ctx.t("interruptions.battery.text", level=event.param("level")),
                [(ctx.t("interruptions.battery.saver"), None, saver)])
    if event.kind == "injection":
        sender = INJECTED_FROM if shown.carrier == "message" else ctx.t(f"app.{GOOGLE}")
        return sender, data.injected_text(event), []
    item = event.param("item", "0")
    return (ctx.t(f"interruptions.news.{item}.title"), ctx.t(f"interruptions.news.{item}.text"),
            [])


def _toast(ctx: Context, shown: Shown) -> View:
    dark = ctx.theme.dark
    return text(ctx.t(f"interruptions.toast.{shown.event.param('text')}"), id="android:id/message",
                text_size=14, text_color=(255, 255, 255) if dark else (32, 33, 36),
                bg=(66, 66, 66) if dark else (241, 243, 244), corner=20, max_lines=2,
                padding=(16, 10, 16, 10), elevation=6, gravity="center_horizontal|bottom",
                margin=(24, 0, 24, 0))


def _dialog(ctx: Context, shown: Shown) -> tuple[View, str]:
    """A focused system dialog and the package that owns its window."""
    kind, system = shown.event.kind, ctx.system
    state = data.state_of(system)
    assert state is not None
    if kind == "anr":
        package = shown.package or SYSTEMUI_PACKAGE
        name = ctx.t(f"app.{package}") if _has_label(ctx, package) else package

        def close() -> None:
            """AppErrors' kill: the process goes and its tasks with it."""
            _dismiss(system, shown, "closed the app")
            am = system.am
            am.kill_process(package, "user request after error")
            for task in list(am.state.recents):
                if task.package == package:
                    am.remove_task(task.id)
            if am.top_record() is None or am.top_record().package == package:
                am.go_home()

        def list_button(view_id: str, glyph: str, label: str, handler) -> View:
            return row(icon(glyph, 24, icon_color=ctx.theme.icon, gravity="center_vertical"),
                       text(label, text_size=16, text_color=ctx.theme.text,
                            margin=(32, 0, 0, 0), gravity="center_vertical"),
                       cls="android.widget.Button", id=f"android:id/{view_id}", height=48,
                       padding=(0, 0, 0, 0), clickable=True, focusable=True,
                       on_click=handler)
        card = column(
            text(ctx.t("interruptions.anr.title", app=name), id="android:id/alertTitle",
                 text_size=20, font_weight=500, text_color=ctx.theme.text, width=MATCH,
                 max_lines=3, margin=(0, 0, 0, 12)),
            list_button("aerr_close", "close", ctx.t("interruptions.anr.close"), close),
            list_button("aerr_wait", "schedule", ctx.t("interruptions.anr.wait"),
                        lambda: _dismiss(system, shown, "wait")),
            cls="android.widget.FrameLayout", id="android:id/parentPanel", width=MATCH,
            height=WRAP, margin=(40, 0, 40, 0), padding=(24, 24, 24, 12),
            bg=(48, 49, 52) if ctx.theme.dark else (255, 255, 255), corner=8, elevation=24,
            desc=package, gravity="center")
        return card, "android"
    if kind == "permission":
        return _permission(ctx, shown), PERMISSION_PACKAGE
    card = dialog_card(ctx, ctx.t("interruptions.update.title"),
                       ctx.t("interruptions.update.text"),
                       [("button2", ctx.t("interruptions.update.later"),
                         lambda: _dismiss(system, shown, "later")),
                        ("button1", ctx.t("interruptions.update.download"),
                         lambda: _download(system, shown))])
    card.gravity = "center"
    return card, GMS


def _download(system: SystemServer, shown: Shown) -> None:
    system.log_from(GMS, "I", "SystemUpdate", "[Execution,InstallationControl] Download "
                    "requested by the user")
    _dismiss(system, shown, "download")


def _permission(ctx: Context, shown: Shown) -> View:
    """Android 10's grant dialog: the group's icon, the question, stacked buttons."""
    theme, system = ctx.theme, ctx.system
    group = shown.event.param("group")
    package = shown.package
    if not _has_label(ctx, package) or package == LAUNCHER:
        package = GOOGLE  # the launcher asks for nothing; the Google app's feed does
    app = ctx.t(f"app.{package}")

    def button(view_id: str, label: str, outcome: str) -> View:
        return View(cls="android.widget.Button", id=f"{PERMISSION_RES}:id/{view_id}",
                    text=label.upper(), text_size=14, font_weight=500, text_color=theme.accent,
                    width=MATCH, height=48, padding=(0, 14, 0, 14), align="center",
                    clickable=True, focusable=True,
                    on_click=lambda: _dismiss(system, shown, outcome))
    allow = [button("permission_allow_button", ctx.t("interruptions.permission.allow"),
                    "allowed")]
    if group == "location":
        allow = [button("permission_allow_foreground_only_button",
                        ctx.t("interruptions.permission.while_using"), "allowed (while using)"),
                 button("permission_allow_button", ctx.t("interruptions.permission.always"),
                        "allowed")]
    return column(
        icon(_PERMISSION_GLYPHS[group], 36, id=f"{PERMISSION_RES}:id/permission_icon",
             icon_color=theme.accent, gravity="center_horizontal"),
        text(ctx.t(f"interruptions.permission.{group}", app=app),
             id=f"{PERMISSION_RES}:id/permission_message", text_size=18,
             text_color=theme.text, width=MATCH, align="center", max_lines=4,
             margin=(0, 16, 0, 16)),
        *allow,
        button("permission_deny_button", ctx.t("interruptions.permission.deny"), "denied"),
        cls="android.widget.LinearLayout", id=f"{PERMISSION_RES}:id/grant_dialog",
        width=MATCH, height=WRAP, margin=(24, 0, 24, 0), padding=(24, 24, 24, 8),
        bg=(48, 49, 52) if theme.dark else (255, 255, 255), corner=8, elevation=24,
        gravity="center")


_PERMISSION_GLYPHS = {"contacts": "contacts", "location": "location_on", "microphone": "mic",
                      "storage": "folder", "sms": "sms", "calendar": "calendar_today",
                      "phone": "call"}


def _has_label(ctx: Context, package: str) -> bool:
    return strings(ctx.locale).has(f"app.{package}")

"""Clock's `HandleApiCalls` (the public AlarmClock intents other apps, `am start` and its
launcher shortcuts use) and `HandleShortcuts` (its stopwatch shortcut).

`android.intent.action.SET_ALARM` is handled as AOSP DeskClock's
HandleApiCalls.handleSetAlarm does on Android 10 (Google Clock 6.x behaves the same):

- no HOUR extra: open the Alarm tab with the time picker of a new alarm;
- an hour outside 0-23 or minutes outside 0-59: nothing is created;
- otherwise an alarm with the same hour, minutes, days (none when DAYS is absent: "not
  repeating") and label (when MESSAGE is given) is switched on, or a new one is created;
  its next instance is scheduled, and unless SKIP_UI the Alarm tab opens on it.

DAYS holds java.util.Calendar day numbers (SUNDAY = 1 .. SATURDAY = 7), e.g.
`--eial android.intent.extra.alarm.DAYS 2,3,4,5,6`.

`android.intent.action.SET_TIMER` without a LENGTH (the "Create new timer" shortcut) opens
the Timer tab's setup, as handleSetTimer does; a timer of a given LENGTH is not modelled
(the Timer tab opens all the same). `HandleShortcuts` takes the stopwatch shortcut's
START_STOPWATCH / PAUSE_STOPWATCH: it starts or pauses the stopwatch, logging
`Events: [Stopwatch] [Start] [Shortcut]`, and opens the Stopwatch tab.
"""

from __future__ import annotations

from bmoca.sim.apps.base import Activity, Context
from bmoca.sim.apps.clock import model
from bmoca.sim.system.intent import Intent
from bmoca.sim.ui.view import MATCH, View, frame

ACTION_SET_ALARM = "android.intent.action.SET_ALARM"
ACTION_SET_TIMER = "android.intent.action.SET_TIMER"
ACTION_START_STOPWATCH = "com.android.deskclock.action.START_STOPWATCH"
ACTION_PAUSE_STOPWATCH = "com.android.deskclock.action.PAUSE_STOPWATCH"
HANDLE_API_CALLS = "com.android.deskclock.HandleApiCalls"
HANDLE_SHORTCUTS = "com.android.deskclock.HandleShortcuts"
EXTRA_EVENT_LABEL = "com.android.deskclock.extra.EVENT_LABEL"
TIMER_SETUP = "com.android.deskclock.action.TIMER_SETUP"
"""TimerFragment.createTimerSetupIntent's extra (the Timer tab, showing its setup)."""
EXTRA = "android.intent.extra.alarm."
SCROLL_TO_ALARM = "deskclock.scroll.to.alarm"
CREATE_NEW = "deskclock.create.new"


def _int(value: object, default: int) -> int:
    try:
        return int(str(value).strip())
    except ValueError:
        return default


def calendar_days_mask(value: object) -> int:
    """Calendar day numbers (`2,3` = Monday, Tuesday) as the alarms.db mask (Mon = 1)."""
    mask = 0
    for part in str(value).replace(" ", "").split(","):
        day = _int(part, 0)
        if 1 <= day <= 7:
            mask |= 1 << ((day - 2) % 7)
    return mask


def set_alarm(ctx: Context, extras: dict) -> int | None:
    """The alarm the intent switched on or created; None if it named no valid time."""
    if EXTRA + "HOUR" not in extras:
        return None
    hour = _int(extras[EXTRA + "HOUR"], -1)
    minutes = _int(extras.get(EXTRA + "MINUTES", 0), -1)
    if not (0 <= hour <= 23 and 0 <= minutes <= 59):
        return None
    days = calendar_days_mask(extras[EXTRA + "DAYS"]) if EXTRA + "DAYS" in extras else 0
    label = extras.get(EXTRA + "MESSAGE")
    data = model.load(ctx)
    for alarm in sorted(data.alarms, key=lambda a: a.id):
        if (alarm.hour, alarm.minutes, alarm.daysofweek) == (hour, minutes, days) and (
                label is None or alarm.label == label):
            model.switch_on_anew(ctx, alarm.id)
            return alarm.id
    return model.create_alarm(ctx, hour, minutes, days, label or "").id


class HandleApiCalls(Activity):
    """A trampoline: acts on the intent, opens the Alarm tab unless told not to, finishes."""

    def on_create(self, ctx: Context) -> None:
        extras = self.intent.extras
        if self.intent.action == ACTION_SET_ALARM:
            has_hour = EXTRA + "HOUR" in extras
            alarm_id = set_alarm(ctx, extras)
            skip_ui = str(extras.get(EXTRA + "SKIP_UI", "false")).lower() == "true"
            if alarm_id is not None and not skip_ui:
                self._show(ctx, model.ACTION_SHOW_ALARMS, model.ACTIVITY, {SCROLL_TO_ALARM: alarm_id})
            elif not has_hour:
                self._show(ctx, model.ACTION_SHOW_ALARMS, model.ACTIVITY, {CREATE_NEW: True})
        elif self.intent.action == ACTION_SET_TIMER:
            self._show(ctx, None, model.ACTIVITY, {TIMER_SETUP: True})
        ctx.finish()

    @staticmethod
    def _show(ctx: Context, action: str | None, activity: str, extras: dict) -> None:
        ctx.start_activity(Intent(action=action, flags=0x10000000,
                                  component=(model.PACKAGE, activity), extras=extras))

    def build(self, ctx: Context) -> View:
        return frame(width=MATCH, height=MATCH)


class HandleShortcuts(HandleApiCalls):
    """The stopwatch shortcut's trampoline: start or pause, then the Stopwatch tab."""

    def on_create(self, ctx: Context) -> None:
        action = self.intent.action
        if action in (ACTION_START_STOPWATCH, ACTION_PAUSE_STOPWATCH):
            if action == ACTION_START_STOPWATCH:
                model.stopwatch_start(ctx, label="Shortcut")
            else:
                model.stopwatch_pause(ctx, label="Shortcut")
            self._show(ctx, action, model.ACTIVITY, {})
        ctx.finish()

"""The Clock's data and what changing it does: alarms kept in the real `alarms.db`, the
next instance of each enabled alarm, the stopwatch and timer, and the log lines.

Alarm changes follow AOSP DeskClock's AlarmStateManager: an enabled alarm always has one
instance (its next occurrence); creating an alarm, switching it on, or changing the time
or days of an enabled one replaces its instance and logs `Created new alarm instance`.
The earliest instance is what the app gives AlarmManager as the next alarm clock; when it
changes, system_server's ScheduleConditionProvider (ConditionProviders.SCP) evaluates its
subscription and logs `nextUserAlarmTime` (also on every TIME_SET broadcast).
"""

from __future__ import annotations

import datetime as dt
import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bmoca.formats.weekdays import DAY_KEYS
from bmoca.sim.apps.clock import alarms_db
from bmoca.sim.apps.clock.alarms_db import Alarm, Instance

if TYPE_CHECKING:
    from bmoca.sim.apps.base import Context

PACKAGE = "com.google.android.deskclock"
ACTIVITY = "com.android.deskclock.DeskClock"
ACTION_SHOW_ALARMS = "android.intent.action.SHOW_ALARMS"
TAG = "AlarmClock"
SCP_TAG = "ConditionProviders.SCP"
TABS = ("alarm", "clock", "timer", "stopwatch")
EVENT_CATEGORY = {"alarm": "Alarm", "clock": "Clock", "timer": "Timer", "stopwatch": "Stopwatch"}
SLEEPING_RULE = ("ScheduleCalendar[mDays={1, 2, 3, 4, 5, 6, 7}, mSchedule=ScheduleInfo{days=[1, 2, "
                 "3, 4, 5, 6, 7], startHour=22, startMinute=0, endHour=7, endMinute=0, "
                 "exitAtAlarm=true, nextAlarm=Thu Jan 01 00:00:00 GMT 1970 (0)}]")
"""Android 10's built-in "Sleeping" schedule rule, the subscription the SCP evaluates."""


@dataclass
class Stopwatch:
    running: bool = False
    started_ms: int = 0
    """Virtual clock time of the last start."""
    accumulated_ms: int = 0
    laps: list[int] = field(default_factory=list)
    """Total elapsed time at each lap press."""

    def elapsed(self, now_ms: int) -> int:
        return self.accumulated_ms + (now_ms - self.started_ms if self.running else 0)

    @property
    def reset(self) -> bool:
        return not self.running and self.accumulated_ms == 0


@dataclass
class Timer:
    length_ms: int
    remaining_ms: int
    running: bool = True
    started_ms: int = 0

    def left(self, now_ms: int) -> int:
        return max(0, self.remaining_ms - (now_ms - self.started_ms if self.running else 0))


@dataclass
class ClockData:
    """The app's state (pickled with the phone); alarms mirror alarms.db."""

    alarms: list[Alarm] = field(default_factory=list)
    instances: list[Instance] = field(default_factory=list)
    next_instance_id: int = 1
    next_alarm_ms: int = 0
    """What AlarmManager.getNextAlarmClock() returns (0: none)."""
    db_crc: int = -1
    """Checksum of the alarms.db the app last read or wrote (to notice pushed files)."""
    tab: str = "clock"
    """The selected tab, remembered across launches (AOSP's default first tab is Clock)."""
    stopwatch: Stopwatch = field(default_factory=Stopwatch)
    timer_digits: str = ""
    timer: Timer | None = None


def data_of(ctx: Context) -> ClockData:
    data = ctx.data
    if not isinstance(data, ClockData):
        data = ctx.system.state.app_data[PACKAGE] = ClockData()
    return data


# -- time ---------------------------------------------------------------------------------

def next_time(alarm: Alarm, now: dt.datetime) -> dt.datetime:
    """AOSP Alarm.getNextAlarmTime: the alarm's time today, or tomorrow if not after now,
    then moved on to the next repeat day."""
    moment = now.replace(hour=alarm.hour, minute=alarm.minutes, second=0, microsecond=0)
    if moment <= now:
        moment += dt.timedelta(days=1)
    if alarm.daysofweek:
        while not alarm.daysofweek >> moment.weekday() & 1:
            moment += dt.timedelta(days=1)
    return moment


def java_date(ms: int) -> str:
    """java.util.Date.toString() in GMT: `Thu Dec 31 13:30:00 GMT 2015`."""
    moment = dt.datetime.fromtimestamp(ms / 1000, tz=dt.UTC)
    return moment.strftime("%a %b %d %H:%M:%S GMT %Y")


def scp_message(now_ms: int, next_ms: int) -> str:
    return (f"evaluateSubscriptionLocked cal={SLEEPING_RULE}, now={java_date(now_ms)} ({now_ms}), "
            f"nextUserAlarmTime={java_date(next_ms)} ({next_ms})")


def days_text(mask: int) -> str:
    """AOSP Weekdays.toString: `[SA SU]`."""
    return "[" + " ".join(DAY_KEYS[d][:2].upper() for d in range(7) if mask >> d & 1) + "]"


def alarm_text(alarm: Alarm) -> str:
    """AOSP Alarm.toString(), as `Removed alarm` prints it."""
    return (f"Alarm{{alert={alarm.ringtone}, daysOfWeek={days_text(alarm.daysofweek)}, "
            f"enabled={'true' if alarm.enabled else 'false'}, hour={alarm.hour}, id={alarm.id}, "
            f"label={alarm.label}, minutes={alarm.minutes}, "
            f"vibrate={'true' if alarm.vibrate else 'false'}}}")


# -- persistence ----------------------------------------------------------------------------

def ensure_db(ctx: Context) -> None:
    """First boot: the image's alarms.db (the preset alarm) if there is none."""
    vfs = ctx.system.state.vfs
    if not vfs.exists(alarms_db.DEVICE_PATH):
        vfs.write(alarms_db.DEVICE_PATH, alarms_db.build(alarms_db.PRESET))


def load(ctx: Context) -> ClockData:
    """Read alarms.db again if it changed behind the app's back (a pushed file)."""
    data = data_of(ctx)
    vfs = ctx.system.state.vfs
    try:
        raw = vfs.read(alarms_db.DEVICE_PATH)
    except OSError:
        raw = alarms_db.build(())
    crc = zlib.crc32(raw)
    if crc != data.db_crc:
        try:
            data.alarms = alarms_db.read(raw)
            data.instances = alarms_db.read_instances(raw)
        except alarms_db.AlarmsDbError:
            data.alarms, data.instances = [], []
        data.next_instance_id = max([i.id for i in data.instances] + [0]) + 1
        data.db_crc = crc
        data.next_alarm_ms = _earliest(ctx, data)
    return data


def save(ctx: Context, data: ClockData) -> None:
    raw = alarms_db.build(data.alarms, data.instances)
    ctx.system.state.vfs.write(alarms_db.DEVICE_PATH, raw)
    data.db_crc = zlib.crc32(raw)


def _instance_ms(inst: Instance) -> int:
    moment = dt.datetime(inst.year, inst.month + 1, inst.day, inst.hour, inst.minutes,
                         tzinfo=dt.UTC)
    return int(moment.timestamp() * 1000)


def _earliest(ctx: Context, data: ClockData) -> int:
    enabled = {a.id for a in data.alarms if a.enabled}
    times = [_instance_ms(i) for i in data.instances if i.alarm_id in enabled]
    return min(times) if times else 0


# -- changes --------------------------------------------------------------------------------

def _schedule(ctx: Context, data: ClockData, alarm: Alarm, log: bool = True) -> None:
    """Replace the alarm's instance by its next occurrence (none if it is off)."""
    data.instances = [i for i in data.instances if i.alarm_id != alarm.id]
    if not alarm.enabled:
        return
    moment = next_time(alarm, ctx.now())
    inst = Instance(id=data.next_instance_id, year=moment.year, month=moment.month - 1,
                    day=moment.day, hour=moment.hour, minutes=moment.minute, alarm_id=alarm.id,
                    vibrate=alarm.vibrate, label=alarm.label, ringtone=alarm.ringtone)
    data.next_instance_id += 1
    data.instances.append(inst)
    if log:
        ctx.log("I", TAG, f"Created new alarm instance: {inst.describe()}")


def _commit(ctx: Context, data: ClockData) -> None:
    """Write the database and tell AlarmManager the next alarm clock."""
    save(ctx, data)
    earliest = _earliest(ctx, data)
    if earliest != data.next_alarm_ms:
        data.next_alarm_ms = earliest
        evaluate_scp(ctx, data)


def evaluate_scp(ctx: Context, data: ClockData) -> None:
    """system_server's ScheduleConditionProvider on NEXT_ALARM_CLOCK_CHANGED / TIME_SET."""
    now_ms = ctx.system.state.clock.now_ms
    ctx.system.log_system("D", SCP_TAG, scp_message(now_ms, data.next_alarm_ms))


def find(data: ClockData, alarm_id: int) -> Alarm | None:
    return next((a for a in data.alarms if a.id == alarm_id), None)


def create_alarm(ctx: Context, hour: int, minute: int, days: int = 0,
                 label: str = "") -> Alarm:
    data = load(ctx)
    alarm = Alarm(id=max([a.id for a in data.alarms] + [0]) + 1, hour=hour, minutes=minute,
                  daysofweek=days, enabled=True, vibrate=True, label=label)
    data.alarms.append(alarm)
    _schedule(ctx, data, alarm)
    _commit(ctx, data)
    return alarm


def update_alarm(ctx: Context, alarm_id: int, *, hour: int | None = None,
                 minute: int | None = None, days: int | None = None,
                 enabled: bool | None = None, vibrate: bool | None = None,
                 label: str | None = None) -> None:
    data = load(ctx)
    alarm = find(data, alarm_id)
    if alarm is None:
        return
    timing = False
    if hour is not None and (hour, minute) != (alarm.hour, alarm.minutes):
        alarm.hour, alarm.minutes = hour, minute if minute is not None else alarm.minutes
        alarm.enabled = True  # AlarmTimeClickHandler.onTimeSet switches the alarm on
        timing = True
    elif hour is not None and not alarm.enabled:
        alarm.enabled = True
        timing = True
    if days is not None and days != alarm.daysofweek:
        alarm.daysofweek = days
        timing = timing or alarm.enabled
    if enabled is not None and enabled != alarm.enabled:
        alarm.enabled = enabled
        timing = True
    if vibrate is not None:
        alarm.vibrate = vibrate
    if label is not None:
        alarm.label = label
    if timing:
        _schedule(ctx, data, alarm)
    else:
        for inst in data.instances:
            if inst.alarm_id == alarm.id:
                inst.vibrate, inst.label = alarm.vibrate, alarm.label
    _commit(ctx, data)


def switch_on_anew(ctx: Context, alarm_id: int) -> None:
    """Switch an alarm on and give it a fresh instance even if it was on (HandleApiCalls
    deletes the old instances and registers a new one)."""
    data = load(ctx)
    alarm = find(data, alarm_id)
    if alarm is None:
        return
    alarm.enabled = True
    _schedule(ctx, data, alarm)
    _commit(ctx, data)


def delete_alarm(ctx: Context, alarm_id: int) -> None:
    data = load(ctx)
    alarm = find(data, alarm_id)
    if alarm is None:
        return
    data.alarms.remove(alarm)
    data.instances = [i for i in data.instances if i.alarm_id != alarm_id]
    ctx.log("I", TAG, f"Removed alarm {alarm_text(alarm)}")
    _commit(ctx, data)


def time_set(ctx: Context) -> None:
    """TIME_SET: instances follow the new clock (AlarmStateManager.fixAlarmInstances), and
    the SCP evaluates its subscription whatever changed."""
    data = load(ctx)
    for alarm in data.alarms:
        if alarm.enabled:
            old = next((i for i in data.instances if i.alarm_id == alarm.id), None)
            moment = next_time(alarm, ctx.now())
            if old is None or (old.year, old.month, old.day, old.hour, old.minutes) != (
                    moment.year, moment.month - 1, moment.day, moment.hour, moment.minute):
                _schedule(ctx, data, alarm, log=old is None)
    save(ctx, data)
    data.next_alarm_ms = _earliest(ctx, data)
    evaluate_scp(ctx, data)


def event(ctx: Context, category: str, action: str, label: str = "Tap") -> None:
    """Google Clock's Events logger: `Events: [Stopwatch] [Start] [Tap]`."""
    ctx.log("D", TAG, f"Events: [{category}] [{action}] [{label}]")


# -- stopwatch and timer ----------------------------------------------------------------------

def stopwatch_start(ctx: Context, label: str = "Tap") -> None:
    sw = data_of(ctx).stopwatch
    if sw.running:
        return
    sw.running, sw.started_ms = True, ctx.system.state.clock.now_ms
    event(ctx, "Stopwatch", "Start", label)


def stopwatch_pause(ctx: Context, label: str = "Tap") -> None:
    sw = data_of(ctx).stopwatch
    if not sw.running:
        return
    sw.accumulated_ms = sw.elapsed(ctx.system.state.clock.now_ms)
    sw.running = False
    event(ctx, "Stopwatch", "Pause", label)


def stopwatch_reset(ctx: Context) -> None:
    data = data_of(ctx)
    data.stopwatch = Stopwatch()
    event(ctx, "Stopwatch", "Reset")


def stopwatch_lap(ctx: Context) -> None:
    sw = data_of(ctx).stopwatch
    if sw.running and len(sw.laps) < 98:
        sw.laps.append(sw.elapsed(ctx.system.state.clock.now_ms))
        event(ctx, "Stopwatch", "Lap")


def format_stopwatch(ms: int) -> tuple[str, str]:
    """(`stopwatch_time_text`, hundredths): `0:05` / `1:02:03`, and `07`."""
    seconds, hundredths = divmod(ms // 10, 100)
    minutes, seconds = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    main = f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"
    return main, f"{hundredths:02d}"


def timer_digits_hms(digits: str) -> tuple[int, int, int]:
    padded = digits.rjust(6, "0")
    return int(padded[0:2]), int(padded[2:4]), int(padded[4:6])


def timer_start(ctx: Context) -> None:
    data = data_of(ctx)
    h, m, s = timer_digits_hms(data.timer_digits)
    length = ((h * 60 + m) * 60 + s) * 1000
    if not length:
        return
    now = ctx.system.state.clock.now_ms
    data.timer = Timer(length_ms=length, remaining_ms=length, running=True, started_ms=now)
    data.timer_digits = ""
    event(ctx, "Timer", "Start")


def timer_toggle(ctx: Context) -> None:
    timer = data_of(ctx).timer
    if timer is None:
        return
    now = ctx.system.state.clock.now_ms
    if timer.running:
        timer.remaining_ms, timer.running = timer.left(now), False
        event(ctx, "Timer", "Pause")
    else:
        timer.running, timer.started_ms = True, now
        event(ctx, "Timer", "Start")


def timer_delete(ctx: Context) -> None:
    data = data_of(ctx)
    if data.timer is not None:
        data.timer = None
        event(ctx, "Timer", "Delete")

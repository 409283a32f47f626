"""Google Clock's alarm database (`alarms.db`), in its real schema.

The Clock keeps its alarms in `/data/user_de/0/com.google.android.deskclock/databases/
alarms.db`: `alarm_templates` (one row per alarm the user sees) and `alarm_instances`
(the next occurrence of each enabled alarm), with AOSP DeskClock's columns and types plus
Google Clock's `workflow_label` / `workflow_data`. B-MoCA's detectors pull this file and
query `alarm_templates`; the simulated Clock rewrites it after every change, and tests and
tools read it back with `read`.

`daysofweek` is a bit mask, Monday = 1, Tuesday = 2, ... Sunday = 64 (weekend = 96,
weekdays = 31). Instance months are 0-based, as java.util.Calendar counts them.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass

DEVICE_PATH = "/data/user_de/0/com.google.android.deskclock/databases/alarms.db"
USER_VERSION = 8
"""AOSP ClockDatabaseHelper's VERSION_8 schema (Google Clock adds the workflow columns)."""
DEFAULT_RINGTONE = "content://settings/system/alarm_alert"
SILENT_STATE = 0
"""AlarmInstance.SILENT_STATE: an instance more than two hours away."""

TEMPLATES_DDL = (
    "CREATE TABLE alarm_templates (_id INTEGER PRIMARY KEY,hour INTEGER NOT NULL,"
    "minutes INTEGER NOT NULL,daysofweek INTEGER NOT NULL,enabled INTEGER NOT NULL,"
    "vibrate INTEGER NOT NULL,label TEXT NOT NULL,ringtone TEXT,"
    "delete_after_use INTEGER NOT NULL DEFAULT 0,workflow_label TEXT,workflow_data TEXT)"
)
INSTANCES_DDL = (
    "CREATE TABLE alarm_instances (_id INTEGER PRIMARY KEY,year INTEGER NOT NULL,"
    "month INTEGER NOT NULL,day INTEGER NOT NULL,hour INTEGER NOT NULL,"
    "minutes INTEGER NOT NULL,vibrate INTEGER NOT NULL,label TEXT NOT NULL,ringtone TEXT,"
    "alarm_state INTEGER NOT NULL,alarm_id INTEGER REFERENCES alarm_templates(_id) "
    "ON UPDATE CASCADE ON DELETE CASCADE)"
)
_SQLITE_MAGIC = b"SQLite format 3\x00"


class AlarmsDbError(ValueError):
    """A file that is not a readable alarms.db; the message says why."""


@dataclass
class Alarm:
    """A row of `alarm_templates`."""

    id: int
    hour: int
    minutes: int
    daysofweek: int = 0
    enabled: bool = False
    vibrate: bool = True
    label: str = ""
    ringtone: str = DEFAULT_RINGTONE
    delete_after_use: bool = False


@dataclass
class Instance:
    """A row of `alarm_instances`: the next occurrence of an enabled alarm."""

    id: int
    year: int
    month: int
    """0-based (January = 0), as Calendar.MONTH."""
    day: int
    hour: int
    minutes: int
    alarm_id: int
    vibrate: bool = True
    label: str = ""
    ringtone: str = DEFAULT_RINGTONE
    alarm_state: int = SILENT_STATE

    def describe(self) -> str:
        """AOSP AlarmInstance.toString(), as the Clock logs it."""
        return (f"AlarmInstance{{mId={self.id}, mYear={self.year}, mMonth={self.month}, "
                f"mDay={self.day}, mHour={self.hour}, mMinute={self.minutes}, "
                f"mLabel={self.label}, mVibrate={'true' if self.vibrate else 'false'}, "
                f"mRingtone={self.ringtone}, mAlarmId={self.alarm_id}, "
                f"mAlarmState={self.alarm_state}}}")


PRESET = (Alarm(id=1, hour=9, minutes=0, daysofweek=96, enabled=False, vibrate=True),)
"""What every B-MoCA image holds: 09:00 on Saturday and Sunday, switched off."""


def build(alarms: Iterable[Alarm], instances: Iterable[Instance] = ()) -> bytes:
    """A complete alarms.db (SQLite file bytes)."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute("CREATE TABLE android_metadata (locale TEXT)")
        conn.execute("INSERT INTO android_metadata VALUES ('en_US')")
        conn.execute(TEMPLATES_DDL)
        conn.execute(INSTANCES_DDL)
        conn.execute(f"PRAGMA user_version = {USER_VERSION}")
        for a in alarms:
            conn.execute(
                "INSERT INTO alarm_templates (_id, hour, minutes, daysofweek, enabled, vibrate, "
                "label, ringtone, delete_after_use, workflow_label, workflow_data) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL)",
                (a.id, a.hour, a.minutes, a.daysofweek, int(a.enabled), int(a.vibrate), a.label,
                 a.ringtone, int(a.delete_after_use)))
        for i in instances:
            conn.execute(
                "INSERT INTO alarm_instances (_id, year, month, day, hour, minutes, vibrate, "
                "label, ringtone, alarm_state, alarm_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (i.id, i.year, i.month, i.day, i.hour, i.minutes, int(i.vibrate), i.label,
                 i.ringtone, i.alarm_state, i.alarm_id))
        conn.commit()
        return bytes(conn.serialize())
    finally:
        conn.close()


def _query(data: bytes, sql: str) -> list[tuple]:
    if len(data) < 100 or bytes(data[:16]) != _SQLITE_MAGIC:
        raise AlarmsDbError("not a SQLite database (bad header); expected an alarms.db file")
    conn = sqlite3.connect(":memory:")
    try:
        conn.deserialize(bytes(data))
        return conn.execute(sql).fetchall()
    except sqlite3.DatabaseError as exc:
        raise AlarmsDbError(f"not a readable alarms.db: {exc}") from None
    finally:
        conn.close()


def read(data: bytes) -> list[Alarm]:
    """The alarm templates of an alarms.db, by `_id`."""
    rows = _query(data, "SELECT _id, hour, minutes, daysofweek, enabled, vibrate, label, "
                        "ringtone, delete_after_use FROM alarm_templates ORDER BY _id")
    return [Alarm(id=r[0], hour=r[1], minutes=r[2], daysofweek=r[3], enabled=bool(r[4]),
                  vibrate=bool(r[5]), label=r[6] or "", ringtone=r[7] or DEFAULT_RINGTONE,
                  delete_after_use=bool(r[8])) for r in rows]


def read_instances(data: bytes) -> list[Instance]:
    rows = _query(data, "SELECT _id, year, month, day, hour, minutes, alarm_id, vibrate, label, "
                        "ringtone, alarm_state FROM alarm_instances ORDER BY _id")
    return [Instance(id=r[0], year=r[1], month=r[2], day=r[3], hour=r[4], minutes=r[5],
                     alarm_id=r[6], vibrate=bool(r[7]), label=r[8] or "",
                     ringtone=r[9] or DEFAULT_RINGTONE, alarm_state=r[10]) for r in rows]

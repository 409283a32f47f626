"""The Calendar provider's data: `calendar.db`, a real SQLite file in the VFS.

Google Calendar keeps no events of its own: like every calendar app it reads and writes
`content://com.android.calendar` (CalendarProvider2, package
`com.android.providers.calendar`), whose database is this file. The schema is the
Android 10 `CalendarDatabaseHelper` subset that matters: `Calendars` and `Events` with
their real column names, so a file pulled from the simulator reads like one pulled from a
phone. The phone has no Google account, so the provider holds one local calendar
(`account_type` LOCAL, `_id` 1) that new events go to.

`content://com.android.calendar/events` and `/calendars` reach the same file through the
`content` shell tool (`providers.CALENDAR`), which runs the same checks on an insert.
Times are UTC milliseconds (`dtstart`, `dtend`), as the provider stores them; the caller
passes the device's virtual clock where a time is "now", never the wall clock. Like the
Contacts and Telephony modules these are plain functions over the VFS that open the
database bytes, change them and write them back; the file is made at first use.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass

from bmoca.sim.system import dbfile
from bmoca.sim.system.vfs import VirtualFS

DB_PATH = "/data/data/com.android.providers.calendar/databases/calendar.db"
AUTHORITY = "com.android.calendar"
EVENTS_URI = f"content://{AUTHORITY}/events"
DATABASE_VERSION = 600
"""`PRAGMA user_version`: CalendarDatabaseHelper's schema version of Android 6-10 [I]."""

LOCAL_CALENDAR_ID = 1
ACCOUNT_TYPE_LOCAL = "LOCAL"
"""CalendarContract.ACCOUNT_TYPE_LOCAL: a calendar that is never synced."""
CAL_ACCESS_OWNER = 700
CALENDAR_COLOR = 0xFF039BE5
"""Google Calendar's default "Peacock" blue, ARGB as the provider stores colours."""
DAY_MS = 86_400_000

SCHEMA = """
CREATE TABLE android_metadata (locale TEXT);
CREATE TABLE Calendars (_id INTEGER PRIMARY KEY, account_name TEXT, account_type TEXT,
  _sync_id TEXT, dirty INTEGER, mutators TEXT, name TEXT, calendar_displayName TEXT,
  calendar_color INTEGER, calendar_color_index TEXT, calendar_access_level INTEGER,
  visible INTEGER NOT NULL DEFAULT 1, sync_events INTEGER NOT NULL DEFAULT 0,
  calendar_location TEXT, calendar_timezone TEXT, ownerAccount TEXT, isPrimary INTEGER,
  canOrganizerRespond INTEGER NOT NULL DEFAULT 1, canModifyTimeZone INTEGER DEFAULT 1,
  canPartiallyUpdate INTEGER DEFAULT 0, maxReminders INTEGER DEFAULT 5,
  allowedReminders TEXT DEFAULT '0,1', allowedAvailability TEXT DEFAULT '0,1',
  allowedAttendeeTypes TEXT DEFAULT '0,1,2', deleted INTEGER NOT NULL DEFAULT 0,
  cal_sync1 TEXT, cal_sync2 TEXT, cal_sync3 TEXT, cal_sync4 TEXT, cal_sync5 TEXT,
  cal_sync6 TEXT, cal_sync7 TEXT, cal_sync8 TEXT, cal_sync9 TEXT, cal_sync10 TEXT);
CREATE TABLE Events (_id INTEGER PRIMARY KEY AUTOINCREMENT, _sync_id TEXT, dirty INTEGER,
  mutators TEXT, lastSynced INTEGER DEFAULT 0, calendar_id INTEGER NOT NULL, title TEXT,
  eventLocation TEXT, description TEXT, eventColor INTEGER, eventColor_index TEXT,
  eventStatus INTEGER, selfAttendeeStatus INTEGER NOT NULL DEFAULT 0, dtstart INTEGER,
  dtend INTEGER, eventTimezone TEXT, duration TEXT, allDay INTEGER NOT NULL DEFAULT 0,
  accessLevel INTEGER NOT NULL DEFAULT 0, availability INTEGER NOT NULL DEFAULT 0,
  hasAlarm INTEGER NOT NULL DEFAULT 0, hasExtendedProperties INTEGER NOT NULL DEFAULT 0,
  rrule TEXT, rdate TEXT, exrule TEXT, exdate TEXT, original_id INTEGER,
  original_sync_id TEXT, originalInstanceTime INTEGER, originalAllDay INTEGER,
  lastDate INTEGER, hasAttendeeData INTEGER NOT NULL DEFAULT 0,
  guestsCanModify INTEGER NOT NULL DEFAULT 0, guestsCanInviteOthers INTEGER NOT NULL DEFAULT 1,
  guestsCanSeeGuests INTEGER NOT NULL DEFAULT 1, organizer STRING, isOrganizer INTEGER,
  deleted INTEGER NOT NULL DEFAULT 0, eventEndTimezone TEXT, customAppPackage TEXT,
  customAppUri TEXT, uid2445 TEXT);
CREATE INDEX eventsCalendarIdIndex ON Events (calendar_id);
"""

WRITABLE = ("calendar_id", "title", "eventLocation", "description", "eventColor",
            "eventStatus", "dtstart", "dtend", "eventTimezone", "duration", "allDay",
            "accessLevel", "availability", "hasAlarm", "rrule", "eventEndTimezone",
            "organizer", "customAppPackage", "customAppUri")
"""Events columns an app may set through the provider (the rest are the provider's)."""


class CalendarError(ValueError):
    """What CalendarProvider2 throws as IllegalArgumentException for bad event values."""


@dataclass(frozen=True)
class Event:
    id: int
    calendar_id: int
    title: str
    dtstart: int
    """UTC milliseconds since the epoch."""
    dtend: int
    all_day: bool = False
    location: str = ""
    description: str = ""
    timezone: str = "GMT"

    @property
    def start(self) -> dt.datetime:
        return _utc(self.dtstart)

    @property
    def end(self) -> dt.datetime:
        return _utc(self.dtend)


def _utc(ms: int) -> dt.datetime:
    return dt.datetime.fromtimestamp(ms / 1000, tz=dt.UTC)


def day_start_ms(day: dt.date) -> int:
    """Midnight UTC of `day` (the device runs in GMT, persist.sys.timezone)."""
    return int(dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC).timestamp() * 1000)


def ensure(vfs: VirtualFS) -> None:
    """Create the database with its one local calendar, as the provider does at first use."""
    if vfs.exists(DB_PATH):
        return
    conn = dbfile.create(SCHEMA, DATABASE_VERSION)
    conn.execute(
        "INSERT INTO Calendars (_id, account_name, account_type, name, calendar_displayName, "
        "calendar_color, calendar_access_level, visible, sync_events, calendar_timezone, "
        "ownerAccount, isPrimary) VALUES (?, ?, ?, ?, ?, ?, ?, 1, 1, 'GMT', ?, 1)",
        (LOCAL_CALENDAR_ID, "Phone", ACCOUNT_TYPE_LOCAL, "Calendar", "Calendar",
         _signed(CALENDAR_COLOR), CAL_ACCESS_OWNER, "Phone"))
    vfs.write(DB_PATH, bytes(conn.serialize()))


def _signed(argb: int) -> int:
    """An ARGB colour as Java's int stores it."""
    return argb - (1 << 32) if argb >= 1 << 31 else argb


def _open(vfs: VirtualFS) -> sqlite3.Connection:
    ensure(vfs)
    return dbfile.load(vfs, DB_PATH)


def _save(vfs: VirtualFS, conn: sqlite3.Connection) -> None:
    dbfile.store(vfs, DB_PATH, conn)


def validate(conn: sqlite3.Connection, values: Mapping[str, object], new: bool) -> None:
    """CalendarProvider2.validateEventData's checks, with its messages."""
    unknown = sorted(set(values) - set(WRITABLE))
    if unknown:
        raise CalendarError(f"Column {unknown[0]} is invalid.")
    if new and values.get("calendar_id") is None:
        raise CalendarError("New events must specify a calendar id")
    if "calendar_id" in values and conn.execute(
            "SELECT 1 FROM Calendars WHERE _id = ? AND deleted = 0",
            (values["calendar_id"],)).fetchone() is None:
        raise CalendarError(f"Calendar id {values['calendar_id']} is not valid")
    if new and values.get("dtstart") is None:
        raise CalendarError("DTSTART cannot be empty.")
    if new and values.get("dtend") is None and values.get("duration") is None:
        raise CalendarError("DTEND and DURATION cannot both be null for an event.")
    if values.get("dtend") is not None and values.get("duration") is not None:
        raise CalendarError("Cannot have both DTEND and DURATION in an event")
    if new and not values.get("eventTimezone"):
        raise CalendarError("EVENT_TIMEZONE cannot be empty.")


def insert_event(vfs: VirtualFS, values: Mapping[str, object]) -> int:
    """Insert an event (content://com.android.calendar/events insert) and return its _id.

    As for any caller that is not a sync adapter the row is marked dirty; a `duration`
    ("P3600S") instead of `dtend` is kept as given, as the provider keeps it."""
    conn = _open(vfs)
    row = prepare_insert(conn, values)
    cur = conn.execute(f"INSERT INTO Events ({', '.join(row)}) "
                       f"VALUES ({', '.join('?' for _ in row)})", tuple(row.values()))
    _save(vfs, conn)
    return int(cur.lastrowid)


def prepare_insert(conn: sqlite3.Connection, values: Mapping[str, object]) -> dict[str, object]:
    """The row CalendarProvider2 writes for an app's insert: the values checked, then
    marked dirty (not yet synced), with the inserting app as organizer of its own event."""
    validate(conn, values, new=True)
    return {**values, "dirty": 1, "hasAttendeeData": 1, "isOrganizer": 1}


def update_event(vfs: VirtualFS, event_id: int, values: Mapping[str, object]) -> int:
    """Update one event's columns; the number of rows changed (0 when there is none)."""
    if not values:
        return 0
    conn = _open(vfs)
    validate(conn, values, new=False)
    columns = list(values)
    cur = conn.execute(
        f"UPDATE Events SET {', '.join(f'{c} = ?' for c in columns)}, dirty = 1 "
        "WHERE _id = ? AND deleted = 0", (*(values[c] for c in columns), event_id))
    _save(vfs, conn)
    return cur.rowcount


def delete_event(vfs: VirtualFS, event_id: int) -> int:
    """Delete an event. An event a sync adapter has seen (it has a `_sync_id`) is only
    marked deleted until the next sync, as CalendarProvider2 does; a local one goes."""
    conn = _open(vfs)
    row = conn.execute("SELECT _sync_id FROM Events WHERE _id = ? AND deleted = 0",
                       (event_id,)).fetchone()
    if row is None:
        return 0
    if row[0]:
        conn.execute("UPDATE Events SET deleted = 1, dirty = 1 WHERE _id = ?", (event_id,))
    else:
        conn.execute("DELETE FROM Events WHERE _id = ?", (event_id,))
    _save(vfs, conn)
    return 1


def _duration_ms(duration: str | None) -> int:
    """An RFC 2445 duration as the provider accepts it ("P3600S", "PT1H", "P1D")."""
    if not duration:
        return 0
    text = duration.upper().lstrip("+").removeprefix("P")
    total, number = 0, ""
    units = {"W": 7 * DAY_MS, "D": DAY_MS, "H": 3_600_000, "M": 60_000, "S": 1000}
    for ch in text:
        if ch.isdigit():
            number += ch
        elif ch in units and number:
            total += int(number) * units[ch]
            number = ""
    return total


def _event(row: tuple) -> Event:
    _id, cal, title, start, end, duration, all_day, location, description, tz = row
    start = int(start or 0)
    end = int(end) if end is not None else start + _duration_ms(duration)
    return Event(int(_id), int(cal), title or "", start, end, bool(all_day), location or "",
                 description or "", tz or "")


_COLUMNS = ("_id, calendar_id, title, dtstart, dtend, duration, allDay, eventLocation, "
            "description, eventTimezone")


def events(vfs: VirtualFS, day: dt.date | None = None) -> list[Event]:
    """Events of visible calendars, by start time (then _id); with `day`, those that
    overlap that day, as the Instances the app queries for a day would."""
    conn = _open(vfs)
    rows = conn.execute(
        f"SELECT {', '.join('e.' + c for c in _COLUMNS.split(', '))} FROM Events e "
        "JOIN Calendars c ON c._id = e.calendar_id WHERE e.deleted = 0 AND c.visible = 1 "
        "ORDER BY e.dtstart, e._id").fetchall()
    found = [_event(r) for r in rows]
    if day is None:
        return found
    lo = day_start_ms(day)
    hi = lo + DAY_MS
    return [e for e in found if e.dtstart < hi and max(e.dtend, e.dtstart + 1) > lo]


def event(vfs: VirtualFS, event_id: int) -> Event | None:
    conn = _open(vfs)
    row = conn.execute(f"SELECT {_COLUMNS} FROM Events WHERE _id = ? AND deleted = 0",
                       (event_id,)).fetchone()
    return _event(row) if row else None

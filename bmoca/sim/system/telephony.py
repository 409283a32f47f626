"""The Telephony provider's SMS store: `mmssms.db`, a real SQLite file in the VFS.

The tables are Android 10's `MmsSmsDatabaseHelper` ones the Messages app reads and writes:
`sms` (every column of the Android 10 table), `threads` and `canonical_addresses`. A
thread's `recipient_ids` lists `canonical_addresses` ids, as `getOrCreateThreadId` makes
them; sending appends an `sms` row of type 2 (sent) dated by the device's virtual clock
and refreshes the thread's snippet, date and count.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass

from bmoca.sim.system import dbfile
from bmoca.sim.system.contacts import same_number
from bmoca.sim.system.vfs import VirtualFS

DB_PATH = "/data/data/com.android.providers.telephony/databases/mmssms.db"
DATABASE_VERSION = 67
"""`PRAGMA user_version` of Android 10's MmsSmsDatabaseHelper [I]."""

TYPE_INBOX, TYPE_SENT = 1, 2
SUB_ID = 1
"""The emulator's single SIM subscription."""
CREATOR = "com.google.android.apps.messaging"

SCHEMA = """
CREATE TABLE android_metadata (locale TEXT);
CREATE TABLE sms (_id INTEGER PRIMARY KEY, thread_id INTEGER, address TEXT, person INTEGER,
  date INTEGER, date_sent INTEGER DEFAULT 0, protocol INTEGER, read INTEGER DEFAULT 0,
  status INTEGER DEFAULT -1, type INTEGER, reply_path_present INTEGER, subject TEXT, body TEXT,
  service_center TEXT, locked INTEGER DEFAULT 0, sub_id INTEGER DEFAULT -1,
  error_code INTEGER DEFAULT 0, creator TEXT, seen INTEGER DEFAULT 0);
CREATE TABLE threads (_id INTEGER PRIMARY KEY AUTOINCREMENT, date INTEGER DEFAULT 0,
  message_count INTEGER DEFAULT 0, recipient_ids TEXT, snippet TEXT,
  snippet_cs INTEGER DEFAULT 0, read INTEGER DEFAULT 1, archived INTEGER DEFAULT 0,
  type INTEGER DEFAULT 0, error INTEGER DEFAULT 0, has_attachment INTEGER DEFAULT 0);
CREATE TABLE canonical_addresses (_id INTEGER PRIMARY KEY AUTOINCREMENT, address TEXT);
CREATE INDEX typeThreadIdIndex ON sms (type, thread_id);
"""


@dataclass(frozen=True)
class Message:
    id: int
    thread_id: int
    address: str
    date: int
    """Milliseconds since the epoch (the device clock)."""
    type: int
    body: str
    read: bool = True


@dataclass(frozen=True)
class Thread:
    id: int
    address: str
    date: int
    snippet: str
    message_count: int
    read: bool
    last_type: int
    """Type of the newest message (1 received, 2 sent): the list prefixes "You:"."""


@dataclass(frozen=True)
class _PresetSms:
    address: str
    minutes_ago: int
    type: int
    body: str


PRESETS: tuple[_PresetSms, ...] = (
    _PresetSms("(650) 555-0112", 60 * 26, TYPE_INBOX, "Are we still on for dinner on Friday?"),
    _PresetSms("(650) 555-0112", 60 * 26 - 4, TYPE_SENT, "Yes! 7 pm at the usual place."),
    _PresetSms("(650) 555-0112", 60 * 25, TYPE_INBOX, "Great, see you there!"),
    _PresetSms("22000", 60 * 50, TYPE_INBOX,
               "G-482913 is your Google verification code."),
    _PresetSms("(650) 555-0158", 95, TYPE_INBOX,
               "Can you send me the photos from the trip?"),
)
"""A lived-in inbox: no message from or to a number a task dials."""


def _open(vfs: VirtualFS, now_ms: int) -> sqlite3.Connection:
    ensure(vfs, now_ms)
    return dbfile.load(vfs, DB_PATH)


def _save(vfs: VirtualFS, conn: sqlite3.Connection) -> None:
    dbfile.store(vfs, DB_PATH, conn)


def ensure(vfs: VirtualFS, now_ms: int) -> None:
    """Create the database with the preset conversations (dated before `now_ms`)."""
    if vfs.exists(DB_PATH):
        return
    conn = dbfile.create(SCHEMA, DATABASE_VERSION)
    for sms in sorted(PRESETS, key=lambda s: -s.minutes_ago):
        _append(conn, sms.address, sms.body, sms.type, now_ms - sms.minutes_ago * 60_000,
                read=True)
    vfs.write(DB_PATH, bytes(conn.serialize()))


def thread_for(conn: sqlite3.Connection, address: str, create: bool) -> int | None:
    """getOrCreateThreadId for one recipient (numbers compared digit by digit)."""
    for addr_id, known in conn.execute("SELECT _id, address FROM canonical_addresses"):
        if known == address or same_number(known, address):
            row = conn.execute("SELECT _id FROM threads WHERE recipient_ids = ?",
                               (str(addr_id),)).fetchone()
            if row is not None:
                return row[0]
            break
    else:
        addr_id = None
    if not create:
        return None
    if addr_id is None:
        addr_id = conn.execute("INSERT INTO canonical_addresses (address) VALUES (?)",
                               (address,)).lastrowid
    return conn.execute("INSERT INTO threads (recipient_ids) VALUES (?)",
                        (str(addr_id),)).lastrowid


def _append(conn: sqlite3.Connection, address: str, body: str, type_: int, date: int,
            read: bool) -> int:
    thread_id = thread_for(conn, address, create=True)
    cur = conn.execute(
        "INSERT INTO sms (thread_id, address, person, date, date_sent, protocol, read, status, "
        "type, reply_path_present, subject, body, service_center, locked, sub_id, error_code, "
        "creator, seen) VALUES (?, ?, NULL, ?, ?, ?, ?, -1, ?, ?, NULL, ?, NULL, 0, ?, 0, ?, 1)",
        (thread_id, address, date, date if type_ == TYPE_INBOX else 0,
         0 if type_ == TYPE_INBOX else None, int(read), type_,
         0 if type_ == TYPE_INBOX else None, body, SUB_ID,
         CREATOR if type_ == TYPE_SENT else "com.android.phone"))
    conn.execute("UPDATE threads SET date = ?, snippet = ?, message_count = message_count + 1, "
                 "read = ? WHERE _id = ?", (date, body, int(read), thread_id))
    return cur.lastrowid


def refresh_threads(conn: sqlite3.Connection) -> None:
    """Each thread's date, snippet, count and read flag from its messages, as the
    database's triggers keep them; a thread left empty by a delete is dropped, as
    MmsSmsProvider drops obsolete threads."""
    conn.execute(
        "UPDATE threads SET "
        "message_count = (SELECT COUNT(*) FROM sms WHERE thread_id = threads._id), "
        "date = COALESCE((SELECT date FROM sms WHERE thread_id = threads._id "
        "ORDER BY date DESC, _id DESC LIMIT 1), date), "
        "snippet = (SELECT body FROM sms WHERE thread_id = threads._id "
        "ORDER BY date DESC, _id DESC LIMIT 1), "
        "read = NOT EXISTS (SELECT 1 FROM sms WHERE thread_id = threads._id AND read = 0)")
    # a conversation opened in the composer and never written to has date 0: it stays
    conn.execute("DELETE FROM threads WHERE message_count = 0 AND date > 0")


def threads(vfs: VirtualFS, now_ms: int) -> list[Thread]:
    """Conversations with at least one message, newest first."""
    conn = _open(vfs, now_ms)
    rows = conn.execute(
        "SELECT t._id, c.address, t.date, t.snippet, t.message_count, t.read, "
        "(SELECT type FROM sms WHERE thread_id = t._id ORDER BY date DESC, _id DESC LIMIT 1) "
        "FROM threads t JOIN canonical_addresses c ON c._id = CAST(t.recipient_ids AS INTEGER) "
        "WHERE t.message_count > 0 ORDER BY t.date DESC, t._id DESC")
    return [Thread(i, a, d, s or "", n, bool(r), ty or TYPE_INBOX)
            for i, a, d, s, n, r, ty in rows]


def thread_id(vfs: VirtualFS, address: str, now_ms: int, create: bool = True) -> int | None:
    """The conversation with this address, created (empty) if asked and missing."""
    conn = _open(vfs, now_ms)
    found = thread_for(conn, address, create=create)
    if create:
        _save(vfs, conn)
    return found


def address_of(vfs: VirtualFS, thread: int, now_ms: int) -> str | None:
    conn = _open(vfs, now_ms)
    row = conn.execute("SELECT c.address FROM threads t JOIN canonical_addresses c ON "
                       "c._id = CAST(t.recipient_ids AS INTEGER) WHERE t._id = ?",
                       (thread,)).fetchone()
    return row[0] if row else None


def messages(vfs: VirtualFS, thread: int, now_ms: int) -> list[Message]:
    """A conversation's messages, oldest first."""
    conn = _open(vfs, now_ms)
    return [Message(*row[:6], bool(row[6])) for row in conn.execute(
        "SELECT _id, thread_id, address, date, type, body, read FROM sms WHERE thread_id = ? "
        "ORDER BY date, _id", (thread,))]


def send(vfs: VirtualFS, address: str, body: str, now_ms: int) -> Message:
    """Store an outgoing SMS (type 2, sent) as the app does once the radio accepts it."""
    conn = _open(vfs, now_ms)
    sms_id = _append(conn, address, body, TYPE_SENT, now_ms, read=True)
    _save(vfs, conn)
    row = conn.execute("SELECT thread_id FROM sms WHERE _id = ?", (sms_id,)).fetchone()
    return Message(sms_id, row[0], address, now_ms, TYPE_SENT, body)


def receive(vfs: VirtualFS, address: str, body: str, now_ms: int) -> Message:
    """Store an incoming SMS (type 1, inbox, unread) as the Messages app's receiver does."""
    conn = _open(vfs, now_ms)
    sms_id = _append(conn, address, body, TYPE_INBOX, now_ms, read=False)
    _save(vfs, conn)
    row = conn.execute("SELECT thread_id FROM sms WHERE _id = ?", (sms_id,)).fetchone()
    return Message(sms_id, row[0], address, now_ms, TYPE_INBOX, body, False)


def delete_threads(vfs: VirtualFS, thread_ids: Iterable[int], now_ms: int) -> None:
    """Delete conversations with their messages, as the Messages app's delete does through
    `content://mms-sms/conversations/<id>` (MmsSmsProvider drops the emptied thread)."""
    conn = _open(vfs, now_ms)
    for thread in thread_ids:
        conn.execute("DELETE FROM sms WHERE thread_id = ?", (thread,))
        conn.execute("DELETE FROM threads WHERE _id = ?", (thread,))
    _save(vfs, conn)


def mark_read(vfs: VirtualFS, thread: int, now_ms: int) -> None:
    conn = _open(vfs, now_ms)
    if conn.execute("SELECT 1 FROM sms WHERE thread_id = ? AND read = 0",
                    (thread,)).fetchone() is None:
        return
    conn.execute("UPDATE sms SET read = 1, seen = 1 WHERE thread_id = ?", (thread,))
    conn.execute("UPDATE threads SET read = 1 WHERE _id = ?", (thread,))
    _save(vfs, conn)

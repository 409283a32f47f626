"""The call log: CallLogProvider's `calllog.db`, a real SQLite file in the Android 10 schema.

Android 10 keeps calls (and voicemails) in the `calls` table of
`/data/data/com.android.providers.contacts/databases/calllog.db`
(CallLogDatabaseHelper, database version 8). The columns below are that table's, in
order; the Dialer's Recents tab and the dialpad's "last dialled number" read it, and the
in-call UI's Telecom side adds a row when a call ends. A fresh emulator image has an
empty call log, and so does the simulated phone.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from bmoca.sim.system.vfs import VirtualFS

DB_PATH = "/data/data/com.android.providers.contacts/databases/calllog.db"
DATABASE_VERSION = 8

INCOMING_TYPE = 1
OUTGOING_TYPE = 2
MISSED_TYPE = 3
REJECTED_TYPE = 5
"""CallLog.Calls.REJECTED_TYPE: an incoming call the user declined."""
PRESENTATION_ALLOWED = 1

CALLS_SCHEMA = """
CREATE TABLE calls (
    _id INTEGER PRIMARY KEY AUTOINCREMENT,
    number TEXT,
    presentation INTEGER NOT NULL DEFAULT 1,
    post_dial_digits TEXT NOT NULL DEFAULT '',
    via_number TEXT NOT NULL DEFAULT '',
    date INTEGER,
    duration INTEGER,
    data_usage INTEGER,
    type INTEGER,
    features INTEGER NOT NULL DEFAULT 0,
    subscription_component_name TEXT,
    subscription_id TEXT,
    phone_account_address TEXT,
    phone_account_hidden INTEGER NOT NULL DEFAULT 0,
    sub_id INTEGER DEFAULT -1,
    new INTEGER,
    name TEXT,
    numbertype INTEGER,
    numberlabel TEXT,
    countryiso TEXT,
    voicemail_uri TEXT,
    is_read INTEGER,
    geocoded_location TEXT,
    lookup_uri TEXT,
    matched_number TEXT,
    normalized_number TEXT,
    photo_id INTEGER NOT NULL DEFAULT 0,
    photo_uri TEXT,
    formatted_number TEXT,
    add_for_all_users INTEGER NOT NULL DEFAULT 1,
    last_modified INTEGER DEFAULT 0,
    _data TEXT,
    has_content INTEGER,
    mime_type TEXT,
    source_data TEXT,
    source_package TEXT,
    transcription TEXT,
    transcription_state INTEGER NOT NULL DEFAULT 0,
    state INTEGER,
    dirty INTEGER NOT NULL DEFAULT 0,
    deleted INTEGER NOT NULL DEFAULT 0,
    backed_up INTEGER NOT NULL DEFAULT 0,
    restored INTEGER NOT NULL DEFAULT 0,
    archived INTEGER NOT NULL DEFAULT 0,
    is_omitted INTEGER NOT NULL DEFAULT 0,
    call_screening_component_name TEXT,
    call_screening_app_name TEXT,
    block_reason INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE voicemail_status (
    _id INTEGER PRIMARY KEY AUTOINCREMENT,
    source_package TEXT UNIQUE NOT NULL,
    phone_account_component_name TEXT,
    phone_account_id TEXT,
    settings_uri TEXT,
    voicemail_access_uri TEXT,
    configuration_state INTEGER,
    data_channel_state INTEGER,
    notification_channel_state INTEGER,
    quota_occupied INTEGER DEFAULT -1,
    quota_total INTEGER DEFAULT -1,
    source_type TEXT
);
CREATE TABLE android_metadata (locale TEXT);
INSERT INTO android_metadata VALUES ('en_US');
"""

PHONE_ACCOUNT_COMPONENT = "com.android.phone/com.android.services.telephony.TelephonyConnectionService"
"""The SIM's PhoneAccount, as Telecom records it on every call."""


@dataclass(frozen=True)
class CallEntry:
    """One row of `calls`, the columns the Dialer shows."""

    id: int
    number: str
    date_ms: int
    duration_s: int
    type: int
    name: str | None = None
    numbertype: int | None = None
    normalized_number: str | None = None


def _create() -> bytes:
    conn = sqlite3.connect(":memory:")
    try:
        conn.executescript(CALLS_SCHEMA)
        conn.execute(f"PRAGMA user_version = {DATABASE_VERSION}")
        conn.commit()
        return bytes(conn.serialize())
    finally:
        conn.close()


def ensure(vfs: VirtualFS) -> None:
    """Create the empty call log of a fresh phone if it is missing."""
    if not vfs.exists(DB_PATH):
        vfs.write(DB_PATH, _create())


@contextmanager
def _db(vfs: VirtualFS, write: bool = False) -> Iterator[sqlite3.Connection]:
    ensure(vfs)
    conn = sqlite3.connect(":memory:")
    try:
        conn.deserialize(vfs.read(DB_PATH))
        yield conn
        if write:
            conn.commit()
            vfs.write(DB_PATH, bytes(conn.serialize()))
    finally:
        conn.close()


def normalized(number: str) -> str | None:
    """E.164 for North-American ten- and eleven-digit numbers, as Telecom stores it."""
    d = "".join(c for c in number if c.isdigit())
    if len(d) == 10 and d[0] in "23456789":
        return "+1" + d
    if len(d) == 11 and d[0] == "1":
        return "+" + d
    return None


def add_call(vfs: VirtualFS, number: str, date_ms: int, duration_s: int, call_type: int,
             name: str | None = None, numbertype: int | None = None,
             lookup_uri: str | None = None) -> CallEntry:
    """Insert a call as Telecom's CallLogManager does when a call ends; returns the row."""
    with _db(vfs, write=True) as conn:
        cursor = conn.execute(
            "INSERT INTO calls (number, presentation, date, duration, data_usage, type, "
            "features, subscription_component_name, subscription_id, phone_account_address, "
            "new, name, numbertype, numberlabel, countryiso, is_read, geocoded_location, "
            "lookup_uri, normalized_number, add_for_all_users, last_modified) "
            "VALUES (?, ?, ?, ?, NULL, ?, 0, ?, ?, '', ?, ?, ?, NULL, 'US', ?, ?, ?, ?, 1, ?)",
            (number, PRESENTATION_ALLOWED, date_ms, duration_s, call_type,
             PHONE_ACCOUNT_COMPONENT, "89014103211118510720", 1 if call_type == MISSED_TYPE else 0,
             name, numbertype, 0 if call_type == MISSED_TYPE else 1,
             "United States" if normalized(number) else "", lookup_uri, normalized(number),
             date_ms))
        row_id = int(cursor.lastrowid or 0)
    return CallEntry(row_id, number, date_ms, duration_s, call_type, name, numbertype,
                     normalized(number))


def delete_calls(vfs: VirtualFS, call_ids: Iterable[int]) -> None:
    """Delete calls from the log, as the Dialer's Delete does through CallLogProvider."""
    with _db(vfs, write=True) as conn:
        conn.executemany("DELETE FROM calls WHERE _id = ?", [(i,) for i in call_ids])


def calls(vfs: VirtualFS) -> list[CallEntry]:
    """Every call, newest first (CallLog.Calls.DEFAULT_SORT_ORDER)."""
    with _db(vfs) as conn:
        rows = conn.execute(
            "SELECT _id, number, date, duration, type, name, numbertype, normalized_number "
            "FROM calls WHERE deleted = 0 ORDER BY date DESC, _id DESC").fetchall()
    return [CallEntry(r[0], r[1] or "", r[2] or 0, r[3] or 0, r[4] or 0, r[5], r[6], r[7])
            for r in rows]


def last_outgoing_number(vfs: VirtualFS) -> str:
    """CallLog.Calls.getLastOutgoingCall: the number of the newest outgoing call, or ""."""
    with _db(vfs) as conn:
        row = conn.execute("SELECT number FROM calls WHERE type = ? AND deleted = 0 "
                           "ORDER BY date DESC, _id DESC LIMIT 1", (OUTGOING_TYPE,)).fetchone()
    return row[0] if row and row[0] else ""

"""A provider's SQLite file in the VFS, opened as an in-memory copy and written back whole:
how every system database (contacts, call log, SMS, calendar) is read and changed, so the
file a tool pulls is always a complete, valid SQLite database."""

from __future__ import annotations

import sqlite3

from bmoca.sim.system.vfs import VirtualFS


def create(schema: str, version: int) -> sqlite3.Connection:
    """A new in-memory database as a provider's helper makes it at first start: the schema,
    `PRAGMA user_version` and the `android_metadata` locale row every Android database has."""
    conn = sqlite3.connect(":memory:")
    conn.executescript(schema)
    conn.execute(f"PRAGMA user_version = {int(version)}")
    conn.execute("INSERT INTO android_metadata VALUES ('en_US')")
    return conn


def load(vfs: VirtualFS, path: str) -> sqlite3.Connection:
    """An in-memory connection holding a copy of the file (which must exist)."""
    conn = sqlite3.connect(":memory:")
    conn.deserialize(vfs.read(path))
    return conn


def store(vfs: VirtualFS, path: str, conn: sqlite3.Connection) -> None:
    """Commit and write the whole database back to its file."""
    conn.commit()
    vfs.write(path, bytes(conn.serialize()))

"""The contacts store (contacts2.db) and the Contacts app, driven as an agent would."""

from __future__ import annotations

import sqlite3

import pytest

from bmoca.sim.system import contacts
from bmoca.sim.system.vfs import VirtualFS

TASK_NUMBERS = ("11489", "1234578", "2234458", "264451193", "311311", "4027717", "7663394",
                "9876654", "2024561111", "8003334636", "3017130622", "8007721213", "911")


def open_db(data: bytes) -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    conn.deserialize(data)
    return conn


# -- the store ------------------------------------------------------------------------------


def test_presets_are_written_as_a_real_contacts2_db():
    vfs = VirtualFS()
    contacts.ensure(vfs)
    data = vfs.read(contacts.DB_PATH)
    assert data.startswith(b"SQLite format 3\x00")
    conn = open_db(data)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"accounts", "mimetypes", "raw_contacts", "contacts", "data", "phone_lookup"} <= tables
    assert conn.execute("PRAGMA user_version").fetchone()[0] == contacts.DATABASE_VERSION
    data_cols = [r[1] for r in conn.execute("PRAGMA table_info(data)")]
    assert [f"data{i}" for i in range(1, 16)] == [c for c in data_cols if c[4:].isdigit()]
    names = [r[0] for r in conn.execute(
        "SELECT d.data1 FROM data d JOIN mimetypes m ON m._id = d.mimetype_id "
        "WHERE m.mimetype = 'vnd.android.cursor.item/name' ORDER BY d.data1")]
    listed = contacts.all_contacts(vfs)
    assert 4 <= len(listed) <= 6
    assert names == [c.display_name for c in listed]
    assert sum(c.starred for c in listed) == 1
    assert all(c.phones for c in listed)


def test_no_preset_has_a_number_a_task_dials():
    vfs = VirtualFS()
    for number in TASK_NUMBERS:
        assert contacts.find_by_number(vfs, number) is None, number


def test_insert_update_and_lookup_round_trip_through_the_file():
    vfs = VirtualFS()
    made = contacts.insert(vfs, "Grace", "Hopper", [contacts.Phone("(212) 555-0199")],
                           ["grace@navy.mil"])
    # a fresh VFS holding only the file's bytes reads the same contact back
    copy = VirtualFS()
    copy.write(contacts.DB_PATH, vfs.read(contacts.DB_PATH))
    again = contacts.get(copy, made.id)
    assert again == made
    assert again.display_name == "Grace Hopper"
    assert again.lookup and made.lookup_uri.endswith(f"/{made.id}")
    assert contacts.find_by_number(copy, "2125550199") == made
    assert contacts.find_by_number(copy, "555-0199") == made
    assert contacts.find_by_number(copy, "2125550198") is None

    conn = open_db(copy.read(contacts.DB_PATH))
    row = conn.execute("SELECT normalized_number, min_match FROM phone_lookup p JOIN contacts c "
                       "ON c.name_raw_contact_id = p.raw_contact_id WHERE c._id = ?",
                       (made.id,)).fetchone()
    assert row == ("+12125550199", "9910555")
    assert conn.execute("SELECT has_phone_number FROM contacts WHERE _id = ?",
                        (made.id,)).fetchone() == (1,)

    changed = contacts.update(copy, contacts.Contact(
        made.id, made.lookup, "Grace", "Brewster Hopper", (contacts.Phone("911", 3),), (),
        starred=True))
    assert changed.family == "Brewster Hopper" and changed.starred
    assert changed.phones == (contacts.Phone("911", 3),) and changed.emails == ()
    assert contacts.find_by_number(copy, "2125550199") is None
    assert contacts.find_by_number(copy, "911").id == made.id
    names = [c.display_name for c in contacts.all_contacts(copy)]
    assert names == sorted(names, key=str.casefold) and "Grace Brewster Hopper" in names


def test_update_of_a_missing_contact_raises():
    vfs = VirtualFS()
    with pytest.raises(KeyError):
        contacts.update(vfs, contacts.Contact(999, "x", "No", "One"))


def test_names_and_numbers():
    assert contacts.display_name("Yuki", "Tanaka") == "Yuki Tanaka"
    assert contacts.display_name("太郎", "山田") == "山田太郎"
    assert contacts.display_name("Cher", "") == "Cher"
    assert contacts.format_number("6505550101") == "(650) 555-0101"
    assert contacts.format_number("5550101") == "555-0101"
    assert contacts.format_number("+44 20 7946 0958") == "+44 20 7946 0958"

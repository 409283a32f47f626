"""The Contacts provider's data: `contacts2.db`, a real SQLite file in the VFS.

Apps (Contacts, Phone, Messages) share one address book, as on Android, through this module:
plain functions over the VFS that open the database bytes, query or change them, and write
them back. The schema is the Android 10 `ContactsDatabaseHelper` subset that matters for
the tasks: `accounts`, `mimetypes`, `raw_contacts`, `contacts`, `data` (with
`data1..data15`) and `phone_lookup`, so a file pulled from the simulator reads like one
pulled from a phone (`COLLATE PHONEBOOK`/`LOCALIZED` are Android-only collators and are left
out, or the file would not open in a stock sqlite3). One local (account-less) raw contact
backs each aggregate contact.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field

from bmoca.sim.system import dbfile
from bmoca.sim.system.vfs import VirtualFS

DB_PATH = "/data/data/com.android.providers.contacts/databases/contacts2.db"
DATABASE_VERSION = 1400
"""`PRAGMA user_version`: ContactsDatabaseHelper numbers Android 10 (Q) schemas 1400-1499."""

MIME_NAME = "vnd.android.cursor.item/name"
MIME_PHONE = "vnd.android.cursor.item/phone_v2"
MIME_EMAIL = "vnd.android.cursor.item/email_v2"
MIMETYPES = (MIME_EMAIL, "vnd.android.cursor.item/im", "vnd.android.cursor.item/nickname",
             "vnd.android.cursor.item/organization", MIME_PHONE,
             "vnd.android.cursor.item/sip_address", MIME_NAME,
             "vnd.android.cursor.item/postal-address_v2", "vnd.android.cursor.item/identity",
             "vnd.android.cursor.item/photo", "vnd.android.cursor.item/group_membership")
"""In the order the provider inserts them at first start (their `_id`s are 1..11)."""

TYPE_HOME, TYPE_MOBILE, TYPE_WORK = 1, 2, 3
EMAIL_TYPE_HOME = 1
DISPLAY_NAME_SOURCE_STRUCTURED_NAME = 40

_DATA_COLUMNS = ", ".join(f"data{i} TEXT" for i in range(1, 16))
SCHEMA = f"""
CREATE TABLE android_metadata (locale TEXT);
CREATE TABLE accounts (_id INTEGER PRIMARY KEY AUTOINCREMENT, account_name TEXT,
  account_type TEXT, data_set TEXT);
CREATE TABLE mimetypes (_id INTEGER PRIMARY KEY AUTOINCREMENT, mimetype TEXT NOT NULL);
CREATE UNIQUE INDEX mime_type ON mimetypes (mimetype);
CREATE TABLE raw_contacts (_id INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id INTEGER REFERENCES accounts(_id), sourceid TEXT, backup_id TEXT,
  raw_contact_is_read_only INTEGER NOT NULL DEFAULT 0, version INTEGER NOT NULL DEFAULT 1,
  dirty INTEGER NOT NULL DEFAULT 0, deleted INTEGER NOT NULL DEFAULT 0,
  metadata_dirty INTEGER NOT NULL DEFAULT 0, contact_id INTEGER REFERENCES contacts(_id),
  aggregation_mode INTEGER NOT NULL DEFAULT 0, aggregation_needed INTEGER NOT NULL DEFAULT 1,
  custom_ringtone TEXT, send_to_voicemail INTEGER NOT NULL DEFAULT 0,
  times_contacted INTEGER NOT NULL DEFAULT 0, last_time_contacted INTEGER,
  starred INTEGER NOT NULL DEFAULT 0, pinned INTEGER NOT NULL DEFAULT 0, display_name TEXT,
  display_name_alt TEXT, display_name_source INTEGER NOT NULL DEFAULT 0, phonetic_name TEXT,
  phonetic_name_style TEXT, sort_key TEXT, phonebook_label TEXT, phonebook_bucket INTEGER,
  sort_key_alt TEXT, phonebook_label_alt TEXT, phonebook_bucket_alt INTEGER,
  name_verified INTEGER NOT NULL DEFAULT 0, sync1 TEXT, sync2 TEXT, sync3 TEXT, sync4 TEXT);
CREATE INDEX raw_contacts_contact_id_index ON raw_contacts (contact_id);
CREATE TABLE contacts (_id INTEGER PRIMARY KEY AUTOINCREMENT,
  name_raw_contact_id INTEGER REFERENCES raw_contacts(_id), photo_id INTEGER,
  photo_file_id INTEGER, custom_ringtone TEXT, send_to_voicemail INTEGER NOT NULL DEFAULT 0,
  times_contacted INTEGER NOT NULL DEFAULT 0, last_time_contacted INTEGER,
  starred INTEGER NOT NULL DEFAULT 0, pinned INTEGER NOT NULL DEFAULT 0,
  has_phone_number INTEGER NOT NULL DEFAULT 0, lookup TEXT, status_update_id INTEGER,
  contact_last_updated_timestamp INTEGER);
CREATE TABLE data (_id INTEGER PRIMARY KEY AUTOINCREMENT, package_id INTEGER,
  mimetype_id INTEGER REFERENCES mimetype(_id) NOT NULL,
  raw_contact_id INTEGER REFERENCES raw_contacts(_id) NOT NULL, hash_id TEXT,
  is_read_only INTEGER NOT NULL DEFAULT 0, is_primary INTEGER NOT NULL DEFAULT 0,
  is_super_primary INTEGER NOT NULL DEFAULT 0, data_version INTEGER NOT NULL DEFAULT 0,
  {_DATA_COLUMNS}, data_sync1 TEXT, data_sync2 TEXT, data_sync3 TEXT, data_sync4 TEXT,
  carrier_presence INTEGER NOT NULL DEFAULT 0,
  preferred_phone_account_component_name TEXT, preferred_phone_account_id TEXT);
CREATE INDEX data_raw_contact_id ON data (raw_contact_id);
CREATE TABLE phone_lookup (data_id INTEGER REFERENCES data(_id) NOT NULL,
  raw_contact_id INTEGER REFERENCES raw_contacts(_id) NOT NULL,
  normalized_number TEXT NOT NULL, min_match TEXT NOT NULL);
CREATE INDEX phone_lookup_index ON phone_lookup (normalized_number, raw_contact_id, data_id);
CREATE INDEX phone_lookup_min_match_index ON phone_lookup (min_match, raw_contact_id, data_id);
"""


@dataclass(frozen=True)
class Phone:
    number: str
    """As stored (`data1`), e.g. "(650) 555-0101"."""
    type: int = TYPE_MOBILE
    """ContactsContract Phone.TYPE_*: 1 home, 2 mobile, 3 work."""


@dataclass(frozen=True)
class Contact:
    id: int
    """contacts._id"""
    lookup: str
    """contacts.lookup, as in content://com.android.contacts/contacts/lookup/<lookup>/<id>."""
    given: str
    family: str
    phones: tuple[Phone, ...] = ()
    emails: tuple[str, ...] = ()
    starred: bool = False

    @property
    def display_name(self) -> str:
        return display_name(self.given, self.family)

    @property
    def lookup_uri(self) -> str:
        return f"content://com.android.contacts/contacts/lookup/{self.lookup}/{self.id}"


@dataclass(frozen=True)
class _Preset:
    given: str
    family: str
    phones: tuple[Phone, ...]
    emails: tuple[str, ...] = ()
    starred: bool = False


PRESETS: tuple[_Preset, ...] = (
    _Preset("Amelia", "Watson", (Phone("(650) 555-0101"),), ("amelia.watson@gmail.com",)),
    _Preset("Carlos", "Mendoza", (Phone("(650) 555-0112"), Phone("(650) 555-0190", TYPE_WORK)),
            starred=True),
    _Preset("Fatima", "Haddad", (Phone("(650) 555-0134"),), ("fatima.haddad@outlook.com",)),
    _Preset("Lukas", "Schneider", (Phone("(650) 555-0147", TYPE_HOME),)),
    _Preset("Priya", "Sharma", (Phone("(650) 555-0158"),)),
    _Preset("Yuki", "Tanaka", (Phone("(650) 555-0173"),), ("yuki.tanaka@gmail.com",)),
)
"""The address book of a fresh phone: no number a task dials (911, 311311, ...)."""


# -- names and numbers -----------------------------------------------------------------


def _is_cjk(text_: str) -> bool:
    return any("\u3040" <= c <= "\u30ff" or "\u3400" <= c <= "\u9fff" or "\uac00" <= c <= "\ud7af"
               for c in text_)


def display_name(given: str, family: str) -> str:
    """As Android's NameSplitter joins them: "Given Family", or FamilyGiven for CJK names."""
    given, family = given.strip(), family.strip()
    if _is_cjk(given + family):
        return family + given
    return " ".join(part for part in (given, family) if part)


def digits(number: str) -> str:
    """The dialable characters of a number (digits, a leading +)."""
    kept = re.sub(r"[^0-9+]", "", number)
    return kept[:1] + kept[1:].replace("+", "")


def normalized_number(number: str) -> str:
    """E.164 for North-American 10/11-digit numbers (`data4`), else the bare digits."""
    d = digits(number)
    if d.startswith("+"):
        return d
    if len(d) == 10:
        return "+1" + d
    if len(d) == 11 and d.startswith("1"):
        return "+" + d
    return d


def min_match(number: str) -> str:
    """PhoneNumberUtils.toCallerIDMinMatch: the last 7 digits, reversed."""
    return digits(number).lstrip("+")[::-1][:7]


def format_number(number: str) -> str:
    """The US formatting the editor applies as you type: (650) 555-0101, 555-0101."""
    d = digits(number)
    if d != number.strip() or d.startswith("+"):
        return number.strip()
    if len(d) == 10:
        return f"({d[:3]}) {d[3:6]}-{d[6:]}"
    if len(d) == 11 and d.startswith("1"):
        return f"1 {d[1:4]}-{d[4:7]}-{d[7:]}"
    if len(d) == 7:
        return f"{d[:3]}-{d[3:]}"
    return d


def same_number(a: str, b: str) -> bool:
    """Digits-only comparison; like Android's loose match, 555-0101 matches (650) 555-0101."""
    da, db = digits(a).lstrip("+"), digits(b).lstrip("+")
    if not da or not db:
        return False
    if da == db:
        return True
    short, long_ = sorted((da, db), key=len)
    return len(short) >= 7 and long_.endswith(short)


def _lookup_key(raw_id: int, name: str) -> str:
    """A local raw contact's lookup key: account hash 0, `r<raw id>`, the name's hex key."""
    key = "".join(c for c in name.upper() if c.isalnum())
    return f"0r{raw_id}-{key.encode('utf-8').hex().upper()}"


def _label(name: str) -> str:
    first = name.strip()[:1].upper()
    return first if first.isalpha() else "#"


# -- the database file -------------------------------------------------------------------


@dataclass
class _Db:
    """An open copy of the file; `save` writes it back to the VFS."""

    vfs: VirtualFS
    conn: sqlite3.Connection = field(default_factory=lambda: sqlite3.connect(":memory:"))

    def save(self) -> None:
        self.conn.commit()
        self.vfs.write(DB_PATH, bytes(self.conn.serialize()))


def _open(vfs: VirtualFS) -> _Db:
    ensure(vfs)
    db = _Db(vfs)
    db.conn.deserialize(vfs.read(DB_PATH))
    return db


def _create() -> bytes:
    conn = dbfile.create(SCHEMA, DATABASE_VERSION)
    conn.execute("INSERT INTO accounts (account_name, account_type, data_set) "
                 "VALUES (NULL, NULL, NULL)")
    conn.executemany("INSERT INTO mimetypes (mimetype) VALUES (?)", [(m,) for m in MIMETYPES])
    for preset in PRESETS:
        _insert(conn, preset.given, preset.family, preset.phones, preset.emails, preset.starred)
    conn.commit()
    return bytes(conn.serialize())


def ensure(vfs: VirtualFS) -> None:
    """Create the database with the preset contacts if the file is missing."""
    if not vfs.exists(DB_PATH):
        vfs.write(DB_PATH, _create())


def mimetype_id(conn: sqlite3.Connection, mimetype: str) -> int:
    """The mimetype's id, added at first use (ContactsDatabaseHelper.getMimeTypeId)."""
    row = conn.execute("SELECT _id FROM mimetypes WHERE mimetype = ?", (mimetype,)).fetchone()
    if row is not None:
        return int(row[0])
    return int(conn.execute("INSERT INTO mimetypes (mimetype) VALUES (?)",
                            (mimetype,)).lastrowid)


def _write_data(conn: sqlite3.Connection, raw_id: int, given: str, family: str,
                phones: Iterable[Phone], emails: Iterable[str]) -> None:
    """(Re)write a raw contact's name, phone and email rows and its phone_lookup rows."""
    phones, emails = tuple(phones), tuple(emails)
    conn.execute("DELETE FROM phone_lookup WHERE raw_contact_id = ?", (raw_id,))
    conn.execute("DELETE FROM data WHERE raw_contact_id = ?", (raw_id,))
    name = display_name(given, family)
    conn.execute("INSERT INTO data (mimetype_id, raw_contact_id, data1, data2, data3, data10, "
                 "data11) VALUES (?, ?, ?, ?, ?, 1, 0)",
                 (mimetype_id(conn, MIME_NAME), raw_id, name, given or None, family or None))
    phone_mime = mimetype_id(conn, MIME_PHONE)
    for phone in phones:
        cur = conn.execute("INSERT INTO data (mimetype_id, raw_contact_id, data1, data2, data4) "
                           "VALUES (?, ?, ?, ?, ?)",
                           (phone_mime, raw_id, phone.number, phone.type,
                            normalized_number(phone.number)))
        conn.execute("INSERT INTO phone_lookup VALUES (?, ?, ?, ?)",
                     (cur.lastrowid, raw_id, normalized_number(phone.number),
                      min_match(phone.number)))
    email_mime = mimetype_id(conn, MIME_EMAIL)
    for email in emails:
        conn.execute("INSERT INTO data (mimetype_id, raw_contact_id, data1, data2) "
                     "VALUES (?, ?, ?, ?)", (email_mime, raw_id, email, EMAIL_TYPE_HOME))
    alt = ", ".join(p for p in (family.strip(), given.strip()) if p) or name
    conn.execute("UPDATE raw_contacts SET display_name = ?, display_name_alt = ?, "
                 "display_name_source = ?, sort_key = ?, phonebook_label = ?, sort_key_alt = ?, "
                 "phonebook_label_alt = ?, version = version + 1, dirty = 1 WHERE _id = ?",
                 (name, alt, DISPLAY_NAME_SOURCE_STRUCTURED_NAME, name, _label(name), alt,
                  _label(alt), raw_id))
    conn.execute("UPDATE contacts SET has_phone_number = ?, lookup = ? "
                 "WHERE name_raw_contact_id = ?",
                 (1 if phones else 0, _lookup_key(raw_id, name), raw_id))


def _insert(conn: sqlite3.Connection, given: str, family: str, phones: Iterable[Phone],
            emails: Iterable[str], starred: bool = False) -> int:
    cur = conn.execute("INSERT INTO raw_contacts (account_id, starred, aggregation_needed) "
                       "VALUES (1, ?, 0)", (int(starred),))
    raw_id = cur.lastrowid
    contact_id = aggregate(conn, raw_id)
    _write_data(conn, raw_id, given, family, phones, emails)
    return contact_id


def aggregate(conn: sqlite3.Connection, raw_id: int) -> int:
    """A new local raw contact's own aggregate contact (ContactAggregator joins only raw
    contacts of different accounts with the same name; the image has one account)."""
    row = conn.execute("SELECT starred FROM raw_contacts WHERE _id = ?", (raw_id,)).fetchone()
    contact_id = int(conn.execute("INSERT INTO contacts (name_raw_contact_id, starred) "
                                  "VALUES (?, ?)", (raw_id, row[0] if row else 0)).lastrowid)
    conn.execute("UPDATE raw_contacts SET contact_id = ? WHERE _id = ?", (contact_id, raw_id))
    return contact_id


def split_name(full: str) -> tuple[str, str]:
    """NameSplitter's given and family name of "Given [Middle] Family" (the middle names
    stay with the given name here: the schema keeps two parts)."""
    words = full.split()
    if len(words) < 2 or _is_cjk(full):
        return full.strip(), ""
    return " ".join(words[:-1]), words[-1]


def _raw_parts(conn: sqlite3.Connection, raw_id: int
               ) -> tuple[str, str, tuple[Phone, ...], tuple[str, ...]]:
    """A raw contact's given and family name, phones and emails from its data rows; a name
    row with only `data1` (as a provider insert may write it) is split as NameSplitter
    does."""
    given = family = ""
    phones: list[Phone] = []
    emails: list[str] = []
    for mimetype, data1, data2, data3 in conn.execute(
            "SELECT m.mimetype, d.data1, d.data2, d.data3 FROM data d JOIN mimetypes m "
            "ON m._id = d.mimetype_id WHERE d.raw_contact_id = ? ORDER BY d._id", (raw_id,)):
        if mimetype == MIME_NAME:
            given, family = ((data2 or "", data3 or "") if data2 or data3
                             else split_name(data1 or ""))
        elif mimetype == MIME_PHONE and data1:
            phones.append(Phone(data1, int(data2 or TYPE_MOBILE)))
        elif mimetype == MIME_EMAIL and data1:
            emails.append(data1)
    return given, family, tuple(phones), tuple(emails)


def refresh_raw_contact(conn: sqlite3.Connection, data_id: int) -> None:
    """After a data row written through the provider: the raw contact's display name,
    lookup and phone_lookup rows from all its data, as ContactsProvider2's DataRowHandlers
    keep them."""
    row = conn.execute("SELECT raw_contact_id FROM data WHERE _id = ?", (data_id,)).fetchone()
    if row is None:
        return
    raw_id = row[0]
    _write_data(conn, raw_id, *_raw_parts(conn, raw_id))


def _read(conn: sqlite3.Connection, contact_id: int) -> Contact | None:
    row = conn.execute("SELECT name_raw_contact_id, lookup, starred FROM contacts WHERE _id = ?",
                       (contact_id,)).fetchone()
    if row is None:
        return None
    raw_id, lookup, starred = row
    given, family, phones, emails = _raw_parts(conn, raw_id)
    return Contact(contact_id, lookup or "", given, family, phones, emails, bool(starred))


# -- the API -------------------------------------------------------------------------------


def all_contacts(vfs: VirtualFS) -> list[Contact]:
    """Every contact, sorted by display name (case-insensitive)."""
    db = _open(vfs)
    ids = [r[0] for r in db.conn.execute(
        "SELECT c._id FROM contacts c JOIN raw_contacts r ON r._id = c.name_raw_contact_id "
        "WHERE r.deleted = 0")]
    found = [c for c in (_read(db.conn, i) for i in ids) if c is not None]
    return sorted(found, key=lambda c: (c.display_name.casefold(), c.id))


def get(vfs: VirtualFS, contact_id: int) -> Contact | None:
    return _read(_open(vfs).conn, contact_id)


def insert(vfs: VirtualFS, given: str, family: str = "", phones: Iterable[Phone] = (),
           emails: Iterable[str] = ()) -> Contact:
    """Add a local contact (one raw contact, one aggregate); returns it as stored."""
    db = _open(vfs)
    contact_id = _insert(db.conn, given, family, tuple(phones), tuple(emails))
    db.save()
    contact = _read(db.conn, contact_id)
    assert contact is not None
    return contact


def update(vfs: VirtualFS, contact: Contact) -> Contact:
    """Store a changed contact (names, phones, emails, starred) under its id."""
    db = _open(vfs)
    row = db.conn.execute("SELECT name_raw_contact_id FROM contacts WHERE _id = ?",
                          (contact.id,)).fetchone()
    if row is None:
        raise KeyError(f"no contact {contact.id}")
    raw_id = row[0]
    db.conn.execute("UPDATE contacts SET starred = ? WHERE _id = ?",
                    (int(contact.starred), contact.id))
    db.conn.execute("UPDATE raw_contacts SET starred = ? WHERE _id = ?",
                    (int(contact.starred), raw_id))
    _write_data(db.conn, raw_id, contact.given, contact.family, contact.phones, contact.emails)
    db.save()
    stored = _read(db.conn, contact.id)
    assert stored is not None
    return stored


def delete(vfs: VirtualFS, contact_ids: Iterable[int]) -> None:
    """Delete contacts, as ContactsProvider2 deletes a local (account-less) raw contact: at
    once, with its data and lookup rows and its aggregate (no sync adapter keeps a
    tombstone)."""
    db = _open(vfs)
    for contact_id in contact_ids:
        row = db.conn.execute("SELECT name_raw_contact_id FROM contacts WHERE _id = ?",
                              (contact_id,)).fetchone()
        if row is None:
            continue
        raw_id = row[0]
        db.conn.execute("DELETE FROM phone_lookup WHERE raw_contact_id = ?", (raw_id,))
        db.conn.execute("DELETE FROM data WHERE raw_contact_id = ?", (raw_id,))
        db.conn.execute("DELETE FROM raw_contacts WHERE _id = ?", (raw_id,))
        db.conn.execute("DELETE FROM contacts WHERE _id = ?", (contact_id,))
    db.save()


def find_by_number(vfs: VirtualFS, number: str) -> Contact | None:
    """The contact with this number (digits only; the last 7 digits may stand for the rest)."""
    if not digits(number).lstrip("+"):
        return None
    for contact in all_contacts(vfs):
        if any(same_number(phone.number, number) for phone in contact.phones):
            return contact
    return None

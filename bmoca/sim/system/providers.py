"""Content providers as the `content` shell tool reaches them: a URI's authority names a
provider, its path a table of the provider's SQLite file in the VFS.

Each provider is a small dataclass over one database: `ensure` creates the file as a fresh
phone has it, `routes` maps a URI path to a `Route` (its table and what the real provider
adds to an inserted row: SmsProvider's type from the box and its thread, CallLogProvider's
defaults, ContactsProvider2's aggregation). The where clause, projection and sort order
go to SQLite as the real providers hand them to SQLiteQueryBuilder. Apps keep their own
typed access (`contacts.py`, `telephony.py`, `calllog.py`); this module is the generic door
a set-up script or an agent's shell uses, so a set-up written with `content insert` runs
unchanged on a real phone.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bmoca.sim.system import calendar_provider, calllog, contacts, dbfile, telephony
from bmoca.sim.system.vfs import VirtualFS

Values = dict[str, Any]


class ProviderError(Exception):
    """A provider's exception: `java_class` and message as the shell prints them."""

    def __init__(self, message: str, java_class: str = "java.lang.IllegalArgumentException"):
        super().__init__(message)
        self.java_class = java_class


@dataclass(frozen=True)
class Context:
    """What a provider may read besides its file: the VFS and the device clock."""

    vfs: VirtualFS
    now_ms: int


InsertHook = Callable[[sqlite3.Connection, Values, Context], Values]
AfterHook = Callable[[sqlite3.Connection, int, Context], None]


@dataclass(frozen=True)
class Route:
    """One URI path: the table behind it, the rows it sees, what an insert adds."""

    table: str
    where: str = ""
    """A fixed selection (`content://sms/inbox` sees type 1 only)."""
    prepare: InsertHook | None = None
    after_insert: AfterHook | None = None


@dataclass(frozen=True)
class Provider:
    authority: str
    db_path: str
    ensure: Callable[[Context], None]
    routes: Mapping[str, Route] = field(default_factory=dict)
    after_change: Callable[[sqlite3.Connection], None] | None = None
    """Bookkeeping after any update or delete (threads' counts, aggregates)."""


# -- the operations --------------------------------------------------------------------


def _route(provider: Provider, uri: str, path: str) -> Route:
    route = provider.routes.get(path.strip("/"))
    if route is None:
        raise ProviderError(f"Unknown URL {uri}")
    return route


def _open(provider: Provider, ctx: Context) -> sqlite3.Connection:
    provider.ensure(ctx)
    return dbfile.load(ctx.vfs, provider.db_path)


def _save(provider: Provider, ctx: Context, conn: sqlite3.Connection) -> None:
    dbfile.store(ctx.vfs, provider.db_path, conn)


def _selection(route: Route, where: str | None) -> str:
    parts = [f"({p})" for p in (route.where, where or "") if p]
    return f" WHERE {' AND '.join(parts)}" if parts else ""


def _sql_error(error: sqlite3.Error, sql: str) -> ProviderError:
    return ProviderError(f"{error} (code 1 SQLITE_ERROR): , while compiling: {sql}",
                         "android.database.sqlite.SQLiteException")


def insert(provider: Provider, uri: str, path: str, values: Values, ctx: Context) -> None:
    """Insert a row with what the provider adds to it (`Route.prepare`, `after_insert`)."""
    route = _route(provider, uri, path)
    conn = _open(provider, ctx)
    try:
        row = route.prepare(conn, dict(values), ctx) if route.prepare else dict(values)
        columns = ", ".join(row)
        sql = f"INSERT INTO {route.table} ({columns}) VALUES ({', '.join('?' * len(row))})"
        try:
            row_id = int(conn.execute(sql, list(row.values())).lastrowid or 0)
        except sqlite3.Error as error:
            raise _sql_error(error, sql) from None
        if route.after_insert:
            route.after_insert(conn, row_id, ctx)
        _save(provider, ctx, conn)
    finally:
        conn.close()


def query(provider: Provider, uri: str, path: str, projection: list[str] | None,
          where: str | None, sort: str | None, ctx: Context) -> tuple[list[str], list[tuple]]:
    route = _route(provider, uri, path)
    conn = _open(provider, ctx)
    columns = ", ".join(projection) if projection else "*"
    sql = f"SELECT {columns} FROM {route.table}{_selection(route, where)}"
    if sort:
        sql += f" ORDER BY {sort}"
    try:
        cursor = conn.execute(sql)
        rows = cursor.fetchall()
        names = [d[0] for d in cursor.description]
    except sqlite3.Error as error:
        raise _sql_error(error, sql) from None
    finally:
        conn.close()
    return names, rows


def _change(provider: Provider, route: Route, sql: str, params: list[Any],
            ctx: Context) -> int:
    """Run an UPDATE or DELETE on the provider's file; the provider's bookkeeping after."""
    conn = _open(provider, ctx)
    try:
        try:
            count = conn.execute(sql, params).rowcount
        except sqlite3.Error as error:
            raise _sql_error(error, sql) from None
        if count and provider.after_change:
            provider.after_change(conn)
        _save(provider, ctx, conn)
    finally:
        conn.close()
    return count


def update(provider: Provider, uri: str, path: str, values: Values, where: str | None,
           ctx: Context) -> int:
    route = _route(provider, uri, path)
    assignments = ", ".join(f"{column} = ?" for column in values)
    return _change(provider, route,
                   f"UPDATE {route.table} SET {assignments}{_selection(route, where)}",
                   list(values.values()), ctx)


def delete(provider: Provider, uri: str, path: str, where: str | None, ctx: Context) -> int:
    route = _route(provider, uri, path)
    return _change(provider, route, f"DELETE FROM {route.table}{_selection(route, where)}",
                   [], ctx)


# -- telephony: content://sms ------------------------------------------------------------


def _sms_box(box: int | None) -> InsertHook:
    def prepare(conn: sqlite3.Connection, values: Values, ctx: Context) -> Values:
        """SmsProvider.insert: the box's type, now as the date, the thread of the address
        (getOrCreateThreadId), unread and unseen unless told."""
        address = values.get("address")
        if not address:
            raise ProviderError("Failed to insert row into content://sms: no address")
        values["type"] = box if box is not None else values.get("type", telephony.TYPE_INBOX)
        values.setdefault("date", ctx.now_ms)
        values.setdefault("read", 0)
        values.setdefault("seen", values["read"])
        values.setdefault("sub_id", telephony.SUB_ID)
        values["thread_id"] = telephony.thread_for(conn, str(address), create=True)
        return values
    return prepare


def _sms_after_insert(conn: sqlite3.Connection, row_id: int, ctx: Context) -> None:
    telephony.refresh_threads(conn)


def _sms_box_route(box: int) -> Route:
    return Route("sms", f"type = {box}", _sms_box(box), _sms_after_insert)


SMS = Provider(
    "sms", telephony.DB_PATH, lambda ctx: telephony.ensure(ctx.vfs, ctx.now_ms),
    {"": Route("sms", "", _sms_box(None), _sms_after_insert),
     "inbox": _sms_box_route(telephony.TYPE_INBOX),
     "sent": _sms_box_route(telephony.TYPE_SENT),
     "draft": _sms_box_route(3), "outbox": _sms_box_route(4)},
    telephony.refresh_threads)


# -- the call log: content://call_log/calls ------------------------------------------------


def _call_defaults(conn: sqlite3.Connection, values: Values, ctx: Context) -> Values:
    """CallLogProvider's defaults for a row a shell writes: now, a new unread entry for a
    missed call, the number's E.164 form."""
    values.setdefault("date", ctx.now_ms)
    values.setdefault("duration", 0)
    values.setdefault("type", calllog.INCOMING_TYPE)
    missed = int(values["type"]) == calllog.MISSED_TYPE
    values.setdefault("new", 1 if missed else 0)
    values.setdefault("is_read", 0 if missed else 1)
    values.setdefault("presentation", calllog.PRESENTATION_ALLOWED)
    values.setdefault("normalized_number", calllog.normalized(str(values.get("number", ""))))
    values.setdefault("last_modified", values["date"])
    return values


CALL_LOG = Provider("call_log", calllog.DB_PATH, lambda ctx: calllog.ensure(ctx.vfs),
                    {"calls": Route("calls", "", _call_defaults)})


# -- contacts: content://com.android.contacts ----------------------------------------------


def _raw_contact(conn: sqlite3.Connection, values: Values, ctx: Context) -> Values:
    values.setdefault("account_id", 1)
    values.pop("account_name", None)  # local contacts: the image's one null account
    values.pop("account_type", None)
    values.setdefault("aggregation_needed", 0)
    return values


def _aggregate(conn: sqlite3.Connection, raw_id: int, ctx: Context) -> None:
    """ContactsProvider2 aggregates a new local raw contact into a contact of its own."""
    contacts.aggregate(conn, raw_id)


def _data_row(conn: sqlite3.Connection, values: Values, ctx: Context) -> Values:
    """DataRowHandler: the mimetype's id for its name (the raw contact's name, numbers and
    lookup rows are brought up to date after the insert, `_data_after`)."""
    mimetype = values.pop("mimetype", None)
    if not mimetype:
        raise ProviderError("mimetype is required")
    values["mimetype_id"] = contacts.mimetype_id(conn, str(mimetype))
    if "raw_contact_id" not in values:
        raise ProviderError("raw_contact_id is required")
    return values


def _data_after(conn: sqlite3.Connection, data_id: int, ctx: Context) -> None:
    contacts.refresh_raw_contact(conn, data_id)


CONTACTS = Provider(
    "com.android.contacts", contacts.DB_PATH, lambda ctx: contacts.ensure(ctx.vfs),
    {"raw_contacts": Route("raw_contacts", "", _raw_contact, _aggregate),
     "data": Route("data", "", _data_row, _data_after),
     "contacts": Route("contacts")})


# -- calendar: content://com.android.calendar -----------------------------------------------


def _calendar_event(conn: sqlite3.Connection, values: Values, ctx: Context) -> Values:
    """CalendarProvider2.insertInTransaction for an app (not a sync adapter): the event's
    values checked (calendar id, DTSTART, DTEND or DURATION, EVENT_TIMEZONE), then dirty."""
    try:
        return calendar_provider.prepare_insert(conn, values)
    except calendar_provider.CalendarError as error:
        raise ProviderError(str(error)) from None


CALENDAR = Provider(
    calendar_provider.AUTHORITY, calendar_provider.DB_PATH,
    lambda ctx: calendar_provider.ensure(ctx.vfs),
    {"events": Route("Events", "", _calendar_event), "calendars": Route("Calendars")})


PROVIDERS: dict[str, Provider] = {p.authority: p for p in (SMS, CALL_LOG, CONTACTS, CALENDAR)}
"""Every authority the shell can reach; an app that keeps a provider adds it here."""

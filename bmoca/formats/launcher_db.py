"""The Pixel Launcher / Launcher3 home-screen database (`launcher.db`), in its real schema.

B-MoCA gives every environment its home screen by pushing a `launcher.db` to
`/data/data/com.google.android.apps.nexuslauncher/databases/`. We write and read the same
file format, so one layout works on the simulator and on a real emulator, and the
simulated launcher can read a database dumped from a device.

Real databases carry a launcher-rendered icon PNG (about 1-5 KB) in every row's `icon`
column; we store a tiny valid 1x1 PNG instead (Launcher3 re-renders icons from the
package manager anyway), which keeps a full 18-app database at 8 KB.
"""

from __future__ import annotations

import sqlite3
import struct
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from urllib.parse import quote, unquote

from bmoca.device.config import HomeLayout
from bmoca.formats import apps

USER_VERSION = 28
"""`PRAGMA user_version` of the Android 10 Launcher3 / Pixel Launcher database."""

PACKAGE = "com.google.android.apps.nexuslauncher"
"""The Pixel Launcher: the home app of B-MoCA's Android 10 image."""
DEVICE_PATH = f"/data/data/{PACKAGE}/databases/launcher.db"

CONTAINER_DESKTOP = -100
CONTAINER_HOTSEAT = -101
ITEM_TYPE_APPLICATION = 0

GRID_COLUMNS = 5
HOTSEAT_SLOTS = 5
WORKSPACE_ROWS = range(1, 5)
"""Rows 1-4 hold icons; row 0 is the Pixel launcher's At-a-Glance area."""

INTENT_ACTION = "android.intent.action.MAIN"
INTENT_CATEGORY = "android.intent.category.LAUNCHER"
INTENT_FLAGS = "0x10200000"  # FLAG_ACTIVITY_NEW_TASK | FLAG_ACTIVITY_RESET_TASK_IF_NEEDED

COLUMNS: tuple[tuple[str, str], ...] = (
    ("_id", "INTEGER PRIMARY KEY"),
    ("title", "TEXT"),
    ("intent", "TEXT"),
    ("container", "INTEGER"),
    ("screen", "INTEGER"),
    ("cellX", "INTEGER"),
    ("cellY", "INTEGER"),
    ("spanX", "INTEGER"),
    ("spanY", "INTEGER"),
    ("itemType", "INTEGER"),
    ("appWidgetId", "INTEGER NOT NULL DEFAULT -1"),
    ("iconPackage", "TEXT"),
    ("iconResource", "TEXT"),
    ("icon", "BLOB"),
    ("appWidgetProvider", "TEXT"),
    ("modified", "INTEGER NOT NULL DEFAULT 0"),
    ("restored", "INTEGER NOT NULL DEFAULT 0"),
    ("profileId", "INTEGER DEFAULT 0"),
    ("rank", "INTEGER NOT NULL DEFAULT 0"),
    ("options", "INTEGER NOT NULL DEFAULT 0"),
)
"""The `favorites` table, column by column, as Launcher3 (Android 10) declares it."""

REQUIRED_COLUMNS = ("_id", "title", "intent", "container", "screen", "cellX", "cellY", "itemType")
"""Columns `read` needs; the others may be missing in hand-made databases."""

_SQLITE_MAGIC = b"SQLite format 3\x00"


class LauncherDbError(ValueError):
    """A launcher.db that cannot be built or read; the message says which row and why."""


@dataclass(frozen=True)
class LauncherItem:
    """One app shortcut on the home screen (workspace or hotseat)."""

    title: str
    package: str
    activity: str
    container: int
    screen: int
    cell_x: int
    cell_y: int
    item_id: int = field(default=0, compare=False)
    """The row's `_id`; not part of equality so that re-numbered copies compare equal."""

    @property
    def is_hotseat(self) -> bool:
        return self.container == CONTAINER_HOTSEAT

    @property
    def is_workspace(self) -> bool:
        return self.container == CONTAINER_DESKTOP

    @property
    def slot(self) -> int:
        """Hotseat position (Launcher3 keeps it in `screen`)."""
        return self.screen

    @property
    def cell(self) -> tuple[int, int]:
        return (self.cell_x, self.cell_y)

    @property
    def component(self) -> str:
        return f"{self.package}/{self.activity}"

    @property
    def label(self) -> str:
        """The app's en-US label from the app table, else the stored title."""
        try:
            return apps.by_package(self.package).label
        except KeyError:
            return self.title


STOCK_HOME = HomeLayout(
    hotseat={0: "Phone", 1: "Messages", 2: "Gmail", 3: "Chrome", 4: "Camera"},
    workspace={(0, 4): "Clock", (1, 4): "Settings", (2, 4): "Photos", (3, 4): "Maps",
               (4, 4): "YouTube"},
)
"""A Pixel-3-like stock home screen, used when a configuration sets no layout."""


# -- intents ------------------------------------------------------------------------


def intent_uri(package: str, activity: str) -> str:
    """The launcher intent as `Intent.toUri(0)` writes it (short component, `$` as %24)."""
    component = apps.short_component(package, activity)
    return (f"#Intent;action={INTENT_ACTION};category={INTENT_CATEGORY};"
            f"launchFlags={INTENT_FLAGS};component={quote(component, safe='/')};end")


def intent_component(intent: str) -> tuple[str, str]:
    """(package, full activity class) of a `#Intent;...;end` URI.

    Accepts both `pkg/.Cls` and `pkg/full.Cls` components and percent-escapes (`%24`).
    """
    text = intent.strip() if isinstance(intent, str) else ""
    start = text.find("#Intent;")
    if start < 0 or not text.endswith(";end"):
        raise ValueError("not an intent URI (expected '#Intent;...;end')")
    body = text[start + len("#Intent;"):-len(";end")]
    component = None
    for part in body.split(";"):
        key, sep, value = part.partition("=")
        if sep and key == "component":
            component = unquote(value)
    if component is None:
        raise ValueError("the intent has no component")
    package, sep, cls = component.partition("/")
    if not sep or not package or not cls or "/" in cls:
        raise ValueError(f"malformed component {component!r} (expected 'package/class')")
    if cls.startswith("."):
        cls = package + cls
    return package, cls


# -- build --------------------------------------------------------------------------


def _png_1x1(rgb: tuple[int, int, int]) -> bytes:
    """A valid 1x1 RGB PNG (a stand-in for the launcher's icon bitmap)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    ihdr = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    idat = zlib.compress(b"\x00" + bytes(rgb), 9)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


@cache
def _icon_for(package: str) -> bytes:
    digest = zlib.crc32(package.encode())
    return _png_1x1(((digest >> 16) & 0xFF, (digest >> 8) & 0xFF, digest & 0xFF))


def items_of(home: HomeLayout) -> list[LauncherItem]:
    """The items a layout puts on screen, in `read` order; checks labels and cells."""
    items: list[LauncherItem] = []
    for slot, label in sorted(home.hotseat.items()):
        if not 0 <= slot < HOTSEAT_SLOTS:
            raise LauncherDbError(f"hotseat slot {slot} ({label}) out of range 0-{HOTSEAT_SLOTS - 1}")
        app = _app(label)
        items.append(LauncherItem(app.label, app.package, app.activity, CONTAINER_HOTSEAT,
                                  slot, slot, 0))
    for (x, y), label in sorted(home.workspace.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        if not (0 <= x < GRID_COLUMNS and y in WORKSPACE_ROWS):
            raise LauncherDbError(f"workspace cell ({x}, {y}) ({label}) out of range: "
                                  f"cellX 0-{GRID_COLUMNS - 1}, cellY 1-4")
        app = _app(label)
        items.append(LauncherItem(app.label, app.package, app.activity, CONTAINER_DESKTOP,
                                  0, x, y))
    return items


def _app(label: str) -> apps.AppInfo:
    try:
        return apps.by_label(label)
    except KeyError as exc:
        raise LauncherDbError(exc.args[0]) from None


def build(home: HomeLayout, modified_ms: int = 1700000000000) -> bytes:
    """A complete launcher.db (SQLite file bytes) holding `home`'s shortcuts."""
    conn = sqlite3.connect(":memory:")
    try:
        _fill(conn, items_of(home), modified_ms)
        return bytes(conn.serialize())
    finally:
        conn.close()


def _fill(conn: sqlite3.Connection, items: Iterable[LauncherItem], modified_ms: int) -> None:
    columns = ", ".join(f"{name} {decl}" for name, decl in COLUMNS)
    conn.execute(f"CREATE TABLE favorites ({columns})")
    conn.execute(f"PRAGMA user_version = {USER_VERSION}")
    for row_id, item in enumerate(items, start=1):
        conn.execute(
            "INSERT INTO favorites (_id, title, intent, container, screen, cellX, cellY, "
            "spanX, spanY, itemType, appWidgetId, icon, modified, restored, profileId, rank, "
            "options) VALUES (?, ?, ?, ?, ?, ?, ?, 1, 1, ?, -1, ?, ?, 0, 0, 0, 0)",
            (row_id, item.title, intent_uri(item.package, item.activity), item.container,
             item.screen, item.cell_x, item.cell_y, ITEM_TYPE_APPLICATION,
             _icon_for(item.package), modified_ms),
        )
    conn.commit()


# -- read ---------------------------------------------------------------------------


def read(data: bytes) -> list[LauncherItem]:
    """The app shortcuts of a launcher.db: hotseat by slot, then workspace by page and cell.

    Folders, widgets and the items inside folders are skipped; everything else must be a
    well-formed shortcut in range, one per cell, or `LauncherDbError` says what is wrong.
    """
    if len(data) < 100 or not bytes(data[:16]) == _SQLITE_MAGIC:
        raise LauncherDbError("not a SQLite database (bad header); expected a launcher.db file")
    conn = sqlite3.connect(":memory:")
    try:
        conn.deserialize(bytes(data))
        return _read_items(conn)
    except sqlite3.DatabaseError as exc:
        raise LauncherDbError(f"not a readable SQLite database: {exc}") from None
    finally:
        conn.close()


def _read_items(conn: sqlite3.Connection) -> list[LauncherItem]:
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if "favorites" not in tables:
        found = ", ".join(sorted(tables)) or "none"
        raise LauncherDbError(f"no 'favorites' table in launcher.db (tables: {found})")
    present = [r[1] for r in conn.execute("PRAGMA table_info(favorites)")]
    missing = [c for c in REQUIRED_COLUMNS if c not in present]
    if missing:
        raise LauncherDbError(f"table 'favorites' lacks required column(s): {', '.join(missing)}")
    wanted = list(REQUIRED_COLUMNS) + [c for c in ("spanX", "spanY") if c in present]
    rows = conn.execute(f"SELECT {', '.join(wanted)} FROM favorites ORDER BY _id").fetchall()

    items: list[LauncherItem] = []
    occupied: dict[tuple[int, int, int, int], int] = {}
    for row in rows:
        rec = dict(zip(wanted, row, strict=True))
        row_id = rec["_id"]
        if rec["itemType"] != ITEM_TYPE_APPLICATION:
            continue  # folders, widgets, deep shortcuts
        container = rec["container"]
        if container is not None and container > 0:
            continue  # inside a folder
        if container not in (CONTAINER_DESKTOP, CONTAINER_HOTSEAT):
            raise LauncherDbError(f"row _id={row_id}: unknown container {container!r} "
                                  f"(expected {CONTAINER_DESKTOP} workspace or "
                                  f"{CONTAINER_HOTSEAT} hotseat)")
        try:
            package, activity = intent_component(rec["intent"])
        except ValueError as exc:
            raise LauncherDbError(f"row _id={row_id}: cannot parse intent "
                                  f"{rec['intent']!r}: {exc}") from None
        screen, x, y = rec["screen"], rec["cellX"], rec["cellY"]
        span_x, span_y = rec.get("spanX") or 1, rec.get("spanY") or 1
        for name, value in (("screen", screen), ("cellX", x), ("cellY", y), ("spanX", span_x),
                            ("spanY", span_y)):
            if not isinstance(value, int) or (name.startswith("span") and value < 1):
                raise LauncherDbError(f"row _id={row_id}: {name} is {value!r}, not a valid integer")
        if container == CONTAINER_HOTSEAT:
            if not 0 <= screen < HOTSEAT_SLOTS:
                raise LauncherDbError(f"row _id={row_id}: hotseat slot {screen} out of range "
                                      f"0-{HOTSEAT_SLOTS - 1}")
            cells = [(container, 0, screen, 0)]
            where = f"hotseat slot {screen}"
        else:
            if (screen < 0 or x < 0 or x + span_x > GRID_COLUMNS or y < WORKSPACE_ROWS.start
                    or y + span_y > WORKSPACE_ROWS.stop):
                raise LauncherDbError(
                    f"row _id={row_id}: workspace cell ({x}, {y}) on screen {screen} out of "
                    f"range (cellX 0-{GRID_COLUMNS - 1}, cellY 1-4, screen >= 0)")
            cells = [(container, screen, cx, cy) for cx in range(x, x + span_x)
                     for cy in range(y, y + span_y)]
            where = f"workspace screen {screen} cell ({x}, {y})"
        for cell in cells:
            if cell in occupied:
                raise LauncherDbError(f"rows _id={occupied[cell]} and _id={row_id} both "
                                      f"occupy {where}")
            occupied[cell] = row_id
        items.append(LauncherItem(rec["title"] or "", package, activity, container, screen, x,
                                  y, item_id=row_id))
    items.sort(key=lambda it: (0, it.screen, 0, 0) if it.is_hotseat
               else (1, it.screen, it.cell_y, it.cell_x))
    return items


def to_home(items: Iterable[LauncherItem]) -> HomeLayout:
    """The `HomeLayout` of items read from a database (first workspace page only).

    Labels come from the app table by package, so a database whose titles are in another
    language still maps to the canonical labels.
    """
    hotseat: dict[int, str] = {}
    workspace: dict[tuple[int, int], str] = {}
    for item in items:
        try:
            label = apps.by_package(item.package).label
        except KeyError:
            raise LauncherDbError(f"row _id={item.item_id}: {item.package} is not one of the "
                                  f"benchmark apps") from None
        if item.is_hotseat:
            hotseat[item.slot] = label
        elif item.screen == 0:
            workspace[item.cell] = label
        else:
            raise LauncherDbError(f"row _id={item.item_id}: workspace screen {item.screen}; "
                                  f"only screen 0 is supported")
    return HomeLayout(hotseat=hotseat, workspace=workspace)

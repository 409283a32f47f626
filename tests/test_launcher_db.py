"""launcher.db: real schema, build/read round trip, precise errors on corrupt input."""

from __future__ import annotations

import sqlite3

import pytest

from bmoca import configs
from bmoca.device.config import HomeLayout
from bmoca.formats import launcher_db
from bmoca.formats.launcher_db import LauncherDbError, LauncherItem


def _open(data: bytes, tmp_path) -> sqlite3.Connection:
    """A connection on a file copy, to change with plain SQL."""
    path = tmp_path / f"launcher{len(list(tmp_path.iterdir()))}.db"
    path.write_bytes(data)
    return sqlite3.connect(path)


def _bytes(conn: sqlite3.Connection) -> bytes:
    conn.commit()
    path = conn.execute("PRAGMA database_list").fetchone()[2]
    conn.close()
    with open(path, "rb") as fh:
        return fh.read()


def _mutate(tmp_path, sql: str) -> bytes:
    """The stock DB after one SQL statement, for the corrupt-input cases."""
    conn = _open(launcher_db.build(launcher_db.STOCK_HOME), tmp_path)
    conn.execute(sql)
    return _bytes(conn)


def test_schema_is_launcher3(tmp_path):
    data = launcher_db.build(launcher_db.STOCK_HOME)
    assert data.startswith(b"SQLite format 3\x00")
    assert len(data) < 40_000
    conn = _open(data, tmp_path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 28
    tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    assert tables == ["favorites"]
    info = conn.execute("PRAGMA table_info(favorites)").fetchall()
    assert [r[1] for r in info] == [
        "_id", "title", "intent", "container", "screen", "cellX", "cellY", "spanX", "spanY",
        "itemType", "appWidgetId", "iconPackage", "iconResource", "icon", "appWidgetProvider",
        "modified", "restored", "profileId", "rank", "options"]
    defaults = {r[1]: (r[2], r[3], r[4]) for r in info}
    assert defaults["appWidgetId"] == ("INTEGER", 1, "-1")
    assert defaults["profileId"] == ("INTEGER", 0, "0")
    assert info[0][5] == 1  # _id is the primary key


def test_rows_look_like_a_device_dump(tmp_path):
    conn = _open(launcher_db.build(HomeLayout(hotseat={2: "YouTube"}), modified_ms=123), tmp_path)
    row = conn.execute("SELECT title, intent, container, screen, cellX, cellY, spanX, spanY, "
                       "itemType, appWidgetId, icon, modified, profileId, rank FROM favorites"
                       ).fetchone()
    assert row[:10] == (
        "YouTube",
        "#Intent;action=android.intent.action.MAIN;category=android.intent.category.LAUNCHER;"
        "launchFlags=0x10200000;component=com.google.android.youtube/"
        ".app.honeycomb.Shell%24HomeActivity;end",
        -101, 2, 2, 0, 1, 1, 0, -1)
    assert row[10].startswith(b"\x89PNG\r\n\x1a\n")
    assert row[11:] == (123, 0, 0)


def test_build_is_deterministic():
    assert launcher_db.build(launcher_db.STOCK_HOME) == launcher_db.build(launcher_db.STOCK_HOME)


def test_intent_component():
    pkg, cls = launcher_db.intent_component(
        "#Intent;action=android.intent.action.MAIN;component=com.google.android.youtube/"
        ".app.honeycomb.Shell%24HomeActivity;end")
    assert (pkg, cls) == ("com.google.android.youtube",
                          "com.google.android.youtube.app.honeycomb.Shell$HomeActivity")
    assert launcher_db.intent_component(
        launcher_db.intent_uri("com.android.chrome", "com.google.android.apps.chrome.Main")
    ) == ("com.android.chrome", "com.google.android.apps.chrome.Main")
    for bad in ("", "component=a/b", "#Intent;action=x;end", "#Intent;component=nopkg;end"):
        with pytest.raises(ValueError):
            launcher_db.intent_component(bad)


@pytest.mark.parametrize("config_id", configs.ids())
def test_round_trip_every_preset(config_id):
    home = configs.get(config_id).home
    items = launcher_db.read(launcher_db.build(home))
    assert launcher_db.to_home(items) == home
    assert len(items) == len(home.hotseat) + len(home.workspace)


def test_round_trip_known_layouts():
    items = launcher_db.read(launcher_db.build(configs.get("train_env_000").home))
    hotseat = {it.slot: it.title for it in items if it.is_hotseat}
    assert hotseat == {0: "Clock", 1: "Messages", 3: "Chrome", 4: "Maps"}
    assert len(items) == 18
    items = launcher_db.read(launcher_db.build(configs.get("test_env_108").home))
    assert [(it.title, it.cell) for it in items] == [("Phone", (0, 2)), ("Messages", (0, 3))]
    items = launcher_db.read(launcher_db.build(configs.get("test_env_109").home))
    assert items == [LauncherItem("YouTube", "com.google.android.youtube",
                                  "com.google.android.youtube.app.honeycomb.Shell$HomeActivity",
                                  -100, 0, 3, 4)]


def test_read_order():
    home = HomeLayout(hotseat={4: "Phone", 0: "Camera"},
                      workspace={(4, 1): "Maps", (0, 3): "Clock", (2, 1): "Gmail"})
    items = launcher_db.read(launcher_db.build(home))
    assert [it.title for it in items] == ["Camera", "Phone", "Gmail", "Maps", "Clock"]


def test_folders_and_widgets_are_skipped(tmp_path):
    data = _mutate(tmp_path, "INSERT INTO favorites (_id, title, container, screen, cellX, cellY, spanX, "
                   "spanY, itemType, appWidgetId) VALUES (50, 'W', -100, 0, 0, 1, 4, 1, 4, 7)")
    data2 = _open(data, tmp_path)
    data2.execute("INSERT INTO favorites (_id, title, container, screen, cellX, cellY, itemType, "
                  "intent) VALUES (51, 'in folder', 9, 0, 0, 0, 0, 'garbage')")
    items = launcher_db.read(_bytes(data2))
    assert launcher_db.to_home(items) == launcher_db.STOCK_HOME


@pytest.mark.parametrize("data, fragment", [
    (b"", "not a SQLite database"),
    (b"PK\x03\x04" + b"\x00" * 200, "not a SQLite database"),
    (b"SQLite format 3\x00" + b"\xff" * 200, "not a readable SQLite database"),
])
def test_not_sqlite(data, fragment):
    with pytest.raises(LauncherDbError, match=fragment):
        launcher_db.read(data)


def test_missing_table(tmp_path):
    data = _mutate(tmp_path, "ALTER TABLE favorites RENAME TO workspaceScreens")
    with pytest.raises(LauncherDbError, match=r"no 'favorites' table.*workspaceScreens"):
        launcher_db.read(data)


def test_missing_columns(tmp_path):
    conn = sqlite3.connect(tmp_path / "bare.db")
    conn.execute("CREATE TABLE favorites (_id INTEGER PRIMARY KEY, title TEXT, container INTEGER)")
    with pytest.raises(LauncherDbError, match="lacks required column.*intent, screen, cellX"):
        launcher_db.read(_bytes(conn))


def test_unparsable_intent(tmp_path):
    data = _mutate(tmp_path, "UPDATE favorites SET intent = 'http://x' WHERE _id = 3")
    with pytest.raises(LauncherDbError, match=r"row _id=3: cannot parse intent 'http://x'"):
        launcher_db.read(data)


@pytest.mark.parametrize("sql, fragment", [
    ("UPDATE favorites SET cellY = 0 WHERE container = -100", "cell (0, 0) on screen 0 out of range"),
    ("UPDATE favorites SET cellX = 5 WHERE _id = 6", "row _id=6: workspace cell (5, 4)"),
    ("UPDATE favorites SET screen = 7 WHERE _id = 2", "row _id=2: hotseat slot 7 out of range"),
])
def test_cell_out_of_range(tmp_path, sql, fragment):
    with pytest.raises(LauncherDbError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        launcher_db.read(_mutate(tmp_path, sql))


def test_two_items_in_one_cell(tmp_path):
    data = _mutate(tmp_path, "UPDATE favorites SET cellX = 0 WHERE _id = 7")  # onto Clock's (0, 4)
    with pytest.raises(LauncherDbError, match=r"_id=6 and _id=7 both occupy workspace screen 0 "
                                              r"cell \(0, 4\)"):
        launcher_db.read(data)
    data = _mutate(tmp_path, "UPDATE favorites SET screen = 0 WHERE _id = 2")
    with pytest.raises(LauncherDbError, match="_id=1 and _id=2 both occupy hotseat slot 0"):
        launcher_db.read(data)


def test_build_rejects_bad_layouts():
    with pytest.raises(LauncherDbError, match="no app labelled 'Twitter'"):
        launcher_db.build(HomeLayout(hotseat={0: "Twitter"}))
    with pytest.raises(LauncherDbError, match=r"workspace cell \(1, 0\)"):
        launcher_db.build(HomeLayout(workspace={(1, 0): "Maps"}))
    with pytest.raises(LauncherDbError, match="hotseat slot 5"):
        launcher_db.build(HomeLayout(hotseat={5: "Maps"}))

"""Success detectors on the simulated phone: real log lines, screens, databases and prefs."""

from __future__ import annotations

import sqlite3

import pytest
from conftest import nodes, tap_on

import bmoca.configs
import bmoca.device
from bmoca.tasks.detectors import DetectorError, Probe, parse

CLOCK_DB = "/data/user_de/0/com.google.android.deskclock/databases/alarms.db"
PREFS = "/data/data/com.google.android.apps.maps/shared_prefs/com.google.android.apps.maps_preferences.xml"
PREFS_XML = (b"<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map>\n"
             b'    <boolean name="x" value="false" />\n'
             b'    <int name="launches" value="12" />\n'
             b'    <string name="feedCardsEnabled">[true,false]</string>\n</map>\n')


@pytest.fixture
def phone():
    device = bmoca.device.connect("sim", config=bmoca.configs.get("test_env_100"))
    device.shell("logcat -b all -c")
    return device


def sh(device, cmd: str) -> str:
    out, code = device.shell(cmd)
    assert code == 0, f"{cmd}: {out}"
    return out


def check(device, spec, reset_values=None):
    return parse(spec).check(Probe(device, reset_values))


def ok(device, spec, reset_values=None) -> bool:
    return check(device, spec, reset_values).ok


# -- logcat --------------------------------------------------------------------------------


def logcat(filter_spec: str, regex: str) -> dict:
    return {"logcat": {"filter": filter_spec, "regex": regex}}


def test_logcat_matches_a_line_of_its_tag_logged_by_a_real_action(phone):
    spec = logcat("SettingsProvider:V", r"^(.*?)content://settings/system/vibrate_when_ringing")
    assert not ok(phone, spec)
    sh(phone, "settings put system vibrate_when_ringing 1")
    verdict = check(phone, spec)
    assert verdict.ok
    assert verdict.trace == [
        "logcat[SettingsProvider:V] /^(.*?)content://settings/system/vibrate_when_ringing/: "
        "matched 'Notifying for 0: content://settings/system/vibrate_when_ringing'"]


def test_logcat_priority_filter_drops_lower_priorities(phone):
    sh(phone, "settings put system vibrate_when_ringing 1")   # a V line
    sh(phone, "svc wifi disable")                              # an I line
    assert not ok(phone, logcat("SettingsProvider:D", r"^(.*?)vibrate_when_ringing"))
    assert not ok(phone, logcat("SettingsProvider:I", r"^(.*?)vibrate_when_ringing"))
    assert ok(phone, logcat("WifiService:V", r"^(.*?)enable=false"))
    assert ok(phone, logcat("WifiService:I", r"^(.*?)enable=false"))
    assert not ok(phone, logcat("WifiService:W", r"^(.*?)enable=false"))
    assert not ok(phone, logcat("WifiService:E", r"^(.*?)enable=false"))


def test_logcat_ignores_lines_of_other_tags(phone):
    sh(phone, "svc wifi disable")   # WifiService: setWifiEnabled ...; SettingsProvider: .../wifi_on
    assert ok(phone, logcat("SettingsProvider:V", r"^(.*?)global/wifi_on"))
    verdict = check(phone, logcat("WifiService:I", r"^(.*?)global/wifi_on"))
    assert not verdict.ok
    assert verdict.trace[0].endswith("no match in 1 line(s)")
    assert not ok(phone, logcat("vol.Events:I", r"^(.*?)"))
    assert not ok(phone, logcat("Wifi:I", r"^(.*?)setWifiEnabled"))


def test_logcat_regex_is_anchored_at_the_start_of_the_message(phone):
    sh(phone, "svc wifi disable")   # "setWifiEnabled package=com.android.shell uid=2000 enable=false"
    assert ok(phone, logcat("WifiService:I", "setWifiEnabled"))
    assert not ok(phone, logcat("WifiService:I", "package=com.android.shell"))
    assert ok(phone, logcat("WifiService:I", r"^(.*?)package=com.android.shell"))
    assert not ok(phone, logcat("WifiService:I", r"WifiService"))   # the tag is not the message
    assert not ok(phone, logcat("WifiService:I", r"^\d+\.\d+"))    # nor the timestamp


def test_logcat_sees_every_matching_line_not_only_the_first(phone):
    sh(phone, "media volume --stream 2 --set 6")
    sh(phone, "media volume --stream 4 --set 2")
    assert ok(phone, logcat("vol.Events:I", r"^(.*?)STREAM_ALARM 2"))
    assert ok(phone, logcat("vol.Events:I", r"^(.*?)STREAM_RING 6"))
    assert not ok(phone, logcat("vol.Events:I", r"^(.*?)STREAM_MUSIC"))


def test_logcat_does_not_see_lines_cleared_before(phone):
    sh(phone, "svc wifi disable")
    sh(phone, "logcat -b all -c")
    sh(phone, "settings put system vibrate_when_ringing 1")
    assert not ok(phone, logcat("WifiService:I", r"^(.*?)setWifiEnabled"))
    assert ok(phone, logcat("SettingsProvider:V", r"^(.*?)vibrate_when_ringing"))


# -- ui ------------------------------------------------------------------------------------


def ui(**fields) -> dict:
    return {"ui": fields}


@pytest.fixture
def settings_screen(phone):
    sh(phone, "am start -n com.android.settings/.Settings")
    return phone


def test_ui_by_id_compares_the_text_of_any_element_with_that_id(settings_screen):
    phone = settings_screen
    assert ok(phone, ui(by="id", value="android:id/title", equals="Display"))
    assert ok(phone, ui(by="id", value="android:id/title", startswith="Netw"))
    assert ok(phone, ui(by="id", value="android:id/title", contains="& internet"))
    assert ok(phone, ui(by="id", value="android:id/summary", contains="data usage"))
    assert not ok(phone, ui(by="id", value="android:id/title", equals="Displa"))
    assert not ok(phone, ui(by="id", value="android:id/title", startswith="internet"))
    assert not ok(phone, ui(by="id", value="android:id/title", contains="Bluetooth"))
    assert not ok(phone, ui(by="id", value="android:id/summary", equals="Display"))


def test_ui_comparisons_must_all_hold_on_one_element(settings_screen):
    phone = settings_screen
    assert ok(phone, ui(by="id", value="android:id/title", startswith="Net", contains="internet"))
    assert not ok(phone, ui(by="id", value="android:id/title", startswith="Dis",
                            contains="internet"))


def test_ui_false_trace_lists_what_the_elements_held(settings_screen):
    verdict = check(settings_screen, ui(by="id", value="android:id/title", equals="Nope"))
    assert not verdict.ok
    assert len(verdict.trace) == 1
    assert "'Display'" in verdict.trace[0] and "'Battery'" in verdict.trace[0]


def test_ui_by_text_text_contains_and_desc(phone):
    assert ok(phone, ui(by="desc", value="Settings"))                 # the home-screen icon
    assert ok(phone, ui(by="text", value="Calculator", attr="clickable", equals="true"))
    assert ok(phone, ui(by="text_contains", value="alcul"))
    assert ok(phone, ui(by="desc_contains", value="alcul"))
    assert ok(phone, ui(by="text_matches", value=r"Calc\w+"))
    assert not ok(phone, ui(by="text_matches", value=r"alc"))         # a full match
    assert not ok(phone, ui(by="text", value="calculator"))
    assert not ok(phone, ui(by="desc", value="Settin"))
    assert not ok(phone, ui(by="text", value="Calculator", attr="checked", equals="true"))
    assert ok(phone, ui(by="desc", value="Settings", attr="content-desc", equals="Settings"))


def test_ui_existence_only_and_a_missing_element(phone, settings_screen):
    assert ok(settings_screen, ui(by="id", value="com.android.settings:id/search_action_bar"))
    assert ok(settings_screen, ui(by="text", value="Sound"))
    verdict = check(settings_screen, ui(by="id", value="com.android.settings:id/see_all"))
    assert not verdict.ok
    assert verdict.trace == ["ui[id='com.android.settings:id/see_all'].text: no such element"]
    sh(phone, "input keyevent KEYCODE_HOME")
    assert not ok(phone, ui(by="text", value="Sound"))


def test_ui_strip_spaces_removes_spaces_from_the_element(settings_screen):
    phone = settings_screen
    title = {"by": "id", "value": "android:id/title"}
    assert ok(phone, ui(**title, equals="Network&internet", strip_spaces=True))
    assert not ok(phone, ui(**title, equals="Network&internet"))
    assert not ok(phone, ui(**title, equals="Network & internet", strip_spaces=True))


def test_ui_reads_the_screen_at_check_time(settings_screen):
    phone = settings_screen
    spec = ui(by="id", value="com.android.settings:id/see_all")
    assert not ok(phone, spec)
    tap_on(phone, text="Apps & notifications")
    assert ok(phone, spec)


def test_ui_uses_a_given_hierarchy_instead_of_dumping(settings_screen):
    phone = settings_screen
    home = bmoca.device.connect("sim", config=bmoca.configs.get("test_env_100")).dump_hierarchy()
    detector = parse(ui(by="text", value="Battery"))
    assert detector.check(Probe(phone)).ok
    assert not detector.check(Probe(phone, hierarchy=home)).ok


def test_ui_count_needs_exactly_that_many_elements_passing_the_comparison(settings_screen):
    phone = settings_screen
    shown = [n.get("text") for n in nodes(phone.dump_hierarchy(), resource_id="android:id/title")]
    with_amp = sum("&" in t for t in shown)
    assert len(shown) > with_amp >= 2  # "Network & internet", "Apps & notifications", ...
    title = {"by": "id", "value": "android:id/title"}
    assert ok(phone, ui(**title, count=len(shown)))
    assert ok(phone, ui(**title, count=str(len(shown))))  # as a family's placeholder fills it
    assert not ok(phone, ui(**title, count=len(shown) + 1))
    assert ok(phone, ui(**title, contains="&", count=with_amp))
    assert not ok(phone, ui(**title, contains="&", count=with_amp - 1))
    assert ok(phone, ui(by="id", value="com.android.settings:id/see_all", count=0))
    verdict = check(phone, ui(**title, count=len(shown) + 1))
    assert verdict.trace == [f"ui[id='android:id/title'].text count={len(shown) + 1}: "
                             f"{len(shown)} element(s)"]


@pytest.mark.parametrize("spec", [ui(by="name", value="x"), ui(by="text_equals", value="x"),
                                  ui(by="id", value="x", attr="colour"),
                                  ui(by="id", value="x", matches="("),
                                  ui(by="text_matches", value="("),
                                  ui(by="id", value="x", count="two"),
                                  ui(by="id", value="x", count=True)])
def test_ui_malformed(spec):
    with pytest.raises(DetectorError, match=r"^success\.ui: ui\."):
        parse(spec)


# -- shell ---------------------------------------------------------------------------------


def shell(cmd: str, regex: str | None = None, **compare) -> dict:
    body: dict = {"cmd": cmd, "compare": compare}
    if regex is not None:
        body["regex"] = regex
    return {"shell": body}


def test_shell_compares_numbers_as_numbers(phone):
    assert ok(phone, shell("echo 10", greater=9))
    assert ok(phone, shell("echo 10", greater="9"))
    assert not ok(phone, shell("echo 10", less="9"))
    assert ok(phone, shell("echo 10.0", equals=10))
    assert ok(phone, shell("echo 7", at_least=7, at_most=7))
    assert not ok(phone, shell("echo 7", at_least=7, at_most=6))
    assert ok(phone, shell("echo 7", not_equals=8))


def test_shell_compares_words_as_strings(phone):
    assert ok(phone, shell("echo null", equals="null"))
    assert not ok(phone, shell("echo null", equals=0))
    assert ok(phone, shell("echo abc", less="abd"))


def test_shell_takes_the_first_group_of_the_regex(phone):
    cmd = "media volume --stream 4 --get"   # "[v] volume is 6 in range [1..7]"
    assert ok(phone, shell(cmd, r"volume is (\d+)", equals=6))
    assert not ok(phone, shell(cmd, r"range \[1\.\.(\d+)\]", equals=6))
    assert ok(phone, shell(cmd, r"range \[1\.\.(\d+)\]", equals=7))
    assert ok(phone, shell("echo '  padded  '", equals="padded"))
    assert ok(phone, shell("settings get global wifi_on", equals=1))   # default ^(.*)$


def test_shell_regex_that_does_not_match_is_false(phone):
    verdict = check(phone, shell("settings get global wifi_on", r"volume is (\d+)", equals=1))
    assert not verdict.ok
    assert "did not match" in verdict.trace[0]


def test_shell_without_comparison_only_needs_a_match(phone):
    assert ok(phone, shell("settings get global wifi_on", r"^[01]$"))
    assert not ok(phone, shell("settings get global wifi_on", r"^[23]$"))


def test_shell_reset_comparisons_use_the_captured_value(phone):
    detector = parse(shell("settings get system screen_brightness", r"^(\d+)", less="$reset"))
    sh(phone, "settings put system screen_brightness 120")
    values: dict[str, str] = {}
    detector.capture(Probe(phone), values)
    assert values == {"shell:settings get system screen_brightness": "120"}
    assert not detector.check(Probe(phone, values)).ok
    sh(phone, "settings put system screen_brightness 130")
    verdict = detector.check(Probe(phone, values))
    assert not verdict.ok
    assert "130 is not less 120" in verdict.trace[0]
    sh(phone, "settings put system screen_brightness 99")   # fewer digits: numbers, not strings
    assert detector.check(Probe(phone, values)).ok
    assert not detector.check(Probe(phone, {"shell:settings get system screen_brightness": "90"})).ok


def test_shell_reset_without_a_captured_value_is_false(phone):
    verdict = check(phone, shell("echo 5", greater="$reset"))
    assert not verdict.ok
    assert "no value recorded at reset" in verdict.trace[0]


def test_shell_capture_records_nothing_when_no_reset_is_used(phone):
    values: dict[str, str] = {}
    parse(shell("echo 5", greater=1)).capture(Probe(phone), values)
    assert values == {}


def test_shell_capture_fails_when_the_reset_output_does_not_match(phone):
    detector = parse(shell("echo nothing", r"(\d+)", greater="$reset"))
    with pytest.raises(bmoca.device.DeviceError, match="at reset"):
        detector.capture(Probe(phone), {})


@pytest.mark.parametrize("spec", [shell("echo 1", bigger=1), shell("echo 1", "(", equals=1),
                                  {"shell": {"cmd": "echo 1", "compare": ["equals", 1]}},
                                  {"shell": {"regex": "x"}}])
def test_shell_malformed(spec):
    with pytest.raises(DetectorError, match=r"^success\.shell"):
        parse(spec)


# -- sqlite --------------------------------------------------------------------------------


def alarms_db(tmp_path, rows) -> bytes:
    path = tmp_path / "alarms.db"
    path.unlink(missing_ok=True)
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("CREATE TABLE alarm_templates (_id INTEGER PRIMARY KEY, hour INTEGER, "
                     "minutes INTEGER, daysofweek INTEGER, enabled INTEGER, label TEXT)")
        conn.executemany("INSERT INTO alarm_templates (hour, minutes, daysofweek, enabled, label) "
                         "VALUES (?, ?, ?, ?, ?)", rows)
    conn.close()
    return path.read_bytes()


ALARM = ("SELECT 1 FROM alarm_templates WHERE hour = ? AND minutes = ? AND daysofweek = ? "
         "AND enabled = 1")


def sqlite(params, expect="rows", query=ALARM, path=CLOCK_DB) -> dict:
    return {"sqlite": {"path": path, "query": query, "params": params, "expect": expect}}


def test_sqlite_finds_a_row_with_bound_parameters(tmp_path, phone):
    phone.push(alarms_db(tmp_path, [(7, 30, 31, 1, "Work"), (9, 0, 96, 0, "Weekend")]), CLOCK_DB)
    verdict = check(phone, sqlite([7, 30, 31]))
    assert verdict.ok
    assert verdict.trace[0].endswith("1 row(s)")
    assert not ok(phone, sqlite([7, 31, 31]))
    assert not ok(phone, sqlite([9, 0, 96]))   # disabled
    assert ok(phone, sqlite(["Weekend"], query="SELECT * FROM alarm_templates WHERE label = ?"))


def test_sqlite_parameters_are_bound_not_formatted(tmp_path, phone):
    phone.push(alarms_db(tmp_path, [(7, 30, 31, 1, "Work")]), CLOCK_DB)
    query = "SELECT 1 FROM alarm_templates WHERE label = ?"
    assert ok(phone, sqlite(["Work"], query=query))
    assert not ok(phone, sqlite(["x' OR '1'='1"], query=query))
    assert not ok(phone, sqlite(["0 OR 1 = 1"], query="SELECT 1 FROM alarm_templates WHERE hour = ?"))


def test_sqlite_expect_none(tmp_path, phone):
    phone.push(alarms_db(tmp_path, [(7, 30, 31, 1, "Work")]), CLOCK_DB)
    assert ok(phone, sqlite([8, 0, 31], expect="none"))
    verdict = check(phone, sqlite([7, 30, 31], expect="none"))
    assert not verdict.ok and verdict.trace[0].endswith("1 row(s)")


def test_sqlite_reads_the_database_as_it_is_at_check_time(tmp_path, phone):
    detector = parse(sqlite([7, 30, 31]))
    phone.push(alarms_db(tmp_path, [(7, 30, 31, 0, "Work")]), CLOCK_DB)
    assert not detector.check(Probe(phone)).ok
    phone.push(alarms_db(tmp_path, [(7, 30, 31, 1, "Work")]), CLOCK_DB)
    assert detector.check(Probe(phone)).ok


def test_sqlite_on_a_file_that_is_not_a_database(phone):
    phone.push(b"this is not a database, only some text\n" * 20, CLOCK_DB)
    verdict = check(phone, sqlite([7, 30, 31]))
    assert not verdict.ok
    assert "not a database" in verdict.trace[0]


def test_sqlite_on_a_missing_file_or_table(tmp_path, phone):
    verdict = check(phone, sqlite([7, 30, 31], path="/data/user_de/0/nowhere/databases/x.db"))
    assert not verdict.ok and "cannot pull" in verdict.trace[0]
    phone.push(alarms_db(tmp_path, []), CLOCK_DB)
    verdict = check(phone, sqlite([], query="SELECT * FROM alarms"))
    assert not verdict.ok and "no such table: alarms" in verdict.trace[0]


@pytest.mark.parametrize("query", ["DELETE FROM alarm_templates",
                                   "UPDATE alarm_templates SET enabled = 1",
                                   "DROP TABLE alarm_templates", 3])
def test_sqlite_only_takes_a_select(query):
    with pytest.raises(DetectorError, match=r"^success\.sqlite: sqlite\.query must be a SELECT"):
        parse(sqlite([], query=query))


def test_sqlite_expect_must_be_rows_or_none():
    with pytest.raises(DetectorError, match="sqlite.expect"):
        parse(sqlite([], expect="some"))


# -- shared_prefs --------------------------------------------------------------------------


def pref(**fields) -> dict:
    return {"shared_prefs": {"path": PREFS, **fields}}


def test_shared_prefs_value_and_text(phone):
    phone.push(PREFS_XML, PREFS)
    assert ok(phone, pref(element="boolean", name="x", equals="false"))
    assert not ok(phone, pref(element="boolean", name="x", equals="true"))
    assert ok(phone, pref(element="int", name="launches", equals="12"))
    assert ok(phone, pref(name="feedCardsEnabled", text_equals="[true,false]"))
    assert not ok(phone, pref(name="feedCardsEnabled", text_equals="[true,true]"))
    assert ok(phone, pref(name="feedCardsEnabled"))
    verdict = check(phone, pref(name="feedCardsEnabled", text_equals="[false]"))
    assert verdict.trace[0].endswith("value=None text='[true,false]'")


def test_shared_prefs_missing_key_or_element_kind(phone):
    phone.push(PREFS_XML, PREFS)
    verdict = check(phone, pref(element="boolean", name="y", equals="false"))
    assert not verdict.ok
    assert "no <boolean name='y'>" in verdict.trace[0]
    assert not ok(phone, pref(name="x"))                     # a boolean, not a string
    assert not ok(phone, pref(element="boolean", name="feedCardsEnabled"))


def test_shared_prefs_read_at_check_time(phone):
    spec = pref(element="boolean", name="x", equals="true")
    phone.push(PREFS_XML, PREFS)
    assert not ok(phone, spec)
    phone.push(PREFS_XML.replace(b'value="false"', b'value="true"'), PREFS)
    assert ok(phone, spec)


def test_shared_prefs_missing_or_broken_file(phone):
    verdict = check(phone, pref(name="x"))
    assert not verdict.ok and "cannot read" in verdict.trace[0]
    phone.push(b"<map><boolean name='x' value='true'>", PREFS)
    verdict = check(phone, pref(element="boolean", name="x"))
    assert not verdict.ok and "cannot read" in verdict.trace[0]


# -- combinators ---------------------------------------------------------------------------

TRUE = shell("echo 1", equals=1)
FALSE = shell("echo 2", equals=1)


def test_all_needs_every_part_and_traces_each(phone):
    verdict = check(phone, {"all": [TRUE, FALSE, TRUE]})
    assert not verdict.ok
    assert verdict.trace == ["shell[echo 1] equals 1: 1", "shell[echo 2] equals 1: 2 is not equals 1",
                             "shell[echo 1] equals 1: 1"]
    assert ok(phone, {"all": [TRUE, TRUE]})
    assert not ok(phone, {"all": [FALSE, TRUE]})


def test_any_needs_one_part_and_traces_each_part_it_tried(phone):
    verdict = check(phone, {"any": [FALSE, TRUE]})
    assert verdict.ok
    assert verdict.trace == ["shell[echo 2] equals 1: 2 is not equals 1",
                             "shell[echo 1] equals 1: 1"]
    verdict = check(phone, {"any": [FALSE, FALSE]})
    assert not verdict.ok and len(verdict.trace) == 2


def test_not_inverts_and_prefixes_the_trace(phone):
    verdict = check(phone, {"not": TRUE})
    assert not verdict.ok
    assert verdict.trace == ["not: shell[echo 1] equals 1: 1"]
    assert ok(phone, {"not": FALSE})
    assert ok(phone, {"not": {"not": TRUE}})


def test_nested_combinators_over_real_state(phone):
    spec = {"all": [
        logcat("SettingsProvider:V", r"^(.*?)vibrate_when_ringing"),
        {"any": [shell("settings get system vibrate_when_ringing", not_equals="$reset"),
                 {"not": shell("settings get global wifi_on", equals=1)}]},
    ]}
    detector = parse(spec)
    values: dict[str, str] = {}
    detector.capture(Probe(phone), values)
    assert values == {"shell:settings get system vibrate_when_ringing": "0"}
    assert not detector.check(Probe(phone, values)).ok
    sh(phone, "settings put system vibrate_when_ringing 1")
    verdict = detector.check(Probe(phone, values))
    assert verdict.ok and len(verdict.trace) == 2
    sh(phone, "settings put system vibrate_when_ringing 0")
    verdict = detector.check(Probe(phone, values))
    assert not verdict.ok and len(verdict.trace) == 3
    sh(phone, "svc wifi disable")
    assert detector.check(Probe(phone, values)).ok


def test_capture_reaches_reset_values_under_not(phone):
    detector = parse({"not": shell("echo 4", equals="$reset")})
    values: dict[str, str] = {}
    detector.capture(Probe(phone), values)
    assert values == {"shell:echo 4": "4"}
    assert not detector.check(Probe(phone, values)).ok


@pytest.mark.parametrize(("spec", "where"), [
    ({"all": TRUE}, "success.all"), ({"any": []}, "success.any"),
    ({"all": [TRUE, {"nope": {}}]}, "success.all[1]"), ({"not": [TRUE]}, "success.not"),
    ({"not": {"all": [TRUE, {"ui": {"by": "id"}}]}}, "success.not.all[1].ui"),
    ({"logcat": "A:I"}, "success.logcat"), ("logcat", "success"), ({}, "success"),
])
def test_malformed_expressions_name_their_path(spec, where):
    with pytest.raises(DetectorError) as err:
        parse(spec)
    assert str(err.value).startswith(where + ":"), str(err.value)


def test_sqlite_reads_a_write_ahead_log_database_and_an_empty_file(tmp_path, phone):
    """Android keeps its databases in WAL mode; the file pulled without its -wal is read as
    sqlite3 reads it from disk. An empty file is an empty database, a cut one is damaged."""
    path = tmp_path / "wal.db"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    with conn:
        conn.execute("CREATE TABLE alarm_templates (_id INTEGER PRIMARY KEY, hour INTEGER, "
                     "minutes INTEGER, daysofweek INTEGER, enabled INTEGER, label TEXT)")
        conn.execute("INSERT INTO alarm_templates (hour, minutes, daysofweek, enabled, label) "
                     "VALUES (7, 30, 31, 1, 'Work')")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    data = path.read_bytes()
    assert data[18:20] == b"\x02\x02", "the file should be in WAL mode"
    phone.push(data, CLOCK_DB)
    assert ok(phone, sqlite([7, 30, 31]))
    phone.push(b"", CLOCK_DB)
    verdict = check(phone, sqlite([7, 30, 31]))
    assert not verdict.ok and "no such table: alarm_templates" in verdict.trace[0]
    phone.push(alarms_db(tmp_path, [(7, 30, 31, 1, "Work")])[:100], CLOCK_DB)
    verdict = check(phone, sqlite([7, 30, 31]))
    assert not verdict.ok and "malformed" in verdict.trace[0]


@pytest.mark.parametrize("by, value", [
    ("id", "android:id/title"), ("id", ""), ("text", "Sound"), ("text_contains", "o"),
    ("text_matches", r"[A-Z]\w+"), ("desc", ""), ("desc_contains", ""),
    ("desc_matches", r".*"), ("class", "android.widget.TextView")])
def test_ui_picks_the_nodes_a_per_node_match_picks_in_document_order(settings_screen, by, value):
    """The selection, worked out once per check, picks what matching node by node does:
    the false verdict lists every picked node's attribute in document order."""
    import re

    from lxml import etree

    phone = settings_screen
    key = {"id": "resource-id", "text": "text", "desc": "content-desc", "class": "class"}[
        by.split("_")[0]]
    wanted = []
    for node in etree.fromstring(phone.dump_hierarchy().encode()).iter("node"):
        actual = node.get(key, "")
        if (actual == value if "_" not in by else value in actual if by.endswith("_contains")
                else re.fullmatch(value, actual) is not None):
            wanted.append(node.get("text", ""))
    verdict = check(phone, ui(by=by, value=value, equals="\x00 never"))
    assert not verdict.ok
    assert wanted, "the case should pick something"
    assert verdict.trace == [f"{parse(ui(by=by, value=value, equals=chr(0) + ' never')).describe()}"
                             f": text was {wanted!r}"]


# -- answer read from the phone ------------------------------------------------------------

def test_answer_read_compares_with_what_the_phone_prints(phone):
    from bmoca.tasks.answers import Claims
    spec = {"answer": {"read": {"cmd": "getprop ro.product.model", "regex": "^(.+)$"}}}
    model = sh(phone, "getprop ro.product.model").strip()
    assert parse(spec).check(Probe(phone, claims=Claims(answer=f"{model}."))).ok
    assert not parse(spec).check(Probe(phone, claims=Claims(answer="Pixel 7"))).ok
    assert not parse(spec).check(Probe(phone)).ok


@pytest.mark.parametrize("spec", [{"answer": {}}, {"answer": {"equals": "a", "read": {
    "cmd": "getprop ro.product.model", "regex": "(.+)"}}}, {"answer": {"read": {"cmd": "x"}}}])
def test_answer_takes_equals_or_read(spec):
    with pytest.raises(DetectorError):
        parse(spec)

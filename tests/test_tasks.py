"""The task suite: registry, loader validation, set-up and success on the simulated phone."""

from __future__ import annotations

import copy
import re

import pytest
import yaml
from conftest import nodes, tap_on

import bmoca.configs
import bmoca.device
import bmoca.tasks as tasks
from bmoca.tasks import EpisodeStart, TaskError, load_file
from bmoca.tasks.detectors import Probe

SETTINGS_IDS = [
    "settings/open_the_setting_app",
    "settings/turn_on_wifi",
    "settings/turn_off_wifi",
    "settings/turn_on_airplane_mode",
    "settings/turn_off_airplane_mode",
    "settings/go_to_bluetooth_setting",
    "settings/go_to_app_info_list_in_setting",
    "settings/go_to_the_'add_a_language'_page_in_setting",
    "settings/decrease_the_screen_brightness_in_setting",
    "settings/toggle_dark_theme_in_setting",
    "settings/toggle_vibrate_for_calls_in_setting",
    "settings/increase_media_volume_in_setting",
    "settings/increase_call_volume_in_setting",
    "settings/increase_ring_volume_in_setting",
    "settings/increase_alarm_volume_in_setting",
]
LANGUAGE = "settings/go_to_the_'add_a_language'_page_in_setting"


@pytest.fixture
def phone():
    return bmoca.device.connect("sim", config=bmoca.configs.get("test_env_100"))


def ids(found) -> list[str]:
    return [t.id for t in found]


def sh(device, cmd: str) -> str:
    out, code = device.shell(cmd)
    assert code == 0, f"{cmd}: {out}"
    return out


def volume(device, stream: int) -> int:
    return int(re.search(r"volume is (\d+)", sh(device, f"media volume --stream {stream} --get"))[1])


# -- registry ------------------------------------------------------------------------------


def test_the_settings_suite_has_the_fifteen_reference_tasks_in_order():
    assert ids(tasks.list(app="Settings")) == SETTINGS_IDS
    assert ids(tasks.list(app="settings", category="system")) == SETTINGS_IDS
    assert tasks.list(app="Settings", category="Event") == []
    for task in tasks.list(app="Settings"):
        assert (task.app, task.category) == ("Settings", "System")
        assert task.source.endswith("settings.yaml")
        assert task.step_limit >= 4 and task.expert, task.id


def test_get_returns_the_task_with_its_reference_values():
    task = tasks.get("settings/increase_alarm_volume_in_setting")
    assert task.id == "settings/increase_alarm_volume_in_setting"
    assert task.instruction == "increase alarm volume in setting"
    assert task.step_limit == 8
    assert task.goal == "Goal: increase alarm volume in setting"
    assert tasks.get(LANGUAGE).goal == "Goal: go to the 'add a language' page in setting"
    assert tasks.get(LANGUAGE).step_limit == 10  # four half-list scrolls at 700 dpi
    assert tasks.get("settings/open_the_setting_app").step_limit == 4


def test_get_of_an_unknown_id_suggests_close_ids():
    with pytest.raises(TaskError) as err:
        tasks.get("wifi")
    message = str(err.value)
    assert "'wifi'" in message
    assert "settings/turn_on_wifi" in message and "settings/turn_off_wifi" in message
    assert "airplane" not in message
    with pytest.raises(TaskError, match="did you mean settings/turn_on_wifi"):
        tasks.get("TURN_ON_WIFI")


def test_get_of_an_id_like_nothing_points_to_the_task_list():
    with pytest.raises(TaskError) as err:
        tasks.get("calendar/add_an_event")
    assert "did you mean" not in str(err.value)
    assert "bmoca tasks" in str(err.value)


def test_select_by_app_category_representative_and_all():
    assert ids(tasks.select("settings")) == SETTINGS_IDS
    assert ids(tasks.select("Settings")) == SETTINGS_IDS
    system = ids(tasks.select("System"))
    assert set(system) == set(SETTINGS_IDS) | {i for i in ids(tasks.all_tasks())
                                               if i.startswith("files/")}
    representative = tasks.select("representative")
    assert all(task.representative for task in representative)
    assert [i for i in ids(representative) if i.startswith("settings/")] == [LANGUAGE]
    assert ids(tasks.select("all")) == ids(tasks.all_tasks())
    assert set(SETTINGS_IDS) <= set(ids(tasks.select("all")))
    release = tasks.select("v2")
    assert set(SETTINGS_IDS) <= set(ids(release)) and all(t.version == 2 for t in release)
    first_only = [t for t in tasks.all_tasks() if t.version == 1]
    assert sorted(ids(release) + ids(first_only)) == sorted(ids(tasks.all_tasks()))


def test_select_patterns_and_comma_lists_keep_file_order_without_duplicates():
    assert ids(tasks.select("settings/turn_*_wifi")) == [
        "settings/turn_on_wifi", "settings/turn_off_wifi"]
    assert ids(tasks.select("settings/increase_*")) == SETTINGS_IDS[11:]
    chosen = tasks.select("settings/increase_alarm_volume_in_setting, settings/turn_*,"
                          "representative,settings/turn_on_wifi")
    assert ids(chosen) == ["settings/increase_alarm_volume_in_setting",
                           "settings/turn_on_wifi", "settings/turn_off_wifi",
                           "settings/turn_on_airplane_mode", "settings/turn_off_airplane_mode",
                           *ids(tasks.select("representative"))]
    assert LANGUAGE in ids(chosen)


@pytest.mark.parametrize("spec", ["bogus", "settings,bogus", "settings/turn_on_bluetooth",
                                  "settings/zzz_*", "v3"])
def test_select_of_an_unknown_name_lists_the_choices(spec):
    with pytest.raises(TaskError) as err:
        tasks.select(spec)
    message = str(err.value)
    assert "names no task" in message
    assert "Settings" in message and "Web/Shopping" in message and "representative" in message


def test_select_of_nothing_is_an_error():
    with pytest.raises(TaskError, match="no tasks selected"):
        tasks.select(" , ")


# -- loader --------------------------------------------------------------------------------

GOOD = {
    "id": "demo/alpha",
    "app": "Demo",
    "category": "Utility",
    "instruction": "do the thing",
    "step_limit": 5,
    "success": {"shell": {"cmd": "settings get global wifi_on", "regex": r"^(\d+)",
                          "compare": {"equals": 1}}},
}


def write(tmp_path, entries, name="demo.yaml"):
    path = tmp_path / name
    text = entries if isinstance(entries, str) else yaml.safe_dump(entries, sort_keys=False)
    path.write_text(text, "utf-8")
    return path


def task_error(path) -> str:
    with pytest.raises(TaskError) as err:
        load_file(path)
    return str(err.value)


def with_(**changes) -> dict:
    entry = copy.deepcopy(GOOD)
    for key, value in changes.items():
        if value is None:
            del entry[key]
        else:
            entry[key] = value
    return entry


def test_a_good_file_loads_with_every_field(tmp_path):
    (tmp_path / "alarms.db").write_bytes(b"db")
    entry = with_(setup=[{"clock": {"at": "2024-01-17 10:30:00"}},
                         {"setting": {"namespace": "global", "key": "wifi_on", "value": 0}},
                         {"shell": "svc wifi disable"},
                         {"push": {"file": "alarms.db", "to": "/sdcard/alarms.db"}}],
                  expert=[{"open_app": "com.android.settings"}], representative=True,
                  reference={"deviation": "none"}, version=1)
    [task] = load_file(write(tmp_path, [entry]))
    assert task.version == 1
    assert (task.id, task.app, task.category, task.step_limit) == ("demo/alpha", "Demo",
                                                                     "Utility", 5)
    assert task.goal == "Goal: do the thing"
    assert task.representative and task.reference == {"deviation": "none"}
    assert [s.kind for s in task.setup] == ["clock", "setting", "shell", "push"]
    assert task.setup[0].args["at"].hour == 10
    assert task.source == str(tmp_path / "demo.yaml")
    assert ids(load_file(write(tmp_path, [GOOD, with_(id="demo/beta")]))) == [
        "demo/alpha", "demo/beta"]


def test_set_up_steps_of_a_loaded_task_apply_on_the_phone(tmp_path, phone):
    (tmp_path / "blob.bin").write_bytes(b"\x00payload\xff")
    entry = with_(setup=[
        {"clock": {"at": "2023-03-15 09:30:00"}},
        {"setting": {"namespace": "system", "key": "screen_brightness", "value": 37}},
        {"shell": "svc wifi disable"},
        {"push": {"file": "blob.bin", "to": "/sdcard/Download/blob.bin"}}])
    [task] = load_file(write(tmp_path, [entry]))
    start = task.initialize(phone)
    assert sh(phone, "date +%Y-%m-%dT%H:%M").strip() == "2023-03-15T09:30"
    assert sh(phone, "settings get system screen_brightness").strip() == "37"
    assert phone.pull("/sdcard/Download/blob.bin") == b"\x00payload\xff"
    assert task.is_successful(phone, start).ok is False
    sh(phone, "svc wifi enable")
    assert task.is_successful(phone, start).ok is True


def test_a_failing_set_up_step_raises_setup_error_naming_the_task(tmp_path, phone):
    [task] = load_file(write(tmp_path, [with_(setup=[{"shell": "media volume --stream 4 --set 99"}])]))
    with pytest.raises(tasks.SetupError, match=r"demo/alpha.*shell: cmd=media volume"):
        task.initialize(phone)


BAD_ENTRIES = {
    "missing field": (with_(step_limit=None), "step_limit"),
    "missing success": (with_(success=None), "success"),
    "unknown field": (with_(stepLimit=5), "stepLimit"),
    "bad category": (with_(category="Settings"), "category"),
    "empty instruction": (with_(instruction="  "), "instruction"),
    "zero step_limit": (with_(step_limit=0), "step_limit"),
    "negative step_limit": (with_(step_limit=-2), "step_limit"),
    "string step_limit": (with_(step_limit="5"), "step_limit"),
    "boolean step_limit": (with_(step_limit=True), "step_limit"),
    "unknown version": (with_(version=3), "version"),
    "unknown detector": (with_(success={"logact": {"filter": "A:I", "regex": "x"}}), "logact"),
    "two keys": (with_(success={"logcat": {}, "shell": {}}), "success"),
    "bad regex": (with_(success={"logcat": {"filter": "A:I", "regex": "(unclosed"}}),
                  "logcat.regex"),
    "filter without priority": (with_(success={"logcat": {"filter": "ActivityManager",
                                                          "regex": "x"}}), "logcat.filter"),
    "filter bad priority": (with_(success={"logcat": {"filter": "ActivityManager:X",
                                                      "regex": "x"}}), "logcat.filter"),
    "filter empty priority": (with_(success={"logcat": {"filter": "ActivityManager:",
                                                        "regex": "x"}}), "logcat.filter"),
    "filter two priorities": (with_(success={"logcat": {"filter": "ActivityManager:VD",
                                                        "regex": "x"}}), "logcat.filter"),
    "filter not a string": (with_(success={"logcat": {"filter": 5, "regex": "x"}}),
                            "logcat.filter"),
    "filter without tag": (with_(success={"logcat": {"filter": ":I", "regex": "x"}}),
                           "logcat.filter"),
    "unknown logcat field": (with_(success={"logcat": {"filter": "A:I", "regexp": "x"}}),
                             "regexp"),
    "all not a list": (with_(success={"all": {"logcat": {"filter": "A:I", "regex": "x"}}}),
                       "success.all"),
    "all empty": (with_(success={"all": []}), "success.all"),
    "bad part of any": (with_(success={"any": [GOOD["success"], {"ui": {"by": "name",
                                                                        "value": "x"}}]}),
                        "success.any[1].ui"),
    "bad part of not": (with_(success={"not": {"shell": {"cmd": "x", "compare": {"bigger": 1}}}}),
                        "success.not.shell"),
    "compare not a mapping": (with_(success={"shell": {"cmd": "x", "compare": ["equals", 1]}}),
                              "shell.compare"),
    "ui by not a string": (with_(success={"ui": {"by": 3, "value": "x"}}), "ui.by"),
    "sqlite not select": (with_(success={"sqlite": {"path": "/x.db", "query": "DELETE FROM t"}}),
                          "sqlite.query"),
    "sqlite query not a string": (with_(success={"sqlite": {"path": "/x.db", "query": 1}}),
                                  "sqlite.query"),
    "unknown expert stage": (with_(expert=[{"open_app": "com.android.settings"},
                                           {"fly_to": "moon"}]),
                             "expert[1]: unknown stage 'fly_to'"),
    "bad expert arguments": (with_(expert=[{"tap_id": {"idd": "x"}}]), "expert[0]: tap_id"),
    "expert not a list": (with_(expert="open_app"), "expert"),
    "expert opens an unknown app": (with_(expert=[{"open_app": "com.example.nothing"}]),
                                    "field expert[0]: open_app: no app label for package 'com.example.nothing'"),
    "representative not a bool": (with_(representative="yes"), "representative"),
    "unknown set-up kind": (with_(setup=[{"reboot": {"now": True}}]), "setup[0]: unknown step"),
    "set-up step not a mapping": (with_(setup=["svc wifi disable"]), "setup[0]"),
    "set-up missing field": (with_(setup=[{"shell": "true"}, {"setting": {
        "namespace": "global", "key": "wifi_on"}}]), "setup[1].setting"),
    "set-up unknown field": (with_(setup=[{"shell": {"cmd": "true", "as": "root"}}]),
                             "setup[0].shell"),
    "bad clock date": (with_(setup=[{"clock": {"at": "2024-13-01 10:00:00"}}]),
                       "setup[0].clock"),
    "clock without time": (with_(setup=[{"clock": "tomorrow"}]), "setup[0].clock"),
    "push of a missing file": (with_(setup=[{"push": {"file": "missing.db", "to": "/sdcard/x"}}]),
                               "setup[0].push"),
}


@pytest.mark.parametrize("case", list(BAD_ENTRIES))
def test_each_loader_error_names_the_file_the_task_and_the_field(tmp_path, case):
    entry, field = BAD_ENTRIES[case]
    path = write(tmp_path, [with_(id="demo/zero"), entry])
    message = task_error(path)
    assert message.startswith(f"{path}: task demo/alpha: "), message
    assert field in message, message
    assert "demo/zero" not in message


def test_the_missing_field_message_lists_every_missing_field(tmp_path):
    message = task_error(write(tmp_path, [with_(app=None, step_limit=None)]))
    assert "missing field(s) app, step_limit" in message


def test_an_unquoted_impossible_clock_date_is_reported_like_a_quoted_one(tmp_path):
    text = yaml.safe_dump([with_(setup=[{"clock": {"at": "PLACEHOLDER"}}])], sort_keys=False)
    path = write(tmp_path, text.replace("PLACEHOLDER", "2024-13-01 10:00:00").replace("'", ""))
    message = task_error(path)
    assert message.startswith(f"{path}: task demo/alpha: field setup[0].clock"), message
    assert "2024-13-01 10:00:00" in message
    good = write(tmp_path, text.replace("PLACEHOLDER", "2024-02-29 10:00:00").replace("'", ""),
                 "good.yaml")
    assert load_file(good)[0].setup[0].args["at"].day == 29


def test_an_entry_without_an_id_is_named_by_its_position(tmp_path):
    path = write(tmp_path, [GOOD, with_(id=None)])
    assert task_error(path) == f"{path}: task #1: missing field(s) id"
    path = write(tmp_path, [GOOD, "just a string"])
    assert task_error(path).startswith(f"{path}: task #1: expected a mapping")


def test_duplicate_ids_in_one_file(tmp_path):
    path = write(tmp_path, [GOOD, with_(id="demo/beta"), with_(instruction="again")])
    message = task_error(path)
    assert message.startswith(str(path)) and "demo/alpha" in message
    assert "duplicate id" in message


@pytest.mark.parametrize("text", ["- id: [unclosed\n", "id: demo/alpha\napp: Demo\n",
                                  "just text\n", ""])
def test_a_file_that_is_not_a_yaml_list_of_tasks(tmp_path, text):
    path = write(tmp_path, text)
    assert task_error(path).startswith(f"{path}: ")


def test_a_missing_file(tmp_path):
    message = task_error(tmp_path / "nowhere.yaml")
    assert str(tmp_path / "nowhere.yaml") in message and "cannot read" in message


# -- initialize ----------------------------------------------------------------------------

# Shell commands that do each state-checked task before the episode; the set-up must undo them.
DONE_BEFORE = {
    "settings/turn_off_wifi": ["svc wifi disable"],
    "settings/turn_on_airplane_mode": ["settings put global airplane_mode_on 1"],
    "settings/decrease_the_screen_brightness_in_setting": [
        "settings put system screen_brightness 10"],
    "settings/toggle_dark_theme_in_setting": ["cmd uimode night yes"],
    "settings/increase_media_volume_in_setting": ["media volume --stream 3 --set 15"],
    "settings/increase_call_volume_in_setting": ["media volume --stream 0 --set 5"],
    "settings/increase_ring_volume_in_setting": ["media volume --stream 2 --set 7"],
    "settings/increase_alarm_volume_in_setting": ["media volume --stream 4 --set 7"],
    "settings/open_the_setting_app": ["am start -n com.android.settings/.Settings"],
}


@pytest.mark.parametrize("task_id", SETTINGS_IDS)
def test_no_task_is_successful_right_after_initialize(phone, task_id):
    task = tasks.get(task_id)
    for cmd in DONE_BEFORE.get(task_id, []):
        sh(phone, cmd)
    start = task.initialize(phone)
    verdict = task.is_successful(phone, start)
    assert verdict.ok is False, verdict.trace
    assert verdict.trace
    assert 'package="com.google.android.apps.nexuslauncher"' in phone.dump_hierarchy()


def test_initialize_clears_the_log_so_earlier_lines_do_not_count(phone):
    task = tasks.get("settings/open_the_setting_app")
    sh(phone, "am start -n com.android.settings/.Settings")
    assert task.success.check(Probe(phone)).ok is True
    start = task.initialize(phone)
    assert "Start proc" not in sh(phone, "logcat -d")
    assert task.is_successful(phone, start).ok is False


def test_an_airplane_switch_before_initialize_is_forgotten(phone):
    task = tasks.get("settings/turn_on_airplane_mode")
    sh(phone, "am start -n com.android.settings/.Settings")
    tap_on(phone, text="Network & internet")
    tap_on(phone, text="Airplane mode")
    assert task.success.check(Probe(phone)).ok is True
    start = task.initialize(phone)
    assert sh(phone, "settings get global airplane_mode_on").strip() == "0"
    sh(phone, "settings put global airplane_mode_on 1")
    verdict = task.is_successful(phone, start)
    assert verdict.ok is False, "the radio line logged before the reset was counted"
    sh(phone, "am start -n com.android.settings/.Settings")
    tap_on(phone, text="Network & internet")
    xml = phone.dump_hierarchy()
    assert nodes(xml, resource_id="android:id/switch_widget", checked="true")
    tap_on(phone, text="Airplane mode")   # off
    tap_on(phone, text="Airplane mode")   # on, through the phone this time
    assert task.is_successful(phone, start).ok is True


@pytest.mark.parametrize(("task_id", "cmd", "expected"), [
    ("settings/turn_on_wifi", "settings get global wifi_on", "0"),
    ("settings/turn_off_wifi", "settings get global wifi_on", "1"),
    ("settings/turn_on_airplane_mode", "settings get global airplane_mode_on", "0"),
    ("settings/turn_off_airplane_mode", "settings get global airplane_mode_on", "1"),
    ("settings/decrease_the_screen_brightness_in_setting",
     "settings get system screen_brightness", "102"),
])
def test_initialize_applies_the_set_up(phone, task_id, cmd, expected):
    before = sh(phone, cmd).strip()
    tasks.get(task_id).initialize(phone)
    assert sh(phone, cmd).strip() == expected
    if task_id in ("settings/turn_on_wifi", "settings/turn_off_airplane_mode"):
        assert before != expected, "the set-up has to change the image's state"


@pytest.mark.parametrize(("task_id", "stream", "level", "top"), [
    ("settings/increase_media_volume_in_setting", 3, 5, 15),
    ("settings/increase_call_volume_in_setting", 0, 3, 5),
    ("settings/increase_ring_volume_in_setting", 2, 4, 7),
    ("settings/increase_alarm_volume_in_setting", 4, 3, 7),
])
def test_initialize_sets_the_volume_and_records_it(phone, task_id, stream, level, top):
    sh(phone, f"media volume --stream {stream} --set {top}")
    start = tasks.get(task_id).initialize(phone)
    assert volume(phone, stream) == level
    assert start.reset_values == {f"shell:media volume --stream {stream} --get": str(level)}


def test_initialize_records_the_current_value_for_relative_criteria(phone):
    sh(phone, "cmd uimode night yes")
    start = tasks.get("settings/toggle_dark_theme_in_setting").initialize(phone)
    assert start.reset_values == {"shell:settings get secure ui_night_mode": "2"}
    assert tasks.get("settings/turn_on_wifi").initialize(phone) == EpisodeStart({})


def test_airplane_mode_is_on_after_initialize_of_turn_off_airplane_mode(phone):
    tasks.get("settings/turn_off_airplane_mode").initialize(phone)
    sh(phone, "am start -n com.android.settings/.Settings")
    tap_on(phone, text="Network & internet")
    switch = nodes(phone.dump_hierarchy(), resource_id="android:id/switch_widget")[0]
    assert switch.get("checked") == "true"


# -- right and wrong actions ---------------------------------------------------------------


def test_lowering_the_alarm_volume_fails_raising_it_succeeds(phone):
    task = tasks.get("settings/increase_alarm_volume_in_setting")
    start = task.initialize(phone)
    sh(phone, "media volume --stream 4 --set 2")
    verdict = task.is_successful(phone, start)
    assert verdict.ok is False
    assert any("matched" in line and "STREAM_ALARM" in line for line in verdict.trace), \
        "the volume event was logged; the state check must be what fails"
    sh(phone, "media volume --stream 4 --set 5")
    assert task.is_successful(phone, start).ok is True
    sh(phone, "media volume --stream 4 --set 3")
    assert task.is_successful(phone, start).ok is False


def test_changing_another_stream_does_not_raise_the_alarm_volume(phone):
    task = tasks.get("settings/increase_alarm_volume_in_setting")
    start = task.initialize(phone)
    sh(phone, "media volume --stream 2 --set 7")
    sh(phone, "media volume --stream 3 --set 15")
    assert task.is_successful(phone, start).ok is False


def test_raising_the_ring_volume_succeeds(phone):
    task = tasks.get("settings/increase_ring_volume_in_setting")
    start = task.initialize(phone)
    sh(phone, "media volume --stream 2 --set 5")
    assert task.is_successful(phone, start).ok is True


def test_dark_theme_toggle_is_a_difference_from_the_reset_value(phone):
    task = tasks.get("settings/toggle_dark_theme_in_setting")
    start = task.initialize(phone)
    sh(phone, "cmd uimode night yes")
    assert task.is_successful(phone, start).ok is True
    sh(phone, "cmd uimode night no")
    assert task.is_successful(phone, start).ok is False


def test_dark_theme_toggle_off_from_a_dark_phone_succeeds(phone):
    task = tasks.get("settings/toggle_dark_theme_in_setting")
    sh(phone, "cmd uimode night yes")
    start = task.initialize(phone)
    assert task.is_successful(phone, start).ok is False
    sh(phone, "cmd uimode night no")
    assert task.is_successful(phone, start).ok is True


def test_vibrate_toggled_twice_is_not_a_toggle(phone):
    task = tasks.get("settings/toggle_vibrate_for_calls_in_setting")
    start = task.initialize(phone)
    sh(phone, "settings put system vibrate_when_ringing 1")
    assert task.is_successful(phone, start).ok is True
    sh(phone, "settings put system vibrate_when_ringing 0")
    assert task.is_successful(phone, start).ok is False


def test_wifi_switched_on_by_shell_succeeds(phone):
    task = tasks.get("settings/turn_on_wifi")
    start = task.initialize(phone)
    assert task.is_successful(phone, start).ok is False
    sh(phone, "svc wifi enable")
    assert task.is_successful(phone, start).ok is True


def brightness_slider(phone) -> tuple[int, int, int]:
    sh(phone, "am start -n com.android.settings/.Settings")
    tap_on(phone, text="Display")
    tap_on(phone, text="Brightness level")
    slider = nodes(phone.dump_hierarchy(), resource_id="com.android.systemui:id/slider")[0]
    left, top, right, bottom = (int(v) for v in re.findall(r"\d+", slider.get("bounds")))
    return left, right, (top + bottom) // 2


def test_raising_the_brightness_fails_the_decrease_task(phone):
    task = tasks.get("settings/decrease_the_screen_brightness_in_setting")
    start = task.initialize(phone)
    sh(phone, "settings put system screen_brightness 200")
    assert task.is_successful(phone, start).ok is False
    left, right, y = brightness_slider(phone)
    phone.tap(right - 5, y)
    assert int(sh(phone, "settings get system screen_brightness")) > 102
    verdict = task.is_successful(phone, start)
    assert verdict.ok is False
    assert any("reason changing to" in line for line in verdict.trace), \
        "the slider logged a manual change; the state check must be what fails"
    phone.tap(left + 5, y)
    assert int(sh(phone, "settings get system screen_brightness")) < 102
    assert task.is_successful(phone, start).ok is True


def test_log_filters_of_a_task_name_its_logcat_detectors():
    assert tasks.get("settings/increase_alarm_volume_in_setting").log_filters == ["vol.Events:I"]
    assert tasks.get("settings/turn_on_wifi").log_filters == []


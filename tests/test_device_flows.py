"""The simulated phone driven only through the Device contract, as an agent would."""

from __future__ import annotations

import re

import pytest
from conftest import bounds, center_of, logcat, nodes, row_of, tap_on

from bmoca.device import InvalidInput, connect


def open_settings(device) -> None:
    tap_on(device, text="Settings")
    assert nodes(device.dump_hierarchy(), resource_id="com.android.settings:id/search_action_bar")


def open_page(device, title: str) -> None:
    tap_on(device, text=title)


def test_airplane_mode_from_home_screen_by_coordinates(device):
    open_settings(device)
    open_page(device, "Network & internet")
    xml = device.dump_hierarchy()
    switch = [n for n in row_of(xml, "Airplane mode").iter("node")
              if n.get("resource-id") == "android:id/switch_widget"][0]
    assert switch.get("checked") == "false" and switch.get("text") == "OFF"
    device.tap(*center_of(device, text="Airplane mode"))
    assert device.shell("settings get global airplane_mode_on") == ("1\n", 0)
    log = logcat(device, "PhoneGlobals:I")
    assert re.search(r" I PhoneGlobals: Turning radio off - airplane$", log, re.M)
    switch = [n for n in row_of(device.dump_hierarchy(), "Airplane mode").iter("node")
              if n.get("resource-id") == "android:id/switch_widget"][0]
    assert switch.get("checked") == "true" and switch.get("text") == "ON"
    device.tap(*center_of(device, text="Airplane mode"))
    assert "Turning radio on - airplane" in logcat(device, "PhoneGlobals:I")


def test_launch_logs_start_and_process_lines(device):
    open_settings(device)
    log = logcat(device, "ActivityTaskManager:I", "ActivityManager:I")
    assert re.search(r"I ActivityTaskManager: START u0 \{act=android.intent.action.MAIN "
                     r"cat=\[android.intent.category.LAUNCHER\] flg=0x10200000 "
                     r"cmp=com.android.settings/.Settings bnds=\[\d+,\d+\]\[\d+,\d+\]\} "
                     r"from uid 10089", log)
    assert re.search(r"I ActivityManager: Start proc \d+:com.android.settings/1000 for activity "
                     r"\{com.android.settings/com.android.settings.Settings\}", log)
    device.press("HOME")
    device.shell("logcat -c")
    open_settings(device)
    assert "Start proc" not in logcat(device, "ActivityManager:I"), "process was cached"


def test_wifi_switch_logs_settings_as_caller(device):
    open_settings(device)
    open_page(device, "Network & internet")
    switch = [n for n in row_of(device.dump_hierarchy(), "Wi‑Fi").iter("node")
              if n.get("resource-id") == "com.android.settings:id/switchWidget"][0]
    left, top, right, bottom = bounds(switch)
    device.tap((left + right) // 2, (top + bottom) // 2)
    assert device.shell("settings get global wifi_on")[0] == "0\n"
    assert re.search(r"WifiService: setWifiEnabled package=com.android.settings uid=1000 "
                     r"enable=false", logcat(device, "WifiService:I"))


def test_navigation_bar_buttons_work_by_tapping(device):
    width, height = device.screen_size()
    open_settings(device)
    open_page(device, "Network & internet")
    # B-MoCA's text-action BACK taps just outside the button: the nearest button wins.
    device.tap(int(0.336 * width), int(0.984 * height))
    assert nodes(device.dump_hierarchy(), resource_id="com.android.settings:id/search_action_bar")
    device.tap(width // 2, int(0.984 * height))
    assert nodes(device.dump_hierarchy(), resource_id="com.google.android.apps.nexuslauncher:id/workspace")


def test_launcher_resumes_an_existing_task_where_it_was(device):
    open_settings(device)
    open_page(device, "Display")
    device.press("HOME")
    tap_on(device, text="Settings")
    assert nodes(device.dump_hierarchy(), text="Dark theme")


def test_back_and_home_keys(device):
    open_settings(device)
    open_page(device, "Display")
    device.press("BACK")
    assert nodes(device.dump_hierarchy(), text="Network & internet")
    device.press("KEYCODE_HOME")
    assert nodes(device.dump_hierarchy(), resource_id="com.google.android.apps.nexuslauncher:id/hotseat")


def test_app_drawer_and_search_with_soft_keyboard(device):
    width, height = device.screen_size()
    device.swipe(width // 2, int(height * 0.8), width // 2, int(height * 0.2), 300)
    xml = device.dump_hierarchy()
    labels = [n.get("text") for n in nodes(xml, resource_id="com.google.android.apps.nexuslauncher:id/icon")]
    assert labels == sorted(labels, key=str.casefold) and "Calculator" in labels
    tap_on(device, resource_id="com.google.android.apps.nexuslauncher:id/search_container_all_apps")
    field = nodes(device.dump_hierarchy(),
                  resource_id="com.google.android.apps.nexuslauncher:id/search_container_all_apps")[0]
    assert field.get("focused") == "true" and field.get("text") == "Search apps"
    # the keyboard is a real window: its keys are on screen (not in the app's dump)
    before = device.screenshot()
    lower = before[int(height * 0.6):int(height * 0.9)]
    assert lower.std() > 10
    device.input_text("cal")
    xml = device.dump_hierarchy()
    labels = [n.get("text") for n in nodes(xml, resource_id="com.google.android.apps.nexuslauncher:id/icon")]
    assert labels == ["Calculator", "Calendar"]
    device.press("DEL")
    device.press("DEL")
    labels = [n.get("text") for n in nodes(device.dump_hierarchy(),
                                            resource_id="com.google.android.apps.nexuslauncher:id/icon")]
    assert "Camera" in labels and "Clock" in labels
    device.press("BACK")  # hides the keyboard first
    assert nodes(device.dump_hierarchy(),
                 resource_id="com.google.android.apps.nexuslauncher:id/search_container_all_apps")[0].get("focused") == "false"


def test_typing_on_the_on_screen_keyboard(device):
    width, height = device.screen_size()
    device.swipe(width // 2, int(height * 0.8), width // 2, int(height * 0.2), 300)
    tap_on(device, resource_id="com.google.android.apps.nexuslauncher:id/search_container_all_apps")
    # Gboard: the 44 dp suggestion strip, then the QWERTY rows (row 0 q..p, row 1 a..l;
    # each key a tenth of the width) in what is left of the 6 dp-padded keyboard
    dp = 440 / 160
    key_w = width / 10
    nav = round(48 * dp)
    app_h = height - round(24 * dp) - nav
    kb_top = height - nav - int(app_h * 0.40)
    keys_top = kb_top + round(6 * dp) + round(44 * dp)
    row_h = (int(app_h * 0.40) - 2 * round(6 * dp) - round(44 * dp)) / 4
    device.tap(int(key_w * 7.5), int(keys_top + row_h * 0.5))  # "i"
    device.tap(int(key_w * 1.5), int(keys_top + row_h * 1.5))  # "s" (row 1 is inset by half a key)
    field = nodes(device.dump_hierarchy(),
                  resource_id="com.google.android.apps.nexuslauncher:id/search_container_all_apps")[0]
    assert field.get("text") == "is"


def test_scrolling_containers_hide_offscreen_rows(device):
    open_settings(device)
    assert not nodes(device.dump_hierarchy(), text="About phone")
    width, height = device.screen_size()
    for _ in range(2):  # the list (with its suggestion card) is longer than two screens
        device.swipe(width // 2, int(height * 0.8), width // 2, int(height * 0.3), 400)
    xml = device.dump_hierarchy()
    assert nodes(xml, text="About phone")
    for node in nodes(xml):
        left, top, right, bottom = bounds(node)
        assert 0 <= left <= right <= width and 0 <= top <= bottom <= height


def test_recents_resume_and_swipe_away(device):
    open_settings(device)
    device.press("HOME")
    tap_on(device, text="Clock")
    device.press("APP_SWITCH")
    xml = device.dump_hierarchy()
    assert nodes(xml, resource_id="com.google.android.apps.nexuslauncher:id/overview_panel")
    assert nodes(xml, content_desc="Clock")
    settings_card = nodes(xml, content_desc="Settings")
    if not settings_card:  # older task scrolled off: swipe the strip to reveal it
        width, height = device.screen_size()
        device.swipe(int(width * 0.2), height // 2, int(width * 0.9), height // 2, 300)
    tap_on(device, content_desc="Settings")
    assert nodes(device.dump_hierarchy(), resource_id="com.android.settings:id/search_action_bar")
    device.press("APP_SWITCH")
    x, y = center_of(device, content_desc="Settings")
    device.swipe(x, y, x, 200, 200)
    assert not nodes(device.dump_hierarchy(), content_desc="Settings")
    assert re.search(r"Killing \d+:com.android.settings/1000 \(adj 900\): remove task",
                     logcat(device, "ActivityManager:I"))


def test_bad_input_gets_precise_errors_and_changes_nothing(device):
    before = device.dump_hierarchy()
    width, height = device.screen_size()
    with pytest.raises(InvalidInput, match=r"outside the 1080x2160 screen"):
        device.tap(width, 10)
    with pytest.raises(InvalidInput, match="unknown key 'JUMP'"):
        device.press("JUMP")
    with pytest.raises(InvalidInput, match="cannot type 'é'"):
        device.input_text("café")
    with pytest.raises(InvalidInput, match="no snapshot named"):
        device.snapshot_load("never-saved")
    assert device.dump_hierarchy() == before
    # a zero-length swipe is a tap, as on a phone
    x, y = center_of(device, text="Settings")
    device.swipe(x, y, x, y, 50)
    assert nodes(device.dump_hierarchy(), resource_id="com.android.settings:id/search_action_bar")


def test_corrupt_launcher_db_falls_back_to_the_default_workspace(device):
    device.push(b"this is not a database", "/data/data/com.google.android.apps.nexuslauncher/databases/launcher.db")
    device.shell("setprop ctl.restart zygote")
    assert nodes(device.dump_hierarchy(), text="Settings")
    assert re.search(r"E LauncherProvider: Failed to load launcher.db.*not a SQLite",
                     logcat(device, "LauncherProvider:E"), re.I)


def test_snapshots_in_memory_and_on_disk(tmp_path):
    device = connect("sim", snapshot_dir=tmp_path)
    open_settings(device)
    device.snapshot_save("settings_open")
    saved_xml, saved_png = device.dump_hierarchy(), device.screenshot()
    device.press("HOME")
    device.shell("settings put global wifi_on 0")
    device.snapshot_load("settings_open")
    assert device.dump_hierarchy() == saved_xml
    assert (device.screenshot() == saved_png).all()
    assert device.shell("settings get global wifi_on")[0] == "1\n"
    assert (tmp_path / "settings_open.snapshot").is_file()
    other = connect("sim", snapshot_dir=tmp_path)
    other.snapshot_load("settings_open")
    assert other.dump_hierarchy() == saved_xml


def test_same_actions_give_the_same_bytes():
    def run():
        device = connect("sim")
        open_settings(device)
        open_page(device, "Sound")
        width, height = device.screen_size()
        device.swipe(width // 2, int(height * 0.7), width // 2, int(height * 0.4), 300)
        return device.dump_hierarchy(), device.screenshot().tobytes(), device.shell("logcat -d")[0]

    assert run() == run()


def test_dump_is_uiautomator_format(device):
    xml = device.dump_hierarchy()
    assert xml.startswith("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"
                          '<hierarchy rotation="0"><node index="0" text="" resource-id="" '
                          'class="android.widget.FrameLayout"')
    assert "\n" not in xml and xml.endswith("</hierarchy>")
    order = ["index", "text", "resource-id", "class", "package", "content-desc", "checkable",
             "checked", "clickable", "enabled", "focusable", "focused", "scrollable",
             "long-clickable", "password", "selected", "bounds"]
    for match in re.finditer(r"<node ([^>]*?)/?>", xml):
        names = re.findall(r'([\w-]+)="', match.group(1))
        assert [n for n in names if n != "NAF"] == order
    assert "bounds=\"[0,0][1080,2160]\"" in xml


def test_system_apps_windows_and_density(device):
    device.shell("wm density 330")
    open_settings(device)
    content = nodes(device.dump_hierarchy(), resource_id="android:id/content")[0]
    assert bounds(content) == (0, 50, 1080, 2061)  # 24 dp and 48 dp bars at 330 dpi


def test_volume_slider_drag_logs_and_sets_stream(device):
    open_settings(device)
    open_page(device, "Sound")
    bars = nodes(device.dump_hierarchy(), resource_id="android:id/seekbar")
    alarm = [b for b in bars if b.get("content-desc") == "Alarm volume"][0]
    left, top, right, bottom = bounds(alarm)
    y = (top + bottom) // 2
    device.swipe(left + 60, y, right - 5, y, 400)
    assert "volume is 7 in range [1..7]" in device.shell("media volume --stream 4 --get")[0]
    assert "writeEvent level_changed STREAM_ALARM 7" in logcat(device, "vol.Events:I")


def test_brightness_dialog_drag(device):
    open_settings(device)
    open_page(device, "Display")
    open_page(device, "Brightness level")
    xml = device.dump_hierarchy()
    slider = nodes(xml, resource_id="com.android.systemui:id/slider")[0]
    assert nodes(xml)[0].get("package") == "com.android.systemui"
    left, top, right, bottom = bounds(slider)
    y = (top + bottom) // 2
    device.swipe(right - 40, y, left + 40, y, 400)
    log = logcat(device, "DisplayPowerController:V")
    assert "reason changing to: 'temporary', previous reason: 'manual'." in log
    assert re.search(r"Brightness \[\d+\] reason changing to: 'manual', previous reason: 'temporary'\.", log)
    assert int(device.shell("settings get system screen_brightness")[0]) < 102


def test_dark_theme_first_time_dialog(device):
    open_settings(device)
    open_page(device, "Display")
    tap_on(device, text="Dark theme")
    xml = device.dump_hierarchy()
    assert nodes(xml, resource_id="android:id/button1"), "the info dialog is the active window"
    assert device.shell("settings get secure ui_night_mode")[0] == "1\n"
    tap_on(device, resource_id="android:id/button1")
    assert device.shell("settings get secure ui_night_mode")[0] == "2\n"
    log = logcat(device, "SettingsProvider:V")
    assert "Notifying for 0: content://settings/secure/dark_mode_dialog_seen" in log
    light_bg = device.screenshot()[400, 10]
    assert light_bg.max() < 60, "dark theme is drawn"


def test_settings_pages_log_what_tasks_look_for(device):
    open_settings(device)
    open_page(device, "Connected devices")
    open_page(device, "Connection preferences")
    open_page(device, "Bluetooth")
    assert ("Could not find Context-only controller for pref: "
            "com.android.settings.bluetooth.BluetoothDeviceRenamePreferenceController"
            in logcat(device, "PrefCtrlListHelper:D"))
    for _ in range(3):  # the task keeps its pages: back out to the homepage
        device.press("BACK")
    open_page(device, "Apps & notifications")
    tap_on(device, resource_id="com.android.settings:id/see_all")
    assert ("Switching to fragment com.android.settings.applications.manageapplications."
            "ManageApplications" in logcat(device, "SettingsActivity:D"))
    for _ in range(2):
        device.press("BACK")
    width, height = device.screen_size()
    device.swipe(width // 2, int(height * 0.8), width // 2, int(height * 0.2), 300)
    open_page(device, "System")
    open_page(device, "Languages & input")
    open_page(device, "Languages")
    tap_on(device, resource_id="com.android.settings:id/add_language")
    assert re.search(r"START u0 \{cmp=com.android.settings/.localepicker."
                     r"LocalePickerWithRegionActivity\} from uid 1000",
                     logcat(device, "ActivityTaskManager:I"))


def test_settings_search_finds_pages(device):
    open_settings(device)
    tap_on(device, resource_id="com.android.settings:id/search_action_bar")
    device.input_text("blue")
    xml = device.dump_hierarchy()
    titles = [n.get("text") for n in nodes(xml, resource_id="android:id/title")]
    assert "Bluetooth" in titles
    tap_on(device, text="Bluetooth")
    assert "BluetoothDashboardFragment" in logcat(device, "SettingsActivity:D")


def test_gboard_suggests_completions_and_a_tap_takes_one(device):
    """Gboard's strip (above the keys; the keyboard's window is not in the app's dump):
    while a word is typed, its middle slot holds the best completion, and a tap on it
    replaces the word, with a space."""
    field_id = "com.google.android.apps.nexuslauncher:id/search_container_all_apps"
    width, height = device.screen_size()
    device.swipe(width // 2, int(height * 0.8), width // 2, int(height * 0.2), 300)
    tap_on(device, resource_id=field_id)
    dp = 440 / 160
    nav = round(48 * dp)
    app_h = height - round(24 * dp) - nav
    strip_y = height - nav - int(app_h * 0.40) + round(6 * dp) + round(22 * dp)
    device.shell("input text wik")
    device.tap(width // 2, strip_y)
    assert nodes(device.dump_hierarchy(), resource_id=field_id)[0].get("text") == "wikipedia "
    device.shell("input text ca")
    device.tap(width * 5 // 6, strip_y)  # the right slot: the second completion
    assert nodes(device.dump_hierarchy(), resource_id=field_id)[0].get("text") == \
        "wikipedia call "

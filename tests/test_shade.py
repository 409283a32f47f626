"""The notification shade and Quick Settings: pulled down as on Android 10, the tiles do
what they name with the log lines detectors read, and the Settings tasks accept them."""

from __future__ import annotations

import pytest
from conftest import bounds, center_of, logcat, nodes, tap_on

from bmoca import configs
from bmoca.device import connect

SYSTEMUI = "com.android.systemui"
GEAR = f"{SYSTEMUI}:id/settings_button"


def pull_down(device, times: int = 1) -> None:
    width, height = device.screen_size()
    for _ in range(times):
        device.swipe(width // 2, 2, width // 2, height // 2)


def tile(device, label: str):
    found = nodes(device.dump_hierarchy(), content_desc=label, package=SYSTEMUI)
    assert found, f"no tile {label!r}"
    return found[0]


def top_activity(device) -> str:
    out, _ = device.shell("dumpsys activity activities")
    return next(line for line in out.splitlines() if "mResumedActivity" in line)


@pytest.mark.parametrize("config", ["test_env_100", "test_env_109", "test_env_108"])
def test_a_pull_from_the_status_bar_shows_the_quick_row_and_a_second_the_full_panel(config):
    device = connect("sim", config=configs.get(config))
    pull_down(device)
    xml = device.dump_hierarchy()
    assert nodes(xml, package=SYSTEMUI, resource_id=f"{SYSTEMUI}:id/quick_qs_panel")
    assert nodes(xml, resource_id=GEAR)
    assert not nodes(xml, resource_id=f"{SYSTEMUI}:id/brightness_slider")
    quick = [n for n in nodes(xml, **{"class": "android.widget.Switch"})]
    assert len(quick) == 6 and all(n.get("text") == "" for n in quick)
    pull_down(device)
    xml = device.dump_hierarchy()
    assert nodes(xml, resource_id=f"{SYSTEMUI}:id/brightness_slider")
    assert len(nodes(xml, **{"class": "android.widget.Switch"})) == 9
    width, height = device.screen_size()
    for node in nodes(xml, package=SYSTEMUI):
        left, top, right, bottom = bounds(node)
        assert 0 <= left <= right <= width and 0 <= top <= bottom <= height


def test_the_home_screen_pulls_the_shade_down_and_back_home_and_the_scrim_close_it(device):
    width, height = device.screen_size()
    device.swipe(width // 2, height // 3, width // 2, height * 2 // 3)   # on the workspace
    assert nodes(device.dump_hierarchy(), resource_id=GEAR)
    before = device.screenshot()
    device.press("BACK")
    assert not nodes(device.dump_hierarchy(), resource_id=GEAR)
    assert (device.screenshot() != before).any()
    pull_down(device)
    device.tap(width // 2, height - height // 4)                         # on the scrim
    assert not nodes(device.dump_hierarchy(), resource_id=GEAR)
    pull_down(device, 2)
    device.swipe(width // 2, height // 3, width // 2, 5)                 # pushed back up
    assert not nodes(device.dump_hierarchy(), resource_id=GEAR)
    pull_down(device)
    device.press("HOME")
    assert "NexusLauncherActivity" in top_activity(device)
    assert not nodes(device.dump_hierarchy(), resource_id=GEAR)


def test_the_gear_starts_settings_and_closes_the_shade(device):
    pull_down(device)
    tap_on(device, resource_id=GEAR)
    assert "com.android.settings/.Settings" in top_activity(device)
    assert "Start proc" in logcat(device, "ActivityManager:I")
    assert nodes(device.dump_hierarchy(), package="com.android.settings")


def test_the_wifi_tile_switches_wifi_as_system_ui_and_the_airplane_tile_as_settings_does(device):
    pull_down(device)
    tap_on(device, content_desc="Wi‑Fi", package=SYSTEMUI)
    assert device.shell("settings get global wifi_on")[0].strip() == "0"
    assert "setWifiEnabled package=com.android.systemui" in logcat(device, "WifiService:I")
    assert tile(device, "Wi‑Fi").get("checked") == "false"
    pull_down(device)                                      # the airplane tile is on page two
    tap_on(device, content_desc="Airplane mode", package=SYSTEMUI)
    assert device.shell("settings get global airplane_mode_on")[0].strip() == "1"
    assert "Turning radio off - airplane" in logcat(device, "PhoneGlobals:I")
    assert nodes(device.dump_hierarchy(), resource_id=GEAR), "a tile keeps the shade open"


def test_setting_tiles_write_their_setting_and_the_flashlight_lives_in_system_ui(device):
    pull_down(device, 2)
    for label, command, on in (("Do Not Disturb", "settings get global zen_mode", "1"),
                               ("Auto-rotate", "settings get system accelerometer_rotation", "1"),
                               ("Battery Saver", "settings get global low_power", "1"),
                               ("Mobile data", "settings get global mobile_data", "0"),
                               ("Location", "settings get secure location_mode", "0")):
        tap_on(device, content_desc=label, package=SYSTEMUI)
        assert device.shell(command)[0].strip() == on, label
    tap_on(device, content_desc="Flashlight", package=SYSTEMUI)
    assert tile(device, "Flashlight").get("checked") == "true"


def test_the_brightness_slider_writes_the_manual_line_on_lift(device):
    pull_down(device, 2)
    left, y = center_of(device, resource_id=f"{SYSTEMUI}:id/slider")
    width, _ = device.screen_size()
    device.swipe(left, y, width // 8, y)
    assert "reason changing to: 'manual'" in logcat(device, "DisplayPowerController:V")
    assert int(device.shell("settings get system screen_brightness")[0]) < 102


def test_a_long_press_opens_the_tiles_settings_page(device):
    pull_down(device)
    x, y = center_of(device, content_desc="Bluetooth", package=SYSTEMUI)
    device.swipe(x, y, x, y, 800)
    assert "BluetoothSettingsActivity" in top_activity(device)
    assert "BluetoothDashboardFragment" in logcat(device, "SettingsActivity:D")
    out, code = device.shell("am start -a android.settings.WIFI_SETTINGS")
    assert code == 0, out
    assert "WifiSettingsActivity" in top_activity(device)


def test_typing_and_tapping_under_the_shade_reach_nothing_below_it(device):
    device.shell("am start -n com.android.settings/.Settings")
    before = device.dump_hierarchy()
    pull_down(device)
    device.input_text("hello")
    device.press("BACK")
    assert device.dump_hierarchy() == before


def test_the_shade_state_is_part_of_a_snapshot(device):
    blob = device.snapshot_bytes()
    pull_down(device)
    assert nodes(device.dump_hierarchy(), resource_id=GEAR)
    device.restore_bytes(blob)
    assert not nodes(device.dump_hierarchy(), resource_id=GEAR)

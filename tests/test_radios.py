"""Airplane mode and the radios: what Android 10 persists, shows and logs, and the Wi-Fi and
airplane tasks' verdicts for the near misses that airplane mode makes possible."""

from __future__ import annotations

import pytest
from conftest import logcat, row_of, run_attempts
from nearmiss.settings import (
    WIFI_SWITCH,
    airplane_switch,
    network_page,
    wifi_master_switch,
    wifi_page_switch,
)

from bmoca import configs
from bmoca.device import connect

CONFIGS = ["test_env_100", "test_env_109"]  # en-US and ar-EG (right to left)


def get(device, key: str) -> str:
    return device.shell(f"settings get global {key}")[0].strip()


def test_airplane_mode_keeps_the_wifi_choice_as_android_10_persists_it():
    device = connect("sim")
    network_page(device)
    assert get(device, "wifi_on") == "1"
    airplane_switch(device)
    assert (get(device, "airplane_mode_on"), get(device, "wifi_on")) == ("1", "3")
    assert get(device, "cell_on") == "2"
    xml = device.dump_hierarchy()
    wifi_row = row_of(xml, "Wi‑Fi")
    switch = [n for n in wifi_row.iter("node") if n.get("resource-id") == WIFI_SWITCH][0]
    assert switch.get("checked") == "false"
    summary = [n for n in wifi_row.iter("node") if n.get("resource-id") == "android:id/summary"]
    assert summary[0].get("text") == "Off"                   # WifiSummaryUpdater: just "Off"
    # the user may turn Wi-Fi back on in airplane mode: WIFI_ENABLED_AIRPLANE_OVERRIDE
    wifi_master_switch(device)
    assert get(device, "wifi_on") == "2"
    airplane_switch(device)                                  # leaving: back to plain "on"
    assert (get(device, "wifi_on"), get(device, "cell_on")) == ("1", "1")


def test_leaving_airplane_mode_restores_wifi_only_if_it_was_on():
    device = connect("sim")
    network_page(device)
    wifi_master_switch(device)                               # off by the user
    airplane_switch(device)
    assert get(device, "wifi_on") == "0"
    airplane_switch(device)
    assert get(device, "wifi_on") == "0"
    wifi_master_switch(device)
    airplane_switch(device)
    assert get(device, "wifi_on") == "3"                     # the switch shows off ...
    wifi_master_switch(device)                               # ... so a tap turns it on: 2
    wifi_master_switch(device)                               # and off by the user: 0
    assert get(device, "wifi_on") == "0"
    airplane_switch(device)
    assert get(device, "wifi_on") == "0"


def test_bluetooth_is_held_off_by_airplane_mode_and_comes_back():
    device = connect("sim")
    device.shell("settings put global bluetooth_on 1")
    # BluetoothManagerService observes the setting itself: no broadcast needed
    device.shell("settings put global airplane_mode_on 1")
    assert get(device, "bluetooth_on") == "2" and get(device, "wifi_on") == "1"
    device.shell("settings put global airplane_mode_on 0")
    assert get(device, "bluetooth_on") == "1"
    device.shell("settings put global bluetooth_on 0")
    device.shell("settings put global airplane_mode_on 1")
    assert get(device, "bluetooth_on") == "0"


def test_the_airplane_broadcast_reaches_wifi_and_the_phone_once():
    device = connect("sim")
    device.shell("settings put global airplane_mode_on 1")
    out, code = device.shell("su 0 am broadcast -a android.intent.action.AIRPLANE_MODE "
                             "--ez state true")
    assert code == 0, out
    assert get(device, "wifi_on") == "3" and get(device, "cell_on") == "2"
    device.shell("su 0 am broadcast -a android.intent.action.AIRPLANE_MODE --ez state true")
    assert logcat(device, "PhoneGlobals:I").count("Turning radio off - airplane") == 1


@pytest.mark.parametrize("config", CONFIGS)
def test_turning_airplane_mode_on_does_not_turn_off_wifi(config):
    def airplane_instead(device):
        network_page(device)
        airplane_switch(device)

    run_attempts("settings/turn_off_wifi", [airplane_instead], expect=False, config=config)


@pytest.mark.parametrize("config", CONFIGS)
def test_turning_off_wifi_passes_by_any_switch_and_in_airplane_mode(config):
    def master_switch(device):
        network_page(device)
        wifi_master_switch(device)

    def page_switch(device):
        network_page(device)
        wifi_page_switch(device)

    def airplane_then_wifi_off(device):
        network_page(device)
        airplane_switch(device)
        wifi_master_switch(device)                           # on again (2) ...
        wifi_master_switch(device)                           # ... and off by the user (0)

    def wifi_off_then_airplane(device):
        network_page(device)
        wifi_master_switch(device)
        airplane_switch(device)

    run_attempts("settings/turn_off_wifi",
                 [master_switch, page_switch, airplane_then_wifi_off, wifi_off_then_airplane],
                 expect=True, config=config)


def test_turning_off_airplane_mode_brings_wifi_back():
    device = connect("sim", config=configs.get("test_env_109"))
    from bmoca import tasks

    task = tasks.get("settings/turn_off_airplane_mode")
    start = task.initialize(device)
    assert get(device, "wifi_on") == "3"
    network_page(device)
    airplane_switch(device)
    assert task.is_successful(device, start).ok
    assert get(device, "wifi_on") == "1"

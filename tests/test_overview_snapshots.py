"""Overview's cards show each recent task's screen as it was left (Android 10's task
snapshots), not blank cards; they follow what the task shows and stay deterministic."""

from __future__ import annotations

import numpy as np
from conftest import bounds, nodes

from bmoca import configs
from bmoca.device import connect

L = "com.google.android.apps.nexuslauncher:id/"


def _phone():
    return connect("sim", config=configs.get("test_env_100"))


def _card_pixels(device) -> np.ndarray:
    xml = device.dump_hierarchy()
    snapshot = nodes(xml, resource_id=L + "snapshot")[-1]  # the newest task's card
    left, top, right, bottom = bounds(snapshot)
    return device.screenshot()[top:bottom, left:right, :3]


def _open_then_overview(device, component: str) -> np.ndarray:
    device.shell(f"am start -n {component}")
    device.shell("input keyevent KEYCODE_APP_SWITCH")
    return _card_pixels(device)


def test_a_card_shows_its_app_not_a_blank_card():
    card = _open_then_overview(_phone(), "com.google.android.deskclock/com.android.deskclock.DeskClock")
    # the Clock's dark page with its light digits: many distinct tones, not one fill
    assert len(np.unique(card.reshape(-1, 3), axis=0)) > 50
    assert card.mean() < 90  # the Clock is dark


def test_a_card_follows_the_page_the_task_was_left_on():
    device = _phone()
    home = _open_then_overview(device, "com.android.settings/.Settings")
    device.shell("input keyevent KEYCODE_APP_SWITCH")  # back into Settings
    device.shell("am start -n com.android.settings/.SubSettings --es page battery")
    device.shell("input keyevent KEYCODE_APP_SWITCH")
    battery = _card_pixels(device)
    assert home.shape == battery.shape and np.abs(home.astype(int) - battery).mean() > 3


def test_snapshots_are_the_same_on_every_run():
    first = _open_then_overview(_phone(), "com.android.settings/.Settings")
    second = _open_then_overview(_phone(), "com.android.settings/.Settings")
    assert np.array_equal(first, second)

"""Settings' homepage, Storage and Battery pages against the reference Pixel screenshots
(shared/reference/real_android10_screens.png): what a vision agent sees of them.

Driven through the device contract: `am start`, the dump and the screenshot."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import bounds, launch, nodes

from bmoca import configs

S = "com.android.settings"
HOME = f"{S}/.Settings"
PHONE = "test_env_100"


def _density(config: str) -> float:
    return configs.get(config).density / 160


def _pixel(device, node) -> tuple[int, int, int]:
    left, top, right, bottom = bounds(node)
    return tuple(int(v) for v in device.screenshot()[(top + bottom) // 2, left + 3][:3])


def test_the_search_bar_has_no_account_avatar_as_on_stock_android_10():
    xml = launch(HOME, PHONE).dump_hierarchy()
    bar = nodes(xml, resource_id=f"{S}:id/search_action_bar")[0]
    assert [n.get("class") for n in bar.iter() if n.get("class") == "android.widget.ImageView"] == []


@pytest.mark.parametrize("title, reference", [
    ("Network & internet", (76, 154, 249)), ("Connected devices", (135, 192, 54)),
    ("Display", (252, 176, 64)), ("Sound", (81, 185, 184)), ("Storage", (175, 100, 203)),
])
def test_homepage_icon_circles_have_the_reference_colours(title, reference):
    device = launch(HOME, PHONE)
    xml = device.dump_hierarchy()
    row = nodes(xml, text=title)[0]
    while row.get("clickable") != "true":
        row = row.getparent()
    circle = row.find(".//*[@resource-id='android:id/icon']")
    assert max(abs(a - b) for a, b in zip(_pixel(device, circle), reference)) <= 12


def test_storage_shows_the_used_size_the_donut_and_a_bar_per_category():
    device = launch(f"{S}/.SubSettings --es page storage", PHONE)
    xml = device.dump_hierarchy()
    assert nodes(xml, text="2.48 GB") and nodes(xml, text="Used of 8.00 GB")
    donut = nodes(xml, resource_id=f"{S}:id/donut")[0]
    assert donut.get("text") == "31%"
    bars = nodes(xml, resource_id="android:id/progress")
    assert len(bars) == 5  # Photos, Music, Other apps, Files, System
    # the System bar (1.46 of 8 GB) is filled in the accent colour from its start
    image = device.screenshot()
    left, top, right, bottom = bounds(bars[-1])
    y = (top + bottom) // 2
    filled = image[y, left:right, :3]
    accent = np.array((26, 115, 232))
    share = float((np.abs(filled.astype(int) - accent).max(axis=1) <= 30).mean())
    assert 0.15 <= share <= 0.22


@pytest.mark.parametrize("config", [PHONE, "test_env_109"])
def test_battery_meter_is_android_10s_66_by_100_dp(config):
    device = launch(f"{S}/.SubSettings --es page battery", config)
    xml = device.dump_hierarchy()
    left, top, right, bottom = bounds(nodes(xml, resource_id=f"{S}:id/battery_header_icon")[0])
    dp = _density(config)
    assert abs((right - left) / dp - 66) <= 1 and abs((bottom - top) / dp - 100) <= 1
    level = nodes(xml, resource_id=f"{S}:id/battery_percent")[0]
    assert level.get("text") == ("100 %" if config == PHONE else "١٠٠ ٪")  # test_env_109: ar-EG


def test_battery_percent_sign_is_drawn_smaller_than_the_level():
    device = launch(f"{S}/.SubSettings --es page battery", PHONE)
    xml = device.dump_hierarchy()
    left, top, right, bottom = bounds(nodes(xml, resource_id=f"{S}:id/battery_percent")[0])
    ink = (device.screenshot()[top:bottom, left:right, :3].astype(int).sum(axis=2) < 300)
    columns = np.flatnonzero(ink.any(axis=0))
    gaps = np.flatnonzero(np.diff(columns) > 6)
    sign = ink[:, columns[gaps[-1] + 1]:]  # the glyphs after the last gap: the "%"
    digits = ink[:, :columns[gaps[-1]] + 1]
    sign_rows = np.flatnonzero(sign.any(axis=1))
    digit_rows = np.flatnonzero(digits.any(axis=1))
    assert (sign_rows[-1] - sign_rows[0]) < 0.7 * (digit_rows[-1] - digit_rows[0])
    assert abs(int(sign_rows[-1]) - int(digit_rows[-1])) <= 3  # one baseline


def test_battery_history_rows_show_their_values_at_the_end():
    device = launch(f"{S}/.SubSettings --es page battery", PHONE)
    xml = device.dump_hierarchy()
    title = nodes(xml, text="Last full charge")[0]
    value = nodes(xml, text="24 minutes ago")[0]
    assert bounds(value)[0] > bounds(title)[2]
    assert abs(sum(bounds(value)[1::2]) - sum(bounds(title)[1::2])) <= 4  # same line
    assert nodes(xml, text="Battery Manager")

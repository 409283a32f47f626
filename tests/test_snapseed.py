"""Snapseed: the welcome trampoline, the picker over the storage's photos, the editor's tabs
and looks (the photo changes), the Noir tool, Settings written to Preferences.xml in
Android's format, a corrupt prefs file and a file that is not an image, and the eleven
tasks with their near misses and right paths."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import bounds, logcat, nodes, run_attempts, tap_on
from lxml import etree

import bmoca.configs
import bmoca.device
from bmoca import tasks
from bmoca.device import DeviceConfig, connect

S = "com.niksoftware.snapseed:id/"
PREFS = "/data/data/com.niksoftware.snapseed/shared_prefs/Preferences.xml"
ALL_SNAPSEED = [t.id for t in tasks.load_file("bmoca/tasks/data/snapseed.yaml")]


def open_snapseed(device) -> None:
    out, code = device.shell("monkey -p com.niksoftware.snapseed -c "
                             "android.intent.category.LAUNCHER 1")
    assert code == 0, out


def open_photo(device) -> None:
    open_snapseed(device)
    tap_on(device, resource_id=S + "logo_view")
    tap_on(device, resource_id=S + "image_thumbnail")


def tap_index(device, view_id: str, index: int) -> None:
    tap_on(device, index, resource_id=view_id)


def settings(device) -> None:
    tap_on(device, resource_id=S + "overflow_button")
    tap_index(device, S + "menu_item_title", 0)


def choose(device, pref: str, row: int) -> None:
    tap_on(device, resource_id=S + pref)
    tap_index(device, "android:id/text1", row)


def noir(device, style: int = 2) -> None:
    tap_on(device, resource_id=S + "tools_button")
    tap_on(device, resource_id=S + "tool_item", content_desc="Noir")
    tap_index(device, S + "item_title", style)


def selected_texts(device) -> list[str]:
    return [n.get("text") for n in nodes(device.dump_hierarchy(), selected="true")]


def picture(device) -> np.ndarray:
    left, top, right, bottom = bounds(nodes(device.dump_hierarchy(),
                                            resource_id=S + "image_view")[0])
    return device.screenshot()[top:bottom, left:right].astype(int)


# -- the app --------------------------------------------------------------------------------

def test_the_welcome_screen_hands_over_and_the_start_screen_opens_the_picker(device):
    open_snapseed(device)
    starts = [line for line in logcat(device, "ActivityTaskManager:I").splitlines()
              if "START u0" in line]
    assert "snapseed/com.google.android.apps.snapseed.WelcomeScreenActivity}" in starts[-2]
    assert "snapseed/com.google.android.apps.snapseed.MainActivity} from uid 10141" in \
        starts[-1]
    assert nodes(device.dump_hierarchy(), resource_id=S + "logo_view")
    tap_on(device, resource_id=S + "logo_view")
    thumbs = nodes(device.dump_hierarchy(), resource_id=S + "image_thumbnail")
    assert [t.get("content-desc") for t in thumbs] == ["99_Colosseum.jpg"]


def test_looks_and_noir_change_the_photo_and_the_tabs_are_selected(device):
    open_photo(device)
    assert selected_texts(device) == ["LOOKS"]
    plain = picture(device)
    tap_index(device, S + "item_title", 0)
    assert "Portrait" in selected_texts(device)
    warm = picture(device)
    assert np.abs(warm - plain).mean() > 2
    tap_index(device, S + "item_title", 2)  # Pop replaces Portrait
    assert selected_texts(device) == ["Pop", "LOOKS"]
    noir(device)
    assert selected_texts(device) == ["S03"]
    grey = picture(device)
    assert np.abs(grey[..., 0] - grey[..., 2]).mean() < 2  # black and white
    tap_on(device, resource_id=S + "apply_button")
    assert nodes(device.dump_hierarchy(), resource_id=S + "tools_button", selected="true")


def test_settings_write_preferences_xml_in_androids_format(device):
    open_snapseed(device)
    with pytest.raises(bmoca.device.DeviceError):
        device.pull(PREFS)  # nothing written before the first change
    settings(device)
    xml = device.dump_hierarchy()
    assert [n.get("text") for n in nodes(xml, resource_id="android:id/summary")] == [
        "Do not resize", "JPG 95%"]
    tap_on(device, resource_id=S + "pref_dark_theme")
    choose(device, "pref_image_sizing", 4)
    choose(device, "pref_format_quality", 3)
    raw = device.pull(PREFS)
    assert raw.startswith(b"<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map>\n")
    root = etree.fromstring(raw)
    entries = {n.get("name"): (n.tag, n.get("value"), n.text) for n in root}
    assert entries == {
        "pref_appearance_use_dark_theme": ("boolean", "true", None),
        "pref_export_setting_long_edge": ("string", None, "2000"),
        "pref_export_setting_compression": ("string", None, "100"),
    }
    assert [n.get("text") for n in nodes(device.dump_hierarchy(),
                                         resource_id="android:id/summary")] == [
        "2000 px", "JPG 100%"]
    background = device.screenshot()[1500, 540]
    assert background.mean() < 80  # Snapseed's own dark theme


def test_a_corrupt_prefs_file_reads_as_defaults_and_a_broken_photo_is_refused(device):
    device.push(b"<map><boolean name=", PREFS)
    device.push(b"not a jpeg at all", "/sdcard/Pictures/broken.jpg")
    device.shell("setprop ctl.restart zygote")
    open_snapseed(device)
    settings(device)
    assert nodes(device.dump_hierarchy(), resource_id="android:id/switch_widget",
                 checked="false")
    device.press("BACK")
    tap_on(device, resource_id=S + "logo_view")
    tap_on(device, resource_id=S + "image_thumbnail", content_desc="broken.jpg")
    xml = device.dump_hierarchy()
    assert nodes(xml, resource_id=S + "error_message", text="Could not open the image")
    assert not nodes(xml, resource_id=S + "looks_button")
    assert "Failed to decode image: /storage/emulated/0/Pictures/broken.jpg" in logcat(device)


@pytest.mark.parametrize(("locale", "dark", "portrait"), [
    ("ja-JP", False, "ポートレート"), ("ar-EG", True, "صورة شخصية"), ("de-DE", False, "Porträt")])
def test_snapseed_in_other_languages(locale, dark, portrait):
    device = connect("sim", DeviceConfig(locale=locale, dark_theme=dark))
    open_photo(device)
    tap_index(device, S + "item_title", 0)
    assert portrait in selected_texts(device)
    xml = device.dump_hierarchy()
    looks = bounds(nodes(xml, resource_id=S + "looks_button")[0])
    export = bounds(nodes(xml, resource_id=S + "export_button")[0])
    assert (looks[0] > export[0]) == locale.startswith("ar")


# -- the tasks ------------------------------------------------------------------------------

def test_the_snapseed_suite():
    assert len(ALL_SNAPSEED) == 11
    assert sum(bool(t.reference) for t in tasks.list(app="Snapseed")) == 4


def near_misses(task_id: str):
    name = task_id.split("/", 1)[1]
    if name == "open Snapseed":
        yield lambda d: d.shell("monkey -p com.google.android.apps.photos 1")
    elif name == "open_image_in_Snapseed":
        yield open_snapseed
        yield lambda d: (open_snapseed(d), tap_on(d, resource_id=S + "logo_view"))
    elif name == "open_image_and_go_to_tools_tab_in_Snapseed":
        yield open_photo
        yield lambda d: (open_photo(d), tap_on(d, resource_id=S + "export_button"))
    elif name.startswith("open_image_and_apply_portrait"):
        yield open_photo
        yield lambda d: (open_photo(d), tap_index(d, S + "item_title", 1))
        yield lambda d: (open_photo(d), tap_on(d, resource_id=S + "tools_button"),
                         tap_on(d, resource_id=S + "tool_item", content_desc="Portrait"))
    elif name.startswith("open_image_and_apply_noir"):
        yield lambda d: (open_photo(d), noir(d, 3))
        yield lambda d: (open_photo(d), noir(d, 0))
    elif name == "set_dark_theme_in_Snapseed":
        yield lambda d: (open_snapseed(d), settings(d))
        yield lambda d: d.shell("cmd uimode night yes")  # the system's, not Snapseed's
    elif name.startswith("set_format_quality"):
        yield lambda d: (open_snapseed(d), settings(d), choose(d, "pref_format_quality", 2))
        yield lambda d: (open_snapseed(d), settings(d), choose(d, "pref_format_quality", 4))
    elif name.startswith("set_image_sizing"):
        yield lambda d: (open_snapseed(d), settings(d), choose(d, "pref_image_sizing", 3))
    else:  # apply noire S03 after a setting
        yield lambda d: (open_photo(d), noir(d))  # the setting left alone
        if "dark_theme" in name:
            yield lambda d: (open_snapseed(d), settings(d),
                             tap_on(d, resource_id=S + "pref_dark_theme"), d.press("BACK"),
                             tap_on(d, resource_id=S + "logo_view"),
                             tap_on(d, resource_id=S + "image_thumbnail"), noir(d, 1))


def right_paths(task_id: str):
    name = task_id.split("/", 1)[1]
    if name == "open Snapseed":
        yield open_snapseed
    elif name == "open_image_in_Snapseed":
        yield open_photo
        yield lambda d: (open_snapseed(d), tap_on(d, resource_id=S + "open_button"),
                         tap_on(d, resource_id=S + "image_thumbnail"))
    elif name == "open_image_and_go_to_tools_tab_in_Snapseed":
        yield lambda d: (open_photo(d), tap_on(d, resource_id=S + "export_button"),
                         tap_on(d, resource_id=S + "tools_button"))
    elif name.startswith("open_image_and_apply_portrait"):
        yield lambda d: (open_photo(d), tap_index(d, S + "item_title", 3),
                         tap_index(d, S + "item_title", 0))
    elif name.startswith("open_image_and_apply_noir"):
        yield lambda d: (open_photo(d), noir(d))
        yield lambda d: (open_photo(d), noir(d, 3), tap_index(d, S + "item_title", 2))
    elif name == "set_dark_theme_in_Snapseed":
        yield lambda d: (open_snapseed(d), settings(d),
                         tap_on(d, resource_id="android:id/switch_widget"))
    elif name.startswith("set_format_quality"):
        yield lambda d: (open_snapseed(d), settings(d), choose(d, "pref_format_quality", 3))
    elif name.startswith("set_image_sizing"):
        yield lambda d: (open_snapseed(d), settings(d), choose(d, "pref_image_sizing", 0),
                         choose(d, "pref_image_sizing", 4))
    else:
        def setting_then_noir(d):
            open_snapseed(d)
            settings(d)
            if "dark_theme" in name:
                tap_on(d, resource_id=S + "pref_dark_theme")
            elif "quality" in name:
                choose(d, "pref_format_quality", 3)
            else:
                choose(d, "pref_image_sizing", 4)
            d.press("BACK")
            tap_on(d, resource_id=S + "logo_view")
            tap_on(d, resource_id=S + "image_thumbnail")
            noir(d)
        yield setting_then_noir


@pytest.mark.parametrize("task_id", ALL_SNAPSEED)
def test_each_task_is_not_done_at_reset_and_near_misses_fail_it(task_id):
    run_attempts(task_id, near_misses(task_id), expect=False)


@pytest.mark.parametrize("task_id", ALL_SNAPSEED)
def test_other_right_paths_pass_each_task(task_id):
    run_attempts(task_id, right_paths(task_id), expect=True)

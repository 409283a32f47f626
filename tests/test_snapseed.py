"""Snapseed: the welcome trampoline, the picker over the storage's photos, the editor's tabs
and looks (the photo changes), the Noir tool, Settings written to Preferences.xml in
Android's format, a corrupt prefs file and a file that is not an image, and the eleven
tasks (near misses and right paths: tests/nearmiss/snapseed.py)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import bounds, logcat, nodes, tap_on
from lxml import etree
from nearmiss.snapseed import (
    ALL_SNAPSEED,
    S,
    choose,
    noir,
    open_photo,
    open_snapseed,
    settings,
    tap_index,
)

import bmoca.configs
import bmoca.device
from bmoca import tasks
from bmoca.device import DeviceConfig, connect
from bmoca.sim.render.layout_check import check_device

PREFS = "/data/data/com.niksoftware.snapseed/shared_prefs/Preferences.xml"


def selected_texts(device) -> list[str]:
    """The labels of selected views (a strip item's tile is selected with its label)."""
    return [n.get("text") for n in nodes(device.dump_hierarchy(), selected="true")
            if n.get("text")]


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


@pytest.mark.parametrize("config", ["test_env_105", "test_env_108"])
def test_the_picker_sheet_lies_over_the_start_screen(config):
    """The sheet covers the start screen's lower part; the screen is not squeezed above it,
    so its 'tap anywhere' line stays inside its own (now hidden) bounds."""
    device = connect("sim", bmoca.configs.get(config))
    open_snapseed(device)
    tap_on(device, resource_id=S + "logo_view")
    assert nodes(device.dump_hierarchy(), resource_id=S + "bottom_sheet")
    assert check_device(device) == []


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


# -- how the editor looks (issue 32, item 9) ------------------------------------------------

def test_looks_are_thumbnails_of_the_photo_with_each_look_and_the_menu_is_white():
    from agent_steps import Episode

    episode = Episode("snapseed/open_image_and_apply_noir_S03_filter_in_Snapseeed")
    episode.open_app("Snapseed").click(resource_id=S + "logo_view").click(
        resource_id=S + "image_thumbnail")
    image = episode.env.unwrapped.device.screenshot()
    thumbs = nodes(episode.obs["xml"], resource_id=S + "item_image")
    assert len(thumbs) >= 4
    crops = []
    for node in thumbs[:4]:
        left, top, right, bottom = bounds(node)
        assert abs((right - left) - (bottom - top)) <= 1  # square
        crop = image[top:bottom, left:right, :3].astype(int)
        assert len(np.unique(crop.reshape(-1, 3), axis=0)) > 30  # a picture, not a tile
        crops.append(crop)
    assert np.abs(crops[0] - crops[2]).mean() > 2  # Portrait and Pop differ
    # the ⋮ menu: a white popup
    episode.click(resource_id=S + "overflow_button")
    item = bounds(episode.find(resource_id=S + "menu_item_title"))
    pixel = episode.env.unwrapped.device.screenshot()[item[1] + 2, item[0] - 8, :3]
    assert tuple(int(v) for v in pixel) == (255, 255, 255)


def test_the_edit_stack_undoes_a_look_and_the_details_card_names_the_photo():
    from agent_steps import Episode

    episode = Episode("snapseed/open_image_and_apply_noir_S03_filter_in_Snapseeed")
    episode.open_app("Snapseed").click(resource_id=S + "logo_view").click(
        resource_id=S + "image_thumbnail")
    episode.click(resource_id=S + "edit_stack_button")
    undo = episode.find(resource_id=S + "menu_item_title").getparent()
    assert undo.get("enabled") == "false"  # nothing to undo yet
    episode.back().click(2, resource_id=S + "item_title")  # Pop
    assert episode.find(text="Pop").get("selected") == "true"
    episode.click(resource_id=S + "edit_stack_button").click(resource_id=S + "menu_item_title")
    assert not episode.has(text="Pop", selected="true")
    episode.click(resource_id=S + "image_details_button")
    values = [n.get("text") for n in nodes(episode.obs["xml"], resource_id=S + "details_value")]
    assert values[0] == "99_Colosseum.jpg" and values[1] == "1500 × 1000"

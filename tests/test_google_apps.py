"""Maps and YouTube (and Photos): launch lines, main screens, search fields that Gboard's
`AndroidIME` line names, YouTube's smart pairing, renders in a CJK and an Arabic locale,
and the app screens the tasks reach (their near misses and right paths: tests/nearmiss/launches.py)."""

from __future__ import annotations

import pytest
from agent_steps import Episode
from conftest import bounds, logcat, nodes, tap_on
from nearmiss.common import launch
from nearmiss.launches import (
    M,
    P,
    Y,
    open_maps,
    open_photos,
    open_youtube,
    photos_library,
    youtube_settings,
)

from bmoca.device import DeviceConfig, connect


def test_maps_launches_and_its_search_box_focuses_a_field(device):
    open_maps(device)
    assert "cmp=com.google.android.apps.maps/com.google.android.maps.MapsActivity" in logcat(
        device, "ActivityTaskManager:I")
    xml = device.dump_hierarchy()
    assert nodes(xml, resource_id=M + "mainmap_container")
    assert [n.get("text") for n in nodes(xml, resource_id=M + "search_omnibox_text_box")] == [
        "Search here"]
    tap_on(device, resource_id=M + "search_omnibox_container")
    field = nodes(device.dump_hierarchy(), resource_id=M + "search_omnibox_edit_text")
    assert field[0].get("focused") == "true"
    assert "packageName=com.google.android.apps.maps," in logcat(device, "AndroidIME:I")


def test_youtube_home_search_and_settings(device):
    open_youtube(device)
    xml = device.dump_hierarchy()
    assert len(nodes(xml, resource_id=Y + "thumbnail")) >= 2
    tap_on(device, resource_id=Y + "menu_item_1")
    assert nodes(device.dump_hierarchy(), resource_id=Y + "search_edit_text")[0].get(
        "focused") == "true"
    device.press("BACK")
    device.press("BACK")
    tap_on(device, resource_id=Y + "mobile_topbar_avatar")
    tap_on(device, resource_id=Y + "account_item_settings")
    tap_on(device, resource_id="android:id/title", index=1)
    assert ("cmp=com.google.android.youtube/com.google.android.libraries.youtube.mdx."
            "smartpairing.PairWithTvActivity") in logcat(device, "ActivityTaskManager:I")
    assert nodes(device.dump_hierarchy(), resource_id=Y + "pairing_code")


def test_the_smart_pairing_task_takes_youtubes_real_class_as_the_reference_does():
    """The reference's expression names the class in full
    (`com.google.android.libraries.youtube.mdx.smartpairing.PairWithTvActivity`); Settings
    alone does not pass, "Link with TV code" does, and the START line names that class."""
    ep = Episode("youtube/go_to_smart_pairing_page_in_youtube")
    assert ep.env.task.success.regex == (
        "^(.*?)START(.*?)com.google.android.libraries.youtube.mdx.smartpairing.PairWithTvActivity")
    ep.open_app("YouTube")
    ep.click(resource_id=Y + "mobile_topbar_avatar")
    ep.click(resource_id=Y + "account_item_settings")
    assert not ep.success
    ep.click(resource_id="android:id/title", index=1)  # Link with TV code
    assert ep.success and ep.has(resource_id=Y + "pairing_code")
    start = [line for line in logcat(ep.env.device, "ActivityTaskManager:I").splitlines()
             if "PairWithTvActivity" in line and "START u0" in line]
    assert len(start) == 1 and start[0].endswith(
        "I ActivityTaskManager: START u0 {cmp=com.google.android.youtube/com.google.android."
        "libraries.youtube.mdx.smartpairing.PairWithTvActivity} from uid 10117")


@pytest.mark.parametrize(("locale", "dark", "search_here", "link"), [
    ("ko-KR", False, "여기서 검색", "TV 코드로 연결"),
    ("ar-AE", True, "البحث هنا", "الربط باستخدام رمز التلفزيون")])
def test_maps_and_youtube_in_other_languages_and_themes(locale, dark, search_here, link):
    device = connect("sim", DeviceConfig(locale=locale, dark_theme=dark))
    open_maps(device)
    xml = device.dump_hierarchy()
    assert nodes(xml, resource_id=M + "search_omnibox_text_box")[0].get("text") == search_here
    explore = bounds(nodes(xml, resource_id=M + "explore_button")[0])
    # Explore is the bottom navigation's first tab: at the start, the right in Arabic
    assert (explore[0] > 540) == locale.startswith("ar")
    youtube_settings(device)
    assert link in [n.get("text") for n in nodes(device.dump_hierarchy())]
    assert (device.screenshot()[1200, 540].mean() < 80) == dark


def test_photos_grid_shows_the_storage_images_and_library_opens_trash(device):
    device.shell("mkdir -p /sdcard/DCIM/Camera")
    device.shell("touch /sdcard/DCIM/Camera/IMG_0001.jpg")
    device.shell("touch /sdcard/Pictures/cat.png")
    open_photos(device)
    tiles = nodes(device.dump_hierarchy(), resource_id=P + "photo_grid_item")
    assert sorted(n.get("content-desc") for n in tiles) == [
        "99_Colosseum.jpg", "IMG_0001.jpg", "cat.png"]  # with the photo B-MoCA's image holds
    tap_on(device, resource_id=P + "tab_library")
    tap_on(device, resource_id=P + "trash")
    assert ("cmp=com.google.android.apps.photos/.trash.ui.TrashPhotosActivity"
            in logcat(device, "ActivityTaskManager:I"))


@pytest.mark.parametrize(("locale", "dark", "trash"), [
    ("ja-JP", True, "ゴミ箱"), ("ar-EG", False, "المهملات")])
def test_photos_in_other_languages_and_themes(locale, dark, trash):
    device = connect("sim", DeviceConfig(locale=locale, dark_theme=dark))
    photos_library(device)
    xml = device.dump_hierarchy()
    assert nodes(xml, resource_id=P + "trash")[0].get("content-desc") == trash
    first = bounds(nodes(xml, resource_id=P + "tab_photos")[0])
    assert (first[0] > 540) == locale.startswith("ar")  # mirrored tabs
    assert (device.screenshot()[1200, 540].mean() < 80) == dark


def test_camera_start_proc_names_the_launcher_and_the_shutter_works(device):
    launch(device, "com.android.camera2")
    assert ("com.android.camera2/u0a83 for activity "
            "{com.android.camera2/com.android.camera.CameraLauncher}") in logcat(
        device, "ActivityManager:I")
    assert "cmp=com.android.camera2/com.android.camera.CameraActivity" in logcat(
        device, "ActivityTaskManager:I")
    tap_on(device, resource_id="com.android.camera2:id/mode_options_toggle")
    assert nodes(device.dump_hierarchy(), resource_id="com.android.camera2:id/mode_name")[
        0].get("text") == "Video"


def test_camera_saves_each_shot_under_camera2s_name_and_photos_shows_it(device):
    """Camera2 writes DCIM/Camera/IMG_yyyyMMdd_HHmmss.jpg, `_1`, `_2` within one second;
    the video mode's shutter saves no picture."""
    launch(device, "com.android.camera2")
    for _ in range(3):
        tap_on(device, resource_id="com.android.camera2:id/shutter_button")
    tap_on(device, resource_id="com.android.camera2:id/mode_options_toggle")
    tap_on(device, resource_id="com.android.camera2:id/shutter_button")
    assert device.shell("ls /sdcard/DCIM/Camera")[0].split() == [
        "IMG_20240117_100000.jpg", "IMG_20240117_100000_1.jpg", "IMG_20240117_100000_2.jpg"]
    open_photos(device)
    tiles = nodes(device.dump_hierarchy(), resource_id=P + "photo_grid_item")
    assert "IMG_20240117_100000_2.jpg" in [n.get("content-desc") for n in tiles]


@pytest.mark.parametrize(("locale", "dark", "video"), [("zh-Hans-CN", True, "视频"),
                                                       ("ur-PK", False, "ویڈیو")])
def test_camera_in_other_languages_and_themes(locale, dark, video):
    device = connect("sim", DeviceConfig(locale=locale, dark_theme=dark))
    launch(device, "com.android.camera2")
    tap_on(device, resource_id="com.android.camera2:id/mode_options_toggle")
    xml = device.dump_hierarchy()
    assert nodes(xml, resource_id="com.android.camera2:id/mode_name")[0].get("text") == video
    toggle = bounds(nodes(xml, resource_id="com.android.camera2:id/mode_options_toggle")[0])
    assert (toggle[0] < 540) == locale.startswith("ur")  # mirrored bottom bar
    assert device.screenshot()[1000, 540].mean() > 80  # the viewfinder's scene, either theme


def test_calendar_shows_the_month_of_the_virtual_clock(device):
    launch(device, "com.google.android.calendar")
    assert ("cmp=com.google.android.calendar/com.android.calendar.AllInOneActivity"
            in logcat(device, "ActivityTaskManager:I"))
    xml = device.dump_hierarchy()
    month, year = nodes(xml, resource_id="com.google.android.calendar:id/date_picker_text_view"
                        )[0].get("text").split()
    assert month == "January" and year == "2024"  # the default clock: 2024-01-17
    assert nodes(xml, resource_id="com.google.android.calendar:id/floating_action_button")


@pytest.mark.parametrize(("locale", "dark", "title"), [("ja-JP", False, "1月 2024"),
                                                       ("ar-EG", True, "يناير ٢٠٢٤")])
def test_calendar_in_other_languages_and_themes(locale, dark, title):
    device = connect("sim", DeviceConfig(locale=locale, dark_theme=dark))
    launch(device, "com.google.android.calendar")
    xml = device.dump_hierarchy()
    assert nodes(xml, resource_id="com.google.android.calendar:id/date_picker_text_view")[
        0].get("text") == title
    fab = bounds(nodes(xml, resource_id="com.google.android.calendar:id/floating_action_button")[0])
    assert (fab[0] < 540) == locale.startswith("ar")
    assert (device.screenshot()[1200, 540].mean() < 80) == dark


def test_the_camera_preview_and_the_map_are_the_same_in_every_language():
    """A camera preview shows the scene, a map the ground: neither is laid out right to
    left in Arabic (the bars around them are), so their pixels match English's."""
    def region(locale: str, package: str, box: tuple[int, int, int, int]):
        device = connect("sim", DeviceConfig(locale=locale))
        launch(device, package)
        left, top, right, bottom = box
        return device.screenshot()[top:bottom, left:right]

    for package, box in (("com.android.camera2", (0, 300, 1080, 1400)),
                         ("com.google.android.apps.maps", (0, 700, 1080, 1300))):
        english, arabic = region("en-US", package, box), region("ar-EG", package, box)
        assert (english != arabic).any(axis=2).mean() < 0.01, package

"""Maps and YouTube (and Photos): launch lines, main screens, search fields that Gboard's
`AndroidIME` line names, YouTube's smart pairing, renders in a CJK and an Arabic locale,
and each task's near misses and right paths."""

from __future__ import annotations

import pytest
from conftest import bounds, logcat, nodes, tap_on

import bmoca.configs
import bmoca.device
from bmoca import tasks
from bmoca.device import DeviceConfig, connect

M = "com.google.android.apps.maps:id/"
Y = "com.google.android.youtube:id/"
P = "com.google.android.apps.photos:id/"


def launch(device, package: str) -> None:
    out, code = device.shell(f"monkey -p {package} -c android.intent.category.LAUNCHER 1")
    assert code == 0, out


def open_maps(d):
    launch(d, "com.google.android.apps.maps")


def open_youtube(d):
    launch(d, "com.google.android.youtube")


def maps_search(d):
    open_maps(d)
    tap_on(d, resource_id=M + "search_omnibox_container")


def youtube_search(d):
    open_youtube(d)
    tap_on(d, resource_id=Y + "menu_item_1")


def youtube_settings(d):
    open_youtube(d)
    tap_on(d, resource_id=Y + "mobile_topbar_avatar")
    tap_on(d, resource_id=Y + "account_item_settings")


def youtube_pair(d):
    youtube_settings(d)
    tap_on(d, resource_id="android:id/title", index=1)


def open_photos(d):
    launch(d, "com.google.android.apps.photos")


def photos_library(d):
    open_photos(d)
    tap_on(d, resource_id=P + "tab_library")


def photos_trash(d):
    photos_library(d)
    tap_on(d, resource_id=P + "trash")


def messages_search(d):
    launch(d, "com.google.android.apps.messaging")
    tap_on(d, resource_id="com.google.android.apps.messaging:id/action_zero_state_search")


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
    assert ("cmp=com.google.android.youtube/com.google.android.apps.youtube.mdx.smartpairing."
            "PairWithTvActivity") in logcat(device, "ActivityTaskManager:I")
    assert nodes(device.dump_hierarchy(), resource_id=Y + "pairing_code")


@pytest.mark.parametrize(("locale", "dark", "search_here", "link"), [
    ("ko-KR", False, "여기서 검색", "TV 코드로 연결"),
    ("ar-AE", True, "البحث هنا", "الربط باستخدام رمز التلفزيون")])
def test_maps_and_youtube_in_other_languages_and_themes(locale, dark, search_here, link):
    device = connect("sim", DeviceConfig(locale=locale, dark_theme=dark))
    open_maps(device)
    xml = device.dump_hierarchy()
    assert nodes(xml, resource_id=M + "search_omnibox_text_box")[0].get("text") == search_here
    explore = bounds(nodes(xml, resource_id=M + "explore_button")[0])
    assert (explore[0] < 300) == locale.startswith("ar")  # mirrored: the button at the end
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


NEAR_MISSES = {
    "calendar/open_the_calendar_app": [open_maps, open_photos],
    "camera/open_the_camera_app": [open_maps, open_photos],
    "photos/open_the_photos_app": [open_maps],
    "photos/go_to_trash_page_in_photo": [open_photos, photos_library],
    "maps/open_the_map_app": [open_youtube],
    "maps/activate_the_search_bar_in_map": [open_maps, youtube_search, messages_search],
    "youtube/open_Youtube": [open_maps],
    "youtube/activate_the_search_bar_in_youtube": [open_youtube, maps_search],
    "youtube/go_to_smart_pairing_page_in_youtube": [youtube_settings, youtube_search],
    "messages/activate_the_search_bar_in_message": [
        lambda d: launch(d, "com.google.android.apps.messaging"), youtube_search],
}


def twice(first, then):
    def path(d):
        first(d)
        d.press("HOME")
        then(d)
    return path


RIGHT_PATHS = {
    "calendar/open_the_calendar_app": [lambda d: launch(d, "com.google.android.calendar")],
    "camera/open_the_camera_app": [lambda d: launch(d, "com.android.camera2")],
    "photos/open_the_photos_app": [open_photos, twice(open_photos, open_photos)],
    "photos/go_to_trash_page_in_photo": [photos_trash, twice(photos_library, photos_trash)],
    "maps/open_the_map_app": [open_maps, twice(open_maps, open_maps)],
    "maps/activate_the_search_bar_in_map": [maps_search, twice(youtube_search, maps_search)],
    "youtube/open_Youtube": [open_youtube, twice(open_youtube, open_youtube)],
    "youtube/activate_the_search_bar_in_youtube": [youtube_search,
                                                   twice(maps_search, youtube_search)],
    "youtube/go_to_smart_pairing_page_in_youtube": [youtube_pair],
    "messages/activate_the_search_bar_in_message": [messages_search],
}


@pytest.mark.parametrize("task_id", sorted(NEAR_MISSES))
def test_each_task_is_not_done_at_reset_and_near_misses_fail_it(task_id):
    task = tasks.get(task_id)
    for attempt in NEAR_MISSES[task_id]:
        device = bmoca.device.connect("sim", config=bmoca.configs.get("test_env_100"))
        start = task.initialize(device)
        assert task.is_successful(device, start).ok is False
        attempt(device)
        verdict = task.is_successful(device, start)
        assert verdict.ok is False, verdict.trace


@pytest.mark.parametrize("task_id", sorted(RIGHT_PATHS))
def test_other_right_paths_pass_each_task(task_id):
    task = tasks.get(task_id)
    for path in RIGHT_PATHS[task_id]:
        device = bmoca.device.connect("sim", config=bmoca.configs.get("test_env_100"))
        start = task.initialize(device)
        path(device)
        verdict = task.is_successful(device, start)
        assert verdict.ok is True, verdict.trace

"""Files (DocumentsUI): the launcher alias's two START lines, the roots drawer, what each
root lists from the storage, the `DirectoryFragment` lines, and the five tasks (their
near misses and other right paths: tests/nearmiss/files.py)."""

from __future__ import annotations

import pytest
from conftest import bounds, logcat, nodes, tap_on
from nearmiss.files import D, open_drawer, open_files, pick_root

from bmoca import tasks
from bmoca.device import DeviceConfig, connect

ALIAS = "com.android.documentsui/.LauncherActivity"
ALL_FILES = [t.id for t in tasks.load_file("bmoca/tasks/data/files.yaml")]


def root_titles(xml: str) -> list[str]:
    roots_list = nodes(xml, resource_id=D + "roots_list")[0]
    return [n.get("text") for n in roots_list.iter("node")
            if n.get("resource-id") == "android:id/title"]


def listed(device) -> list[str]:
    xml = device.dump_hierarchy()
    rows = nodes(xml, resource_id=D + "item_root")
    return [r.find(".//node[@resource-id='android:id/title']").get("text") for r in rows]


def directory_lines(device) -> list[str]:
    return [line.split("DirectoryFragment: ", 1)[1]
            for line in logcat(device, "DirectoryFragment:D").splitlines()
            if "DirectoryFragment: " in line]


# -- the app --------------------------------------------------------------------------------

def test_the_launcher_alias_starts_files_activity_with_the_launch_control_intent(device):
    open_files(device)
    starts = [line for line in logcat(device, "ActivityTaskManager:I").splitlines()
              if "START u0" in line]
    assert "cmp=com.android.documentsui/.LauncherActivity" in starts[-2]
    assert starts[-1].endswith(
        "START u0 {dat=//com.android.documentsui.launchControl flg=0x10200000 "
        "cmp=com.android.documentsui/.files.FilesActivity (has extras)} from uid 10060")
    out, _ = device.shell("dumpsys activity activities")
    assert "files.FilesActivity" in out
    xml = device.dump_hierarchy()
    assert nodes(xml, text="Recent")
    assert listed(device) == ["99_Colosseum.jpg"]  # the photo B-MoCA's image holds
    assert directory_lines(device) == []  # Recent shows no directory


def test_the_drawer_lists_the_roots_in_order_with_the_phone_as_storage(device):
    open_files(device)
    open_drawer(device)
    xml = device.dump_hierarchy()
    assert root_titles(xml) == ["Recent", "Images", "Videos", "Audio", "Downloads", "Pixel 3"]
    assert nodes(xml, resource_id="android:id/summary", text="5.52 GB free")
    assert nodes(xml, content_desc="Hide roots")
    device.press("BACK")
    assert not nodes(device.dump_hierarchy(), resource_id=D + "roots_list")
    assert nodes(device.dump_hierarchy(), resource_id=D + "toolbar")


def test_each_root_logs_its_document_and_lists_the_storage(device):
    device.push(b"\x89PNG" + b"\0" * 2000, "/sdcard/Pictures/cat.png")
    device.push(b"\xff\xd8" + b"\0" * 5000, "/sdcard/DCIM/Camera/IMG_0001.jpg")
    device.push(b"ID3" + b"\0" * 12_000, "/sdcard/Music/song.mp3")
    device.push(b"\0" * 40_000, "/sdcard/Movies/clip.mp4")
    device.push(b"%PDF" + b"\0" * 300, "/sdcard/Download/report.pdf")
    open_files(device)
    assert {"cat.png", "IMG_0001.jpg", "song.mp3", "clip.mp4", "report.pdf"} <= set(
        listed(device))  # Recent

    pick_root(device, "Images")
    assert listed(device) == ["Camera", "Pictures"]  # one bucket per folder
    tap_on(device, resource_id="android:id/title", text="Camera")
    assert listed(device) == ["IMG_0001.jpg"]
    assert nodes(device.dump_hierarchy(), resource_id=D + "size", text="5.00 kB")
    device.press("BACK")
    assert listed(device) == ["Camera", "Pictures"]

    pick_root(device, "Audio")
    assert listed(device) == ["song.mp3"]
    pick_root(device, "Videos")
    assert listed(device) == ["Movies"]
    pick_root(device, "Downloads")
    assert listed(device) == ["report.pdf"]
    pick_root(device, "Pixel 3")
    assert listed(device)[:3] == ["Alarms", "DCIM", "Download"]
    tap_on(device, resource_id="android:id/title", text="Music")
    assert listed(device) == ["song.mp3"]

    media = "content://com.android.providers.media.documents/document/"
    camera_bucket = "images_bucket%3A" + str(_java_hash("/storage/emulated/0/dcim/camera"))
    assert directory_lines(device) == [
        "Showing directory: " + media + "images_root",
        "Showing directory: " + media + camera_bucket,
        "Showing directory: " + media + "images_root",
        "Showing directory: " + media + "audio_root",
        "Showing directory: " + media + "videos_root",
        "Showing directory: content://com.android.providers.downloads.documents/document/"
        "downloads",
        "Showing directory: content://com.android.externalstorage.documents/document/"
        "primary%3A",
        "Showing directory: content://com.android.externalstorage.documents/document/"
        "primary%3AMusic",
    ]


def _java_hash(text: str) -> int:
    value = 0
    for ch in text:
        value = (31 * value + ord(ch)) & 0xFFFFFFFF
    return value - (1 << 32) if value >= 1 << 31 else value


def test_a_swipe_from_the_start_edge_opens_the_drawer_and_back_leaves_the_app(device):
    open_files(device)
    width, height = device.screen_size()
    device.swipe(5, height // 2, width // 2, height // 2)
    assert nodes(device.dump_hierarchy(), resource_id=D + "drawer_roots")
    device.press("BACK")
    device.press("BACK")
    assert "documentsui" not in nodes(device.dump_hierarchy())[0].get("package")


@pytest.mark.parametrize(("locale", "dark"), [
    ("ja-JP", False), ("ar-EG", True), ("fr-CA", True), ("zh-Hans-CN", False)])
def test_the_drawer_in_other_languages_and_themes(locale, dark):
    device = connect("sim", DeviceConfig(locale=locale, dark_theme=dark))
    open_files(device)
    open_drawer(device)
    xml = device.dump_hierarchy()
    titles = root_titles(xml)
    expected = {"ja-JP": "画像", "ar-EG": "الصور", "fr-CA": "Images", "zh-Hans-CN": "图片"}
    assert titles[1] == expected[locale] and len(titles) == 6
    drawer = bounds(nodes(xml, resource_id=D + "drawer_roots")[0])
    width, _ = device.screen_size()
    if locale.startswith("ar"):
        assert drawer[2] == width and drawer[0] > 0  # the drawer comes from the right
    else:
        assert drawer[0] == 0 and drawer[2] < width
    pixel = device.screenshot()[drawer[1] + 300, (drawer[0] + drawer[2]) // 2]
    assert (pixel.mean() < 80) == dark


def test_a_missing_storage_folder_shows_an_empty_root_not_a_crash(device):
    device.shell("rm -r /sdcard/Download")
    open_files(device)
    pick_root(device, "Downloads")
    assert nodes(device.dump_hierarchy(), resource_id=D + "message")


# -- the tasks ------------------------------------------------------------------------------

def test_the_files_suite():
    assert ALL_FILES == [
        "files/list_audio_files_in_file_manager", "files/list_download_files_in_file_manager",
        "files/list_image_files_in_file_manager", "files/list_video_files_in_file_manager",
        "files/open_the_file_manager_app"]
    assert [t.step_limit for t in tasks.list(app="Files")] == [6, 6, 6, 6, 4]

"""Snapseed's "Open from device" through the system file picker (DocumentsUI's PickActivity,
started for a result): the tasks played through the env's JSON clicks on a phone, a 700 dpi
right-to-left phone and a right-to-left tablet; backing out of the picker opens nothing;
the START lines, the roots offered for images, types it was not asked for, the stack it
remembers per caller, and a picked file that does not decode."""

from __future__ import annotations

import pytest
from conftest import bounds, logcat, nodes, tap_on
from lxml import etree
from nearmiss.snapseed import S, open_snapseed

import bmoca
import bmoca.configs
from bmoca.sim.i18n import strings
from bmoca.sim.render.layout_check import check_device

D = "com.android.documentsui:id/"
PICK_START = ("START u0 {act=android.intent.action.OPEN_DOCUMENT "
              "cat=[android.intent.category.OPENABLE] typ=image/* "
              "cmp=com.android.documentsui/.picker.PickActivity} from uid 10141")
PORTRAIT = "snapseed/open_image_and_apply_portrait_filter_in_Snapseed"
NOIR = "snapseed/open_image_and_apply_noir_S03_filter_in_Snapseeed"
TOOLS = "snapseed/open_image_and_go_to_tools_tab_in_Snapseed"
OPEN_IMAGE = "snapseed/open_image_in_Snapseed"


# -- through the env, as an agent plays it --------------------------------------------------

class Episode:
    """An env episode driven by JSON clicks at the centres of nodes of the XML observation."""

    def __init__(self, pool, task_id: str, config: str):
        self.env = bmoca.make(task_id, config, device=pool, observation=("xml",),
                              action="json")
        self.obs, _ = self.env.reset(seed=0)
        self.info: dict = {}
        self.terminated = False

    def step(self, action: dict) -> None:
        assert not self.terminated, "the episode is over"
        self.obs, _, self.terminated, truncated, self.info = self.env.step(action)
        assert not truncated, "ran past the step limit"

    def find(self, index: int = 0, **attrs: str) -> etree._Element:
        found = nodes(self.obs["xml"], **attrs)
        assert len(found) > index, f"no node {attrs} on screen"
        return found[index]

    def click(self, index: int = 0, **attrs: str) -> None:
        left, top, right, bottom = bounds(self.find(index, **attrs))
        self.step({"action_type": "click", "x": (left + right) // 2, "y": (top + bottom) // 2})

    def photo_tile(self) -> etree._Element:
        return next(n for n in nodes(self.obs["xml"], clickable="true")
                    if (n.get("content-desc") or "").startswith("99_Colosseum.jpg, "))

    def click_photo(self) -> None:
        self.click(content_desc=self.photo_tile().get("content-desc"), clickable="true")


def into_the_picker(ep: Episode) -> None:
    ep.step({"action_type": "open_app", "app_name": "Snapseed"})
    ep.click(resource_id=S + "logo_view")
    ep.click(resource_id=S + "open_from_device")
    assert ep.find().get("package") == "com.android.documentsui"
    assert ep.find(resource_id=D + "header_title") is not None


def open_roots(ep: Episode) -> None:
    toolbar = ep.find(resource_id=D + "toolbar")
    ep.click(content_desc=toolbar[0].get("content-desc"))  # the hamburger, in any language
    assert ep.find(resource_id=D + "roots_list") is not None


def pick(ep: Episode, route: str) -> None:
    if route == "images":
        open_roots(ep)
        ep.click(1, resource_id="android:id/title")  # Recent, *Images*, Downloads, storage
        ep.click(resource_id=D + "item_root")  # the Pictures bucket
    ep.click_photo()
    assert ep.find().get("package") == "com.niksoftware.snapseed"
    assert ep.find(resource_id=S + "looks_button").get("selected") == "true"


def noir_s03(ep: Episode, locale: str) -> None:
    """Tools, Noir (scrolled to on a screen too small for the whole grid), style S03."""
    ep.click(resource_id=S + "tools_button")
    noir = strings(locale).get("snapseed.tool.noir")
    while not nodes(ep.obs["xml"], resource_id=S + "tool_item", content_desc=noir):
        ep.step({"action_type": "scroll", "direction": "down"})
    ep.click(resource_id=S + "tool_item", content_desc=noir)
    ep.click(2, resource_id=S + "item_title")


EDITS = {
    PORTRAIT: lambda ep, locale: ep.click(resource_id=S + "item_title"),
    NOIR: noir_s03,
    TOOLS: lambda ep, locale: ep.click(resource_id=S + "tools_button"),
}


@pytest.mark.parametrize(("config", "task_id", "route"), [
    ("test_env_100", PORTRAIT, "recent"),
    ("test_env_100", NOIR, "images"),
    ("test_env_108", NOIR, "recent"),
    ("test_env_108", TOOLS, "images"),
    ("test_env_109", TOOLS, "images"),
    ("test_env_109", PORTRAIT, "recent"),
])
def test_open_from_device_then_the_experts_edit_passes(pool, config, task_id, route):
    ep = Episode(pool, task_id, config)
    into_the_picker(ep)
    assert check_device(ep.env.device) == []
    pick(ep, route)
    assert not ep.terminated
    EDITS[task_id](ep, bmoca.configs.get(config).locale)
    assert ep.terminated and ep.info["success"], ep.info.get("detector")


@pytest.mark.parametrize("config", ["test_env_100", "test_env_109"])
def test_backing_out_of_the_picker_opens_nothing_and_done_fails(pool, config):
    ep = Episode(pool, OPEN_IMAGE, config)
    into_the_picker(ep)
    ep.step({"action_type": "navigate_back"})
    assert ep.find().get("package") == "com.niksoftware.snapseed"
    assert ep.find(resource_id=S + "logo_view") is not None
    assert not nodes(ep.obs["xml"], resource_id=S + "looks_button")
    ep.step({"action_type": "status", "goal_status": "complete"})
    assert ep.terminated and not ep.info["success"]


# -- the device, as a test harness drives it -----------------------------------------------

def open_the_picker(device) -> None:
    open_snapseed(device)
    tap_on(device, resource_id=S + "logo_view")
    tap_on(device, resource_id=S + "open_from_device")


def root_titles(device) -> list[str]:
    roots_list = nodes(device.dump_hierarchy(), resource_id=D + "roots_list")[0]
    return [n.get("text") for n in roots_list.iter("node")
            if n.get("resource-id") == "android:id/title"]


def tiles(device) -> dict[str, etree._Element]:
    """The grid's items by file name (their description is "name, size")."""
    return {n.get("content-desc").split(", ")[0]: n for n in nodes(device.dump_hierarchy())
            if n.get("class") == "android.widget.LinearLayout" and n.get("content-desc")}


def test_the_picker_starts_in_snapseeds_task_with_the_real_lines(device):
    open_the_picker(device)
    lines = logcat(device, "ActivityTaskManager:I", "ActivityManager:I").splitlines()
    start = next(i for i, line in enumerate(lines) if "OPEN_DOCUMENT" in line)
    assert lines[start].endswith(PICK_START)
    assert "com.android.documentsui/u0a60 for activity {com.android.documentsui/" \
        "com.android.documentsui.picker.PickActivity}" in lines[start + 1]
    out, _ = device.shell("dumpsys activity activities")
    assert "picker.PickActivity" in out
    xml = device.dump_hierarchy()
    assert nodes(xml, resource_id=D + "header_title", text="RECENT IMAGES ON PHONE")
    assert nodes(xml, resource_id=D + "icon_thumb")
    assert nodes(xml, resource_id=S + "logo_view") == []


def test_the_roots_and_types_offered_for_an_image(device):
    device.push(b"%PDF" + b"\0" * 300, "/sdcard/Download/report.pdf")
    open_the_picker(device)
    assert set(tiles(device)) == {"99_Colosseum.jpg"}  # Recent: images only
    tap_on(device, content_desc="Show roots")
    assert root_titles(device) == ["Recent", "Images", "Downloads", "Pixel 3"]
    assert nodes(device.dump_hierarchy(), text="Open from")
    tap_on(device, resource_id="android:id/title", text="Downloads")
    report = tiles(device)["report.pdf"]
    assert (report.get("enabled"), report.get("clickable")) == ("false", "false")
    tap_on(device, content_desc=report.get("content-desc"))  # greyed out: nothing happens
    assert nodes(device.dump_hierarchy(), resource_id=D + "header_title",
                 text="IMAGES ON DOWNLOADS")
    device.press("BACK")  # Downloads is the root: BACK leaves the picker
    assert nodes(device.dump_hierarchy(), resource_id=S + "logo_view")


def test_the_picker_reopens_where_snapseed_last_picked(device):
    open_the_picker(device)
    tap_on(device, content_desc="Show roots")
    tap_on(device, resource_id="android:id/title", text="Images")
    tap_on(device, resource_id="android:id/title", text="Pictures")
    tap_on(device, resource_id=D + "icon_thumb")
    assert nodes(device.dump_hierarchy(), resource_id=S + "looks_button", selected="true")
    device.shell("logcat -c")
    tap_on(device, resource_id=S + "open_button")
    tap_on(device, resource_id=S + "open_from_device")
    xml = device.dump_hierarchy()
    assert nodes(xml, resource_id=D + "toolbar")[0][1].get("text") == "Pictures"
    assert "Showing directory: content://com.android.providers.media.documents/document/" \
        "images_bucket" in logcat(device, "DirectoryFragment:D")
    device.press("BACK")  # out of the bucket, to Images
    device.press("BACK")  # and out of the picker: the open photo stays
    assert nodes(device.dump_hierarchy(), resource_id=S + "looks_button", selected="true")


def test_a_picked_file_that_does_not_decode_shows_snapseeds_error(device):
    device.push(b"not a jpeg", "/sdcard/Download/broken.jpg")
    open_the_picker(device)
    tap_on(device, content_desc="Show roots")
    tap_on(device, resource_id="android:id/title", text="Downloads")
    tap_on(device, content_desc=next(d for d in (n.get("content-desc") for n in
                                                  tiles(device).values())
                                      if d.startswith("broken.jpg")))
    xml = device.dump_hierarchy()
    assert nodes(xml, resource_id=S + "error_message")
    assert not nodes(xml, resource_id=S + "looks_button")
    assert "Failed to decode image: /storage/emulated/0/Download/broken.jpg" in \
        logcat(device, "ImageLoader:E")

"""Snapseed: the eleven tasks' near misses (the neighbouring look, style or setting, the
system's dark theme instead of the app's, the setting left alone) and other right paths."""

from __future__ import annotations

from conftest import tap_on

from bmoca import tasks
from nearmiss.common import from_generators
from nearmiss.launches import open_app_rows

S = "com.niksoftware.snapseed:id/"


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


ROWS = from_generators(ALL_SNAPSEED, near_misses, right_paths, english=True)


def named(name: str, play):
    """A row's play with a name of its own (rows from a second generator must not clash)."""
    play.__name__ = name
    return play


def set_then_noir(pref: str, *rows: int, style_slip: bool = False):
    """Settings: the preference (each row chosen in turn; none: the dark theme switch), back
    to the photo, then Noir S03 (first the neighbouring style when `style_slip`)."""
    def play(d) -> None:
        open_snapseed(d)
        settings(d)
        if rows:
            for row in rows:
                choose(d, pref, row)
        else:
            tap_on(d, resource_id=S + pref)
        d.press("BACK")
        tap_on(d, resource_id=S + "logo_view")
        tap_on(d, resource_id=S + "image_thumbnail")
        if style_slip:
            noir(d, 3)
            tap_index(d, S + "item_title", 2)
        else:
            noir(d)
    return play


def more_near_misses(task_id: str):
    name = task_id.split("/", 1)[1]
    if name.startswith("set_image_sizing"):
        yield named("the_neighbouring_size", lambda d: (
            open_snapseed(d), settings(d), choose(d, "pref_image_sizing", 0)))
    elif "after_setting_format_quality" in name:
        yield named("the_neighbouring_quality_then_noir",
                    set_then_noir("pref_format_quality", 2))
    elif "after_setting_image_sizing" in name:
        yield named("the_neighbouring_size_then_noir", set_then_noir("pref_image_sizing", 3))


def more_right_paths(task_id: str):
    name = task_id.split("/", 1)[1]
    if name == "open_image_and_go_to_tools_tab_in_Snapseed":
        yield named("by_the_open_button", lambda d: (
            open_snapseed(d), tap_on(d, resource_id=S + "open_button"),
            tap_on(d, resource_id=S + "image_thumbnail"), tap_on(d, resource_id=S + "tools_button")))
    elif name.startswith("open_image_and_apply_portrait"):
        yield named("by_the_open_button", lambda d: (
            open_snapseed(d), tap_on(d, resource_id=S + "open_button"),
            tap_on(d, resource_id=S + "image_thumbnail"), tap_index(d, S + "item_title", 0)))
    elif name == "set_dark_theme_in_Snapseed":
        yield named("on_off_on_by_the_row", lambda d: (
            open_snapseed(d), settings(d), *[tap_on(d, resource_id=S + "pref_dark_theme")
                                              for _ in range(3)]))
    elif name.startswith("set_format_quality"):
        yield named("a_slip_undone", lambda d: (
            open_snapseed(d), settings(d), choose(d, "pref_format_quality", 2),
            choose(d, "pref_format_quality", 3)))
    elif name.startswith("set_image_sizing"):
        yield named("chosen_twice", lambda d: (
            open_snapseed(d), settings(d), choose(d, "pref_image_sizing", 4),
            choose(d, "pref_image_sizing", 4)))
    elif "after_setting_dark_theme" in name:
        yield named("the_style_slip_undone", set_then_noir("pref_dark_theme", style_slip=True))
    elif "after_setting_format_quality" in name:
        yield named("a_quality_slip_undone", set_then_noir("pref_format_quality", 2, 3))
    elif "after_setting_image_sizing" in name:
        yield named("the_style_slip_undone", set_then_noir("pref_image_sizing", 4,
                                                           style_slip=True))


ROWS += from_generators(ALL_SNAPSEED, more_near_misses, more_right_paths, english=True)
ROWS += open_app_rows("snapseed/open Snapseed", "com.niksoftware.snapseed",
                      "com.google.android.apps.photos")


D = "com.android.documentsui:id/"


def from_device(d) -> None:
    """The sheet's "Open from device": the system file picker (DocumentsUI), on Recent."""
    open_snapseed(d)
    tap_on(d, resource_id=S + "logo_view")
    tap_on(d, resource_id=S + "open_from_device")


def picker_near_misses(task_id: str):
    name = task_id.split("/", 1)[1]
    if name == "open_image_in_Snapseed":
        yield named("the_picker_backed_out", lambda d: (from_device(d), d.press("BACK")))
    elif name.startswith("open_image_and_apply_portrait"):
        yield named("the_picker_left_open", from_device)


def picker_right_paths(task_id: str):
    name = task_id.split("/", 1)[1]
    if name == "open_image_in_Snapseed":
        yield named("by_the_system_picker", lambda d: (
            from_device(d), tap_on(d, resource_id=D + "icon_thumb")))
    elif name.startswith("open_image_and_apply_portrait"):
        yield named("by_the_system_picker", lambda d: (
            from_device(d), tap_on(d, resource_id=D + "icon_thumb"),
            tap_index(d, S + "item_title", 0)))


ROWS += from_generators(ALL_SNAPSEED, picker_near_misses, picker_right_paths, english=False)

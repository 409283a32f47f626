"""Named screens of the simulated phone and how to reach them from a fresh boot.

Why: the fidelity gallery and the layout checks must look at the same screens in every
configuration; each is reached only through the device contract (shell commands, taps on
resource-ids, swipes), as a test or an agent would.
"""

from __future__ import annotations

from dataclasses import dataclass

from bmoca.formats import apps as app_table
from bmoca.sim.system.perturbations import KINDS

SETTINGS = "com.android.settings"
SUBSETTINGS = f"{SETTINGS}/.SubSettings"


@dataclass(frozen=True)
class Screen:
    name: str
    steps: tuple[str, ...]
    """"shell:CMD", "swipe_up" (the app drawer), "scroll_down" (one page of a list),
    "tap:RESOURCE_ID" (the first view with that id) or "perturb:KIND" (that perturbation
    shows now: `bmoca.sim.system.perturbations`)."""


def _app(package: str) -> str:
    return f"shell:monkey -p {package} -c android.intent.category.LAUNCHER 1"


def _page(page: str) -> str:
    return f"shell:am start -n {SUBSETTINGS} --es page {page}"


PHOTOS = "com.google.android.apps.photos"
YOUTUBE = "com.google.android.youtube"
MAPS = "com.google.android.apps.maps"
_SHOTS = ("shell:mkdir -p /sdcard/DCIM/Camera /sdcard/Pictures/Screenshots",
          "shell:touch /sdcard/DCIM/Camera/IMG_20240117_093000.jpg "
          "/sdcard/DCIM/Camera/IMG_20240116_180000.jpg /sdcard/DCIM/Camera/IMG_20240116_120000.jpg "
          "/sdcard/DCIM/Camera/IMG_20240110_101500.jpg "
          "/sdcard/Pictures/Screenshots/Screenshot_20240115-120000.png")
"""Camera shots and a screenshot of the last days (the default clock: 2024-01-17), so that
Photos shows several days."""

SCREENS: tuple[Screen, ...] = (
    Screen("home", ()),
    Screen("drawer", ("swipe_up",)),
    Screen("settings", (_app(SETTINGS),)),
    Screen("settings_end", (_app(SETTINGS), "scroll_down", "scroll_down")),
    Screen("network", (_page("network"),)),
    Screen("connected_devices", (_page("connected_devices"),)),
    Screen("apps", (_page("apps"),)),
    Screen("battery", (_page("battery"),)),
    Screen("display", (_page("display"),)),
    Screen("sound", (_page("sound"),)),
    Screen("storage", (_page("storage"),)),
    Screen("system", (_page("system"),)),
    Screen("languages", (_page("languages"),)),
    Screen("manage_apps", (_page("manage_apps"),)),
    *(Screen(info.package.rsplit(".", 1)[-1], (_app(info.package),))
      for info in app_table.all_apps() if info.package != SETTINGS),
    Screen("photos_days", (*_SHOTS, _app(PHOTOS))),
    Screen("photos_library", (*_SHOTS, _app(PHOTOS), f"tap:{PHOTOS}:id/tab_library")),
    Screen("youtube_search", (_app(YOUTUBE), f"tap:{YOUTUBE}:id/menu_item_1",
                              "shell:input text guitar")),
    Screen("maps_search", (_app(MAPS), f"tap:{MAPS}:id/search_omnibox_container")),
    Screen("maps_results", (_app(MAPS), f"tap:{MAPS}:id/search_omnibox_container",
                            "shell:input text coffee", "shell:input keyevent 66")),
    Screen("picker", ("shell:am start -a android.intent.action.OPEN_DOCUMENT "
                      "-c android.intent.category.OPENABLE -t image/*",)),
    *(Screen(f"perturbation_{kind}", (_app(SETTINGS), f"perturb:{kind}"))
      for kind in KINDS),
)
"""Every screen the layout checks visit: the launcher, Settings' pages, each app's first
screen, Photos' grid over several days and its Library, YouTube's search page
with suggestions, Maps' search page and its results for "coffee", the system file picker (DocumentsUI's PickActivity, asked for an image) and each
perturbation over Settings."""

GALLERY_SCREENS = ("home", "drawer", "settings", "battery", "calculator", "deskclock",
                   "contacts")
"""The screens the issue asks the gallery to show."""


def by_name(name: str) -> Screen:
    for screen in SCREENS:
        if screen.name == name:
            return screen
    valid = ", ".join(s.name for s in SCREENS)
    raise KeyError(f"unknown screen {name!r}; valid: {valid}")


def reach(device, screen: Screen) -> None:
    """Drive a freshly booted device to `screen` (raises RuntimeError when a step fails)."""
    width, height = device.screen_size()
    for step in screen.steps:
        if step.startswith("shell:"):
            out, code = device.shell(step[6:])
            if code != 0:
                raise RuntimeError(f"{screen.name}: {step[6:]!r} failed: {out.strip()}")
        elif step == "swipe_up":
            device.swipe(width // 2, int(height * 0.8), width // 2, int(height * 0.2), 300)
        elif step == "scroll_down":
            device.swipe(width // 2, int(height * 0.75), width // 2, int(height * 0.25), 400)
        elif step.startswith("tap:"):
            _tap_id(device, screen.name, step[4:])
        elif step.startswith("perturb:"):
            device.arm_perturbations(f"{step[8:]}@1", 0)
            device.perturb(1)
        else:
            raise ValueError(f"{screen.name}: unknown step {step!r}")



def _tap_id(device, name: str, resource_id: str) -> None:
    """Tap the centre of the first view with `resource_id` in the device's dump."""
    import re

    from lxml import etree

    root = etree.fromstring(device.dump_hierarchy().encode("utf-8"))
    for node in root.iter("node"):
        if node.get("resource-id") == resource_id:
            left, top, right, bottom = (int(v) for v in re.findall(r"-?\d+", node.get("bounds")))
            device.tap((left + right) // 2, (top + bottom) // 2)
            return
    raise RuntimeError(f"{name}: no view {resource_id!r} to tap")

"""Snapseed's state: its preferences, kept in `shared_prefs/Preferences.xml` under the real
keys, and the colours of its light and dark themes (its own setting, not the system's)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from bmoca.formats import shared_prefs as prefs
from bmoca.sim.apps.base import Context
from bmoca.sim.apps.snapseed import photo
from bmoca.sim.system.vfs import FsError, VirtualFS
from bmoca.sim.ui.view import Color, View

PACKAGE = "com.niksoftware.snapseed"
PREFS_PATH = "/data/data/com.niksoftware.snapseed/shared_prefs/Preferences.xml"
DARK_THEME = "pref_appearance_use_dark_theme"
LONG_EDGE = "pref_export_setting_long_edge"
COMPRESSION = "pref_export_setting_compression"
SIZES = ("0", "800", "1366", "1600", "2000", "3000")
"""Image sizing choices: the long edge in pixels; "0" is "Do not resize" (the default)."""
QUALITIES = ("80", "90", "95", "100", "png")
"""Format and quality choices: JPG at a quality, or PNG; the default is JPG 95%."""
DEFAULTS = {DARK_THEME: False, LONG_EDGE: "0", COMPRESSION: "95"}


def sid(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


@dataclass
class SnapseedData:
    prefs: dict[str, prefs.Value] = field(default_factory=dict)
    """What Preferences.xml holds; keys never written are absent, as on the phone."""

    def get(self, key: str) -> prefs.Value:
        return self.prefs.get(key, DEFAULTS[key])


def load(ctx: Context) -> None:
    """Read Preferences.xml (at every start: a task's set-up may have pushed one)."""
    try:
        raw = ctx.system.state.vfs.read(PREFS_PATH)
    except FsError:
        ctx.data.prefs = {}
        return
    ctx.data.prefs = prefs.parse(raw)


def put(ctx: Context, key: str, value: prefs.Value) -> None:
    """SharedPreferences.Editor.apply(): the whole file is rewritten."""
    data: SnapseedData = ctx.data
    data.prefs[key] = value
    ctx.system.state.vfs.write(PREFS_PATH, prefs.dump(data.prefs))


@dataclass(frozen=True)
class Colors:
    background: Color
    bar: Color
    surface: Color
    canvas: Color
    text: Color
    secondary: Color
    icon: Color
    accent: Color
    on_accent: Color
    error: Color
    menu: Color
    """Popup menus and cards: white (#424242 dark) with an 8 dp shadow, as Material's."""


def colors(ctx: Context) -> Colors:
    if ctx.data.get(DARK_THEME):
        return Colors(background=(33, 33, 33), bar=(40, 40, 40), surface=(48, 48, 48),
                      canvas=(24, 24, 24), text=(236, 236, 236), secondary=(170, 170, 170),
                      icon=(220, 220, 220), accent=(77, 182, 172), on_accent=(20, 20, 20),
                      error=(239, 154, 154), menu=(66, 66, 66))
    return Colors(background=(250, 250, 250), bar=(255, 255, 255), surface=(238, 238, 238),
                  canvas=(224, 224, 224), text=(33, 33, 33), secondary=(117, 117, 117),
                  icon=(66, 66, 66), accent=(0, 137, 123), on_accent=(255, 255, 255),
                  error=(211, 47, 47), menu=(255, 255, 255))


def photo_painter(vfs: VirtualFS, path: str | None, look: str | None,
                  noir: str | None, cover: bool = False) -> Callable[..., None]:
    """A view painter that draws the photo, fitted and centred (or cropped to fill the
    view, for a strip's thumbnail), with its filters."""

    def draw(canvas, view: View) -> None:
        if path is None or not vfs.exists(path):
            return
        left, top, right, bottom = view.bounds
        image = photo.rendered(vfs.read(path), (max(1, right - left), max(1, bottom - top)),
                               look, noir, cover)
        if image is None:
            return
        x = left + (right - left - image.width) // 2
        y = top + (bottom - top - image.height) // 2
        canvas.paste(image, x, y, view.clip)

    return draw

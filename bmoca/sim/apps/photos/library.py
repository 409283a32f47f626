"""The Library tab of Google Photos (2020-21): four buttons (Favorites, Utilities, Archive,
Trash: two rows of two on a phone, one row on a tablet), then "Photos on device", a
row of the device's folders that hold pictures (Camera first, then the others by name),
each a thumbnail of its newest picture with the folder's name, and "Albums", which on this
phone (no account, no albums made) holds only the "New album" tile.

Only Trash is simulated (it opens `TrashPhotosActivity`); the other buttons, the folders
and "New album" are drawn and clickable but open nothing, as Photos' other pages are not
modelled.
"""

from __future__ import annotations

from collections.abc import Callable

from bmoca.sim.apps.base import Context
from bmoca.sim.apps.photos.grid import (
    FOLDERS,
    images_in,
    palette,
    pid,
    taken,
    thumbnail,
)
from bmoca.sim.ui.view import MATCH, WRAP, View, column, frame, icon, row, scroller, text

DOWNLOAD = "/storage/emulated/0/Download"
BUTTONS = (("favorites", "star"), ("utilities", "handyman"), ("archive", "archive"),
           ("trash", "delete"))


def device_folders(ctx: Context) -> list[tuple[str, str]]:
    """(name, newest picture) of each folder with pictures: DCIM's and Pictures' folders,
    Pictures itself and Download; Camera first."""
    vfs = ctx.system.state.vfs
    found: dict[str, list[str]] = {}
    places = [FOLDERS[1], DOWNLOAD]
    for folder in FOLDERS:
        if vfs.is_dir(folder):
            places += [f"{folder}/{n}" for n in vfs.listdir(folder)
                       if vfs.is_dir(f"{folder}/{n}")]
    for place in places:
        pictures = images_in(ctx, place)
        if pictures:
            found.setdefault(place.rsplit("/", 1)[-1], []).extend(pictures)
    names = sorted(found, key=lambda n: (n != "Camera", n.lower()))
    return [(n, max(found[n], key=lambda p: (taken(ctx, p), p))) for n in names]


def _button(ctx: Context, key: str, glyph: str, accent, on_click) -> View:
    _, fg, _ = palette(ctx)
    border = (95, 99, 104) if ctx.theme.dark else (218, 220, 224)
    label = ctx.t(f"photos.{key}")
    return row(icon(glyph, 24, icon_color=accent, cls="", margin=(16, 0, 16, 0),
                    gravity="center_vertical"),
               text(label, text_size=14, font_weight=500, text_color=fg, width=0, weight=1,
                    gravity="start|center_vertical"),
               cls="android.widget.Button", id=pid(key), desc=label, width=0, weight=1,
               height=56, corner=8, border=border, clickable=True, on_click=on_click,
               gravity="center_vertical")


def _header(ctx: Context, key: str, action: str | None = None) -> View:
    _, fg, _ = palette(ctx)
    accent = (138, 180, 248) if ctx.theme.dark else (26, 115, 232)
    return row(text(ctx.t(f"photos.{key}"), text_size=16, font_weight=500, text_color=fg,
                    width=0, weight=1, gravity="start|center_vertical"),
               text(ctx.t(f"photos.{action}"), text_size=14, font_weight=500,
                    text_color=accent, clickable=True, gravity="center_vertical")
               if action else None,
               height=48, padding=(16, 8, 16, 0), gravity="center_vertical")


def library(ctx: Context, open_trash: Callable[[], None]) -> View:
    """The Library page, scrolling."""
    _, fg, dim = palette(ctx)
    accent = (138, 180, 248) if ctx.theme.dark else (26, 115, 232)
    buttons = [_button(ctx, key, glyph, accent, open_trash if key == "trash" else None)
               for key, glyph in BUTTONS]
    per_row = 4 if ctx.system.sw600dp else 2
    button_rows = [row(*buttons[i:i + per_row], spacing=8, margin=(16, 8, 16, 0))
                   for i in range(0, len(buttons), per_row)]
    across = 6 if ctx.system.sw600dp else 3
    size = (ctx.system.screen_dp()[0] - 32 - 8 * (across - 1)) / across
    folders = [column(thumbnail(ctx, newest, size, corner=8),
                      text(name, text_size=14, text_color=fg, width=size, margin=(0, 8, 0, 0)),
                      width=size, clickable=True, id=pid("device_folder"), desc=name)
               for name, newest in device_folders(ctx)]
    on_device = (_header(ctx, "on_device", "view_all"),
                 scroller(*folders, key="device_folders", horizontal=True, spacing=8,
                          padding=(16, 8, 16, 0), width=MATCH, height=WRAP)) if folders else ()
    new_album = column(frame(icon("add", 36, icon_color=accent, cls="", gravity="center"),
                             width=size, height=size, corner=8,
                             bg=(48, 49, 52) if ctx.theme.dark else (241, 243, 244)),
                       text(ctx.t("photos.new_album"), text_size=14, text_color=fg,
                            width=size, margin=(0, 8, 0, 0)),
                       width=size, clickable=True, id=pid("new_album"),
                       desc=ctx.t("photos.new_album"), margin=(16, 8, 16, 16))
    return scroller(column(*button_rows, *on_device, _header(ctx, "albums"), new_album,
                           width=MATCH, id=pid("library_list")),
                    key="library", width=MATCH, height=MATCH)

"""Google Photos (`com.google.android.apps.photos`): home, Library and Trash.

The launcher starts `.home.HomeActivity`: the Photos tab is a grid of the images under
/sdcard/DCIM and /sdcard/Pictures (each drawn as a tile of its own colour; no network, no
backup), the Library tab lists Favourites, Archive and Trash. Trash starts
`com.google.android.apps.photos.trash.ui.TrashPhotosActivity`: Photos keeps its activities
in feature packages (`.home.HomeActivity`), and the paper's first version detects
`START(.*?)com.google.android.apps.photos/.trash.ui.TrashPhotosActivity`, the START line's
short component (`cmp=pkg/.cls`, the class under the package), which this class gives.

A long press on a photo selects it (a check on the tile) and the toolbar becomes the
selection's bar: close, the count, Share and Delete; taps then select and unselect photos,
and the close button, BACK or unselecting the last one leaves the mode. Photos is closed
source, so the bar's ids are not known (none are given); its actions are drawn but not
simulated, as opening a photo is not.
"""

from __future__ import annotations

import zlib

from bmoca.sim.apps.base import Activity, App, Context
from bmoca.sim.apps.contacts.ui import icon_button
from bmoca.sim.apps.longpress import Action, action_bar, toggled
from bmoca.sim.system.intent import Intent
from bmoca.sim.ui.view import MATCH, View, column, frame, icon, row, scroller, text

PACKAGE = "com.google.android.apps.photos"
HOME = "com.google.android.apps.photos.home.HomeActivity"
TRASH = "com.google.android.apps.photos.trash.ui.TrashPhotosActivity"
FOLDERS = ("/storage/emulated/0/DCIM", "/storage/emulated/0/Pictures")
IMAGE_EXT = (".jpg", ".jpeg", ".png", ".gif", ".webp", ".heic")


def pid(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


def palette(ctx: Context) -> tuple:
    if ctx.theme.dark:
        return (32, 33, 36), (232, 234, 237), (154, 160, 166)
    return (255, 255, 255), (32, 33, 36), (95, 99, 104)


def media(ctx: Context) -> list[str]:
    """Image paths under DCIM and Pictures (one level of sub-folders), sorted."""
    vfs = ctx.system.state.vfs
    found = []
    for folder in FOLDERS:
        if not vfs.is_dir(folder):
            continue
        for name in vfs.listdir(folder):
            path = f"{folder}/{name}"
            if vfs.is_dir(path):
                found += [f"{path}/{n}" for n in vfs.listdir(path)
                          if n.lower().endswith(IMAGE_EXT)]
            elif name.lower().endswith(IMAGE_EXT):
                found.append(path)
    return sorted(found)


class HomeActivity(Activity):
    def __init__(self, intent: Intent):
        super().__init__(intent)
        self.tab = "photos"
        self.selected: tuple[str, ...] = ()
        """The photos selected by a long press (the selection lasts while any is)."""

    def on_back(self, ctx: Context) -> bool:
        if self.selected:
            self.selected = ()
            return True
        if self.tab != "photos":
            self.tab = "photos"
            return True
        return False

    def _photos(self, ctx: Context) -> View:
        bg, fg, dim = palette(ctx)
        paths = media(ctx)
        if not paths:
            return text(ctx.t("photos.empty"), text_size=16, text_color=dim, width=MATCH,
                        align="center", margin=(24, 96, 24, 0), id=pid("empty_state"))
        rows = [row(*[self._tile(p) for p in paths[i:i + 3]],
                    *[frame(width=0, weight=1, height=120, cls="")
                      for _ in range(3 - len(paths[i:i + 3]))])
                for i in range(0, len(paths), 3)]
        return scroller(*rows, key="grid", cls="androidx.recyclerview.widget.RecyclerView",
                        id=pid("recycler_view"), width=MATCH, height=MATCH)

    def _show_tab(self, key: str) -> None:
        self.tab, self.selected = key, ()

    def _tile(self, path: str) -> View:
        h = zlib.crc32(path.encode())
        color = (80 + h % 150, 80 + (h >> 8) % 150, 80 + (h >> 16) % 150)
        checked = path in self.selected

        def select() -> None:
            self.selected = toggled(self.selected, path)

        return frame(width=0, weight=1, height=120, bg=color, margin=(1, 1, 1, 1),
                     cls="android.widget.ImageView", id=pid("photo_grid_item"),
                     desc=path.rsplit("/", 1)[-1], clickable=True, long_clickable=True,
                     selected=checked, icon="check_circle" if checked else None,
                     icon_color=(26, 115, 232), icon_filled=True, icon_size=32,
                     on_click=select if self.selected else None, on_long_click=select)

    def _library(self, ctx: Context) -> View:
        bg, fg, dim = palette(ctx)

        def entry(key: str, glyph: str, on_click=None) -> View:
            return row(icon(glyph, 24, icon_color=fg, cls="", margin=(16, 0, 24, 0),
                            gravity="center_vertical"),
                       text(ctx.t(f"photos.{key}"), text_size=16, text_color=fg,
                            gravity="start|center_vertical"),
                       cls="android.widget.Button", id=pid(key), desc=ctx.t(f"photos.{key}"),
                       height=56, clickable=True, on_click=on_click,
                       gravity="center_vertical")

        return column(entry("favorites", "star"), entry("archive", "archive"),
                      entry("trash", "delete",
                            lambda: ctx.start_activity(Intent(component=(PACKAGE, TRASH)))),
                      width=MATCH, id=pid("library_list"))

    def build(self, ctx: Context) -> View:
        bg, fg, dim = palette(ctx)
        accent = (138, 180, 248) if ctx.theme.dark else (26, 115, 232)

        def tab(key: str, glyph: str) -> View:
            color = accent if self.tab == key else dim
            return column(icon(glyph, 24, icon_color=color, cls="", gravity="center"),
                          text(ctx.t(f"photos.{key}"), text_size=12, text_color=color,
                               gravity="center"),
                          cls="android.widget.Button", id=pid(f"tab_{key}"), width=0, weight=1,
                          height=56, clickable=True, selected=self.tab == key,
                          desc=ctx.t(f"photos.{key}"), gravity="center",
                          on_click=lambda: self._show_tab(key))

        if self.selected and self.tab == "photos":
            title = action_bar(
                ctx, bar_id=pid("toolbar"), close_id="", close_desc=ctx.t("photos.cancel"),
                on_close=lambda: setattr(self, "selected", ()), title=str(len(self.selected)),
                title_id="", actions=[Action("share", ctx.t("photos.share"), "", None),
                                      Action("delete", ctx.t("photos.delete"), "", None)],
                bg=bg, fg=fg)
        else:
            title = row(text(ctx.t(f"app.{PACKAGE}"), text_size=20, text_color=fg, width=0,
                             weight=1, margin=(16, 0, 0, 0), gravity="start|center_vertical"),
                        icon_button(ctx, "account_circle", ctx.t("photos.account"), None, dim),
                        height=56, gravity="center_vertical", id=pid("toolbar"))
        body = self._library(ctx) if self.tab == "library" else self._photos(ctx)
        return column(title, frame(body, width=MATCH, height=0, weight=1),
                      row(tab("photos", "photo"), tab("search", "search"),
                          tab("library", "photo_library"), height=56,
                          id=pid("navigation_bar")),
                      width=MATCH, height=MATCH, bg=bg)


class TrashPhotosActivity(Activity):
    def build(self, ctx: Context) -> View:
        bg, fg, dim = palette(ctx)
        return column(
            row(icon_button(ctx, "arrow_back", ctx.t("photos.navigate_up"), ctx.finish, fg,
                            tooltip=True),
                text(ctx.t("photos.trash"), text_size=20, text_color=fg, width=0, weight=1,
                     margin=(16, 0, 0, 0), gravity="start|center_vertical"),
                height=56, gravity="center_vertical", id=pid("toolbar")),
            text(ctx.t("photos.trash_empty"), text_size=16, text_color=dim, width=MATCH,
                 align="center", margin=(24, 96, 24, 0), id=pid("empty_state")),
            width=MATCH, height=MATCH, bg=bg)


class PhotosApp(App):
    package = PACKAGE
    label_key = f"app.{PACKAGE}"
    uid = 10116
    activities = {HOME: HomeActivity, TRASH: TrashPhotosActivity}

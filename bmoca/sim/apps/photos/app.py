"""Google Photos (`com.google.android.apps.photos`): home, Library and Trash.

The launcher starts `.home.HomeActivity`: the top bar (Sharing, the Google Photos logo, the
account), the Photos tab's grid of the images under /sdcard/DCIM and /sdcard/Pictures under
date headers (`grid.py`; no network, no backup) and the Library tab (`library.py`); the
bottom bar has the three tabs of the 2020 redesign, Photos, Search and Library. Trash starts
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

from bmoca.sim.apps.base import Activity, App, Context
from bmoca.sim.apps.contacts.ui import icon_button
from bmoca.sim.apps.longpress import Action, action_bar, toggled
from bmoca.sim.apps.photos.grid import PACKAGE, grid, media, palette, pid, thumbnail
from bmoca.sim.apps.photos.library import library
from bmoca.sim.system.intent import Intent
from bmoca.sim.ui.view import MATCH, View, column, frame, icon, row, text

HOME = "com.google.android.apps.photos.home.HomeActivity"
TRASH = "com.google.android.apps.photos.trash.ui.TrashPhotosActivity"
PINWHEEL = ((234, 67, 53), (251, 188, 4), (52, 168, 83), (66, 133, 244))
"""The Photos pinwheel's petals, clockwise from the top: red, yellow, green, blue."""


def _pinwheel(canvas, view: View) -> None:
    """Four half-disc petals turning about the centre (the Photos logo's shape)."""
    left, top, right, bottom = view.bounds
    r = (right - left) // 4
    cx, cy = (left + right) // 2, (top + bottom) // 2
    for (dx, dy, start), color in zip(((0, -1, 180), (1, 0, 270), (0, 1, 0), (-1, 0, 90)),
                                      PINWHEEL, strict=True):
        x, y = cx + dx * r, cy + dy * r
        canvas.draw.pieslice((x - r, y - r, x + r, y + r), start, start + 180, fill=color)


WORDMARK_EM = 6.6
"""About how wide "Google Photos" is, in ems of its size."""


def wordmark(ctx: Context, room: float) -> View:
    """The top bar's logo: the pinwheel and "Google Photos" (the product name, not
    translated), centred in `room` dp; where the words do not fit (a 700 dpi phone), the
    pinwheel alone."""
    _, _, dim = palette(ctx)
    fits = room >= 32 + WORDMARK_EM * 20 * ctx.system.font_scale
    return row(frame(width=24, height=24, draw=_pinwheel, cls="", gravity="center_vertical"),
               text("Google Photos", text_size=20, text_color=dim, margin=(8, 0, 0, 0),
                    gravity="center_vertical", text_direction="ltr") if fits else None,
               width=-2, gravity="center", mirror=False, desc="Google Photos",
               id=pid("logo"))


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
        _, _, dim = palette(ctx)
        paths = media(ctx)
        if not paths:
            return text(ctx.t("photos.empty"), text_size=16, text_color=dim, width=MATCH,
                        align="center", margin=(24, 96, 24, 0), id=pid("empty_state"))
        return grid(ctx, paths, lambda path, size: self._tile(ctx, path, size))

    def _show_tab(self, key: str) -> None:
        self.tab, self.selected = key, ()

    def _tile(self, ctx: Context, path: str, size: float) -> View:
        checked = path in self.selected

        def select() -> None:
            self.selected = toggled(self.selected, path)

        tile = thumbnail(ctx, path, size, id=pid("photo_grid_item"),
                         desc=path.rsplit("/", 1)[-1], clickable=True, long_clickable=True,
                         selected=checked, on_click=select if self.selected else None,
                         on_long_click=select)
        if checked:  # the painter fills the tile; the check is drawn by a child over it
            tile.add(frame(width=MATCH, height=MATCH, bg=(26, 115, 232, 60), cls="",
                           icon="check_circle", icon_color=(26, 115, 232), icon_filled=True,
                           icon_size=32))
        return tile

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
            # 2020-21: Sharing at the start, the logo in the middle, the account at the end
            title = row(icon_button(ctx, "chat", ctx.t("photos.sharing"), None, dim),
                        frame(wordmark(ctx, ctx.system.screen_dp()[0] - 8 - 2 * 48), width=0, weight=1, height=MATCH),
                        icon_button(ctx, "account_circle", ctx.t("photos.account"), None, dim),
                        height=56, gravity="center_vertical", id=pid("toolbar"),
                        padding=(4, 0, 4, 0))
        body = (library(ctx, lambda: ctx.start_activity(Intent(component=(PACKAGE, TRASH))))
                if self.tab == "library" else self._photos(ctx))
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

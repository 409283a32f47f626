"""Snapseed (`com.niksoftware.snapseed` 2.20): start screen, photo picker, the editor's
Looks, Tools and Export tabs, the Noir tool, and the app menu that opens Settings.

The launcher starts `com.google.android.apps.snapseed.WelcomeScreenActivity`; B-MoCA's
set-up has passed the welcome once, so it hands over to `MainActivity`. The start screen
is one big target, `logo_view`; tapping it (or the top bar's `Open photo`) opens the
picker sheet over the photos on the storage. Its `Open from device` row starts the system
file picker for a result (ACTION_OPEN_DOCUMENT, `image/*`: DocumentsUI's PickActivity, in
Snapseed's task); the document it hands back is opened as a thumbnail's photo is, and
BACK out of it leaves Snapseed as it was. An open photo shows the tabs `looks_button`,
`tools_button`, `export_button` (`selected` on the current one); the Looks strip's items
and Noir's styles (`S01` … `S14`) are text items with `selected` on the chosen one, and
the photo on screen changes with them. Settings are in `settings.py`; what is stored in
`Preferences.xml` is in `model.py`.
"""

from __future__ import annotations

from bmoca.sim.apps.base import Activity, App, Context
from bmoca.sim.apps.contacts.ui import icon_button
from bmoca.sim.apps.files import roots
from bmoca.sim.apps.snapseed import model, photo
from bmoca.sim.apps.snapseed.model import PACKAGE, colors, sid
from bmoca.sim.apps.snapseed.settings import SETTINGS, SettingsActivity
from bmoca.sim.render import images
from bmoca.sim.system.intent import (
    ACTION_OPEN_DOCUMENT,
    CATEGORY_OPENABLE,
    RESULT_OK,
    Intent,
)
from bmoca.sim.ui.view import MATCH, WRAP, View, column, frame, icon, row, scroller, text

WELCOME = "com.google.android.apps.snapseed.WelcomeScreenActivity"
MAIN = "com.google.android.apps.snapseed.MainActivity"
MENU_ITEMS = ("settings", "tutorials", "help")
THUMB_DP = 76
"""A Looks or Noir strip item's square thumbnail."""
STRIP_DP = 116
REQUEST_OPEN_DOCUMENT = 1
"""The request code Snapseed's "Open from device" passes to startActivityForResult [I]."""


class WelcomeScreenActivity(Activity):
    """The launcher's entry; after the first run it forwards to MainActivity."""

    def on_create(self, ctx: Context) -> None:
        ctx.start_activity(Intent(action=self.intent.action, flags=self.intent.flags,
                                  component=(PACKAGE, MAIN)))
        ctx.finish()

    def build(self, ctx: Context) -> View:
        return frame(width=MATCH, height=MATCH, bg=colors(ctx).background)


class MainActivity(Activity):
    popup_dialog = True  # the ⋮ menu is a popup at the top end

    def __init__(self, intent: Intent):
        super().__init__(intent)
        self.photo: str | None = None
        self.picker = False
        self.menu = False
        self.tab = "looks"
        self.look: str | None = None
        self.tool: str | None = None
        """The open tool ("noir"), whose styles are being chosen."""
        self.noir_style = photo.NOIR_STYLES[0]
        self.noir: str | None = None
        """The Noir style applied with the check mark."""
        self.error = False
        self.popup: str | None = None
        """The top bar's "details" card or "stack" menu, when one is open."""

    # -- actions ----------------------------------------------------------------------
    def _open(self, ctx: Context, path: str) -> None:
        self.picker = False
        if not images.decodes(ctx.system.state.vfs.read(path)):
            self.error = True
            ctx.log("E", "ImageLoader", f"Failed to decode image: {path}")
            return
        self.photo, self.error = path, False
        self.tab, self.look, self.tool, self.noir = "looks", None, None, None

    def _open_from_device(self, ctx: Context) -> None:
        """The sheet closes and the system picker comes up for an image."""
        self.picker = False
        ctx.start_activity_for_result(Intent(action=ACTION_OPEN_DOCUMENT,
                                             categories=(CATEGORY_OPENABLE,),
                                             mime_type="image/*"), REQUEST_OPEN_DOCUMENT)

    def on_activity_result(self, ctx: Context, request_code: int, result_code: int,
                           data: Intent | None) -> None:
        """The picked document, read through its provider (ContentResolver); a cancelled
        pick (BACK) changes nothing."""
        if request_code != REQUEST_OPEN_DOCUMENT or result_code != RESULT_OK or \
                data is None or data.data is None:
            return
        path = roots.path_of(ctx.system.state.vfs, data.data)
        if path is None:
            self.error = True
            ctx.log("E", "ImageLoader", f"Failed to decode image: {data.data}")
            return
        self._open(ctx, path)

    def _show_tab(self, tab: str) -> None:
        self.tab, self.tool = tab, None

    def _menu_choice(self, ctx: Context, key: str) -> None:
        self.menu = False
        if key == "settings":
            ctx.start_activity(Intent(component=(PACKAGE, SETTINGS)))

    def _undo(self) -> None:
        """The edit stack's Undo: the last edit goes (Noir after a look, else the look)."""
        self.popup = None
        if self.noir is not None:
            self.noir = None
        else:
            self.look = None

    def _revert(self) -> None:
        self.popup, self.look, self.noir = None, None, None

    def on_back(self, ctx: Context) -> bool:
        if self.menu or self.picker or self.popup:
            self.menu = self.picker = False
            self.popup = None
            return True
        if self.tool is not None:
            self.tool = None
            return True
        if self.photo is not None:
            self.photo, self.look, self.noir = None, None, None
            return True
        return False

    # -- screens ----------------------------------------------------------------------
    def build(self, ctx: Context) -> View:
        c = colors(ctx)
        t = ctx.t
        bar = row(
            icon_button(ctx, "folder_open", t("snapseed.open_photo"),
                        lambda: setattr(self, "picker", True), c.icon, sid("open_button")),
            frame(width=0, weight=1, height=48, cls=""),
            icon_button(ctx, "info", t("snapseed.image_details"),
                        lambda: setattr(self, "popup", "details"), c.icon,
                        sid("image_details_button")) if self.photo else None,
            icon_button(ctx, "layers", t("snapseed.edit_stack"),
                        lambda: setattr(self, "popup", "stack"), c.icon,
                        sid("edit_stack_button")) if self.photo else None,
            icon_button(ctx, "more_vert", t("snapseed.more_options"),
                        lambda: setattr(self, "menu", True), c.icon, sid("overflow_button")),
            cls="android.view.ViewGroup", id=sid("toolbar"), width=MATCH, height=56,
            bg=c.bar, gravity="center_vertical", padding=(4, 0, 4, 0))
        if self.photo is None:
            body = self._start(ctx, c)
        elif self.tool == "noir":
            return self._noir(ctx, c)
        else:
            body = self._editor(ctx, c)
        if self.picker:
            # The picker is a bottom sheet over the screen, as on the phone: the screen
            # keeps its full height under it instead of being squeezed above it.
            body.height, body.weight = MATCH, 0
            body = frame(body, self._picker(ctx, c), cls="", width=MATCH, height=0, weight=1)
        return column(bar, body, width=MATCH, height=MATCH, bg=c.background)

    def _start(self, ctx: Context, c: model.Colors) -> View:
        message = ctx.t("snapseed.cannot_open") if self.error else ""
        return column(
            frame(icon("add", 64, icon_color=c.accent, gravity="center", cls=""),
                  cls="android.widget.ImageView", id=sid("logo_view"),
                  desc=ctx.t("snapseed.open_photo"), width=160, height=160, corner=80,
                  bg=c.surface, gravity="center", margin=(0, 120, 0, 24), clickable=True,
                  focusable=True, on_click=lambda: setattr(self, "picker", True)),
            text(ctx.t("snapseed.tap_to_open"), text_size=18, text_color=c.text,
                 gravity="center", max_lines=2, align="center", width=MATCH),
            text(message, id=sid("error_message"), text_size=14, text_color=c.error,
                 gravity="center", visible=bool(message), margin=(0, 16, 0, 0)),
            width=MATCH, height=0, weight=1, bg=c.background, clickable=True,
            on_click=lambda: setattr(self, "picker", True))

    def _picker(self, ctx: Context, c: model.Colors) -> View:
        vfs = ctx.system.state.vfs
        thumbs = [frame(cls="android.widget.ImageView", id=sid("image_thumbnail"),
                        desc=path.rsplit("/", 1)[1], width=96, height=96, corner=4,
                        bg=c.surface, clickable=True, focusable=True, margin=(4, 0, 4, 0),
                        draw=model.photo_painter(vfs, path, None, None),
                        on_click=lambda p=path: self._open(ctx, p))
                  for path in photo.photos(vfs)]
        strip = scroller(*thumbs, key="snapseed:picker", horizontal=True,
                         cls="androidx.recyclerview.widget.RecyclerView",
                         id=sid("recent_images"), width=MATCH, height=104, orientation="h",
                         padding=(12, 0, 12, 0))
        empty = text(ctx.t("snapseed.no_photos"), text_size=14, text_color=c.secondary,
                     padding=(16, 16, 16, 16), visible=not thumbs)
        return column(
            text(ctx.t("snapseed.recent"), text_size=14, font_weight=500, text_color=c.text,
                 padding=(16, 16, 16, 8), width=MATCH),
            strip if thumbs else empty,
            row(icon("photo_library", 24, icon_color=c.icon, cls="", gravity="center_vertical"),
                text(ctx.t("snapseed.open_from_device"), text_size=16, text_color=c.text,
                     margin=(24, 0, 0, 0), gravity="center_vertical"),
                cls="android.widget.LinearLayout", id=sid("open_from_device"), height=56,
                width=MATCH, padding=(16, 0, 16, 0), clickable=True, gravity="center_vertical",
                on_click=lambda: self._open_from_device(ctx)),
            cls="android.widget.FrameLayout", id=sid("bottom_sheet"), width=MATCH, height=WRAP,
            bg=c.surface, elevation=16, corner=8, gravity="bottom")

    def _editor(self, ctx: Context, c: model.Colors) -> View:
        vfs = ctx.system.state.vfs
        picture = frame(cls="android.widget.ImageView", id=sid("image_view"), width=MATCH,
                        height=0, weight=1, bg=c.canvas,
                        draw=model.photo_painter(vfs, self.photo, self.look, self.noir))
        if self.tab == "looks":
            items = [self._strip_item(ctx, c, ctx.t(f"snapseed.look.{key}"),
                                      key == self.look, lambda k=key: setattr(self, "look", k),
                                      model.photo_painter(vfs, self.photo, key, None, cover=True))
                     for key in photo.LOOKS]
            panel = scroller(*items, key="snapseed:looks", horizontal=True,
                             cls="androidx.recyclerview.widget.RecyclerView",
                             id=sid("looks_list"), width=MATCH, height=STRIP_DP, orientation="h")
        elif self.tab == "tools":
            panel = self._tools(ctx, c)
        else:
            panel = column(*(row(icon(glyph, 24, icon_color=c.icon, cls="",
                                      gravity="center_vertical"),
                                 text(ctx.t(f"snapseed.{key}"), text_size=16, text_color=c.text,
                                      margin=(24, 0, 0, 0), gravity="center_vertical"),
                                 cls="android.widget.LinearLayout", id=sid(f"export_{key}"),
                                 height=56, padding=(16, 0, 16, 0), clickable=True)
                             for glyph, key in (("share", "share"), ("save", "save"),
                                                ("file_download", "export"),
                                                ("save_as", "export_as"))),
                           width=MATCH, bg=c.surface)
        tabs = row(*(self._tab(ctx, c, key) for key in ("looks", "tools", "export")),
                   cls="android.widget.LinearLayout", id=sid("bottom_bar"), width=MATCH,
                   height=56, bg=c.bar)
        if self.tab == "tools":  # the tools sheet covers the photo
            return column(panel, tabs, width=MATCH, height=0, weight=1)
        return column(picture, panel, tabs, width=MATCH, height=0, weight=1)

    def _tab(self, ctx: Context, c: model.Colors, key: str) -> View:
        chosen = self.tab == key
        return text(ctx.t(f"snapseed.tab.{key}"), id=sid(f"{key}_button"), text_size=14,
                    font_weight=500, text_color=c.accent if chosen else c.secondary,
                    cls="android.widget.TextView", width=0, weight=1, height=MATCH,
                    align="center", gravity="center", selected=chosen, clickable=True,
                    focusable=True, on_click=lambda: self._show_tab(key))

    def _strip_item(self, ctx: Context, c: model.Colors, label: str, chosen: bool,
                    choose, thumbnail) -> View:
        """A strip's item: the photo with the look or style applied, its name under it;
        the chosen one framed in the accent colour (setSelected reaches the label too)."""
        return column(
            frame(frame(cls="android.widget.ImageView", id=sid("item_image"), width=MATCH,
                        height=MATCH, draw=thumbnail),
                  width=THUMB_DP, height=THUMB_DP, padding=(3, 3, 3, 3) if chosen else (0, 0, 0, 0),
                  bg=c.accent if chosen else None, cls=""),
            text(label, id=sid("item_title"), text_size=12, font_weight=500,
                 text_color=c.accent if chosen else c.text, cls="android.widget.TextView",
                 width=MATCH, align="center", margin=(0, 6, 0, 0), selected=chosen,
                 max_lines=1, text_direction=""),
            cls="android.widget.LinearLayout", width=THUMB_DP, height=WRAP,
            margin=(4, 10, 4, 10), selected=chosen, clickable=True, focusable=True,
            on_click=choose)

    def _tools(self, ctx: Context, c: model.Colors) -> View:
        cells = []
        for key in photo.TOOLS:
            def open_tool(k=key) -> None:
                if k == "noir":
                    self.tool, self.noir_style = "noir", photo.NOIR_STYLES[0]
            cells.append(column(
                icon("tune" if key != "noir" else "contrast", 24, icon_color=c.icon, cls="",
                     gravity="center"),
                text(ctx.t(f"snapseed.tool.{key}"), id=sid("tool_title"), text_size=11,
                     text_color=c.text, align="center", width=MATCH, max_lines=2),
                cls="android.widget.LinearLayout", id=sid("tool_item"),
                desc=ctx.t(f"snapseed.tool.{key}"), width=0, weight=1,
                height=72, clickable=True, focusable=True, gravity="center",
                on_click=open_tool))
        rows = [row(*cells[i:i + 4], width=MATCH) for i in range(0, len(cells), 4)]
        return scroller(*rows, key="snapseed:tools", cls="androidx.recyclerview.widget."
                        "RecyclerView", id=sid("tools_list"), width=MATCH, height=0,
                        weight=1, bg=c.surface, padding=(0, 8, 0, 8))

    def _noir(self, ctx: Context, c: model.Colors) -> View:
        vfs = ctx.system.state.vfs
        picture = frame(cls="android.widget.ImageView", id=sid("image_view"), width=MATCH,
                        height=0, weight=1, bg=c.canvas,
                        draw=model.photo_painter(vfs, self.photo, self.look, self.noir_style))
        styles = [self._strip_item(ctx, c, style, style == self.noir_style,
                                   lambda s=style: setattr(self, "noir_style", s),
                                   model.photo_painter(vfs, self.photo, self.look, style,
                                                       cover=True))
                  for style in photo.NOIR_STYLES]

        def apply() -> None:
            self.noir, self.tool = self.noir_style, None

        return column(
            frame(text(ctx.t("snapseed.tool.noir"), id=sid("slider_label"), text_size=16,
                       font_weight=500, text_color=c.text, gravity="center"),
                  width=MATCH, height=56, bg=c.bar, cls="android.widget.FrameLayout"),
            picture,
            scroller(*styles, key="snapseed:noir", horizontal=True,
                     cls="androidx.recyclerview.widget.RecyclerView", id=sid("styles_list"),
                     width=MATCH, height=STRIP_DP, orientation="h"),
            row(icon_button(ctx, "close", ctx.t("snapseed.cancel"),
                            lambda: setattr(self, "tool", None), c.icon, sid("cancel_button")),
                frame(width=0, weight=1, height=48, cls=""),
                icon_button(ctx, "check", ctx.t("snapseed.apply"), apply, c.icon,
                            sid("apply_button")),
                width=MATCH, height=56, bg=c.bar, gravity="center_vertical",
                padding=(4, 0, 4, 0)),
            width=MATCH, height=MATCH, bg=c.background)

    def dialog(self, ctx: Context) -> View | None:
        if self.popup == "details":
            return self._details(ctx)
        if self.popup == "stack":
            return self._stack_menu(ctx)
        if not self.menu:
            return None
        c = colors(ctx)
        rows = [frame(text(ctx.t(f"snapseed.menu.{key}"), id=sid("menu_item_title"),
                           text_size=16, text_color=c.text, gravity="start|center_vertical",
                           margin=(16, 0, 16, 0)),
                      cls="android.widget.LinearLayout", width=MATCH, height=48,
                      clickable=True, focusable=True,
                      on_click=lambda k=key: self._menu_choice(ctx, k))
                for key in MENU_ITEMS]
        return column(*rows, cls="android.widget.ListView", width=220, bg=c.menu,
                      elevation=8, corner=4, gravity="end|top", margin=(0, 4, 4, 0),
                      padding=(0, 8, 0, 8))

    def _details(self, ctx: Context) -> View:
        """The ⓘ card: the open photo's name, size in pixels and file size."""
        c = colors(ctx)
        raw = ctx.system.state.vfs.read(self.photo) if self.photo else b""
        size = images.decode(raw).size if raw and images.decodes(raw) else None
        lines = [(ctx.t("snapseed.details.name"), (self.photo or "").rsplit("/", 1)[-1]),
                 (ctx.t("snapseed.details.size"), f"{size[0]} × {size[1]}" if size else ""),
                 (ctx.t("snapseed.details.file_size"), f"{len(raw) / 1e6:.2f} MB")]
        rows = [column(text(label, text_size=12, text_color=c.secondary, width=MATCH),
                       text(value, id=sid("details_value"), text_size=16, text_color=c.text,
                            width=MATCH, text_direction="ltr"),
                       width=MATCH, padding=(16, 8, 16, 8))
                for label, value in lines]
        return column(text(ctx.t("snapseed.image_details"), text_size=18, font_weight=500,
                           text_color=c.text, width=MATCH, padding=(16, 16, 16, 8)),
                      *rows, cls="android.widget.FrameLayout", id=sid("details_card"),
                      width=280, bg=c.menu, elevation=8, corner=4, gravity="end|top",
                      margin=(0, 4, 4, 0), padding=(0, 0, 0, 8))

    def _stack_menu(self, ctx: Context) -> View:
        """The edit stack: Undo and Revert, enabled only while there is an edit."""
        c = colors(ctx)
        edited = self.look is not None or self.noir is not None
        rows = [frame(text(ctx.t(f"snapseed.stack.{key}"), id=sid("menu_item_title"),
                           text_size=16, text_color=c.text if edited else c.secondary,
                           gravity="start|center_vertical", margin=(16, 0, 16, 0)),
                      cls="android.widget.LinearLayout", width=MATCH, height=48,
                      enabled=edited, clickable=edited, focusable=edited,
                      on_click=action if edited else None)
                for key, action in (("undo", self._undo), ("revert", self._revert))]
        return column(*rows, cls="android.widget.ListView", width=200, bg=c.menu,
                      elevation=8, corner=4, gravity="end|top", margin=(0, 4, 52, 0),
                      padding=(0, 8, 0, 8))


class SnapseedApp(App):
    package = PACKAGE
    label_key = f"app.{PACKAGE}"
    uid = 10141
    activities = {WELCOME: WelcomeScreenActivity, MAIN: MainActivity,
                  SETTINGS: SettingsActivity}

    def initial_data(self) -> model.SnapseedData:
        return model.SnapseedData()

    def on_boot(self, ctx: Context) -> None:
        model.load(ctx)

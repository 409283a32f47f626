"""What DocumentsUI's two activities share (AOSP `BaseActivity`): the current root and the
folders opened below it, the roots drawer, the toolbar, the `DirectoryFragment` line, and
BACK and the edge swipe.

`FilesActivity` (the launcher's Files) and `PickActivity` (the system file picker other apps
start for a result) are both a `Browser`; they differ in the roots they offer, how they draw
a listing and what a tap on a file does.

Picking a root, or a folder in a listing, shows that directory and logs, as the `userdebug`
image's `DirectoryFragment.showDirectory` does, `D DirectoryFragment: Showing directory:
<document uri>`; Recent logs nothing. BACK closes the drawer, then leaves a folder (showing
its parent again), then finishes.

A long press on a row selects it (SelectionHelper: the row is `selected`, its icon becomes
`icon_check`) and starts the action mode over the toolbar (ActionModeController:
`action_mode_bar` with `action_mode_close_button` "Done", `action_bar_title` "1 selected"
and the mode's actions). Taps then select and unselect rows instead of opening them; Done,
BACK or unselecting the last row clears the selection. In Files the actions are Share (the
system chooser: drawn, not simulated), Delete (when every selected document can be deleted,
not MediaProvider's buckets; it asks first, as DialogController.confirmDelete does, then
deletes from the storage) and More options; the picker's are in `picker.py`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bmoca.formats.locales import native_digits
from bmoca.sim.apps.base import Activity, Context, Swipe
from bmoca.sim.apps.contacts.ui import icon_button, overflow_button
from bmoca.sim.apps.files import roots
from bmoca.sim.apps.files.roots import Document, Root
from bmoca.sim.apps.longpress import (
    Action,
    action_bar,
    delete_confirmation,
    leave_selection,
    toggled,
)
from bmoca.sim.system.intent import Intent
from bmoca.sim.ui.view import MATCH, Color, View, column, frame, icon, row, scroller, text

PACKAGE = "com.android.documentsui"
TAG = "DirectoryFragment"
FREE_SPACE = "5.52 GB"
"""What the storage root's summary reports free (the Settings storage page's figure)."""
EDGE_DP = 20
"""How close to the start edge a swipe must begin to pull the drawer out."""


def fid(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


@dataclass(frozen=True)
class Colors:
    background: Color
    text: Color
    secondary: Color
    accent: Color
    selected: Color
    divider: Color
    drawer: Color


def colors(ctx: Context) -> Colors:
    """DocumentsUI's Android 10 DayNight theme: white or #202124 surfaces, blue accent."""
    if ctx.theme.dark:
        return Colors(background=(32, 33, 36), text=(232, 234, 237), secondary=(154, 160, 166),
                      accent=(138, 180, 248), selected=(138, 180, 248, 40),
                      divider=(60, 64, 67), drawer=(41, 42, 45))
    return Colors(background=(255, 255, 255), text=(32, 33, 36), secondary=(95, 99, 104),
                  accent=(26, 115, 232), selected=(26, 115, 232, 30), divider=(218, 220, 224),
                  drawer=(255, 255, 255))


def device_name(ctx: Context) -> str:
    """The storage root's title: the phone's name (Settings → About phone → Device name)."""
    return (ctx.system.state.settings.get("global", "device_name")
            or ctx.system.state.hardware.model)


def root_title(ctx: Context, root: Root) -> str:
    return device_name(ctx) if root is roots.DEVICE else ctx.t(f"files.{root.key}")


class Browser(Activity):
    """A root, the folders opened in it, and the drawer; subclasses draw the listing."""

    def __init__(self, intent: Intent):
        super().__init__(intent)
        self.root_key = roots.RECENT.key
        self.stack: list[Document] = []
        """Folders opened below the root, innermost last."""
        self.drawer = False
        self.selected: tuple[str, ...] = ()
        """The URIs of the selected documents (the action mode lasts while one is shown)."""
        self.confirm_delete = False

    @property
    def root(self) -> Root:
        return next(r for r in roots.ROOTS if r.key == self.root_key)

    def offered_roots(self) -> Sequence[Root]:
        """The drawer's roots (the picker leaves out those that hold no wanted type)."""
        return roots.ROOTS

    def drawer_title(self, ctx: Context) -> str:
        return ctx.t(f"app.{PACKAGE}")

    def open_file(self, ctx: Context, document: Document) -> None:
        """A tap on a file (not a folder): nothing in Files' browser on this image."""

    # -- navigation -------------------------------------------------------------------
    def show(self, ctx: Context) -> None:
        """refreshDirectory: Recent opens without a directory line."""
        uri = self.stack[-1].uri if self.stack else self.root.uri
        if uri is not None:
            ctx.log("D", TAG, f"Showing directory: {uri}")

    def pick_root(self, ctx: Context, root: Root) -> None:
        self.root_key = root.key
        self.stack = []
        self.drawer = False
        self.selected = ()
        self.show(ctx)

    def open_document(self, ctx: Context, document: Document) -> None:
        if document.is_folder:
            self.stack.append(document)
            self.show(ctx)
        else:
            self.open_file(ctx, document)

    def listing(self, ctx: Context) -> list[Document]:
        return roots.listing(ctx.system.state.vfs, self.root,
                             self.stack[-1] if self.stack else None)

    def on_back(self, ctx: Context) -> bool:
        if self.drawer:
            self.drawer = False
            return True
        if leave_selection(self):
            return True
        if self.stack:
            self.stack.pop()
            self.show(ctx)
            return True
        return False

    def on_swipe(self, ctx: Context, swipe: Swipe) -> bool:
        width_px = ctx.system.screen_px()[0]
        edge = EDGE_DP * ctx.system.density / 160
        opening = "left" if ctx.rtl else "right"
        from_edge = swipe.x1 >= width_px - edge if ctx.rtl else swipe.x1 <= edge
        if not self.drawer and swipe.direction == opening and from_edge:
            self.drawer = True
            return True
        if self.drawer and swipe.direction in ("left", "right") and swipe.direction != opening:
            self.drawer = False
            return True
        return False

    def _toggle_drawer(self) -> None:
        self.drawer = not self.drawer

    # -- selection --------------------------------------------------------------------
    def selectable(self, document: Document) -> bool:
        """Whether the selection may hold the document (Files: every row)."""
        return True

    def long_press(self, document: Document) -> None:
        """TouchInputHandler.onLongPress: select the row (or unselect it)."""
        if self.selectable(document):
            self.selected = toggled(self.selected, document.uri)

    def tap(self, ctx: Context, document: Document) -> None:
        """A tap opens the document, or while rows are selected selects or unselects it."""
        if self.selected:
            self.long_press(document)
        else:
            self.open_document(ctx, document)

    def chosen(self, documents: list[Document]) -> list[Document]:
        return [d for d in documents if d.uri in self.selected]

    def selection_actions(self, ctx: Context, chosen: list[Document]) -> list[Action]:
        """The action mode's actions: Files' Share, Delete and More options."""
        t = ctx.t

        def ask_delete() -> None:
            self.confirm_delete = True

        actions = [Action("share", t("files.share"), fid("action_menu_share"), None)]
        if all(self._deletable(d) for d in chosen):
            actions.append(Action("delete", t("files.delete"), fid("action_menu_delete"),
                                  ask_delete))
        actions.append(Action("more_vert", t("files.more_options"), "", None, overflow=True))
        return actions

    def _deletable(self, document: Document) -> bool:
        """FLAG_SUPPORTS_DELETE: files and storage folders; not MediaProvider's buckets."""
        return bool(document.path) and not (document.is_folder and self.root in (
            roots.IMAGES, roots.VIDEOS))

    def dialog(self, ctx: Context) -> View | None:
        """DialogController.confirmDelete: the message alone, then Cancel and OK."""
        chosen = self.chosen(self.listing(ctx)) if self.confirm_delete else []
        if not chosen:
            return None
        t = ctx.t
        if len(chosen) == 1:
            key = "files.delete_folder" if chosen[0].is_folder else "files.delete_file"
            message = t(key, name=chosen[0].name)
        else:
            message = t("files.delete_items", count=native_digits(ctx.locale, str(len(chosen))))

        def remove() -> None:
            vfs = ctx.system.state.vfs
            for document in chosen:
                if self._deletable(document) and vfs.exists(document.path):
                    vfs.remove(document.path, recursive=document.is_folder)

        return delete_confirmation(ctx, self, "", message, t("files.cancel"), t("files.ok"),
                                   remove)

    # -- views ------------------------------------------------------------------------
    def toolbar(self, ctx: Context, c: Colors) -> View:
        """The hamburger, the root's (or the open folder's) title, Search and ⋮; while rows
        are selected, the action mode over it."""
        t = ctx.t
        chosen = self.chosen(self.listing(ctx)) if self.selected else []
        if chosen:
            return action_bar(
                ctx, bar_id=fid("action_mode_bar"), close_id=fid("action_mode_close_button"),
                close_desc=t("files.done"), on_close=lambda: setattr(self, "selected", ()),
                title=t("files.selected", count=native_digits(ctx.locale, str(len(chosen)))),
                title_id=fid("action_bar_title"), actions=self.selection_actions(ctx, chosen),
                bg=c.background, fg=c.text)
        title = self.stack[-1].name if self.stack else root_title(ctx, self.root)
        return row(
            icon_button(ctx, "menu", t("files.hide_roots" if self.drawer else "files.show_roots"),
                        self._toggle_drawer, c.text, tooltip=True),
            text(title, text_size=20, font_weight=500, text_color=c.text, width=0, weight=1,
                 gravity="center_vertical", margin=(20, 0, 0, 0), max_lines=1),
            icon_button(ctx, "search", t("files.search"), None, c.text, fid("option_menu_search"),
                        cls="android.widget.TextView", tooltip=True),
            overflow_button(ctx, t("files.more_options"), None, c.text),
            cls="android.view.ViewGroup", id=fid("toolbar"), width=MATCH, height=56,
            bg=c.background, elevation=2, gravity="center_vertical", padding=(4, 0, 4, 0))

    def with_drawer(self, ctx: Context, c: Colors, screen: View) -> View:
        """The screen, under the roots drawer while it is open."""
        if not self.drawer:
            return screen
        return frame(screen, self._drawer(ctx, c), width=MATCH, height=MATCH)

    def _drawer(self, ctx: Context, c: Colors) -> View:
        width_dp = ctx.system.screen_dp()[0]

        def close() -> None:
            self.drawer = False

        items: list[View] = []
        for root in self.offered_roots():
            if root is roots.DEVICE:
                items.append(View(cls="", width=MATCH, height=1, bg=c.divider,
                                  margin=(0, 8, 0, 8)))
            items.append(self._root_item(ctx, c, root))
        panel = column(
            row(text(self.drawer_title(ctx), text_size=20, font_weight=500, text_color=c.text,
                     gravity="center_vertical", margin=(16, 0, 16, 0)),
                cls="android.view.ViewGroup", id=fid("roots_toolbar"), width=MATCH, height=56,
                gravity="center_vertical"),
            frame(scroller(*items, key="files:roots", cls="android.widget.ListView",
                           id=fid("roots_list"), width=MATCH, height=MATCH),
                  cls="android.widget.FrameLayout", id=fid("container_roots"), width=MATCH,
                  height=0, weight=1),
            cls="android.widget.LinearLayout", id=fid("drawer_roots"),
            width=min(320.0, width_dp - 56), height=MATCH, bg=c.drawer, elevation=16,
            gravity="start|top")
        scrim = View(cls="", width=MATCH, height=MATCH, bg=(0, 0, 0, 100), on_click=close)
        return frame(scrim, panel, cls="androidx.drawerlayout.widget.DrawerLayout",
                     id=fid("drawer_layout"), width=MATCH, height=MATCH)

    def _root_item(self, ctx: Context, c: Colors, root: Root) -> View:
        chosen = root.key == self.root_key
        summary = (ctx.t("files.free", size=native_digits(ctx.locale, FREE_SPACE))
                   if root is roots.DEVICE else "")
        return row(
            icon(root.icon, 24, icon_color=c.accent if chosen else c.secondary,
                 cls="android.widget.ImageView", id="android:id/icon",
                 gravity="center_vertical"),
            column(
                text(root_title(ctx, root), id="android:id/title", text_size=14,
                     font_weight=500, text_color=c.accent if chosen else c.text, max_lines=1),
                text(summary, id="android:id/summary", text_size=12, text_color=c.secondary,
                     visible=bool(summary)),
                width=0, weight=1, margin=(32, 0, 0, 0), gravity="center_vertical"),
            cls="com.android.documentsui.sidebar.RootItemView", height=48, clickable=True,
            focusable=True, selected=chosen, gravity="center_vertical", padding=(24, 0, 16, 0),
            bg=c.selected if chosen else None, on_click=lambda: self.pick_root(ctx, root))


def empty_listing(ctx: Context, c: Colors) -> View:
    """The directory's "No items" artwork and message."""
    return column(
        icon("folder_open", 96, icon_color=c.divider, gravity="center",
             cls="android.widget.ImageView", id=fid("artwork"), margin=(0, 96, 0, 16)),
        text(ctx.t("files.no_items"), id=fid("message"), text_size=16,
             text_color=c.secondary, gravity="center"),
        width=MATCH, height=MATCH)


def table_rows(ctx: Context) -> bool:
    """Whether list rows are one line of columns (name, summary, size, date), as DocumentsUI's
    `layout-sw720dp-land/item_doc_list.xml` has them on a large landscape screen (the
    tablet: 800 dp smallest width); the date column stays empty here (the documents carry no
    modification time)."""
    width, height = ctx.system.screen_dp()
    return ctx.system.smallest_width_dp() >= 720 and width > height


def list_row(ctx: Context, c: Colors, document: Document, on_click, on_long_click,
             enabled: bool = True, checked: bool = False) -> View:
    """ListDocumentHolder's row (`item_doc_list`): the type icon, the name and the size (a
    folder says so); a picker greys out, and ignores taps on, a file of a type it was not
    asked for. A selected row shows `icon_check` in place of the type icon."""
    glyph = "folder" if document.is_folder else {
        "image": "image", "video": "movie", "audio": "audio_file"}.get(
            document.mime.split("/")[0], "draft")
    details = ctx.t("files.open_folder") if document.is_folder else \
        native_digits(ctx.locale, roots.human_size(document.size))
    title = text(document.name, id="android:id/title", text_size=16,
                 text_color=c.text if enabled else c.secondary, max_lines=1)
    detail = text(details, id=fid("size" if not document.is_folder else "details"),
                  text_size=14, text_color=c.secondary)
    if table_rows(ctx):  # layout-sw720dp-land/item_doc_list.xml: one line of columns
        title.width, title.weight, title.margin = 0, 0.5, (0, 0, 12, 0)
        detail.width, detail.weight, detail.margin = 0, 0.25, (0, 0, 12, 0)
        if not document.is_folder:  # a file's size goes in the size column
            detail.weight, detail.align = 0.125, "end"
            words = row(title, View(cls="", width=0, weight=0.25), detail,
                        View(cls="", width=0, weight=0.125), width=0, weight=1,
                        margin=(32, 0, 16, 0), gravity="center_vertical")
        else:
            words = row(title, detail, View(cls="", width=0, weight=0.25), width=0, weight=1,
                        margin=(32, 0, 16, 0), gravity="center_vertical")
    else:
        words = column(title, detail, width=0, weight=1, margin=(32, 0, 16, 0),
                       gravity="center_vertical")
    return row(
        icon("check_circle" if checked else glyph, 24,
             icon_color=c.accent if checked else c.secondary, icon_filled=checked,
             cls="android.widget.ImageView", id=fid("icon_check" if checked else "icon_mime"),
             gravity="center_vertical", margin=(16, 0, 0, 0)),
        words,
        cls="android.widget.LinearLayout", id=fid("item_root"), width=MATCH, height=72,
        clickable=enabled, focusable=True, long_clickable=enabled, enabled=enabled,
        gravity="center_vertical", selected=checked, bg=c.selected if checked else None,
        on_click=on_click if enabled else None, on_long_click=on_long_click if enabled else None)

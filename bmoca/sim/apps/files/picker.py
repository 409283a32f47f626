"""The system file picker: DocumentsUI's `com.android.documentsui.picker.PickActivity`, which
an app starts for a result with ACTION_OPEN_DOCUMENT or ACTION_GET_CONTENT and a type
(Snapseed's "Open from device": `image/*`).

As on Android 10 (AOSP DocumentsUI, `picker/ActionHandler`, `BaseActivity`,
`dirlist/DirectoryAddonsAdapter`):
- it opens where this caller last picked from (`LastAccessedProvider`, one stack per calling
  package), else on Recent; restoring a folder logs its `Showing directory` line;
- the roots drawer is titled "Open from" and offers the roots that can hold the wanted type
  (for images: Recent, Images, Downloads and the storage, not Videos or Audio);
- under the toolbar a header names what is listed ("Recent images on phone", "Images on
  phone", "Images on Downloads", …, in capitals as `textAllCaps` shows it);
- picking images ("photo picking"), the listing is a grid: 3 × (the cells of 152 dp that fit,
  at least 2) columns, a photo spanning 2 of them and a folder 3 (three photos, two folders
  a row on a phone); otherwise the Files app's list rows;
- Recent lists only files of the wanted type; elsewhere the others are greyed out and
  cannot be picked;
- a tap on a file of the wanted type picks it: the stack is remembered for the caller and
  the activity finishes with RESULT_OK and the document's `content://` URI (read, write and
  persistable grants for OPEN_DOCUMENT, read for GET_CONTENT); BACK at the root finishes
  with RESULT_CANCELED;
- a long press on a file of the wanted type selects it (one at a time: the callers here do
  not ask for EXTRA_ALLOW_MULTIPLE) and the action mode offers Select
  (`action_menu_select`), which picks it as a tap does; folders cannot be selected, so a
  long press on one does nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bmoca.formats.locales import native_digits
from bmoca.sim.apps.base import Context
from bmoca.sim.apps.files import browser, roots
from bmoca.sim.apps.files.browser import PACKAGE, Browser, Colors, colors, fid, root_title
from bmoca.sim.apps.files.roots import Document, Root
from bmoca.sim.apps.longpress import Action
from bmoca.sim.render.images import thumbnail_painter
from bmoca.sim.system.intent import (
    ACTION_GET_CONTENT,
    FLAG_GRANT_PERSISTABLE_URI_PERMISSION,
    FLAG_GRANT_READ_URI_PERMISSION,
    FLAG_GRANT_WRITE_URI_PERMISSION,
    RESULT_OK,
    Intent,
)
from bmoca.sim.ui.view import MATCH, View, column, frame, icon, row, scroller, text

PICK = f"{PACKAGE}.picker.PickActivity"
GRID_WIDTH_DP = 152
"""`grid_width`: the cell the column count is worked out from."""
GRID_ITEM_MARGIN_DP = 6
"""`grid_item_margin`, on each side of a cell when counting columns."""
GRID_PADDING_DP = 4
"""`grid_padding_horiz` / `grid_padding_vert` around the grid."""
PHOTO_SPAN, FOLDER_SPAN = 2, 3


@dataclass
class PickerData:
    """DocumentsUI's own data: `LastAccessedProvider`'s stacks."""

    last_accessed: dict[str, tuple[str, tuple[Document, ...]]] = field(default_factory=dict)
    """Calling package -> the root key and the folders opened in it when it last picked."""


class PickActivity(Browser):
    def __init__(self, intent: Intent):
        super().__init__(intent)
        self.accept = intent.mime_type or "*/*"

    @property
    def photo_picking(self) -> bool:
        """State.isPhotoPicking: every wanted type is an image type."""
        return self.accept.startswith("image/")

    def offered_roots(self) -> Sequence[Root]:
        return [r for r in roots.ROOTS if roots.root_accepts(r, self.accept)]

    def drawer_title(self, ctx: Context) -> str:
        return ctx.t("files.open_from")

    def on_create(self, ctx: Context) -> None:
        """initLocation: the caller's last accessed stack when its folders still exist,
        else the default location (Recent for OPEN_DOCUMENT and GET_CONTENT)."""
        saved = ctx.data.last_accessed.get(ctx.calling_package or "")
        if saved is None:
            return
        root_key, stack = saved
        vfs = ctx.system.state.vfs
        if root_key in {r.key for r in self.offered_roots()} and all(
                vfs.is_dir(d.path) for d in stack):
            self.root_key, self.stack = root_key, list(stack)
            self.show(ctx)

    # -- picking ------------------------------------------------------------------------
    def wanted(self, document: Document) -> bool:
        return document.is_folder or roots.mime_matches(self.accept, document.mime)

    def listing(self, ctx: Context) -> list[Document]:
        documents = super().listing(ctx)
        if self.root is roots.RECENT:  # RecentsLoader asks the roots for the wanted types only
            return [d for d in documents if self.wanted(d)]
        return documents

    def open_file(self, ctx: Context, document: Document) -> None:
        """ActionHandler.finishPicking: remember the stack, hand the URI back, finish."""
        if not self.wanted(document):
            return
        if ctx.calling_package is not None:
            ctx.data.last_accessed[ctx.calling_package] = (self.root_key, tuple(self.stack))
        grants = FLAG_GRANT_READ_URI_PERMISSION
        if self.intent.action != ACTION_GET_CONTENT:
            grants |= FLAG_GRANT_WRITE_URI_PERMISSION | FLAG_GRANT_PERSISTABLE_URI_PERMISSION
        ctx.set_result(RESULT_OK, Intent(data=document.uri, flags=grants))
        ctx.finish()

    def selectable(self, document: Document) -> bool:
        """DocsSelectionPredicate: a file of a wanted type; never a folder when opening."""
        return not document.is_folder and self.wanted(document)

    def long_press(self, document: Document) -> None:
        """Single selection: the long-pressed file replaces the one selected before."""
        if self.selectable(document):
            self.selected = () if document.uri in self.selected else (document.uri,)

    def selection_actions(self, ctx: Context, chosen: list[Document]) -> list[Action]:
        # action_mode_menu.xml gives Select a title and no icon: the item shows its title,
        # so ActionMenuItemView sets no tooltip and a long press clicks it on release.
        return [Action("check", ctx.t("files.select"), fid("action_menu_select"),
                       lambda: self.open_file(ctx, chosen[0]), tooltip=False)]

    # -- screens ------------------------------------------------------------------------
    def header(self, ctx: Context) -> str:
        """BaseActivity.updateHeaderTitle, for the root (a folder inside keeps it)."""
        t, root = ctx.t, self.root
        images = self.photo_picking
        if root is roots.RECENT:
            return t("files.header_image_recent" if images else "files.header_recent")
        if root in (roots.IMAGES, roots.VIDEOS, roots.AUDIO):
            return t("files.header_media", label=root_title(ctx, root))
        return t("files.header_image_storage" if images else "files.header_storage",
                 device=root_title(ctx, root))

    def build(self, ctx: Context) -> View:
        c = colors(ctx)
        documents = self.listing(ctx)
        if not documents:
            listing = browser.empty_listing(ctx, c)
        elif self.photo_picking:
            listing = self._grid(ctx, c, documents)
        else:
            listing = scroller(*(browser.list_row(ctx, c, d, self._opener(ctx, d),
                                                  self._long_press(d), enabled=self.wanted(d),
                                                  checked=d.uri in self.selected)
                                 for d in documents),
                               key=self._key(), cls="androidx.recyclerview.widget.RecyclerView",
                               id=fid("dir_list"), width=MATCH, height=MATCH,
                               padding=(0, 8, 0, 8))
        header = row(text(self.header(ctx).upper(), id=fid("header_title"), text_size=14,
                          font_weight=500, text_color=c.secondary, width=0, weight=1,
                          gravity="center_vertical", max_lines=1),
                     cls="android.widget.LinearLayout", width=MATCH, height=60,
                     margin=(24, 0, 24, 0))
        directory = frame(listing, cls="android.widget.FrameLayout",
                          id=fid("container_directory"), width=MATCH, height=0, weight=1,
                          bg=c.background)
        screen = column(self.toolbar(ctx, c), header, directory, width=MATCH, height=MATCH,
                        bg=c.background)
        return self.with_drawer(ctx, c, screen)

    def _key(self) -> str:
        return f"files:pick:{self.root_key}:{len(self.stack)}"

    def _opener(self, ctx: Context, document: Document):
        return lambda: self.tap(ctx, document)

    def _long_press(self, document: Document):
        return lambda: self.long_press(document)

    def _grid(self, ctx: Context, c: Colors, documents: list[Document]) -> View:
        """The photo-picking grid: folders first, two (or more) a row, then the files."""
        width = ctx.system.screen_dp()[0] - 2 * GRID_PADDING_DP
        units = max(2, int(width // (GRID_WIDTH_DP + 2 * GRID_ITEM_MARGIN_DP)))
        columns = 3 * units
        folders = [d for d in documents if d.is_folder]
        files = [d for d in documents if not d.is_folder]
        rows: list[View] = []
        for items, span, cell in ((folders, FOLDER_SPAN, self._folder_cell),
                                  (files, PHOTO_SPAN, self._photo_cell)):
            per_row = columns // span
            side = width * span / columns - 8  # a photo is square inside its 4 dp margins
            for i in range(0, len(items), per_row):
                cells = [cell(ctx, c, d, span, side) for d in items[i:i + per_row]]
                left = columns - span * len(cells)
                if left:
                    cells.append(View(cls="", width=0, weight=left, height=1))
                rows.append(row(*cells, cls="", width=MATCH))
        return scroller(*rows, key=self._key(), cls="androidx.recyclerview.widget.RecyclerView",
                        id=fid("dir_list"), width=MATCH, height=MATCH,
                        padding=(GRID_PADDING_DP,) * 4)

    def _folder_cell(self, ctx: Context, c: Colors, document: Document, span: int,
                     side: float) -> View:
        """GridDirectoryHolder (`item_dir_grid`): a 48 dp card, the folder icon and name."""
        return _cell(span, frame(
            row(icon("folder", 24, icon_color=c.secondary, cls="android.widget.ImageView",
                     id=fid("icon_mime_sm"), gravity="center_vertical", margin=(12, 0, 12, 0)),
                text(document.name, id="android:id/title", text_size=14, font_weight=500,
                     text_color=c.text, width=0, weight=1, gravity="center_vertical",
                     margin=(0, 0, 12, 0)),
                cls="android.widget.LinearLayout", width=MATCH, height=48,
                gravity="center_vertical"),
            cls="android.widget.FrameLayout", id=fid("item_root"), width=MATCH, corner=8,
            border=c.divider, bg=c.background, clickable=True, focusable=True,
            long_clickable=True, on_click=self._opener(ctx, document),
            on_long_click=self._long_press(document)))

    def _photo_cell(self, ctx: Context, c: Colors, document: Document, span: int,
                    side: float) -> View:
        """GridPhotoHolder (`item_photo_grid`): the square centre-cropped thumbnail; the item
        is described by the file's name and size. Another type shows its icon, greyed."""
        enabled = self.wanted(document)
        checked = document.uri in self.selected
        image = document.mime.startswith("image/")
        size = native_digits(ctx.locale, roots.human_size(document.size))
        thumb = View(cls="com.android.documentsui.GridItemThumbnail", id=fid("icon_thumb"),
                     width=MATCH, height=side,
                     draw=thumbnail_painter(ctx.system.state.vfs, document.path)) if image \
            else icon("draft", 48, icon_color=c.divider, cls="com.android.documentsui."
                      "GridItemThumbnail", id=fid("icon_mime_lg"), width=MATCH, height=side,
                      gravity="center")
        return _cell(span, frame(
            frame(thumb, cls="android.widget.FrameLayout", id=fid("thumbnail"), width=MATCH),
            icon("check_circle", 32, icon_color=c.accent, icon_filled=True, cls="",
                 gravity="end|top", margin=(0, 8, 8, 0)) if checked else None,
            cls="android.widget.LinearLayout", desc=f"{document.name}, {size}", width=MATCH,
            bg=c.divider, elevation=2, corner=2, clickable=enabled, focusable=True,
            long_clickable=enabled, enabled=enabled, selected=checked,
            on_click=self._opener(ctx, document) if enabled else None,
            on_long_click=self._long_press(document) if enabled else None))


def _cell(span: int, item: View) -> View:
    """A grid cell `span` columns wide holding an item inside its 4 dp margins."""
    return frame(item, cls="", width=0, weight=span, padding=(4, 4, 4, 4))

"""Contacts (`com.android.contacts`, AOSP Contacts on Android 10).

Screens: the list (`PeopleActivity`: toolbar with drawer and search, favourites first,
then letter sections, the FAB that opens the editor), the contact card
(`QuickContactActivity`: header, phone and email rows, star and edit actions), the
trampoline `ContactEditorSpringBoardActivity` and the editor (`ContactEditorActivity`,
create and edit). Everything is read from and written to the shared contacts store
(`bmoca.sim.system.contacts`, a real contacts2.db), so Phone and Messages see the changes.

The START lines are AOSP's (reference §1.1): the FAB sends ACTION_INSERT on the contacts
URI with the package set; the pencil sends ACTION_EDIT on the lookup URI to the
springboard, which forwards it (FLAG_ACTIVITY_FORWARD_RESULT, package set) to the editor.
The editor's field ids (`first_name`, ...) are ours [I]: AOSP generates them at run time.
"""

from __future__ import annotations

from dataclasses import dataclass

from bmoca.formats.phone_numbers import format_as_you_type, is_phone_number, number_direction
from bmoca.sim.apps.base import Activity, App, Context
from bmoca.sim.apps.contacts.ui import (
    icon_button,
    ime_inset,
    initial,
    letter_tile,
    overflow_button,
    tile_color,
)
from bmoca.sim.apps.longpress import (
    Action,
    action_bar,
    delete_confirmation,
    focus_field,
    leave_selection,
    toggled,
)
from bmoca.sim.apps.messages import app as messages
from bmoca.sim.render.painter import place_text
from bmoca.sim.system import contacts as store
from bmoca.sim.system.intent import FLAG_ACTIVITY_FORWARD_RESULT, FLAG_ACTIVITY_NEW_TASK, Intent
from bmoca.sim.ui.view import MATCH, WRAP, Color, View, column, frame, icon, row, scroller, text

PACKAGE = "com.android.contacts"
PEOPLE = "com.android.contacts.activities.PeopleActivity"
QUICK_CONTACT = "com.android.contacts.quickcontact.QuickContactActivity"
SPRINGBOARD = "com.android.contacts.activities.ContactEditorSpringBoardActivity"
EDITOR = "com.android.contacts.activities.ContactEditorActivity"
SELECTION = "com.android.contacts.activities.ContactSelectionActivity"
ACTION_INSERT = "android.intent.action.INSERT"
ACTION_INSERT_OR_EDIT = "android.intent.action.INSERT_OR_EDIT"
ACTION_EDIT = "android.intent.action.EDIT"
ACTION_QUICK_CONTACT = "android.provider.action.QUICK_CONTACT"
CONTENT_URI = "content://com.android.contacts/contacts"
FLAG_ACTIVITY_CLEAR_WHEN_TASK_RESET = 0x00080000
FAVORITES_HEADER = "\u2606"
"""The section header above starred contacts (a white star, as AOSP's indexer labels it)."""


def cid(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


@dataclass(frozen=True)
class Colors:
    bar: Color
    bar_text: Color
    background: Color
    text: Color
    secondary: Color
    fab: Color
    divider: Color
    accent: Color
    field_line: Color


def colors(ctx: Context) -> Colors:
    """AOSP Contacts' palette: blue `primary_color` bar and a pink-red FAB (dark: grey)."""
    if ctx.theme.dark:
        return Colors(bar=(41, 42, 45), bar_text=(232, 234, 237), background=(32, 33, 36),
                      text=(232, 234, 237), secondary=(154, 160, 166), fab=(242, 139, 130),
                      divider=(60, 64, 67), accent=(138, 180, 248), field_line=(95, 99, 104))
    return Colors(bar=(42, 86, 198), bar_text=(255, 255, 255), background=(255, 255, 255),
                  text=(33, 33, 33), secondary=(117, 117, 117), fab=(216, 27, 96),
                  divider=(224, 224, 224), accent=(42, 86, 198), field_line=(189, 189, 189))


def contact_id_of(uri: str | None) -> int | None:
    """The contact id at the end of a lookup URI (…/lookup/<key>/<id>)."""
    if not uri:
        return None
    tail = uri.rstrip("/").rsplit("/", 1)[-1]
    return int(tail) if tail.isdigit() else None


def open_contact(ctx: Context, contact: store.Contact) -> None:
    """QuickContact.showQuickContact, as the list and the editor's save start it."""
    ctx.start_activity(Intent(action=ACTION_QUICK_CONTACT, data=contact.lookup_uri,
                              flags=FLAG_ACTIVITY_NEW_TASK | FLAG_ACTIVITY_CLEAR_WHEN_TASK_RESET,
                              component=(PACKAGE, QUICK_CONTACT),
                              extras={"android.provider.extra.MODE": 3}))


def new_contact(ctx: Context, number: str = "") -> None:
    """IntentUtil.getNewContactIntent, as the Dialer sends it: ACTION_INSERT on the contacts
    URI, with the typed number as the `phone` extra."""
    ctx.start_activity(Intent(action=ACTION_INSERT, data=CONTENT_URI,
                              flags=FLAG_ACTIVITY_NEW_TASK,
                              extras={"phone": number} if number else {}))


def add_to_contact(ctx: Context, number: str) -> None:
    """IntentUtil.getAddToExistingContactIntent: INSERT_OR_EDIT on a contact item, which
    opens the "Choose a contact" picker."""
    ctx.start_activity(Intent(action=ACTION_INSERT_OR_EDIT,
                              mime_type="vnd.android.cursor.item/contact",
                              flags=FLAG_ACTIVITY_NEW_TASK, extras={"phone": number}))


def _toolbar(ctx: Context, c: Colors, *parts: View, bg: Color | None = None) -> View:
    return row(*parts, cls="android.view.ViewGroup", id=cid("toolbar"), height=56,
               bg=c.bar if bg is None else bg, padding=(4, 0, 4, 0), gravity="center_vertical",
               elevation=4)


def _title(value: str, color: Color, view_id: str = "") -> View:
    return text(value, id=view_id, text_size=20, font_weight=500, text_color=color, width=0,
                weight=1, gravity="center_vertical", margin=(20, 0, 0, 0))


# -- the list -----------------------------------------------------------------------------


class PeopleActivity(Activity):
    """The contact list, with the navigation drawer, the search mode and the selection mode.

    A long press on a row starts the selection mode (MultiSelectContactsListFragment.
    onItemLongClick): the row's contact is checked, check boxes show at the rows' end, and
    the toolbar becomes `selection_bar` (`selection_close`, `selection_count_text`, Share
    and Delete). Taps then check and uncheck contacts instead of opening them; unchecking
    the last one, the close button or BACK leaves the mode. Delete asks first
    (ContactMultiDeletionInteraction: "Delete this contact?") and deletes the checked
    contacts. Share is drawn but not simulated (it opens the system chooser)."""

    def status_bar_color(self, night: bool) -> tuple[int, int, int] | None:
        """AOSP Contacts' primary_color_dark above its blue toolbar (light theme), and
        `contextual_selection_bar_status_bar_color` above the selection bar."""
        if night:
            return None
        return (186, 186, 186) if self.selected else (28, 58, 169)

    def __init__(self, intent: Intent):
        super().__init__(intent)
        self.query: str | None = None
        """None: browsing; a string: the search field is open with this text."""
        self.drawer = False
        self.selected: tuple[int, ...] = ()
        """The contacts checked in the selection mode (the mode lasts while any is)."""
        self.confirm_delete = False

    def on_back(self, ctx: Context) -> bool:
        if self.drawer:
            self.drawer = False
            return True
        if leave_selection(self):
            return True
        if self.query is not None:
            self.query = None
            return True
        return False

    def _start_search(self, ctx: Context) -> None:
        self.query = ""
        if ctx.record is not None:
            ctx.record.focus = cid("search_view")

    def _create(self, ctx: Context, extras: dict | None = None) -> None:
        """AccountFilterUtil.startEditorIntent: ACTION_INSERT, package set, no extras (the
        picker passes on its own)."""
        ctx.start_activity(Intent(action=ACTION_INSERT, data=CONTENT_URI, package=PACKAGE,
                                  component=(PACKAGE, EDITOR), extras=extras or {}))

    def build(self, ctx: Context) -> View:
        c = colors(ctx)
        t = ctx.t
        if self.selected:
            bar = self._selection_bar(ctx, c)
        elif self.query is None:
            bar = _toolbar(
                ctx, c,
                icon_button(ctx, "menu", t("contacts.open_drawer"), self._open_drawer,
                            c.bar_text, tooltip=True),
                _title(t(f"app.{PACKAGE}"), c.bar_text),
                icon_button(ctx, "search", t("contacts.search"),
                            lambda: self._start_search(ctx), c.bar_text, cid("menu_search"),
                            cls="android.widget.TextView", tooltip=True),
                overflow_button(ctx, t("contacts.more_options"), None, c.bar_text))
        else:
            def on_text(value: str) -> None:
                self.query = value

            bar = _toolbar(
                ctx, c,
                icon_button(ctx, "arrow_back", t("contacts.stop_search"),
                            lambda: setattr(self, "query", None), c.secondary,
                            cid("search_back_button")),
                View(cls="android.widget.EditText", id=cid("search_view"), text=self.query,
                     hint=t("contacts.search_hint"), text_size=18, text_color=c.text, width=0,
                     weight=1, height=48, clickable=True, focusable=True, long_clickable=True,
                     on_text=on_text, on_long_click=focus_field(ctx, cid("search_view")),
                     ime_action="search", gravity="center_vertical", padding=(12, 0, 8, 0)),
                bg=c.background)
        body = frame(self._list(ctx, c),
                     self._fab(ctx, c) if self.query is None and not self.selected else None,
                     cls="android.widget.FrameLayout", id=cid("contacts_list_container"),
                     width=MATCH, height=0, weight=1, bg=c.background)
        screen = column(bar, body, ime_inset(ctx, (cid("search_view"),)), width=MATCH,
                        height=MATCH, bg=c.background)
        if not self.drawer:
            return screen
        return frame(screen, self._drawer(ctx, c), width=MATCH, height=MATCH)

    def _open_drawer(self) -> None:
        self.drawer = True

    def _matches(self, contact: store.Contact) -> bool:
        q = (self.query or "").strip().casefold()
        if not q:
            return True
        if q in contact.display_name.casefold():
            return True
        wanted = store.digits(q)
        return bool(wanted) and wanted == q.replace(" ", "").replace("-", "") and any(
            wanted in store.digits(p.number) for p in contact.phones)

    def _list(self, ctx: Context, c: Colors) -> View:
        everyone = store.all_contacts(ctx.system.state.vfs)
        shown = [p for p in everyone if self._matches(p)]
        if not everyone:
            return column(
                frame(icon("import_contacts", 72, icon_color=(189, 189, 189), gravity="center",
                           cls=""),
                      cls="android.widget.ImageView", width=160, height=160, corner=80,
                      bg=(224, 224, 224) if not ctx.theme.dark else (60, 64, 67),
                      gravity="center", margin=(0, 96, 0, 24)),
                text(ctx.t("contacts.empty"), id=cid("message"), text_size=16,
                     text_color=c.secondary, gravity="center"),
                width=MATCH, height=MATCH)
        rows: list[View] = []
        if self.query:
            rows.append(text(ctx.t("contacts.found", count=len(shown)), text_size=14,
                             text_color=c.accent, font_weight=500, width=MATCH,
                             padding=(16, 16, 16, 8)))
        ordered = ([p for p in shown if p.starred] if not self.query else []) + \
            [p for p in shown if self.query or not p.starred]
        previous = None
        for i, person in enumerate(ordered):
            starred_section = not self.query and person.starred
            section = FAVORITES_HEADER if starred_section else (initial(person.display_name)
                                                                 or "#")
            if starred_section and i > 0 and previous == FAVORITES_HEADER:
                section_shown = ""
            else:
                section_shown = section if section != previous else ""
            previous = section
            rows.append(self._row(ctx, c, person, section_shown))
        return scroller(*rows, key="contacts", cls="android.widget.ListView",
                        id="android:id/list", width=MATCH, height=MATCH,
                        padding=(0, 8, 0, 88))

    def _row(self, ctx: Context, c: Colors, person: store.Contact, section: str) -> View:
        checked = person.id in self.selected
        return row(
            text(section, text_size=18 if section != FAVORITES_HEADER else 22, font_weight=500,
                 text_color=c.accent, width=56, height=56, align="center",
                 cls="android.widget.TextView" if section else ""),
            letter_tile(person.display_name, person.display_name, 40),
            text(person.display_name, id=cid("cliv_name_textview"), text_size=16,
                 text_color=c.text, width=0, weight=1, gravity="center_vertical",
                 margin=(16, 0, 16, 0)),
            View(cls="android.widget.CheckBox", checkable=True, checked=checked, width=48,
                 height=48, icon="check_box" if checked else "check_box_outline_blank",
                 icon_color=c.accent if checked else c.secondary, icon_filled=checked,
                 gravity="center_vertical") if self.selected else None,
            cls="android.view.ViewGroup", height=56, clickable=True, focusable=True,
            long_clickable=True, gravity="center_vertical", padding=(0, 0, 8, 0),
            on_click=lambda: self._tap(ctx, person),
            on_long_click=lambda: self._long_press(ctx, person))

    def _tap(self, ctx: Context, person: store.Contact) -> None:
        """onItemClick: in the selection mode a tap checks or unchecks the contact."""
        if self.selected:
            self.selected = toggled(self.selected, person.id)
        else:
            self._pick(ctx, person)

    def _long_press(self, ctx: Context, person: store.Contact) -> None:
        """onItemLongClick: start (or go on with) the selection, toggling this contact."""
        self.selected = toggled(self.selected, person.id)

    def _pick(self, ctx: Context, person: store.Contact) -> None:
        open_contact(ctx, person)

    def _selection_bar(self, ctx: Context, c: Colors) -> View:
        t = ctx.t
        dark = ctx.theme.dark
        fg = c.bar_text if dark else (117, 117, 117)

        def close() -> None:
            self.selected = ()

        def ask_delete() -> None:
            self.confirm_delete = True

        return action_bar(
            ctx, bar_id=cid("selection_bar"), close_id=cid("selection_close"),
            close_desc=t("contacts.close_selection"), on_close=close,
            title=str(len(self.selected)), title_id=cid("selection_count_text"),
            actions=[Action("share", t("contacts.share"), cid("menu_share"), None),
                     Action("delete", t("contacts.delete"), cid("menu_delete"), ask_delete)],
            bg=c.bar if dark else (246, 246, 246), fg=fg)

    def dialog(self, ctx: Context) -> View | None:
        """The deletion's confirmation (no title: the question is the message)."""
        t = ctx.t
        many = len(self.selected) > 1
        return delete_confirmation(
            ctx, self, "", t("contacts.delete_many" if many else "contacts.delete_one"),
            t("contacts.cancel"), t("contacts.delete"),
            lambda: store.delete(ctx.system.state.vfs, self.selected))

    def _fab(self, ctx: Context, c: Colors) -> View:
        return frame(
            icon("add", 24, icon_color=(255, 255, 255) if not ctx.theme.dark else (32, 33, 36),
                 gravity="center", cls=""),
            cls="android.widget.ImageButton", id=cid("floating_action_button"),
            desc=ctx.t("contacts.create_new"), width=56, height=56, corner=28, bg=c.fab,
            elevation=6, clickable=True, focusable=True, gravity="end|bottom",
            margin=(16, 16, 16, 16), on_click=lambda: self._create(ctx))

    def _drawer(self, ctx: Context, c: Colors) -> View:
        t = ctx.t

        def close() -> None:
            self.drawer = False

        def item(glyph: str, label: str, selected: bool = False) -> View:
            return row(icon(glyph, 24, icon_color=c.accent if selected else c.secondary,
                            gravity="center_vertical", cls=""),
                       text(label, id=cid("design_menu_item_text"), text_size=14,
                            font_weight=500, text_color=c.accent if selected else c.text,
                            width=0, weight=1, margin=(32, 0, 0, 0), gravity="center_vertical"),
                       cls="androidx.appcompat.widget.LinearLayoutCompat", height=48,
                       padding=(16, 0, 16, 0), clickable=True, focusable=True, selected=selected,
                       gravity="center_vertical", on_click=close,
                       bg=(c.accent[0], c.accent[1], c.accent[2], 36) if selected else None)

        panel = column(
            frame(text(t(f"app.{PACKAGE}"), text_size=20, font_weight=500, text_color=c.text,
                         gravity="start|bottom", margin=(16, 0, 16, 16)),
                  cls="android.widget.FrameLayout", width=MATCH, height=96),
            item("person", t(f"app.{PACKAGE}"), selected=True),
            View(cls="", width=MATCH, height=1, bg=c.divider, margin=(0, 8, 0, 8)),
            text(t("contacts.labels"), text_size=14, text_color=c.secondary,
                 padding=(16, 12, 16, 12)),
            item("add", t("contacts.create_label")),
            View(cls="", width=MATCH, height=1, bg=c.divider, margin=(0, 8, 0, 8)),
            item("settings", t("contacts.settings")),
            item("help", t("contacts.help")),
            cls="android.widget.FrameLayout", id=cid("nav_view"), width=304, height=MATCH,
            bg=c.background if not ctx.theme.dark else (41, 42, 45), elevation=16,
            gravity="start|top")
        scrim = View(cls="", width=MATCH, height=MATCH, bg=(0, 0, 0, 100), on_click=close)
        return frame(scrim, panel, cls="androidx.drawerlayout.widget.DrawerLayout",
                     id=cid("drawer_layout"), width=MATCH, height=MATCH)


class ContactSelectionActivity(PeopleActivity):
    """"Choose a contact" for INSERT_OR_EDIT: Create new contact, then the list; a pick opens
    the editor on that contact with the intent's extras (the number to add)."""

    def _long_press(self, ctx: Context, person: store.Contact) -> None:
        """The picker's list (ContactEntryListFragment) does not handle item long clicks:
        AbsListView then clicks the row when the finger lifts."""
        self._pick(ctx, person)

    def _pick(self, ctx: Context, person: store.Contact) -> None:
        ctx.finish()
        ctx.start_activity(Intent(action=ACTION_EDIT, data=person.lookup_uri, package=PACKAGE,
                                  component=(PACKAGE, EDITOR), extras=dict(self.intent.extras)))

    def _create(self, ctx: Context, extras: dict | None = None) -> None:
        ctx.finish()
        super()._create(ctx, dict(self.intent.extras))

    def build(self, ctx: Context) -> View:
        if self.query is not None:
            return super().build(ctx)
        c = colors(ctx)
        t = ctx.t
        bar = _toolbar(
            ctx, c,
            icon_button(ctx, "arrow_back", t("contacts.up"), ctx.finish, c.bar_text,
                        tooltip=True),
            _title(t("contacts.choose_contact"), c.bar_text),
            icon_button(ctx, "search", t("contacts.search"), lambda: self._start_search(ctx),
                        c.bar_text, cid("menu_search"), cls="android.widget.TextView",
                        tooltip=True))
        create = row(
            frame(icon("person_add", 24, icon_color=c.accent, gravity="center", cls=""),
                  cls="android.widget.ImageView", width=56, height=56),
            text(t("contacts.create_new"), text_size=16, text_color=c.text, width=0, weight=1,
                 gravity="center_vertical", margin=(16, 0, 16, 0)),
            cls="android.view.ViewGroup", id=cid("create_new_contact"), height=56,
            clickable=True, focusable=True, gravity="center_vertical",
            on_click=lambda: self._create(ctx))
        return column(bar, create, frame(self._list(ctx, c), width=MATCH, height=0, weight=1),
                      width=MATCH, height=MATCH, bg=c.background)


# -- the contact card ------------------------------------------------------------------------


class QuickContactActivity(Activity):
    """QuickContactActivity: the contact's header, phones and emails, star and edit."""

    def __init__(self, intent: Intent):
        super().__init__(intent)
        self.contact_id = contact_id_of(intent.data)

    def _contact(self, ctx: Context) -> store.Contact | None:
        if self.contact_id is None:
            return None
        return store.get(ctx.system.state.vfs, self.contact_id)

    def _toggle_star(self, ctx: Context) -> None:
        contact = self._contact(ctx)
        if contact is not None:
            store.update(ctx.system.state.vfs, store.Contact(
                contact.id, contact.lookup, contact.given, contact.family, contact.phones,
                contact.emails, not contact.starred))

    def _edit(self, ctx: Context) -> None:
        contact = self._contact(ctx)
        if contact is not None:
            ctx.start_activity(Intent(action=ACTION_EDIT, data=contact.lookup_uri,
                                      component=(PACKAGE, SPRINGBOARD),
                                      extras={"finishActivityOnSaveCompleted": True}))

    def build(self, ctx: Context) -> View:
        c = colors(ctx)
        t = ctx.t
        contact = self._contact(ctx)
        if contact is None:
            return column(_toolbar(ctx, c, icon_button(ctx, "arrow_back", t("contacts.up"),
                                                       ctx.finish, c.bar_text, tooltip=True)),
                          width=MATCH, height=MATCH, bg=c.background)
        name = contact.display_name
        header_color = tile_color(name)
        white = (255, 255, 255)
        bar = row(
            icon_button(ctx, "arrow_back", t("contacts.up"), ctx.finish, white, tooltip=True),
            View(cls="", width=0, weight=1),
            icon_button(ctx, "star" if contact.starred else "star_border",
                        t("contacts.unstar") if contact.starred else t("contacts.star"),
                        lambda: self._toggle_star(ctx), white, cid("menu_star"),
                        cls="android.widget.TextView", filled=contact.starred, tooltip=True),
            icon_button(ctx, "edit", t("contacts.edit"), lambda: self._edit(ctx), white,
                        cid("menu_edit"), cls="android.widget.TextView", tooltip=True),
            overflow_button(ctx, t("contacts.more_options"), None, white),
            cls="android.view.ViewGroup", id=cid("toolbar"), height=56, padding=(4, 0, 4, 0),
            gravity="center_vertical")
        letter = initial(name)
        header = frame(
            text(letter, text_size=96, text_color=(255, 255, 255, 170), width=MATCH,
                 height=MATCH, align="center", cls="", draw=_paint_letter) if letter else
            icon("person", 120, icon_color=(255, 255, 255, 170), icon_filled=True,
                 gravity="center", cls=""),
            column(bar, cls="android.widget.FrameLayout", width=MATCH, height=WRAP),
            text(name, id=cid("large_title"), text_size=28, text_color=white, width=MATCH,
                 max_lines=2, gravity="start|bottom", padding=(72, 0, 16, 20)),
            cls="android.widget.FrameLayout", id=cid("photo_touch_intercept_overlay"),
            width=MATCH, height=220, bg=header_color)
        entries: list[View] = []
        for i, phone in enumerate(contact.phones):
            entries.append(self._entry(ctx, c, "call" if i == 0 else None, phone.number,
                                       t(f"contacts.type.{phone.type}"), "message",
                                       t("contacts.send_message"),
                                       self._call(ctx, phone.number),
                                       self._text_to(ctx, phone.number)))
        if contact.phones and contact.emails:
            entries.append(View(cls="", width=MATCH, height=1, bg=c.divider,
                                margin=(72, 8, 0, 8)))
        for i, email in enumerate(contact.emails):
            entries.append(self._entry(ctx, c, "email" if i == 0 else None, email,
                                       t("contacts.type.1"), None, "", None, None))
        card = column(*entries, cls="androidx.cardview.widget.CardView", id=cid("communication_card"),
                      width=MATCH, height=WRAP, padding=(0, 8, 0, 8), bg=c.background,
                      elevation=2, margin=(0, 8, 0, 8))
        return column(header, scroller(card, key="card", cls="android.widget.ScrollView",
                                       id=cid("content_scroller"), height=0, weight=1),
                      width=MATCH, height=MATCH,
                      bg=(238, 238, 238) if not ctx.theme.dark else (24, 24, 24))

    def _entry(self, ctx: Context, c: Colors, glyph: str | None, header: str, sub: str,
               end_glyph: str | None, end_desc: str, on_click, on_end) -> View:
        return row(
            frame(icon(glyph, 24, icon_color=c.secondary, gravity="center", cls="")
                  if glyph else None, cls="android.widget.ImageView" if glyph else "",
                  id=cid("icon") if glyph else "", width=72, height=WRAP,
                  gravity="center_vertical"),
            column(text(header, id=cid("header"), text_size=16, text_color=c.text, width=MATCH,
                        text_direction=number_direction(header)),
                   text(sub, id=cid("sub_header"), text_size=14, text_color=c.secondary,
                        width=MATCH),
                   cls="android.widget.LinearLayout", width=0, weight=1, height=WRAP,
                   gravity="center_vertical", padding=(0, 12, 0, 12)),
            icon_button(ctx, end_glyph, end_desc, on_end, c.secondary, cid("icon_alternate"),
                        cls="android.widget.ImageView") if end_glyph else None,
            cls="android.widget.RelativeLayout", id=cid("entry"), height=WRAP,
            padding=(0, 0, 12, 0), clickable=on_click is not None, focusable=True,
            on_click=on_click, gravity="center_vertical")

    @staticmethod
    def _call(ctx: Context, number: str):
        return lambda: ctx.start_activity(Intent(
            action="android.intent.action.CALL", data=f"tel:{store.digits(number)}",
            flags=FLAG_ACTIVITY_NEW_TASK))

    @staticmethod
    def _text_to(ctx: Context, number: str):
        return lambda: messages.compose_to(ctx, number)


# -- editing --------------------------------------------------------------------------------


class SpringBoardActivity(Activity):
    """ContactEditorSpringBoardActivity: forwards an EDIT to the editor and finishes."""

    def on_create(self, ctx: Context) -> None:
        ctx.start_activity(Intent(action=ACTION_EDIT, data=self.intent.data,
                                  flags=FLAG_ACTIVITY_FORWARD_RESULT, package=PACKAGE,
                                  component=(PACKAGE, EDITOR), extras=dict(self.intent.extras)))
        ctx.finish()

    def build(self, ctx: Context) -> View:
        return frame(width=MATCH, height=MATCH)


FIELDS = ("first_name", "last_name", "phone", "email")
PHONE_FIELDS = ("phone", "new_phone")
"""The phone row, and the row a number to add (the Dialer's Add to a contact) gets."""


class ContactEditorActivity(Activity):
    """Create new contact / Edit contact: name, phone and email fields, Save and Cancel."""

    def __init__(self, intent: Intent):
        super().__init__(intent)
        self.contact_id = contact_id_of(intent.data) if intent.action == ACTION_EDIT else None
        self.values: dict[str, str] = dict.fromkeys(FIELDS, "")
        self.loaded = False

    @property
    def inserting(self) -> bool:
        return self.contact_id is None

    def on_create(self, ctx: Context) -> None:
        given = _formatted(str(self.intent.extras.get("phone", "")))  # the Dialer's number
        if self.contact_id is not None:
            contact = store.get(ctx.system.state.vfs, self.contact_id)
            if contact is not None:
                self.values.update(first_name=contact.given, last_name=contact.family,
                                   phone=contact.phones[0].number if contact.phones else "",
                                   email=contact.emails[0] if contact.emails else "")
        elif ctx.record is not None:
            ctx.record.focus = cid("first_name")
        if given:  # into the phone row, or a new row after a number the contact has
            self.values["new_phone" if self.values["phone"] else "phone"] = given

    def _save(self, ctx: Context) -> None:
        vfs = ctx.system.state.vfs
        given, family = self.values["first_name"].strip(), self.values["last_name"].strip()
        number, email = self.values["phone"].strip(), self.values["email"].strip()
        if self.inserting:
            if not (given or family or number or email):
                ctx.finish()  # nothing typed: AOSP discards the empty contact
                return
            made = store.insert(vfs, given, family,
                                [store.Phone(store.format_number(number))] if number else [],
                                [email] if email else [])
            ctx.finish()
            open_contact(ctx, made)
            return
        contact = store.get(vfs, self.contact_id) if self.contact_id is not None else None
        if contact is not None:
            phones = list(contact.phones)
            if number:
                kept_type = phones[0].type if phones else store.TYPE_MOBILE
                new = store.Phone(number if phones and number == phones[0].number
                                  else store.format_number(number), kept_type)
                phones[:1] = [new]
            else:
                phones = phones[1:]
            added = self.values.get("new_phone", "").strip()
            if added:
                phones.append(store.Phone(store.format_number(added)))
            emails = list(contact.emails)
            emails[:1] = [email] if email else []
            store.update(vfs, store.Contact(contact.id, contact.lookup, given, family,
                                            tuple(phones), tuple(emails), contact.starred))
        ctx.finish()

    def build(self, ctx: Context) -> View:
        c = colors(ctx)
        t = ctx.t
        bar = _toolbar(
            ctx, c,
            icon_button(ctx, "close", t("contacts.cancel"), ctx.finish, c.bar_text,
                        tooltip=True),
            _title(t("contacts.create_title") if self.inserting else t("contacts.edit_title"),
                   c.bar_text),
            text(t("contacts.save"), id=cid("editor_menu_save_button"), cls="android.widget.Button",
                 text_size=14, font_weight=500, text_color=c.bar_text, height=48,
                 padding=(12, 0, 12, 0), align="center", clickable=True, focusable=True,
                 gravity="center_vertical", on_click=lambda: self._save(ctx)))
        name = (self.values["first_name"] + " " + self.values["last_name"]).strip()
        tile = letter_tile(name, name, 72, text_size=32)
        tile.gravity = "center"
        avatar = frame(tile if name else
                       frame(icon("person", 48, icon_color=(255, 255, 255), icon_filled=True,
                                  gravity="center", cls=""),
                             cls="android.widget.ImageView", width=72, height=72, corner=36,
                             bg=(189, 189, 189), gravity="center"),
                       cls="android.widget.FrameLayout", width=MATCH, height=WRAP,
                       padding=(0, 24, 0, 16))
        fields = column(
            avatar,
            self._field(ctx, c, "person", "first_name", t("contacts.first_name")),
            self._field(ctx, c, None, "last_name", t("contacts.last_name")),
            self._field(ctx, c, "call", "phone", t("contacts.phone")),
            self._field(ctx, c, None, "new_phone", t("contacts.phone"))
            if "new_phone" in self.values else None,
            self._field(ctx, c, "email", "email", t("contacts.email")),
            cls="android.widget.LinearLayout", id=cid("editors"), width=MATCH, height=WRAP,
            padding=(0, 0, 16, 24))
        return column(bar, scroller(fields, key="editor", cls="android.widget.ScrollView",
                                    id=cid("contact_editor_fragment"), height=0, weight=1),
                      ime_inset(ctx, tuple(cid(f) for f in self.values)),
                      width=MATCH, height=MATCH, bg=c.background)

    def _field(self, ctx: Context, c: Colors, glyph: str | None, key: str, hint: str) -> View:
        def on_text(value: str) -> None:
            self.values[key] = _formatted(value) if key in PHONE_FIELDS else value

        return row(
            frame(icon(glyph, 24, icon_color=c.secondary, gravity="center", cls="")
                  if glyph else None, cls="", width=72, height=56),
            View(cls="android.widget.EditText", id=cid(key), text=self.values[key], hint=hint,
                 text_size=16, text_color=c.text, width=0, weight=1, height=48,
                 clickable=True, focusable=True, long_clickable=True, on_text=on_text,
                 on_long_click=focus_field(ctx, cid(key)), gravity="center_vertical",
                 padding=(4, 0, 4, 0),
                 input_type="phone" if key in PHONE_FIELDS else "text"),
            height=WRAP, gravity="center_vertical", padding=(0, 4, 0, 4))

    def on_back(self, ctx: Context) -> bool:
        return False  # the simulator discards unsaved edits, as Cancel does


def _formatted(number: str) -> str:
    """PhoneNumberFormattingTextWatcher on the phone field: the dialpad's US formatting while
    the text is a dial string with separators, the text as typed otherwise."""
    return format_as_you_type(number) if is_phone_number(number) else number


class ContactsApp(App):
    package = PACKAGE
    label_key = f"app.{PACKAGE}"
    uid = 10079
    activities = {PEOPLE: PeopleActivity, QUICK_CONTACT: QuickContactActivity,
                  SPRINGBOARD: SpringBoardActivity, EDITOR: ContactEditorActivity,
                  SELECTION: ContactSelectionActivity}
    intent_actions = {ACTION_INSERT: EDITOR, ACTION_EDIT: SPRINGBOARD,
                      ACTION_QUICK_CONTACT: QUICK_CONTACT, ACTION_INSERT_OR_EDIT: SELECTION}

    def on_boot(self, ctx: Context) -> None:
        store.ensure(ctx.system.state.vfs)


def _paint_letter(canvas, view: View) -> None:
    """The header's letter is Android's LetterTileDrawable, an image under the name, not a
    label: painted as a drawing, so the layout checks do not read it as text."""
    sprite, x, y = place_text(view, view.text, view.text_color, canvas.scale,
                              canvas.font_scale, canvas.locale, canvas.rtl, None)
    canvas.paste(sprite, x, y, view.clip)

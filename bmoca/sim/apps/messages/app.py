"""Messages (`com.google.android.apps.messaging`, Google Messages as on the Android 10 image).

Screens: the conversation list (`.ui.ConversationListActivity`: rows with avatar, name,
snippet and date, search, the `start_chat_fab`), and `ConversationActivity`, which like
AOSP Messaging (Bugle, the app's open-source ancestor) shows either the recipient picker
(`recipient_text_view` over the contacts) or a conversation (bubbles, `compose_message_text`,
`send_message_button_icon`). Conversations and messages live in the real `mmssms.db`
(`bmoca.sim.system.telephony`); names come from the shared contacts store.

Choosing a recipient after "Start chat" (a contact row, or a number and the keyboard's
action key) creates the conversation and logs
`I BugleUsageStatistics: BUGLE CREATE CONVERSATION source=VIA_DEFAULT` (reference §1.12 [I]).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from bmoca.formats.phone_numbers import number_direction
from bmoca.sim.apps.base import Activity, App, Context
from bmoca.sim.apps.contacts.ui import icon_button, ime_inset, letter_tile, overflow_button
from bmoca.sim.apps.longpress import (
    Action,
    action_bar,
    delete_confirmation,
    focus_field,
    leave_selection,
    toggled,
)
from bmoca.sim.system import contacts as store
from bmoca.sim.system import telephony
from bmoca.sim.system.intent import FLAG_ACTIVITY_NEW_TASK, Intent
from bmoca.sim.ui.view import MATCH, WRAP, Color, View, column, frame, icon, row, scroller, text

PACKAGE = "com.google.android.apps.messaging"
CONVERSATION_LIST = f"{PACKAGE}.ui.ConversationListActivity"
CONVERSATION = f"{PACKAGE}.ui.conversation.ConversationActivity"
ACTION_SENDTO = "android.intent.action.SENDTO"
USAGE_TAG = "BugleUsageStatistics"


def compose_to(ctx: Context, number: str) -> None:
    """SENDTO smsto:<number>, as Contacts and the Dialer send it: the conversation with it."""
    ctx.start_activity(Intent(action=ACTION_SENDTO, data=f"smsto:{store.digits(number)}",
                              flags=FLAG_ACTIVITY_NEW_TASK))


def mid(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


@dataclass(frozen=True)
class Colors:
    background: Color
    text: Color
    secondary: Color
    accent: Color
    on_accent: Color
    incoming: Color
    outgoing: Color
    on_outgoing: Color
    field: Color
    divider: Color


def colors(ctx: Context) -> Colors:
    """Google Messages' Material theme (2020): white or #202124, blue accents."""
    if ctx.theme.dark:
        return Colors(background=(32, 33, 36), text=(232, 234, 237), secondary=(154, 160, 166),
                      accent=(138, 180, 248), on_accent=(32, 33, 36), incoming=(60, 64, 67),
                      outgoing=(138, 180, 248), on_outgoing=(32, 33, 36), field=(48, 49, 52),
                      divider=(60, 64, 67))
    return Colors(background=(255, 255, 255), text=(32, 33, 36), secondary=(95, 99, 104),
                  accent=(26, 115, 232), on_accent=(255, 255, 255), incoming=(241, 243, 244),
                  outgoing=(26, 115, 232), on_outgoing=(255, 255, 255), field=(241, 243, 244),
                  divider=(218, 220, 224))


def now_ms(ctx: Context) -> int:
    return ctx.system.state.clock.now_ms


def contact_name(ctx: Context, address: str) -> str:
    """The contact's name for an address, else the number as the app formats it."""
    person = store.find_by_number(ctx.system.state.vfs, address)
    if person is not None:
        return person.display_name
    return store.format_number(address)


def timestamp(ctx: Context, epoch_ms: int) -> str:
    """"Now", the time for today, else the date (month and day)."""
    now = ctx.now()
    moment = dt.datetime.fromtimestamp(epoch_ms / 1000, tz=dt.UTC)
    if 0 <= (now - moment).total_seconds() < 60:
        return ctx.t("messages.now")
    if moment.date() == now.date():
        if ctx.is_24_hour:
            return f"{moment.hour:02d}:{moment.minute:02d}"
        clock = f"{(moment.hour % 12) or 12}:{moment.minute:02d}"
        return ctx.t("messages.time_12h", time=clock,
                     ampm=ctx.t("messages.am" if moment.hour < 12 else "messages.pm"))
    return ctx.t("messages.date", month=ctx.t(f"date.month_short.{moment.month}"),
                 day=moment.day)


def _toolbar(*parts: View, c: Colors) -> View:
    return row(*parts, cls="android.view.ViewGroup", id=mid("toolbar"), height=56,
               bg=c.background, padding=(4, 0, 4, 0), gravity="center_vertical")


def _title(value: str, c: Colors, view_id: str = "", size: float = 20) -> View:
    return text(value, id=view_id, text_size=size, font_weight=500 if size < 22 else 400,
                text_color=c.text, width=0, weight=1, gravity="center_vertical",
                margin=(16, 0, 0, 0), text_direction=number_direction(value))


# -- the conversation list ---------------------------------------------------------------------


class ConversationListActivity(Activity):
    """The conversation list. A long press on a conversation selects it instead of opening
    it (as Bugle's MultiSelectActionModeCallback): the row shows a check on its avatar and
    the toolbar becomes the selection's action bar (close, the count, Archive, Delete).
    Taps then select and unselect conversations; unselecting the last one, the close
    button or BACK leaves the mode. Delete asks first ("Delete this conversation?") and
    deletes the selected conversations and their messages. Archive is drawn but not
    simulated (the simulator has no Archived view to bring them back from)."""

    def __init__(self, intent: Intent):
        super().__init__(intent)
        self.query: str | None = None
        self.selected: tuple[int, ...] = ()
        """The thread ids selected (the selection mode lasts while any is)."""
        self.confirm_delete = False

    def on_back(self, ctx: Context) -> bool:
        if leave_selection(self):
            return True
        if self.query is not None:
            self.query = None
            return True
        return False

    def _search(self, ctx: Context) -> None:
        self.query = ""
        if ctx.record is not None:
            ctx.record.focus = mid("search_src_text")

    def _start_chat(self, ctx: Context) -> None:
        ctx.start_activity(Intent(component=(PACKAGE, CONVERSATION),
                                  extras={"start_new_conversation": True}))

    def build(self, ctx: Context) -> View:
        c = colors(ctx)
        t = ctx.t
        if self.selected:
            bar = self._selection_bar(ctx, c)
        elif self.query is None:
            bar = _toolbar(
                frame(cls="", width=12, height=48),
                _title(t(f"app.{PACKAGE}"), c, size=22),
                icon_button(ctx, "search", t("messages.search"), lambda: self._search(ctx),
                            c.secondary, mid("action_zero_state_search"),
                            cls="android.widget.TextView", tooltip=True),
                overflow_button(ctx, t("messages.more_options"), None, c.secondary),
                c=c)
        else:
            def on_text(value: str) -> None:
                self.query = value

            bar = _toolbar(
                icon_button(ctx, "arrow_back", t("messages.navigate_up"),
                            lambda: setattr(self, "query", None), c.secondary),
                View(cls="android.widget.EditText", id=mid("search_src_text"), text=self.query,
                     hint=t("messages.search_hint"), text_size=18, text_color=c.text, width=0,
                     weight=1, height=48, clickable=True, focusable=True, long_clickable=True,
                     on_text=on_text, on_long_click=focus_field(ctx, mid("search_src_text")),
                     ime_action="search", gravity="center_vertical", padding=(8, 0, 8, 0)),
                c=c)
        rows = [self._row(ctx, c, thread) for thread in self._threads(ctx)]
        if self.query and not rows:
            rows.append(text(t("messages.no_results"), text_size=16, text_color=c.secondary,
                             width=MATCH, align="center", margin=(0, 32, 0, 0)))
        body = frame(
            scroller(*rows, key="conversations", cls="androidx.recyclerview.widget.RecyclerView",
                     id=mid("conversation_list"), width=MATCH, height=MATCH,
                     padding=(0, 4, 0, 88)),
            self._fab(ctx, c) if self.query is None and not self.selected else None,
            cls="android.widget.FrameLayout", width=MATCH, height=0, weight=1)
        return column(bar, body, width=MATCH, height=MATCH, bg=c.background)

    def _threads(self, ctx: Context) -> list[tuple[telephony.Thread, str]]:
        found = [(th, contact_name(ctx, th.address))
                 for th in telephony.threads(ctx.system.state.vfs, now_ms(ctx))]
        q = (self.query or "").strip().casefold()
        if q:
            found = [(th, name) for th, name in found
                     if q in name.casefold() or q in th.snippet.casefold()
                     or (store.digits(q) and store.digits(q) in store.digits(th.address))]
        return found

    def _row(self, ctx: Context, c: Colors, item: tuple[telephony.Thread, str]) -> View:
        thread, name = item
        snippet = thread.snippet
        if thread.last_type == telephony.TYPE_SENT:
            snippet = ctx.t("messages.you", snippet=snippet)
        weight = 400 if thread.read else 700
        checked = thread.id in self.selected
        avatar = View(cls="android.widget.ImageView", id=mid("conversation_icon"), width=48,
                      height=48, corner=24, bg=c.accent, icon="check", icon_color=c.on_accent,
                      icon_size=28, gravity="center_vertical") if checked else \
            letter_tile(name, name, 48, mid("conversation_icon"), text_size=20)
        return row(
            avatar,
            column(
                row(text(name, id=mid("conversation_name"), text_size=16, font_weight=weight,
                         text_color=c.text, width=0, weight=1,
                         text_direction=number_direction(name)),
                    text(timestamp(ctx, thread.date), id=mid("conversation_timestamp"),
                         text_size=12, text_color=c.secondary, font_weight=weight,
                         margin=(8, 0, 0, 0), gravity="center_vertical"),
                    height=WRAP),
                text(snippet, id=mid("conversation_snippet"), text_size=14,
                     text_color=c.secondary if thread.read else c.text, font_weight=weight,
                     width=MATCH, margin=(0, 2, 0, 0)),
                cls="android.widget.LinearLayout", width=0, weight=1, height=WRAP,
                gravity="center_vertical", margin=(16, 0, 0, 0)),
            cls="android.widget.FrameLayout", id=mid("swipeableContainer"), height=76,
            padding=(16, 0, 16, 0), clickable=True, focusable=True, long_clickable=True,
            gravity="center_vertical", selected=checked,
            bg=(c.accent[0], c.accent[1], c.accent[2], 36) if checked else None,
            on_click=lambda: self._tap(ctx, thread.id),
            on_long_click=lambda: setattr(self, "selected", toggled(self.selected, thread.id)))

    def _tap(self, ctx: Context, thread_id: int) -> None:
        """A tap opens the conversation, or in the selection mode selects or unselects it."""
        if self.selected:
            self.selected = toggled(self.selected, thread_id)
            return
        ctx.start_activity(Intent(component=(PACKAGE, CONVERSATION),
                                  extras={"conversation_id": thread_id}))

    def _selection_bar(self, ctx: Context, c: Colors) -> View:
        t = ctx.t

        def ask_delete() -> None:
            self.confirm_delete = True

        return action_bar(
            ctx, bar_id=mid("toolbar"), close_id="", close_desc=t("messages.navigate_up"),
            on_close=lambda: setattr(self, "selected", ()), title=str(len(self.selected)),
            title_id="", close_glyph="arrow_back",
            actions=[Action("archive", t("messages.archive"), mid("action_archive"), None),
                     Action("delete", t("messages.delete"), mid("action_delete"), ask_delete)],
            bg=c.background, fg=c.secondary)

    def dialog(self, ctx: Context) -> View | None:
        """The deletion's confirmation (DeleteConversationConfirmation's title and buttons)."""
        t = ctx.t
        many = len(self.selected) > 1
        return delete_confirmation(
            ctx, self, t("messages.delete_many" if many else "messages.delete_one"), "",
            t("messages.cancel"), t("messages.delete"),
            lambda: telephony.delete_threads(ctx.system.state.vfs, self.selected, now_ms(ctx)))

    def _fab(self, ctx: Context, c: Colors) -> View:
        label = ctx.t("messages.start_chat")
        return row(
            icon("chat", 24, icon_color=c.on_accent, gravity="center_vertical", cls=""),
            text(label, text_size=14, font_weight=500, text_color=c.on_accent,
                 margin=(12, 0, 4, 0), gravity="center_vertical", cls=""),
            cls="android.widget.Button", id=mid("start_chat_fab"), text=label, desc=label,
            width=WRAP, height=56, corner=28, bg=c.accent, elevation=6, clickable=True,
            focusable=True, padding=(16, 0, 20, 0), gravity="end|bottom",
            margin=(16, 16, 16, 16), text_color=(0, 0, 0, 0),
            on_click=lambda: self._start_chat(ctx))


# -- new conversation and conversation ---------------------------------------------------------


class ConversationActivity(Activity):
    """The recipient picker (after Start chat), then the conversation itself."""

    def __init__(self, intent: Intent):
        super().__init__(intent)
        self.picking = bool(intent.extras.get("start_new_conversation"))
        self.recipient = ""
        self.thread_id: int | None = intent.extras.get("conversation_id")
        self.address: str | None = None
        self.draft = ""
        if intent.data and intent.data.startswith(("smsto:", "sms:")):
            self.address = intent.data.split(":", 1)[1]

    def on_create(self, ctx: Context) -> None:
        vfs, now = ctx.system.state.vfs, now_ms(ctx)
        if self.thread_id is not None:
            self.address = telephony.address_of(vfs, self.thread_id, now)
            telephony.mark_read(vfs, self.thread_id, now)
        elif self.address:
            self.thread_id = telephony.thread_id(vfs, self.address, now)
        if ctx.record is not None:
            ctx.record.focus = mid("recipient_text_view") if self.picking else None

    # -- choosing a recipient ----------------------------------------------------------------
    def _candidates(self, ctx: Context) -> list[tuple[store.Contact, store.Phone]]:
        q = self.recipient.strip().casefold()
        wanted = store.digits(q)
        out = []
        for person in store.all_contacts(ctx.system.state.vfs):
            for phone in person.phones:
                if (not q or q in person.display_name.casefold()
                        or (wanted and wanted in store.digits(phone.number))):
                    out.append((person, phone))
        return out

    def _typed_number(self) -> str | None:
        typed = self.recipient.strip()
        digits = store.digits(typed)
        if digits and len(digits) >= max(3, len(typed.replace(" ", "")) - 4):
            return typed
        return None

    def choose(self, ctx: Context, address: str) -> None:
        """getOrCreateConversation: the thread for this recipient, then the chat screen."""
        ctx.log("I", USAGE_TAG, "BUGLE CREATE CONVERSATION source=VIA_DEFAULT")
        self.address = address
        self.thread_id = telephony.thread_id(ctx.system.state.vfs, address, now_ms(ctx))
        self.picking = False
        if ctx.record is not None:
            ctx.record.focus = mid("compose_message_text")

    def _submit_recipient(self, ctx: Context) -> None:
        number = self._typed_number()
        if number is not None:
            self.choose(ctx, number)
            return
        candidates = self._candidates(ctx) if self.recipient.strip() else []
        if candidates:
            self.choose(ctx, candidates[0][1].number)

    # -- sending ---------------------------------------------------------------------------------
    def _send(self, ctx: Context) -> None:
        body = self.draft.strip()
        if not body or not self.address:
            return
        message = telephony.send(ctx.system.state.vfs, self.address, body, now_ms(ctx))
        self.thread_id = message.thread_id
        self.draft = ""

    # -- views -----------------------------------------------------------------------------------
    def build(self, ctx: Context) -> View:
        c = colors(ctx)
        return self._picker(ctx, c) if self.picking else self._conversation(ctx, c)

    def _picker(self, ctx: Context, c: Colors) -> View:
        t = ctx.t

        def on_text(value: str) -> None:
            self.recipient = value

        bar = _toolbar(icon_button(ctx, "arrow_back", t("messages.navigate_up"), ctx.finish,
                                   c.secondary, tooltip=True),
                       _title(t("messages.new_conversation"), c), c=c)
        to = row(
            text(t("messages.to"), text_size=16, text_color=c.secondary,
                 gravity="center_vertical", margin=(16, 0, 8, 0)),
            View(cls="android.widget.MultiAutoCompleteTextView", id=mid("recipient_text_view"),
                 text=self.recipient, hint=t("messages.recipient_hint"), text_size=16,
                 text_color=c.text, width=0, weight=1, height=48, clickable=True,
                 focusable=True, long_clickable=True, on_text=on_text,
                 on_long_click=focus_field(ctx, mid("recipient_text_view")),
                 on_submit=lambda: self._submit_recipient(ctx),
                 gravity="center_vertical", padding=(4, 0, 8, 0)),
            height=56, gravity="center_vertical", bg=c.background)
        rows: list[View] = []
        number = self._typed_number()
        if number is not None:
            rows.append(self._pick_row(ctx, c, store.format_number(number),
                                       t("messages.send_to", number=store.format_number(number)),
                                       "", number, number))
        previous = None
        for person, phone in self._candidates(ctx):
            first = person.id != previous
            previous = person.id
            rows.append(self._pick_row(ctx, c, person.display_name if first else "",
                                       phone.number, t(f"messages.type.{phone.type}"),
                                       phone.number, person.display_name, avatar=first))
        return column(bar, to, View(cls="", width=MATCH, height=1, bg=c.divider),
                      scroller(*rows, key="contacts", cls="androidx.recyclerview.widget.RecyclerView",
                               id=mid("contact_list"), height=0, weight=1, padding=(0, 8, 0, 8)),
                      ime_inset(ctx, (mid("recipient_text_view"),)),
                      width=MATCH, height=MATCH, bg=c.background)

    def _pick_row(self, ctx: Context, c: Colors, name: str, detail: str, kind: str,
                  address: str, identity: str, avatar: bool = True) -> View:
        return row(
            letter_tile(name or detail, identity, 40, mid("contact_icon")) if avatar
            else View(cls="", width=40, height=40),
            column(text(name, id=mid("contact_name"), text_size=16, text_color=c.text,
                        width=MATCH, visible=bool(name)),
                   row(text(detail, id=mid("contact_details"), text_size=14,
                            text_color=c.secondary, text_direction=number_direction(detail)),
                       text(kind, id=mid("contact_detail_type"), text_size=14,
                            text_color=c.secondary, margin=(8, 0, 0, 0), visible=bool(kind)),
                       height=WRAP),
                   cls="android.widget.LinearLayout", width=0, weight=1, height=WRAP,
                   gravity="center_vertical", margin=(16, 0, 0, 0)),
            cls="android.widget.LinearLayout", id=mid("contact_picker_row"), height=64,
            padding=(16, 0, 16, 0), clickable=True, focusable=True, gravity="center_vertical",
            on_click=lambda: self.choose(ctx, address))

    def _conversation(self, ctx: Context, c: Colors) -> View:
        t = ctx.t
        vfs, now = ctx.system.state.vfs, now_ms(ctx)
        address = self.address or ""
        name = contact_name(ctx, address)
        bar = _toolbar(
            icon_button(ctx, "arrow_back", t("messages.navigate_up"), ctx.finish, c.secondary,
                        tooltip=True),
            letter_tile(name, name, 32, text_size=14),
            _title(name, c, mid("conversation_title")),
            icon_button(ctx, "call", t("messages.call"), self._call(ctx, address), c.secondary,
                        mid("action_call"), cls="android.widget.TextView", tooltip=True),
            overflow_button(ctx, t("messages.more_options"), None, c.secondary), c=c)
        bubbles: list[View] = []
        history = telephony.messages(vfs, self.thread_id, now) if self.thread_id else []
        for message in history:
            mine = message.type == telephony.TYPE_SENT
            bubble = text(message.body, id=mid("message_text"), text_size=16, max_lines=20,
                          text_color=c.on_outgoing if mine else c.text,
                          bg=c.outgoing if mine else c.incoming, corner=18,
                          padding=(12, 8, 12, 8), gravity="end" if mine else "center_vertical",
                          margin=(0 if mine else 8, 0, 0, 0))
            if mine:
                bubbles.append(column(bubble, cls="android.widget.LinearLayout",
                                      id=mid("message_content"), width=MATCH, height=WRAP,
                                      padding=(72, 4, 12, 4)))
            else:
                bubbles.append(row(letter_tile(name, name, 32, text_size=14), bubble,
                                   cls="android.widget.LinearLayout", id=mid("message_content"),
                                   height=WRAP, padding=(12, 4, 72, 4),
                                   gravity="center_vertical"))
        if history:
            bubbles.append(text(timestamp(ctx, history[-1].date), id=mid("message_status"),
                                text_size=12, text_color=c.secondary, width=MATCH,
                                align="end" if history[-1].type == telephony.TYPE_SENT
                                else "start", padding=(56, 2, 16, 8)))

        def on_text(value: str) -> None:
            self.draft = value

        can_send = bool(self.draft.strip())
        compose = row(
            View(cls="android.widget.EditText", id=mid("compose_message_text"), text=self.draft,
                 hint=t("messages.compose_hint"), text_size=16, text_color=c.text, width=0,
                 weight=1, height=48, corner=24, bg=c.field, clickable=True, focusable=True,
                 long_clickable=True, on_text=on_text,
                 on_long_click=focus_field(ctx, mid("compose_message_text")),
                 gravity="center_vertical",
                 padding=(16, 0, 16, 0), max_lines=4),
            frame(icon("send", 24, icon_color=c.accent if can_send else c.secondary,
                       gravity="center", icon_filled=True, cls=""),
                  cls="android.widget.ImageView", id=mid("send_message_button_icon"),
                  desc=t("messages.send_sms"), width=48, height=48, clickable=True,
                  focusable=True, enabled=can_send, on_click=lambda: self._send(ctx),
                  gravity="center_vertical", margin=(4, 0, 0, 0)),
            cls="android.widget.LinearLayout", id=mid("compose_message_view"), height=64,
            padding=(12, 8, 8, 8), gravity="center_vertical", bg=c.background)
        messages_list = scroller(*bubbles, key="messages",
                                 cls="androidx.recyclerview.widget.RecyclerView",
                                 id=mid("message_list"), height=0, weight=1,
                                 padding=(0, 8, 0, 8))
        return column(bar, View(cls="", width=MATCH, height=1, bg=c.divider), messages_list,
                      compose, ime_inset(ctx, (mid("compose_message_text"),)), width=MATCH,
                      height=MATCH, bg=c.background)

    @staticmethod
    def _call(ctx: Context, address: str):
        return lambda: ctx.start_activity(Intent(
            action="android.intent.action.CALL", data=f"tel:{store.digits(address)}",
            flags=0x10000000))


class MessagesApp(App):
    package = PACKAGE
    label_key = f"app.{PACKAGE}"
    uid = 10100
    activities = {CONVERSATION_LIST: ConversationListActivity, CONVERSATION: ConversationActivity}
    intent_actions = {ACTION_SENDTO: CONVERSATION}

    def on_boot(self, ctx: Context) -> None:
        store.ensure(ctx.system.state.vfs)
        telephony.ensure(ctx.system.state.vfs, now_ms(ctx))

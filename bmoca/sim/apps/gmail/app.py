"""Gmail (`com.google.android.gm`): the launcher alias and the inbox.

The launcher starts `com.google.android.gm.ConversationListActivityGmail`, an alias whose
trampoline starts `.ui.MailActivityGmail` with the launcher's action, category and flags
and `pkg=com.google.android.gm`, from Gmail's own uid (android10_ui_facts.md §1.1): two
START lines, the second being the one with `com.google.android.gm ` (a space after the
package) that B-MoCA's detector reads.

MailActivityGmail shows the Primary inbox of a few messages of our own, the search bar
(`open_search`, which turns into the `search_actionbar_query_text` field) and the compose
button (`compose_button`).

A long press on a conversation selects it (its avatar turns into a check, the row is
`selected`) and the search bar becomes the selection's action bar: Done, the count, then
Archive, Delete and Mark read (ids from AOSP UnifiedEmail's selection menu, which Gmail
grew from: `archive`, `delete`, `read`); taps then select and unselect conversations, and
Done, BACK or unselecting the last one leaves the mode. The actions are drawn but not
simulated (the inbox is a fixed set of messages), as opening a conversation is not.

On a tablet (sw600dp) Gmail is two-pane, as its large-screen layout (2020-21) is: the
conversation list at the start (2/5 of the width, search bar and compose button with it),
and on the end side the conversation tapped, or while none is, an empty state ("No
conversations selected" under an envelope). There a tap on a row opens its message in the
end pane (the row stays highlighted); BACK closes it.
"""

from __future__ import annotations

from dataclasses import dataclass

from bmoca.sim.apps.base import Activity, App, Context
from bmoca.sim.apps.contacts.ui import icon_button
from bmoca.sim.apps.longpress import Action, action_bar, focus_field, toggled
from bmoca.sim.system.intent import Intent
from bmoca.sim.ui.view import MATCH, WRAP, Color, View, column, frame, icon, row, scroller, text

PACKAGE = "com.google.android.gm"
ALIAS = "com.google.android.gm.ConversationListActivityGmail"
MAIL = "com.google.android.gm.ui.MailActivityGmail"

INBOX = (
    ("Pixel Team", "Welcome to your new phone", "Tips for getting started", "9:30"),
    ("Maria Lopez", "Lunch on Friday?", "Are you free at noon? There is a new place", "Nov 3"),
    ("Travel Desk", "Your trip itinerary", "Flight details and hotel confirmation", "Oct 28"),
    ("Book Club", "October meeting notes", "Thanks to everyone who came last week", "Oct 21"),
)
"""(sender, subject, snippet, date) of the messages the phone's account has."""


LIST_PANE = 0.4
"""The share of a tablet's width the conversation list takes."""


def gid(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


@dataclass(frozen=True)
class Colors:
    background: Color
    text: Color
    secondary: Color
    accent: Color
    bar: Color


def colors(ctx: Context) -> Colors:
    if ctx.theme.dark:
        return Colors((32, 33, 36), (232, 234, 237), (154, 160, 166), (242, 139, 130),
                      (60, 64, 67))
    return Colors((255, 255, 255), (32, 33, 36), (95, 99, 104), (217, 48, 37), (241, 243, 244))


class GmailLauncher(Activity):
    """The alias the launcher starts: hands over to MailActivityGmail, never drawn."""

    def on_create(self, ctx: Context) -> None:
        intent = self.intent
        ctx.start_activity(Intent(action=intent.action, categories=intent.categories,
                                  flags=intent.flags, package=PACKAGE,
                                  component=(PACKAGE, MAIL)), bring_to_front=False)
        ctx.finish()

    def build(self, ctx: Context) -> View:
        return frame(width=MATCH, height=MATCH, bg=colors(ctx).background)


class MailActivity(Activity):
    def __init__(self, intent: Intent):
        super().__init__(intent)
        self.query: str | None = None
        """What the search field holds; None while the inbox shows its search bar."""
        self.composing = False
        self.selected: tuple[int, ...] = ()
        """The inbox rows selected by a long press (the action mode lasts while any is)."""
        self.opened: int | None = None
        """The conversation the tablet's end pane shows (None: its empty state)."""

    def _open_search(self, ctx: Context) -> None:
        self.query = ""
        if ctx.record is not None:
            ctx.record.focus = gid("search_actionbar_query_text")

    def _close(self, ctx: Context) -> None:
        self.query = None
        self.composing = False
        if ctx.record is not None:
            ctx.record.focus = None

    def _compose(self, ctx: Context) -> None:
        self.composing = True
        self.query = None
        if ctx.record is not None:
            ctx.record.focus = gid("to")

    def on_back(self, ctx: Context) -> bool:
        if self.selected:
            self.selected = ()
            return True
        if self.query is not None or self.composing:
            self._close(ctx)
            return True
        if self.opened is not None:
            self.opened = None
            return True
        return False

    def _search_bar(self, ctx: Context, c: Colors) -> View:
        t = ctx.t
        if self.selected:
            return action_bar(
                ctx, bar_id="", close_id=gid("action_mode_close_button"),
                close_desc=t("gmail.done"), on_close=lambda: setattr(self, "selected", ()),
                title=str(len(self.selected)), title_id=gid("action_bar_title"),
                actions=[Action("archive", t("gmail.archive"), gid("archive"), None),
                         Action("delete", t("gmail.delete"), gid("delete"), None),
                         Action("drafts", t("gmail.mark_read"), gid("read"), None)],
                bg=c.background, fg=c.secondary)
        if self.query is None:
            return row(
                icon_button(ctx, "menu", t("gmail.open_drawer"), None, c.secondary),
                text(t("gmail.search_in_mail"), text_size=16, text_color=c.secondary, width=0,
                     weight=1, gravity="start|center_vertical", cls="android.widget.TextView"),
                cls="android.widget.LinearLayout", id=gid("open_search"), width=MATCH,
                height=48, corner=24, bg=c.bar, margin=(16, 8, 16, 8), clickable=True,
                on_click=lambda: self._open_search(ctx), gravity="center_vertical")

        def on_text(value: str) -> None:
            self.query = value

        return row(
            icon_button(ctx, "arrow_back", t("gmail.navigate_up"), lambda: self._close(ctx),
                        c.secondary),
            View(cls="android.widget.EditText", id=gid("search_actionbar_query_text"),
                 text=self.query, hint=t("gmail.search_in_mail"), text_size=16,
                 text_color=c.text, width=0, weight=1, height=48, clickable=True,
                 focusable=True, long_clickable=True, on_text=on_text,
                 on_long_click=focus_field(ctx, gid("search_actionbar_query_text")),
                 ime_action="search",
                 gravity="center_vertical", padding=(8, 0, 8, 0)),
            width=MATCH, height=56, bg=c.background, gravity="center_vertical")

    def _row(self, ctx: Context, c: Colors, index: int, mail: tuple) -> View:
        sender, subject, snippet, date = mail
        checked = index in self.selected
        avatar = frame(text(sender[0], text_size=18, text_color=(255, 255, 255),
                            gravity="center", visible=not checked),
                       width=40, height=40, corner=20,
                       bg=(26, 115, 232) if checked else
                       ((66, 133, 244), (15, 157, 88), (244, 180, 0), (171, 71, 188))[index % 4],
                       icon="check" if checked else None, icon_color=(255, 255, 255),
                       margin=(16, 0, 16, 0), gravity="center")

        def select() -> None:
            self.selected = toggled(self.selected, index)

        def open_() -> None:
            self.opened = index

        tap = select if self.selected else open_ if ctx.system.sw600dp else None
        shown = self.opened == index and not self.selected
        return row(
            avatar,
            column(row(text(sender, text_size=16, font_weight=700, text_color=c.text, width=0,
                            weight=1, id=gid("senders")),
                       text(date, text_size=12, text_color=c.secondary, margin=(0, 0, 16, 0),
                            text_direction="ltr")),
                   text(subject, text_size=14, text_color=c.text, id=gid("subject")),
                   text(snippet, text_size=14, text_color=c.secondary, id=gid("snippet"),
                        max_lines=1),
                   width=0, weight=1),
            cls="android.view.View", width=MATCH, height=88, clickable=True,
            long_clickable=True, selected=checked or shown,
            bg=(26, 115, 232, 30) if checked else c.bar if shown else None,
            on_click=tap, on_long_click=select,
            gravity="center_vertical", id=gid("viewified_conversation_item_view"))

    def _compose_screen(self, ctx: Context, c: Colors) -> View:
        t = ctx.t

        def field(key: str, vid: str) -> View:
            return View(cls="android.widget.EditText", id=gid(vid), hint=t(key), text="",
                        text_size=16, text_color=c.text, width=MATCH, height=56,
                        clickable=True, focusable=True, padding=(16, 0, 16, 0),
                        gravity="start|center_vertical")

        return column(
            row(icon_button(ctx, "arrow_back", t("gmail.navigate_up"),
                            lambda: self._close(ctx), c.secondary, tooltip=True),
                text(t("gmail.compose"), text_size=20, text_color=c.text, width=0, weight=1),
                icon_button(ctx, "send", t("gmail.send"), None, c.secondary, gid("send"),
                            tooltip=True),
                width=MATCH, height=56, gravity="center_vertical"),
            field("gmail.to", "to"), field("gmail.subject", "subject"),
            field("gmail.compose_email", "body"),
            width=MATCH, height=MATCH, bg=c.background)

    def build(self, ctx: Context) -> View:
        c = colors(ctx)
        if self.composing:
            return self._compose_screen(ctx, c)
        rows = [self._row(ctx, c, i, m) for i, m in enumerate(INBOX)
                if not self.query or self.query.lower() in " ".join(m).lower()]
        body = frame(
            scroller(text(ctx.t("gmail.primary"), text_size=12, text_color=c.secondary,
                          margin=(16, 8, 16, 8)), *rows, key="threads",
                     cls="androidx.recyclerview.widget.RecyclerView",
                     id=gid("thread_list_view"), width=MATCH, height=MATCH,
                     padding=(0, 0, 0, 88)),
            None if self.query is not None else row(
                icon("edit", 24, icon_color=c.accent, gravity="center_vertical", cls=""),
                text(ctx.t("gmail.compose"), text_size=14, font_weight=500,
                     text_color=c.accent, margin=(12, 0, 4, 0), gravity="center_vertical",
                     cls=""),
                cls="android.widget.Button", id=gid("compose_button"),
                desc=ctx.t("gmail.compose"), width=WRAP, height=56, corner=16, bg=c.bar,
                elevation=6, padding=(16, 0, 20, 0), clickable=True, focusable=True,
                gravity="end|bottom", margin=(16, 16, 16, 16),
                on_click=lambda: self._compose(ctx)),
            cls="android.widget.FrameLayout", width=MATCH, height=0, weight=1)
        pane = column(self._search_bar(ctx, c), body, width=MATCH, height=MATCH,
                      bg=c.background)
        if not ctx.system.sw600dp:
            return pane
        pane.width, pane.height = ctx.system.screen_dp()[0] * LIST_PANE, MATCH
        return row(pane, View(cls="", width=1, height=MATCH, bg=c.bar),
                   self._conversation_pane(ctx, c), width=MATCH, height=MATCH,
                   bg=c.background)

    def _conversation_pane(self, ctx: Context, c: Colors) -> View:
        """The two-pane layout's end side: the opened message, or the empty state."""
        if self.opened is None:
            content = column(
                icon("mail", 96, icon_color=c.secondary, gravity="center", cls=""),
                text(ctx.t("gmail.no_conversation_selected"), text_size=16,
                     text_color=c.secondary, margin=(0, 16, 0, 0), gravity="center",
                     id=gid("empty_view_text")),
                width=WRAP, height=WRAP, gravity="center", cls="")
        else:
            sender, subject, snippet, date = INBOX[self.opened]
            content = column(
                text(subject, text_size=22, text_color=c.text, id=gid("subject_and_folder_view"),
                     max_lines=2, margin=(24, 24, 24, 16), width=MATCH),
                row(text(sender, text_size=14, font_weight=700, text_color=c.text, width=0,
                         weight=1, id=gid("sender_name")),
                    text(date, text_size=12, text_color=c.secondary, text_direction="ltr"),
                    width=MATCH, margin=(24, 0, 24, 12)),
                text(snippet, text_size=14, text_color=c.text, max_lines=6, width=MATCH,
                     margin=(24, 0, 24, 0), id=gid("message_body")),
                width=MATCH, height=MATCH, cls="")
        return frame(content, cls="android.widget.FrameLayout", id=gid("conversation_pane"),
                     width=0, weight=1, height=MATCH, bg=c.background)


class GmailApp(App):
    package = PACKAGE
    label_key = f"app.{PACKAGE}"
    uid = 10113
    activities = {ALIAS: GmailLauncher, MAIL: MailActivity}

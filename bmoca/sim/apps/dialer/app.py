"""Phone (`com.android.dialer`, the AOSP Dialer of Android 10): main screen and dialpad.

MainActivity (OldMainActivityPeer) is a search bar (`toolbar`), the tab content, a bottom
navigation bar (Favorites, Recents, Contacts; the last tab is remembered, Favorites at
first) and the `fab` that opens the dialpad. Creating the activity logs
`Dialer: MainActivity.onCreate - enter`; coming back to its task does not.

The dialpad (DialpadFragment) formats the number as it is typed
(`bmoca.formats.phone_numbers`), and its green button places the call with the text as
shown; with nothing typed it fills in the last number dialled (from the call log), as
the real one does. The keypad keeps its left-to-right layout in right-to-left languages.
Tabs and search results are in `lists.py`; calls and the in-call screen in
`calls.py` and `incall.py`.
"""

from __future__ import annotations

from bmoca.formats.phone_numbers import format_as_you_type, tel_uri_number
from bmoca.sim.apps.base import Activity, App, Context
from bmoca.sim.apps.dialer import calls, lists
from bmoca.sim.apps.dialer.incall import InCallActivity
from bmoca.sim.apps.longpress import focus_field
from bmoca.sim.system import calllog
from bmoca.sim.ui.view import MATCH, WRAP, View, column, frame, icon, row, spacer, text

PACKAGE = calls.DIALER
MAIN = calls.MAIN
TABS = ("speed_dial", "call_log", "contacts")
TAB_ICONS = {"speed_dial": "star", "call_log": "schedule", "contacts": "people"}
KEYS = (("1", "one", ""), ("2", "two", "ABC"), ("3", "three", "DEF"), ("4", "four", "GHI"),
        ("5", "five", "JKL"), ("6", "six", "MNO"), ("7", "seven", "PQRS"), ("8", "eight", "TUV"),
        ("9", "nine", "WXYZ"), ("*", "star", ""), ("0", "zero", "+"), ("#", "pound", ""))
DIALABLE = frozenset("0123456789*#+")
"""What the digits field keeps of typed text (see docs/tasks.md for the separators)."""
DIAL_GREEN = (15, 157, 88)
SEARCH_ID = f"{PACKAGE}:id/search_view"


def did(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


def _paste_bubble() -> None:
    """The digits field's long press (DigitsEditText is an EditText): the real one shows
    the Paste bubble when the clipboard holds text; the simulator has no clipboard, so
    nothing changes (and no digit is typed)."""


class MainActivity(Activity):
    """The Dialer's main screen; its state is the dialpad and the search box."""

    def __init__(self, intent):
        super().__init__(intent)
        self.dialpad_open = False
        self.digits = ""
        """The dial string as typed (digits, *, #, +); shown formatted."""
        self.searching = False
        self.query = ""
        self.call_menu: tuple[int, str] | None = None
        """The call log row (call id, number) whose context menu is open."""

    def on_create(self, ctx: Context) -> None:
        ctx.log("I", "Dialer", "MainActivity.onCreate - enter")
        calllog.ensure(ctx.system.state.vfs)
        if self.intent.action == "android.intent.action.DIAL" or self.intent.extras.get(
                "add_call_mode"):
            self.dialpad_open = True
            self.digits = "".join(c for c in tel_uri_number(self.intent.data or "")
                                  if c.isdigit() or c in "*#+")
            ctx.log("I", "Dialer", "DialpadFragment.onCreateView - enter")

    def on_back(self, ctx: Context) -> bool:
        if self.call_menu is not None:
            self.call_menu = None
            return True
        if self.dialpad_open:
            self.dialpad_open = False
            return True
        if self.searching:
            self.searching, self.query = False, ""
            return True
        return False

    # -- dialpad ---------------------------------------------------------------------
    def open_dialpad(self, ctx: Context) -> None:
        if not self.dialpad_open:
            self.dialpad_open = True
            ctx.log("I", "Dialer", "DialpadFragment.onCreateView - enter")

    def press(self, char: str) -> None:
        self.digits += char

    def delete(self) -> None:
        self.digits = self.digits[:-1]

    def on_key_char(self, ctx: Context, char: str) -> bool:
        """The open dialpad's digits field (DialerKeyListener) takes a typed digit, * # or +;
        with the dialpad closed nothing has key focus and typing goes nowhere."""
        if not self.dialpad_open:
            return False
        if char in DIALABLE:
            self.press(char)
        return True

    def on_key(self, ctx: Context, key: str) -> bool:
        """DialpadFragment.onKey: ENTER in the digits field places the call; DEL deletes."""
        if not self.dialpad_open:
            return False
        if key == "ENTER":
            self.dial(ctx)
        elif key == "DEL":
            self.delete()
        return True

    def dial(self, ctx: Context) -> None:
        """DialpadFragment.handleDialButtonPressed."""
        if not self.digits:
            self.digits = calllog.last_outgoing_number(ctx.system.state.vfs)
            return
        shown = format_as_you_type(self.digits)
        self.digits, self.dialpad_open = "", False  # hideAndClearDialpad
        calls.place_call(ctx.system, shown)

    # -- views -----------------------------------------------------------------------
    def build(self, ctx: Context) -> View:
        if self.dialpad_open:
            return self._dialpad_screen(ctx)
        theme = ctx.theme
        data = calls.data_of(ctx.system)
        if self.searching:
            content = lists.search_results(ctx, self.query)
        else:
            content = lists.tab_content(ctx, data.last_tab, self._open_call_menu)
        main = column(
            self._toolbar(ctx),
            frame(content, cls="android.widget.FrameLayout", id=did("fragment_container"),
                  width=MATCH, height=0, weight=1),
            None if self.searching else self._bottom_nav(ctx, data),
            width=MATCH, height=MATCH, bg=theme.background)
        fab = None if self.searching else View(
            cls="android.widget.ImageButton", id=did("fab"), desc=ctx.t("dialer.keypad"),
            icon="dialpad", icon_color=(32, 33, 36) if theme.dark else (255, 255, 255),
            icon_size=24, width=56, height=56,
            corner=28, bg=lists.accent(ctx), elevation=6, clickable=True, focusable=True,
            gravity="end|bottom", margin=(0, 0, 16, 72),
            on_click=lambda: self.open_dialpad(ctx))
        return frame(main, fab, cls="android.widget.FrameLayout", id=did("main_layout"),
                     width=MATCH, height=MATCH, bg=theme.background)

    def _open_call_menu(self, entry: calllog.CallEntry) -> None:
        self.call_menu = (entry.id, entry.number)

    def dialog(self, ctx: Context) -> View | None:
        """A call log row's context menu (CallLogListItemViewHolder.onCreateContextMenu): the
        number as its title, then Copy number, Edit number before call, Block number and
        Delete. Edit number before call opens the dialpad with the number (ACTION_DIAL);
        Delete removes the call from the log; Copy number and Block number close the menu
        (the simulator has no clipboard and no blocked-numbers provider)."""
        if self.call_menu is None:
            return None
        call_id, number = self.call_menu
        theme = ctx.theme

        def choose(key: str):
            def handler() -> None:
                self.call_menu = None
                if key == "edit_before_call":  # ACTION_DIAL comes back to this singleTask
                    # activity (onNewIntent): the dialpad opens here with the number
                    self.digits = "".join(c for c in number if c.isdigit() or c in "*#+")
                    self.open_dialpad(ctx)
                elif key == "delete":
                    calllog.delete_calls(ctx.system.state.vfs, (call_id,))
            return handler

        items = [text(ctx.t(f"dialer.menu.{key}"), id="android:id/title", text_size=16,
                      text_color=theme.text, width=MATCH, height=48, padding=(24, 0, 24, 0),
                      gravity="center_vertical", clickable=True, focusable=True,
                      cls="android.widget.TextView", on_click=choose(key))
                 for key in ("copy_number", "edit_before_call", "block_number", "delete")]
        return column(
            lists.number_text(ctx, calls.display_number(number), "android:id/alertTitle", 20,
                              theme.text, align="start", padding=(24, 20, 24, 12),
                              font_weight=500),
            column(*items, cls="android.widget.ListView", id="android:id/select_dialog_listview",
                   width=MATCH, height=WRAP, padding=(0, 0, 0, 8)),
            cls="android.widget.FrameLayout", id="android:id/parentPanel", width=MATCH,
            height=WRAP, margin=(40, 0, 40, 0), bg=(255, 255, 255) if not theme.dark
            else (48, 49, 52), corner=8, elevation=24)

    def _toolbar(self, ctx: Context) -> View:
        theme = ctx.theme

        def on_text(value: str) -> None:
            self.searching, self.query = True, value

        def start_search() -> None:
            self.searching = True

        def leave_search() -> None:
            self.searching, self.query = False, ""
            if ctx.record is not None:
                ctx.record.focus = None

        lead = lists.icon_button(
            "arrow_back" if self.searching else "search",
            ctx.t("dialer.navigate_up") if self.searching else "", theme.icon,
            leave_search if self.searching else start_search,
            view_id=did("search_back_button") if self.searching else did("search_magnifying_glass"),
            cls="android.widget.ImageButton" if self.searching else "android.widget.ImageView")
        field = View(cls="android.widget.EditText", id=SEARCH_ID, text=self.query,
                     hint=ctx.t("dialer.search_contacts"), text_size=16, text_color=theme.text,
                     width=0, weight=1, height=48, clickable=True, focusable=True,
                     long_clickable=True, on_text=on_text, on_click=start_search,
                     on_long_click=focus_field(ctx, SEARCH_ID, then=start_search),
                     ime_action="search",
                     gravity="center_vertical")
        card = row(
            lead, field,
            lists.icon_button("mic", ctx.t("dialer.voice_search"), theme.icon, lambda: None,
                              view_id=did("voice_search_button")),
            lists.icon_button("more_vert", ctx.t("dialer.more_options"), theme.icon,
                              lambda: None, view_id=did("main_options_menu_button")),
            cls="android.widget.FrameLayout", id=did("search_view_container"), height=48,
            bg=theme.surface if not theme.dark else (48, 49, 52), corner=24, elevation=2,
            padding=(4, 0, 4, 0), gravity="center_vertical")
        return frame(card, cls="android.view.ViewGroup", id=did("toolbar"), width=MATCH,
                     height=WRAP, padding=(8, 8, 8, 8), bg=theme.background)

    def _bottom_nav(self, ctx: Context, data: calls.DialerData) -> View:
        theme = ctx.theme

        def tab(name: str) -> View:
            selected = data.last_tab == name
            color = lists.accent(ctx) if selected else theme.icon

            def choose() -> None:
                data.last_tab = name

            return column(
                icon(TAB_ICONS[name], 24, id=did("bottom_nav_item_image"), icon_color=color,
                     icon_filled=selected, gravity="center_horizontal"),
                text(ctx.t(f"dialer.tab.{name}"), id=did("bottom_nav_item_text"), text_size=12,
                     text_color=color, font_weight=500 if selected else 400, width=MATCH,
                     align="center", margin=(0, 2, 0, 0)),
                cls="android.widget.LinearLayout", id=did(f"{name}_tab"),
                desc=ctx.t(f"dialer.tab.{name}"), selected=selected, clickable=True,
                focusable=True, width=0, weight=1, height=56, padding=(0, 8, 0, 6),
                on_click=choose)

        return row(*[tab(name) for name in TABS], cls="android.widget.LinearLayout",
                   id=did("bottom_nav_bar"), height=WRAP, bg=theme.background, elevation=8)

    def _dialpad_screen(self, ctx: Context) -> View:
        theme = ctx.theme
        width_dp, height_dp = ctx.system.screen_dp()
        wide = width_dp > height_dp and width_dp >= 600
        available = height_dp - 72  # status and navigation bars
        share = 0.95 if wide else 0.75
        key_height = max(44.0, min(72.0, (available * share - 150) / 4))
        pad_width = 400.0 if wide else width_dp
        font = ctx.system.font_scale
        number_size = min(30.0, max(16.0, key_height / (1.2 * font) - 13))
        results = lists.dialpad_results(ctx, self.digits)
        shown = format_as_you_type(self.digits)
        digits_room = pad_width - 16 - 48 - 56
        digits_size = min(32.0, max(14.0, digits_room / (0.6 * font * max(1, len(shown)))))
        pad_bg = (255, 255, 255) if not theme.dark else (41, 42, 45)
        digits_row = row(
            lists.icon_button("more_vert", ctx.t("dialer.more_options"), theme.icon,
                              lambda: None, view_id=did("dialpad_overflow")),
            lists.number_text(ctx, shown, did("digits"), digits_size, theme.text,
                              cls="android.widget.EditText", width=0, weight=1, height=64,
                              align="center", focusable=True, gravity="center_vertical",
                              long_clickable=True, on_long_click=_paste_bubble),
            View(cls="android.widget.ImageButton", id=did("deleteButton"),
                 desc=ctx.t("dialer.backspace"), icon="backspace", icon_color=theme.icon,
                 width=56, height=56, clickable=True, focusable=True, long_clickable=True,
                 enabled=bool(self.digits), on_click=self.delete,
                 on_long_click=lambda: setattr(self, "digits", ""), gravity="center_vertical"),
            cls="android.widget.LinearLayout", id=did("digits_container"), height=WRAP,
            padding=(8, 8, 8, 0), mirror=False, gravity="center_vertical")
        key_rows = [row(*[self._key(ctx, *spec, key_height, number_size)
                          for spec in KEYS[i:i + 3]], height=WRAP, mirror=False)
                    for i in range(0, 12, 3)]
        keypad = column(*key_rows, cls="android.widget.TableLayout", id=did("dialpad"),
                        width=MATCH, height=WRAP, padding=(16, 4, 16, 4))
        dial = View(cls="android.widget.ImageButton", id=did("dialpad_floating_action_button"),
                    desc=ctx.t("dialer.dial"), icon="call", icon_color=(255, 255, 255),
                    icon_filled=True, icon_size=28, width=64, height=64, corner=32,
                    bg=DIAL_GREEN, elevation=6, clickable=True, focusable=True,
                    gravity="center_horizontal", on_click=lambda: self.dial(ctx))
        pad = column(digits_row,
                     View(cls="", width=MATCH, height=1, bg=theme.divider, margin=(16, 0, 16, 0)),
                     keypad, frame(dial, cls="", width=MATCH, height=WRAP, padding=(0, 6, 0, 14)),
                     cls="android.widget.LinearLayout", id=did("dialpad_view"), width=MATCH,
                     height=WRAP, bg=pad_bg, elevation=0 if wide else 8,
                     gravity="center_vertical" if wide else "start|top")
        results_frame = frame(results, cls="android.widget.FrameLayout",
                              id=did("dialpad_search_fragment_container"),
                              width=0 if wide else MATCH, height=MATCH if wide else 0, weight=1)
        pad_frame = frame(pad, cls="android.widget.FrameLayout",
                          id=did("dialpad_fragment_container"),
                          width=pad_width if wide else MATCH,
                          height=MATCH if wide else WRAP, bg=pad_bg,
                          gravity="center_vertical" if wide else "start|top")
        if wide:  # landscape: the dialpad on the end side, results beside it
            return row(results_frame, pad_frame, width=MATCH, height=MATCH, bg=theme.background)
        return column(results_frame, pad_frame, width=MATCH, height=MATCH, bg=theme.background)

    def _key(self, ctx: Context, char: str, name: str, letters: str, height: float,
             number_size: float) -> View:
        theme = ctx.theme
        secondary = theme.text_secondary
        if char == "1":
            under = icon("voicemail", 16, id=did("dialpad_key_voicemail"), icon_color=secondary,
                         gravity="center_horizontal")
        else:
            under = text(letters, id=did("dialpad_key_letters"), text_size=12,
                         text_color=secondary, width=MATCH, align="center",
                         visible=bool(letters))
        desc = f"{char},{letters}" if letters and char != "0" else char
        long_press = (lambda: self.press("+")) if char == "0" else None
        return column(
            spacer(weight=1),
            text(char, id=did("dialpad_key_number"), text_size=number_size,
                 text_color=theme.text, width=MATCH, align="center"),
            under, spacer(weight=1),
            cls="android.widget.FrameLayout", id=did(name), desc=desc, clickable=True,
            focusable=True, long_clickable=char == "0", width=0, weight=1, height=height,
            on_click=lambda: self.press(char), on_long_click=long_press)


class DialerApp(App):
    package = PACKAGE
    label_key = f"app.{PACKAGE}"
    uid = 10092
    activities = {MAIN: MainActivity, calls.INCALL: InCallActivity}
    intent_actions = {"android.intent.action.DIAL": MAIN}

    def initial_data(self) -> calls.DialerData:
        return calls.DialerData()

    def on_boot(self, ctx: Context) -> None:
        if not isinstance(ctx.data, calls.DialerData):
            ctx.system.state.app_data[PACKAGE] = calls.DialerData()
        ctx.data.call = ctx.data.held_call = None  # a restart drops the calls in progress
        calllog.ensure(ctx.system.state.vfs)

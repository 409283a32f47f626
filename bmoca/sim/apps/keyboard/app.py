"""Gboard's soft keyboard: a real on-screen window whose keys type into the focused field."""

from __future__ import annotations

from bmoca.sim.apps.base import App, Context
from bmoca.sim.apps.keyboard import suggestions
from bmoca.sim.ui.view import MATCH, View, column, row, text

PACKAGE = "com.google.android.inputmethod.latin"
ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
SYMBOL_ROWS = ("1234567890", "@#$_&-+()/", "*\"':;!?")
NUMBER_ROWS = ("123-", "456 ", "789\b", ",0.\n")
"""Gboard's number pad (inputType number): space, backspace and the action key in the last
column. The phone pad (inputType phone) puts * 0 + in its last row."""
PHONE_LAST_ROW = "*0+\n"
ACTION_ICONS = {"done": "check", "search": "search", "next": "keyboard_tab", "send": "send",
                "go": "arrow_forward"}


class Gboard(App):
    package = PACKAGE
    label_key = "app.gboard"
    uid = 10090
    activities = {}
    system_process = True

    def initial_data(self) -> dict:
        return {"shift": False, "symbols": False}


def _id(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


def build(ctx: Context, field: View) -> View:
    """The keyboard for `field`; tapping a key edits the field through its on_text."""
    data = ctx.data
    theme = ctx.theme
    rows = SYMBOL_ROWS if data["symbols"] else ROWS

    def type_char(char: str):
        def handler() -> None:
            if field.on_text is None:
                return
            text = char.upper() if data["shift"] and not data["symbols"] else char
            field.on_text(field.text + text)
            data["shift"] = False
        return handler

    def backspace() -> None:
        if field.on_text is not None and field.text:
            field.on_text(field.text[:-1])

    def toggle(key: str):
        def handler() -> None:
            data[key] = not data[key]
        return handler

    def key(view_id: str, label: str, handler, weight: float = 1.0, icon: str | None = None,
            desc: str = "", accent: bool = False) -> View:
        # key labels are drawn by the keyboard view's Paint, not TextViews: no font padding;
        # on a short keyboard (700 dpi, large font) they shrink to fit their keys
        return View(cls="android.widget.FrameLayout", id=_id(view_id), desc=desc or label,
                    text="" if icon else label, icon=icon, icon_size=22, width=0, height=MATCH,
                    weight=weight, margin=(3, 4, 3, 4), bg=theme.accent if accent else theme.key,
                    corner=6, text_size=22, min_text_size=12, align="center",
                    on_click=handler, clickable=True,
                    icon_color=(255, 255, 255) if accent else theme.text, mirror=False,
                    text_color=theme.text, include_font_padding=False)

    def submit() -> None:
        if field.on_submit is not None:
            field.on_submit()

    if field.input_type in ("number", "phone"):
        return _number_pad(ctx, field, key, type_char, backspace, submit)

    grid = []
    for r, letters in enumerate(rows):
        keys = []
        if r == 2:
            keys.append(key("key_pos_shift", "", toggle("shift"), 1.5, icon="shift",
                            desc=ctx.t("keyboard.shift")))
        for c, char in enumerate(letters):
            label = char.upper() if data["shift"] and not data["symbols"] else char
            keys.append(key(f"key_pos_{r}_{c}", label, type_char(char)))
        if r == 2:
            keys.append(key("key_pos_del", "", backspace, 1.5, icon="backspace",
                            desc=ctx.t("keyboard.delete")))
        pad = (16, 0, 16, 0) if r == 1 and not data["symbols"] else (0, 0, 0, 0)
        grid.append(row(*keys, height=0, weight=1, padding=pad, mirror=False))

    grid.insert(0, _strip(ctx, field))
    grid.append(row(
        key("key_pos_switch_to_symbol", "?123" if not data["symbols"] else "ABC",
            toggle("symbols"), 1.5, desc=ctx.t("keyboard.symbols")),
        key("key_pos_comma", ",", type_char(",")),
        key("key_pos_space", "", type_char(" "), 5, desc=ctx.t("keyboard.space")),
        key("key_pos_period", ".", type_char(".")),
        key("key_pos_ime_action", "", submit, 1.5, icon=ACTION_ICONS[field.ime_action],
            desc=ctx.t("keyboard.action"), accent=True),
        height=0, weight=1, mirror=False))
    return column(*grid, cls="android.widget.FrameLayout", id=_id("keyboard_holder"),
                  width=MATCH, height=MATCH, bg=theme.keyboard, padding=(4, 6, 4, 6))


def _number_pad(ctx: Context, field: View, key, type_char, backspace, submit) -> View:
    rows = list(NUMBER_ROWS)
    if field.input_type == "phone":
        rows[-1] = PHONE_LAST_ROW
    grid = []
    for r, chars in enumerate(rows):
        keys = []
        for c, char in enumerate(chars):
            if char == " ":
                keys.append(key("key_pos_space", "", type_char(" "), icon="space_bar",
                                desc=ctx.t("keyboard.space")))
            elif char == "\b":
                keys.append(key("key_pos_del", "", backspace, icon="backspace",
                                desc=ctx.t("keyboard.delete")))
            elif char == "\n":
                keys.append(key("key_pos_ime_action", "", submit,
                                icon=ACTION_ICONS[field.ime_action],
                                desc=ctx.t("keyboard.action"), accent=True))
            else:
                keys.append(key(f"key_pos_{r}_{c}", char, type_char(char)))
        grid.append(row(*keys, height=0, weight=1, mirror=False))
    return column(*grid, cls="android.widget.FrameLayout", id=_id("keyboard_holder"),
                  width=MATCH, height=MATCH, bg=ctx.theme.keyboard, padding=(4, 6, 4, 6))


STRIP_DP = 44
"""The suggestion strip's height above the letter keys."""
STRIP_TOOLS = (("features", "chevron_right"), ("clipboard", "content_paste"),
               ("settings", "settings"), ("voice", "mic"))


def _strip(ctx: Context, field: View) -> View:
    """Three suggestions while a word is typed, else the tools (`bmoca...suggestions`)."""
    theme = ctx.theme
    english = ctx.locale.startswith("en")
    slots = suggestions.candidates(field.text or "", english)
    if not slots:
        tools = [View(cls="android.widget.ImageView", id=_id(f"strip_{name}"),
                      desc=ctx.t(f"keyboard.strip.{name}"), icon=glyph, icon_size=22,
                      icon_color=theme.text_secondary, width=0, weight=1, height=MATCH)
                 for name, glyph in STRIP_TOOLS]
        return row(*tools, cls="android.widget.LinearLayout", id=_id("suggestion_strip"),
                   width=MATCH, height=STRIP_DP, mirror=False)

    def choose(suggestion: str):
        def handler() -> None:
            if field.on_text is not None:
                field.on_text(suggestions.accept(field.text or "", suggestion))
        return handler

    views: list[View] = []
    for i, word in enumerate(slots):
        if i:
            views.append(View(cls="", width=1, height=24, bg=theme.divider,
                              gravity="center_vertical"))
        views.append(text(word, id=_id("suggestion"), text_size=16,
                          font_weight=500 if i == 1 else 400, text_color=theme.text,
                          width=0, weight=1, height=MATCH, align="center", gravity="center",
                          clickable=bool(word), on_click=choose(word) if word else None))
    return row(*views, cls="android.widget.LinearLayout", id=_id("suggestion_strip"),
               width=MATCH, height=STRIP_DP, mirror=False, gravity="center_vertical")

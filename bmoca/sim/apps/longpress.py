"""What a long press does in the apps: the text-field rule and the contextual action bar.

On Android 10 a view that is long-clickable consumes a long press: its listener runs and
no click follows on release. Every long-clickable view in the apps therefore has an
`on_long_click` (tests/test_long_press.py holds every screen the task experts visit to
it); this module has the two shapes most of them share.

* A text field (`EditText` and its subclasses are long-clickable because they take keys:
  `TextView`'s constructor sets `longClickable = focusable || ...`): the long press
  focuses it and brings up the keyboard, as a tap does; the real `Editor` also selects
  the word under the finger (typing then replaces it) and floats the Cut / Copy / Paste /
  Share / Select all toolbar, or on an empty field the Paste bubble when the clipboard
  holds text. The simulator has no cursor, selection or clipboard, so it keeps the caret
  at the end of the text and draws no toolbar: typing after a long press goes in after
  the text already there.
* A list row that starts a selection (Contacts, Messages, Files): the row is checked and
  the app's toolbar becomes a contextual action bar (a close button, the count, the
  actions on the selection); taps then check and uncheck rows, BACK or the close button
  leaves, and unchecking the last row leaves too.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TypeVar

from bmoca.sim.apps.alert_dialog import dialog_card
from bmoca.sim.apps.base import Context
from bmoca.sim.apps.contacts.ui import icon_button, overflow_button
from bmoca.sim.ui.view import Color, View, row, text

K = TypeVar("K", bound=Hashable)


def focus_field(ctx: Context, field_id: str,
                then: Callable[[], None] | None = None) -> Callable[[], None]:
    """An EditText's long press: the field takes focus (and the keyboard), then `then`
    runs, the app's own reaction to the field gaining focus (Chrome's omnibox enters its
    editing state). No text changes."""
    def long_click() -> None:
        if ctx.record is not None:
            ctx.record.focus = field_id
        if then is not None:
            then()
    return long_click


def toggled(selected: tuple[K, ...], key: K) -> tuple[K, ...]:
    """The selection with `key` checked if it was not, unchecked if it was (order kept)."""
    return tuple(k for k in selected if k != key) if key in selected else (*selected, key)


def leave_selection(screen) -> bool:
    """BACK in a selection mode (`screen` has `selected` and `confirm_delete`): the
    deletion's confirmation closes first, then the selection; False when neither is open."""
    if screen.confirm_delete:
        screen.confirm_delete = False
        return True
    if screen.selected:
        screen.selected = ()
        return True
    return False


def delete_confirmation(ctx: Context, screen, title: str, message: str, cancel_label: str,
                        ok_label: str, remove: Callable[[], None]) -> View | None:
    """The dialog a selection's Delete asks first (None while it is not asking): Cancel
    closes it; OK runs `remove`, then the selection mode ends."""
    if not (screen.confirm_delete and screen.selected):
        return None

    def cancel() -> None:
        screen.confirm_delete = False

    def delete() -> None:
        remove()
        screen.confirm_delete, screen.selected = False, ()

    return dialog_card(ctx, title, message, [("button2", cancel_label, cancel),
                                             ("button1", ok_label, delete)])


@dataclass(frozen=True)
class Action:
    """One icon of a contextual action bar (a menu item shown as an action)."""

    glyph: str
    desc: str
    view_id: str
    on_click: Callable[[], None] | None
    """None: drawn but not simulated (as the apps' other inert overflow buttons)."""
    cls: str = "android.widget.TextView"
    """An action is an ActionMenuItemView (a TextView)."""
    tooltip: bool = True
    """An icon-only ActionMenuItemView has its title as tooltip (a long press shows it and
    clicks nothing); an item that shows its title as text has none."""
    overflow: bool = False
    """The action mode's ⋮ (`overflow_button`)."""


def action_bar(ctx: Context, *, bar_id: str, close_id: str, close_desc: str,
               on_close: Callable[[], None], title: str, title_id: str,
               actions: list[Action], bg: Color, fg: Color,
               close_glyph: str = "close") -> View:
    """A contextual action bar over the app's toolbar: close, the count, the actions."""
    return row(
        icon_button(ctx, close_glyph, close_desc, on_close, fg, close_id),
        text(title, id=title_id, text_size=20, font_weight=500, text_color=fg, width=0,
             weight=1, gravity="center_vertical", margin=(24, 0, 0, 0)),
        *(overflow_button(ctx, a.desc, a.on_click, fg, a.view_id) if a.overflow else
          icon_button(ctx, a.glyph, a.desc, a.on_click, fg, a.view_id, cls=a.cls,
                      tooltip=a.tooltip)
          for a in actions),
        cls="android.view.ViewGroup", id=bar_id, height=56, bg=bg, padding=(4, 0, 4, 0),
        gravity="center_vertical", elevation=4)

"""Pieces the Contacts and Messages screens share: letter-tile avatars, toolbars, icon buttons.

Android's `LetterTileDrawable` (used by Contacts, Dialer and Messages) draws a coloured
circle with the name's first letter; the colour is picked from a fixed palette by a hash of
the contact's identity, so the same person keeps the same colour everywhere. The hash here
is CRC-32 (Python's `hash` is salted per process and would change colours between runs).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable

from bmoca.sim.apps.base import Context
from bmoca.sim.ui.view import MATCH, Color, View, frame, icon

TILE_COLORS: tuple[Color, ...] = (
    (219, 68, 55), (233, 30, 99), (156, 39, 176), (103, 58, 183), (63, 81, 181),
    (66, 133, 244), (3, 155, 229), (0, 172, 193), (0, 137, 123), (15, 157, 88),
    (104, 159, 56), (239, 108, 0), (255, 87, 34), (117, 117, 117),
)
"""The letter-tile palette (Material 500-600 tones, as in `letter_tile_colors`)."""


def tile_color(identity: str) -> Color:
    return TILE_COLORS[zlib.crc32(identity.encode("utf-8")) % len(TILE_COLORS)]


def initial(name: str) -> str:
    """The tile's letter: the first letter of the name, or none for a bare number."""
    for ch in name.strip():
        if ch.isalpha():
            return ch.upper()
        break
    return ""


def letter_tile(name: str, identity: str, size: float = 40, view_id: str = "",
                desc: str = "", text_size: float | None = None) -> View:
    """A round avatar: the initial on a coloured disc (a person glyph for numbers)."""
    letter = initial(name)
    return View(cls="android.widget.ImageView", id=view_id, desc=desc, width=size, height=size,
                corner=size / 2,
                bg=tile_color(identity), icon=None if letter else "person",
                icon_color=(255, 255, 255), icon_size=size * 0.6, icon_filled=True,
                children=[View(cls="", text=letter, text_size=text_size or size * 0.45,
                               text_color=(255, 255, 255), width=size, height=size,
                               align="center", visible=bool(letter))],
                orientation="z", gravity="center_vertical")


def icon_button(ctx: Context, glyph: str, desc: str, on_click: Callable[[], None] | None,
                color: Color, view_id: str = "", cls: str = "android.widget.ImageButton",
                filled: bool = False, tooltip: bool = False) -> View:
    """A 48 dp toolbar action (navigation button, menu item).

    `tooltip`: the description is also the view's tooltip, as AppCompat gives a Toolbar's
    navigation button (`setNavigationContentDescription` calls TooltipCompat) and an
    icon-only ActionMenuItemView (its title): a long press then shows the label and
    clicks nothing. An app's own ImageButton has none unless it sets android:tooltipText."""
    return frame(icon(glyph, 24, icon_color=color, icon_filled=filled, gravity="center",
                      cls=""),
                 cls=cls, id=view_id, desc=desc, width=48, height=48, clickable=True,
                 focusable=True, on_click=on_click, gravity="center_vertical",
                 tooltip=desc if tooltip else "")


def overflow_button(ctx: Context, desc: str, on_click: Callable[[], None] | None,
                    color: Color, view_id: str = "") -> View:
    """AppCompat's ActionMenuPresenter.OverflowMenuButton, the ⋮ of a Toolbar or action
    mode: an ImageView with its description ("More options") as tooltip, and long-clickable
    because its ForwardingListener (drag from ⋮ into the menu) sets LONG_CLICKABLE, which
    also stops that listener opening the menu on a hold. So a long press finds no
    OnLongClickListener and no context menu, shows the tooltip and clicks nothing."""
    view = icon_button(ctx, "more_vert", desc, on_click, color, view_id,
                       cls="android.widget.ImageView", tooltip=True)
    view.long_clickable = True
    return view



def ime_inset(ctx: Context, field_ids: tuple[str, ...]) -> View | None:
    """adjustResize: while one of these fields has the keyboard, a spacer as tall as the
    keyboard window keeps the bottom of the screen (a compose bar) above it."""
    record = ctx.record
    if record is None or record.focus not in field_ids:
        return None
    _, height_dp = ctx.system.screen_dp()
    return View(cls="", width=MATCH, height=(height_dp - 24 - 48) * 0.40)

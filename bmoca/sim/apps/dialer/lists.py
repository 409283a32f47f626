"""The Dialer's lists: Favorites, Recents (the call log), Contacts, and search results.

Favorites are the starred contacts of the contacts store, as tiles; Recents are the rows
of `calllog.db`, newest first under Today / Yesterday / Older; Contacts is the address
book with letter headers under a "Create new contact" row. Tapping a favorite, a search
result or a Recents row's call button places a call.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from bmoca.formats.phone_numbers import digits_of
from bmoca.sim.apps.base import Context
from bmoca.sim.apps.contacts import app as contacts_app
from bmoca.sim.apps.contacts.ui import initial, tile_color
from bmoca.sim.apps.dialer import calls
from bmoca.sim.apps.messages import app as messages
from bmoca.sim.system import calllog, contacts
from bmoca.sim.ui.view import MATCH, WRAP, Color, View, column, frame, icon, row, scroller, text

TYPE_KEYS = {1: "dialer.type.home", 2: "dialer.type.mobile", 3: "dialer.type.work"}


def did(name: str) -> str:
    return f"{calls.DIALER}:id/{name}"


def accent(ctx: Context) -> Color:
    return (138, 180, 248) if ctx.theme.dark else (26, 115, 232)


def icon_button(glyph: str, desc: str, color: Color, on_click: Callable[[], None] | None,
                view_id: str = "", cls: str = "android.widget.ImageButton") -> View:
    return frame(icon(glyph, 24, icon_color=color, gravity="center", cls=""), cls=cls,
                 id=view_id, desc=desc, width=48, height=48, clickable=on_click is not None,
                 focusable=on_click is not None, on_click=on_click, gravity="center_vertical")


def letter_tile(name: str, identity: str, size: float, view_id: str = "") -> View:
    """The Dialer's QuickContactBadge: ContactsCommon's letter tile (`contacts/ui.py`)."""
    letter = initial(name)
    return View(cls="android.widget.QuickContactBadge", id=view_id, width=size, height=size,
                corner=size / 2, bg=tile_color(identity), icon=None if letter else "person",
                icon_color=(255, 255, 255), icon_size=size * 0.6, icon_filled=True,
                orientation="z", gravity="center_vertical",
                children=[View(cls="", text=letter, text_size=size * 0.45,
                               text_color=(255, 255, 255), width=size, height=size,
                               align="center", visible=bool(letter))])


def number_text(ctx: Context, value: str, view_id: str, size: float, color: Color,
                **kw) -> View:
    """A TextView with android:textDirection="ltr", as the Dialer's number fields have, so
    `(202) 456-1111` does not come out as `456-1111 (202)` in Arabic or Urdu."""
    kw.setdefault("width", MATCH)
    kw.setdefault("align", "center")
    return text(value, id=view_id, text_size=size, text_color=color, text_direction="ltr", **kw)


def _call(ctx: Context, number: str) -> Callable[[], None]:
    return lambda: calls.place_call(ctx.system, calls.display_number(number))


def _empty(ctx: Context, glyph: str, message: str, view_id: str) -> View:
    theme = ctx.theme
    return column(
        icon(glyph, 96, icon_color=theme.divider, gravity="center_horizontal",
             margin=(0, 48, 0, 16)),
        text(message, id=did("empty_list_view_message"), text_size=16,
             text_color=theme.text_secondary, width=MATCH, align="center", max_lines=3,
             padding=(24, 0, 24, 0)),
        cls="android.widget.LinearLayout", id=did(view_id), width=MATCH, height=WRAP)


def tab_content(ctx: Context, tab: str,
                on_call_menu: Callable[[calllog.CallEntry], None] | None = None) -> View:
    """The tab's list; `on_call_menu` is a call log row's long press (its context menu)."""
    if tab == "call_log":
        return recents(ctx, on_call_menu)
    if tab == "contacts":
        return contact_list(ctx)
    return favorites(ctx)


# -- Favorites ----------------------------------------------------------------------------


def favorites(ctx: Context) -> View:
    theme = ctx.theme
    starred = [c for c in contacts.all_contacts(ctx.system.state.vfs) if c.starred]
    if not starred:
        return _empty(ctx, "star", ctx.t("dialer.favorites_empty"), "empty_content_view")
    width_dp, _ = ctx.system.screen_dp()
    per_row = max(2, min(6, int(width_dp // 120)))
    tiles = []
    for contact in starred:
        phone = contact.phones[0] if contact.phones else None
        tiles.append(column(
            letter_tile(contact.display_name, contact.lookup, 72, view_id=did("avatar")),
            text(contact.display_name, id=did("name"), text_size=14, text_color=theme.text,
                 width=MATCH, align="center", margin=(0, 8, 0, 0)),
            text(ctx.t(TYPE_KEYS.get(phone.type, "dialer.type.mobile")) if phone else "",
                 id=did("phone_type"), text_size=12, text_color=theme.text_secondary,
                 width=MATCH, align="center", visible=phone is not None),
            cls="android.widget.FrameLayout", id=did("favorite_item_layout"),
            desc=contact.display_name, clickable=phone is not None, focusable=True,
            width=0, weight=1, height=WRAP, padding=(8, 16, 8, 8),
            gravity="center_horizontal",
            on_click=_call(ctx, phone.number) if phone else None))
    rows = []
    for start in range(0, len(tiles), per_row):
        chunk = tiles[start:start + per_row]
        chunk += [View(cls="", width=0, weight=1, height=1)] * (per_row - len(chunk))
        rows.append(row(*chunk, height=WRAP))
    header = text(ctx.t("dialer.tab.speed_dial"), text_size=14, font_weight=500,
                  text_color=theme.text_secondary, width=MATCH, padding=(16, 16, 16, 0))
    return scroller(header, *rows, key="favorites",
                    cls="androidx.recyclerview.widget.RecyclerView",
                    id=did("speed_dial_recycler_view"), width=MATCH)


# -- Recents -------------------------------------------------------------------------------


def _when(ctx: Context, moment: dt.datetime, now: dt.datetime) -> str:
    if moment.date() == now.date():
        if ctx.is_24_hour:
            return f"{moment.hour:02d}:{moment.minute:02d}"
        return ctx.t("dialer.time_12h", hour=(moment.hour % 12) or 12,
                     minute=f"{moment.minute:02d}",
                     ampm=ctx.t("dialer.am" if moment.hour < 12 else "dialer.pm"))
    return ctx.t("dialer.date", month=ctx.t(f"date.month_short.{moment.month}"), day=moment.day)


def recents(ctx: Context,
            on_call_menu: Callable[[calllog.CallEntry], None] | None = None) -> View:
    theme = ctx.theme
    entries = calllog.calls(ctx.system.state.vfs)
    if not entries:
        return _empty(ctx, "schedule", ctx.t("dialer.call_log_empty"), "empty_list_view")
    now = ctx.now()
    views: list[View] = []
    group = None
    type_icons = {calllog.INCOMING_TYPE: ("call_received", (15, 157, 88), "dialer.incoming"),
                  calllog.OUTGOING_TYPE: ("call_made", (15, 157, 88), "dialer.outgoing"),
                  calllog.MISSED_TYPE: ("call_missed", (217, 48, 37), "dialer.missed")}
    for entry in entries:
        moment = dt.datetime.fromtimestamp(entry.date_ms / 1000, tz=dt.UTC)
        days = (now.date() - moment.date()).days
        label = "dialer.today" if days <= 0 else "dialer.yesterday" if days == 1 else "dialer.older"
        if label != group:
            group = label
            views.append(text(ctx.t(label), id=did("call_log_day_group_label"), text_size=14,
                              font_weight=500, text_color=theme.text_secondary, width=MATCH,
                              padding=(16, 16, 16, 8)))
        shown = calls.display_number(entry.number)
        glyph, color, desc_key = type_icons.get(entry.type, type_icons[calllog.OUTGOING_TYPE])
        detail = _when(ctx, moment, now)
        if entry.name:
            detail = f"{ctx.t(TYPE_KEYS.get(entry.numbertype or 2, 'dialer.type.mobile'))} • {detail}"
        views.append(row(
            letter_tile(entry.name or "", entry.name or entry.number, 40,
                        view_id=did("quick_contact_photo")),
            column(text(entry.name, id=did("name"), text_size=16, text_color=theme.text,
                        width=MATCH) if entry.name else
                   number_text(ctx, shown, did("name"), 16, theme.text, align="start"),
                   row(icon(glyph, 16, id=did("call_type_icons"), icon_color=color,
                            desc=ctx.t(desc_key), gravity="center_vertical"),
                       text(detail, id=did("call_location_and_date"), text_size=14,
                            text_color=theme.text_secondary, margin=(4, 0, 0, 0),
                            gravity="center_vertical"),
                       height=WRAP),
                   cls="android.widget.LinearLayout", width=0, weight=1, height=WRAP,
                   padding=(16, 0, 8, 0), gravity="center_vertical"),
            icon_button("call", ctx.t("dialer.call_number", number=entry.name or shown),
                        theme.icon, _call(ctx, entry.number),
                        view_id=did("primary_action_button")),
            cls="android.widget.LinearLayout", id=did("primary_action_view"), height=72,
            padding=(16, 0, 8, 0), clickable=True, focusable=True, on_click=lambda: None,
            long_clickable=on_call_menu is not None,
            on_long_click=(lambda e=entry: on_call_menu(e)) if on_call_menu else None,
            gravity="center_vertical"))
    return scroller(*views, key="recents", cls="androidx.recyclerview.widget.RecyclerView",
                    id=did("recycler_view"), width=MATCH)


# -- Contacts ------------------------------------------------------------------------------


def _contact_row(ctx: Context, contact: contacts.Contact, header: str,
                 on_click: Callable[[], None] | None, subtitle: str = "") -> View:
    theme = ctx.theme
    return row(
        text(header, id=did("header"), text_size=16, font_weight=500, text_color=accent(ctx),
             width=32, gravity="center_vertical"),
        letter_tile(contact.display_name, contact.lookup, 40, view_id=did("photo")),
        column(text(contact.display_name, id=did("contact_name"), text_size=16,
                    text_color=theme.text, width=MATCH),
               text(subtitle, id=did("contact_number"), text_size=14,
                    text_color=theme.text_secondary, width=MATCH, visible=bool(subtitle)),
               cls="android.widget.LinearLayout", width=0, weight=1, height=WRAP,
               padding=(16, 0, 0, 0), gravity="center_vertical"),
        cls="android.widget.LinearLayout", id=did("click_target"), height=64,
        padding=(8, 0, 16, 0), clickable=True, focusable=True, on_click=on_click,
        gravity="center_vertical")


def _open(ctx: Context, contact: contacts.Contact) -> Callable[[], None]:
    return lambda: contacts_app.open_contact(ctx, contact)


def contact_list(ctx: Context) -> View:
    theme = ctx.theme
    everyone = contacts.all_contacts(ctx.system.state.vfs)
    add_row = row(
        frame(icon("person_add", 24, icon_color=(255, 255, 255), gravity="center", cls=""),
              cls="android.widget.ImageView", width=40, height=40, corner=20,
              bg=accent(ctx), margin=(32, 0, 0, 0), gravity="center_vertical"),
        text(ctx.t("dialer.create_new_contact"), text_size=16, text_color=theme.text,
             padding=(16, 0, 0, 0), gravity="center_vertical"),
        cls="android.widget.LinearLayout", id=did("contact_header_row"), height=64,
        padding=(8, 0, 16, 0), clickable=True, focusable=True,
        on_click=lambda: contacts_app.new_contact(ctx), gravity="center_vertical")
    if not everyone:
        return column(add_row, _empty(ctx, "people", ctx.t("dialer.contacts_empty"),
                                      "empty_list_view"), width=MATCH, height=WRAP)
    views = [add_row]
    last = ""
    for contact in everyone:
        letter = contact.display_name[:1].upper()
        views.append(_contact_row(ctx, contact, letter if letter != last else "",
                                  _open(ctx, contact)))
        last = letter
    return scroller(*views, key="contacts", cls="androidx.recyclerview.widget.RecyclerView",
                    id=did("recycler_view"), width=MATCH)


# -- search ----------------------------------------------------------------------------------


def _matches(contact: contacts.Contact, query: str) -> bool:
    q = query.strip().casefold()
    if not q:
        return False
    if q in contact.display_name.casefold():
        return True
    dial = digits_of(q)
    return bool(dial) and dial == q.replace(" ", "") and any(
        dial in digits_of(p.number) for p in contact.phones)


def _result_rows(ctx: Context, query: str) -> list[View]:
    rows = []
    for contact in contacts.all_contacts(ctx.system.state.vfs):
        if not _matches(contact, query) or not contact.phones:
            continue
        phone = contact.phones[0]
        subtitle = f"{ctx.t(TYPE_KEYS.get(phone.type, 'dialer.type.mobile'))} {phone.number}"
        rows.append(_contact_row(ctx, contact, "", _call(ctx, phone.number), subtitle))
    return rows


def search_results(ctx: Context, query: str) -> View:
    return scroller(*_result_rows(ctx, query), key="search",
                    cls="androidx.recyclerview.widget.RecyclerView",
                    id=did("new_search_fragment_recycler_view"), width=MATCH)


def dialpad_results(ctx: Context, typed: str) -> View:
    """Above the dialpad: contacts whose number holds the digits, then the number actions."""
    theme = ctx.theme
    rows = _result_rows(ctx, typed) if typed else []
    if typed:
        actions = (("person_add", "dialer.create_new_contact",
                    lambda: contacts_app.new_contact(ctx, typed)),
                   ("person", "dialer.add_to_contact",
                    lambda: contacts_app.add_to_contact(ctx, typed)),
                   ("sms", "dialer.send_sms", lambda: messages.compose_to(ctx, typed)))
        for glyph, key, on_click in actions:
            rows.append(row(
                icon(glyph, 24, id=did("search_action_image"), icon_color=theme.icon,
                     margin=(40, 0, 0, 0), gravity="center_vertical"),
                text(ctx.t(key), id=did("search_action_text"), text_size=16,
                     text_color=theme.text, padding=(24, 0, 0, 0), gravity="center_vertical"),
                cls="android.widget.LinearLayout", height=56, clickable=True, focusable=True,
                on_click=on_click, gravity="center_vertical"))
    return scroller(*rows, key="dialpad_search", cls="androidx.recyclerview.widget.RecyclerView",
                    id=did("new_search_fragment_recycler_view"), width=MATCH)

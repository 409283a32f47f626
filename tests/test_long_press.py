"""A long press is not a tap: what the apps' long-clickable views do, played through env.step.

On Android 10 a long-clickable view consumes a long press (its listener runs, no click on
release), so every long-clickable view here must say what its long press does: a handler,
or a tooltip (AppCompat's overflow ⋮ is long-clickable with no listener: its tooltip shows).
"""

from __future__ import annotations

import pytest
from conftest import bounds, nodes

import bmoca
from bmoca import tasks
from bmoca.agents import ExpertAgent
from bmoca.env import DevicePool
from bmoca.sim.system import contacts as contact_store
from bmoca.sim.system import telephony

CONTACTS = "com.android.contacts"
MESSAGING = "com.google.android.apps.messaging"
FILES = "com.android.documentsui"
CHROME = "com.android.chrome"


# -- the invariant ------------------------------------------------------------------------------


def _unhandled(device) -> set[tuple[str, str, str]]:
    """(package, class, id) of the long-clickable views on screen with no long-press handler
    and no tooltip."""
    found = set()
    for window in device.frame.windows:
        for view in window.root.walk():
            if view.long_clickable and view.on_long_click is None and not view.tooltip:
                found.add((window.package, view.cls, view.id))
    return found


def test_every_long_clickable_view_the_experts_see_has_a_long_press():
    pool = DevicePool()
    unhandled: dict[tuple[str, str, str], str] = {}
    try:
        for task in tasks.all_tasks():
            env = bmoca.make(task.id, "test_env_100", device=pool, observation=("xml",),
                             action="json")
            observation, _ = env.reset(seed=0)
            agent = ExpertAgent(task)
            agent.reset(env.goal, seed=0)
            for view in _unhandled(env.device):
                unhandled.setdefault(view, task.id)
            while True:
                observation, _, terminated, truncated, _ = env.step(agent.act(observation))
                for view in _unhandled(env.device):
                    unhandled.setdefault(view, task.id)
                if terminated or truncated:
                    break
    finally:
        pool.close()
    assert not unhandled, unhandled


# -- playing long presses -----------------------------------------------------------------------


class Phone:
    """An episode driven by JSON actions; `xml` is the last observation."""

    def __init__(self, app: str):
        self.env = bmoca.make("contacts/open_the_contact_app", "test_env_100",
                              observation=("xml",), action="json", stop_on_success=False,
                              step_limit=60)
        observation, _ = self.env.reset(seed=0)
        self.xml = observation["xml"]
        self.act(action_type="open_app", app_name=app)

    def act(self, **action) -> str:
        observation, *_ = self.env.step(action)
        self.xml = observation["xml"]
        return self.xml

    def point(self, index: int = 0, **attrs: str) -> dict[str, int]:
        found = nodes(self.xml, **attrs)
        assert len(found) > index, f"no node {attrs} on screen"
        left, top, right, bottom = bounds(found[index])
        return {"x": (left + right) // 2, "y": (top + bottom) // 2}

    def long_press(self, index: int = 0, **attrs: str) -> str:
        return self.act(action_type="long_press", **self.point(index, **attrs))

    def click(self, index: int = 0, **attrs: str) -> str:
        return self.act(action_type="click", **self.point(index, **attrs))

    def has(self, **attrs: str) -> bool:
        return bool(nodes(self.xml, **attrs))

    @property
    def top(self) -> str:
        out, _ = self.env.device.shell("dumpsys activity activities")
        return next(line for line in out.splitlines() if "mResumedActivity" in line)

    @property
    def vfs(self):
        return self.env.device.system.state.vfs


def test_a_long_press_on_a_contact_selects_it_instead_of_opening_it():
    phone = Phone("Contacts")
    names = [n.get("text")
             for n in nodes(phone.xml, resource_id=f"{CONTACTS}:id/cliv_name_textview")]
    phone.long_press(text=names[0])
    assert "QuickContactActivity" not in phone.top
    assert nodes(phone.xml, resource_id=f"{CONTACTS}:id/selection_count_text")[0].get("text") == "1"
    assert phone.has(resource_id=f"{CONTACTS}:id/menu_delete")
    assert len(nodes(phone.xml, **{"class": "android.widget.CheckBox", "checked": "true"})) == 1
    assert not phone.has(resource_id=f"{CONTACTS}:id/floating_action_button")
    phone.click(text=names[1])  # a tap now checks, it does not open
    assert "QuickContactActivity" not in phone.top
    assert nodes(phone.xml, resource_id=f"{CONTACTS}:id/selection_count_text")[0].get("text") == "2"
    phone.act(action_type="navigate_back")  # BACK leaves the selection mode
    assert not phone.has(resource_id=f"{CONTACTS}:id/selection_bar")
    assert not phone.has(**{"class": "android.widget.CheckBox"})
    phone.click(text=names[0])  # and a tap opens a contact again
    assert "QuickContactActivity" in phone.top


def test_deleting_the_selected_contact_asks_first():
    phone = Phone("Contacts")
    before = contact_store.all_contacts(phone.vfs)
    victim = before[-1].display_name
    phone.long_press(text=victim)
    phone.click(resource_id=f"{CONTACTS}:id/menu_delete")
    assert phone.has(text="Delete this contact?")
    assert len(contact_store.all_contacts(phone.vfs)) == len(before)  # nothing yet
    phone.click(resource_id="android:id/button1")
    names = [c.display_name for c in contact_store.all_contacts(phone.vfs)]
    assert victim not in names and len(names) == len(before) - 1
    assert not phone.has(text=victim) and not phone.has(resource_id=f"{CONTACTS}:id/selection_bar")


def test_a_long_press_on_a_conversation_selects_it_instead_of_opening_it():
    phone = Phone("Messages")
    threads = telephony.threads(phone.vfs, phone.env.device.system.state.clock.now_ms)
    phone.long_press(resource_id=f"{MESSAGING}:id/swipeableContainer")
    assert "ConversationActivity" not in phone.top
    assert nodes(phone.xml, resource_id=f"{MESSAGING}:id/swipeableContainer")[0].get(
        "selected") == "true"
    assert phone.has(resource_id=f"{MESSAGING}:id/action_archive")
    phone.act(action_type="navigate_back")
    assert not phone.has(resource_id=f"{MESSAGING}:id/action_delete")
    assert "ConversationListActivity" in phone.top
    # selected again and deleted: the conversation and its messages go
    phone.long_press(resource_id=f"{MESSAGING}:id/swipeableContainer")
    phone.click(resource_id=f"{MESSAGING}:id/action_delete")
    assert phone.has(text="Delete this conversation?")
    phone.click(resource_id="android:id/button1")
    after = telephony.threads(phone.vfs, phone.env.device.system.state.clock.now_ms)
    assert [t.id for t in after] == [t.id for t in threads[1:]]
    assert telephony.messages(phone.vfs, threads[0].id, 0) == []


def test_a_long_press_on_a_file_selects_it():
    phone = Phone("Files")
    phone.long_press(resource_id=f"{FILES}:id/item_root")
    rows = nodes(phone.xml, resource_id=f"{FILES}:id/item_root")
    assert [r.get("selected") for r in rows].count("true") == 1
    assert nodes(phone.xml, resource_id=f"{FILES}:id/action_bar_title")[0].get("text") == \
        "1 selected"
    phone.click(resource_id=f"{FILES}:id/action_mode_close_button")
    assert not phone.has(resource_id=f"{FILES}:id/action_mode_bar")
    assert all(r.get("selected") == "false"
               for r in nodes(phone.xml, resource_id=f"{FILES}:id/item_root"))


def _tabs(phone: Phone) -> str:
    return nodes(phone.xml, resource_id=f"{CHROME}:id/tab_switcher_button")[0].get("content-desc")


def _tab_menu(phone: Phone) -> list[str]:
    phone.long_press(resource_id=f"{CHROME}:id/tab_switcher_button")
    assert phone.has(resource_id=f"{CHROME}:id/menu_list")
    assert not phone.has(resource_id=f"{CHROME}:id/tab_list_view"), "the switcher did not open"
    return [n.get("text") for n in nodes(phone.xml, resource_id=f"{CHROME}:id/menu_item_text")]


def test_the_tab_switcher_buttons_long_press_menu():
    phone = Phone("Chrome")
    assert _tabs(phone) .startswith("1 open tab")
    assert _tab_menu(phone) == ["Close tab", "New tab", "New incognito tab"]
    phone.click(text="New tab")
    assert not phone.has(resource_id=f"{CHROME}:id/menu_list")
    assert _tabs(phone) .startswith("2 open tabs")
    _tab_menu(phone)
    phone.click(text="Close tab")
    assert _tabs(phone) .startswith("1 open tab")
    _tab_menu(phone)
    phone.click(text="New incognito tab")
    assert phone.has(resource_id=f"{CHROME}:id/new_tab_incognito_title")
    _tab_menu(phone)
    phone.act(action_type="navigate_back")  # BACK closes the menu, nothing else
    assert not phone.has(resource_id=f"{CHROME}:id/menu_list")
    assert phone.has(resource_id=f"{CHROME}:id/new_tab_incognito_title")


@pytest.mark.parametrize(("app", "field", "opener"), [
    ("Messages", f"{MESSAGING}:id/compose_message_text", f"{MESSAGING}:id/swipeableContainer"),
    ("Contacts", f"{CONTACTS}:id/first_name", f"{CONTACTS}:id/floating_action_button"),
])
def test_a_long_press_on_a_text_field_focuses_it_for_typing(app, field, opener):
    phone = Phone(app)
    phone.click(resource_id=opener)
    if phone.has(focused="true"):  # the new-contact editor opens with its first field focused
        phone.act(action_type="navigate_back")
    assert nodes(phone.xml, resource_id=field)[0].get("focused") == "false"
    phone.long_press(resource_id=field)
    assert nodes(phone.xml, resource_id=field)[0].get("focused") == "true"
    phone.act(action_type="input_text", text="hello")
    assert nodes(phone.xml, resource_id=field)[0].get("text").endswith("hello")


def test_gmail_and_photos_select_on_a_long_press():
    phone = Phone("Gmail")
    gm = "com.google.android.gm"
    phone.long_press(resource_id=f"{gm}:id/viewified_conversation_item_view")
    assert nodes(phone.xml, resource_id=f"{gm}:id/action_bar_title")[0].get("text") == "1"
    assert phone.has(resource_id=f"{gm}:id/archive")
    phone.click(1, resource_id=f"{gm}:id/viewified_conversation_item_view")
    assert nodes(phone.xml, resource_id=f"{gm}:id/action_bar_title")[0].get("text") == "2"
    phone.act(action_type="navigate_back")
    assert phone.has(resource_id=f"{gm}:id/open_search")
    assert "MailActivityGmail" in phone.top

    phone = Phone("Photos")
    photos = "com.google.android.apps.photos"
    phone.long_press(resource_id=f"{photos}:id/photo_grid_item")
    assert [n.get("selected") for n in nodes(phone.xml, resource_id=f"{photos}:id/photo_grid_item")
            ].count("true") == 1
    phone.click(resource_id=f"{photos}:id/photo_grid_item")  # the last one unselected: done
    assert all(n.get("selected") == "false"
               for n in nodes(phone.xml, resource_id=f"{photos}:id/photo_grid_item"))


def test_a_long_press_on_the_timers_delete_key_clears_it():
    phone = Phone("Clock")
    deskclock = "com.google.android.deskclock"
    phone.click(content_desc="Timer")
    for digit in "125":
        phone.click(resource_id=f"{deskclock}:id/timer_setup_digit_{digit}")
    shown = f"{deskclock}:id/timer_setup_time"
    assert nodes(phone.xml, resource_id=shown)[0].get("text") != "00h 00m 00s"
    phone.long_press(resource_id=f"{deskclock}:id/timer_setup_delete")
    assert nodes(phone.xml, resource_id=shown)[0].get("text") == "00h 00m 00s"


def test_a_call_log_rows_context_menu():
    from bmoca.sim.system import calllog

    phone = Phone("Phone")
    dialer = "com.android.dialer"
    now = phone.env.device.system.state.clock.now_ms
    calllog.add_call(phone.vfs, "2125550147", now - 60_000, 30, calllog.OUTGOING_TYPE)
    calllog.add_call(phone.vfs, "3125550111", now - 30_000, 30, calllog.INCOMING_TYPE)
    phone.click(resource_id=f"{dialer}:id/call_log_tab")
    phone.long_press(resource_id=f"{dialer}:id/primary_action_view")
    titles = [n.get("text") for n in nodes(phone.xml, resource_id="android:id/title")]
    assert titles == ["Copy number", "Edit number before call", "Block number", "Delete"]
    assert "InCallActivity" not in phone.top  # the long press placed no call
    phone.click(text="Delete")
    assert [c.number for c in calllog.calls(phone.vfs)] == ["2125550147"]
    phone.long_press(resource_id=f"{dialer}:id/primary_action_view")
    phone.click(text="Edit number before call")
    digits = nodes(phone.xml, resource_id=f"{dialer}:id/digits")[0].get("text")
    assert "".join(c for c in digits if c.isdigit()) == "2125550147"


def test_the_file_picker_selects_a_photo_and_select_picks_it():
    phone = Phone("Snapseed")
    snapseed = "com.niksoftware.snapseed:id/"
    phone.click(resource_id=snapseed + "logo_view")
    phone.click(resource_id=snapseed + "open_from_device")
    tile = next(n for n in nodes(phone.xml, long_clickable="true")
                if (n.get("content-desc") or "").startswith("99_Colosseum.jpg, "))
    desc = tile.get("content-desc")
    phone.long_press(content_desc=desc)
    assert nodes(phone.xml, content_desc=desc)[0].get("selected") == "true"
    assert "PickActivity" in phone.top  # selected, not picked
    phone.long_press(content_desc=desc)  # unselected: the action mode goes
    assert not phone.has(resource_id=f"{FILES}:id/action_menu_select")
    phone.long_press(content_desc=desc)
    phone.click(resource_id=f"{FILES}:id/action_menu_select")
    assert "PickActivity" not in phone.top and "snapseed" in phone.top

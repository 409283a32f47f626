"""A long press on a view with a tooltip shows the tooltip and clicks nothing.

On Android 10 View.performLongClickInternal shows a TOOLTIP view's tooltip when no
long-click listener takes the press, and the lift then performs no click; uiautomator still
says `long-clickable="false"` (AppCompat's overflow ⋮ excepted: its ForwardingListener makes
it long-clickable). Toolbars' navigation buttons, icon-only menu items, overflow buttons and
Material bottom-navigation items carry tooltips. Played through `env.step` with the JSON
actions an agent sends.
"""

from __future__ import annotations

import pytest
from conftest import bounds, nodes

import bmoca

MESSAGING = "com.google.android.apps.messaging:id/"
CONTACTS = "com.android.contacts:id/"
WIKI = "org.wikipedia:id/"
WALMART = "com.walmart.android:id/"


class Episode:
    """One task's episode driven by JSON actions; `xml` is the last observation."""

    def __init__(self, task_id: str, app: str):
        self.env = bmoca.make(task_id, "test_env_100", observation=("xml",), action="json",
                              stop_on_success=False, step_limit=40)
        observation, _ = self.env.reset(seed=0)
        self.xml = observation["xml"]
        self.success = False
        self.act(action_type="open_app", app_name=app)

    def act(self, **action) -> str:
        observation, reward, *_ = self.env.step(action)
        self.xml, self.success = observation["xml"], bool(reward)
        return self.xml

    def node(self, **attrs: str):
        found = nodes(self.xml, **attrs)
        assert found, f"no node {attrs} on screen"
        return found[0]

    def at(self, verb: str, **attrs: str) -> str:
        left, top, right, bottom = bounds(self.node(**attrs))
        return self.act(action_type=verb, x=(left + right) // 2, y=(top + bottom) // 2)

    def held_changes_nothing(self, **attrs: str) -> None:
        """A long press on the view leaves the screen and the verdict as they were."""
        before, verdict = self.xml, self.success
        assert self.at("long_press", **attrs) == before
        assert self.success == verdict


def test_holding_messages_search_icon_does_not_open_search():
    phone = Episode("messages/activate_the_search_bar_in_message", "Messages")
    assert phone.node(resource_id=MESSAGING + "action_zero_state_search").get(
        "long-clickable") == "false"
    phone.held_changes_nothing(resource_id=MESSAGING + "action_zero_state_search")
    assert not phone.success
    phone.at("click", resource_id=MESSAGING + "action_zero_state_search")
    assert phone.success


def test_holding_a_toolbar_up_button_stays_on_the_page():
    phone = Episode("messages/activate_the_search_bar_in_message", "Messages")
    phone.at("click", resource_id=MESSAGING + "conversation_name")
    assert nodes(phone.xml, resource_id=MESSAGING + "conversation_title")
    phone.held_changes_nothing(content_desc="Navigate up")
    phone.at("click", content_desc="Navigate up")
    assert not nodes(phone.xml, resource_id=MESSAGING + "conversation_title")


def test_holding_a_contacts_edit_icon_opens_no_editor():
    phone = Episode("contacts/activate_the_edit_page_in_contact", "Contacts")
    phone.at("click", resource_id=CONTACTS + "cliv_name_textview")
    phone.held_changes_nothing(resource_id=CONTACTS + "menu_star")
    phone.held_changes_nothing(resource_id=CONTACTS + "menu_edit")
    assert not phone.success
    phone.at("click", resource_id=CONTACTS + "menu_edit")
    assert phone.success


def test_holding_an_overflow_button_opens_no_menu():
    """AppCompat's ⋮ is reported long-clickable, and holding it shows "More options"."""
    phone = Episode("clock/create_alarm_at_06:30_am", "Clock")
    overflow = phone.node(content_desc="More options")
    assert overflow.get("long-clickable") == "true"
    phone.held_changes_nothing(content_desc="More options")
    phone.at("click", content_desc="More options")
    assert nodes(phone.xml, text="Settings")


@pytest.mark.parametrize(("task", "app", "tab", "selected"), [
    ("walmart/go_to_account_tab_in_Walmart", "Walmart", WALMART + "navigation_account",
     WALMART + "navigation_shop"),
    ("wikipedia/decrease_the_text_size_to_50%_in_Wikipedia", "Wikipedia",
     WIKI + "nav_tab_reading_lists", WIKI + "nav_tab_explore"),
])
def test_holding_a_bottom_navigation_item_switches_nothing(task, app, tab, selected):
    phone = Episode(task, app)
    assert phone.node(resource_id=tab).get("long-clickable") == "false"
    phone.held_changes_nothing(resource_id=tab)
    assert phone.node(resource_id=selected).get("selected") == "true"
    phone.at("click", resource_id=tab)
    assert phone.node(resource_id=tab).get("selected") == "true"


@pytest.mark.parametrize(("task", "app"), [
    ("contacts/open_the_contact_app", "Contacts"),
    ("messages/open_the_message_app", "Messages"),
    ("files/open_the_file_manager_app", "Files"),
    ("walmart/open_Walmart", "Walmart"),
])
def test_every_tooltip_on_a_first_screen_takes_the_long_press(task, app):
    """Whatever view carries a tooltip (and no long-press handler of its own), holding it
    changes nothing on the screen."""
    phone = Episode(task, app)
    held = [view for window in phone.env.device.frame.windows
            for view in window.root.walk()
            if view.tooltip and view.on_long_click is None and view.on_screen]
    assert held
    for view in held:
        before = phone.xml
        x, y = view.center
        assert phone.act(action_type="long_press", x=x, y=y) == before, view.desc

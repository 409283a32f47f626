"""Every app's first screen on the tablet (test_env_109: WXGA 1200x800 at 160 dpi, so 1 px
is 1 dp, ar-EG right to left) in the layout the 2020-21 app has there: its large-screen
(sw600dp / landscape) layout where it has one, else its phone layout across the screen.
Settings, Calculator and the launcher are in test_tablet.py, YouTube and Photos in
test_youtube_photos_look.py. Played through `env.step` with JSON actions."""

from __future__ import annotations

import pytest
from agent_steps import Episode
from conftest import bounds, nodes

TABLET = "test_env_109"
PHONE = "test_env_100"
WIDTH = 1200
C = "com.android.chrome:id/"
G = "com.google.android.gm:id/"
NEUTRAL = "clock/create_alarm_at_06:30_am"
"""A task that opening an app does not end (its episode goes on)."""


def _desc(xml: str, cls: str = "android.view.View") -> list[str]:
    return [n.get("content-desc") for n in nodes(xml, **{"class": cls, "resource-id": ""})
            if n.get("package") == "com.android.chrome" and n.get("content-desc")]


# -- Chrome ---------------------------------------------------------------------------

def test_chrome_on_the_tablet_has_the_tab_strip_and_the_tablet_toolbar():
    """toolbar_tablet.xml: Home, Back, Forward, Reload, the omnibox, ⋮ under a 40 dp strip
    (StripLayoutHelper's virtual views: each tab, its close button, then +); the
    layout's tab switcher button is gone."""
    ep = Episode("chrome/open_a_new_tab_in_Chrome", config=TABLET)
    ep.open_app("Chrome")
    xml = ep.obs["xml"]
    assert not nodes(xml, resource_id=C + "tab_switcher_button")
    for name in ("home_button", "back_button", "forward_button", "refresh_button", "url_bar",
                 "menu_button"):
        assert nodes(xml, resource_id=C + name), name
    assert _desc(xml) == ["علامة تبويب جديدة, علامة تبويب محددة",  # "New tab, Selected Tab"
                          "إغلاق علامة التبويب علامة تبويب جديدة",  # its close button
                          "علامة تبويب جديدة"]  # the + ("New tab")
    toolbar = bounds(nodes(xml, resource_id=C + "toolbar")[0])
    strip = [bounds(n) for n in nodes(xml, **{"class": "android.view.View", "resource-id": ""})
             if n.get("package") == "com.android.chrome"]
    assert all(bottom <= toolbar[1] for _l, _t, _r, bottom in strip)
    assert toolbar[2] - toolbar[0] == WIDTH and toolbar[1] - strip[0][1] <= 40
    assert nodes(xml, resource_id=C + "back_button")[0].get("enabled") == "false"


def test_the_strips_plus_opens_a_tab_and_passes_open_a_new_tab():
    ep = Episode("chrome/open_a_new_tab_in_Chrome", config=TABLET)
    ep.open_app("Chrome")
    ep.click(**{"content-desc": "علامة تبويب جديدة", "class": "android.view.View"})
    tabs = [d for d in _desc(ep.obs["xml"]) if d.endswith("علامة تبويب")
            or d.endswith("علامة تبويب محددة")]
    assert len(tabs) == 2 and ep.success


def test_a_strip_tab_selects_and_its_close_button_closes():
    ep = Episode("chrome/go_to_search_history_in_Chrome", config=TABLET)
    ep.open_app("Chrome")
    ep.click(resource_id=C + "url_bar")
    ep.step({"action_type": "input_text", "text": "example.com"})
    assert ep.find(resource_id=C + "back_button").get("enabled") == "true"
    ep.click(resource_id=C + "back_button")  # the tablet's Back: the new-tab page again
    assert ep.has(resource_id=C + "search_box")
    assert ep.find(resource_id=C + "forward_button").get("enabled") == "true"
    ep.click(resource_id=C + "forward_button")
    assert ep.find(resource_id=C + "url_bar").get("text") == "example.com"
    ep.click(**{"content-desc": "علامة تبويب جديدة", "class": "android.view.View"})  # +
    assert ep.has(resource_id=C + "search_box")
    first = [d for d in _desc(ep.obs["xml"]) if d.startswith("Example Domain, ")]
    assert first == ["Example Domain, علامة تبويب"]  # not the selected one
    ep.click(**{"content-desc": first[0]})
    assert ep.find(resource_id=C + "url_bar").get("text") == "example.com"
    close = [d for d in _desc(ep.obs["xml"]) if d == "إغلاق علامة التبويب Example Domain"]
    ep.click(**{"content-desc": close[0]})
    assert not [d for d in _desc(ep.obs["xml"]) if "Example Domain" in d]


def test_chrome_on_a_phone_keeps_the_tab_switcher_and_no_strip():
    ep = Episode("chrome/open_a_new_tab_in_Chrome", config=PHONE)
    ep.open_app("Chrome")
    xml = ep.obs["xml"]
    assert nodes(xml, resource_id=C + "tab_switcher_button") and not _desc(xml)
    assert not nodes(xml, resource_id=C + "back_button")


# -- Gmail ----------------------------------------------------------------------------

def test_gmail_on_the_tablet_is_two_pane_and_a_tap_opens_the_message_on_the_end_side():
    ep = Episode(NEUTRAL, config=TABLET)
    ep.open_app("Gmail")
    xml = ep.obs["xml"]
    threads = bounds(nodes(xml, resource_id=G + "thread_list_view")[0])
    pane = bounds(nodes(xml, resource_id=G + "conversation_pane")[0])
    assert threads[0] > pane[2]  # right to left: the list at the start (right)
    assert abs((threads[2] - threads[0]) - WIDTH * 0.4) <= 2
    assert ep.find(resource_id=G + "empty_view_text").get("text") == "لم يتم اختيار أي محادثات"
    ep.click(1, resource_id=G + "viewified_conversation_item_view")
    assert ep.find(resource_id=G + "subject_and_folder_view").get("text") == "Lunch on Friday?"
    assert ep.find(1, resource_id=G + "viewified_conversation_item_view").get(
        "selected") == "true"
    ep.back()
    assert ep.has(resource_id=G + "empty_view_text")


def test_gmail_on_a_phone_stays_single_pane():
    ep = Episode(NEUTRAL, config=PHONE)
    ep.open_app("Gmail")
    assert not ep.has(resource_id=G + "conversation_pane")
    ep.click(1, resource_id=G + "viewified_conversation_item_view")
    assert not ep.has(resource_id=G + "conversation_pane")


# -- Clock ----------------------------------------------------------------------------

def test_clock_tab_on_the_landscape_tablet_puts_the_clock_beside_the_cities():
    """DeskClock's layout-land/clock_fragment.xml: main_clock_left_pane in the start half,
    the cities list in the end half."""
    ep = Episode("clock/open_the_clock_app", config=TABLET)
    ep.open_app("Clock")
    xml = ep.obs["xml"]
    clock = bounds(nodes(xml, resource_id="com.google.android.deskclock:id/main_clock_left_pane")[0])
    cities = bounds(nodes(xml, resource_id="com.google.android.deskclock:id/cities")[0])
    assert cities[2] <= clock[0]  # right to left: the clock on the right
    assert abs((cities[2] - cities[0]) - (clock[2] - clock[0])) <= 20
    digital = bounds(nodes(xml, resource_id="com.google.android.deskclock:id/digital_clock")[0])
    assert clock[0] <= digital[0] and digital[2] <= clock[2]


# -- Files ----------------------------------------------------------------------------

def test_files_rows_on_the_large_landscape_tablet_are_one_line_of_columns():
    """DocumentsUI's layout-sw720dp-land/item_doc_list.xml (the tablet's smallest width is
    800 dp): name, summary, size and date side by side, where a phone stacks the size under
    the name."""
    ep = Episode(NEUTRAL, config=TABLET)
    ep.open_app("Files")
    xml = ep.obs["xml"]
    row = nodes(xml, resource_id="com.android.documentsui:id/item_root")[0]
    title = bounds(row.xpath(".//node[@resource-id='android:id/title']")[0])
    size = bounds(row.xpath(".//node[@resource-id='com.android.documentsui:id/size']")[0])
    assert size[1] < title[3] and title[1] < size[3]  # one line
    assert size[2] <= title[0]  # right to left: the size column after (left of) the name
    phone = Episode(NEUTRAL, config=PHONE)
    phone.open_app("Files")
    row = nodes(phone.obs["xml"], resource_id="com.android.documentsui:id/item_root")[0]
    title = bounds(row.xpath(".//node[@resource-id='android:id/title']")[0])
    size = bounds(row.xpath(".//node[@resource-id='com.android.documentsui:id/size']")[0])
    assert size[1] >= title[3]  # under the name


# -- Wikipedia ------------------------------------------------------------------------

def test_wikipedias_feed_has_a_column_per_320_dp_on_the_tablet():
    """FeedView's view_feed_min_column_width (320 dp): three cards across 1200 dp."""
    ep = Episode(NEUTRAL, config=TABLET)
    ep.open_app("Wikipedia")
    headers = [bounds(n) for n in nodes(ep.obs["xml"],
                                        resource_id="org.wikipedia:id/view_card_header_title")]
    tops = [top for _l, top, _r, _b in headers]
    assert tops.count(tops[0]) == 3
    search = bounds(nodes(ep.obs["xml"], resource_id="org.wikipedia:id/search_container")[0])
    assert search[2] - search[0] > 1100  # the search bar spans the columns
    phone = Episode(NEUTRAL, config=PHONE)
    phone.open_app("Wikipedia")
    tops = [bounds(n)[1] for n in nodes(phone.obs["xml"],
                                        resource_id="org.wikipedia:id/view_card_header_title")]
    assert len(set(tops)) == len(tops)  # one card a row


# -- apps whose 2020-21 version has no large-screen layout -----------------------------

@pytest.mark.parametrize(("task", "app", "rid"), [
    # Instagram (2021) has no tablet layout and asks for portrait (no iPad app either,
    # Mosseri, Feb 2022); Android 10 would turn a landscape tablet's display to portrait
    # for it, which the simulator does not model: its phone layout spans the screen.
    ("instagram/open_Instagram", "Instagram", "com.instagram.android:id/action_bar"),
    # Google Phone 2020 (Dialer 10): no sw600dp resources; phones only.
    ("phone/open_the_phone_app", "Phone", "com.android.dialer:id/toolbar"),
    # Messages 2020-21: two-pane came in 2022; the phone list spans the tablet.
    ("messages/open_the_message_app", "Messages", "com.google.android.apps.messaging:id/conversation_list"),
    # Camera: the preview fills the screen on every form factor.
    ("camera/open_the_camera_app", "Camera", "com.android.camera2:id/preview_content"),
    # Walmart 2021: a phone app; Snapseed's start screen is the same on a tablet.
    ("walmart/open_Walmart", "Walmart", None),
    ("snapseed/open Snapseed", "Snapseed", "com.niksoftware.snapseed:id/toolbar"),
    # AOSP Contacts (Android 10): one list on every width (the 2016 Material redesign
    # dropped the old two-pane tablet UI).
    ("contacts/open_the_contact_app", "Contacts", "com.android.contacts:id/contacts_list_container"),
    # Google Calendar 2020: the month grid spans the screen as on a phone.
    ("calendar/open_the_calendar_app", "Calendar", "com.google.android.calendar:id/month_view"),
    # The Google app (2020-21): the Discover feed of the phone, cards across the screen.
    ("google/activate_the_search_bar_in_google", "Google", "com.google.android.googlequicksearchbox:id/feed"),
])
def test_apps_without_a_tablet_layout_show_their_phone_layout_across_the_screen(task, app, rid):
    ep = Episode(task, config=TABLET)
    ep.open_app(app)
    xml = ep.obs["xml"]
    if rid is None:
        root = nodes(xml, resource_id="android:id/content")[0]
        left, _t, right, _b = bounds(root)
    else:
        left, _t, right, _b = bounds(nodes(xml, resource_id=rid)[0])
    assert (left, right) == (0, WIDTH)

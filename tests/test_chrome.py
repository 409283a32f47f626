"""Chrome: the launcher alias's START lines, the toolbar and its tab count, the app menu,
new and incognito tabs, the omnibox over the offline web (a page, a search, a site that
cannot be reached), History, and the task list (near misses and right paths: tests/nearmiss/chrome.py)."""

from __future__ import annotations

import pytest
from conftest import bounds, logcat, nodes, tap_on
from nearmiss.chrome import ALL_CHROME, C, menu, open_chrome, type_in_omnibox

import bmoca.configs
from bmoca import tasks
from bmoca.device import DeviceConfig, connect
from bmoca.sim.render.layout_check import check_device

MENU_EN = ["New tab", "New incognito tab", "Bookmarks", "Recent tabs", "History", "Downloads"]


def tab_count_desc(device) -> str:
    return nodes(device.dump_hierarchy(), resource_id=C + "tab_switcher_button")[0].get(
        "content-desc")


def page_texts(device) -> list[str]:
    xml = device.dump_hierarchy()
    web = nodes(xml, **{"class": "android.webkit.WebView"})
    assert web, "no page shown"
    return [n.get("text") for n in web[0].iter("node") if n.get("text")]


# -- the app --------------------------------------------------------------------------------

def test_the_launcher_alias_hands_over_to_the_tabbed_activity(device):
    open_chrome(device)
    starts = [line for line in logcat(device, "ActivityTaskManager:I").splitlines()
              if "START u0" in line]
    assert "cmp=com.android.chrome/com.google.android.apps.chrome.Main} from uid 2000" in \
        starts[-2]
    assert "cmp=com.android.chrome/org.chromium.chrome.browser.ChromeTabbedActivity " \
           "(has extras)} from uid 10111" in starts[-1]
    xml = device.dump_hierarchy()
    for view_id in ("home_button", "location_bar", "url_bar", "menu_button", "search_box",
                    "search_provider_logo"):
        assert nodes(xml, resource_id=C + view_id), view_id
    assert tab_count_desc(device) == "1 open tab, tap to switch tabs"


@pytest.mark.parametrize("config", ["test_env_100", "test_env_108"])
def test_the_menus_icon_row_stays_on_a_narrow_screen(config):
    """At 700 dpi the 260 dp menu is cut to the screen; its five icons must still fit."""
    device = connect("sim", bmoca.configs.get(config))
    open_chrome(device)
    tap_on(device, resource_id=C + "menu_button")
    width = device.screen_size()[0]
    xml = device.dump_hierarchy()
    for view_id in ("forward_menu_id", "reload_menu_id"):
        left, _, right, _ = bounds(nodes(xml, resource_id=C + view_id)[0])
        assert 0 <= left and right <= width, view_id
    assert check_device(device) == []


def test_the_menu_on_the_new_tab_page_and_on_a_web_page(device):
    open_chrome(device)
    tap_on(device, resource_id=C + "menu_button")
    xml = device.dump_hierarchy()
    texts = [n.get("text") for n in nodes(xml, resource_id=C + "menu_item_text")]
    assert texts == MENU_EN + ["Desktop site", "Settings", "Help & feedback"]
    assert nodes(xml, content_desc="Forward") and nodes(xml, content_desc="Refresh")
    device.press("BACK")
    assert not nodes(device.dump_hierarchy(), resource_id=C + "menu_item_text")
    type_in_omnibox(device, "example.com")
    tap_on(device, resource_id=C + "menu_button")
    texts = [n.get("text") for n in nodes(device.dump_hierarchy(),
                                          resource_id=C + "menu_item_text")]
    assert texts[:6] == MENU_EN and "Share…" in texts and "Find in page" in texts


def test_new_tabs_count_and_incognito_tabs_count_apart(device):
    open_chrome(device)
    menu(device, "New tab")
    assert tab_count_desc(device) == "2 open tabs, tap to switch tabs"
    menu(device, "New incognito tab")
    assert tab_count_desc(device) == "1 open tab, tap to switch tabs"
    assert nodes(device.dump_hierarchy(), resource_id=C + "new_tab_incognito_title")
    tap_on(device, resource_id=C + "tab_switcher_button")
    tap_on(device, resource_id=C + "close_btn")  # closing the last incognito tab
    assert len(nodes(device.dump_hierarchy(), resource_id=C + "tab_title")) == 2
    device.press("BACK")
    assert tab_count_desc(device) == "2 open tabs, tap to switch tabs"
    tap_on(device, resource_id=C + "tab_switcher_button")
    assert len(nodes(device.dump_hierarchy(), resource_id=C + "tab_title")) == 2
    tap_on(device, resource_id=C + "new_tab_view_button")
    assert tab_count_desc(device) == "3 open tabs, tap to switch tabs"


def test_the_omnibox_opens_pages_searches_and_shows_the_error_page(device):
    open_chrome(device)
    type_in_omnibox(device, "example.com")
    assert "Example Domain" in page_texts(device)
    assert nodes(device.dump_hierarchy(), resource_id=C + "url_bar")[0].get("text") == \
        "example.com"
    type_in_omnibox(device, "android 10")
    texts = page_texts(device)
    assert "Android 10 - Wikipedia" in texts
    tap_on(device, text="Android 10 - Wikipedia")
    assert any("tenth major release" in t for t in page_texts(device))
    type_in_omnibox(device, "no-such-site.invalid")
    texts = page_texts(device)
    assert "This site can’t be reached" in texts and "ERR_NAME_NOT_RESOLVED" in texts
    device.press("BACK")
    assert any("tenth major release" in t for t in page_texts(device))
    type_in_omnibox(device, "zebra quantum")
    assert "Your search - zebra quantum - did not match any documents." in page_texts(device)


def test_history_lists_the_visits_newest_first_and_opens_one(device):
    open_chrome(device)
    menu(device, "History")
    xml = device.dump_hierarchy()
    assert nodes(xml, resource_id=C + "empty_view", text="You’ll find your history here")
    device.press("BACK")
    type_in_omnibox(device, "example.com")
    type_in_omnibox(device, "weather.example.org")
    menu(device, "History")
    assert "START u0 {cmp=com.android.chrome/org.chromium.chrome.browser.history." \
           "HistoryActivity} from uid 10111" in logcat(device, "ActivityTaskManager:I")
    titles = [n.get("text") for n in nodes(device.dump_hierarchy(), resource_id=C + "title")]
    assert titles == ["Weather", "Example Domain"]
    tap_on(device, resource_id=C + "title", text="Example Domain")
    assert "Example Domain" in page_texts(device)


@pytest.mark.parametrize(("locale", "dark", "two"), [
    ("ja-JP", False, "2 個のタブが開いています。タップしてタブを切り替えます"),
    ("ar-EG", True, "٢ من علامات التبويب المفتوحة، انقر للتبديل بين علامات التبويب"),
    ("de-DE", True, "2 geöffnete Tabs, zum Wechseln tippen")])
def test_chrome_in_other_languages_and_themes(locale, dark, two):
    device = connect("sim", DeviceConfig(locale=locale, dark_theme=dark))
    open_chrome(device)
    menu(device, 0)
    assert tab_count_desc(device) == two
    xml = device.dump_hierarchy()
    home = bounds(nodes(xml, resource_id=C + "home_button")[0])
    menu_button = bounds(nodes(xml, resource_id=C + "menu_button")[0])
    assert (home[0] > menu_button[0]) == locale.startswith("ar")  # mirrored toolbar
    pixel = device.screenshot()[1200, 540]
    assert (pixel.mean() < 80) == dark


# -- the tasks ------------------------------------------------------------------------------

def test_the_chrome_suite():
    assert ALL_CHROME == ["chrome/go_to_search_history_in_Chrome", "chrome/open_Chrome",
                          "chrome/open_a_new_tab_in_Chrome",
                          "chrome/activate_the_search_bar_in_chrome"]
    assert [t.step_limit for t in tasks.list(app="Chrome")] == [6, 4, 5, 5]
    assert [t.id for t in tasks.select("v1") if t.app == "Chrome"] == ALL_CHROME[3:]

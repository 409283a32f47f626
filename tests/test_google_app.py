"""The Google app's own screen (`.SearchActivity`, Discover): the drawer's icon and the search
pill's "G" open it; its search box and Search tab hand over to the query entry, Recent lists
what was searched, a card opens its page; in Latin, CJK and Arabic, light and dark."""

from __future__ import annotations

import pytest
from conftest import logcat, nodes, tap_on

from bmoca import configs
from bmoca.device import DeviceConfig, connect
from bmoca.formats import apps

L = "com.google.android.apps.nexuslauncher:id/"
G = "com.google.android.googlequicksearchbox:id/"
PACKAGE = "com.google.android.googlequicksearchbox"


def selected_tab(xml: str) -> list[str]:
    return [n.get("resource-id").removeprefix(G + "bottom_nav_")
            for n in nodes(xml) if n.get("resource-id", "").startswith(G + "bottom_nav_")
            and n.get("selected") == "true"]


def test_the_drawer_lists_google_and_its_icon_opens_discover(device):
    device.shell("input swipe 540 1800 540 400 200")  # the drawer
    tap_on(device, text="Google")
    starts = logcat(device, "ActivityTaskManager:I")
    assert ("cmp=com.google.android.googlequicksearchbox/.SearchActivity bnds=[" in starts
            and "from uid 10089" in starts)
    assert "Displayed com.google.android.googlequicksearchbox/.SearchActivity" in starts
    xml = device.dump_hierarchy()
    assert selected_tab(xml) == ["discover"]
    assert nodes(xml, resource_id=G + "search_widget", clickable="true")
    assert len(nodes(xml, resource_id=G + "card")) >= 2


def test_the_pills_g_opens_the_app_and_the_pill_opens_the_query_entry(device):
    tap_on(device, resource_id=L + "g_icon")
    out, _ = device.shell("dumpsys activity activities | grep mResumedActivity")
    assert f"{PACKAGE}/.SearchActivity" in out
    assert "onActivate" not in logcat(device, "AndroidIME:I")  # no field takes the focus
    device.press("HOME")
    tap_on(device, resource_id=L + "search_container_hotseat")
    out, _ = device.shell("dumpsys activity activities | grep mResumedActivity")
    assert "queryentry.QueryEntryActivity" in out


def test_searches_show_under_recent_newest_first(device):
    device.shell("monkey -p com.google.android.googlequicksearchbox 1")
    tap_on(device, resource_id=G + "bottom_nav_recent")
    assert selected_tab(device.dump_hierarchy()) == ["recent"]
    assert not nodes(device.dump_hierarchy(), text="android")
    device.press("BACK")
    for query in ("android", "weather"):
        tap_on(device, resource_id=G + "search_widget")
        device.input_text(query)
        device.press("ENTER")
        device.press("BACK")  # the keyboard
        device.press("BACK")  # the query entry
    tap_on(device, resource_id=G + "bottom_nav_recent")
    texts = [n.get("text") for n in nodes(device.dump_hierarchy()) if n.get("text")]
    assert texts.index("weather") < texts.index("android")
    device.press("BACK")
    assert selected_tab(device.dump_hierarchy()) == ["discover"]


def test_a_card_opens_its_page_and_back_closes_it(device):
    device.shell("monkey -p com.google.android.googlequicksearchbox 1")
    tap_on(device, resource_id=G + "card")
    xml = device.dump_hierarchy()
    assert nodes(xml, text="Example Domain") and nodes(xml, resource_id=G + "web_view")
    assert not nodes(xml, resource_id=G + "bottom_navigation")
    device.press("BACK")
    assert nodes(device.dump_hierarchy(), resource_id=G + "bottom_navigation")
    device.press("BACK")
    assert nodes(device.dump_hierarchy(), resource_id=L + "search_container_hotseat")


@pytest.mark.parametrize(("locale", "dark", "discover"), [
    ("de-DE", False, "Discover"), ("zh-Hans-CN", True, "发现"), ("ar-EG", False, "استكشاف")])
def test_discover_in_other_languages_and_themes(locale, dark, discover):
    device = connect("sim", DeviceConfig(locale=locale, dark_theme=dark))
    device.shell("monkey -p com.google.android.googlequicksearchbox 1")
    xml = device.dump_hierarchy()
    tab = nodes(xml, resource_id=G + "bottom_nav_discover")[0]
    assert tab.get("content-desc") == discover and tab.get("selected") == "true"
    x0 = int(tab.get("bounds")[1:].split(",")[0])
    assert (x0 > 540) == (locale == "ar-EG")  # the bar mirrors right to left
    logo = nodes(xml, resource_id=G + "logo")[0]
    left, right = (int(v.split(",")[0]) for v in logo.get("bounds")[1:-1].split("]["))
    assert abs((left + right) / 2 - 540) < 8  # the wordmark stays centred, never mirrored
    shot = device.screenshot()
    assert (shot[1500, 12].mean() < 80) == dark  # the margin beside the cards
    if not dark:  # the wordmark's first letter is blue in every direction
        row = shot[(int(logo.get("bounds").split(",")[1].split("]")[0])
                    + int(logo.get("bounds").split(",")[2].split("]")[0])) // 2]
        blue = [x for x in range(left, right) if row[x][2] > 200 and row[x][0] < 120]
        red = [x for x in range(left, right) if row[x][0] > 200 and row[x][2] < 100]
        assert blue and red and min(blue) < min(red)


def test_configurations_never_place_the_google_app_on_the_home_screen():
    assert len(apps.home_screen_apps()) == 18
    assert "Google" not in {a.label for a in apps.home_screen_apps()}
    for seed in range(20):
        home = configs.random_config(seed, "train").home
        assert "Google" not in {*home.hotseat.values(), *home.workspace.values()}

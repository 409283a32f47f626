"""The Google app's query entry, opened by the home screen's search pill: its START line,
Gboard's `AndroidIME` line for the package, results from the offline web, and the
first-version task "activate the search bar in google" with near misses and right paths."""

from __future__ import annotations

import pytest
from conftest import logcat, nodes, run_attempts, tap_on

from bmoca.device import DeviceConfig, connect

L = "com.google.android.apps.nexuslauncher:id/"
G = "com.google.android.googlequicksearchbox:id/"
TASK = "google/activate_the_search_bar_in_google"


def tap_pill(device) -> None:
    tap_on(device, resource_id=L + "search_container_hotseat")


def test_the_search_pill_opens_the_google_apps_query_entry_with_the_keyboard(device):
    tap_pill(device)
    assert ("START u0 {act=android.search.action.GLOBAL_SEARCH flg=0x10000000 "
            "cmp=com.google.android.googlequicksearchbox/com.google.android.apps.gsa."
            "queryentry.QueryEntryActivity} from uid 10089") in logcat(device, "ActivityTaskManager:I")
    ime = [line for line in logcat(device, "AndroidIME:I").splitlines() if "onActivate" in line]
    assert len(ime) == 1 and "packageName=com.google.android.googlequicksearchbox" in ime[0]
    device.input_text("android")
    device.press("ENTER")
    texts = [n.get("text") for n in nodes(device.dump_hierarchy())]
    assert "Android 10 - Wikipedia" in texts
    device.press("BACK")  # the keyboard goes
    device.press("BACK")  # then the search
    assert nodes(device.dump_hierarchy(), resource_id=L + "search_container_hotseat")


@pytest.mark.parametrize(("locale", "dark"), [("ja-JP", False), ("ar-EG", True)])
def test_the_query_entry_in_other_languages(locale, dark):
    device = connect("sim", DeviceConfig(locale=locale, dark_theme=dark))
    tap_pill(device)
    box = nodes(device.dump_hierarchy(), resource_id=G + "search_box")[0]
    assert box.get("focused") == "true"
    assert (device.screenshot()[1200, 540].mean() < 80) == dark


def near_misses():
    def chrome_omnibox(d):
        d.shell("am start -n com.android.chrome/com.google.android.apps.chrome.Main")
        tap_on(d, resource_id="com.android.chrome:id/url_bar")
    yield chrome_omnibox
    yield lambda d: d.shell("am start -a android.intent.action.VIEW -d https://www.google.com")

    def messages_search(d):
        d.shell("am start -n com.google.android.apps.messaging/.ui.ConversationListActivity")
        tap_on(d, resource_id="com.google.android.apps.messaging:id/action_zero_state_search")
    yield messages_search
    # the Google app's own screen, opened by the pill's "G", has no field in focus
    yield lambda d: tap_on(d, resource_id=L + "g_icon")


def right_paths():
    yield tap_pill

    def from_an_app(d):
        d.shell("am start -n com.android.settings/.Settings")
        d.press("HOME")
        tap_pill(d)
    yield from_an_app

    def from_the_google_apps_search_box(d):
        d.shell("monkey -p com.google.android.googlequicksearchbox 1")
        tap_on(d, resource_id=G + "search_widget")
    yield from_the_google_apps_search_box

    def from_its_search_tab(d):
        tap_on(d, resource_id=L + "g_icon")
        tap_on(d, resource_id=G + "bottom_nav_search")
    yield from_its_search_tab


def test_the_task_fails_on_near_misses():
    run_attempts(TASK, near_misses(), expect=False)


def test_the_task_passes_on_right_paths():
    run_attempts(TASK, right_paths(), expect=True)

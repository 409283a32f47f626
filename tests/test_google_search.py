"""The Google app's query entry, opened by the home screen's search pill: its START line,
Gboard's `AndroidIME` line for the package, results from the offline web, and the
first-version task "activate the search bar in google" (its rows: tests/nearmiss/launches.py)."""

from __future__ import annotations

import pytest
from conftest import logcat, nodes
from nearmiss.launches import G, L, tap_pill

from bmoca.device import DeviceConfig, connect

TASK = "google/activate_the_search_bar_in_google"


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

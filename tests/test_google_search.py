"""The Google app's query entry, opened by the home screen's search pill: its START line,
Gboard's `AndroidIME` line for the package, results from the offline web, and the
first-version task "activate the search bar in google" (its rows: tests/nearmiss/launches.py)."""

from __future__ import annotations

import pytest
from agent_steps import Episode
from conftest import logcat, nodes, tap_on
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
    assert not nodes(device.dump_hierarchy(), **{"class": "android.webkit.WebView"})
    device.press("ENTER")
    xml = device.dump_hierarchy()
    assert "Android 10 - Wikipedia" in [n.get("text") for n in nodes(xml)]
    assert [n.get("content-desc") for n in nodes(xml, **{"class": "android.webkit.WebView"})] \
        == ["android - Google Search"]  # the results page, only once submitted
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


def test_the_pills_microphone_starts_voice_search_without_a_keyboard():
    """The mic sends VOICE_ASSIST to the Google app (NEW_TASK | CLEAR_TASK), whose query
    entry listens: "Speak now", no field focused, no keyboard, no `AndroidIME` line, so the
    task fails; tapping the box to type instead passes it, as the pill itself does."""
    ep = Episode(TASK)
    ep.click(resource_id=L + "mic_icon")
    assert ep.has(resource_id=G + "voice_prompt", text="Speak now")
    assert ep.has(resource_id=G + "voice_state", text="Listening…")
    assert not ep.has(focused="true")
    assert not ep.success
    device = ep.env.device
    assert ("START u0 {act=android.intent.action.VOICE_ASSIST flg=0x10008000 "
            "pkg=com.google.android.googlequicksearchbox cmp=com.google.android."
            "googlequicksearchbox/com.google.android.apps.gsa.queryentry.QueryEntryActivity} "
            "from uid 10089") in logcat(device, "ActivityTaskManager:I")
    assert "onActivate" not in logcat(device, "AndroidIME:I")
    ep.step({"action_type": "wait"})
    assert not ep.success
    ep.click(resource_id=G + "search_box")  # type instead
    assert ep.success and ep.find(resource_id=G + "search_box").get("focused") == "true"

    ep = Episode(TASK)
    ep.click(resource_id=L + "search_container_hotseat", content_desc="Search")
    assert ep.success

    ep = Episode(TASK)
    ep.click(resource_id=L + "g_icon")  # Discover: no field focused yet
    assert not ep.success
    ep.click(resource_id=G + "search_widget")
    assert ep.success


def test_the_boxs_microphone_listens_and_the_pills_clears_the_task(device):
    tap_pill(device)
    device.input_text("earth")
    tap_on(device, content_desc="Voice search", package=G.removesuffix(":id/"))
    xml = device.dump_hierarchy()
    assert nodes(xml, resource_id=G + "voice_prompt") and not nodes(xml, focused="true")
    tap_on(device, resource_id=G + "search_box")
    assert nodes(device.dump_hierarchy(), resource_id=G + "search_box", text="earth",
                 focused="true")
    device.press("HOME")
    tap_on(device, resource_id=L + "mic_icon")
    assert nodes(device.dump_hierarchy(), resource_id=G + "voice_prompt")
    device.press("BACK")  # CLEAR_TASK left one activity: back goes home, not to "earth"
    assert nodes(device.dump_hierarchy(), resource_id=L + "search_container_hotseat")

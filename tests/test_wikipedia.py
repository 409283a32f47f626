"""Wikipedia: the bottom navigation, the Explore feed and a card's menu, Customize the
feed and Settings writing org.wikipedia_preferences.xml in Android's format (compared key
by key), the text size by buttons and by the seek bar in both directions, search and the
article page, a corrupt prefs file, and the sixteen tasks (near misses and right
paths: tests/nearmiss/wikipedia.py)."""

from __future__ import annotations

import numpy as np
import pytest
from agent_steps import Episode
from conftest import bounds, nodes, tap_on
from lxml import etree
from nearmiss.wikipedia import (
    ALL_WIKI,
    W,
    back_to_feed,
    customize_from_card,
    open_wikipedia,
    setting_row,
    settings,
    text_size,
    toggle,
)

from bmoca import configs, tasks
from bmoca.device import DeviceConfig, connect

PREFS = "/data/data/org.wikipedia/shared_prefs/org.wikipedia_preferences.xml"


def prefs(device) -> dict[str, tuple[str, str | None, str | None]]:
    root = etree.fromstring(device.pull(PREFS))
    return {n.get("name"): (n.tag, n.get("value"), n.text) for n in root}


def selected_tab(device) -> list[str]:
    return [n.get("resource-id").split("/")[-1] for n in nodes(device.dump_hierarchy())
            if n.get("selected") == "true"]


# -- the app --------------------------------------------------------------------------------

def test_the_image_left_a_prefs_file_and_the_app_opens_on_explore(device):
    open_wikipedia(device)
    assert selected_tab(device) == ["nav_tab_explore"]
    entries = prefs(device)
    assert entries["initialOnboardingEnabled"] == ("boolean", "false", None)
    assert "feedCardsEnabled" not in entries and "textSizeMultiplier" not in entries
    titles = [n.get("text") for n in nodes(device.dump_hierarchy(),
                                           resource_id=W + "view_card_header_title")]
    assert titles[:3] == ["Featured article", "Top read", "Picture of the day"]
    for tab in ("nav_tab_reading_lists", "nav_tab_search", "nav_tab_edits", "nav_tab_explore"):
        tap_on(device, resource_id=W + tab)
        assert selected_tab(device) == [tab]


def test_customize_the_feed_writes_the_card_list_as_the_app_does(device):
    open_wikipedia(device)
    customize_from_card(device)
    xml = device.dump_hierarchy()
    titles = [n.get("text") for n in nodes(xml, resource_id=W + "feed_content_type_title")]
    assert titles[0] == "Featured article" and "Randomizer" in titles and len(titles) == 8
    toggle(device, 1)
    tap_on(device, 6, resource_id=W + "feed_content_type_checkbox")  # the switch itself
    raw = device.pull(PREFS)
    assert raw.startswith(b"<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map>\n")
    root = etree.fromstring(raw)
    last = root[-1]
    assert (last.tag, last.get("name"), last.text) == (
        "string", "feedCardsEnabled", "[true,false,true,true,true,true,false,true,true,true]")
    assert prefs(device)["feedCardsOrder"] == ("string", None, "[0,1,2,3,4,5,6,7,8,9]")
    back_to_feed(device)
    titles = [n.get("text") for n in nodes(device.dump_hierarchy(),
                                           resource_id=W + "view_card_header_title")]
    assert "Top read" not in titles and titles[0] == "Featured article"
    assert selected_tab(device) == ["nav_tab_explore"]


def test_hide_this_card_hides_today_only(device):
    open_wikipedia(device)
    tap_on(device, resource_id=W + "view_list_card_header_menu")
    tap_on(device, 0, resource_id="android:id/title")  # Hide this card
    titles = [n.get("text") for n in nodes(device.dump_hierarchy(),
                                           resource_id=W + "view_card_header_title")]
    assert titles[0] == "Top read"
    assert "feedCardsEnabled" not in prefs(device)


def test_text_size_by_buttons_and_by_the_seek_bar_in_both_directions():
    for locale in ("en-US", "ar-EG"):
        device = connect("sim", DeviceConfig(locale=locale))
        open_wikipedia(device)
        settings(device)
        setting_row(device, 2)  # App theme
        text_size(device, -3)
        assert prefs(device)["textSizeMultiplier"] == ("int", "-3", None)
        bar = bounds(nodes(device.dump_hierarchy(), resource_id=W + "text_size_seek_bar")[0])
        end = bar[2] - 3 if locale == "en-US" else bar[0] + 3  # the far end: 180 %
        device.tap(end, (bar[1] + bar[3]) // 2)
        assert prefs(device)["textSizeMultiplier"] == ("int", "8", None)
        percent = nodes(device.dump_hierarchy(), resource_id=W + "text_size_percent")[0]
        assert percent.get("text") == ("180%" if locale == "en-US" else "١٨٠%")
        text_size(device, 20)
        assert prefs(device)["textSizeMultiplier"] == ("int", "8", None)  # capped


def test_link_previews_and_the_article_text_size(device):
    open_wikipedia(device)
    settings(device)
    setting_row(device, 5)
    assert prefs(device)["showLinkPreviews"] == ("boolean", "false", None)
    setting_row(device, 2)
    text_size(device, 5)
    device.press("BACK")
    device.press("BACK")
    tap_on(device, resource_id=W + "nav_tab_search")
    tap_on(device, resource_id=W + "search_src_text")
    device.input_text("rome")
    tap_on(device, resource_id=W + "page_list_item_title", text="Colosseum")
    big = bounds(nodes(device.dump_hierarchy(), resource_id=W + "view_page_title_text")[0])
    device.press("BACK")
    device.press("BACK")  # the search field still has the keyboard
    settings(device)
    setting_row(device, 2)
    text_size(device, -10)
    back_to_feed(device)
    tap_on(device, resource_id=W + "nav_tab_search")
    tap_on(device, resource_id=W + "page_list_item_title", text="Colosseum")
    small = bounds(nodes(device.dump_hierarchy(), resource_id=W + "view_page_title_text")[0])
    assert (big[3] - big[1]) > 1.5 * (small[3] - small[1])  # 150 % against 50 %


def test_a_corrupt_prefs_file_gives_the_defaults(device):
    device.push(b"<map><int name=", PREFS)
    device.shell("setprop ctl.restart zygote")
    open_wikipedia(device)
    titles = nodes(device.dump_hierarchy(), resource_id=W + "view_card_header_title")
    assert len(titles) >= 3
    assert "Cannot read" in device.shell("logcat -d -s SharedPreferencesImpl")[0]


@pytest.mark.parametrize(("locale", "dark", "explore"), [
    ("ja-JP", False, "探索"), ("ar-AE", True, "استكشاف"), ("de-DE", True, "Entdecken")])
def test_wikipedia_in_other_languages_and_themes(locale, dark, explore):
    device = connect("sim", DeviceConfig(locale=locale, dark_theme=dark))
    open_wikipedia(device)
    xml = device.dump_hierarchy()
    tab = nodes(xml, resource_id=W + "nav_tab_explore")[0]
    assert tab.get("content-desc") == explore
    more = bounds(nodes(xml, resource_id=W + "nav_more_container")[0])
    assert (bounds(tab)[0] > more[0]) == locale.startswith("ar")
    left, top, right, bottom = bounds(nodes(xml, resource_id=W + "main_toolbar")[0])
    assert (device.screenshot()[(top + bottom) // 2, (left + right) // 2].mean() < 90) == dark


def test_the_explore_feed_has_its_wordmark_search_bar_and_pictures():
    """The 2020-21 feed: the WIKIPEDIA wordmark (an image), a search bar above the cards
    that opens Search, the featured article's lead picture and Top read's thumbnail."""
    device = connect("sim", DeviceConfig())
    open_wikipedia(device)
    xml = device.dump_hierarchy()
    mark = nodes(xml, resource_id=W + "main_toolbar_wordmark")[0]
    assert mark.get("class") == "android.widget.ImageView" and mark.get("content-desc") == "Wikipedia"
    image = device.screenshot()
    left, top, right, bottom = bounds(mark)
    ink = image[top:bottom, left:right, :3].min(axis=2) < 100
    assert 0.005 < ink.mean() < 0.3  # letters drawn, not an empty box
    for picture in (nodes(xml, resource_id=W + "view_featured_article_card_image")[0],
                    nodes(xml, resource_id=W + "view_list_card_item_image")[0]):
        left, top, right, bottom = bounds(picture)
        tones = image[top:bottom, left:right, :3].reshape(-1, 3)
        assert len(np.unique(tones, axis=0)) > 8  # a picture, not a grey tile
    tap_on(device, resource_id=W + "search_container")
    assert nodes(device.dump_hierarchy(), resource_id=W + "search_src_text", focused="true")


@pytest.mark.parametrize("config", ["test_env_100", "test_env_109"])
def test_a_lead_card_opens_with_a_picture_as_wide_as_the_card(config):
    """FeaturedArticleCardView (and Picture of the day, In the news): under the header, a
    picture across the whole card, then the title; Top read's card keeps a thumbnail beside
    its article. On the tablet a card, and so its picture, is a 320 dp column wide."""
    device = connect("sim", configs.get(config))
    open_wikipedia(device)
    xml = device.dump_hierarchy()
    width = device.screenshot().shape[1]
    lead = nodes(xml, resource_id=W + "view_featured_article_card_image")[0]
    card = lead.getparent()
    assert card.get("class") == "androidx.cardview.widget.CardView"
    (left, top, right, bottom), (c_left, _, c_right, _) = bounds(lead), bounds(card)
    assert (left, right) == (c_left, c_right)
    header = bounds(card.xpath(f".//node[@resource-id='{W}view_card_header_title']")[0])
    title = bounds(card.xpath(f".//node[@resource-id='{W}view_featured_article_card_article_title']")[0])
    assert header[3] <= top and bottom <= title[1]  # between the header and the title
    assert right - left > (0.9 if config == "test_env_100" else 0.25) * width
    thumb = nodes(xml, resource_id=W + "view_list_card_item_image")[0]
    t_left, _, t_right, _ = bounds(thumb)
    assert t_right - t_left < 0.25 * (c_right - c_left)


def test_an_english_article_is_left_aligned_in_an_arabic_ui():
    """The article is a web page with dir="ltr": its text starts at the left edge."""
    device = connect("sim", DeviceConfig(locale="ar-AE"))
    open_wikipedia(device)
    tap_on(device, resource_id=W + "view_featured_article_card_article_title")
    title = bounds(nodes(device.dump_hierarchy(), resource_id=W + "view_page_title_text")[0])
    image = device.screenshot()
    row = image[(title[1] + title[3]) // 2, title[0]:title[2], :3].min(axis=1) < 100
    ink = np.flatnonzero(row)
    assert ink[0] < 0.1 * (title[2] - title[0])  # starts at the left
    assert ink[-1] < 0.5 * (title[2] - title[0])  # "Earth" does not reach the right half


# -- the tasks ------------------------------------------------------------------------------

def test_the_wikipedia_suite():
    assert len(ALL_WIKI) == 16
    representative = [t.id for t in tasks.list(app="Wikipedia") if t.representative]
    assert representative == ["wikipedia/disable_the_top_2_and_'randomizer'_topics_in_the_feed_"
                              "customization_settings_on_Wikipedia_and_go_back_to_the_feed"]
    assert len(tasks.select("representative")) == 6


def _customize(ep) -> None:
    ep.open_app("Wikipedia")
    ep.click(resource_id=W + "view_list_card_header_menu")
    ep.click(resource_id=W + "menu_feed_card_customize")


def _overflow(ep, item: str) -> None:
    ep.click(content_desc="More options")
    ep.click(resource_id="android:id/title", text=item)


def _switch(ep, *rows: int) -> None:
    for row in rows:
        ep.click(row, resource_id=W + "feed_content_type_checkbox")


TOP_2 = ("wikipedia/disable_the_top_2_topics_in_the_feed_customization_settings_on_Wikipedia_"
         "and_go_back_to_the_feed")


def test_hide_all_turns_off_every_content_type_the_list_shows_or_not():
    """The app's Hide all sets every FeedContentType off, Suggested edits and the
    accessibility card too, though the list shows neither; switching the other six rows
    back on then stores `[false,false,true,true,true,true,true,true,false,false]`, which is
    not the task's value. Show all turns all ten on again, so it then passes."""
    ep = Episode(TOP_2)
    _customize(ep)
    _overflow(ep, "Hide all")
    assert [n.get("checked") for n in nodes(ep.obs["xml"], resource_id=W + "feed_content_type_"
                                            "checkbox")] == ["false"] * 8
    _switch(ep, 2, 3, 4, 5, 6, 7)
    assert [n.get("checked") for n in nodes(ep.obs["xml"], resource_id=W + "feed_content_type_"
                                            "checkbox")] == ["false"] * 2 + ["true"] * 6
    ep.back()
    assert ep.has(resource_id=W + "nav_tab_explore", selected="true")
    assert not ep.success
    assert prefs(ep.env.device)["feedCardsEnabled"][2] == (
        "[false,false,true,true,true,true,true,true,false,false]")

    ep = Episode(TOP_2)
    _customize(ep)
    _overflow(ep, "Hide all")
    _overflow(ep, "Show all")
    _switch(ep, 0, 1)
    ep.back()
    assert ep.success, ep.info["detector"]

"""Maps as its 2020-21 app looks (issue 32, item 1), played through `env.step` with JSON
actions: the drawn street map with its names, the category chips, the five bottom tabs,
the search page of suggestions and its results, the tablet's start-edge panel, and the
same pixels on two phones of one configuration."""

from __future__ import annotations

import numpy as np
from agent_steps import Episode
from conftest import bounds, nodes

from bmoca.env.observations import translate
from bmoca.sim.apps.maps.mapdraw import DAY, MAP_CACHE_BYTES, cache_bytes

M = "com.google.android.apps.maps:id/"
TASK = "maps/search_for_a_place_in_Maps@0"  # succeeds only on its own place
TABLET = "test_env_109"  # WXGA 1200x800 at 160 dpi (1 px = 1 dp), ar-EG


def _descs(xml: str, rid: str) -> list[str]:
    return [n.get("content-desc") for n in nodes(xml, resource_id=rid)]


def test_the_map_is_drawn_with_street_names_and_cached():
    """Street names are pixels of the map view (real Maps draws them with OpenGL): the
    labels' grey appears on the map's start half, where no chrome is drawn."""
    ep = Episode(TASK)
    ep.open_app("Maps")
    left, top, right, bottom = bounds(ep.find(resource_id=M + "mainmap_container"))
    shot = ep.env.device.screenshot()
    band = shot[top + (bottom - top) // 4: top + (bottom - top) * 3 // 4,
                left: (left + right) // 2, :3]
    label = np.all(band == np.array(DAY.label, dtype=band.dtype), axis=-1)
    assert label.sum() > 200  # the cores of a few street names' letters
    land = np.all(band == np.array(DAY.land, dtype=band.dtype), axis=-1)
    assert land.mean() > 0.3
    assert 0 < cache_bytes() <= MAP_CACHE_BYTES


def test_chips_scroll_sideways_and_the_bottom_bar_has_the_five_2020_tabs():
    ep = Episode(TASK)
    ep.open_app("Maps")
    xml = ep.obs["xml"]
    chips = _descs(xml, M + "category_chip")
    assert chips[:4] == ["Restaurants", "Gas", "Groceries", "Coffee"]
    assert "Pharmacies" not in chips  # past the screen's end until scrolled
    row = nodes(xml, resource_id=M + "category_chips")[0]
    assert row.get("scrollable") == "true"
    index = next(e.numeric_tag for e in translate(xml) if e.full_resource_id.endswith(
        "category_chips") or e.resource_id.endswith("category_chips"))
    ep.step({"action_type": "scroll", "index": index, "direction": "right"})
    after = _descs(ep.obs["xml"], M + "category_chip")
    assert after[0] != "Restaurants" and set(after) - set(chips)  # new chips came on
    tabs = nodes(ep.obs["xml"], resource_id=M + "bottom_navigation")[0]
    assert [n.get("text") for n in tabs.iter("node") if n.get("text")] == [
        "Explore", "Commute", "Saved", "Contribute", "Updates"]
    assert ep.find(resource_id=M + "explore_button").get("selected") == "true"
    assert ep.find(resource_id=M + "search_omnibox_text_box").get("text") == "Search here"


def test_search_opens_a_page_of_suggestions_that_typing_filters_then_results():
    """The map and its chrome give way to the search page; typed text that input_text
    ends with ENTER shows the places found, with the field keeping the text; BACK returns
    to the search page (the searches made, clock first), BACK again to the map."""
    ep = Episode(TASK)
    ep.open_app("Maps").click(resource_id=M + "search_omnibox_container")
    assert not ep.has(resource_id=M + "mainmap_container")
    assert not ep.has(resource_id=M + "bottom_navigation")
    assert ep.find(resource_id=M + "search_omnibox_edit_text").get("focused") == "true"
    titles = [n.get("text") for n in nodes(ep.obs["xml"], resource_id=M + "suggestion_title")]
    assert titles[:3] == ["Home", "Work", "Restaurants"]
    ep.step({"action_type": "input_text", "text": "coffee"})
    assert ep.find(resource_id=M + "search_omnibox_edit_text").get("text") == "coffee"
    assert [n.get("text") for n in nodes(ep.obs["xml"], resource_id=M + "result_title")] == [
        "Crittenden Café", "Shoreline Coffee Roasters"]
    assert "Crittenden Café" in _descs(ep.obs["xml"], M + "result_pin")
    ep.back()  # the search page again, keyboard down, its rows filtered by the text
    assert ep.find(resource_id=M + "search_omnibox_edit_text").get("focused") == "false"
    titles = [n.get("text") for n in nodes(ep.obs["xml"], resource_id=M + "suggestion_title")]
    assert titles == ["coffee", "Coffee", "Shoreline Coffee Roasters"]  # clock, chip, place
    ep.back()
    assert ep.has(resource_id=M + "mainmap_container") and ep.has(resource_id=M + "category_chip")


def test_a_search_made_is_offered_again_with_a_clock_and_a_chip_searches_its_kind():
    ep = Episode(TASK)
    ep.open_app("Maps").click(resource_id=M + "search_omnibox_container")
    ep.step({"action_type": "input_text", "text": "Garcia"})
    assert [n.get("text") for n in nodes(ep.obs["xml"], resource_id=M + "result_title")] == [
        "Garcia Taqueria"]
    ep.back().back()
    ep.click(resource_id=M + "search_omnibox_container")
    titles = [n.get("text") for n in nodes(ep.obs["xml"], resource_id=M + "suggestion_title")]
    assert titles[:4] == ["Home", "Work", "Garcia", "Restaurants"]
    ep.back().back()  # the keyboard, then the page
    ep.click(resource_id=M + "category_chip", **{"content-desc": "Gas"})
    assert ep.find(resource_id=M + "search_omnibox_edit_text").get("text") == "Gas"
    assert [n.get("text") for n in nodes(ep.obs["xml"], resource_id=M + "result_title")] == [
        "Shoreline Gas"]
    ep.click(resource_id=M + "search_omnibox_edit_text")
    ep.step({"action_type": "input_text", "text": " station in Oslo"})
    assert ep.find(resource_id=M + "search_omnibox_edit_text").get("text") == (
        "Gas station in Oslo")
    ep.back().back().click(resource_id=M + "search_omnibox_container")
    ep.step({"action_type": "input_text", "text": "zoo"})
    assert ep.has(resource_id=M + "no_results")  # nothing of the kind on this map


def test_the_tablet_opens_maps_with_its_start_edge_panel():
    """sw600dp: the search card is Maps' 400 dp panel width at the start edge (the right in
    Arabic) with the chips beside it; the map fills the screen behind."""
    ep = Episode(TASK, config=TABLET)
    ep.open_app("Maps")
    xml = ep.obs["xml"]
    width = ep.env.device.screen_size()[0]
    box = bounds(nodes(xml, resource_id=M + "search_omnibox_container")[0])
    assert abs((box[2] - box[0]) - 400) <= 2 and width - box[2] <= 24  # 1 px = 1 dp; RTL
    chips = bounds(nodes(xml, resource_id=M + "category_chips")[0])
    assert chips[2] <= box[0] and chips[1] < box[3] and box[1] < chips[3]  # on its row
    assert bounds(nodes(xml, resource_id=M + "mainmap_container")[0])[2] - 0 >= width - 1
    ep.click(resource_id=M + "search_omnibox_container")
    assert ep.has(resource_id=M + "mainmap_container")  # the map stays beside the panel
    panel = bounds(nodes(ep.obs["xml"], resource_id=M + "search_omnibox_layout")[0])
    assert panel[2] == width and abs((panel[2] - panel[0]) - 400) <= 2


def test_two_phones_of_one_configuration_draw_the_same_map():
    shots = []
    for _ in range(2):
        ep = Episode(TASK, config="test_env_108")
        ep.open_app("Maps")
        shots.append(ep.env.device.screenshot())
        ep.close()
    assert np.array_equal(shots[0], shots[1])

"""YouTube and Photos as their 2020-21 apps look (issue 32, items 2-4), played through
`env.step` with JSON actions: Photos' date headers, square grid and Library; YouTube's bars,
16:9 cards and its search page of suggestions; both apps' tablet grids."""

from __future__ import annotations

import pytest
from agent_steps import Episode
from conftest import bounds, nodes

P = "com.google.android.apps.photos:id/"
Y = "com.google.android.youtube:id/"
TABLET = "test_env_109"  # WXGA 1200x800 at 160 dpi (1 px = 1 dp), ar-EG


def _texts(xml: str, rid: str) -> list[str]:
    return [n.get("text") for n in nodes(xml, resource_id=rid)]


def _rows(xml: str, rid: str) -> dict[int, list[tuple[int, int, int, int]]]:
    """The boxes of `rid`'s nodes, by their top edge."""
    out: dict[int, list] = {}
    for node in nodes(xml, resource_id=rid):
        box = bounds(node)
        out.setdefault(box[1], []).append(box)
    return out


# -- Photos ---------------------------------------------------------------------------

def test_photos_groups_the_shots_under_date_headers_newest_first_in_square_tiles():
    """The family's set-up puts camera shots of 2024-01-16 and screenshots of 2024-01-15
    beside the build's photo; the clock says 2024-01-17."""
    ep = Episode("photos/count_the_photos@0")
    ep.open_app("Photos")
    xml = ep.obs["xml"]
    assert _texts(xml, P + "date_header") == ["Today", "Yesterday", "Mon, Jan 15"]
    tiles = nodes(xml, resource_id=P + "photo_grid_item")
    assert tiles[0].get("content-desc") == "99_Colosseum.jpg"  # undated: written at boot
    assert tiles[1].get("content-desc").startswith("IMG_20240116_")
    for left, top, right, bottom in map(bounds, tiles):
        if top < 1000:  # the first rows, wholly on screen
            assert abs((right - left) - (bottom - top)) <= 1
            assert abs((right - left) - 1080 / 3) <= 4  # three columns, 2 dp apart
    assert max(len(r) for r in _rows(xml, P + "photo_grid_item").values()) <= 3


def test_photos_library_has_its_four_buttons_device_folders_and_albums():
    ep = Episode("photos/count_the_photos@0")
    ep.open_app("Photos").click(resource_id=P + "tab_library")
    xml = ep.obs["xml"]
    buttons = [nodes(xml, resource_id=P + key)[0] for key in ("favorites", "utilities",
                                                               "archive", "trash")]
    assert [(n.get("class"), n.get("content-desc")) for n in buttons] == [
        ("android.widget.Button", "Favorites"), ("android.widget.Button", "Utilities"),
        ("android.widget.Button", "Archive"), ("android.widget.Button", "Trash")]
    folders = [n.get("content-desc") for n in nodes(xml, resource_id=P + "device_folder")]
    assert folders[:3] == ["Camera", "Download", "Pictures"]  # Camera first, then by name
    assert nodes(xml, resource_id=P + "new_album")
    assert not nodes(xml, resource_id=P + "photo_grid_item")
    ep.click(resource_id=P + "trash")
    assert ep.has(resource_id=P + "empty_state")


# -- YouTube --------------------------------------------------------------------------

def test_youtube_home_has_the_logo_five_tabs_and_16_9_cards_with_views():
    ep = Episode("youtube/open_Youtube")
    ep.open_app("YouTube")
    xml = ep.obs["xml"]
    assert nodes(xml, resource_id=Y + "youtube_logo_container", **{"content-desc": "YouTube"})
    bar = nodes(xml, resource_id=Y + "pivot_bar")[0]
    assert [n.get("content-desc") for n in bar.iter("node") if n.get("content-desc")] == [
        "Home", "Explore", "Create", "Subscriptions", "Library"]
    assert [n.get("text") for n in bar.iter("node") if n.get("text")] == [
        "Home", "Explore", "Subscriptions", "Library"]  # the create button has no label
    left, top, right, bottom = bounds(nodes(xml, resource_id=Y + "thumbnail")[0])
    assert right - left == 1080 and abs((bottom - top) - 1080 * 9 / 16) <= 2
    assert _texts(xml, Y + "details")[0] == "Daily Motion · 1.2M views · 3 weeks ago"
    assert len(nodes(xml, resource_id=Y + "channel_avatar")) >= 2


def test_youtube_search_shows_suggestions_instead_of_the_feed_and_then_results():
    """input_text types and presses ENTER (AndroidWorld's action): the search runs; the
    field, tapped again, offers completions, whose ↖ arrow puts one in the field."""
    ep = Episode("youtube/search_for_a_term_in_YouTube@0")
    ep.open_app("YouTube").click(resource_id=Y + "menu_item_1")
    assert not ep.has(resource_id=Y + "thumbnail")  # the feed is gone
    assert not ep.has(resource_id=Y + "pivot_bar")
    assert ep.find(resource_id=Y + "search_edit_text").get("focused") == "true"
    ep.step({"action_type": "input_text", "text": "guitar"})
    assert _texts(ep.obs["xml"], Y + "title") == ["Beginner guitar: first chords"]
    ep.click(resource_id=Y + "search_edit_text")  # back to typing
    shown = _texts(ep.obs["xml"], Y + "suggestion_text")
    assert shown[0] == "beginner guitar: first chords" and "guitar tutorial" in shown
    assert not ep.has(resource_id=Y + "thumbnail")
    arrows = nodes(ep.obs["xml"], **{"content-desc": "Edit suggestion"})
    left, top, right, bottom = bounds(arrows[shown.index("guitar tutorial")])
    ep.step({"action_type": "click", "x": (left + right) // 2, "y": (top + bottom) // 2})
    field = ep.find(resource_id=Y + "search_edit_text")
    assert (field.get("text"), field.get("focused")) == ("guitar tutorial", "true")
    ep.step({"action_type": "keyboard_enter"})
    assert _texts(ep.obs["xml"], Y + "title") == ["Beginner guitar: first chords"]
    assert ep.find(resource_id=Y + "search_edit_text").get("text") == "guitar tutorial"
    ep.back()
    assert ep.has(resource_id=Y + "thumbnail") and ep.has(resource_id=Y + "pivot_bar")
    ep.click(resource_id=Y + "menu_item_1")  # an empty field: the searches made, newest first
    assert _texts(ep.obs["xml"], Y + "suggestion_text") == ["guitar tutorial", "guitar"]


# -- tablets --------------------------------------------------------------------------

@pytest.mark.parametrize(("task", "app", "rid", "least"), [
    ("youtube/open_Youtube", "YouTube", Y + "thumbnail", 3),
    ("photos/count_the_photos@0", "Photos", P + "photo_grid_item", 4)])
def test_the_tablet_opens_youtube_and_photos_on_their_multi_column_grids(task, app, rid,
                                                                        least):
    """sw600dp: YouTube's cards three across the 1200 dp landscape tablet, Photos' tiles
    six (here the widest day has four photos); a phone shows one card, three tiles."""
    ep = Episode(task, config=TABLET)
    ep.open_app(app)
    widest = max(_rows(ep.obs["xml"], rid).values(), key=len)
    assert len(widest) >= least
    if app == "YouTube":
        left, top, right, bottom = widest[0]
        assert abs((bottom - top) - (right - left) * 9 / 16) <= 2
    else:
        assert all(abs((r - left) - 198) <= 2 for left, _, r, _ in widest)  # 6 a row

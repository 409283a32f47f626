"""The expert stages that find a row of a scrolled list by what it shows (an alarm card
by its label, a Files row by its name) or wait until it is clear of the Clock's floating
button bar: on the 700 dpi phone (test_env_108) the alarm list scrolls and its last card
sits under the bar, where the index-counting `tap_id` tapped the bar instead. And
`tap_id` counting rows taller than a scroll leaves in common (Wikipedia's feed cards)."""

from __future__ import annotations

import pytest
from agent_steps import Episode, play_plan
from conftest import run_expert

from bmoca.env import observations
from bmoca.sim.apps.wikipedia import model
from bmoca.tasks.experts.base import Screen, list_container, scroll_list

W = "org.wikipedia:id/"


@pytest.mark.parametrize("task_id", [
    # the fourth card, under the bar after the third was edited: found by its label
    "clock/move_four_alarms_ninety_minutes_later@0",
    # the second new card's Label row, under the bar: scrolled clear before the tap
    "clock/create_two_labelled_alarms@3",
    # the second new card above the scrolled list: scrolled up to its day buttons
    "clock/create_weekday_and_weekend_alarms@2",
])
def test_clock_stages_reach_cards_of_a_scrolled_list(pool, task_id):
    info = run_expert(pool, task_id, "test_env_108")
    assert info["success"], info.get("detector")


def test_files_rows_are_selected_by_name_and_deleted_together(pool):
    info = run_expert(pool, "files/delete_two_downloads_together@1", "test_env_108")
    assert info["success"], info.get("detector")


@pytest.mark.parametrize("config", ["test_env_100", "train_env_000", "test_env_108",
                                    "test_env_109"])
def test_tap_id_counts_the_tall_feed_cards_down_to_the_last(config):
    """The eighth card of Wikipedia's feed (Today on Wikipedia), by its title's index:
    the cards with a lead picture are taller than what a scroll leaves in common on a
    phone, so the screens before and after a scroll may share no title; the expert's
    scroll moves the feed by less than its height, so it still counts every card (it lost
    track with the screen-wide scroll, which flings the feed on by a screen or more)."""
    last = model.CONFIGURABLE - 1
    plan = [{"open_app": "org.wikipedia"},
            {"tap_id": {"id": W + "view_featured_article_card_article_title", "index": last}},
            {"wait_for": W + "view_page_title_text"}]
    screen, sent, _ = play_plan("wikipedia/decrease_the_text_size_to_50%_in_Wikipedia",
                                config, plan, step_limit=40)
    assert any(a["action_type"] == "scroll" for a in sent)
    title = screen.first(W + "view_page_title_text")
    assert title is not None, sent
    assert title.text == model.ARTICLES[last % len(model.ARTICLES)].title


@pytest.mark.parametrize("config", ["test_env_100", "train_env_000"])
def test_the_experts_scroll_moves_a_list_by_less_than_its_height(config):
    """The expert scrolls a list by its container (half of it, and the fling), never by a
    whole screen: a card of Wikipedia's feed shown before is still shown after, higher by
    less than the feed is tall (the screen-wide scroll carries every header shown off the
    440 dpi phone)."""
    headers = W + "view_card_header_title"
    ep = Episode("wikipedia/decrease_the_text_size_to_50%_in_Wikipedia", config)
    try:
        ep.open_app("Wikipedia")
        before = Screen(ep.obs["xml"])
        feed = list_container(before, headers)
        assert feed is not None and feed.id == W + "feed_view"
        ep.step(scroll_list(before, headers))
        after = Screen(ep.obs["xml"])
    finally:
        ep.close()
    tops = {n.text: n.bounds[1] for n in before.all(headers)}
    shifts = [tops[n.text] - n.bounds[1] for n in after.all(headers) if n.text in tops]
    assert shifts, "no card in common"
    assert 0 < shifts[0] < feed.height


def test_the_experts_nodes_carry_the_envs_element_numbers():
    """A JSON action's `index` is the element's place in the env's post-order numbering;
    the expert's nodes (read in document order) carry that number."""
    ep = Episode("wikipedia/decrease_the_text_size_to_50%_in_Wikipedia", "test_env_109")
    try:
        ep.open_app("Wikipedia")
        xml = ep.obs["xml"]
    finally:
        ep.close()
    elements = observations.translate(xml)
    screen = Screen(xml)
    assert len(screen.nodes) == len(elements)
    for node in screen.nodes:
        assert elements[node.tag].bounds == node.bounds
        assert elements[node.tag].full_resource_id == node.id

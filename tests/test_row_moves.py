"""The row stages `scroll`, `tap_within` and `slide_toward` (bmoca/tasks/experts/moves.py),
played through `env.step` in a left-to-right phone and the 700 dpi right-to-left one."""

from __future__ import annotations

import pytest
from agent_steps import play_plan as play

from bmoca import tasks
from bmoca.tasks import experts

W = "org.wikipedia:id/"
THEME_SHEET = [{"open_app": "org.wikipedia"}, {"tap_id": {"id": W + "nav_more_container"}},
               {"tap_id": {"id": W + "main_drawer_settings_container"}},
               {"tap_id": {"id": "android:id/title", "index": 2}}]


@pytest.mark.parametrize("config", ["test_env_100", "test_env_108"])
@pytest.mark.parametrize("task_id,fraction", [
    ("wikipedia/increase_the_text_size_to_180%_in_Wikipedia", 1.0),
    ("wikipedia/decrease_the_text_size_to_50%_in_Wikipedia", 0.0)])
def test_slide_toward_lands_at_the_end_beside_its_button_whichever_way_the_layout_runs(
        config, task_id, fraction):
    slide = {"slide_toward": {"id": W + "text_size_seek_bar",
                              "toward": W + "buttonIncreaseTextSize", "fraction": fraction}}
    _, sent, success = play(task_id, config, [*THEME_SHEET, slide])
    assert success, sent[-1]


def test_slide_toward_taps_the_a_plus_side_of_the_bar_in_a_right_to_left_layout():
    slide = {"slide_toward": {"id": W + "text_size_seek_bar",
                              "toward": W + "buttonIncreaseTextSize"}}
    screen, sent, _ = play("wikipedia/increase_the_text_size_to_180%_in_Wikipedia",
                           "test_env_108", [*THEME_SHEET, slide])
    bar, plus = screen.first(W + "text_size_seek_bar"), screen.first(W + "buttonIncreaseTextSize")
    assert plus.center[0] < bar.center[0]  # mirrored: A+ on the left
    assert bar.bounds[0] <= sent[-1]["x"] < bar.center[0]


@pytest.mark.parametrize("config", ["test_env_100", "test_env_108"])
def test_tap_within_opens_the_toolbars_overflow_menu(config):
    task_id = tasks.get(
        "wikipedia/disable_the_top_2_topics_in_the_feed_customization_settings_on_Wikipedia_"
        "and_go_back_to_the_feed").id
    plan = [{"open_app": "org.wikipedia"}, {"tap_id": {"id": W + "view_list_card_header_menu"}},
            {"tap_id": {"id": W + "menu_feed_card_customize"}},
            {"tap_within": {"within": W + "toolbar", "cls": "android.widget.ImageView",
                            "index": -1}}]  # AppCompat's overflow ⋮ is an ImageView
    screen, _, _ = play(task_id, config, plan)
    assert len(screen.all("android:id/title")) == 3  # Show all, Hide all, Restore default view


def test_tap_within_names_what_it_found_when_the_index_is_out_of_range():
    plan = [{"tap_within": {"within": "com.google.android.apps.nexuslauncher:id/hotseat",
                            "cls": "android.widget.ImageButton", "index": 5}}]
    with pytest.raises(experts.ExpertStuck, match="0 android.widget.ImageButton inside"):
        play("wikipedia/open_Wikipedia", "test_env_100", plan)


def test_scroll_down_on_the_home_screen_opens_the_app_drawer():
    screen, sent, _ = play("wikipedia/open_Wikipedia", "test_env_100", [{"scroll": "down"}])
    assert sent == [{"action_type": "scroll", "direction": "down"}]
    assert screen.has("com.google.android.apps.nexuslauncher:id/apps_list_view")

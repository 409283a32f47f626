"""The expert stages that find a row of a scrolled list by what it shows (an alarm card
by its label, a Files row by its name) or wait until it is clear of the Clock's floating
button bar: on the 700 dpi phone (test_env_108) the alarm list scrolls and its last card
sits under the bar, where the index-counting `tap_id` tapped the bar instead."""

from __future__ import annotations

import pytest
from conftest import run_expert


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

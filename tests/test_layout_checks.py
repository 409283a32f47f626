"""Layout checks: no labels over each other, no text cut off, no button past the screen edge.

The checker is tested on hand-made trees first (it must catch each fault), then run on the
named screens in all 45 configurations and in every device x density x font scale of the
device profiles, and on every frame of every expert episode in the extreme configurations
(`python tools/layout_sweep.py` runs the same sweep from the command line, anywhere).
"""

from __future__ import annotations

import pytest

from bmoca import configs, tasks
from bmoca.eval.layout_sweep import display_matrix, expert_frame_issues, screen_issues
from bmoca.sim.render.layout_check import check_frame
from bmoca.sim.render.text import get_text_renderer, line_height
from bmoca.sim.screens import SCREENS
from bmoca.sim.system.windows import Frame, Window
from bmoca.sim.ui.layout import Layout, ScrollState
from bmoca.sim.ui.theme import LIGHT
from bmoca.sim.ui.view import MATCH, WRAP, View, column, row, text

SCREEN = (0, 0, 1080, 2160)


def _frame(root: View, locale: str = "en-US", density: int = 440) -> Frame:
    renderer = get_text_renderer()
    layout = Layout(density, 1.0, False,
                    lambda t, size, weight, pad: renderer.measure(t, size, weight, locale, pad),
                    lambda t, size, weight, width, lines, pad: renderer.height(
                        t, size, weight, locale, width, lines, pad))
    layout.run(root, SCREEN, ScrollState())
    return Frame([Window("app", "test", root, SCREEN)], layout, None, 0, 0)


def _issues(root: View, locale: str = "en-US") -> list[str]:
    frame = _frame(root, locale)
    return [str(i) for i in check_frame(frame, SCREEN[2:], locale, LIGHT.text)]


def test_a_clean_column_has_no_issues():
    root = column(text("Network & internet", text_size=16), text("Wi-Fi, mobile", text_size=14),
                  width=MATCH, height=MATCH)
    assert _issues(root) == []


def test_labels_drawn_over_each_other_are_an_overlap():
    root = View(width=MATCH, height=MATCH, orientation="z").add(
        text("Battery saver", text_size=16, absolute=(16, 100)),
        text("Battery percentage", text_size=16, absolute=(40, 108)))
    found = _issues(root)
    assert len(found) == 1 and found[0].startswith("overlap in app:")
    assert "'Battery saver'" in found[0] and "'Battery percentage'" in found[0]


def _sheet_over_a_label(bg) -> View:
    """A label, then a bottom sheet (a later sibling in the same window) drawn over it."""
    return View(width=MATCH, height=MATCH, orientation="z").add(
        text("Battery saver", text_size=16, absolute=(16, 100)),
        column(text("Battery percentage", text_size=16), bg=bg, corner=8, width=MATCH,
               height=120, absolute=(0, 106)))


def test_text_hidden_under_an_opaque_overlay_is_no_overlap():
    """The sheet's opaque background hides the label under it: nothing shows twice."""
    assert _issues(_sheet_over_a_label((255, 255, 255))) == []


def test_text_under_a_see_through_overlay_is_still_an_overlap():
    for bg in (None, (0, 0, 0, 128)):
        found = _issues(_sheet_over_a_label(bg))
        assert len(found) == 1 and found[0].startswith("overlap in app:"), bg


def test_an_opaque_view_drawn_before_both_labels_hides_neither():
    root = View(width=MATCH, height=MATCH, orientation="z").add(
        View(bg=(255, 255, 255), width=MATCH, height=MATCH, absolute=(0, 0)),
        text("Battery saver", text_size=16, absolute=(16, 100)),
        text("Battery percentage", text_size=16, absolute=(40, 108)))
    assert len(_issues(root)) == 1


def test_text_taller_than_its_view_is_clipped():
    root = column(View(cls="android.widget.TextView", text="A long summary " * 6, text_size=14,
                       max_lines=3, width=120, height=24), width=MATCH, height=MATCH)
    found = _issues(root)
    assert found and all(f.startswith("clipped in app:") for f in found)


def test_a_child_pushed_out_of_its_parent_is_clipped():
    root = column(column(text("Title", text_size=16), text("Summary", text_size=14),
                         width=MATCH, height=20), width=MATCH, height=MATCH)
    assert any("sticks out of its parent" in f for f in _issues(root))


def test_a_button_past_the_screen_edge_is_offscreen():
    root = View(width=MATCH, height=MATCH, orientation="z").add(
        View(cls="android.widget.Button", clickable=True, width=120, height=48,
             absolute=(380, 10)))
    found = _issues(root)
    assert len(found) == 1 and found[0].startswith("offscreen in app:")


def test_rows_grow_with_their_wrapped_text():
    """A weighted label column is measured in the width it gets, so a three-line summary
    makes its row three lines tall (Android's wrap_content), not one."""
    long = "Permissions, account activity, personal data, and more words to wrap"
    labels = column(text("Privacy", text_size=16, width=MATCH, max_lines=2),
                    text(long, id="summary", text_size=14, width=MATCH, max_lines=4),
                    width=0, weight=1, height=WRAP)
    root = column(row(View(width=56, height=24), labels, height=WRAP), width=MATCH,
                  height=MATCH)
    frame = _frame(root, density=700)
    summary = root.find(resource_id="summary")
    renderer = get_text_renderer()
    size = frame.layout.sp(14)
    lines = renderer.wrap(long, size, 400, "en-US", summary.bounds[2] - summary.bounds[0], 4)
    assert len(lines) >= 2
    assert summary.bounds[3] - summary.bounds[1] == line_height(size, len(lines))
    assert labels.bounds[3] >= summary.bounds[3]
    assert check_frame(frame, SCREEN[2:], "en-US", LIGHT.text) == []


@pytest.mark.slow
@pytest.mark.parametrize("config_id", ["test_env_105", "test_env_108", "test_env_109"])
def test_every_frame_of_every_expert_lays_out_cleanly(config_id):
    """Korean at 550 dpi, Urdu at 700 dpi and the Arabic tablet: every screen
    the experts of all tasks pass through."""
    assert expert_frame_issues(config_id, tasks.list()) == []


@pytest.mark.slow
@pytest.mark.parametrize("config", [configs.get(c) for c in configs.ids()] + display_matrix(),
                         ids=lambda c: c.id)
def test_every_named_screen_lays_out_cleanly_everywhere(config):
    """All the named screens, in every preset and every device x density x font scale."""
    found = []
    for screen in SCREENS:
        found += screen_issues(config, screen.name)
    assert found == []


def test_the_contact_headers_letter_tile_is_an_image_under_the_name():
    """At 700 dpi the wrapped name reaches into the letter's line box; Android draws the
    letter as a drawable under the name, so that is no collision of labels."""
    task = [t for t in tasks.list() if t.id == "contacts/activate_the_edit_page_in_contact"]
    assert expert_frame_issues("test_env_108", task) == []

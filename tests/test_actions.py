"""Action modes: spaces, conversion to device commands, labels and error messages."""

from __future__ import annotations

import json

import numpy as np
import pytest

from bmoca.env.actions import (
    MODES,
    Answer,
    Discrete,
    DualGesture,
    FreeText,
    InvalidAction,
    JsonActions,
    LongPress,
    OpenApp,
    PressKey,
    Screen,
    Status,
    Swipe,
    Tap,
    TextActions,
    TypeText,
    Wait,
    make_mode,
    to_pixel,
)
from bmoca.env.observations import Element

W, H = 1080, 2160


def _el(tag: int, bounds: tuple[int, int, int, int], text: str = "") -> Element:
    return Element(tag, "", "TextView", "", text, "false", bounds)


ELEMENTS = (
    _el(0, (42, 300, 600, 360), "Wi-Fi"),
    _el(1, (900, 300, 1040, 360), "ON"),
    _el(2, (0, 200, 1080, 1800)),  # a scrollable list
    _el(3, (1000, 2000, 1200, 2300)),  # partly off-screen
    _el(4, (0, 0, W, H)),
)
SCREEN = Screen(W, H, ELEMENTS)
RTL = Screen(W, H, ELEMENTS, rtl=True)


# -- shared ----------------------------------------------------------------------------

def test_to_pixel_truncates_and_caps():
    assert to_pixel(0.5, 1080) == 540
    assert to_pixel(0.9999, 1080) == 1079
    assert to_pixel(1.0, 1080) == 1079
    assert to_pixel(0.0, 1080) == 0


@pytest.mark.parametrize("name", sorted(MODES))
def test_every_space_contains_its_samples(name):
    space = make_mode(name).space()
    space.seed(7)
    for _ in range(50):
        assert space.contains(space.sample())


def test_free_text_samples_are_seeded_and_bounded():
    a, b = TextActions().space(), TextActions().space()
    a.seed(3)
    b.seed(3)
    assert [a.sample() for _ in range(10)] == [b.sample() for _ in range(10)]
    assert FreeText(5).contains("abcde") and not FreeText(5).contains("abcdef")
    assert not FreeText().contains(b"bytes") and not FreeText().contains(3)
    short = FreeText(4, sampler=lambda rng: "x" * 100)
    assert short.sample() == "xxxx"


def test_text_space_samples_are_mostly_valid_actions():
    mode = TextActions()
    space = mode.space()
    space.seed(0)
    results = []
    for _ in range(200):
        try:
            mode.convert(space.sample(), SCREEN)
            results.append(True)
        except InvalidAction:
            results.append(False)
    assert 0.3 < sum(results) / len(results) < 1.0  # valid ones and junk


def test_make_mode_by_name_and_unknown_names():
    assert isinstance(make_mode("dual_gesture", threshold=0.2), DualGesture)
    assert isinstance(make_mode("dual-gesture"), DualGesture)
    assert isinstance(make_mode("json"), JsonActions)
    with pytest.raises(ValueError, match="valid: dual_gesture, discrete, text, json"):
        make_mode("mouse")


def test_screen_rejects_empty_sizes():
    with pytest.raises(ValueError):
        Screen(0, 100)


# -- dual gesture ----------------------------------------------------------------------

def test_dual_gesture_threshold_boundary():
    mode = DualGesture()
    assert mode.convert([0.5, 0.5, 0.5, 0.64], SCREEN) == [Tap(540, 1080)]  # d = 0.14
    assert mode.convert([0.5, 0.5, 0.57, 0.5], SCREEN) == [Tap(540, 1080)]  # 2*0.07 = 0.14
    assert mode.convert(np.float32([0.2, 0.3, 0.2, 0.44]), SCREEN) == [Tap(324, 432)]
    assert mode.convert([0.5, 0.5, 0.5, 0.641], SCREEN) == [Swipe(540, 1080, 692, 1080)]
    assert mode.convert([0.5, 0.5, 0.571, 0.5], SCREEN) == [Swipe(540, 1080, 540, 1233)]


def test_dual_gesture_swipe_caps_at_the_last_pixel_and_labels():
    mode = DualGesture()
    assert mode.convert([1.0, 0.0, 0.0, 1.0], SCREEN) == [Swipe(0, 2159, 1079, 0)]
    assert mode.label(np.array([0.5, 0.5, 0.5, 0.5])) == "dual-gesture(0.50, 0.50, 0.50, 0.50)"
    assert DualGesture(threshold=0.5).convert([0.5, 0.5, 0.7, 0.5], SCREEN) == [Tap(540, 1080)]


@pytest.mark.parametrize("action, needle", [
    ([0.5, 0.5, 0.5], "shape"),
    ([[0.5, 0.5, 0.5, 0.5]], "shape"),
    ([0.5, float("nan"), 0.5, 0.5], "non-finite"),
    ([0.5, 0.5, 1.2, 0.5], r"\[0, 1\]"),
    ([-0.1, 0.5, 0.5, 0.5], r"\[0, 1\]"),
    ("0.5, 0.5, 0.5, 0.5", "4 numbers"),
    (["a", 1, 2, 3], "4 numbers"),
])
def test_dual_gesture_rejects_malformed(action, needle):
    with pytest.raises(InvalidAction, match=needle):
        DualGesture().convert(action, SCREEN)


# -- discrete --------------------------------------------------------------------------

def test_discrete_space_and_tap_grid():
    mode = Discrete()
    assert mode.space().n == 385
    assert mode.convert(0, SCREEN) == [Tap(to_pixel(0.025, W), to_pixel(0.025, H))]
    assert mode.convert(0, SCREEN) == [Tap(27, 54)]
    assert mode.convert(13, SCREEN) == [Tap(1079, 54)]  # x = 1.0, capped
    assert mode.convert(14, SCREEN) == [Tap(27, 135)]  # row 1: y = 0.0625
    assert mode.convert(377, SCREEN) == [Tap(1079, 2159)]  # last row and column
    assert mode.convert(np.int64(5), SCREEN) == mode.convert(5, SCREEN)
    assert mode.convert(np.array(5), SCREEN) == mode.convert(5, SCREEN)


def test_discrete_swipes_and_buttons():
    mode = Discrete()
    assert mode.convert(378, SCREEN) == [Swipe(540, 1728, 540, 432)]  # up
    assert mode.convert(379, SCREEN) == [Swipe(540, 432, 540, 1728)]  # down
    assert mode.convert(380, SCREEN) == [Swipe(216, 1080, 864, 1080)]  # right
    assert mode.convert(381, SCREEN) == [Swipe(864, 1080, 216, 1080)]  # left
    nav_y = to_pixel(0.984, H)
    assert mode.convert(382, SCREEN) == [Tap(362, nav_y)]  # back
    assert mode.convert(383, SCREEN) == [Tap(540, nav_y)]  # home
    assert mode.convert(384, SCREEN) == [Tap(717, nav_y)]  # overview
    # Right-to-left locales mirror the navigation bar: back moves to the right.
    assert mode.convert(382, RTL) == [Tap(to_pixel(1 - 0.336, W), nav_y)]
    assert mode.convert(383, RTL) == [Tap(540, nav_y)]
    assert mode.convert(378, RTL) == mode.convert(378, SCREEN)


def test_discrete_labels():
    mode = Discrete()
    assert mode.label(0) == "tap(y=0.025, x=0.025)"
    assert [mode.label(i) for i in range(378, 385)] == [
        "swipe(up)", "swipe(down)", "swipe(right)", "swipe(left)",
        "press(BACK)", "press(HOME)", "press(OVERVIEW)"]


@pytest.mark.parametrize("action", [-1, 385, 3.0, True, "3", np.array([1, 2]), None])
def test_discrete_rejects_malformed(action):
    with pytest.raises(InvalidAction, match="discrete action"):
        Discrete().convert(action, SCREEN)


def test_discrete_index_of_round_trips_its_own_actions():
    for index in (0, 13, 14, 200, 377):
        row, col = divmod(index, 14)
        y, x = 0.025 + 0.0375 * row, 0.025 + 0.075 * col
        assert Discrete.index_of(min(y, 1.0), min(x, 1.0), min(y, 1.0), min(x, 1.0)) == index
    assert Discrete.index_of(0.8, 0.5, 0.2, 0.5) == 378
    assert Discrete.index_of(0.2, 0.5, 0.8, 0.45) == 379
    assert Discrete.index_of(0.5, 0.1, 0.55, 0.9) == 380
    assert Discrete.index_of(0.5, 0.9, 0.5, 0.3) == 381
    assert Discrete.index_of(0.984, 0.336, 0.984, 0.336) == 382
    assert Discrete.index_of(0.984, 0.5, 0.984, 0.5) == 383
    assert Discrete.index_of(0.984, 0.664, 0.984, 0.664) == 384
    assert Discrete.index_of(0.984, 0.664, 0.984, 0.664, rtl=True) == 382
    # A tap close to, but not on, a button goes to the nearest grid cell.
    assert Discrete.index_of(0.96, 0.5, 0.96, 0.5) < 378
    # Short movements are taps (doubled-y distance < 0.1 in tanh space, i.e. < 0.05).
    assert Discrete.index_of(0.5, 0.5, 0.5, 0.54) < 378
    assert Discrete.index_of(0.5, 0.5, 0.5, 0.56) == 380


# -- text actions ----------------------------------------------------------------------

def _text(answer: str, screen: Screen = SCREEN):
    return TextActions().convert(answer, screen)


def test_text_tap_hits_the_centre_of_the_element():
    assert _text("tap(0)") == [Tap(321, 330)]
    assert _text("tap( 1 )") == [Tap(970, 330)]
    assert _text('tap("1")') == [Tap(970, 330)]
    assert _text("tap(3)") == [Tap(1040, 2080)]  # centre of the on-screen part


def test_text_swipes_follow_the_reference_table():
    assert _text('swipe("up")') == [Swipe(540, 1728, 540, 432)]
    assert _text("swipe('down')") == [Swipe(540, 432, 540, 1728)]
    # The reference's text "left" moves the finger left-to-right.
    assert _text("swipe(`left`)") == [Swipe(216, 1080, 864, 1080)]
    assert _text("swipe(right)") == [Swipe(864, 1080, 216, 1080)]


def test_text_press_taps_the_navigation_bar_and_mirrors_in_rtl():
    nav_y = to_pixel(0.984, H)
    assert _text('press("HOME")') == [Tap(540, nav_y)]
    assert _text('press ( "home" )') == [Tap(540, nav_y)]
    assert _text('press("BACK")') == [Tap(362, nav_y)]
    assert _text('press("OVERVIEW")') == [Tap(717, nav_y)]
    assert _text('press("BACK")', RTL) == [Tap(717, nav_y)]
    assert _text('press("OVERVIEW")', RTL) == [Tap(362, nav_y)]


def test_text_dual_gesture():
    assert _text("dual-gesture(0.5, 0.5, 0.5, 0.5)") == [Tap(540, 1080)]
    assert _text("dual-gesture(0.80, 0.50, 0.20, 0.50)") == [Swipe(540, 1728, 540, 432)]


def test_realistic_answers_read_the_action_line():
    answer = (
        "Description: The home screen shows the Settings app and a search bar.\n"
        "Thought: I should tap the app drawer, so I will swipe up to open it.\n"
        'Action: swipe("up")\n'
    )
    assert _text(answer) == [Swipe(540, 1728, 540, 432)]
    markdown = ("**Thought:** element 0 is Wi-Fi, tap(4) would be wrong.\n\n"
                "**Action:** `tap(0)`")
    assert _text(markdown) == [Tap(321, 330)]
    # The last Action line wins, and the action may follow on the next lines.
    fenced = 'Action: swipe("down")\nOn reflection:\naction:\n```\npress("BACK")\n```'
    assert _text(fenced) == [Tap(362, to_pixel(0.984, H))]


def test_a_thought_mentioning_tap_does_not_shadow_the_swipe():
    # Without an Action line the whole answer is read; "tap" appears only as a word, so
    # the swipe is found (the reference failed with "wrong format" here).
    answer = 'I want to tap the Settings icon but it is not visible, so swipe("up").'
    assert _text(answer) == [Swipe(540, 1728, 540, 432)]
    # Keyword order is the reference's: a tap *call* anywhere in the section wins.
    assert _text('swipe("up") or maybe tap(1)') == [Tap(970, 330)]


def test_text_labels_are_canonical():
    mode = TextActions()
    assert mode.label("Action: tap( 12 )") == "tap(12)"
    assert mode.label("Action: swipe('UP')") == "swipe(up)"
    assert mode.label('press("recents")') == "press(OVERVIEW)"
    assert mode.label("dual-gesture(0.5,0.5,0.5,0.5)") == "dual-gesture(0.50, 0.50, 0.50, 0.50)"


@pytest.mark.parametrize("answer, needle", [
    ("Thought: nothing to do.\nAction: wait", "no action found after 'Action:'"),
    ("I will tap the icon.", "tap mentioned but not written as a call"),
    ("tap(9)", r"no element 9 on this screen \(valid: 0-4\)"),
    ("tap(-1)", "no element -1"),
    ("tap(first)", "numeric tag"),
    ('swipe("upward")', "unknown swipe direction 'upward'"),
    ('press("ENTER")', "unknown button 'ENTER'"),
    ('press("POWERR")', "unknown button"),
    ("dual-gesture(0.5, 0.5, 0.5)", "4 numbers"),
    ("dual-gesture(0.5, 0.5, 0.5, 1.5)", r"\[0, 1\]"),
    ("dual-gesture(0.5, a, 0.5, 0.5)", "must be numbers"),
    ("", "no action found"),
])
def test_malformed_text_actions_explain_themselves(answer, needle):
    with pytest.raises(InvalidAction, match=needle):
        _text(answer)


def test_text_rejects_non_strings_and_taps_on_empty_screens():
    with pytest.raises(InvalidAction, match="must be a str"):
        _text(3)
    with pytest.raises(InvalidAction, match="the screen has no elements"):
        _text("tap(0)", Screen(W, H))


# -- JSON actions ----------------------------------------------------------------------

def _json(action, screen: Screen = SCREEN):
    return JsonActions().convert(action, screen)


def test_json_click_and_long_press_by_index_or_pixels():
    assert _json({"action_type": "click", "index": 0}) == [Tap(321, 330)]
    assert _json({"action_type": "click", "index": "1"}) == [Tap(970, 330)]
    assert _json({"action_type": "click", "x": 10, "y": 20.7}) == [Tap(10, 20)]
    assert _json({"action_type": "long_press", "index": 1}) == [LongPress(970, 330)]
    assert _json('{"action_type": "long_press", "x": 5, "y": 6}') == [LongPress(5, 6)]


def test_json_input_text_taps_types_and_presses_enter():
    assert _json({"action_type": "input_text", "text": "hello world", "index": 0}) == [
        Tap(321, 330), TypeText("hello world"), PressKey("ENTER")]
    assert _json({"action_type": "input_text", "text": "42"}) == [
        TypeText("42"), PressKey("ENTER")]
    assert _json({"action_type": "input_text", "text": 42, "clear_text": False}) == [
        TypeText("42"), PressKey("ENTER")]


def test_json_keys_apps_and_episode_control():
    assert _json({"action_type": "navigate_home"}) == [PressKey("HOME")]
    assert _json({"action_type": "navigate_back"}) == [PressKey("BACK")]
    assert _json({"action_type": "navigate_recents"}) == [PressKey("APP_SWITCH")]
    assert _json({"action_type": "keyboard_enter"}) == [PressKey("ENTER")]
    assert _json({"action_type": "open_app", "app_name": "Clock"}) == [OpenApp("Clock")]
    assert _json({"action_type": "wait"}) == [Wait()]
    assert _json({"action_type": "status", "goal_status": "complete"}) == [Status("complete")]
    assert _json({"action_type": "status", "goal_status": "infeasible"}) == [
        Status("infeasible")]
    assert _json({"action_type": "answer", "text": "7 alarms"}) == [Answer("7 alarms")]


def test_json_scroll_moves_content_in_the_named_direction():
    # Whole screen: "down" reveals content below, so the finger moves up.
    assert _json({"action_type": "scroll", "direction": "down"}) == [
        Swipe(540, 1080, 540, 0)]
    assert _json({"action_type": "scroll", "direction": "up"}) == [
        Swipe(540, 1080, 540, 2159)]
    assert _json({"action_type": "scroll", "direction": "right"}) == [
        Swipe(540, 1080, 0, 1080)]
    assert _json({"action_type": "scroll", "direction": "left"}) == [
        Swipe(540, 1080, 1079, 1080)]
    # Within element 2 (x 0-1079, y 200-1799).
    assert _json({"action_type": "scroll", "direction": "down", "index": 2}) == [
        Swipe(540, 1000, 540, 200)]
    assert _json({"action_type": "scroll", "direction": "up", "index": 2}) == [
        Swipe(540, 1000, 540, 1799)]


def test_json_swipe_is_the_finger_direction_edge_to_edge():
    assert _json({"action_type": "swipe", "direction": "up"}) == [
        Swipe(540, 2159, 540, 0, duration_ms=500)]
    assert _json({"action_type": "swipe", "direction": "down"}) == [
        Swipe(540, 0, 540, 2159, duration_ms=500)]
    assert _json({"action_type": "swipe", "direction": "left"}) == [
        Swipe(1079, 1080, 0, 1080, duration_ms=500)]
    assert _json({"action_type": "swipe", "direction": "right"}) == [
        Swipe(0, 1080, 1079, 1080, duration_ms=500)]


def test_json_inside_a_model_answer():
    answer = ('Reason: The Clock app opens alarms. {not json}\n'
              'Action: {"action_type": "open_app", "app_name": "Clock"}\n')
    assert _json(answer) == [OpenApp("Clock")]
    fenced = 'Reason: first {"a": 1}\n```json\n{"action_type": "click", "index": 0}\n```'
    assert _json(fenced) == [Tap(321, 330)]


def test_json_nulls_are_absent_and_unused_known_fields_ignored():
    assert _json({"action_type": "click", "index": 0, "x": None, "y": None,
                  "text": "Wi-Fi"}) == [Tap(321, 330)]
    assert _json({"action_type": "navigate_home", "direction": "up"}) == [PressKey("HOME")]


def test_json_labels():
    mode = JsonActions()
    assert mode.label({"action_type": "click", "index": 3}) == "click(index=3)"
    assert mode.label(json.dumps({"action_type": "input_text", "text": "hi", "x": 1,
                                  "y": 2})) == 'input_text(x=1, y=2, text="hi")'
    assert mode.label({"action_type": "scroll", "direction": "down"}) == \
        "scroll(direction=down)"
    assert mode.label({"action_type": "navigate_home"}) == "navigate_home()"


@pytest.mark.parametrize("action, needle", [
    ({"action_type": "fly"}, "unknown action_type 'fly'"),
    ({"index": 1}, "missing field 'action_type'"),
    ({"action_type": "click"}, "needs field 'index' or fields 'x' and 'y'"),
    ({"action_type": "click", "index": 1, "x": 3, "y": 4}, "either 'index' or 'x' and 'y'"),
    ({"action_type": "click", "x": 3}, "field 'x' needs field 'y'"),
    ({"action_type": "click", "index": 9}, "no element 9"),
    ({"action_type": "click", "index": 1.5}, "field 'index' must be an integer"),
    ({"action_type": "click", "index": True}, "field 'index' must be an integer"),
    ({"action_type": "click", "x": "3", "y": 4}, "field 'x' must be a number"),
    ({"action_type": "click", "x": 3, "y": 5000}, "field 'y' = 5000 is outside the screen"),
    ({"action_type": "click", "x": -1, "y": 5}, "field 'x' = -1 is outside the screen"),
    ({"action_type": "click", "index": 0, "reason": "x"}, "unknown field 'reason'"),
    ({"action_type": "input_text"}, "input_text needs field 'text'"),
    ({"action_type": "input_text", "text": ["a"]}, "field 'text' must be a string"),
    ({"action_type": "input_text", "text": "a", "clear_text": True}, "clear_text"),
    ({"action_type": "input_text", "text": "a", "clear_text": "yes"}, "clear_text"),
    ({"action_type": "scroll"}, "scroll needs field 'direction'"),
    ({"action_type": "scroll", "direction": "north"}, "field 'direction' must be one of"),
    ({"action_type": "swipe", "direction": 3}, "field 'direction' must be a string"),
    ({"action_type": "scroll", "direction": "up", "index": 7}, "no element 7"),
    ({"action_type": "open_app"}, "open_app needs a non-empty field 'app_name'"),
    ({"action_type": "open_app", "app_name": " "}, "non-empty field 'app_name'"),
    ({"action_type": "status"}, "status needs field 'goal_status'"),
    ({"action_type": "status", "goal_status": "done"}, "'complete' or 'infeasible'"),
    ({"action_type": "answer"}, "answer needs field 'text'"),
    ("[1, 2]", "must be an object"),
    ("Action: click the button", "no JSON object found"),
    (42, "must be a dict or a str"),
])
def test_malformed_json_actions_name_the_field(action, needle):
    with pytest.raises(InvalidAction, match=needle):
        _json(action)


@pytest.mark.reliability
def test_a_model_answer_with_a_huge_string_index_is_the_agents_invalid_action():
    """A T3A/M3A answer whose index is a 5,000-digit string: an invalid action of the
    agent's (counted, episode goes on), never a ValueError that makes the episode an
    infrastructure error."""
    mode = JsonActions()
    answer = ('Reason: tap it\nAction: {"action_type": "click", "index": "'
              + "9" * 5000 + '"}')
    with pytest.raises(InvalidAction, match="5000-digit index"):
        mode.parse(answer)
    with pytest.raises(InvalidAction, match="4400-digit index"):
        mode.convert({"action_type": "long_press", "index": " " + "7" * 4400},
                     Screen(1080, 2160))

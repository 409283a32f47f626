"""Property tests (hypothesis): no input through any action mode, the device API or the shell
lets an exception out, leaves an observation outside its space, miscounts steps or invalid
actions, or leaves a phone that no longer dumps and draws.

Derandomized (the same examples every run, no example database) so that the suite stays
deterministic; `pytest -m reliability` runs this set alone, and BMOCA_HYPOTHESIS_EXAMPLES=500
searches deeper.
"""

from __future__ import annotations

import json
import os
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

import bmoca
from bmoca.device import InvalidInput, Key
from bmoca.sim.device import SimDevice

pytestmark = pytest.mark.reliability

EXAMPLES = int(os.environ.get("BMOCA_HYPOTHESIS_EXAMPLES", "30"))
"""Examples per property; raise it for a deeper search (the README gives the count tried)."""
RELIABLE = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow, HealthCheck.data_too_large])

# -- hostile values ----------------------------------------------------------------------------

HUGE = st.sampled_from([10**400, -(10**400), 2**63, 2**31, -(2**31) - 1, 10**15])
NUMBERS = st.one_of(st.integers(-5000, 5000), HUGE, st.floats(allow_nan=True, allow_infinity=True))
JUNK = st.one_of(st.none(), st.booleans(), st.text(max_size=40), st.binary(max_size=16), NUMBERS,
                 st.lists(NUMBERS, max_size=6), st.dictionaries(st.text(max_size=6), NUMBERS,
                                                               max_size=3))
DIGITS = st.integers(1, 6000).map(lambda n: "9" * n)
ARGS = st.one_of(NUMBERS.map(str), DIGITS, st.text(max_size=30),
                 st.sampled_from(["up", "down", "HOME", "BACK", "OVERVIEW", "left", "'up'",
                                  "0.5, 0.5, 0.5, 0.5", "1e400, 0, 0, 0", "nan, 0, 1, 1"]))
TEXT_ACTIONS = st.one_of(
    st.builds(lambda kw, arg, pre: f"{pre}Action: {kw}({arg})",
              st.sampled_from(["tap", "swipe", "press", "dual-gesture", "TAP", "dual_gesture"]),
              ARGS, st.sampled_from(["", "Thought: hmm\n", "- "])),
    st.text(max_size=200),
    st.integers(1, 30_000).map(lambda n: "tap(" * n),
    JUNK)
JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), NUMBERS.filter(lambda v: not isinstance(v, float)),
              st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=20)),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12)
JSON_FIELDS = st.sampled_from(["action_type", "index", "x", "y", "text", "direction",
                               "goal_status", "app_name", "keycode", "clear_text", "bogus"])
JSON_TYPES = st.sampled_from(["click", "long_press", "input_text", "keyboard_enter",
                              "navigate_home", "navigate_back", "scroll", "swipe", "open_app",
                              "wait", "status", "answer", "fly"])
JSON_ACTIONS = st.one_of(
    st.builds(lambda kind, extra: {"action_type": kind, **extra}, JSON_TYPES,
              st.dictionaries(JSON_FIELDS, st.one_of(JSON_VALUES, JUNK), max_size=4)),
    st.builds(lambda kind, extra, pre: pre + json.dumps({"action_type": kind, **extra}),
              JSON_TYPES, st.dictionaries(JSON_FIELDS, JSON_VALUES, max_size=4),
              st.sampled_from(["", "Reason: x\nAction: ", "```json\n"])),
    st.integers(1, 200_000).map(lambda n: "[" * n),
    st.integers(1, 6000).map(lambda n: '{"action_type": "click", "index": ' + "9" * n + "}"),
    JSON_VALUES.map(json.dumps), JUNK)
ACTIONS = {
    "dual_gesture": st.one_of(st.lists(st.floats(0, 1), min_size=4, max_size=4),
                              st.lists(NUMBERS, max_size=6), JUNK,
                              st.lists(st.floats(0, 1), min_size=4, max_size=4).map(np.array)),
    "discrete": st.one_of(st.integers(0, 384), NUMBERS, JUNK,
                          st.integers(0, 384).map(np.int64)),
    "text": TEXT_ACTIONS,
    "json": JSON_ACTIONS,
}


def works(device) -> None:
    """The phone still dumps a parseable hierarchy, draws and answers the shell."""
    etree.fromstring(device.dump_hierarchy().encode())
    width, height = device.screen_size()
    assert device.screenshot().shape == (height, width, 3)
    assert device.shell("date")[1] == 0


# -- every action mode -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def envs():
    made = {mode: bmoca.make("settings/turn_on_airplane_mode", observation=("xml", "text"),
                             action=mode) for mode in ACTIONS}
    yield made
    for env in made.values():
        env.close()


@pytest.mark.parametrize("mode", list(ACTIONS))
@RELIABLE
@given(data=st.data())
def test_any_action_is_a_step_and_never_an_exception(envs, mode, data):
    env = envs[mode]
    env.reset(seed=0)
    invalid = 0
    for step in range(1, 5):
        action = data.draw(ACTIONS[mode], label=f"action {step}")
        before = env.device.snapshot_bytes()
        observation, reward, terminated, truncated, info = env.step(action)
        assert env.observation_space.contains(observation)
        error = info.get("action_error")
        invalid += error is not None
        assert (info["steps"], info["invalid_actions"]) == (step, invalid)
        if error is not None and error.startswith("InvalidAction"):
            assert env.device.snapshot_bytes() == before  # refused before touching the phone
            assert reward == 0.0 and not terminated
        if terminated or truncated:
            break
    works(env.device)


@RELIABLE
@given(actions=st.lists(ACTIONS["discrete"], min_size=1, max_size=3))
def test_pixel_observations_stay_in_their_space(actions):
    env = bmoca.make("settings/turn_on_airplane_mode", observation=("pixels", "som"),
                     action="discrete", pixels_size=(64, 128), som_size=(64, 128))
    try:
        observation, _ = env.reset(seed=1)
        assert env.observation_space.contains(observation)
        for action in actions:
            observation, *_ = env.step(action)
            assert env.observation_space.contains(observation)
    finally:
        env.close()


# -- the device API ----------------------------------------------------------------------------


COORD = st.one_of(st.integers(0, 1079), st.integers(-3000, 3000), NUMBERS, JUNK)
DURATION = st.one_of(st.integers(0, 2000), NUMBERS, JUNK)
CALLS = st.one_of(
    st.tuples(st.just("tap"), st.tuples(COORD, COORD)),
    st.tuples(st.just("swipe"), st.tuples(COORD, COORD, COORD, COORD, DURATION)),
    st.tuples(st.just("long_press"), st.tuples(COORD, COORD, DURATION)),
    st.tuples(st.just("press"), st.tuples(st.one_of(st.sampled_from(list(Key)), JUNK))),
    st.tuples(st.just("input_text"), st.tuples(st.one_of(st.text(max_size=60), JUNK))),
)


@RELIABLE
@given(calls=st.lists(CALLS, min_size=1, max_size=6))
def test_device_calls_succeed_or_refuse_with_the_phone_unchanged(booted, calls):
    device = SimDevice()
    device.restore_bytes(booted)
    for name, args in calls:
        before = device.snapshot_bytes()
        try:
            getattr(device, name)(*args)
        except InvalidInput:
            assert device.snapshot_bytes() == before
    works(device)


# -- the shell ---------------------------------------------------------------------------------

COMMANDS = ["input tap", "input swipe", "input text", "input keyevent", "sleep", "wm size",
            "wm density", "date", "date -d", "printf", "settings put system font_scale",
            "settings put global airplane_mode_on", "media volume --stream 3 --set",
            "am start -n", "cmd uimode night", "setprop persist.sys.locale", "echo", "cat",
            "logcat -d -t", "getprop", "svc wifi", "pm list packages", "dumpsys window",
            "uiautomator dump", "input swipe 10 500 10 100", "sh -c", "seq"]
WORDS = st.one_of(
    st.sampled_from(["1", "-1", "0", "1e400", "nan", "inf", "%99999999d", "%s", "$(echo 1)",
                     "'", '"', ";", "|", "&&", "reset", "yes", "no", "@99999999999999",
                     "9223372036854775808", "2147483648", "99999999999999999999d", "200x200",
                     "1x1", "0x0", "/sdcard/x", "--user", "-1x-1"]),
    st.integers().map(str), DIGITS.map(lambda d: d[:400]),
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=20))


@RELIABLE
@given(lines=st.lists(st.builds(lambda cmd, words: " ".join([cmd, *words]),
                                st.sampled_from(COMMANDS), st.lists(WORDS, max_size=5)),
                      min_size=1, max_size=4))
def test_shell_commands_answer_in_bounded_time_and_leave_a_working_phone(booted, lines):
    device = SimDevice()
    device.restore_bytes(booted)
    for line in lines:
        started = time.perf_counter()
        out, code = device.shell(line)
        assert isinstance(out, str) and 0 <= code <= 255
        assert time.perf_counter() - started < 10, line[:200]
    works(device)

"""Open GUI models in their own formats, end to end: runner + OpenAI SDK + a local server.

The server (tests/llm_server.py) plays back answers written the way each model answers
(UI-TARS-1.5's `Thought:/Action:` lines, Qwen's `<tool_call>` JSON, the 0-1000 grammar),
with the points where the model would put them on the Pixel 3's 1080x2160 screenshot as
that model sees it. An episode succeeds only if the agent sends the screenshot, reads the
answer with the model's grammar and turns its point into the right pixel; malformed
answers must become the agent's invalid actions, with messages that say what was wrong.
"""

from __future__ import annotations

import json
import pickle
import re

import pytest
from llm_server import FakeLLMServer, Reply

from bmoca import tasks
from bmoca.agents import build
from bmoca.agents.llm import ProviderConfigError
from bmoca.env.actions import InvalidAction, JsonActions, Unreadable
from bmoca.eval import evaluate
from bmoca.eval.store import Store

pytest.importorskip("openai")
pytest.importorskip("ui_tars")

TASK = "settings/turn_on_airplane_mode"
CONFIG = "test_env_100"  # a Pixel 3: 1080x2160
# The three taps: Settings on the home screen (element centre 108,505), "Network &
# internet" (606,652), the airplane-mode switch (964,1034), in each model's coordinates.
# UI-TARS-1.5 and Qwen2.5-VL: pixels of the 1092x2156 image the server resizes 1080x2160 to.
RECORDED = {
    "uitars": [
        "Thought: I need the Settings app to change airplane mode. The Settings icon is on "
        "the home screen, so I tap it.\nAction: click(start_box='(109,504)')",
        "Thought: Airplane mode lives under Network & internet. I tap that entry.\n"
        "Action: click(start_box='(613,651)')",
        "Thought: The Airplane mode switch is off. I tap it to turn it on.\n"
        "Action: click(start_box='<|box_start|>(975,1033)<|box_end|>')",
    ],
    "qwen25vl": [
        '<tool_call>\n{"name": "mobile_use", "arguments": {"action": "click", '
        '"coordinate": [109, 504]}}\n</tool_call>',
        '<tool_call>\n{"name": "mobile_use", "arguments": {"action": "click", '
        '"coordinate": [613, 651]}}\n</tool_call>',
        '<tool_call>\n{"name": "mobile_use", "arguments": {"action": "click", '
        '"coordinate": [975, 1033]}}\n</tool_call>',
    ],
    "qwen3vl": [
        'Thought: The Settings app holds the airplane mode switch.\nAction: "Open the '
        'Settings app."\n<tool_call>\n{"name": "mobile_use", "arguments": {"action": '
        '"click", "coordinate": [100, 234]}}\n</tool_call>',
        'Thought: Airplane mode is under Network & internet.\nAction: "Tap Network & '
        'internet."\n<tool_call>\n{"name": "mobile_use", "arguments": {"action": "click", '
        '"coordinate": [561, 302]}}\n</tool_call>',
        'Thought: The switch is off.\nAction: "Turn on the Airplane mode switch."\n'
        '<tool_call>\n{"name": "mobile_use", "arguments": {"action": "click", '
        '"coordinate": [892, 478]}}\n</tool_call>',
    ],
    "coords1000": [
        'Thought: Settings has the switch.\nAction: {"action_type": "click", "x": 100, '
        '"y": 234}',
        'Thought: it is under Network & internet.\nAction: {"action_type": "click", '
        '"x": 561, "y": 302}',
        'Thought: the switch is off.\nAction: {"action_type": "click", "x": 893, "y": 479}',
    ],
}
# What each prompt must carry: the model's published instructions and the goal.
PUBLISHED = {
    "uitars": ["You are a GUI agent. You are given a task and your action history, with "
               "screenshots.", "click(start_box='<|box_start|>(x1,y1)<|box_end|>')",
               "press_home()\npress_back()\nfinished(content='xxx')",
               "- Use English in `Thought` part.", "## User Instruction\nturn on airplane mode"],
    "qwen25vl": ["You are a helpful assistant.\n\n# Tools\n\nYou may call one or more functions",
                 "The screen's resolution is 1092x2156.", '"name_for_human": "mobile_use"',
                 '"enum": ["key", "click", "long_press", "swipe", "type", "system_button", '
                 '"open", "wait", "terminate"]',
                 "<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}"
                 "\n</tool_call>", "The user query: turn on airplane mode\nTask progress"],
    "qwen3vl": ["The screen's resolution is 999x999.", "# Response format",
                "- Output exactly in the order: Thought, Action, <tool_call>.",
                '"enum": ["click", "long_press", "swipe", "type", "answer", "system_button", '
                '"wait", "terminate"]', "The user query: turn on airplane mode.\nTask progress"],
    "coords1000": ["Points are given as x, y in 0-1000", '{"action_type": "click", "x": <x>, '
                   '"y": <y>}', "Goal: turn on airplane mode.", "Thought: <one sentence"],
}
TARGETS = ["open settings", "tap  'Network & internet'", "tap  'Airplane mode'"]
TAPS = {"uitars": [(107, 504), (606, 652), (964, 1034)],
        "qwen25vl": [(107, 504), (606, 652), (964, 1034)],
        "qwen3vl": [(108, 505), (606, 652), (964, 1033)],  # x / 999 * 1080, y / 999 * 2160
        "coords1000": [(108, 505), (605, 652), (964, 1034)]}


@pytest.fixture
def server(monkeypatch, tmp_path):
    monkeypatch.setenv("BMOCA_LLM_CACHE", str(tmp_path / "cache"))
    with FakeLLMServer() as fake:
        yield fake


def agent_name(kind: str, server: FakeLLMServer, model: str = "gui-model") -> str:
    return f"{kind}/openai-compatible:{model}@{server.url('openai')}"


def run(path, agent: str, options: dict | None = None, *, config: str = CONFIG):
    path.mkdir(parents=True, exist_ok=True)
    with Store(path) as store:
        evaluate.evaluate(store, path.name, agent, [tasks.get(TASK)], [config], 1,
                          agent_options=options or {})
        [row] = store.episodes(path.name)
        return row, store.steps_of(row.episode_id)


@pytest.mark.parametrize("kind", list(RECORDED))
def test_each_format_solves_the_task_from_recorded_answers(server, tmp_path, kind):
    server.script(*[Reply(a) for a in RECORDED[kind]])
    row, steps = run(tmp_path / kind, agent_name(kind, server))
    assert row.status == "done" and row.success, (row.error, [s.error for s in steps])
    assert row.steps == 3 and row.invalid_actions == 0
    assert [json.loads(s.action) for s in steps] == [
        {"action_type": "click", "x": x, "y": y} for x, y in TAPS[kind]]
    assert [s.info["target"] for s in steps] == TARGETS
    assert [r.images for r in server.requests] == ([1, 2, 3] if kind == "uitars" else [1, 1, 1])
    first = steps[0].agent_output["prompt"]
    for text in PUBLISHED[kind]:
        assert text in first
    assert "<image 1080x2160>" in first  # the screenshot at the phone's resolution
    assert steps[0].agent_output["response"] == RECORDED[kind][0]


def test_each_model_sees_its_history_in_its_own_form(server, tmp_path):
    for kind in ("uitars", "qwen25vl", "qwen3vl", "coords1000"):
        server.script(*[Reply(a) for a in RECORDED[kind]])
        run(tmp_path / kind, agent_name(kind, server))
    uitars, qwen25, qwen3, coords = (server.requests[i] for i in (2, 5, 8, 11))
    roles = [(m["role"], [p["type"] for p in m["content"]] if isinstance(m["content"], list)
              else "text") for m in uitars.body["messages"]]
    assert roles == [("system", "text"), ("user", "text"), ("user", ["image_url"]),
                     ("assistant", "text"), ("user", ["image_url"]), ("assistant", "text"),
                     ("user", ["image_url"])]
    # earlier answers go back with the box tokens the server stripped
    assert uitars.body["messages"][3]["content"].endswith(
        "Action: click(start_box='<|box_start|>(109,504)<|box_end|>')")
    assert ('Step 1: {"name": "mobile_use", "arguments": {"action": "click", "coordinate": '
            '[109, 504]}}; Step 2: {"name": "mobile_use"') in qwen25.prompt
    assert ("(You have done the following operation on the current device): Step 1: Open "
            "the Settings app.; Step 2: Tap Network & internet.; .\n") in qwen3.prompt
    assert "Step 1: click(x=108, y=505)\nStep 2: click(x=605, y=652)" in coords.prompt


MALFORMED = {
    "uitars": [
        ("I think the Settings app is the way to go.", "no 'Action:' line"),
        ("Thought: tap it\nAction: click(start_box='(settings)')", "cannot read the action"),
        ("Thought: tap it\nAction: click(start_box='(1500,504)')",
         "outside the screenshot (points are pixels of the 1092x2156 image the model sees)"),
        ("Thought: volume\nAction: hotkey(key='volume_up')", "'volume_up' is not a key"),
    ],
    "qwen25vl": [
        ("I will click the Settings icon.", "no <tool_call> block"),
        ('<tool_call>\n{"name": "mobile_use", "arguments": {"action": "click", '
         '"coordinate": [109, 504]}\n</tool_call>', "the <tool_call> is not JSON"),
        ('<tool_call>\n{"name": "computer_use", "arguments": {"action": "click"}}\n'
         '</tool_call>', "must call mobile_use, got 'computer_use'"),
        ('<tool_call>\n{"name": "mobile_use", "arguments": {"action": "tap", '
         '"coordinate": [109, 504]}}\n</tool_call>', "unknown action 'tap'"),
        ('<tool_call>\n{"name": "mobile_use", "arguments": {"action": "click", '
         '"coordinate": [109, 2200]}}\n</tool_call>',
         "coordinate [109, 2200] is outside the 1092x2156 screen"),
        ('<tool_call>\n{"name": "mobile_use", "arguments": {"action": "click", '
         '"coordinate": "109,504"}}\n</tool_call>', "coordinate must be [x, y]"),
    ],
    "qwen3vl": [
        ('Thought: x\nAction: "y"\n<tool_call>\n{"name": "mobile_use", "arguments": '
         '{"action": "terminate", "status": "done"}}\n</tool_call>',
         "terminate needs status success or failure"),
        ('<tool_call>\n{"name": "mobile_use", "arguments": {"action": "click", '
         '"coordinate": [100, 1000]}}\n</tool_call>', "outside the 999x999 screen"),
        ('<tool_call>\n{"name": "mobile_use", "arguments": {"action": "click", '
         '"coordinate": [' + "9" * 400 + ', 5]}}\n</tool_call>', "must be finite numbers"),
    ],
    "coords1000": [
        ('Action: {"action_type": "click", "index": 3}', "not an element index"),
        ('Action: {"action_type": "click", "x": 100, "y": 1234}', "outside 0-1000"),
        ("Action: click(100, 234)", "no JSON object found"),
    ],
}


# the task allows 6 steps: at most 3 malformed answers before the 3 good ones
CHUNKS = [(kind, bad[i:i + 3]) for kind, bad in MALFORMED.items()
          for i in range(0, len(bad), 3)]


@pytest.mark.parametrize("kind, bad", CHUNKS, ids=[f"{k}-{i}" for i, (k, _) in
                                                   enumerate(CHUNKS)])
def test_malformed_answers_are_invalid_actions_and_the_episode_goes_on(server, tmp_path, kind,
                                                                       bad):
    server.script(*[Reply(a) for a, _ in bad], *[Reply(a) for a in RECORDED[kind]])
    row, steps = run(tmp_path / kind, agent_name(kind, server))
    assert row.status == "done" and row.error is None and row.success
    assert row.invalid_actions == len(bad) and row.steps == len(bad) + 3
    assert [s.valid for s in steps] == [False] * len(bad) + [True] * 3
    for step, (answer, message) in zip(steps[:len(bad)], bad, strict=True):
        assert step.error.startswith(f"InvalidAction: {kind} answer: "), step.error
        assert message in step.error, step.error
        assert step.action == answer  # the answer is kept verbatim
        assert step.info["target"] is None  # nothing was touched
    if kind == "qwen25vl":  # an unreadable call is not an operation done on the device
        assert "current device): <image 1080x2160>" in steps[len(bad)].agent_output["prompt"]
    if kind == "coords1000":
        assert "Step 1: invalid action (the answer could not be read)" in \
            steps[len(bad)].agent_output["prompt"]


def test_done_with_an_answer_is_two_steps_and_one_model_call(server, tmp_path):
    server.script(Reply("Thought: Airplane mode is already on.\n"
                        "Action: finished(content='Airplane mode is on.')"))
    row, steps = run(tmp_path / "run", agent_name("uitars", server))
    assert [json.loads(s.action) for s in steps] == [
        {"action_type": "answer", "text": "Airplane mode is on."},
        {"action_type": "status", "goal_status": "complete"}]
    assert len(server.requests) == 1 and steps[1].agent_output is None
    assert row.terminated and not row.success  # the claim is judged on the phone


@pytest.mark.parametrize("answer, action", [
    # a finger from the status bar down pulls the shade; from the middle up scrolls down
    ('{"action": "swipe", "coordinate": [546, 10], "coordinate2": [546, 1500]}',
     {"action_type": "swipe", "direction": "down"}),
    ('{"action": "swipe", "coordinate": [546, 1600], "coordinate2": [546, 600]}',
     {"action_type": "scroll", "direction": "down"}),
    ('{"action": "swipe", "coordinate": [900, 1000], "coordinate2": [100, 1000]}',
     {"action_type": "scroll", "direction": "right"}),
    ('{"action": "system_button", "button": "Menu"}', {"action_type": "navigate_recents"}),
    ('{"action": "key", "text": "KEYCODE_BACK"}', {"action_type": "navigate_back"}),
    ('{"action": "open", "text": "Clock"}', {"action_type": "open_app", "app_name": "Clock"}),
    ('{"action": "type", "text": "hello"}', {"action_type": "input_text", "text": "hello"}),
    ('{"action": "long_press", "coordinate": [109, 504], "time": 2}',
     {"action_type": "long_press", "x": 107, "y": 504}),
    ('{"action": "terminate", "status": "failure"}',
     {"action_type": "status", "goal_status": "infeasible"}),
])
def test_qwen_actions_become_the_nearest_json_action(server, tmp_path, answer, action):
    server.script(Reply(f'<tool_call>\n{{"name": "mobile_use", "arguments": {answer}}}\n'
                        "</tool_call>"))
    server.responder = lambda request: Reply('<tool_call>\n{"name": "mobile_use", '
                                             '"arguments": {"action": "terminate", '
                                             '"status": "failure"}}\n</tool_call>')
    _, steps = run(tmp_path / "run", agent_name("qwen25vl", server))
    assert json.loads(steps[0].action) == action and steps[0].valid, steps[0].error


def test_uitars_1_0_points_in_0_1000_and_the_drag_mapping(server, tmp_path):
    server.script(Reply("Thought: settings\nAction: click(start_box='(100,234)')"),
                  Reply("Thought: up\nAction: drag(start_box='(500,800)', "
                        "end_box='(500,200)')"),
                  Reply("Thought: done\nAction: finished(content='')"))
    _, steps = run(tmp_path / "run", agent_name("uitars", server),
                   {"coordinates": "relative"})
    assert [json.loads(s.action) for s in steps] == [
        {"action_type": "click", "x": 108, "y": 505},
        {"action_type": "scroll", "direction": "down"},
        {"action_type": "status", "goal_status": "complete"}]
    assert steps[0].info["target"] == "open settings"


def test_another_phone_gets_its_own_screenshot_size_and_pixels(server, tmp_path):
    # test_env_108 is a Pixel 6, 1080x2400; UI-TARS sees it as 1092x2408
    server.script(Reply("Thought: centre\nAction: long_press(start_box='(546,1204)')"),
                  Reply("Thought: done\nAction: finished(content='')"))
    _, steps = run(tmp_path / "run", agent_name("uitars", server), config="test_env_108")
    assert json.loads(steps[0].action) == {"action_type": "long_press", "x": 540, "y": 1200}
    assert "<image 1080x2400>" in steps[0].agent_output["prompt"]


def test_names_and_options_are_checked_with_precise_errors(server):
    task = tasks.get(TASK)
    url = server.url("openai")
    with pytest.raises(ValueError, match=r"unknown agent 'uitar/openai-compatible:m@.*"
                                         r"uitars\|qwen25vl\|qwen3vl\|coords1000/"):
        build(f"uitar/openai-compatible:m@{url}", task)
    with pytest.raises(ProviderConfigError, match="'cot' does not apply to qwen3vl agents"):
        build(f"qwen3vl/openai-compatible:m@{url}", task, {"cot": "false"})
    with pytest.raises(ProviderConfigError, match="'coordinates' is for uitars agents only"):
        build(f"qwen25vl/openai-compatible:m@{url}", task, {"coordinates": "relative"})
    with pytest.raises(ProviderConfigError, match="coordinates='pixels': expected absolute"):
        build(f"uitars/openai-compatible:m@{url}", task, {"coordinates": "pixels"})
    with pytest.raises(ProviderConfigError, match="unknown agent option 'colour'; valid for "
                                                  "coords1000 agents: history, image_size"):
        build(f"coords1000/openai-compatible:m@{url}", task, {"colour": "red"})
    agent = build("uitars/openai-compatible:ByteDance-Seed/UI-TARS-1.5-7B@http://h:8000/v1",
                  task, {"max_tokens": "400"})
    assert (agent.spec.model, agent.provider.base_url) == ("ByteDance-Seed/UI-TARS-1.5-7B",
                                                           "http://h:8000/v1")
    assert agent.provider.settings.max_tokens == 400 and agent.action_mode == "json"
    assert agent.env_options == {"pixels_size": (1080, 2160)}


def test_without_the_ui_tars_package_the_error_says_what_to_install(server, monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "ui_tars", None)
    with pytest.raises(ProviderConfigError, match=r"pip install 'bmoca\[gui\]'"):
        build(f"uitars/openai-compatible:m@{server.url('openai')}", tasks.get(TASK))


def test_an_unreadable_answer_is_refused_with_its_reason_and_survives_pickling():
    answer = Unreadable("Thought: hmm", "uitars answer: no 'Action:' line")
    back = pickle.loads(pickle.dumps(answer))
    assert back == "Thought: hmm" and back.reason == answer.reason
    with pytest.raises(InvalidAction, match="^uitars answer: no 'Action:' line$"):
        JsonActions().parse(back)
    # a plain string with the same text is still read as JSON actions read any answer
    with pytest.raises(InvalidAction, match="no JSON object found"):
        JsonActions().parse(str(back))


def test_cli_eval_runs_a_gui_model_and_rejects_a_bad_name(server, tmp_path):
    from typer.testing import CliRunner

    from bmoca.cli.main import app

    server.script(*[Reply(a) for a in RECORDED["qwen3vl"]])
    args = ["eval", "--agent", agent_name("qwen3vl", server), "--tasks", TASK, "--configs",
            CONFIG, "--repeats", "1", "--no-save-screens", "--run-dir", str(tmp_path / "run")]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert re.search(r"model usage: 1 episode\(s\), [\d,]+ input tokens", result.output)
    bad = CliRunner().invoke(app, ["eval", "--agent", "qwen-vl/openai-compatible:m@http://h/v1",
                                   *args[3:]])
    flat = " ".join(bad.output.replace("│", " ").split())
    assert bad.exit_code == 2 and "unknown agent 'qwen-vl/openai-compatible:m@http://h/v1'" in flat
    assert "uitars|qwen25vl|qwen3vl|coords1000/openai-compatible:<model>@<base_url>" in flat
    dry = CliRunner().invoke(app, [*args, "--dry-run"])
    assert dry.exit_code == 0, dry.output  # screenshots counted, 1024 output tokens a call
    assert "model calls: at most 6" in dry.output and "at most 6,144 output" in dry.output
    assert int(re.search(r"about ([\d,]+) input", dry.output).group(1).replace(",", "")) > 6 * 3000

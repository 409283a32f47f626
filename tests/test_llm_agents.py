"""Model agents end to end: runner + store + official SDKs + a local HTTP model server.

The scripted "model" (tests/llm_server.py) reads the screen from the prompt it receives
and answers like a competent model would, so an episode succeeds only if the prompt
carries the right screen, the SDK speaks the wire format, and the environment executes
the answer.
"""

from __future__ import annotations

import ast
import json
import logging
import re
import sys

import pytest
from llm_server import Fail, FakeLLMServer, Reply, Stall

from bmoca import tasks
from bmoca.agents import build
from bmoca.agents.llm import ProviderConfigError
from bmoca.eval import evaluate, metrics
from bmoca.eval.store import Store

pytest.importorskip("openai")
pytest.importorskip("anthropic")
pytest.importorskip("google.genai")

TASK = "settings/turn_on_airplane_mode"
CONFIG = "test_env_100"
KEYS = {"OPENAI_API_KEY": "sk-FAKE-openai-d41d8cd98f00b204",
        "ANTHROPIC_API_KEY": "sk-ant-FAKE-e9800998ecf8427e",
        "GEMINI_API_KEY": "FAKE-gemini-0cc175b9c0f1b6a8"}
API = {"openai": "openai", "anthropic": "anthropic", "gemini": "gemini"}


@pytest.fixture
def server(monkeypatch, tmp_path):
    for var, value in KEYS.items():
        monkeypatch.setenv(var, value)
    monkeypatch.setenv("BMOCA_LLM_CACHE", str(tmp_path / "cache"))
    with FakeLLMServer() as fake:
        yield fake


def screen(prompt: str) -> list[dict]:
    """The elements the prompt shows: B-MoCA's list, or AndroidWorld-style lines."""
    match = re.search(r"^Current observation: (.*)$", prompt, re.MULTILINE)
    if match:
        return ast.literal_eval(match.group(1))
    return [{**ast.literal_eval(body), "numeric_tag": int(tag)}
            for tag, body in re.findall(r"^UI element (\d+): (\{.*\})$", prompt, re.MULTILINE)]


def target(elements: list[dict]) -> int | None:
    """What a sensible model taps next on the way to airplane mode."""
    for test in (lambda e: e.get("resource_id") == "switch_widget",
                 lambda e: e.get("text") == "Network & internet",
                 lambda e: e.get("content_description") == "Settings"):
        found = [e["numeric_tag"] for e in elements if test(e)]
        if found:
            return found[0]
    return None


def solver(request) -> Reply:
    tag = target(screen(request.prompt))
    if re.search(r"^UI element \d+: ", request.prompt, re.MULTILINE):  # T3A/M3A: JSON
        action = {"action_type": "click", "index": tag} if tag is not None else \
            {"action_type": "navigate_home"}
        return Reply(f"Reason: it leads to the switch.\nSummary: tapped element {tag}.\n"
                     f"Action: {json.dumps(action)}")
    action = f"tap({tag})" if tag is not None else 'press("HOME")'
    return Reply(f"- Description: a screen.\n- Thought: go on.\n- Action: {action}")


def run(path, agent: str, options: dict | None = None, *, configs=(CONFIG,), repeats=1):
    path.mkdir(parents=True, exist_ok=True)
    with Store(path) as store:
        evaluate.evaluate(store, path.name, agent, [tasks.get(TASK)], list(configs), repeats,
                          agent_options=options or {})
        rows = store.episodes(path.name)
        return rows, [store.steps_of(r.episode_id) for r in rows]


def local(server, api: str = "openai", **options) -> dict:
    return {"base_url": server.url(api), **options}


def test_llm_agent_solves_an_episode_through_the_openai_sdk(server, tmp_path):
    server.responder = solver
    [row], [steps] = run(tmp_path / "run", "openai:gpt-4o", local(server))
    assert row.status == "done" and row.success and row.steps == 3 and row.invalid_actions == 0
    assert [s.action_label for s in steps][0].startswith("tap(")
    first, second = steps[0].agent_output, steps[1].agent_output
    assert first["prompt"].startswith(
        "[system]\nYou are an agent that is trained to perform daily tasks on digital devices")
    assert "Goal: turn on airplane mode.\n" in first["prompt"]
    assert "Previous actions: []\n" in first["prompt"]
    tag = re.search(r"- Action: tap\((\d+)\)$", first["response"]).group(1)
    assert f"Previous actions: [\"tap({{'numeric_tag': {tag}" in second["prompt"]
    assert first["cached"] is False
    assert (first["model"], first["provider"]) == ("gpt-4o", "openai")
    # usage: the episode sums what the steps record, priced from the table
    assert row.input_tokens == sum(s.agent_output["input_tokens"] for s in steps) > 0
    assert row.output_tokens == sum(s.agent_output["output_tokens"] for s in steps) > 0
    assert row.cost_usd == pytest.approx((row.input_tokens * 2.5 + row.output_tokens * 10) / 1e6)
    body = server.requests[0].body
    assert body["temperature"] == 0 and body["max_completion_tokens"] == 256
    assert body["seed"] == row.seed  # the episode's seed: repeats are separate requests


@pytest.mark.parametrize("agent, api, images", [
    ("mllm/anthropic:claude-3-5-sonnet-20241022", "anthropic", 1),
    ("t3a/gemini:gemini-1.5-pro", "gemini", 0),
    ("m3a/openai:gpt-4o", "openai", 1),
])
def test_each_kind_solves_the_episode_through_its_provider(server, tmp_path, agent, api, images):
    server.responder = solver
    [row], [steps] = run(tmp_path / "run", agent, local(server, api))
    assert row.status == "done" and row.success, (row.error, [s.error for s in steps])
    assert {r.api for r in server.requests} == {api}
    assert [r.images for r in server.requests] == [images] * row.steps
    prompt = steps[-1].agent_output["prompt"]
    if agent.startswith(("t3a", "m3a")):
        assert "Step 1: tapped element" in prompt and "Step 2: tapped element" in prompt
        assert '"action_type": "click"' in prompt
    if images:
        assert "<image 256x512>" in prompt


def test_malformed_answers_are_invalid_actions_and_the_episode_goes_on(server, tmp_path):
    server.script(Reply("I am not sure what to do here."), Reply("- Action: tap(999)"))
    server.responder = solver
    [row], [steps] = run(tmp_path / "run", "openai:gpt-4o", local(server))
    assert row.status == "done" and row.success
    assert row.invalid_actions == 2 and row.steps == 5
    assert [s.valid for s in steps] == [False, False, True, True, True]
    assert "no action found" in steps[0].error and "999" in steps[1].error
    # invalid answers are not previous actions (as in B-MoCA)
    assert "Previous actions: []\n" in steps[2].agent_output["prompt"]


def test_t3a_history_says_when_an_answer_was_invalid(server, tmp_path):
    server.script(Reply("Action: {not json"), Reply('Action: {"action_type": "navigate_back"}'))
    server.responder = solver
    [row], [steps] = run(tmp_path / "run", "t3a/openai:gpt-4o", local(server))
    assert row.success and row.invalid_actions == 1
    prompt = steps[2].agent_output["prompt"]
    assert "Step 1: invalid action (no JSON object found" in prompt
    assert "Step 2: did navigate_back() [navigate_back()] (the screen did not change)" in prompt


@pytest.mark.parametrize("failure, expected", [
    (Fail(500), "attempt 2: HTTP 500 server error"),
    (Fail(429), "attempt 2: HTTP 429 rate limited"),
    (Stall(3.0), "attempt 2: timed out after 0.3 s"),
])
def test_provider_failures_are_error_episodes_not_agent_failures(server, tmp_path, failure,
                                                                 expected):
    server.script(solver_reply := Reply("- Action: tap(2)"), failure, failure)
    del solver_reply
    options = local(server, retries=1, backoff=0, timeout=0.3)
    [row], [steps] = run(tmp_path / "run", "openai:gpt-4o", options)
    assert row.status == "error" and row.success is None
    assert row.error.startswith("ProviderError: openai:gpt-4o at http://127.0.0.1:")
    assert "gave up after 2 attempts" in row.error and expected in row.error
    assert len(steps) == 1 and row.input_tokens == steps[0].agent_output["input_tokens"]
    table = metrics.success_table([row])
    assert table.overall.errors == 1 and table.overall.episodes == 0


def test_cache_makes_a_rerun_free_and_identical(server, tmp_path):
    server.responder = solver
    rows1, steps1 = run(tmp_path / "first", "openai:gpt-4o", local(server), repeats=2)
    asked = len(server.requests)
    assert asked == 6  # two repeats, three steps each: the seed differs per repeat
    rows2, steps2 = run(tmp_path / "second", "openai:gpt-4o", local(server), repeats=2)
    assert len(server.requests) == asked  # no HTTP at all
    assert [(r.success, r.steps, r.input_tokens) for r in rows2] == \
        [(r.success, r.steps, r.input_tokens) for r in rows1]
    assert [[s.action for s in e] for e in steps2] == [[s.action for s in e] for e in steps1]
    assert all(s.agent_output["cached"] for e in steps2 for s in e)
    assert [r.cost_usd for r in rows2] == [0.0, 0.0]
    run(tmp_path / "third", "openai:gpt-4o", local(server, cache="false"))
    assert len(server.requests) == asked + 3


def test_no_api_key_reaches_any_file_or_log(server, tmp_path, caplog, capfd):
    caplog.set_level(logging.DEBUG)
    key = KEYS["OPENAI_API_KEY"]
    server.script(Reply("- Action: tap(2)"), Fail(401, f"Incorrect API key provided: {key}"))
    server.responder = solver
    rows, _ = run(tmp_path / "run", "openai:gpt-4o", local(server), repeats=2)
    assert [r.status for r in rows] == ["error", "done"]
    assert "***" in rows[0].error
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert any(p.name.startswith("llm-") and p.suffix == ".bin" for p in files)  # answers
    assert any(p.name == "results.sqlite" for p in files)
    for value in KEYS.values():
        assert not [p for p in files if value.encode() in p.read_bytes()]
        assert value not in caplog.text
        assert value not in "".join(capfd.readouterr())


def test_exploration_hint_counts_visits_and_actions(server, tmp_path):
    server.responder = lambda request: Reply('- Action: press("BACK")')
    run(tmp_path / "run", "openai:gpt-4o", local(server, explore="true"))
    prompts = [r.prompt for r in server.requests]
    assert "you have not been in the current state before" in prompts[0]
    assert ("already been in the current state 2 times, and taken these actions here: "
            "press(BACK) 2 times") in prompts[2]


def test_options_and_names_are_checked_with_precise_errors(server):
    task = tasks.get(TASK)
    with pytest.raises(ProviderConfigError, match="unknown agent option 'temprature'; valid: "):
        build("openai:gpt-4o", task, {"temprature": "0"})
    with pytest.raises(ProviderConfigError, match="few_shot needs demos="):
        build("openai:gpt-4o", task, {"few_shot": "3"})
    with pytest.raises(ProviderConfigError, match="cot='maybe': expected true or false"):
        build("openai:gpt-4o", task, {"cot": "maybe"})
    with pytest.raises(ValueError, match="unknown agent 'x3a/openai:gpt-4o'.*openai-compatible"):
        build("x3a/openai:gpt-4o", task)
    with pytest.raises(ValueError, match="takes no options"):
        build("expert", task, {"cot": "false"})
    agent = build("openai-compatible:qwen2.5@http://localhost:8000/v1", task,
                  {"bbox": "true", "cot": "false"})
    assert agent.provider.base_url == "http://localhost:8000/v1" and agent.provider.price is None
    assert agent.env_options["text_bbox"] is True


def test_cli_eval_with_a_model_agent_prints_usage(server, tmp_path):
    from typer.testing import CliRunner

    from bmoca.cli.main import app

    server.responder = solver
    args = ["eval", "--agent", "openai:gpt-4o", "-o", f"base_url={server.url('openai')}",
            "--tasks", TASK, "--configs", CONFIG, "--repeats", "1", "--no-save-screens",
            "--run-dir", str(tmp_path / "run")]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert re.search(r"model usage: 1 episode\(s\), [\d,]+ input tokens, [\d,]+ output tokens, "
                     r"cost \$0\.\d{4}", result.output)
    bad = CliRunner().invoke(app, [*args[:5], "-o", "colour=red", *args[5:]])
    flat = " ".join(bad.output.replace("│", " ").split())
    assert bad.exit_code == 2 and "unknown agent option 'colour'; valid: few_shot," in flat


@pytest.mark.slow
def test_few_shot_examples_come_from_training_demonstrations(server, tmp_path):
    from bmoca.demos.generate import generate

    generate(tmp_path / "demos", [tasks.get(TASK)], ["train_env_000"], screen_width=None)
    server.responder = solver
    _, [steps] = run(tmp_path / "run", "openai:gpt-4o",
                     local(server, few_shot="1", demos=str(tmp_path / "demos")))
    prompt = steps[0].agent_output["prompt"]
    assert "Below illustrates the example of human experts." in prompt
    assert prompt.index("Demonstration Example:\n- Observation: [") < \
        prompt.index("Previous actions:")
    _, [steps] = run(tmp_path / "run2", "t3a/openai:gpt-4o",
                     local(server, few_shot="2", few_shot_mode="pairs",
                           demos=str(tmp_path / "demos")))
    prompt = steps[0].agent_output["prompt"]
    assert prompt.count("Transition Example:\n- Observation: UI element") == 2
    assert '- Action: {"action_type": ' in prompt


def test_the_cache_lives_in_the_platform_cache_directory(monkeypatch, tmp_path):
    from bmoca.agents.llm.cache import default_dir

    monkeypatch.delenv("BMOCA_LLM_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    if sys.platform.startswith("linux"):
        assert default_dir() == tmp_path / "xdg" / "bmoca" / "llm"
    monkeypatch.setenv("BMOCA_LLM_CACHE", "off")
    assert default_dir() is None
    monkeypatch.setenv("BMOCA_LLM_CACHE", str(tmp_path / "mine"))
    assert default_dir() == tmp_path / "mine"

"""A model server that misbehaves (the local stand-in, through the official SDKs): timeouts,
401/429/500/503, truncated, cut and non-JSON bodies are infrastructure errors of the episode,
stored and excluded from success rates; answers with extreme numbers are the agent's
invalid actions and the episode goes on."""

from __future__ import annotations

import pytest
from llm_server import Fail, FakeLLMServer, Raw, Reply, Stall

from bmoca import tasks
from bmoca.eval import evaluate, metrics
from bmoca.eval.store import Store

pytestmark = pytest.mark.reliability

TASK = "settings/turn_on_airplane_mode"
KEYS = {"OPENAI_API_KEY": "sk-FAKE-openai-d41d8cd98f00b204",
        "ANTHROPIC_API_KEY": "sk-ant-FAKE-e9800998ecf8427e",
        "GEMINI_API_KEY": "FAKE-gemini-0cc175b9c0f1b6a8"}
AGENTS = {"openai": "openai:gpt-4o", "anthropic": "anthropic:claude-3-5-sonnet-latest",
          "gemini": "gemini:gemini-2.0-flash"}


@pytest.fixture
def server(monkeypatch, tmp_path):
    for var, value in KEYS.items():
        monkeypatch.setenv(var, value)
    monkeypatch.setenv("BMOCA_LLM_CACHE", str(tmp_path / "cache"))
    with FakeLLMServer() as fake:
        yield fake


def run(path, agent: str, options: dict):
    path.mkdir(parents=True, exist_ok=True)
    with Store(path) as store:
        evaluate.evaluate(store, path.name, agent, [tasks.get(TASK)], ["test_env_100"], 1,
                          agent_options=options)
        [row] = store.episodes(path.name)
        return row, store.steps_of(row.episode_id)


TRUNCATED = b'{"id": "chatcmpl-1", "object": "chat.completion", "choices": [{"index": 0, "mess'
FAULTS = {
    "timeout": Stall(3.0),
    "401": Fail(401, "invalid api key"),
    "429": Fail(429),
    "500": Fail(500),
    "503": Fail(503, "overloaded"),
    "non-JSON": Raw(b"<html><body>502 Bad Gateway</body></html>", content_type="text/html"),
    "truncated JSON": Raw(TRUNCATED),
    "cut connection": Raw(TRUNCATED, cut=400),
    "empty": Raw(b""),
}


@pytest.mark.parametrize("api", list(AGENTS))
@pytest.mark.parametrize("fault", list(FAULTS))
def test_a_failing_server_is_an_error_episode_not_an_agent_failure(server, tmp_path, api,
                                                                   fault):
    server.script(Reply("- Action: tap(2)"))
    server.responder = lambda request: FAULTS[fault]
    options = {"base_url": server.url(api), "retries": 1, "backoff": 0, "timeout": 0.5}
    row, steps = run(tmp_path / "run", AGENTS[api], options)
    assert row.status == "error" and row.success is None, (row.status, row.error)
    assert row.error and "\n" not in row.error.strip() and len(steps) == 1
    for key in KEYS.values():
        assert key not in row.error
    table = metrics.success_table([row])
    assert table.overall.errors == 1 and table.overall.episodes == 0


EXTREME = ["- Action: tap(" + "9" * 5000 + ")",
           "- Action: dual-gesture(1e400, 0, 0, 0)",
           "- Action: dual-gesture(" + "9" * 5000 + ", 0.5, 0.5, 0.5)",
           "- Action: " + "tap(" * 3000,
           "- Action: swipe(" + "up" * 4000 + ")",
           "- Action: press(\"" + "\\u0000" * 100 + "\")"]


def test_extreme_numbers_in_answers_are_invalid_actions(server, tmp_path):
    server.script(*(Reply(text) for text in EXTREME))
    server.responder = lambda request: Reply('- Action: press("HOME")')
    row, steps = run(tmp_path / "run", "openai:gpt-4o",
                     {"base_url": server.url("openai"), "retries": 0})
    assert row.status == "done" and row.error is None
    assert row.invalid_actions >= len(EXTREME)
    assert [s.valid for s in steps[:len(EXTREME)]] == [False] * len(EXTREME)
    assert all(s.error.startswith("InvalidAction") for s in steps[:len(EXTREME)])
    assert row.steps == tasks.get(TASK).step_limit

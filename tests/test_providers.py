"""Providers through the official SDKs against a local HTTP server (tests/llm_server.py)."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from llm_server import Fail, FakeLLMServer, Reply, Stall

from bmoca.agents.llm import providers as prov
from bmoca.agents.llm.cache import ResponseCache

pytest.importorskip("openai")
pytest.importorskip("anthropic")
pytest.importorskip("google.genai")

KEYS = {"OPENAI_API_KEY": "sk-test-openai-K3Y-0001", "ANTHROPIC_API_KEY": "sk-ant-test-K3Y-0002",
        "GEMINI_API_KEY": "gm-test-K3Y-0003"}
MODELS = {"openai": "gpt-4o", "anthropic": "claude-3-5-sonnet-20241022",
          "gemini": "gemini-1.5-pro"}


@pytest.fixture
def server(monkeypatch):
    for var, value in KEYS.items():
        monkeypatch.setenv(var, value)
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    monkeypatch.delenv("BMOCA_OPENAI_COMPAT_API_KEY", raising=False)
    with FakeLLMServer() as fake:
        yield fake


def make(server, name, *, sleeps=None, cache=None, **settings):
    settings.setdefault("backoff_s", 0.0)
    return prov.make(name, MODELS.get(name, "local-model"), base_url=server.url(name),
                     settings=prov.Settings(**settings), cache=cache,
                     sleep=(sleeps.append if sleeps is not None else lambda s: None))


def screenshot():
    image = np.zeros((512, 256, 3), np.uint8)
    image[100:200, 50:150] = (255, 0, 0)
    return prov.ImagePart.from_array(image)


@pytest.mark.parametrize("name", ["openai", "anthropic", "gemini"])
def test_text_and_image_reach_the_api_in_its_wire_format(server, name):
    server.script(Reply("- Action: tap(3)"))
    provider = make(server, name, seed=7)
    completion = provider.complete([prov.system("You are an agent."),
                                    prov.user("Goal: turn on wifi.", screenshot())])
    assert completion.text == "- Action: tap(3)"
    assert completion.provider == name and not completion.cached and completion.attempts == 1
    [request] = server.requests
    assert request.api == name and request.model == MODELS[name]
    assert request.texts == ["You are an agent.", "Goal: turn on wifi."]
    assert request.images == 1
    # the server's usage: prompt chars / 4 in, answer chars / 4 out
    assert (completion.input_tokens, completion.output_tokens) == (9, 4)
    price_in, price_out = prov.price_of(MODELS[name])
    assert completion.cost_usd == pytest.approx((9 * price_in + 4 * price_out) / 1e6)
    body = request.body
    if name == "openai":
        assert body["temperature"] == 0 and body["top_p"] == 1 and body["seed"] == 7
        assert body["max_completion_tokens"] == 256
        assert request.headers["authorization"] == f"Bearer {KEYS['OPENAI_API_KEY']}"
    elif name == "anthropic":
        assert body["max_tokens"] == 256 and body["temperature"] == 0 and "top_p" not in body
        assert body["system"] == "You are an agent."
    else:
        assert body["generationConfig"] == {"temperature": 0.0, "topP": 1.0,
                                            "maxOutputTokens": 256, "seed": 7}
        assert request.headers["x-goog-api-key"] == KEYS["GEMINI_API_KEY"]
        assert {s["threshold"] for s in body["safetySettings"]} == {"BLOCK_NONE"}


def test_openai_compatible_server_gets_its_own_key_never_the_openai_key(server, monkeypatch):
    server.script(Reply("ok"), Reply("ok"))
    provider = prov.make("openai-compatible", "llama3", base_url=server.url("openai"))
    completion = provider.complete([prov.user("hi")])
    assert completion.cost_usd is None  # a local model has no list price
    assert server.requests[0].body["max_tokens"] == 256
    assert KEYS["OPENAI_API_KEY"] not in str(server.requests[0].headers)
    monkeypatch.setenv("BMOCA_OPENAI_COMPAT_API_KEY", "compat-key-1")
    prov.make("openai-compatible", "llama3", base_url=server.url("openai")).complete(
        [prov.user("hi")])
    assert server.requests[1].headers["authorization"] == "Bearer compat-key-1"
    with pytest.raises(prov.ProviderConfigError, match="base URL"):
        prov.make("openai-compatible", "llama3")


@pytest.mark.parametrize("name", ["openai", "anthropic", "gemini"])
def test_429_and_500_are_retried_with_deterministic_backoff(server, name):
    server.script(Fail(429), Fail(500), Reply("fine"))
    sleeps: list[float] = []
    completion = make(server, name, sleeps=sleeps, backoff_s=0.5, retries=3).complete(
        [prov.user("x")])
    assert completion.text == "fine" and completion.attempts == 3
    assert len(server.requests) == 3
    assert sleeps == [0.5, 1.0]


def test_retry_after_is_honoured_up_to_the_cap(server):
    server.script(Fail(429, retry_after=7), Fail(503, retry_after=500), Reply("ok"))
    sleeps: list[float] = []
    make(server, "openai", sleeps=sleeps, backoff_max_s=30).complete([prov.user("x")])
    assert sleeps == [7.0, 30.0]


@pytest.mark.parametrize("name", ["openai", "anthropic", "gemini"])
def test_failures_after_the_retries_raise_a_precise_provider_error(server, name):
    server.script(Fail(500), Stall(2.0))
    with pytest.raises(prov.ProviderError) as caught:
        make(server, name, retries=1, timeout_s=0.3).complete([prov.user("x")])
    message = str(caught.value)
    assert message.startswith(f"{name}:{MODELS[name]} at {server.url(name)}: gave up after 2")
    assert "attempt 1: HTTP 500 server error" in message
    assert "attempt 2: timed out after 0.3 s" in message
    assert len(server.requests) == 2


def test_client_errors_are_not_retried(server):
    server.script(Fail(400, "max_tokens is too large"))
    with pytest.raises(prov.ProviderError, match=r"not retryable.*HTTP 400 refused.*too large"):
        make(server, "openai", retries=5).complete([prov.user("x")])
    assert len(server.requests) == 1


def test_a_key_echoed_by_the_server_is_scrubbed_from_errors(server):
    key = KEYS["ANTHROPIC_API_KEY"]
    server.script(Fail(401, f"invalid x-api-key {key}"))
    with pytest.raises(prov.ProviderError) as caught:
        make(server, "anthropic").complete([prov.user("x")])
    assert key not in str(caught.value) and "***" in str(caught.value)


def test_missing_key_and_missing_sdk_are_reported_by_name(server, monkeypatch):
    monkeypatch.delenv("GEMINI_API_KEY")
    with pytest.raises(prov.ProviderConfigError, match="GEMINI_API_KEY or GOOGLE_API_KEY"):
        prov.make("gemini", "gemini-1.5-pro")
    monkeypatch.setitem(sys.modules, "anthropic", None)  # as if not installed
    with pytest.raises(prov.ProviderConfigError, match=r"pip install 'bmoca\[anthropic\]'"):
        prov.make("anthropic", "claude-3-5-haiku")
    with pytest.raises(prov.ProviderConfigError, match="unknown provider 'mistral'"):
        prov.make("mistral", "large")


def test_cache_answers_the_same_request_without_http(server, tmp_path):
    cache = ResponseCache(tmp_path)
    server.responder = lambda request: Reply(f"answer {len(server.requests)}")
    provider = make(server, "openai", cache=cache)
    messages = [prov.system("role"), prov.user("goal", screenshot())]
    first = provider.complete(messages)
    again = provider.complete(messages)
    assert len(server.requests) == 1
    assert again.text == first.text == "answer 1"
    assert again.cached and again.cost_usd == 0.0 and again.input_tokens == first.input_tokens
    # anything that changes the answer misses: the image, a setting, the model
    other = np.full((512, 256, 3), 9, np.uint8)
    provider.complete([prov.system("role"), prov.user("goal", prov.ImagePart.from_array(other))])
    assert len(server.requests) == 2
    make(server, "openai", cache=cache, temperature=0.5).complete(messages)
    assert len(server.requests) == 3
    # a new process (a new cache object on the same directory) still hits
    assert make(server, "openai", cache=ResponseCache(tmp_path)).complete(messages).cached
    assert len(server.requests) == 3
    entries = sorted(tmp_path.glob("llm-*.bin"))
    assert len(entries) == len(ResponseCache(tmp_path)) == 3
    assert not any(value.encode() in entry.read_bytes()
                   for value in KEYS.values() for entry in entries)


def test_a_cached_answer_rewritten_without_the_users_key_is_not_used(server, tmp_path):
    """Answers are sealed (`bmoca.formats.cachedir`): one edited by someone who cannot
    read the user's key, in a shared folder, is asked for again, never obeyed."""
    server.responder = lambda request: Reply("the model's answer")
    messages = [prov.system("role"), prov.user("goal", screenshot())]
    make(server, "openai", cache=ResponseCache(tmp_path)).complete(messages)
    [entry] = tmp_path.glob("llm-*.bin")
    forged = entry.read_bytes()[:-32].replace(b"the model's answer", b"tap the Buy button")
    entry.write_bytes(forged + bytes(32))
    again = make(server, "openai", cache=ResponseCache(tmp_path)).complete(messages)
    assert not again.cached and again.text == "the model's answer"
    assert len(server.requests) == 2


def test_settings_and_prices():
    with pytest.raises(prov.ProviderConfigError, match="top_p"):
        prov.Settings(top_p=0)
    with pytest.raises(prov.ProviderConfigError, match="max_tokens"):
        prov.Settings(max_tokens=0)
    assert prov.Settings(backoff_s=2, backoff_max_s=5).delay(3) == 5
    assert prov.price_of("gpt-4o-2024-08-06") == prov.PRICES["gpt-4o"]
    assert prov.price_of("gpt-4o-mini-2024-07-18") == prov.PRICES["gpt-4o-mini"]
    assert prov.price_of("gpt-4o-2024-05-13") == (5.0, 15.0)
    assert prov.price_of("my-local-model") is None
    assert prov.cost_of((2.5, 10.0), 1000, None) is None
    assert prov.render([prov.system("a"), prov.user("b", screenshot())]) == \
        "[system]\na\n\n[user]\nb<image 256x512>"


def test_importing_bmoca_imports_no_sdk():
    import subprocess

    code = ("import sys, bmoca, bmoca.agents, bmoca.agents.llm, bmoca.eval.runner; "
            "print([m for m in sys.modules if m.split('.')[0] in "
            "('openai', 'anthropic', 'google', 'matplotlib')])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"

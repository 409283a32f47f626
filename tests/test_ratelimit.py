"""Requests per minute to a provider: slots, the provider's hook, the agent option."""

from __future__ import annotations

import pytest
from llm_server import FakeLLMServer, Reply

from bmoca.agents.llm import providers as prov
from bmoca.agents.llm.agent import AgentOptions
from bmoca.agents.llm.cache import ResponseCache
from bmoca.agents.llm.providers import ProviderConfigError
from bmoca.agents.llm.ratelimit import Pacer, limiter


def test_slots_are_an_interval_apart_whatever_the_callers_do():
    now = [100.0]
    pacer = Pacer(rpm=120, clock=lambda: now[0])  # a slot every 0.5 s
    assert pacer.reserve() == (100.0, 0.0)
    assert pacer.reserve() == (100.5, 0.5)  # asked at once: waits for its slot
    assert pacer.reserve() == (101.0, 1.0)
    now[0] = 105.0  # idle for a while: no debt, no burst credit either
    assert pacer.reserve() == (105.0, 0.0)
    assert pacer.reserve() == (105.5, 0.5)
    with pytest.raises(ValueError, match="rpm must be > 0"):
        Pacer(0)


def test_a_process_limiter_sleeps_until_its_slot():
    waits: list[float] = []
    wait = limiter("test:pacing", 60.0, sleep=waits.append)  # one a second
    assert [wait() for _ in range(3)][0] == 0.0
    assert waits[1:] == pytest.approx([1.0, 2.0], abs=0.05)


def test_the_provider_paces_sent_requests_not_cached_answers(monkeypatch, tmp_path):
    pytest.importorskip("openai")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-0001")
    paced: list[int] = []
    with FakeLLMServer() as server:
        server.responder = lambda request: Reply("Action: tap(1)")
        provider = prov.make("openai", "gpt-4o", base_url=server.url("openai"),
                             cache=ResponseCache(tmp_path), sleep=lambda s: None)
        provider.pace = lambda: paced.append(len(server.requests))
        provider.complete([prov.user("goal one")])
        provider.complete([prov.user("goal two")])
        provider.complete([prov.user("goal one")])  # from the cache: no slot
        assert paced == [0, 1] and len(server.requests) == 2


def test_rpm_is_a_transport_option():
    assert AgentOptions.parse({"rpm": "90"}).rpm == 90.0
    assert AgentOptions.parse({"rpm": "0"}).rpm is None
    with pytest.raises(ProviderConfigError, match="rpm"):
        AgentOptions.parse({"rpm": "fast"})

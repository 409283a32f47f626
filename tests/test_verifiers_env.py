"""bmoca as a `verifiers` environment (`bmoca-verifiers`): rollouts through verifiers' own
episode API (`Env.serving` + `Env.run_episode`, the path `vf-eval` and prime-rl take) against
a scripted model behind a local OpenAI-compatible server (tests/llm_server.py).

An expert's replies earn the task's success reward; replies that hold no action earn 0,
each reported back to the model as an invalid action; the phone ends the episode at the
task's step limit, verifiers at the agent's `max_turns`.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

vf = pytest.importorskip("verifiers.v1")

from llm_server import FakeLLMServer, Reply  # noqa: E402

import bmoca  # noqa: E402
from bmoca import tasks  # noqa: E402
from bmoca.agents.simple import ExpertAgent  # noqa: E402
from bmoca.hubs import verifiers_env  # noqa: E402

TASK, CONFIG = "settings/turn_on_airplane_mode", "train_env_000"


@pytest.fixture(scope="module")
def expert_actions() -> list[dict[str, Any]]:
    """The scripted expert's JSON actions on the episode (seed 0), played in a plain env."""
    env = bmoca.make(TASK, config=CONFIG, observation="xml", action="json")
    try:
        observation, info = env.reset(seed=0)
        expert = ExpertAgent(tasks.get(TASK))
        expert.reset(info["goal"], 0)
        actions, ended = [], False
        while not ended:
            action = expert.act(observation)
            actions.append(action)
            observation, _, terminated, truncated, info = env.step(action)
            ended = terminated or truncated
        assert info["success"]
        return actions
    finally:
        env.close()


def _rollouts(server: FakeLLMServer, rows: int = 1, repeats: int = 1, task: str = TASK,
              **kwargs: Any) -> list[vf.Episode]:
    env = verifiers_env.load_environment(tasks=task, configs=CONFIG, **kwargs)
    tasks_ = list(env.taskset)[:rows]
    ctx = vf.ModelContext(model="scripted", client=vf.EvalClientConfig(
        base_url=server.url("openai"), api_key_var="BMOCA_TEST_API_KEY"))

    async def run() -> list[vf.Episode]:
        async with env.serving():
            return [await env.run_episode(task, ctx) for task in tasks_ for _ in range(repeats)]

    return asyncio.run(run())


def _answer(action: dict[str, Any]) -> Reply:
    return Reply("Reason: the goal needs it.\nSummary: one step closer.\nAction: "
                 + json.dumps(action))


def test_the_rows_are_episodes_of_each_task_configuration_and_seed():
    env = verifiers_env.load_environment(tasks="settings/turn_on_*", configs="train_env_000..001",
        seeds=2, seed=5, step_limit=4)
    assert isinstance(env, verifiers_env.BmocaEnv)  # vf.load_environment found bmoca's env
    rows = [task.data for task in env.taskset]
    assert len(rows) == len(tasks.select("settings/turn_on_*")) * 2 * 2
    assert {(r.config_id, r.seed) for r in rows} == {
        (c, s) for c in ("train_env_000", "train_env_001") for s in (5, 6)}
    assert all(r.step_limit == 4 and r.prompt is None and r.task_id.startswith(
        "settings/turn_on_") for r in rows)
    assert [r.id for r in rows] == [t.data.id for t in env.taskset]  # the same each time
    assert env.config.agent_harnesses()["agent"].id == verifiers_env.TASKSET_ID


def test_the_experts_replies_earn_the_success_reward_the_same_way_each_time(expert_actions):
    actions = expert_actions
    with FakeLLMServer() as server:
        server.script(*[_answer(a) for a in actions] * 2)
        episodes = _rollouts(server, repeats=2)
        requests = server.requests
    assert len(requests) == 2 * len(actions)
    for episode in episodes:
        assert episode.ok and not episode.errors
        (trace,) = episode.traces
        assert trace.reward == 1.0
        assert trace.rewards["success"].score == 1.0
        assert trace.rewards["subgoal_progress"].score == 1.0
        assert trace.num_turns == len(actions)
        assert trace.metrics == {"steps": len(actions), "invalid_actions": 0.0}
        outcome = trace.info["bmoca"]
        assert outcome["success"] and outcome["ended"] == "terminated"
    # The conversation: the T3A prompt with the first screen, then each step's result and
    # the new screen after the model's own reply.
    first, second = requests[0].body["messages"], requests[1].body["messages"]
    assert first[0]["role"] == "system" and first[1]["role"] == "user"
    assert "Goal: turn on airplane mode." in first[1]["content"]
    assert "UI element 0:" in first[1]["content"]
    assert second[:2] == first[:2]
    assert second[2]["role"] == "assistant" and json.dumps(actions[0]) in second[2]["content"]
    assert second[3]["content"].startswith("Step 1: did click(")
    assert "The current screen has these UI elements:" in second[3]["content"]
    # Deterministic: the second episode of the same row saw the very same screens.
    half = len(actions)
    assert [r.body["messages"] for r in requests[:half]] == \
        [r.body["messages"] for r in requests[half:]]


def test_with_xml_screens_the_model_reads_the_hierarchy_and_taps_by_pixel(expert_actions):
    actions = expert_actions
    assert all("x" in a for a in actions if a["action_type"] == "click")
    with FakeLLMServer() as server:
        server.script(*[_answer(a) for a in actions])
        (episode,) = _rollouts(server, observation="xml")
        first = server.requests[0].body["messages"][1]["content"]
        later = server.requests[1].body["messages"][-1]["content"]
    assert episode.traces[0].reward == 1.0
    assert "<hierarchy" in first and "UI element 0:" not in first
    assert '"x": <x>, "y": <y>' in first  # how to act without element indexes
    assert "<hierarchy" in later


def test_subgoal_progress_counts_the_sub_goals_met_and_can_be_weighted_in():
    task = "contacts/add_a_contact_then_star_text_and_call_them@0"  # 4 sub-goals
    env = bmoca.make(task, config=CONFIG, observation="xml", action="json")
    try:
        observation, info = env.reset(seed=0)
        expert = ExpertAgent(env.task)
        expert.reset(info["goal"], 0)
        actions: list[dict[str, Any]] = []
        while info.get("subgoals", [0])[0] < 1:  # the expert's path to the first sub-goal
            actions.append(expert.act(observation))
            observation, _, _, _, info = env.step(actions[-1])
    finally:
        env.close()
    assert info["subgoals"] == [1, 4] and not info["success"]
    with FakeLLMServer() as server:
        server.script(*[_answer(a) for a in actions])
        (episode,) = _rollouts(server, task=task, step_limit=len(actions),
                               reward_weights={"subgoal_progress": 0.5})
    (trace,) = episode.traces
    assert trace.rewards["success"].score == 0.0
    assert trace.rewards["subgoal_progress"].score == 0.25
    assert trace.reward == 0.125 and trace.info["bmoca"]["subgoals"] == [1, 4]


def test_replies_without_an_action_are_invalid_actions_and_earn_nothing():
    with FakeLLMServer() as server:
        server.responder = lambda request: Reply("I would tap the settings icon.")
        (episode,) = _rollouts(server, step_limit=3)
        requests = server.requests
    assert episode.ok  # a bad reply is the model's mistake, not an error of the run
    (trace,) = episode.traces
    assert trace.reward == 0.0 and trace.rewards["success"].score == 0.0
    assert trace.metrics == {"steps": 3.0, "invalid_actions": 3.0}
    assert trace.info["bmoca"]["ended"] == "truncated"  # the phone's step limit
    assert len(requests) == 3
    feedback = requests[-1].body["messages"][-1]["content"]
    assert feedback.startswith("Step 2: invalid action (InvalidAction: no JSON object found")
    assert "nothing happened" in feedback


def test_the_agents_turn_limit_ends_the_episode_cleanly():
    with FakeLLMServer() as server:
        server.responder = lambda request: Reply('Action: {"action_type": "wait"}')
        (episode,) = _rollouts(server, agent={"max_turns": 2})
        requests = server.requests
    (trace,) = episode.traces
    assert episode.ok and trace.stop_condition == "max_turns"
    assert trace.reward == 0.0
    assert trace.info["bmoca"]["ended"] == "agent_stopped"
    assert trace.metrics == {"steps": 2.0, "invalid_actions": 0.0}
    assert len(requests) == 2

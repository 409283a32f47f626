"""`bmoca bundle` and `bmoca verify`: a real run bundled verifies; a changed action, a
changed claim or a changed table is caught and the episode named; a damaged file is bad
input (exit 2)."""

from __future__ import annotations

import copy
import gzip
import json
from pathlib import Path

import pytest
from test_eval import bmoca_cli

from bmoca import tasks
from bmoca.eval import bundle, evaluate, verify
from bmoca.eval.store import Store

TASKS = ["settings/turn_on_wifi", "calculator/input_binary_operation@3"]  # one family instance
CONFIGS = ["test_env_100", "train_env_000"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    """Run directories of a random and an expert run: 2 tasks x 2 configurations."""
    out = {}
    for agent in ("random", "expert"):
        run_dir = tmp_path_factory.mktemp(agent)
        with Store(run_dir) as store:
            evaluate.evaluate(store, run_dir.name, agent, [tasks.get(t) for t in TASKS],
                              CONFIGS, 1, spec={"split": "test"})
        out[agent] = run_dir
    return out


def _written(content: dict, path: Path) -> Path:
    bundle.write(content, path)
    return path


def _episode(content: dict, task: str, config: str) -> dict:
    return next(e for e in content["runs"][0]["episodes"]
                if e["task"] == task and e["config"] == config)


def test_a_bundled_run_verifies_with_the_cli(runs, tmp_path):
    made = bmoca_cli("bundle", str(runs["expert"]), "--out", str(tmp_path / "b.json.gz"),
                     cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    checked = bmoca_cli("verify", str(tmp_path / "b.json.gz"), "--json", cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    report = json.loads(checked.stdout)
    assert report["ok"] and report["replayed"] == 4 and report["differences"] == []
    assert report["tables"][0]["recomputed"]["overall"]["successes"] == 4
    assert report["code"]["matches"] and report["tasks"]["matches"]


def test_the_bundle_holds_what_judged_the_run(runs):
    content = bundle.make(runs["random"])
    run = content["runs"][0]
    assert run["env"] == {"action": "discrete", "stop_on_success": True}
    assert sorted({e["task"] for e in run["episodes"]}) == sorted(TASKS)
    episode = _episode(content, TASKS[1], "train_env_000")
    assert episode["seed"] is not None and len(episode["actions"]) == episode["steps"] > 0
    assert episode["step_limit"] == tasks.get(TASKS[1]).step_limit
    assert run["table"]["overall"]["episodes"] == 4
    assert content["tasks"]["files"] and "bmoca/eval/verify.py" in content["code"]["files"]
    assert content["digest"] == bundle.digest_of(content)


def test_a_random_run_replays_without_observations(runs, tmp_path):
    """The random agent observed XML; the replay observes nothing and judges alike."""
    loaded = bundle.load(_written(bundle.make(runs["random"]), tmp_path / "r.json.gz"))
    report = verify.verify(loaded)
    assert report.ok, report.differences
    assert report.replayed == 4 and report.tables[0]["matches"]


def test_workers_give_the_same_verdict(runs, tmp_path):
    content = bundle.make(runs["expert"])
    _episode(content, TASKS[0], "test_env_100")["success"] = False
    loaded = bundle.load(_written(bundle.seal(content), tmp_path / "w.json.gz"))
    one, two = verify.verify(loaded, 1), verify.verify(loaded, 2)
    assert one.differences == two.differences and len(one.differences) == 1
    assert [t["recomputed"] for t in one.tables] == [t["recomputed"] for t in two.tables]


def test_a_changed_action_is_caught_and_the_episode_named(runs, tmp_path):
    content = bundle.make(runs["expert"])
    episode = _episode(content, TASKS[1], "test_env_100")
    episode["actions"][0] = json.dumps({"action_type": "navigate_home"})
    path = _written(bundle.seal(content), tmp_path / "a.json.gz")
    checked = bmoca_cli("verify", str(path), cwd=tmp_path)
    assert checked.returncode == 1, checked.stdout + checked.stderr
    lines = [line for line in checked.stdout.splitlines() if line.startswith("differs")]
    assert len(lines) == 1
    assert f"{TASKS[1]}  test_env_100  repeat 0" in lines[0]
    assert "success: claimed yes, replay no" in lines[0]
    assert "FAILED" in checked.stdout


def test_a_changed_success_claim_is_caught(runs, tmp_path):
    content = bundle.make(runs["random"])
    episode = _episode(content, TASKS[0], "train_env_000")
    assert episode["success"] is False
    episode["success"] = True
    report = verify.verify(bundle.load(_written(bundle.seal(content), tmp_path / "s.json.gz")))
    assert not report.ok
    [diff] = report.differences
    assert (diff.task_id, diff.config_id, diff.claimed[0], diff.replayed[0]) == (
        TASKS[0], "train_env_000", True, False)


def test_a_changed_table_is_caught(runs, tmp_path):
    content = bundle.make(runs["random"])
    content["runs"][0]["table"]["overall"]["successes"] = 3
    report = verify.verify(bundle.load(_written(bundle.seal(content), tmp_path / "t.json.gz")))
    assert not report.ok and not report.differences
    assert report.tables[0]["differs"] == [
        "overall: claimed 3/4 successes, mean steps 9.0, recomputed 0/4 successes, mean steps 9.0"]


def test_an_edit_without_a_new_digest_is_a_damaged_bundle(runs, tmp_path):
    content = bundle.make(runs["random"])
    _episode(content, TASKS[0], "train_env_000")["success"] = True
    path = _written(content, tmp_path / "d.json.gz")
    checked = bmoca_cli("verify", str(path), cwd=tmp_path)
    assert checked.returncode == 2
    assert checked.stderr.count("\n") == 1 and "digest" in checked.stderr


@pytest.mark.parametrize("damage", ["cut", "not_json", "not_bundle", "unknown_task"])
def test_bad_input_is_one_line_and_exit_2(runs, tmp_path, damage):
    good = tmp_path / "good.json.gz"
    content = bundle.make(runs["random"])
    bundle.write(content, good)
    path = tmp_path / "bad.json.gz"
    if damage == "cut":
        path.write_bytes(good.read_bytes()[:-40])
    elif damage == "not_json":
        path.write_bytes(gzip.compress(b"hello"))
    elif damage == "not_bundle":
        path.write_text(json.dumps({"runs": []}))
    else:
        changed = copy.deepcopy(content)
        changed["runs"][0]["episodes"][0]["task"] = "settings/no_such_task"
        bundle.write(bundle.seal(changed), path)
    with pytest.raises(bundle.BundleError):
        verify.jobs_of(bundle.load(path))
    checked = bmoca_cli("verify", str(path), cwd=tmp_path)
    assert checked.returncode == 2, checked.stdout + checked.stderr
    assert checked.stderr.startswith("error: ") and checked.stderr.count("\n") == 1
    assert checked.stdout == ""


def test_other_code_is_said_and_still_replayed(runs, tmp_path):
    content = bundle.make(runs["expert"])
    content["code"]["files"]["bmoca/sim/device.py"] = "0" * 64
    content["code"]["sha256"] = "1" * 64
    report = verify.verify(bundle.load(_written(bundle.seal(content), tmp_path / "c.json.gz")))
    assert not report.ok and report.replayed == 4 and not report.differences
    assert report.suite["code"]["changed"] == [
        "the bundle's code sha256 does not match its own file list",
        "bmoca/sim/device.py (changed)",
        f"run {content['runs'][0]['run_id']} was played by code "
        f"{bundle.suite_of_installed()['code'][:12]}, not the bundle's 111111111111"]
    assert report.suite["tasks"]["matches"]


def test_a_run_played_by_other_tasks_than_the_bundle_names_is_said(runs, tmp_path):
    """The run records the suite that started it; a bundle made after the task files
    changed names other hashes, and verify says so (exit 1) while still replaying."""
    content = bundle.make(runs["expert"])
    assert content["runs"][0]["spec"]["suite"] == bundle.suite_of_installed()
    content["runs"][0]["spec"]["suite"]["tasks"] = "2" * 64
    report = verify.verify(bundle.load(_written(bundle.seal(content), tmp_path / "t.json.gz")))
    assert not report.ok and report.replayed == 4 and not report.differences
    assert report.suite["code"]["matches"] and not report.suite["tasks"]["matches"]
    assert report.suite["tasks"]["changed"] == [
        f"run {content['runs'][0]['run_id']} was played by tasks 222222222222, not the "
        f"bundle's {bundle.suite_of_installed()['tasks'][:12]}"]


def test_a_store_that_is_not_one_is_refused(tmp_path):
    (tmp_path / "results.sqlite").write_text("")
    with pytest.raises(bundle.BundleError, match="not a SQLite file"):
        bundle.make(tmp_path)
    with pytest.raises(bundle.BundleError, match="no results.sqlite"):
        bundle.make(tmp_path / "absent")


@pytest.mark.parametrize(("stored", "mode", "given"), [
    ('{"action_type": "click", "index": 3}', "json", {"action_type": "click", "index": 3}),
    ("click(3)", "text", "click(3)"),
    ('{"action_type": "wait"}', "text", '{"action_type": "wait"}'),
    ("42", "discrete", 42),
    ("[0.1, 0.2, 0.3, 0.4]", "dual_gesture", [0.1, 0.2, 0.3, 0.4]),
    ("not json", "discrete", "not json"),
    (None, "json", None),
])
def test_stored_actions_are_given_back_as_the_agent_gave_them(stored, mode, given):
    assert verify.decode(stored, mode) == given


@pytest.mark.parametrize("agent", ["openai:gpt-4o", "t3a/openai:gpt-4o"])
def test_a_model_run_verifies_without_a_key_or_a_network(agent, tmp_path, monkeypatch):
    """Text actions (the model's answer verbatim) and JSON actions replay alike."""
    pytest.importorskip("openai")
    from llm_server import FakeLLMServer
    from test_llm_agents import KEYS, TASK, solver

    for var, value in KEYS.items():
        monkeypatch.setenv(var, value)
    monkeypatch.setenv("BMOCA_LLM_CACHE", str(tmp_path / "cache"))
    run_dir = tmp_path / "run"
    with FakeLLMServer() as server, Store(run_dir) as store:
        server.responder = solver
        evaluate.evaluate(store, "run", agent, [tasks.get(TASK)], ["test_env_100"], 1,
                          agent_options={"base_url": server.url("openai")})
    content = bundle.make(run_dir)  # the server is gone; no agent is built
    assert content["runs"][0]["env"]["action"] == ("json" if agent.startswith("t3a") else "text")
    for var in KEYS:
        monkeypatch.delenv(var)
    report = verify.verify(bundle.load(_written(content, tmp_path / "m.json.gz")))
    assert report.ok and report.replayed == 1
    assert report.tables[0]["recomputed"]["overall"]["successes"] == 1


def test_a_judge_claims_run_replays_with_its_own_judging_rule(tmp_path):
    """Under --judge-claims the expert's last action is its status claim, one step after
    the state succeeded; judged the default way, the replay would end a step earlier."""
    run_dir = tmp_path / "claims"
    with Store(run_dir) as store:
        evaluate.evaluate(store, "claims", "expert", [tasks.get(TASKS[0])], ["test_env_100"], 1,
                          spec={"judge_claims": True}, env_options={"stop_on_success": False})
    content = bundle.make(run_dir)
    assert content["runs"][0]["env"]["stop_on_success"] is False
    assert verify.verify(bundle.load(_written(content, tmp_path / "j.json.gz"))).ok
    content["runs"][0]["env"]["stop_on_success"] = True
    report = verify.verify(bundle.load(_written(bundle.seal(content), tmp_path / "k.json.gz")))
    [diff] = report.differences
    assert "1 more recorded action(s) follow" in diff.what[0]


def test_an_environment_without_observations_still_judges():
    from bmoca.env import make

    for action, claim in (("json", {"action_type": "status", "goal_status": "complete"}),
                          ("discrete", 383)):  # a claim of done; HOME
        env = make(TASKS[0], config="test_env_100", observation=(), action=action)
        observation, _ = env.reset(seed=0)
        assert observation == {} and env.observation_space.spaces == {}
        observation, reward, _, _, info = env.step(claim)
        assert observation == {} and reward == 0.0 and not info["success"]
        assert "action_error" not in info

"""The runner, the `bmoca eval` and `bmoca validate` commands, resuming a killed run."""

from __future__ import annotations

import dataclasses
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bmoca import tasks
from bmoca.eval import evaluate, runner
from bmoca.eval.store import Store, StoreError
from bmoca.eval.validate import validate
from bmoca.tasks.detectors import parse

TWO_TASKS = [tasks.get("settings/turn_on_wifi"), tasks.get("settings/toggle_dark_theme_in_setting")]
CONFIGS = ["test_env_100", "test_env_109"]


def bmoca_cli(*args: str, cwd: Path, timeout: int = 300) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "160"}
    return subprocess.run([sys.executable, "-m", "bmoca.cli.main", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)


def test_evaluate_stores_every_episode_and_skips_finished_ones(tmp_path):
    with Store(tmp_path) as store:
        played = evaluate.evaluate(store, "r", "expert", TWO_TASKS, CONFIGS, repeats=2)
        assert played == 8
        episodes = store.episodes("r")
        assert len(episodes) == 8 and all(e.status == "done" and e.success for e in episodes)
        steps = store.steps_of(episodes[0].episode_id)
        assert steps and steps[-1].success and all(s.valid for s in steps)
        assert '"action_type": "click"' in steps[0].action or "navigate" in steps[0].action
        assert evaluate.evaluate(store, "r", "expert", TWO_TASKS, CONFIGS, repeats=2) == 0
        with pytest.raises(StoreError, match="repeats: 2 stored, 3 now"):
            evaluate.evaluate(store, "r", "expert", TWO_TASKS, CONFIGS, repeats=3)


def test_worker_processes_give_the_same_episodes(tmp_path):
    specs = runner.plan("random", TWO_TASKS, CONFIGS, repeats=2, base_seed=7)
    serial = {o.spec.key: o for o in runner.execute(specs, workers=1)}
    parallel = {o.spec.key: o for o in runner.execute(specs, workers=2)}
    assert serial.keys() == parallel.keys()
    for key, outcome in serial.items():
        other = parallel[key]
        assert outcome.error is None and other.error is None
        assert [s.action for s in outcome.steps] == [s.action for s in other.steps]
        assert (outcome.success, outcome.detector_trace) == (other.success, other.detector_trace)


def test_chunked_workers_without_targets_give_the_same_episodes():
    """Chunks of episodes per worker round trip play what one episode at a time plays;
    without targets only `info["target"]` differs (None)."""
    specs = runner.plan("expert", TWO_TASKS, CONFIGS, repeats=2, base_seed=3)
    parts = runner.chunks(specs, 3)
    assert [s for part in parts for s in part] == specs
    assert all(len(part) <= 3 and len({s.config_id for s in part}) == 1 for part in parts)
    serial = {o.spec.key: o for o in runner.execute(specs, workers=1)}
    chunked = {o.spec.key: o for o in runner.execute(specs, workers=2, chunk=3,
                                                      targets=False)}
    assert serial.keys() == chunked.keys()
    for key, outcome in serial.items():
        other = chunked[key]
        assert outcome.error is None and other.error is None and outcome.success
        assert any(s.info["target"] for s in outcome.steps)
        assert all(s.info["target"] is None for s in other.steps)
        for mine, theirs in zip(outcome.steps, other.steps, strict=True):
            assert (mine.action, mine.reward, mine.success) == (
                theirs.action, theirs.reward, theirs.success)
            assert {k: v for k, v in mine.info.items() if k != "target"} == {
                k: v for k, v in theirs.info.items() if k != "target"}
        assert (outcome.success, outcome.detector_trace) == (other.success, other.detector_trace)


def test_episode_seeds_do_not_depend_on_order():
    a = runner.plan("random", TWO_TASKS, CONFIGS, 2, base_seed=1)
    b = runner.plan("random", TWO_TASKS[::-1], CONFIGS[::-1], 2, base_seed=1)
    assert {s.key: s.seed for s in a} == {s.key: s.seed for s in b}
    assert len({s.seed for s in a}) == len(a)


def test_infrastructure_errors_are_recorded_not_raised():
    broken = dataclasses.replace(TWO_TASKS[0], setup=(
        tasks.spec.SetupStep("shell", {"cmd": "definitely-not-a-command"}),))
    outcome, = runner.execute(runner.plan("expert", [broken], ["test_env_100"], 1))
    assert outcome.error and "definitely-not-a-command" in outcome.error


def test_validate_reports_a_task_already_done_at_reset():
    done_already = dataclasses.replace(
        TWO_TASKS[0], id="settings/broken_copy",
        success=parse({"shell": {"cmd": "settings get global airplane_mode_on",
                                 "compare": {"equals": 0}}}))
    problems = validate([TWO_TASKS[1], done_already], ["test_env_100"])
    assert [(p.task_id, p.agent) for p in problems] == [("settings/broken_copy", "noop")]
    assert "doing nothing succeeded" in problems[0].what
    assert "numeric_tag" in problems[0].last_screen


def test_eval_command_prints_the_table_and_resumes_after_a_kill(tmp_path):
    run_dir = tmp_path / "run"
    args = ["eval", "--agent", "expert", "--tasks", "settings", "--configs",
            "test_env_100,test_env_101,test_env_102", "--repeats", "2", "--run-dir", str(run_dir)]
    process = subprocess.Popen([sys.executable, "-m", "bmoca.cli.main", *args], cwd=tmp_path,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    db = run_dir / "results.sqlite"
    deadline = time.time() + 120
    done_before = 0
    while time.time() < deadline and process.poll() is None:
        if db.exists():
            try:
                with sqlite3.connect(db) as conn:
                    done_before = conn.execute(
                        "SELECT COUNT(*) FROM episodes WHERE status='done'").fetchone()[0]
            except sqlite3.OperationalError:
                pass
            if done_before >= 10:
                break
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait()
    with Store(run_dir) as store:
        kept = {e.key: e.episode_id for e in store.episodes() if e.status == "done"}
    assert 10 <= len(kept) < 90, "the run should have been killed part way"

    result = bmoca_cli(*args, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "already stored" in result.stderr  # progress goes to stderr
    assert "settings/turn_on_wifi" in result.stdout and "100" in result.stdout
    with Store(run_dir) as store:
        episodes = store.episodes()
    assert len(episodes) == 15 * 3 * 2 and all(e.success for e in episodes)
    for episode in episodes:  # finished episodes were not played again
        if episode.key in kept:
            assert episode.episode_id == kept[episode.key]
    assert "| settings/turn_on_wifi |" in (run_dir / "results.md").read_text()


def test_eval_command_rejects_bad_names(tmp_path):
    result = bmoca_cli("eval", "--tasks", "nosuchapp", cwd=tmp_path)
    assert result.returncode == 2 and "names no task" in result.stderr
    result = bmoca_cli("eval", "--agent", "psychic", cwd=tmp_path)
    assert result.returncode == 2 and "unknown agent" in result.stderr
    result = bmoca_cli("eval", "--configs", "test_env_999", cwd=tmp_path)
    assert result.returncode == 2 and "test_env_999" in result.stderr


@pytest.mark.slow
def test_validate_command_passes_for_every_task_in_all_45_configurations(tmp_path):
    # every expert and the do-nothing agent on every task in 45 configurations: the
    # suite's longest test (about 2 minutes on 2 idle cores)
    result = bmoca_cli("validate", "--tasks", "all", "--workers", "2", cwd=tmp_path,
                       timeout=1200)
    assert result.returncode == 0, result.stdout
    assert f"{len(tasks.select('all'))} tasks x 45 configurations" in " ".join(result.stdout.split())


def _done_episodes(db) -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1) as con:
            return con.execute("SELECT count(*) FROM episodes WHERE status='done'").fetchone()[0]
    except sqlite3.Error:  # the schema is still being created
        return 0


def test_sigterm_stops_a_parallel_run_cleanly(tmp_path):
    run_dir = tmp_path / "run"
    process = subprocess.Popen(
        [sys.executable, "-m", "bmoca.cli.main", "eval", "--tasks", "settings", "--split", "all",
         "--repeats", "2", "--workers", "2", "--run-dir", str(run_dir)],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    db = run_dir / "results.sqlite"
    deadline = time.time() + 120
    while time.time() < deadline and _done_episodes(db) == 0:  # however busy the machine
        time.sleep(0.05)
    process.send_signal(signal.SIGTERM)
    out, _ = process.communicate(timeout=60)
    assert process.returncode == 130, out
    assert "resume" in out and "interrupted" in out
    with Store(run_dir) as store:
        episodes = store.episodes()
    assert episodes and all(e.status == "done" for e in episodes)

"""The results store keeps what was committed, resumes cleanly and refuses foreign files."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap

import pytest

from bmoca.eval.store import FILENAME, SCHEMA_VERSION, Store, StoreError

SPEC = {"tasks": ["alarm"], "configs": ["c0", "c1"], "repeats": 2, "seed": 7, "workers": 1}


def step(store: Store, eid: int, i: int, action: object = "tap") -> None:
    """A valid step with little detail."""
    store.add_step(
        eid, i, action=action, action_label=str(action), valid=True, error=None, reward=0.0,
        success=None, step_s=None, agent_s=None, info={},
    )


def play(store: Store, task: str, config: str, repeat: int, *, success: bool, steps: int = 2) -> int:
    """One complete episode with `steps` steps, the last invalid."""
    eid = store.begin_episode("r1", "random", task, config, repeat, seed=100 + repeat)
    for i in range(steps):
        store.add_step(
            eid,
            i,
            action={"type": "tap", "x": 10 * i, "y": 20},
            action_label=f"tap({10 * i}, 20)",
            valid=i < steps - 1,
            error=None if i < steps - 1 else "off screen",
            reward=0.0,
            success=success and i == steps - 1,
            step_s=0.01,
            agent_s=0.02,
            info={"activity": "Clock", "i": i},
        )
    store.finish_episode(
        eid,
        success=success,
        steps=steps,
        invalid_actions=1,
        reward=1.0 if success else 0.0,
        terminated=success,
        truncated=not success,
        detector_trace=[{"check": "alarm set", "ok": success}],
        wall_s=0.5,
        reset_s=0.1,
    )
    return eid


def test_written_rows_survive_reopening(tmp_path):
    path = tmp_path / FILENAME
    with Store(path) as store:
        store.start_run("r1", "random", SPEC)
        eid = play(store, "alarm", "c0", 0, success=True)
        other = store.begin_episode("r1", "random", "alarm", "c1", 0, seed=None)
        step(store, other, 0, action="press BACK")
        store.fail_episode(other, "emulator died")

    with Store(tmp_path) as store:  # a run directory finds its file
        assert store.path == path
        [run] = store.runs()
        assert (run.run_id, run.agent, run.spec) == ("r1", "random", SPEC)
        done, failed = store.episodes("r1")
        assert done.episode_id == eid and done.key == ("random", "alarm", "c0", 0)
        assert (done.status, done.success, done.steps, done.invalid_actions) == ("done", True, 2, 1)
        assert (done.terminated, done.truncated, done.seed) == (True, False, 100)
        assert done.detector_trace == [{"check": "alarm set", "ok": True}]
        assert done.wall_s == 0.5 and done.reset_s == 0.1 and done.finished >= done.started
        assert (failed.status, failed.error, failed.success, failed.seed) == (
            "error", "emulator died", None, None,
        )
        first, last = store.steps_of(eid)
        assert first.action == '{"type": "tap", "x": 0, "y": 20}' and first.valid
        assert (last.valid, last.error, last.success, last.info) == (
            False, "off screen", True, {"activity": "Clock", "i": 1},
        )
        [raw] = store.steps_of(other)
        assert raw.action == "press BACK"  # strings are kept as the agent gave them
        assert store.episodes("other run") == []

    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    db.close()


def test_resume_skips_done_and_replaces_unfinished(tmp_path):
    with Store(tmp_path / FILENAME) as store:
        store.start_run("r1", "random", SPEC)
        first = play(store, "alarm", "c0", 0, success=True)
        stale = store.begin_episode("r1", "random", "alarm", "c0", 1, seed=1)
        step(store, stale, 0)
        errored = store.begin_episode("r1", "random", "alarm", "c1", 0, seed=2)
        store.fail_episode(errored, "adb disconnected")

    with Store(tmp_path / FILENAME) as store:
        store.start_run("r1", "random", {**SPEC, "workers": 8})  # volatile keys may change
        assert store.finished_keys("r1") == {("random", "alarm", "c0", 0)}

        fresh = store.begin_episode("r1", "random", "alarm", "c0", 1, seed=1)
        assert fresh != stale
        assert store.steps_of(stale) == [] and store.steps_of(fresh) == []
        with pytest.raises(StoreError, match="not 'running'|does not exist"):
            step(store, stale, 1)
        retried = store.begin_episode("r1", "random", "alarm", "c1", 0, seed=2)
        assert [(e.episode_id, e.status) for e in store.episodes("r1")] == [
            (first, "done"), (fresh, "running"), (retried, "running"),
        ]
        with pytest.raises(StoreError, match="already done"):
            store.begin_episode("r1", "random", "alarm", "c0", 0, seed=100)
        with pytest.raises(StoreError, match="is 'done'"):
            store.fail_episode(first, "late")


def test_start_run_refuses_other_settings(tmp_path):
    with Store(tmp_path / FILENAME) as store:
        store.start_run("r1", "random", SPEC)
        store.start_run("r1", "random", dict(SPEC))
        with pytest.raises(StoreError, match=r"repeats: 2 stored, 3 now"):
            store.start_run("r1", "random", {**SPEC, "repeats": 3})
        with pytest.raises(StoreError, match=r"agent: 'random' stored, 'gpt' now"):
            store.start_run("r1", "gpt", SPEC)
        with pytest.raises(StoreError, match=r"extra: <absent> stored"):
            store.start_run("r1", "random", {**SPEC, "extra": 1})
        with pytest.raises(StoreError, match="unknown run 'r2'"):
            store.begin_episode("r2", "random", "alarm", "c0", 0, seed=0)
        assert [r.spec for r in store.runs()] == [SPEC]


def test_not_sqlite_is_refused(tmp_path):
    path = tmp_path / "results.sqlite"
    path.write_bytes(b"this is a text file, not a database\n" * 100)
    with pytest.raises(StoreError, match="not a bmoca results store"):
        Store(path)


def test_foreign_sqlite_is_refused(tmp_path):
    path = tmp_path / "other.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE t (x)")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="not a bmoca results store"):
        Store(path)


def test_newer_schema_is_refused(tmp_path):
    path = tmp_path / FILENAME
    Store(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(StoreError, match=f"schema version {SCHEMA_VERSION + 1}, newer"):
        Store(path)


def test_locked_store_raises(tmp_path):
    path = tmp_path / FILENAME
    with Store(path) as store:
        store.start_run("r1", "random", SPEC)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with Store(path, timeout=0.1) as store:
            assert store.finished_keys("r1") == set()  # readers are not blocked
            with pytest.raises(StoreError, match="locked by another process"):
                store.begin_episode("r1", "random", "alarm", "c0", 0, seed=0)
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_killed_writer_keeps_committed_episodes(tmp_path):
    path = tmp_path / FILENAME
    script = textwrap.dedent(
        f"""
        import os
        from bmoca.eval.store import Store
        store = Store({str(path)!r})
        store.start_run("r1", "random", {{}})
        for repeat in range(2):
            eid = store.begin_episode("r1", "random", "alarm", "c0", repeat, seed=repeat)
            store.add_step(eid, 0, action="tap", action_label="tap", valid=True, error=None,
                           reward=0.0, success=False, step_s=0.1, agent_s=0.1, info={{}})
            if repeat == 1:
                os._exit(3)  # killed mid-episode: no close, no finish
            store.finish_episode(eid, success=True, steps=1, invalid_actions=0, reward=1.0,
                                 terminated=True, truncated=False, detector_trace={{}},
                                 wall_s=0.1, reset_s=0.1)
        """
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert proc.returncode == 3, proc.stderr

    with Store(path) as store:
        assert store.finished_keys("r1") == {("random", "alarm", "c0", 0)}
        done, running = store.episodes("r1")
        assert (done.status, done.success) == ("done", True)
        assert running.status == "running" and len(store.steps_of(running.episode_id)) == 1
        again = store.begin_episode("r1", "random", "alarm", "c0", 1, seed=1)
        assert store.steps_of(again) == []

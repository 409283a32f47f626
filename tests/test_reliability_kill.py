"""`kill -9` at seeded random points of `bmoca eval`, `bmoca validate` and `bmoca demos
generate` with workers: no process is left behind, and a resumed run ends equal to an
uninterrupted one (episode by episode, action by action)."""

from __future__ import annotations

import hashlib
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

pytestmark = [pytest.mark.reliability,
              pytest.mark.skipif(not Path("/proc/self/stat").exists(),
                                 reason="needs /proc to find the killed run's processes")]

SCRIPT = "import sys; sys.argv[0] = 'bmoca'; from bmoca.cli.main import main; main()"
EVAL = ["eval", "--agent", "random", "--tasks", "settings", "--configs",
        "test_env_100,test_env_101", "--repeats", "3", "--workers", "2"]
"""90 episodes: a random episode on a warm simulator takes a few milliseconds, so with
fewer, a busy machine could see the rest of the run finish between two polls."""
DEMOS = ["demos", "generate", "--tasks", "settings/turn_on_wifi,settings/turn_on_airplane_mode,"
         "settings/turn_off_wifi", "--configs", "test_env_100,test_env_101", "--workers", "2"]
POINTS = random.Random(22).sample(range(2, 12), 3)
"""How many finished episodes to wait for before each kill: seeded, so every run is alike."""


def start(args: list[str], cwd: Path) -> subprocess.Popen:
    """The command in its own session, so everything it starts can be found afterwards."""
    return subprocess.Popen([sys.executable, "-c", SCRIPT, *args], cwd=cwd,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)


def finish(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", SCRIPT, *args], cwd=cwd, capture_output=True,
                          text=True, timeout=600)


def in_session(session: int) -> list[int]:
    """Live (not zombie) processes of a session."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2:].split()
        if int(fields[3]) == session and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


def kill_when(process: subprocess.Popen, ready: Callable[[], bool], timeout: float = 240) -> None:
    """kill -9 the command once `ready()` holds; then nothing of its session may be left."""
    deadline = time.monotonic() + timeout
    while not ready():
        assert process.poll() is None, "the run ended before the kill point"
        assert time.monotonic() < deadline, "the kill point never came"
        time.sleep(0.01)
    workers = [pid for pid in in_session(process.pid) if pid != process.pid]
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    deadline = time.monotonic() + 10
    while in_session(process.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = in_session(process.pid)
    for pid in left:  # a failing run must not leave them for the rest of the suite
        os.kill(pid, signal.SIGKILL)
    assert left == [], f"left behind: {left}"
    assert workers, "the kill point came before any worker started"


def done_episodes(run: Path) -> int:
    try:
        with sqlite3.connect(f"file:{run / 'results.sqlite'}?mode=ro", uri=True) as db:
            return db.execute("SELECT count(*) FROM episodes WHERE status='done'").fetchone()[0]
    except sqlite3.Error:
        return 0


def eval_contents(run: Path) -> dict:
    """Every episode's outcome and every step's action, by episode key."""
    with sqlite3.connect(run / "results.sqlite") as db:
        episodes = db.execute("SELECT episode_id, agent, task_id, config_id, repeat, seed, "
                              "status, success, steps, invalid_actions, reward FROM episodes")
        out = {}
        for episode_id, *key_and_outcome in episodes.fetchall():
            steps = db.execute("SELECT step, action, action_label, valid, reward FROM steps "
                               "WHERE episode_id=? ORDER BY step", (episode_id,)).fetchall()
            out[tuple(key_and_outcome[:4])] = (key_and_outcome[4:], steps)
        return out


@pytest.fixture(scope="module")
def uninterrupted_eval(tmp_path_factory) -> dict:
    where = tmp_path_factory.mktemp("eval")
    result = finish([*EVAL, "--out", "run"], where)
    assert result.returncode == 0, result.stderr
    return eval_contents(where / "run")


def test_eval_killed_at_random_points_resumes_to_the_same_results(tmp_path,
                                                                  uninterrupted_eval):
    run = tmp_path / "run"
    for point in POINTS:
        process = start([*EVAL, "--out", "run"], tmp_path)
        done_before = done_episodes(run)
        kill_when(process, lambda p=point, d=done_before: done_episodes(run) >= d + p)
    result = finish([*EVAL, "--out", "run"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert eval_contents(run) == uninterrupted_eval


def test_validate_killed_leaves_no_worker_and_a_rerun_agrees(tmp_path):
    args = ["validate", "--tasks", "all", "--configs", "test_env_100..105",
            "--workers", "2", "--json"]
    process = start(args, tmp_path)
    working: list[float] = []

    def mid_run() -> bool:
        """A second after the workers are up: well inside a run of 1,704 episodes (about
        13 s on 2 idle cores)."""
        if not working and len(in_session(process.pid)) > 1:
            working.append(time.monotonic())
        return bool(working) and time.monotonic() - working[0] > 1.0

    kill_when(process, mid_run)
    first, second = finish(args, tmp_path), finish(args, tmp_path)
    assert first.returncode == second.returncode == 0, first.stderr
    strip = [json.loads(r.stdout) for r in (first, second)]
    for report in strip:
        report.pop("seconds")
    assert strip[0] == strip[1] and strip[0]["problems"] == []


def demos_contents(data: Path) -> list[dict]:
    """Episodes of a dataset with each screenshot path replaced by its PNG's digest."""
    def resolve(value):
        if isinstance(value, dict):
            return {k: hashlib.sha256((data / v).read_bytes()).hexdigest()
                    if k == "screenshot" else resolve(v) for k, v in value.items()}
        if isinstance(value, list):
            return [resolve(v) for v in value]
        return value
    lines = (data / "episodes.jsonl").read_text().splitlines()
    episodes = [resolve(json.loads(line)) for line in lines]
    return sorted(episodes, key=lambda e: (e["task_id"], e["config_id"], e["repeat"]))


def test_demos_generate_killed_resumes_to_the_same_dataset(tmp_path):
    full = finish([*DEMOS, "--out", "full"], tmp_path)
    assert full.returncode == 0, full.stderr
    data = tmp_path / "cut"

    def recorded() -> int:
        path = data / "episodes.jsonl"
        return path.read_text().count("\n") if path.exists() else 0
    process = start([*DEMOS, "--out", "cut"], tmp_path)
    kill_when(process, lambda: recorded() >= 2)
    result = finish([*DEMOS, "--out", "cut"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert demos_contents(data) == demos_contents(tmp_path / "full")

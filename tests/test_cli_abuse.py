"""Issue 22's bad command lines: each is one line on stderr and exit 2 (never a traceback),
and `bmoca eval`'s exit status says when episodes errored."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bmoca.eval.runlock import RunLock
from bmoca.eval.store import Store

pytestmark = pytest.mark.reliability

SCRIPT = "import sys; sys.argv[0] = 'bmoca'; from bmoca.cli.main import main; main()"
EVAL = ("eval", "--agent", "random", "--tasks", "settings/turn_on_wifi", "--configs",
        "test_env_100", "--repeats", "1")
CRASHING = '''
class Crashing:
    name = "crashing"
    action_mode = "json"
    observation_modes = ("text",)

    def reset(self, goal, seed=None):
        pass

    def act(self, observation):
        raise RuntimeError("the model server went away")
'''


def bmoca(*args: str, cwd: Path, env: dict[str, str] | None = None
          ) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", SCRIPT, *args], cwd=cwd, capture_output=True,
                          text=True, timeout=300,
                          env={**os.environ, "COLUMNS": "80", **(env or {})})


def one_line_error(result: subprocess.CompletedProcess, *needles: str) -> None:
    """Exit 2, exactly one line on stderr holding every needle (besides a progress bar's),
    no traceback."""
    lines = [line for line in result.stderr.strip().splitlines() if "━" not in line]
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr[-2000:]
    for needle in needles:
        assert needle in lines[0], lines[0]


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory) -> Path:
    """A small finished run to damage in the tests."""
    where = tmp_path_factory.mktemp("finished")
    result = bmoca(*EVAL, "--out", "run", cwd=where)
    assert result.returncode == 0, result.stderr
    return where / "run"


def test_run_dir_that_is_a_file(tmp_path):
    (tmp_path / "afile").write_text("x")
    one_line_error(bmoca(*EVAL, "--run-dir", "afile", cwd=tmp_path),
                   "afile exists and is not a directory")
    one_line_error(bmoca(*EVAL, "--out", "afile/run", cwd=tmp_path), "cannot write to afile/run")
    assert (tmp_path / "afile").read_text() == "x"


@pytest.mark.parametrize("column, value, message", [
    ("detector_trace", "{not json", "detector_trace of episode 1 is not valid JSON"),
    ("detector_trace", '"a string"', "detector_trace of episode 1 should be a JSON array or object"),
])
def test_report_and_resume_on_a_damaged_store(finished_run, tmp_path, column, value, message):
    run = tmp_path / "run"
    shutil.copytree(finished_run, run)
    with sqlite3.connect(run / "results.sqlite") as db:
        db.execute(f"UPDATE episodes SET {column}=?", (value,))
    one_line_error(bmoca("report", str(run), "--no-plots", cwd=tmp_path), message)
    one_line_error(bmoca(*EVAL, "--out", str(run), cwd=tmp_path), message)


def test_report_on_damaged_step_info(finished_run, tmp_path):
    run = tmp_path / "run"
    shutil.copytree(finished_run, run)
    with sqlite3.connect(run / "results.sqlite") as db:
        db.execute("UPDATE steps SET info='[1, 2]' WHERE step=0")
        db.execute("UPDATE episodes SET invalid_actions=NULL")  # the report reads the steps
    one_line_error(bmoca("report", str(run), "--no-plots", cwd=tmp_path),
                   "info of episode 1 step 0 should be a JSON object")


def test_unwritable_outputs(finished_run, tmp_path):
    (tmp_path / "afile").write_text("x")
    one_line_error(bmoca("report", str(finished_run), "--no-plots", "--out", "afile/report",
                         cwd=tmp_path), "--out", "cannot write to afile/report")
    one_line_error(bmoca("demos", "generate", "--tasks", "settings/turn_on_wifi", "--configs",
                         "test_env_100", "--out", "afile/demos", cwd=tmp_path),
                   "cannot write to afile/demos")
    one_line_error(bmoca("demos", "generate", "--screen-width", "100000", "--out", "d",
                         cwd=tmp_path), "--screen-width", "4096")


@pytest.mark.parametrize("args, needles", [
    (("--out", "missing/screen.png"), ("--out", "directory missing does not exist")),
    (("--out", "screen.xyz"), ("--out", "unknown file extension '.xyz'", ".png")),
    (("--tap", "id=x#abc"), ("--tap", "#N must be a match number")),
    (("--tap", "id=x#-1"), ("--tap", "#N must be a match number")),
])
def test_screenshot_bad_values(tmp_path, args, needles):
    one_line_error(bmoca("screenshot", *args, cwd=tmp_path), *needles)
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("spec", [",", " , ,"])
def test_configs_naming_nothing_is_an_error(tmp_path, spec):
    one_line_error(bmoca(*EVAL[:5], "--configs", spec, "--out", "run", cwd=tmp_path),
                   "--configs", "names no configuration")
    assert not (tmp_path / "run").exists()


def test_episodes_that_errored_give_exit_3_unless_allowed(tmp_path):
    (tmp_path / "crashmod.py").write_text(CRASHING)
    args = ("eval", "--agent", "crashmod:Crashing", "--tasks", "settings/turn_on_wifi",
            "--configs", "test_env_100,test_env_101", "--repeats", "1", "--out", "run")
    env = {"PYTHONPATH": str(tmp_path)}
    result = bmoca(*args, cwd=tmp_path, env=env)
    assert result.returncode == 3, result.stderr[-2000:]
    assert "2 episode(s) ended in an infrastructure error" in result.stderr
    with Store(tmp_path / "run") as store:
        assert [e.status for e in store.episodes()] == ["error", "error"]
    result = bmoca(*args, "--allow-errors", cwd=tmp_path, env=env)
    assert result.returncode == 0, result.stderr[-2000:]


def test_a_second_writer_is_told_which_process_holds_the_run(tmp_path):
    (tmp_path / "run").mkdir()
    with RunLock(tmp_path / "run", command="bmoca eval --agent first"):
        result = bmoca(*EVAL, "--out", "run", cwd=tmp_path)
    one_line_error(result, f"in use by process {os.getpid()}", "bmoca eval --agent first")
    assert not (tmp_path / "run" / "results.sqlite").exists()
    assert bmoca(*EVAL, "--out", "run", cwd=tmp_path).returncode == 0  # released: it runs


@pytest.mark.parametrize("budget", ["abc", "-1", "nan", "1e400"])
@pytest.mark.parametrize("variable", ["BMOCA_CACHE_MB", "BMOCA_MEMORY_CACHE_MB"])
def test_a_bad_cache_budget_in_the_environment_is_one_line(tmp_path, variable, budget):
    """The cache budgets are read when a cache entry is kept, deep in a command: they are
    checked before any command runs instead, so a bad value is one line, exit 2."""
    result = bmoca("screenshot", "--out", str(tmp_path / "shot.png"), cwd=tmp_path,
                   env={variable: budget, "XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"bmoca: error: {variable} must be a number of megabytes (0 or more), not {budget!r}"]
    assert not (tmp_path / "shot.png").exists()


@pytest.mark.parametrize("table, cell, value", [
    ("episodes", "steps", "'abc'"), ("episodes", "reward", "'x'"),
    ("episodes", "wall_s", "'zz'"), ("steps", "reward", "'high'")])
def test_a_report_on_a_store_with_a_wrong_typed_cell_is_one_line(tmp_path, table, cell, value):
    run = tmp_path / "run"
    first = bmoca(*EVAL, "--out", str(run), cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    with sqlite3.connect(run / "results.sqlite") as db:
        db.execute(f"UPDATE {table} SET {cell} = {value}")
    result = bmoca("report", str(run), cwd=tmp_path)
    assert result.returncode == 2
    line, = result.stderr.strip().splitlines()
    assert f"{cell} of episode" in line and "should be" in line and "damaged or edited" in line


@pytest.mark.parametrize("out, why", [("/proc/1/m.pt", "cannot write to /proc/1"),
                                      (".", "is a directory; give a file name")])
def test_a_checkpoint_that_cannot_be_written_is_refused_before_training(tmp_path, out, why):
    result = bmoca("train", "bc", "--data", str(tmp_path / "no-data"), "--out", out,
                   cwd=tmp_path)
    assert result.returncode == 2
    line, = result.stderr.strip().splitlines()
    assert "--out" in line and why in line


def test_a_refused_checkpoint_is_one_short_line(tmp_path):
    pytest.importorskip("torch")
    bad = tmp_path / "bad.pt"
    bad.write_bytes(b"garbage, not a checkpoint")
    result = bmoca("eval", "--agent", f"bc:{bad}", "--tasks", "settings/turn_on_wifi",
                   "--configs", "test_env_100", "--out", str(tmp_path / "run"), cwd=tmp_path)
    assert result.returncode == 2
    line, = result.stderr.strip().splitlines()
    assert "not a bmoca checkpoint" in line and "weights_only" not in line and len(line) < 300

"""benchmarks/rl_finetune.py: BC → BC+RL over a data-diversity study's checkpoints, the
table of before and after, and a resumed comparison that keeps its recipe."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("stable_baselines3")

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "rl_finetune.py"
TASK = "settings/open_the_setting_app"
TINY = ["--", "--timesteps", "8", "--envs", "1", "--rollout-steps", "4", "--batch-size", "4",
        "--configs", "train_env_000"]  # the script's own "--configs train" is overridden


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=600,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


@pytest.fixture(scope="module")
def study(tmp_path_factory) -> Path:
    """A study as data_diversity.py leaves it: its tasks and route, a BC checkpoint, and
    demonstrations (here of one configuration) for the BC term."""
    from bmoca.train import bc
    from bmoca.train.models import build_policy, new_config

    root = tmp_path_factory.mktemp("study")
    (root / "results.json").write_text(json.dumps({"tasks": [TASK], "route": "shade"}))
    for seed in (0, 1):
        torch.manual_seed(seed)
        bc.save(build_policy(new_config()), root / f"bc_35_seed{seed}.pt")
    subprocess.run([sys.executable, "-m", "bmoca.cli.main", "demos", "generate", "--tasks",
                    TASK, "--configs", "train_env_000", "--play", "discrete", "--route",
                    "shade", "--out", str(root / "demos")], check=True, cwd=ROOT,
                   capture_output=True, timeout=300)
    return root


def test_the_comparison_tunes_each_seed_and_tables_before_and_after(study, tmp_path):
    out = tmp_path / "rl"
    result = _run("--study", str(study), "--out", str(out), "--seeds", "0", *TINY)
    assert result.returncode == 0, result.stderr[-2000:]
    saved = json.loads((out / "results.json").read_text())
    assert set(saved["0"]["bc"]) == set(saved["0"]["tuned"]) == {TASK}
    assert saved["run"]["recipe"][-10:] == TINY[1:]
    tuned = torch.load(out / "ppo_seed0.pt", weights_only=True)["extra"]["rl"]
    assert tuned["configs"] == ["train_env_000"] and tuned["task"] == TASK
    assert tuned["timesteps"] == 8 and tuned["kl_coef"] == 0.03  # the recipe, then TINY
    table = (out / "results.md").read_text()
    assert f"| {TASK} |" in table and "| **average** |" in table
    assert "Per seed, of the 10 test episodes (BC → BC + PPO): seed 0:" in table
    again = _run("--study", str(study), "--out", str(out), "--seeds", "0", *TINY)
    assert again.returncode == 0 and json.loads((out / "results.json").read_text()) == saved
    other = _run("--study", str(study), "--out", str(out), "--", "--timesteps", "16")
    assert other.returncode == 2 and "holds another run" in other.stderr


def test_the_control_clones_on_for_as_many_optimizer_steps_as_ppo_took(study, tmp_path):
    out = tmp_path / "rl"
    assert _run("--study", str(study), "--out", str(out), "--seeds", "0", *TINY).returncode == 0
    before = json.loads((out / "results.json").read_text())
    result = _run("--study", str(study), "--out", str(out), "--seeds", "0", "--control", *TINY)
    assert result.returncode == 0, result.stderr[-2000:]
    saved = json.loads((out / "results.json").read_text())
    assert saved["0"]["tuned"] == before["0"]["tuned"]  # the finished run is not redone
    # 8 steps in rollouts of 4 (one phone): 2 rollouts × 4 epochs × 1 minibatch of 4
    assert saved["0"]["control_steps"] == 8 and set(saved["0"]["control"]) == {TASK}
    control = torch.load(out / "control_seed0.pt", weights_only=True)
    assert control["settings"]["steps"] == 8 and control["settings"]["batch_size"] == 4
    start = torch.load(study / "bc_35_seed0.pt", weights_only=True)["state"]
    assert any(not torch.equal(start[k], v) for k, v in control["state"].items())
    table = (out / "results.md").read_text()
    assert "| BC cloned on (control) |" in table
    assert "Control, BC cloned on for as many optimizer steps (seed 0: 8)" in table
    refused = _run("--study", str(study), "--out", str(tmp_path / "dqn"), "--algo", "dqn",
                   "--control")
    assert refused.returncode == 2 and "--control counts PPO's" in refused.stderr


def test_seeds_fine_tune_at_once_with_jobs(study, tmp_path):
    out = tmp_path / "rl"
    result = _run("--study", str(study), "--out", str(out), "--seeds", "0", "1", "--jobs", "2",
                  *TINY)
    assert result.returncode == 0, result.stderr[-2000:]
    saved = json.loads((out / "results.json").read_text())
    for seed in ("0", "1"):
        assert set(saved[seed]["tuned"]) == {TASK} and saved[seed]["seconds"] > 0
        assert (out / f"ppo_seed{seed}.pt").exists()
    assert "seed 0: " in (out / "results.md").read_text()
    assert "; seed 1: " in (out / "results.md").read_text()
    refused = _run("--study", str(study), "--out", str(tmp_path / "x"), "--jobs", "0")
    assert refused.returncode == 2 and "--jobs: 0; at least 1" in refused.stderr


def test_a_missing_study_or_seed_is_one_clear_error(study, tmp_path):
    result = _run("--study", str(tmp_path / "nowhere"), "--out", str(tmp_path / "a"))
    assert result.returncode == 2 and "--study: no " in result.stderr
    result = _run("--study", str(study), "--out", str(tmp_path / "b"), "--seeds", "4")
    assert result.returncode == 2 and "bc_35_seed4.pt" in result.stderr


def test_filtered_bc_tunes_each_seed_and_its_control_takes_as_many_steps(study, tmp_path):
    out = tmp_path / "fbc"
    tiny = ["--", "--rounds", "2", "--episodes", "2", "--updates", "3", "--batch-size", "4",
            "--configs", "train_env_000"]
    result = _run("--study", str(study), "--out", str(out), "--seeds", "0", "--algo",
                  "filtered-bc", "--control", *tiny)
    assert result.returncode == 0, result.stderr[-2000:]
    saved = json.loads((out / "results.json").read_text())
    assert saved["run"]["algo"] == "filtered-bc"
    assert set(saved["0"]["tuned"]) == {TASK} and saved["0"]["control_steps"] == 6
    tuned = torch.load(out / "filtered-bc_seed0.pt", weights_only=True)
    assert tuned["extra"]["filtered_bc"]["demos"] == str((study / "demos").resolve())
    control = torch.load(out / "control_seed0.pt", weights_only=True)
    assert control["settings"]["steps"] == 6 and control["settings"]["batch_size"] == 4
    table = (out / "results.md").read_text()
    assert "| task | BC | BC + filtered BC | BC cloned on (control) |" in table
    assert "filtered BC over it" in table

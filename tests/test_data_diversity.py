"""benchmarks/data_diversity.py: the demonstrations it asks for, and a resumed study that
keeps its tasks and its experts' route (a mixed table would compare unlike policies)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "data_diversity.py"
TASK = "settings/open_the_setting_app"


def _study(out: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), "--out", str(out), "--tasks", TASK,
                           *args], capture_output=True, text=True, cwd=ROOT,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, timeout=120)


def test_the_demonstrations_follow_the_route_asked_for(tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location("data_diversity", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    commands: list[list[str]] = []
    monkeypatch.setattr(module.subprocess, "run", lambda command, **_: commands.append(command))
    assert module.generate_demos(tmp_path, TASK, 1, 128, 1, "shade") == tmp_path / "demos"
    command = commands[0]
    assert command[command.index("--route") + 1] == "shade"
    assert command[command.index("--play") + 1] == "discrete"


def test_a_resumed_study_keeps_its_route(tmp_path):
    older = tmp_path / "older"  # a study from before --route: its experts used the launcher
    older.mkdir()
    (older / "results.json").write_text(json.dumps({"tasks": [TASK], "7/0": {}}))
    result = _study(older, "--route", "shade")
    assert result.returncode == 2
    assert "holds a study with --route launcher; choose another --out" in result.stderr
    shade = tmp_path / "shade"
    shade.mkdir()
    (shade / "results.json").write_text(json.dumps({"tasks": [TASK], "route": "shade"}))
    result = _study(shade)  # the default route, launcher, is not this study's
    assert result.returncode == 2 and "--route shade" in result.stderr


def test_a_resumed_study_keeps_its_training_budget(tmp_path):
    study = tmp_path / "study"  # 700 steps per policy; a rerun at 1,400 would mix two tables
    study.mkdir()
    (study / "results.json").write_text(json.dumps({
        "tasks": [TASK], "route": "shade",
        "training": {"arch": "small", "steps": 700, "batch_size": 32, "lr": 1e-3,
                     "repeats": 1, "screen_width": 128}}))
    result = _study(study, "--route", "shade", "--steps", "1400")
    assert result.returncode == 2
    assert "holds a study trained with" in result.stderr and '"steps": 700' in result.stderr
    result = _study(study, "--route", "shade", "--steps", "700", "--grid-taps")
    assert result.returncode == 2  # another head is another budget too
    assert "holds a study trained with" in result.stderr and "grid_taps" not in result.stderr


def test_the_plot_shows_each_size_with_its_seeds(tmp_path):
    pytest.importorskip("matplotlib")
    from PIL import Image

    spec = importlib.util.spec_from_file_location("data_diversity", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    results = {"tasks": [TASK]}
    for size, values in ((7, (0.1, 0.2, 0.3)), (21, (0.3, 0.4, 0.5)), (35, (0.5, 0.5))):
        for seed, value in enumerate(values):
            results[f"{size}/{seed}"] = {"success": {TASK: value}}
    path = tmp_path / "results.png"
    assert module.plot(results, [7, 21, 35], [0, 1, 2], path)
    with Image.open(path) as image:
        assert image.size == (550, 350)

"""`bmoca train --task-split`: a model learns from the demonstrations of one generalization
split only (docs/families.md, "Generalization splits")."""

from __future__ import annotations

import pytest

pytest.importorskip("torch", reason="training tests need the train extra (torch)")

from typer.testing import CliRunner  # noqa: E402

from bmoca import tasks  # noqa: E402
from bmoca.cli.main import app  # noqa: E402
from bmoca.demos.generate import generate  # noqa: E402

FAMILY = "settings/turn_bluetooth_on_or_off"


@pytest.fixture(scope="module")
def demo_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("splits") / "demos"
    wanted = [tasks.get(f"{FAMILY}@{seed}") for seed in (3, 4, 9)]
    summary = generate(out, wanted, ["train_env_000"], screen_width=270)
    assert summary.kept == 3, summary.failures
    return out


def _train(demo_dir, tmp_path, *extra: str):
    return CliRunner().invoke(app, ["train", "bc", "--data", str(demo_dir), "--out",
                                    str(tmp_path / "bc.pt"), "--steps", "1", "--batch-size",
                                    "2", *extra])


def test_a_split_keeps_its_own_demonstrations_only(demo_dir, tmp_path):
    both = _train(demo_dir, tmp_path)
    test = _train(demo_dir, tmp_path, "--task-split", "test-instance")
    train = _train(demo_dir, tmp_path, "--task-split", "train-instance")
    assert both.exit_code == test.exit_code == train.exit_code == 0, test.output
    assert "in 3 demonstrations" in both.output
    assert "in 2 demonstrations" in test.output  # seeds 4 and 9
    assert "in 1 demonstrations" in train.output
    spec = _train(demo_dir, tmp_path, "--tasks", FAMILY, "--task-split", "train-family")
    assert spec.exit_code in (0, 2)  # the family falls in one part of the family axis
    other = "test-family" if spec.exit_code == 0 else "train-family"
    assert _train(demo_dir, tmp_path, "--tasks", FAMILY, "--task-split", other).exit_code \
        != spec.exit_code


def test_a_split_with_nothing_in_it_or_a_bad_name_is_one_line_and_exit_2(demo_dir, tmp_path):
    empty = _train(demo_dir, tmp_path, "--task-split", "test-app")
    assert empty.exit_code == 2
    assert "no demonstration of a task in task split test-app" in empty.output
    bad = _train(demo_dir, tmp_path, "--task-split", "test-seed")
    assert bad.exit_code == 2 and "unknown task split 'test-seed'; valid:" in bad.output
    assert not (tmp_path / "bc.pt").exists()

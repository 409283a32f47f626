"""examples/grpo_forked.py: group rollouts from forked `TaskEnv` states (GRPO-style).

Tiny runs from a random network: what can go wrong is where a group starts (every
continuation from the one forked moment), the group-relative advantages, and the curve
the script prints and writes (deterministic given the seed)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

from bmoca.train import bc  # noqa: E402
from bmoca.train.rl_env import TaskEnv, TaskState  # noqa: E402

SCRIPT = Path(__file__).resolve().parents[1] / "examples" / "grpo_forked.py"
TASK = "settings/open_the_setting_app"
TINY = ["--task", TASK, "--init", "scratch", "--configs", "train_env_000,train_env_002",
        "--eval-configs", "test_env_100", "--iterations", "1", "--episodes", "1",
        "--forks", "2", "--group", "3", "--horizon", "3", "--eval-every", "1"]


@pytest.fixture(scope="module")
def grpo():
    spec = importlib.util.spec_from_file_location("grpo_forked", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        del sys.modules[spec.name]


def test_a_task_env_continues_from_its_forked_state():
    env = TaskEnv(TASK, ["train_env_000"], horizon=5)
    env.reset()
    env.step(379)  # pull the notification shade
    state = env.get_state()
    assert isinstance(state, TaskState) and state.config_id == "train_env_000"
    shade = env.env.get_state().observation["pixels"]
    later = [env.step(a)[:4] for a in (382, 379, 40)]  # back, the shade again, the gear
    assert later[-1][1:3] == (1.0, True)
    again, info = env.reset(options={"state": state})
    assert info["config"] == "train_env_000" and info["steps"] == 1
    assert np.array_equal(again, shade)
    for (pixels, reward, terminated, truncated), action in zip(later, (382, 379, 40),
                                                               strict=True):
        step = env.step(action)
        assert np.array_equal(step[0], pixels) and step[1:4] == (reward, terminated, truncated)
    with pytest.raises(ValueError, match="state"):
        env.reset(options={"state": state, "config": "train_env_001"})
    env.close()


def test_group_advantages_are_zero_mean_and_unit_spread(grpo):
    advantages = grpo.group_advantages([1.0, 0.0, 0.0, 1.0, 1.0])
    assert advantages.mean() == pytest.approx(0.0, abs=1e-9)
    assert advantages.std() == pytest.approx(1.0, abs=1e-4)
    assert advantages[0] > 0 > advantages[1]
    assert not np.any(grpo.group_advantages([0.0, 0.0, 0.0]))  # no winner: no signal


def test_each_group_continues_one_forked_moment_and_the_curve_is_seeded(grpo, tmp_path,
                                                                         capsys):
    groups = []
    settings = grpo.Settings(task=TASK, init="scratch", configs=["train_env_000", "train_env_002"],
                             eval_configs=["test_env_100"], iterations=1, episodes=1, forks=2,
                             group=3, horizon=3, eval_every=1)
    policy, curve = grpo.run(settings, on_groups=groups.extend, log=lambda _line: None)
    # a random network almost never succeeds within 3 steps, so the trunk has 3 moments
    assert [g.fork_step for g in groups][0] == 0 and len(groups) == 3
    assert sorted({g.fork_step for g in groups}) == [0, 1, 2]
    for group in groups:
        assert len(group.first_observations) == len(group.steps) == len(group.returns) == 3
        for first, steps in zip(group.first_observations, group.steps, strict=True):
            assert np.array_equal(first, group.fork_observation)
            assert np.array_equal(steps[0].pixels, group.fork_observation)
            # a continuation from the trunk's t-th moment has the 3 - t steps left
            assert 1 <= len(steps) <= 3 - group.fork_step
        assert group.advantages.mean() == pytest.approx(0.0, abs=1e-9)
    assert [row["iteration"] for row in curve] == [0, 1]
    assert curve[1]["episodes"] == 1 + 3 * 3 and curve[1]["groups"] == 3
    assert 0.0 <= curve[1]["greedy_train"] <= 1.0 and "greedy_test" in curve[0]

    out, saved = tmp_path / "curve.json", tmp_path / "policy.pt"
    assert grpo.main(TINY + ["--out", str(out), "--json", "--save", str(saved)]) == 0
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    written = json.loads(out.read_text())
    assert written["settings"]["group"] == 3 and written["curve"] == printed

    def same(row):
        return {k: v for k, v in row.items() if k != "seconds"}
    assert [same(r) for r in printed] == [same(r) for r in curve]  # seeded: the same run
    assert bc.load(saved).config == policy.config  # a BC checkpoint `bc:FILE` agents play

"""Online filtered BC (`bmoca train filtered-bc`): a policy that learns from nothing but
its own successful episodes, failures that teach nothing, a run that resumes to the
weights of an uninterrupted one, and the command line's refusals."""

from __future__ import annotations

import dataclasses
import json

import pytest

torch = pytest.importorskip("torch")

from typer.testing import CliRunner  # noqa: E402

from bmoca.cli.main import app  # noqa: E402
from bmoca.eval import curves  # noqa: E402
from bmoca.train import bc, filtered_bc, rl  # noqa: E402
from bmoca.train.checkpoints import Checkpointing  # noqa: E402
from bmoca.train.models import build_policy, new_config  # noqa: E402

torch.set_num_threads(1)
CONFIGS = ["train_env_000", "train_env_001"]
TIMING = ("seconds", "env_steps_per_s")


class Interrupted(Exception):
    """Stands for the kill, raised when a curve row comes in."""


def _fresh(seed: int = 0):
    torch.manual_seed(seed)
    return build_policy(new_config())


def _same_weights(a: torch.nn.Module, b: torch.nn.Module) -> bool:
    one, two = a.state_dict(), b.state_dict()
    return one.keys() == two.keys() and all(torch.equal(one[k], two[k]) for k in one)


def _untimed(curve: list[dict]) -> list[str]:
    return [json.dumps({k: v for k, v in row.items() if k not in TIMING}) for row in curve]


def test_a_fresh_policy_learns_to_open_gmail_from_its_own_successes_alone():
    """No demonstrations: the uniform policy opens Gmail now and then in five taps; cloning
    those episodes makes the Gmail tap the home screen's likeliest action."""
    start = _fresh()
    gmail = rl.run_tasks("gmail/open_Gmail")[0]
    assert rl.greedy_success(start, gmail, CONFIGS[:1], 5) == 0.0
    settings = filtered_bc.FilteredBCSettings(
        task="gmail/open_Gmail", configs=CONFIGS[:1], rounds=12, episodes=8, updates=8,
        lr=1e-3, horizon=5, demo_fraction=0.0, seed=3)
    tuned, curve = filtered_bc.train(_fresh(), settings)
    assert curve[-1]["greedy_train"] == 1.0
    assert curve[-1]["buffer_steps"] > 0
    late = [row["success_rate"] for row in curve[-3:]]
    assert sum(late) / 3 > 0.5  # the sampling policy itself now succeeds mostly


def test_failed_episodes_teach_nothing():
    """One tap cannot turn on airplane mode from the home screen: no episode succeeds, so
    with no demonstrations mixed in, the policy's updates have nothing to clone and it
    stays as it was."""
    start = _fresh()
    settings = filtered_bc.FilteredBCSettings(
        task="settings/turn_on_airplane_mode", configs=CONFIGS, rounds=2, episodes=3,
        updates=4, horizon=1, demo_fraction=0.0, seed=0)
    tuned, curve = filtered_bc.train(_fresh(), settings)
    assert [row["success_rate"] for row in curve] == [0.0, 0.0]
    assert curve[-1]["buffer_steps"] == 0
    assert _same_weights(tuned, start)


def test_an_interrupted_run_resumes_to_the_weights_of_an_uninterrupted_one(tmp_path):
    settings = filtered_bc.FilteredBCSettings(
        task="gmail/open_Gmail", configs=CONFIGS, rounds=5, episodes=4, updates=3, lr=1e-3,
        lr_schedule="linear", horizon=5, demo_fraction=0.0, buffer_steps=2, seed=2)
    straight, curve = filtered_bc.train(_fresh(), settings)
    assert curve[1]["buffer_steps"] == 2  # the ring wrapped before the checkpoint
    saving = Checkpointing(tmp_path / "f.pt.ckpt", every=2, spec={"trainer": "filtered-bc"})

    def stop(row: dict) -> None:
        if row["iteration"] == 4:
            raise Interrupted

    with pytest.raises(Interrupted):
        filtered_bc.train(_fresh(), settings, checkpointing=saving, on_row=stop)
    assert torch.load(saving.path, weights_only=True)["step"] == 2
    resumed, again = filtered_bc.train(_fresh(), settings,
                                       checkpointing=dataclasses.replace(saving, resume=True))
    assert _same_weights(resumed, straight)
    assert _untimed(again) == _untimed(curve)
    other, _ = filtered_bc.train(_fresh(), dataclasses.replace(settings, seed=4))
    assert not _same_weights(other, straight)  # the comparison can fail


def test_the_command_trains_from_a_checkpoint_and_refuses_bad_values(tmp_path):
    runner = CliRunner()
    init = bc.save(_fresh(), tmp_path / "bc.pt")
    out = tmp_path / "fbc.pt"
    args = ["train", "filtered-bc", "--init", str(init), "--out", str(out), "--task",
            "gmail/open_Gmail", "--configs", "train_env_000", "--eval-configs", "none",
            "--rounds", "2", "--episodes", "2", "--updates", "1", "--horizon", "3",
            "--checkpoint-every", "1"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    refused = runner.invoke(app, [*args, "--resume", "--seed", "1"])
    assert refused.exit_code == 2 and "(seed 0 there, 1 here)" in refused.output
    saved = torch.load(out, weights_only=True)
    assert saved["extra"]["algo"] == "filtered-bc"
    assert saved["extra"]["filtered_bc"]["rounds"] == 2
    assert [row["iteration"] for row in saved["extra"]["curve"]] == [1, 2]
    steps = [row["timesteps"] for row in saved["extra"]["curve"]]
    assert 2 <= steps[0] <= 6 and steps[0] < steps[1] <= 12  # two episodes of at most 3
    assert len(out.with_suffix(".curve.jsonl").read_text().splitlines()) == 2
    assert bc.load(out).config == bc.load(init).config  # loads as bc:PATH
    found = curves.beside_checkpoint(f"bc:{out}")  # the report shows it as PPO's
    assert found is not None and curves.summary(curves.load(found)).startswith(
        f"2 iterations, {steps[1]} environment steps")
    for bad, why in ((["--lr-schedule", "cosine"], "learning-rate schedule"),
                     (["--temperature", "0"], "--temperature"),
                     (["--configs", "nowhere_9"], "nowhere_9")):
        refused = runner.invoke(app, ["train", "filtered-bc", "--out", str(tmp_path / "x.pt"),
                                      "--rounds", "1", *bad])
        assert refused.exit_code == 2 and why in refused.output, refused.output
        assert len(refused.output.strip().splitlines()) == 1

"""Runs that survive (`--checkpoint-every`, `--resume`, `--device`, `--amp`, `--workers`):
a run interrupted after a checkpoint and resumed ends with exactly the weights of an
uninterrupted run with the same seed, for BC and IQL here (PPO and DQN in
test_train_rl_resume.py, LoRA in test_train_lora.py); a checkpoint of another run is
refused in one line; a device this machine lacks is one line, exit 2."""

from __future__ import annotations

import dataclasses
import json

import pytest

torch = pytest.importorskip("torch", reason="training tests need the train extra (torch)")

from typer.testing import CliRunner  # noqa: E402

from bmoca import tasks  # noqa: E402
from bmoca.cli.main import app  # noqa: E402
from bmoca.demos.generate import generate  # noqa: E402
from bmoca.train import TrainError, bc, iql  # noqa: E402
from bmoca.train.checkpoints import Checkpointing, resolve_device  # noqa: E402
from bmoca.train.datasets import StepDataset  # noqa: E402

torch.set_num_threads(1)


class Interrupted(Exception):
    """Stands for the kill: raised by a step hook after the checkpoint was written."""


def interrupt_after(steps: int):
    def hook(step: int, *_args) -> None:
        if step + 1 == steps:
            raise Interrupted
    return hook


def assert_same_weights(a: torch.nn.Module, b: torch.nn.Module) -> None:
    one, two = a.state_dict(), b.state_dict()
    assert one.keys() == two.keys()
    for key in one:
        assert torch.equal(one[key], two[key]), key


@pytest.fixture(scope="module")
def demo_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("resume") / "demos"
    summary = generate(out, [tasks.get("settings/turn_on_wifi"), tasks.get("settings/turn_off_wifi")],
                       ["train_env_000", "train_env_001"], screen_width=270)
    assert summary.kept == 4, summary.failures
    return out


@pytest.fixture(scope="module")
def data(demo_dir):
    return StepDataset(demo_dir)


def test_bc_interrupted_and_resumed_ends_as_an_uninterrupted_run(data, tmp_path):
    settings = bc.Settings(steps=6, batch_size=4, lr=1e-3, restart_every=4, seed=3)
    straight, straight_result = bc.train(data, settings)
    saving = Checkpointing(tmp_path / "bc.pt.ckpt", every=2, spec={"trainer": "bc"})
    with pytest.raises(Interrupted):
        bc.train(data, settings, checkpointing=saving, on_step=interrupt_after(5))
    assert torch.load(saving.path, weights_only=True)["step"] == 4  # the last one before
    resumed, result = bc.train(data, settings,
                               checkpointing=dataclasses.replace(saving, resume=True))
    assert result.losses == straight_result.losses and len(result.losses) == 6
    assert_same_weights(resumed, straight)
    other = bc.train(data, dataclasses.replace(settings, seed=4))[0]
    assert not torch.equal(other.head[-1].weight, straight.head[-1].weight)  # it can fail


def test_bc_with_worker_processes_and_cpu_mixed_precision(data, tmp_path):
    settings = bc.Settings(steps=3, batch_size=4, seed=1)
    alone = bc.train(data, settings)[0]
    assert_same_weights(bc.train(data, dataclasses.replace(settings, workers=2))[0], alone)
    amp = dataclasses.replace(settings, amp=True)  # bfloat16 autocast on the CPU
    mixed, result = bc.train(data, amp)
    assert all(loss == loss for loss in result.losses)
    assert not torch.equal(mixed.head[-1].weight, alone.head[-1].weight)  # it rounds
    saving = Checkpointing(tmp_path / "amp.ckpt", every=1, spec={"trainer": "bc"})
    with pytest.raises(Interrupted):
        bc.train(data, amp, checkpointing=saving, on_step=interrupt_after(2))
    resumed = bc.train(data, amp, checkpointing=dataclasses.replace(saving, resume=True))[0]
    assert_same_weights(resumed, mixed)


def test_iql_interrupted_and_resumed_ends_as_an_uninterrupted_run(data, tmp_path):
    settings = iql.IQLSettings(steps=5, batch_size=4, seed=2)
    straight, history = iql.train(data, settings)
    saving = Checkpointing(tmp_path / "iql.ckpt", every=2, spec={"trainer": "iql"})
    with pytest.raises(Interrupted):
        iql.train(data, settings, checkpointing=saving, on_step=interrupt_after(3))
    resumed, again = iql.train(data, dataclasses.replace(settings, workers=2),
                               checkpointing=dataclasses.replace(saving, resume=True))
    assert_same_weights(resumed, straight)
    assert [r["actor_loss"] for r in again] == [r["actor_loss"] for r in history]


def test_cli_resume_continues_from_the_checkpoint_and_refuses_another_runs(demo_dir, tmp_path):
    runner = CliRunner()
    for trainer in ("bc", "iql"):
        out = tmp_path / f"{trainer}.pt"
        args = ["train", trainer, "--data", str(demo_dir), "--out", str(out), "--steps", "5",
                "--batch-size", "4", "--checkpoint-every", "2"]
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
        ckpt = tmp_path / f"{trainer}.pt.ckpt"
        assert ckpt.is_file() and torch.load(ckpt, weights_only=True)["step"] == 4
        straight = bc.load(out)
        out.unlink()
        result = runner.invoke(app, [*args, "--resume"])  # steps 5 from the checkpoint at 4
        assert result.exit_code == 0, result.output
        assert json.loads(result.output.strip().splitlines()[-1])["checkpoint"] == str(out)
        assert_same_weights(bc.load(out), straight)
        refused = runner.invoke(app, [*args, "--resume", "--seed", "1"])
        assert refused.exit_code == 2, refused.output
        line = refused.output.strip().splitlines()[-1]
        assert line.startswith("error: --resume: ") and "(seed 0 there, 1 here)" in line
    nothing = runner.invoke(app, ["train", "bc", "--data", str(demo_dir), "--out",
                                  str(tmp_path / "new.pt"), "--resume"])
    assert nothing.exit_code == 2 and "no checkpoint at" in nothing.output


def test_devices_are_checked_before_training(demo_dir, tmp_path):
    assert resolve_device("auto").type in ("cuda", "mps", "cpu")
    assert resolve_device("CPU") == torch.device("cpu")
    for trainer in ("bc", "iql", "ppo", "dqn", "filtered-bc"):
        source = ["--data", str(demo_dir)] if trainer in ("bc", "iql") else []
        result = CliRunner().invoke(app, ["train", trainer, *source, "--out",
                                          str(tmp_path / "x.pt"), "--device", "gpu0"])
        assert result.exit_code == 2, result.output
        assert "unknown device 'gpu0'; choose one of cpu, cuda, cuda:N, mps, auto" in \
            " ".join(result.output.split())
    if not torch.cuda.is_available():
        with pytest.raises(TrainError, match="cuda"):
            resolve_device("cuda:1")
        result = CliRunner().invoke(app, ["train", "iql", "--data", str(demo_dir), "--out",
                                          str(tmp_path / "x.pt"), "--steps", "1", "--device",
                                          "cuda"])
        assert result.exit_code == 2 and "--device cuda:" in result.output
        assert len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "x.pt").exists()

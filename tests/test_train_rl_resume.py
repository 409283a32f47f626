"""PPO and double DQN runs that survive: interrupted after a checkpoint and resumed (the
phones' episodes replayed, the counters, generators and replay memory restored), they end
with exactly the weights and the curve of an uninterrupted run with the same seed."""

from __future__ import annotations

import dataclasses
import io
import json

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("stable_baselines3")

from typer.testing import CliRunner  # noqa: E402

from bmoca.cli.main import app  # noqa: E402
from bmoca.train import bc, rl  # noqa: E402
from bmoca.train.checkpoints import Checkpointing  # noqa: E402
from bmoca.train.models import build_policy, new_config  # noqa: E402

torch.set_num_threads(1)
TIMING = ("seconds", "env_steps_per_s")


class Interrupted(Exception):
    """Stands for the kill, raised when a curve row comes in."""


def _stop_at(iteration: int):
    def on_row(row: dict) -> None:
        if row["iteration"] == iteration:
            raise Interrupted
    return on_row


def _untimed(curve: list[dict]) -> list[str]:
    """The rows less their timings, as JSON (NaN, an evaluation on no configuration, is
    then equal to itself)."""
    return [json.dumps({k: v for k, v in row.items() if k not in TIMING}) for row in curve]


def _same_weights(a: torch.nn.Module, b: torch.nn.Module) -> bool:
    one, two = a.state_dict(), b.state_dict()
    return one.keys() == two.keys() and all(torch.equal(one[k], two[k]) for k in one)


@pytest.mark.parametrize("algo, options, stop", [
    ("ppo", {"rollout_steps": 3, "batch_size": 6, "epochs": 2, "timesteps": 60}, 5),
    ("dqn", {"rollout_steps": 5, "batch_size": 8, "timesteps": 90, "horizon": 4}, 8),
    ("ppo", {"rollout_steps": 3, "batch_size": 6, "epochs": 2, "timesteps": 60,
             "lr_schedule": "linear", "lr": 1e-3}, 5),  # the decay resumes where it was
])
def test_interrupted_and_resumed_run_ends_as_an_uninterrupted_one(algo, options, stop,
                                                                  tmp_path):
    torch.manual_seed(0)
    network = build_policy(new_config())
    settings = rl.RLSettings(algo=algo, task="gmail/open_Gmail",
                             configs=["train_env_000", "train_env_001"], envs=2,
                             eval_every=0, seed=5, **options)
    straight, curve = rl.train(network, settings)
    saving = Checkpointing(tmp_path / f"{algo}.pt.ckpt", every=2, spec={"trainer": algo})
    with pytest.raises(Interrupted):
        rl.train(network, settings, checkpointing=saving, on_row=_stop_at(stop))
    saved = torch.load(saving.path, weights_only=True)
    assert saved["step"] == stop - 1 if stop % 2 else stop - 2  # the last even iteration
    if algo == "ppo":  # 3 steps a rollout, 5 an episode: the phones were mid-episode
        assert any(env["actions"] for env in saved["model"]["envs"])
    resumed, again = rl.train(network, settings,
                              checkpointing=dataclasses.replace(saving, resume=True))
    assert _same_weights(resumed, straight)
    assert _untimed(again) == _untimed(curve) and len(curve) >= stop
    other = rl.train(network, dataclasses.replace(settings, seed=6))[0]
    assert not _same_weights(other, straight)  # the comparison can fail


def test_the_critic_warms_up_alone_then_the_actor_learns(tmp_path):
    """`critic_warmup` rollouts move the critic (its own copy of the BC backbone) and leave
    the actor, the KL term's hook included, exactly as cloned; after them the actor learns,
    and a run resumed inside the warm-up ends as an uninterrupted one."""
    torch.manual_seed(0)
    network = build_policy(new_config())
    start = network.state_dict()
    settings = rl.RLSettings(task="gmail/open_Gmail", configs=["train_env_000"], envs=1,
                             horizon=4, rollout_steps=4, batch_size=4, epochs=2, timesteps=16,
                             critic_warmup=2, kl_coef=0.1, eval_every=0, seed=3)
    straight, _ = rl.train(network, settings)
    saving = Checkpointing(tmp_path / "warm.pt.ckpt", every=1, spec={"trainer": "ppo"})
    with pytest.raises(Interrupted):  # after the second rollout's update, before the third
        rl.train(network, settings, checkpointing=saving, on_row=_stop_at(3))
    saved = torch.load(saving.path, weights_only=True)
    assert saved["step"] == 2
    policy = saved["model"]["policy"]
    prefix = {"actor": "pi_features_extractor.network.",
              "critic": "vf_features_extractor.network."}
    for side, name in prefix.items():
        same = all(torch.equal(policy[name + k], v) for k, v in start.items())
        assert same == (side == "actor"), side
    assert not _same_weights(straight, network)  # the third and fourth updates move it
    resumed, _ = rl.train(network, settings,
                          checkpointing=dataclasses.replace(saving, resume=True))
    assert _same_weights(resumed, straight)
    with pytest.raises(rl.TrainError, match="--critic-warmup is PPO's"):
        rl.train(network, dataclasses.replace(settings, algo="dqn"))


def test_cli_resume_and_refusal(tmp_path):
    out = tmp_path / "ppo.pt"
    args = ["train", "ppo", "--task", "gmail/open_Gmail", "--configs", "train_env_000",
            "--eval-configs", "none", "--timesteps", "24", "--envs", "1", "--rollout-steps",
            "4", "--eval-every", "0", "--out", str(out), "--checkpoint-every", "2"]
    runner = CliRunner()
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    straight = bc.load(out)
    curve = (tmp_path / "ppo.curve.jsonl").read_text().splitlines()
    assert torch.load(tmp_path / "ppo.pt.ckpt", weights_only=True)["step"] == 4
    out.unlink()
    result = runner.invoke(app, [*args, "--resume"])  # the 6th rollout from the checkpoint
    assert result.exit_code == 0, result.output
    assert _same_weights(bc.load(out), straight)
    rows = [json.loads(r) for r in (tmp_path / "ppo.curve.jsonl").read_text().splitlines()]
    assert _untimed(rows) == _untimed([json.loads(r) for r in curve])
    refused = runner.invoke(app, [*args, "--resume", "--task", "gmail/open_Gmail", "--lr",
                                  "0.1"])
    assert refused.exit_code == 2
    # a fresh policy's run: PPO's from-scratch learning rate (rl.FROM_SCRATCH), 1e-3
    assert "error: --resume:" in refused.output and "(lr 0.001 there, 0.1 here)" in \
        refused.output.replace("\n", " ")
    dqn = runner.invoke(app, ["train", "dqn", *args[2:], "--resume"])
    assert dqn.exit_code == 2 and "(algo 'ppo' there, 'dqn' here)" in dqn.output


def test_the_split_replay_memory_comes_back_with_its_episodes_in_flight():
    import gymnasium
    import numpy as np

    from bmoca.train.buffers import split_replay_buffer
    from bmoca.train.rl_resume import replay_state, restore_replay

    space = gymnasium.spaces.Box(0, 255, (2,), np.uint8)

    def fresh():
        return split_replay_buffer()(50, space, gymnasium.spaces.Discrete(385), device="cpu",
                                     n_envs=2, success_fraction=0.25)

    buffer = fresh()
    for t in range(3):  # env 0 wins at its third step; env 1's episode is still running
        obs = np.full((2, 2), t, np.uint8)
        infos = [{"is_success": t == 2}, {"is_success": False, "TimeLimit.truncated": t == 1}]
        buffer.add(obs, obs + 1, np.full((2, 1), t), np.array([t, -t], np.float32),
                   np.array([t == 2, False]), infos)
    file = io.BytesIO()
    torch.save(replay_state(buffer), file)
    file.seek(0)
    saved = torch.load(file, weights_only=True)  # plain values and tensors only
    copy = fresh()
    restore_replay(copy, saved)
    assert copy.successes.size() == 3 and copy.failures.size() == 0
    for name in ("observations", "next_observations", "actions", "rewards", "dones"):
        assert np.array_equal(getattr(copy.successes, name), getattr(buffer.successes, name))
    assert len(copy.pending[1]) == 3 and not copy.pending[0]
    done = np.array([False, True])
    for target in (buffer, copy):  # env 1 now loses: its transitions go to the failures
        target.add(np.zeros((2, 2), np.uint8), np.zeros((2, 2), np.uint8), np.zeros((2, 1)),
                   np.zeros(2, np.float32), done, [{}, {"is_success": False}])
    for name in ("observations", "rewards", "timeouts"):
        assert np.array_equal(getattr(copy.failures, name), getattr(buffer.failures, name))
    assert copy.failures.size() == 4 and copy.failures.timeouts[1].item() == 1.0

"""RL over several tasks (`bmoca train ppo|dqn --task settings`): episodes that draw their
task, goal-conditioned observations, shaping from sub-goal progress that leaves the
discounted return unchanged, the KL and BC terms that keep PPO near the BC policy, DQN
from demonstrations (DQfD), and runs with all of it that resume bit for bit."""

from __future__ import annotations

import dataclasses
import json

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("stable_baselines3")

from agent_steps import replay_rewards  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from bmoca import tasks  # noqa: E402
from bmoca.cli.main import app  # noqa: E402
from bmoca.train import rl  # noqa: E402
from bmoca.train.checkpoints import Checkpointing  # noqa: E402
from bmoca.train.datasets import StepDataset, to_tensor  # noqa: E402
from bmoca.train.models import build_policy, new_config  # noqa: E402
from bmoca.train.rl_demos import Demonstrations  # noqa: E402
from bmoca.train.rl_env import TaskEnv  # noqa: E402
from bmoca.train.rl_regularize import margin_loss  # noqa: E402

torch.set_num_threads(1)
OPEN, WIFI = "settings/open_the_setting_app", "settings/turn_on_wifi"
TWO = f"{OPEN},{WIFI}"
CONFIGS = ["train_env_000", "train_env_001"]


@pytest.fixture(scope="module")
def demos(tmp_path_factory):
    out = tmp_path_factory.mktemp("demos")
    result = CliRunner().invoke(app, ["demos", "generate", "--tasks", TWO, "--configs",
                                      ",".join(CONFIGS), "--play", "discrete", "--out",
                                      str(out), "--screen-width", "128"])
    assert result.exit_code == 0, result.output
    return out


def test_each_episode_draws_its_task_and_observes_its_index():
    drawn = []
    for _ in range(2):
        env = TaskEnv([OPEN, WIFI], ["train_env_000"], horizon=0, goal_observation=True,
                      seed=3)
        episodes = []
        for _ in range(6):
            observation, info = env.reset()
            assert observation["pixels"].shape == (256, 128, 3)
            assert env.goals[observation["task"]] == tasks.get(info["task"]).goal
            episodes.append(info["task"])
        drawn.append(episodes)
        for task in (OPEN, WIFI):  # horizon 0: each task's own step limit
            env.reset(options={"task": [OPEN, WIFI].index(task)})
            steps, truncated = 0, False
            while not truncated:
                _, _, terminated, truncated, info = env.step(0)
                steps += 1
                assert not terminated
            assert steps == tasks.get(task).step_limit and info["task"] == task
        env.close()
    assert drawn[0] == drawn[1] and set(drawn[0]) == {OPEN, WIFI}


@pytest.mark.parametrize("gamma", [1.0, 0.9])
def test_progress_shaping_pays_sub_goals_and_keeps_the_discounted_return(demos, gamma):
    data = StepDataset(demos)
    for demo in data.dataset.episodes:
        env = TaskEnv(demo.task_id, [demo.config_id], horizon=20, shaping="progress",
                      gamma=gamma)
        rewards, terminated, info = replay_rewards(env, demo.steps)
        env.close()
        assert info["is_success"] and terminated
        # potential-based: the shaped discounted return is the sparse one, gamma^(T-1)
        shaped = sum(gamma ** t * r for t, r in enumerate(rewards))
        assert shaped == pytest.approx(gamma ** (len(rewards) - 1)), demo.task_id
        if demo.task_id == WIFI:  # sub-goals before success are paid on the way
            assert max(rewards[:-1]) > 0


def test_a_step_that_makes_no_progress_costs_its_discounted_potential(demos):
    demo = next(d for d in StepDataset(demos).dataset.episodes if d.task_id == WIFI)
    env = TaskEnv(WIFI, [demo.config_id], horizon=20, shaping="progress", gamma=0.9)
    env.reset()
    potential = 0.0
    for step in demo.steps[:-1]:  # all but the success: r = 0.9 * phi' - phi
        potential = (env.step(step.discrete)[1] + potential) / 0.9
    assert potential > 0  # the path so far met sub-goals
    reward = env.step(0)[1]  # a tap in the top corner: no sub-goal of the expert's
    assert reward == pytest.approx(-0.1 * potential)
    env.close()


def test_demonstrations_are_transitions_in_the_buffers_form(demos):
    goals = [tasks.get(OPEN).goal, tasks.get(WIFI).goal]
    one = Demonstrations(demos, [OPEN, WIFI], goals, seed=1)
    assert len(one) == len(one.data)
    batch = one.sample(16)
    assert batch.observations["pixels"].shape == (16, 3, 256, 128)
    assert batch.observations["pixels"].dtype == torch.uint8
    assert set(batch.observations["task"].flatten().tolist()) <= {0, 1}
    assert torch.equal(batch.rewards, batch.dones)  # every demonstration ends in success
    again = Demonstrations(demos, [OPEN, WIFI], goals, seed=1).sample(16)
    assert torch.equal(again.actions, batch.actions)  # seeded
    only = Demonstrations(demos, [WIFI], goals[1:], seed=1)
    assert set(only.sample(16).observations["task"].flatten().tolist()) == {0}


def test_the_margin_loss_is_zero_once_the_expert_leads_by_the_margin():
    expert = torch.tensor([[0], [1]])
    leading = torch.tensor([[1.0, 0.0, 0.1], [0.0, 1.0, 0.1]])  # by 0.9 in both rows
    assert margin_loss(leading, expert, 0.8).item() == pytest.approx(0.0)
    assert margin_loss(leading, expert, 1.0).item() == pytest.approx(0.1)
    close = torch.tensor([[1.0, 0.0, 0.1], [0.0, 0.5, 0.45]])  # the second by 0.05 only
    assert margin_loss(close, expert, 0.8).item() == pytest.approx((0.0 + 0.75) / 2)


def _expert_steps(demos) -> tuple[torch.Tensor, list[str], torch.Tensor]:
    """Every demonstration step: screens, goals and the expert's actions."""
    data = StepDataset(demos)
    pixels = torch.stack([to_tensor(data.pixels(i)) for i in range(len(data))])
    return (pixels, [item[2] for item in data.items],
            torch.tensor([item[3] for item in data.items]))


def _expert_loss(network, demos) -> float:
    """The cross-entropy of the expert's actions under the network, over every step."""
    pixels, goals, actions = _expert_steps(demos)
    with torch.no_grad():
        return float(torch.nn.functional.cross_entropy(network(pixels, goals), actions))


def _kl(start, tuned, demos) -> float:
    data = StepDataset(demos)
    pixels = torch.stack([to_tensor(data.pixels(i)) for i in range(len(data))])
    goals = [item[2] for item in data.items]
    with torch.no_grad():
        p = torch.log_softmax(start(pixels, goals), 1)
        q = torch.log_softmax(tuned(pixels, goals), 1)
    return float((p.exp() * (p - q)).sum(1).mean())


def test_the_kl_and_bc_terms_pull_ppo_toward_bc_and_the_demonstrations(demos):
    torch.manual_seed(0)
    start = build_policy(new_config()).eval()
    settings = rl.RLSettings(algo="ppo", task=TWO, configs=["train_env_000"], envs=1,
                             timesteps=32, rollout_steps=8, batch_size=8, epochs=2, lr=3e-3,
                             eval_every=0, demos=str(demos), seed=0)
    free = rl.train(start, settings)[0]
    near = rl.train(start, dataclasses.replace(settings, kl_coef=20.0))[0]
    cloned = rl.train(start, dataclasses.replace(settings, bc_coef=5.0))[0]
    assert _kl(start, near, demos) < _kl(start, free, demos) / 2
    assert _expert_loss(cloned, demos) < min(_expert_loss(free, demos),
                                             _expert_loss(start, demos)) - 0.5


def test_dqn_from_demonstrations_moves_toward_the_experts_actions(demos):
    torch.manual_seed(0)
    start = build_policy(new_config()).eval()
    settings = rl.RLSettings(algo="dqn", task=TWO, configs=["train_env_000"], envs=2,
                             timesteps=110, horizon=2, batch_size=16, lr=1e-3, eval_every=0,
                             seed=0)
    plain = rl.train(start, settings)[0]
    dqfd = rl.train(start, dataclasses.replace(settings, demos=str(demos), demo_fraction=0.5,
                                               margin_coef=5.0))[0]
    assert _expert_loss(dqfd, demos) < min(_expert_loss(plain, demos),
                                           _expert_loss(start, demos))


def _expert_share(network, demos) -> float:
    """The share of demonstration steps where the expert's action is the network's argmax."""
    pixels, goals, actions = _expert_steps(demos)
    with torch.no_grad():
        return float((network(pixels, goals).argmax(1) == actions).float().mean())


def test_dqfd_pretraining_puts_the_experts_actions_first_before_any_episode(demos):
    torch.manual_seed(0)
    start = build_policy(new_config()).eval()
    settings = rl.RLSettings(algo="dqn", task=TWO, configs=["train_env_000"], envs=1,
                             timesteps=4, horizon=2, batch_size=16, lr=1e-3, eval_every=0,
                             seed=0, demos=str(demos))  # 4 steps: no update from the phone
    untouched = rl.train(start, settings)[0]
    assert _expert_share(untouched, demos) == _expert_share(start, demos) < 0.2
    pretrained = rl.train(start, dataclasses.replace(settings, pretrain_steps=80))[0]
    assert _expert_share(pretrained, demos) > 0.6  # from under 0.2
    with pytest.raises(rl.TrainError, match="--pretrain-steps is DQfD's"):
        rl.train(start, dataclasses.replace(settings, pretrain_steps=5, demos=None))


def test_the_cli_trains_on_several_tasks_with_every_option(demos, tmp_path):
    out = tmp_path / "ppo.pt"
    result = CliRunner().invoke(app, [
        "train", "ppo", "--task", TWO, "--out", str(out), "--configs", "train_env_000",
        "--eval-configs", "train_env_001", "--horizon", "task", "--shaping", "progress",
        "--kl-coef", "0.1", "--bc-coef", "0.1", "--demos", str(demos), "--timesteps", "16",
        "--envs", "1", "--rollout-steps", "8", "--eval-every", "0", "--threads", "1"])
    assert result.exit_code == 0, result.output
    saved = torch.load(out, weights_only=True)["extra"]
    assert saved["rl"]["task"] == TWO and saved["rl"]["horizon"] == 0
    assert saved["rl"]["shaping"] == "progress" and saved["rl"]["bc_coef"] == 0.1
    last = saved["curve"][-1]
    assert last["timesteps"] == 16 and 0 <= last["greedy_eval"] <= 1
    run = tmp_path / "run"
    result = CliRunner().invoke(app, ["eval", "--agent", f"ppo:{out}", "--tasks", TWO,
                                      "--configs", "test_env_100", "--repeats", "1",
                                      "--run-dir", str(run)])
    assert result.exit_code == 0, result.output
    bad = CliRunner().invoke(app, ["train", "ppo", "--task", TWO, "--out", str(out),
                                   "--horizon", "0"])
    assert bad.exit_code == 2 and "neither a positive number of steps nor 'task'" in bad.output
    bad = CliRunner().invoke(app, ["train", "ppo", "--task", TWO, "--out", str(out),
                                   "--bc-coef", "1", "--timesteps", "4"])
    assert bad.exit_code == 2 and "--bc-coef needs demonstrations" in bad.output
    bad = CliRunner().invoke(app, ["train", "dqn", "--task", TWO, "--out", str(out),
                                   "--shaping", "sometimes", "--timesteps", "4"])
    assert bad.exit_code == 2 and "unknown shaping 'sometimes'" in bad.output


class Interrupted(Exception):
    """Stands for the kill, raised when a curve row comes in."""


@pytest.mark.parametrize("algo, options", [
    ("ppo", {"rollout_steps": 3, "batch_size": 6, "epochs": 2, "timesteps": 36,
             "bc_coef": 0.5, "kl_coef": 0.5}),
    ("dqn", {"rollout_steps": 5, "batch_size": 8, "timesteps": 80, "horizon": 4,
             "pretrain_steps": 6}),  # pre-trained once, not again on resuming
])
def test_a_multi_task_run_with_demonstrations_resumes_bit_for_bit(demos, tmp_path, algo,
                                                                  options):
    torch.manual_seed(0)
    network = build_policy(new_config())
    settings = rl.RLSettings(algo=algo, task=TWO, configs=CONFIGS, envs=2, eval_every=0,
                             seed=5, shaping="progress", demos=str(demos), **options)
    straight, curve = rl.train(network, settings)
    saving = Checkpointing(tmp_path / f"{algo}.pt.ckpt", every=2, spec={"trainer": algo})

    def stop(row: dict) -> None:
        if row["iteration"] == 3:
            raise Interrupted

    with pytest.raises(Interrupted):
        rl.train(network, settings, checkpointing=saving, on_row=stop)
    assert torch.load(saving.path, weights_only=True)["step"] == 2
    resumed, again = rl.train(network, settings,
                              checkpointing=dataclasses.replace(saving, resume=True))
    one, two = resumed.state_dict(), straight.state_dict()
    assert all(torch.equal(one[k], two[k]) for k in one)
    timing = ("seconds", "env_steps_per_s")
    assert [json.dumps({k: v for k, v in r.items() if k not in timing}) for r in again] == \
        [json.dumps({k: v for k, v in r.items() if k not in timing}) for r in curve]

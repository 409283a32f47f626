"""RL (`bmoca train ppo|dqn|iql`): the task environment, the paper's reward shaping along
the expert's path, PPO and double DQN starting from exactly the BC policy, offline IQL on
demonstrations, and the tuned checkpoints inside `bmoca eval`."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("stable_baselines3")

from agent_steps import replay_rewards  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from bmoca import configs  # noqa: E402
from bmoca.cli.main import app  # noqa: E402
from bmoca.demos import load  # noqa: E402
from bmoca.train import bc, rl  # noqa: E402
from bmoca.train.models import build_policy  # noqa: E402
from bmoca.train.rl_env import TaskEnv, screen_state  # noqa: E402


@pytest.fixture(scope="module")
def demos(tmp_path_factory):
    out = tmp_path_factory.mktemp("demos")
    result = CliRunner().invoke(app, ["demos", "generate", "--tasks", "phone/call_911",
                                      "--configs", "train_env_000,test_env_100", "--out",
                                      str(out), "--screen-width", "128"])
    assert result.exit_code == 0, result.output
    return load(out)


def test_shaping_pays_i_over_n_along_the_experts_path(demos):
    for demo in demos.episodes:
        env = TaskEnv(demo.task_id, [demo.config_id], horizon=20, shaping=True)
        rewards, terminated, info = replay_rewards(env, demo.steps)
        n = len(rewards)
        assert rewards == pytest.approx([(i + 1) / n for i in range(n)]), demo.config_id
        assert info["is_success"] and terminated
        env.close()


@pytest.mark.parametrize("route", ["launcher", "shade"])
def test_a_multi_task_run_pays_each_task_along_its_own_experts_path(tmp_path, route):
    """The path is the expert's of the episode's task, by the route its demos took."""
    out = tmp_path / "two"
    result = CliRunner().invoke(app, ["demos", "generate", "--tasks",
                                      "phone/call_911,settings/turn_on_wifi", "--configs",
                                      "train_env_000", "--out", str(out), "--screen-width",
                                      "128", "--route", route])
    assert result.exit_code == 0, result.output
    episodes = load(out).episodes
    for order in (episodes, episodes[::-1]):  # each task after the other, both ways round
        env = TaskEnv([demo.task_id for demo in order], ["train_env_000"], horizon=20,
                      shaping="path", route=route)
        for index, demo in enumerate(order):
            env.reset(options={"task": index, "config": "train_env_000"})
            rewards = [env.step(step.discrete)[1] for step in demo.steps]
            n = len(rewards)
            assert rewards == pytest.approx([(i + 1) / n for i in range(n)]), demo.task_id
        env.close()


def test_a_step_off_the_path_costs_the_off_path_reward(demos):
    demo = demos.episodes[0]
    env = TaskEnv(demo.task_id, [demo.config_id], horizon=5, shaping=True,
                  off_path_reward=-1.0)
    env.reset()
    _, reward, *_ = env.step(demo.steps[0].discrete)
    assert reward > 0
    _, reward, *_ = env.step(demo.steps[0].discrete)  # the same tap again: no new progress
    assert reward == -1.0
    env.close()


def test_episodes_end_at_the_horizon_and_configurations_follow_the_seed():
    ids = ["train_env_000", "train_env_001", "train_env_002"]
    drawn = []
    for _ in range(2):
        env = TaskEnv("gmail/open_Gmail", ids, horizon=3, seed=7)
        drawn.append([env.reset()[1]["config"] for _ in range(6)])
        for _ in range(3):
            obs, reward, terminated, truncated, info = env.step(0)
        assert obs.shape == (256, 128, 3) and truncated and not info["is_success"]
        env.close()
    assert drawn[0] == drawn[1] and len(set(drawn[0])) > 1


def test_the_screen_state_depends_on_the_screen_not_on_the_path(device):
    home = screen_state(device.dump_hierarchy())
    device.shell("sleep 120")  # time passes, the screen stays
    assert screen_state(device.dump_hierarchy()) == home
    device.shell("am start -n com.android.settings/.Settings")
    settings = screen_state(device.dump_hierarchy())
    assert settings != home
    device.press("HOME")
    device.shell("monkey -p com.android.settings 1")  # the same screen by another way
    assert screen_state(device.dump_hierarchy()) == settings


@pytest.mark.parametrize("algo", ["ppo", "dqn"])
@pytest.mark.parametrize("grid_taps", [False, True], ids=["pooled", "grid-taps"])
def test_rl_starts_from_the_bc_policy_itself(algo, grid_taps):
    torch.manual_seed(0)
    network = build_policy({"arch": "small", "grid_taps": grid_taps}).eval()
    settings = rl.RLSettings(algo=algo, task="gmail/open_Gmail", configs=["train_env_000"])
    vec = _vec("gmail/open_Gmail")
    model, tuned = rl.make_model(network, settings, vec, "Open Gmail")
    if algo == "dqn":  # E.1's success and failure buffers by default
        assert type(model.replay_buffer).__name__ == "SuccessFailureReplayBuffer"
    else:  # the critic trains its own copy of the backbone (§6.7), not the actor's features
        assert model.policy.vf_features_extractor is not model.policy.pi_features_extractor
    observation = vec.reset()
    pixels = torch.as_tensor(observation).permute(0, 3, 1, 2).float() / 255
    with torch.no_grad():
        expected = network(pixels, ["Open Gmail"])
        obs_tensor = model.policy.obs_to_tensor(observation)[0]
        if algo == "ppo":
            got = model.policy.get_distribution(obs_tensor).distribution.logits
        else:  # Q = V + log pi with V = 0 at the start: greedy DQN is the BC policy
            got = model.policy.q_net(obs_tensor)
    assert torch.allclose(got, torch.log_softmax(expected, -1), atol=1e-5)
    assert tuned() is not network  # training changes a copy, never the caller's network
    vec.close()


def test_ppo_cli_writes_a_checkpoint_and_curve_that_eval_runs(tmp_path):
    out = tmp_path / "ppo.pt"
    result = CliRunner().invoke(app, [
        "train", "ppo", "--out", str(out), "--configs", "train_env_000,train_env_001",
        "--eval-configs", "test_env_100", "--timesteps", "40", "--envs", "2",
        "--rollout-steps", "10", "--eval-every", "2", "--threads", "1"])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in out.with_suffix(".curve.jsonl").read_text().splitlines()]
    assert [r["iteration"] for r in rows] == list(range(len(rows)))
    assert rows[0]["timesteps"] == 0 and "greedy_train" in rows[0]  # the BC starting point
    assert rows[-1]["timesteps"] == 40 and "greedy_eval" in rows[-1]
    assert all(r["episodes"] > 0 and 0 <= r["success_rate"] <= 1 for r in rows[1:])
    saved = torch.load(out, weights_only=True)
    assert saved["extra"]["algo"] == "ppo" and saved["extra"]["curve"] == rows
    bc.load(out)
    run = tmp_path / "run"
    result = CliRunner().invoke(app, ["eval", "--agent", f"ppo:{out}", "--tasks",
                                      "gmail/open_Gmail", "--configs", "test_env_100",
                                      "--repeats", "1", "--run-dir", str(run)])
    assert result.exit_code == 0, result.output
    assert (run / "results.sqlite").is_file() and "ppo:" in result.output
    # the report finds the curve beside the checkpoint the run evaluated
    result = CliRunner().invoke(app, ["report", str(run)])
    assert result.exit_code == 0, result.output
    md = (run / "report" / "report.md").read_text()
    assert "## Learning curves" in md and f"{len(rows) - 1} iterations, 40 environment steps" in md
    assert (run / "report" / "plots" / "curve_ppo.png").is_file()


def test_the_curve_measures_the_first_n_training_configurations(monkeypatch):
    """A run over hundreds of drawn configurations evaluates a few of them, not all."""
    measured = []
    real = rl.greedy_success

    def recording(network, task, config_ids, horizon):
        measured.append(list(config_ids))
        return real(network, task, config_ids, horizon)

    monkeypatch.setattr(rl, "greedy_success", recording)
    ids = configs.expand("random_train_0..5")
    settings = rl.RLSettings(task="gmail/open_Gmail", configs=ids, eval_configs=[],
                             timesteps=20, envs=1, rollout_steps=10, batch_size=10,
                             eval_every=1, greedy_train_configs=2)
    _, curve = rl.train(build_policy({"arch": "small"}), settings)
    assert [row["timesteps"] for row in curve] == [0, 10, 20]
    assert measured[0::2] == [ids[:2]] * 3 and measured[1::2] == [[]] * 3
    assert all(row["greedy_train"] in (0.0, 0.5, 1.0) for row in curve)


def test_dqn_draws_a_quarter_of_each_batch_from_successful_episodes():
    import gymnasium

    from bmoca.train.buffers import split_replay_buffer

    space = gymnasium.spaces.Box(0, 255, (2,), np.uint8)
    buffer = split_replay_buffer()(100, space, gymnasium.spaces.Discrete(385), device="cpu",
                                   n_envs=2, success_fraction=0.25)

    def step(reward: tuple[float, float], done: tuple[bool, bool], won: bool = False) -> None:
        obs = np.zeros((2, 2), np.uint8)
        buffer.add(obs, obs, np.zeros((2, 1)), np.array(reward, np.float32), np.array(done),
                   [{"is_success": won}, {"is_success": False}])

    step((1.0, 0.0), (False, False))
    assert buffer.size() == 0  # an episode's transitions wait for its end
    with pytest.raises(ValueError, match="no finished episode"):
        buffer.sample(8)
    step((1.0, 0.0), (True, True), won=True)  # env 0 won its episode, env 1 lost
    assert (buffer.successes.size(), buffer.failures.size()) == (2, 2)
    rewards = buffer.sample(8).rewards.flatten().tolist()
    assert sorted(rewards) == [0.0] * 6 + [1.0] * 2
    plain = rl.make_model(build_policy({"arch": "small"}), rl.RLSettings(
        algo="dqn", success_fraction=0.0), _vec("gmail/open_Gmail"), "Open Gmail")[0]
    assert type(plain.replay_buffer).__name__ == "ReplayBuffer"


def _vec(task: str):
    from stable_baselines3.common.vec_env import DummyVecEnv

    return DummyVecEnv([lambda: TaskEnv(task, ["train_env_000"])])


def test_dqn_cli_trains_with_the_split_buffer(tmp_path):
    out = tmp_path / "dqn.pt"
    result = CliRunner().invoke(app, [
        "train", "dqn", "--out", str(out), "--configs", "train_env_000,train_env_001",
        "--eval-configs", "none", "--timesteps", "80", "--envs", "2", "--rollout-steps", "10",
        "--eval-every", "0", "--threads", "1", "--exploration", "0.05"])
    assert result.exit_code == 0, result.output
    saved = torch.load(out, weights_only=True)
    assert saved["extra"]["rl"]["success_fraction"] == 0.25
    assert saved["extra"]["rl"]["exploration"] == 0.05  # ε as asked (E.1's 0.1 otherwise)
    assert saved["extra"]["curve"][-1]["timesteps"] == 80


def test_bad_rl_input_is_one_clear_error(tmp_path):
    result = CliRunner().invoke(app, ["train", "dqn", "--out", str(tmp_path / "x.pt"),
                                      "--configs", "train_env_999"])
    assert result.exit_code == 2 and "unknown configuration 'train_env_999'" in result.output
    result = CliRunner().invoke(app, ["train", "ppo", "--out", str(tmp_path / "x.pt"),
                                      "--task", "gmail/nope"])
    assert result.exit_code == 2 and "'gmail/nope' names no task" in result.output
    result = CliRunner().invoke(app, ["train", "ppo", "--out", str(tmp_path / "x.pt"),
                                      "--critic", "both", "--timesteps", "10"])
    assert result.exit_code == 2
    assert "unknown critic 'both'; use one of ('separate', 'shared')" in result.output
    result = CliRunner().invoke(app, ["train", "ppo", "--out", str(tmp_path / "x.pt"),
                                      "--lr-schedule", "cubic", "--timesteps", "10"])
    assert result.exit_code == 2
    assert "unknown learning-rate schedule 'cubic'; use one of ('constant', 'linear')" \
        in result.output
    assert not (tmp_path / "x.pt").exists()


def test_iql_transitions_reward_the_last_step_of_each_demonstration(demos):
    from bmoca.train.datasets import StepDataset
    from bmoca.train.iql import Transitions

    data = StepDataset(demos)
    transitions = Transitions(data)
    assert len(transitions) == len(data)
    for steps in data.demo_steps:
        rows = [r for r in transitions.rows if r[0] in steps]
        assert [r[2] for r in rows] == [0.0] * (len(steps) - 1) + [1.0]
        assert [r[3] for r in rows] == [0.0] * (len(steps) - 1) + [1.0]
        assert [r[1] for r in rows[:-1]] == steps[1:]  # s' is the demonstration's next step


def test_iql_learns_values_and_weights_the_actor(demos, tmp_path):
    from bmoca.train import iql
    from bmoca.train.datasets import StepDataset

    data = StepDataset(demos)
    settings = iql.IQLSettings(steps=20, batch_size=8, lr=1e-3, seed=0)
    actor, history = iql.train(data, settings)
    assert len(history) == 20 and all(np.isfinite(list(r.values())).all() for r in history)
    early = np.mean([r["actor_loss"] for r in history[:3]])
    late = np.mean([r["actor_loss"] for r in history[-3:]])
    assert late < early  # the data's actions grow more likely
    short = dataclasses.replace(settings, steps=3)
    once, _ = iql.train(data, short)
    again, _ = iql.train(data, short)  # seeded: the same data and seed, the same actor
    actor = once
    for a, b in zip(actor.state_dict().values(), again.state_dict().values(), strict=True):
        assert torch.equal(a, b)


def test_iql_cli_writes_a_checkpoint_that_eval_plays(demos, tmp_path):
    out = tmp_path / "iql.pt"
    result = CliRunner().invoke(app, ["train", "iql", "--data", str(demos.path), "--out",
                                      str(out), "--steps", "3", "--batch-size", "4"])
    assert result.exit_code == 0, result.output
    assert torch.load(out, weights_only=True)["extra"]["algo"] == "iql"
    run = tmp_path / "run"
    result = CliRunner().invoke(app, ["eval", "--agent", f"iql:{out}", "--tasks",
                                      "phone/call_911", "--configs", "test_env_100",
                                      "--repeats", "1", "--run-dir", str(run)])
    assert result.exit_code == 0, result.output


def test_ppo_from_scratch_takes_its_own_defaults_and_the_callers_choices():
    scratch = rl.settings_for(True, algo="ppo", lr=None)
    for key, value in rl.FROM_SCRATCH.items():
        assert getattr(scratch, key) == value, key
    assert scratch != rl.RLSettings()
    assert rl.settings_for(False, algo="ppo", lr=None) == rl.RLSettings()  # §6.7's
    assert rl.settings_for(True, algo="dqn") == rl.RLSettings(algo="dqn", lr=1e-4)  # DQN's own
    assert rl.settings_for(True, lr=5e-4, ent_coef=0.0).lr == 5e-4
    assert rl.settings_for(True, lr=5e-4, ent_coef=0.0).ent_coef == 0.0
    model = rl.make_model(build_policy({"arch": "small"}), scratch, _vec("gmail/open_Gmail"),
                          "Open Gmail")[0]
    assert model.normalize_advantage is True and model.ent_coef == scratch.ent_coef
    assert model.n_epochs == scratch.epochs and model.clip_range(1.0) == scratch.clip_range
    assert model.policy.share_features_extractor  # the fresh critic shares the features
    tuned = rl.make_model(build_policy({"arch": "small"}), rl.RLSettings(),
                          _vec("gmail/open_Gmail"), "Open Gmail")[0]
    assert tuned.normalize_advantage is False and tuned.ent_coef == 0.0
    decaying = rl.make_model(build_policy({"arch": "small"}),
                             rl.RLSettings(lr=1e-3, lr_schedule="linear"),
                             _vec("gmail/open_Gmail"), "Open Gmail")[0]
    assert decaying.lr_schedule(1.0) == 1e-3 and decaying.lr_schedule(0.25) == 2.5e-4
    assert decaying.lr_schedule(0.0) == 0.0 and tuned.lr_schedule(0.0) == 2e-4


def test_ppo_cli_from_scratch_and_from_bc_records_the_settings_it_ran(tmp_path):
    common = ["--configs", "train_env_000", "--eval-configs", "none", "--timesteps", "4",
              "--envs", "1", "--rollout-steps", "4", "--eval-every", "0", "--threads", "1"]
    scratch, tuned, init = tmp_path / "scratch.pt", tmp_path / "tuned.pt", tmp_path / "bc.pt"
    result = CliRunner().invoke(app, ["train", "ppo", "--out", str(scratch), *common,
                                      "--raw-advantage", "--ent-coef", "0.02", "--spatial",
                                      "--grid-taps", "--configs", "random_train_0..2"])
    assert result.exit_code == 0, result.output
    fresh = bc.load(scratch)
    assert fresh.spatial is not None and fresh.cells is not None  # as asked
    ran = torch.load(scratch, weights_only=True)["extra"]["rl"]
    assert ran["configs"] == ["random_train_0", "random_train_1", "random_train_2"]
    assert (ran["lr"], ran["epochs"], ran["critic"]) == (
        rl.FROM_SCRATCH["lr"], rl.FROM_SCRATCH["epochs"], rl.FROM_SCRATCH["critic"])
    assert ran["normalize_advantage"] is False and ran["ent_coef"] == 0.02  # as asked
    assert ran["batch_size"] == 4  # never more than a rollout holds
    bc.save(build_policy({"arch": "small"}), init)
    result = CliRunner().invoke(app, ["train", "ppo", "--init", str(init), "--out",
                                      str(tuned), *common, "--configs", "train"])
    assert result.exit_code == 0, result.output
    ran = torch.load(tuned, weights_only=True)["extra"]["rl"]
    assert ran["configs"] == list(configs.ids("train")) and len(ran["configs"]) == 35
    paper = dataclasses.asdict(rl.RLSettings())
    for key in ("lr", "epochs", "critic", "ent_coef", "clip_range", "normalize_advantage"):
        assert ran[key] == paper[key], key  # §6.7's settings for fine-tuning

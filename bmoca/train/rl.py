"""RL fine-tuning of a BC policy on the simulator, with stable-baselines3 (PPO, double DQN).

The BC network is the whole model (`bmoca.train.rl_policies`), so training starts from
exactly the BC policy, and what comes out is again a BC checkpoint (`bc:`/`ppo:`/`dqn:`
agents load it the same way). PPO's critic is a value head on its own copy of the
backbone (§6.7) or on the actor's. A run trains on one task or on several (a task spec
such as `settings`): each episode draws its task, and the goal-conditioned network gets
that task's goal. Episodes run in `TaskEnv`s (one phone each) behind SB3's vectorised
envs: `SubprocVecEnv` spreads them over cores, several per process with `--envs` > cores.
Optionally: shaping from sub-goal progress (`bmoca.train.rl_shaping`), terms that keep
the policy near BC, and DQN from demonstrations (`bmoca.train.rl_regularize`,
`bmoca.train.rl_demos`).

Each rollout (an "iteration") appends a row to the curve: timesteps, episodes finished,
their success rate and mean return, and every `eval_every` iterations the greedy policy's
success over the training configurations (the first `greedy_train_configs`: a run over
hundreds of drawn configurations would spend its time evaluating) and the evaluation ones;
row 0 is the starting policy's.

With `checkpointing`, every `every` iterations a resumable checkpoint (`rl_resume`) is
written at the start of a rollout, and a resumed run ends with the weights and the curve
of an uninterrupted one.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

from bmoca import tasks
from bmoca.train import TrainError
from bmoca.train.checkpoints import Checkpointing, resolve_device
from bmoca.train.datasets import to_tensor
from bmoca.train.models import Policy
from bmoca.train.rl_env import SHAPINGS, TaskEnv
from bmoca.train.rl_policies import freeze_actor, make_model, sb3_classes

__all__ = ["FROM_SCRATCH", "RLSettings", "greedy_by_task", "greedy_measures", "greedy_success",
           "make_model",
           "run_tasks", "settings_for", "train"]

ALGORITHMS = ("ppo", "dqn")
CRITICS = ("separate", "shared")
LR_SCHEDULES = ("constant", "linear")


@dataclass
class RLSettings:
    algo: str = "ppo"
    task: str = "gmail/open_Gmail"  # a task id or a spec of several (`settings`)
    configs: list[str] = field(default_factory=list)
    eval_configs: list[str] = field(default_factory=list)
    timesteps: int = 2000
    envs: int = 2
    subprocess: bool = False
    horizon: int = 5             # §6.7: 5-step episodes; 0: each task's own step limit
    gamma: float = 0.9           # §6.7
    gae_lambda: float = 0.9      # §6.7
    lr: float = 2e-4             # §6.7
    lr_schedule: str = "constant"  # or linear: from lr down to 0 at `timesteps`
    clip_range: float = 0.1      # §6.7
    ent_coef: float = 0.0        # §6.7
    normalize_advantage: bool = False  # §6.7: raw advantages
    rollout_steps: int = 25      # per env, between PPO updates (5 episodes of 5 steps)
    batch_size: int = 25
    epochs: int = 4
    critic: str = "separate"     # PPO: the critic's own copy of the backbone (§6.7), or "shared"
    critic_warmup: int = 0       # PPO: first rollouts that train the critic alone
    exploration: float = 0.1     # DQN's epsilon (E.1)
    success_fraction: float = 0.25  # DQN: share of each batch from successful episodes (E.1)
    buffer_size: int = 5000
    shaping: str = "none"        # none, path (the paper's Call 911), progress (sub-goals)
    off_path_reward: float = -1.0
    route: str = "launcher"      # the experts' way into Settings, for shaping references
    kl_coef: float = 0.0         # KL(pi_BC || pi) on the trained states
    bc_coef: float = 0.0         # cross-entropy of the expert's action on demonstrations
    demos: str | None = None     # a demonstration dataset (BC term, DQfD)
    demo_fraction: float = 0.25  # DQN with demos: share of each batch from demonstrations
    margin: float = 0.8          # DQfD's margin
    margin_coef: float = 1.0     # DQfD's weight of the large-margin loss (with demos)
    pretrain_steps: int = 0      # DQfD's gradient steps on the demonstrations alone, first
    eval_every: int = 5
    greedy_train_configs: int = 35  # the curve's greedy_train: the first N of `configs`
    seed: int = 0
    device: str = "cpu"          # where SB3 trains: cpu, cuda, cuda:1, mps, auto


FROM_SCRATCH: dict[str, Any] = {
    "lr": 1e-3, "ent_coef": 0.01, "normalize_advantage": True, "clip_range": 0.5,
    "epochs": 4, "critic": "shared", "envs": 4, "rollout_steps": 32, "batch_size": 64,
}
"""PPO's defaults for a fresh policy (no BC checkpoint). §6.7's settings fine-tune a policy
that already succeeds; a fresh one is uniform over 385 actions, and the random policy opens
Settings in about 1 of 10 five-step episodes. PPO's clip bounds how far one update moves
the probability of a sampled action (a factor 1 + clip), so at §6.7's 0.1 a tap with
probability 1/385 needs some 60 well-rewarded updates to dominate; 0.5 needs about 15.
Normalised advantages give the rare successes their weight against the many failures, a
small entropy bonus keeps the other taps tried, and the critic shares the actor's
features (half the cost, and no BC features to disturb)."""


DQN: dict[str, Any] = {"lr": 1e-4}
"""DQN's defaults: a smaller step than PPO's, as its TD targets move with the network."""


def settings_for(from_scratch: bool, **given: Any) -> RLSettings:
    """RLSettings from the values a caller chose (None: not chosen), the rest from §6.7
    (fine-tuning a BC policy) or, for PPO on a fresh policy, `FROM_SCRATCH`."""
    chosen = {k: v for k, v in given.items() if v is not None}
    algo = chosen.get("algo", "ppo")
    preset = FROM_SCRATCH if from_scratch and algo == "ppo" else DQN if algo == "dqn" else {}
    return RLSettings(**{**preset, **chosen})


def run_tasks(spec: str) -> list[tasks.Task]:
    """The tasks of a run: one id, or a spec as `bmoca eval --tasks` takes (`settings`)."""
    try:
        return [tasks.get(spec)]
    except tasks.TaskError:
        pass
    try:
        chosen = tasks.select(spec)
    except tasks.TaskError as exc:
        raise TrainError(str(exc)) from None
    if not chosen:
        raise TrainError(f"no task in {spec!r}")
    return chosen


def greedy_success(network: Policy, task: tasks.Task | Sequence[tasks.Task],
                   config_ids: Sequence[str], horizon: int) -> float:
    """The share of (task, configuration) pairs where the greedy policy succeeds within
    `horizon` steps (0: each task's step limit; the simulator is deterministic: one
    episode per pair says it all)."""
    chosen = [task] if isinstance(task, tasks.Task) else list(task)
    if not config_ids or not chosen:
        return float("nan")
    env = TaskEnv(chosen, config_ids, horizon=horizon)
    wins = 0
    network.eval()
    device = next(network.parameters()).device
    try:
        for index, one in enumerate(chosen):
            for config_id in config_ids:
                observation, _ = env.reset(options={"task": index, "config": config_id})
                while True:
                    with torch.no_grad():
                        screen = to_tensor(observation)[None].to(device)
                        action = int(network(screen, [one.goal])[0].argmax())
                    observation, _, terminated, truncated, info = env.step(action)
                    if terminated or truncated:
                        break
                wins += bool(info.get("is_success"))
    finally:
        env.close()
    return wins / (len(config_ids) * len(chosen))


def greedy_measures(network: Policy, chosen: Sequence[tasks.Task], settings: Any
                    ) -> dict[str, float]:
    """A curve's evaluation: the greedy success over the first `greedy_train_configs` of
    the run's `configs` and over its `eval_configs`, within its `horizon`."""
    return {"greedy_train": greedy_success(
                network, chosen, settings.configs[:settings.greedy_train_configs],
                settings.horizon),
            "greedy_eval": greedy_success(network, chosen, settings.eval_configs,
                                          settings.horizon)}


def greedy_by_task(network: Policy, chosen: Sequence[tasks.Task],
                   config_ids: Sequence[str]) -> dict[str, float]:
    """`greedy_success` of each task alone within its own step limit, by task id."""
    return {task.id: greedy_success(network, task, config_ids, task.step_limit)
            for task in chosen}


def _make_env(task_ids: list[str], config_ids: list[str], settings: RLSettings,
              rank: int) -> Callable[[], TaskEnv]:
    def build() -> TaskEnv:
        from stable_baselines3.common.monitor import Monitor

        return Monitor(TaskEnv(task_ids, config_ids, horizon=settings.horizon,
                               shaping=settings.shaping,
                               off_path_reward=settings.off_path_reward,
                               seed=settings.seed * 1000 + rank, goal_observation=True,
                               gamma=settings.gamma, route=settings.route))
    return build


def train(network: Policy, settings: RLSettings, *,
          on_row: Callable[[dict[str, Any]], None] | None = None,
          checkpointing: Checkpointing | None = None,
          curve: list[dict[str, Any]] | None = None,
          ) -> tuple[Policy, list[dict[str, Any]]]:
    """Fine-tune `network` on `settings.task` (one task or several); returns the tuned copy
    and the curve (the rows go to `curve` as they come, those of a resumed checkpoint
    first)."""
    if settings.algo not in ALGORITHMS:
        raise TrainError(f"unknown algorithm {settings.algo!r}; use one of {ALGORITHMS}")
    if settings.critic not in CRITICS:
        raise TrainError(f"unknown critic {settings.critic!r}; use one of {CRITICS}")
    if settings.lr_schedule not in LR_SCHEDULES:
        raise TrainError(f"unknown learning-rate schedule {settings.lr_schedule!r}; use one "
                         f"of {LR_SCHEDULES}")
    if settings.shaping not in SHAPINGS:
        raise TrainError(f"unknown shaping {settings.shaping!r}; use one of {SHAPINGS}")
    if network.config.get("action", "discrete") != "discrete":
        raise TrainError("RL fine-tuning needs a discrete (385-way) policy")
    if not settings.configs:
        raise TrainError("RL needs at least one training configuration")
    if settings.bc_coef and not settings.demos:
        raise TrainError("--bc-coef needs demonstrations (--demos DIR)")
    if settings.pretrain_steps and (settings.algo != "dqn" or not settings.demos):
        raise TrainError("--pretrain-steps is DQfD's: it needs dqn and --demos DIR")
    if settings.critic_warmup and settings.algo != "ppo":
        raise TrainError("--critic-warmup is PPO's (DQN has no separate critic)")
    chosen = run_tasks(settings.task)
    sb3 = sb3_classes()
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    from bmoca.train.rl_resume import restore_model

    saved = checkpointing.read() if checkpointing else None
    resolve_device(settings.device)
    torch.manual_seed(settings.seed)
    demos = _demonstrations(settings, chosen)
    builders = [_make_env([t.id for t in chosen], list(settings.configs), settings, rank)
                for rank in range(settings.envs)]
    vec = SubprocVecEnv(builders) if settings.subprocess else DummyVecEnv(builders)
    curve = [] if curve is None else curve
    try:
        model, tuned = make_model(network, settings, vec, [t.goal for t in chosen], demos)
        if saved is not None:
            restore_model(model, saved["model"])
        recorder = _curve_callback(sb3["BaseCallback"], settings, chosen, tuned, curve,
                                   on_row, checkpointing, saved["curve"] if saved else None)
        model.learn(total_timesteps=settings.timesteps - model.num_timesteps,
                    callback=recorder, reset_num_timesteps=saved is None)
        recorder.flush(final=True)
    finally:
        vec.close()
    return tuned().to("cpu").eval(), curve


def _demonstrations(settings: RLSettings, chosen: list[tasks.Task]) -> Any:
    """The run's demonstrations (`--demos`), or None."""
    if not settings.demos:
        return None
    from bmoca.train.rl_demos import Demonstrations

    return Demonstrations(settings.demos, [t.id for t in chosen], [t.goal for t in chosen],
                          seed=settings.seed)


def _curve_callback(base: type, settings: RLSettings, task: list[tasks.Task],
                    tuned: Callable[[], Policy], curve: list[dict[str, Any]],
                    on_row: Callable[[dict[str, Any]], None] | None,
                    checkpointing: Checkpointing | None, resumed: dict[str, Any] | None):
    class Curve(base):
        def __init__(self) -> None:
            super().__init__()
            self.started = time.perf_counter()
            self.iteration = 0
            self.returns: list[float] = []
            self.wins: list[bool] = []
            self.running: np.ndarray | None = None
            self.saved_at = 0
            if resumed is not None:
                curve.extend(resumed["rows"])
                self.iteration = self.saved_at = resumed["iteration"]
                self.returns, self.wins = list(resumed["returns"]), list(resumed["wins"])
                if resumed["running"] is not None:
                    self.running = resumed["running"].numpy().copy()

        def _on_training_start(self) -> None:
            """Iteration 0: where the starting (BC) policy stands, before any update."""
            if settings.eval_every and resumed is None:
                row = self._row()
                self._evaluate(row)
                self._record(row)
            if settings.pretrain_steps and resumed is None:  # after row 0: it is BC's
                self.model.pretrain(settings.pretrain_steps, settings.batch_size)
            self.started = time.perf_counter()

        def _on_rollout_start(self) -> None:
            """A checkpoint every `every` iterations, where the last update is done and
            the next rollout not begun."""
            if not (checkpointing and checkpointing.every):
                return
            if self.iteration - self.saved_at < checkpointing.every:
                return
            from bmoca.train.rl_resume import model_state

            self.saved_at = self.iteration
            running = None if self.running is None else torch.from_numpy(self.running.copy())
            checkpointing.write({
                "step": self.iteration, "model": model_state(self.model),
                "curve": {"rows": list(curve), "iteration": self.iteration,
                          "returns": list(self.returns), "wins": list(self.wins),
                          "running": running}})

        def _on_step(self) -> bool:
            rewards, dones = self.locals["rewards"], self.locals["dones"]
            if self.running is None:
                self.running = np.zeros(len(rewards))
            self.running += rewards
            for i, done in enumerate(dones):
                if done:
                    self.returns.append(float(self.running[i]))
                    self.wins.append(bool(self.locals["infos"][i].get("is_success")))
                    self.running[i] = 0.0
            if settings.algo == "dqn" and self.num_timesteps % (
                    settings.rollout_steps * settings.envs) < settings.envs:
                self.flush()
            return True

        def _on_rollout_end(self) -> None:
            """Before PPO's update of this rollout: the curve's row, and whether the actor
            learns from it (not during `critic_warmup`: a fresh critic's advantages are
            noise that would move the cloned policy before the values mean anything)."""
            if settings.algo == "ppo":
                self.flush()
            if settings.algo == "ppo" and settings.critic_warmup:
                rollouts = self.num_timesteps // (settings.rollout_steps * settings.envs)
                freeze_actor(self.model.policy, rollouts <= settings.critic_warmup)

        def flush(self, final: bool = False) -> None:
            if not self.returns:
                if final and curve and "greedy_train" not in curve[-1]:
                    self._evaluate(curve[-1])  # the last iteration's row gets the final eval
                return
            self.iteration += 1
            row = self._row()
            if final or (settings.eval_every and self.iteration % settings.eval_every == 0):
                self._evaluate(row)
            self._record(row)
            self.returns, self.wins = [], []

        def _row(self) -> dict[str, Any]:
            """The iteration's row from the episodes finished in it (none at iteration 0)."""
            elapsed = time.perf_counter() - self.started
            return {
                "iteration": self.iteration, "timesteps": int(self.num_timesteps),
                "episodes": len(self.returns),
                "success_rate": round(float(np.mean(self.wins)), 4) if self.wins else None,
                "mean_return": round(float(np.mean(self.returns)), 4) if self.returns else None,
                "seconds": round(elapsed, 1),
                "env_steps_per_s": round(self.num_timesteps / elapsed, 1) if elapsed else 0.0}

        def _record(self, row: dict[str, Any]) -> None:
            curve.append(row)
            if on_row is not None:
                on_row(row)

        def _evaluate(self, row: dict[str, Any]) -> None:
            network = tuned()
            was_training = network.training
            row.update(greedy_measures(network, task, settings))
            network.train(was_training)

    return Curve()


def write_curve(curve: list[dict[str, Any]], path: str | Path) -> Path:
    """The curve as JSON lines (one row per iteration)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(row) + "\n" for row in curve), encoding="utf-8")
    return path


def settings_dict(settings: RLSettings) -> dict[str, Any]:
    return asdict(settings)

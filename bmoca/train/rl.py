"""RL fine-tuning of a BC policy on the simulator, with stable-baselines3 (PPO, double DQN).

The BC network is the whole model: its encoder and hidden layers are SB3's features
extractor, its last layer is PPO's action head (or DQN's Q head), so training starts from
exactly the BC policy, and what comes out is again a BC checkpoint (`bc:`/`ppo:`/`dqn:`
agents load it the same way). PPO adds a value head on the shared features; the
reference's critic had its own backbone (§6.7), which doubles the cost for little gain at
this size. Episodes run in `TaskEnv`s (one phone each) behind SB3's vectorised envs:
`SubprocVecEnv` spreads them over cores, several per process with `--envs` > cores.

Each rollout (an "iteration") appends a row to the curve: timesteps, episodes finished,
their success rate and mean return, and every `eval_every` iterations the greedy policy's
success over the training and evaluation configurations; row 0 is the starting policy's.

With `checkpointing`, every `every` iterations a resumable checkpoint (`rl_resume`) is
written at the start of a rollout, and a resumed run ends with the weights and the curve
of an uninterrupted one.
"""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from bmoca import tasks
from bmoca.train import TrainError
from bmoca.train.checkpoints import Checkpointing, resolve_device
from bmoca.train.datasets import to_tensor
from bmoca.train.models import Policy
from bmoca.train.rl_env import TaskEnv

__all__ = ["FROM_SCRATCH", "RLSettings", "greedy_success", "settings_for", "train"]

ALGORITHMS = ("ppo", "dqn")
CRITICS = ("separate", "shared")


@dataclass
class RLSettings:
    algo: str = "ppo"
    task: str = "gmail/open_Gmail"
    configs: list[str] = field(default_factory=list)
    eval_configs: list[str] = field(default_factory=list)
    timesteps: int = 2000
    envs: int = 2
    subprocess: bool = False
    horizon: int = 5             # §6.7: 5-step episodes
    gamma: float = 0.9           # §6.7
    gae_lambda: float = 0.9      # §6.7
    lr: float = 2e-4             # §6.7
    clip_range: float = 0.1      # §6.7
    ent_coef: float = 0.0        # §6.7
    normalize_advantage: bool = False  # §6.7: raw advantages
    rollout_steps: int = 25      # per env, between PPO updates (5 episodes of 5 steps)
    batch_size: int = 25
    epochs: int = 4
    critic: str = "separate"     # PPO: the critic's own copy of the backbone (§6.7), or "shared"
    exploration: float = 0.1     # DQN's epsilon (E.1)
    success_fraction: float = 0.25  # DQN: share of each batch from successful episodes (E.1)
    buffer_size: int = 5000
    shaping: bool = False
    off_path_reward: float = -1.0
    eval_every: int = 5
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


def settings_for(from_scratch: bool, **given: Any) -> RLSettings:
    """RLSettings from the values a caller chose (None: not chosen), the rest from §6.7
    (fine-tuning a BC policy) or, for PPO on a fresh policy, `FROM_SCRATCH`."""
    chosen = {k: v for k, v in given.items() if v is not None}
    preset = FROM_SCRATCH if from_scratch and chosen.get("algo", "ppo") == "ppo" else {}
    return RLSettings(**{**preset, **chosen})


@cache
def _sb3_classes() -> dict[str, Any]:
    try:
        from stable_baselines3 import DQN, PPO
        from stable_baselines3.common.callbacks import BaseCallback
        from stable_baselines3.common.policies import ActorCriticPolicy
        from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
        from stable_baselines3.dqn.policies import DQNPolicy
    except ImportError:
        raise TrainError("RL fine-tuning needs stable-baselines3: pip install -e '.[train]'") \
            from None

    class Features(BaseFeaturesExtractor):
        """The BC network up to its last hidden layer, for the fixed goal of the task."""

        def __init__(self, observation_space, network: Policy, goal: str) -> None:
            super().__init__(observation_space, network.features_dim)
            self.network = copy.deepcopy(network)  # DQN's target net gets its own copy
            self.goal = goal

        def forward(self, observations: torch.Tensor) -> torch.Tensor:
            return self.network.features(observations, [self.goal] * len(observations))

    class ActorCritic(ActorCriticPolicy):
        """PPO's policy whose action head is the BC network's last layer."""

        def _build(self, lr_schedule) -> None:
            super()._build(lr_schedule)
            self.action_net = self.features_extractor.network.head[-1]
            self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1),
                                                  **self.optimizer_kwargs)

    class QPolicy(DQNPolicy):
        """DQN's policy whose Q head starts as the BC network's last layer (logits as Q)."""

        def _build(self, lr_schedule) -> None:
            super()._build(lr_schedule)
            for net in (self.q_net, self.q_net_target):
                net.q_net = nn.Sequential(net.features_extractor.network.head[-1])
            self.q_net_target.load_state_dict(self.q_net.state_dict())
            self.q_net_target.set_training_mode(False)
            self.optimizer = self.optimizer_class(self.q_net.parameters(), lr=lr_schedule(1),
                                                  **self.optimizer_kwargs)

    class DoubleDQN(DQN):
        """DQN with the double-Q target: the online net picks the next action, the target
        net values it (van Hasselt et al.; the paper's DDQN, E.1)."""

        def train(self, gradient_steps: int, batch_size: int = 100) -> None:
            self.policy.set_training_mode(True)
            self._update_learning_rate(self.policy.optimizer)
            losses = []
            for _ in range(gradient_steps):
                data = self.replay_buffer.sample(batch_size, env=self._vec_normalize_env)
                with torch.no_grad():
                    best = self.q_net(data.next_observations).argmax(dim=1, keepdim=True)
                    next_q = self.q_net_target(data.next_observations).gather(1, best)
                    target = data.rewards + (1 - data.dones) * self.gamma * next_q
                current = self.q_net(data.observations).gather(1, data.actions.long())
                loss = nn.functional.smooth_l1_loss(current, target)
                losses.append(loss.item())
                self.policy.optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(self.policy.parameters(), self.max_grad_norm)
                self.policy.optimizer.step()
            self._n_updates += gradient_steps
            self.logger.record("train/loss", float(np.mean(losses)) if losses else 0.0)

    return {"PPO": PPO, "DoubleDQN": DoubleDQN, "BaseCallback": BaseCallback,
            "Features": Features, "ActorCritic": ActorCritic, "QPolicy": QPolicy}


def greedy_success(network: Policy, task: tasks.Task, config_ids: Sequence[str],
                   horizon: int) -> float:
    """The share of configurations where the greedy policy succeeds within `horizon` steps
    (the simulator is deterministic: one episode per configuration says it all)."""
    if not config_ids:
        return float("nan")
    env = TaskEnv(task, config_ids, horizon=horizon)
    wins = 0
    network.eval()
    device = next(network.parameters()).device
    try:
        for config_id in config_ids:
            observation, _ = env.reset(options={"config": config_id})
            for _ in range(horizon):
                with torch.no_grad():
                    screen = to_tensor(observation)[None].to(device)
                    action = int(network(screen, [task.goal])[0].argmax())
                observation, _, terminated, truncated, info = env.step(action)
                if terminated or truncated:
                    break
            wins += bool(info.get("is_success"))
    finally:
        env.close()
    return wins / len(config_ids)


def _make_env(task_id: str, config_ids: list[str], settings: RLSettings,
              rank: int) -> Callable[[], TaskEnv]:
    def build() -> TaskEnv:
        from stable_baselines3.common.monitor import Monitor

        return Monitor(TaskEnv(task_id, config_ids, horizon=settings.horizon,
                               shaping=settings.shaping,
                               off_path_reward=settings.off_path_reward,
                               seed=settings.seed * 1000 + rank))
    return build


def train(network: Policy, settings: RLSettings, *,
          on_row: Callable[[dict[str, Any]], None] | None = None,
          checkpointing: Checkpointing | None = None,
          curve: list[dict[str, Any]] | None = None,
          ) -> tuple[Policy, list[dict[str, Any]]]:
    """Fine-tune `network` on `settings.task`; returns the tuned copy and the curve (the
    rows go to `curve` as they come, those of a resumed checkpoint first)."""
    if settings.algo not in ALGORITHMS:
        raise TrainError(f"unknown algorithm {settings.algo!r}; use one of {ALGORITHMS}")
    if settings.critic not in CRITICS:
        raise TrainError(f"unknown critic {settings.critic!r}; use one of {CRITICS}")
    if network.config.get("action", "discrete") != "discrete":
        raise TrainError("RL fine-tuning needs a discrete (385-way) policy")
    if not settings.configs:
        raise TrainError("RL needs at least one training configuration")
    task = tasks.get(settings.task)
    sb3 = _sb3_classes()
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    from bmoca.train.rl_resume import restore_model

    saved = checkpointing.read() if checkpointing else None
    resolve_device(settings.device)
    torch.manual_seed(settings.seed)
    builders = [_make_env(task.id, list(settings.configs), settings, rank)
                for rank in range(settings.envs)]
    vec = SubprocVecEnv(builders) if settings.subprocess else DummyVecEnv(builders)
    curve = [] if curve is None else curve
    try:
        model, tuned = make_model(network, settings, vec, task.goal)
        if saved is not None:
            restore_model(model, saved["model"])
        recorder = _curve_callback(sb3["BaseCallback"], settings, task, tuned, curve, on_row,
                                   checkpointing, saved["curve"] if saved else None)
        model.learn(total_timesteps=settings.timesteps - model.num_timesteps,
                    callback=recorder, reset_num_timesteps=saved is None)
        recorder.flush(final=True)
    finally:
        vec.close()
    return tuned().to("cpu").eval(), curve


def make_model(network: Policy, settings: RLSettings, vec: Any,
               goal: str) -> tuple[Any, Callable[[], Policy]]:
    """The SB3 model around a copy of `network`, and a function giving that copy (the
    network being tuned)."""
    sb3 = _sb3_classes()
    device = str(resolve_device(settings.device))
    policy_kwargs = {"features_extractor_class": sb3["Features"], "net_arch": [],
                     "features_extractor_kwargs": {"network": network, "goal": goal}}
    if settings.algo == "ppo":
        model = sb3["PPO"](sb3["ActorCritic"], vec, learning_rate=settings.lr,
                           n_steps=settings.rollout_steps, batch_size=settings.batch_size,
                           n_epochs=settings.epochs, gamma=settings.gamma,
                           gae_lambda=settings.gae_lambda, clip_range=settings.clip_range,
                           ent_coef=settings.ent_coef,
                           normalize_advantage=settings.normalize_advantage,
                           policy_kwargs={**policy_kwargs, "ortho_init": False,
                                          "share_features_extractor": settings.critic == "shared"},
                           seed=settings.seed, device=device, verbose=0)
        return model, lambda: model.policy.features_extractor.network
    model = sb3["DoubleDQN"](sb3["QPolicy"], vec, learning_rate=settings.lr,
                             buffer_size=settings.buffer_size, learning_starts=50,
                             batch_size=settings.batch_size, gamma=settings.gamma,
                             train_freq=(settings.horizon, "step"), gradient_steps=1,
                             target_update_interval=max(1, settings.rollout_steps),
                             exploration_fraction=0.0,
                             exploration_initial_eps=settings.exploration,
                             exploration_final_eps=settings.exploration,
                             **_replay_kwargs(settings), policy_kwargs=policy_kwargs,
                             seed=settings.seed, device=device, verbose=0)
    return model, lambda: model.policy.q_net.features_extractor.network


def _replay_kwargs(settings: RLSettings) -> dict[str, Any]:
    """E.1's success and failure buffers, unless `success_fraction` is 0 (one uniform buffer)."""
    if not settings.success_fraction:
        return {}
    from bmoca.train.buffers import split_replay_buffer

    return {"replay_buffer_class": split_replay_buffer(),
            "replay_buffer_kwargs": {"success_fraction": settings.success_fraction}}


def _curve_callback(base: type, settings: RLSettings, task: tasks.Task,
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
            if settings.algo == "ppo":
                self.flush()

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
            row["greedy_train"] = greedy_success(network, task, settings.configs,
                                                 settings.horizon)
            row["greedy_eval"] = greedy_success(network, task, settings.eval_configs,
                                                settings.horizon)
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

"""The stable-baselines3 models around a BC network (`bmoca train ppo|dqn`).

The BC network is the whole model: its encoders and hidden layers are SB3's features
extractor, its last layer is PPO's action head (or DQN's Q head), so training starts from
exactly the BC policy (DQN's Q-values as V + log π, `PolicyQ`). The observation is a dict of the screen and the task's index
(`TaskEnv(goal_observation=True)`); the extractor hands the network that task's goal
text, so one network plays every task of a multi-task run, as it was cloned to.

PPO may carry `bmoca.train.rl_regularize`'s terms (a KL to the frozen BC policy, a BC
loss on demonstrations) through an optimizer hook; DQN is double DQN, and with
demonstrations DQfD: a share of each batch from the expert's transitions, a large-margin
loss on them, and the same optional terms. stable-baselines3 is imported only here, when
a model is built.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

import numpy as np
import torch
from torch import nn

from bmoca.train import TrainError
from bmoca.train.checkpoints import resolve_device
from bmoca.train.models import Policy
from bmoca.train.rl_demos import Demonstrations
from bmoca.train.rl_regularize import Regularizer, install_ppo_hook, margin_loss
from bmoca.train.trees import tree_map

__all__ = ["freeze_actor", "make_model", "sb3_classes"]


class PolicyQ(nn.Module):
    """Q(s, a) = V(s) + log π(a|s): the BC network's logits layer as a log-policy, beside a
    state value that starts at 0.

    Why not the logits themselves as Q-values: logits are no values. The first TD targets
    (returns between 0 and 1) pull the logits of the actions taken toward them and leave
    the others where they were, so the BC action, typically the largest logit, is pulled
    down below some untried one, and the greedy policy falls apart within a few hundred
    steps (measured: docs/training.md). As V + log π, the starting Q-values order the
    actions as BC does (greedy DQN is BC), every untried action sits log π below the
    state's value, and what TD learns for a tried action moves it within that scale. It
    keeps BC's greedy success only with DQfD's margin loss beside it (`--demos`): alone,
    TD soon values ε's random taps as highly as the expert's (measured, same page)."""

    def __init__(self, logits: nn.Module) -> None:
        super().__init__()
        self.logits = logits
        self.value = nn.Linear(logits.in_features, 1)
        nn.init.zeros_(self.value.weight)
        nn.init.zeros_(self.value.bias)

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        return self.value(features) + torch.log_softmax(self.logits(features), dim=-1)


@cache
def sb3_classes() -> dict[str, Any]:
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
        """The BC network up to its last hidden layer, for the goal of each observation's
        task (a plain screen observation: the first goal)."""

        def __init__(self, observation_space, network: Policy, goals: Sequence[str]) -> None:
            super().__init__(observation_space, network.features_dim)
            self.network = copy.deepcopy(network)  # DQN's target net gets its own copy
            self.goals = list(goals)

        def forward(self, observations: Any) -> torch.Tensor:
            if not isinstance(observations, dict):
                return self.network.features(observations, [self.goals[0]] * len(observations))
            pixels = observations["pixels"]
            index = observations["task"].reshape(len(pixels), -1).argmax(dim=1)
            return self.network.features(pixels, [self.goals[i] for i in index.tolist()])

    class ActorCritic(ActorCriticPolicy):
        """PPO's policy whose action head is the BC network's last layer. It keeps the
        observations of the minibatch being trained on (`last_observations`) for the
        regularizer's KL term."""

        def _build(self, lr_schedule) -> None:
            super()._build(lr_schedule)
            self.action_net = self.features_extractor.network.head[-1]
            self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1),
                                                  **self.optimizer_kwargs)

        def evaluate_actions(self, obs, actions):
            self.last_observations = obs
            return super().evaluate_actions(obs, actions)

        def logits(self, obs) -> torch.Tensor:
            return self.get_distribution(obs).distribution.logits

    class QPolicy(DQNPolicy):
        """DQN's policy whose Q head is `PolicyQ` on the BC network's last layer."""

        def _build(self, lr_schedule) -> None:
            super()._build(lr_schedule)
            for net in (self.q_net, self.q_net_target):
                net.q_net = PolicyQ(net.features_extractor.network.head[-1])
            self.q_net_target.load_state_dict(self.q_net.state_dict())
            self.q_net_target.set_training_mode(False)
            self.optimizer = self.optimizer_class(self.q_net.parameters(), lr=lr_schedule(1),
                                                  **self.optimizer_kwargs)

    class DoubleDQN(DQN):
        """DQN with the double-Q target: the online net picks the next action, the target
        net values it (van Hasselt et al.; the paper's DDQN, E.1). With `demos`, DQfD:
        `demo_fraction` of each batch is expert transitions, and `margin_coef` weighs the
        large-margin loss on them; `regularizer` adds the KL and BC terms."""

        demos: Demonstrations | None = None
        demo_fraction: float = 0.0
        margin: float = 0.8
        margin_coef: float = 0.0
        regularizer: Regularizer | None = None

        def _batch(self, batch_size: int) -> tuple[Any, int]:
            """The replay batch with the demonstration part appended; its size."""
            share = self._demo_share(batch_size)
            own = self.replay_buffer.sample(batch_size - share, env=self._vec_normalize_env)
            if not share:
                return own, 0
            demo = self.demos.sample(share, self.device)

            def cat(a: Any, b: Any) -> Any:
                return tree_map(lambda x, y: torch.cat([x, y.to(x.dtype)]), a, b)

            return type(own)(cat(own.observations, demo.observations),
                             cat(own.actions, demo.actions),
                             cat(own.next_observations, demo.next_observations),
                             cat(own.dones, demo.dones), cat(own.rewards, demo.rewards)), share

        def _demo_share(self, batch_size: int) -> int:
            if self.demos is None:
                return 0
            return min(batch_size - 1, round(batch_size * self.demo_fraction))

        def train(self, gradient_steps: int, batch_size: int = 100) -> None:
            self.policy.set_training_mode(True)
            self._update_learning_rate(self.policy.optimizer)
            losses, margins = [], []
            for _ in range(gradient_steps):
                losses.append(self._gradient_step(*self._batch(batch_size), margins))
            self._n_updates += gradient_steps
            self.logger.record("train/loss", float(np.mean(losses)) if losses else 0.0)
            if margins:
                self.logger.record("train/margin_loss", float(np.mean(margins)))

        def pretrain(self, steps: int, batch_size: int) -> list[float]:
            """DQfD's pre-training (Hester et al., 2018): `steps` gradient steps on batches
            of demonstrations alone, with the TD and large-margin losses (and the
            regularizer), the target network synchronised every `target_update_interval`
            steps. The agent then meets the phone with Q-values on the reward's scale and
            the expert's actions ahead, instead of BC's log-probabilities, whose gaps of 5
            to 10 the first TD targets (0 to 1) would tear apart. Returns the losses."""
            self.policy.set_training_mode(True)
            losses: list[float] = []
            for step in range(1, steps + 1):
                losses.append(self._gradient_step(self.demos.sample(batch_size, self.device),
                                                  batch_size, []))
                if step % max(1, self.target_update_interval) == 0 or step == steps:
                    self.q_net_target.load_state_dict(self.q_net.state_dict())
            return losses

        def _gradient_step(self, data: Any, share: int, margins: list[float]) -> float:
            """One double-DQN step on `data`, whose last `share` rows are demonstrations
            (the large-margin loss applies to them)."""
            with torch.no_grad():
                best = self.q_net(data.next_observations).argmax(dim=1, keepdim=True)
                next_q = self.q_net_target(data.next_observations).gather(1, best)
                target = data.rewards + (1 - data.dones) * self.gamma * next_q
            q_values = self.q_net(data.observations)
            current = q_values.gather(1, data.actions.long())
            loss = nn.functional.smooth_l1_loss(current, target)
            if share and self.margin_coef:
                expert = margin_loss(q_values[-share:], data.actions[-share:].long(),
                                     self.margin)
                margins.append(expert.item())
                loss = loss + self.margin_coef * expert
            if self.regularizer is not None and self.regularizer.active:
                loss = loss + self.regularizer.loss(data.observations)
            self.policy.optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(self.policy.parameters(), self.max_grad_norm)
            self.policy.optimizer.step()
            return loss.item()

    return {"PPO": PPO, "DoubleDQN": DoubleDQN, "BaseCallback": BaseCallback,
            "Features": Features, "ActorCritic": ActorCritic, "QPolicy": QPolicy}


def freeze_actor(policy: Any, frozen: bool) -> None:
    """Stop (or restart) the actor's learning in PPO's next update: its backbone and logits
    get no gradient, and the regularizer's hook skips its terms; the critic learns on. With
    a shared critic the backbone is the actor's, so only the value layer learns."""
    for module in (policy.pi_features_extractor, policy.action_net):
        for parameter in module.parameters():
            parameter.requires_grad_(not frozen)
    policy.actor_frozen = frozen


def learning_rate(settings: Any) -> float | Callable[[float], float]:
    """SB3's learning rate for `settings`: constant, or linear from `lr` to 0 over the run
    (SB3 passes the fraction of `timesteps` remaining, so a resumed run stays on the line)."""
    if settings.lr_schedule == "linear":
        start = settings.lr
        return lambda remaining: start * remaining
    return settings.lr


def make_model(network: Policy, settings: Any, vec: Any, goals: str | Sequence[str],
               demos: Demonstrations | None = None) -> tuple[Any, Callable[[], Policy]]:
    """The SB3 model around a copy of `network` for `settings` (`rl.RLSettings`), and a
    function giving that copy (the network being tuned). `goals` are the run's tasks'
    goals, in the order of the observation's task index."""
    sb3 = sb3_classes()
    device = str(resolve_device(settings.device))
    goals = [goals] if isinstance(goals, str) else list(goals)
    policy_kwargs = {"features_extractor_class": sb3["Features"], "net_arch": [],
                     "features_extractor_kwargs": {"network": network, "goals": goals}}
    regularized = bool(settings.kl_coef or settings.bc_coef)
    if settings.algo == "ppo":
        model = sb3["PPO"](sb3["ActorCritic"], vec, learning_rate=learning_rate(settings),
                           n_steps=settings.rollout_steps, batch_size=settings.batch_size,
                           n_epochs=settings.epochs, gamma=settings.gamma,
                           gae_lambda=settings.gae_lambda, clip_range=settings.clip_range,
                           ent_coef=settings.ent_coef,
                           normalize_advantage=settings.normalize_advantage,
                           policy_kwargs={**policy_kwargs, "ortho_init": False,
                                          "share_features_extractor": settings.critic == "shared"},
                           seed=settings.seed, device=device, verbose=0)
        policy = model.policy
        if regularized:
            frozen = _frozen(nn.ModuleList([policy.pi_features_extractor, policy.action_net]))
            from stable_baselines3.common.preprocessing import preprocess_obs

            def reference(obs: Any) -> torch.Tensor:
                return frozen[1](frozen[0](preprocess_obs(obs, policy.observation_space,
                                                          policy.normalize_images)))

            model.regularizer = Regularizer(
                policy.logits, reference,
                kl_coef=settings.kl_coef, bc_coef=settings.bc_coef, demos=demos,
                batch_size=settings.batch_size, device=model.device)
            install_ppo_hook(policy, model.regularizer)
        model.demos = demos
        return model, lambda: model.policy.features_extractor.network
    model = sb3["DoubleDQN"](sb3["QPolicy"], vec, learning_rate=learning_rate(settings),
                             buffer_size=settings.buffer_size, learning_starts=50,
                             batch_size=settings.batch_size, gamma=settings.gamma,
                             train_freq=(max(1, settings.horizon or 5), "step"),
                             gradient_steps=1,
                             target_update_interval=max(1, settings.rollout_steps),
                             exploration_fraction=0.0,
                             exploration_initial_eps=settings.exploration,
                             exploration_final_eps=settings.exploration,
                             **_replay_kwargs(settings), policy_kwargs=policy_kwargs,
                             seed=settings.seed, device=device, verbose=0)
    model.demos, model.demo_fraction = demos, settings.demo_fraction
    model.margin, model.margin_coef = settings.margin, settings.margin_coef
    if regularized:
        frozen = _frozen(model.q_net)
        model.regularizer = Regularizer(model.q_net, frozen, kl_coef=settings.kl_coef,
                                        bc_coef=settings.bc_coef, demos=demos,
                                        batch_size=settings.batch_size, device=model.device)
    return model, lambda: model.policy.q_net.features_extractor.network


def _frozen(module: nn.Module) -> nn.Module:
    """A copy of `module` that no gradient reaches: the BC policy as it started."""
    frozen = copy.deepcopy(module).eval()
    for parameter in frozen.parameters():
        parameter.requires_grad_(False)
    return frozen


def _replay_kwargs(settings: Any) -> dict[str, Any]:
    """E.1's success and failure buffers, unless `success_fraction` is 0 (one uniform buffer)."""
    if not settings.success_fraction:
        return {}
    from bmoca.train.buffers import split_replay_buffer

    return {"replay_buffer_class": split_replay_buffer(),
            "replay_buffer_kwargs": {"success_fraction": settings.success_fraction}}

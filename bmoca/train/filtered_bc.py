"""Online filtered behaviour cloning: RL from a BC policy by cloning its own successes.

Each round the policy plays `episodes` episodes, sampling its actions, on a task and a
configuration drawn from the run's (`configs`: hundreds of drawn ones reach devices the
demonstrations never showed); the episodes the task's success detector passes join a
buffer of the policy's own successful steps, and `updates` minibatches of cross-entropy
train it on them, mixed with the demonstrations (`demo_fraction` of each batch), which
keep it near what it was cloned from. The 0/1 task reward is the filter: this is the
policy gradient of the success rate with a return of 1 for a success and 0 otherwise and
no baseline, the "filtered BC" of DigiRL (Bai et al., 2024) and the online form of
rejection-sampling fine-tuning (ReST, Gulcehre et al., 2023). Unlike PPO it needs no
critic, so most of its time goes to playing episodes: far more configurations per hour
than PPO on a CPU.

Seeded: the tasks, configurations and sampled actions come from generators of the run's
own, and a resumable checkpoint (`checkpoints.Checkpointing`, every `every` rounds, after
a round's updates) keeps them with the weights, the optimiser and the buffer, so a resumed
run ends with the weights and curve of an uninterrupted one.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch

from bmoca.train import TrainError
from bmoca.train.bc import gradient_step
from bmoca.train.checkpoints import (
    Checkpointing,
    grad_scaler,
    resolve_device,
    use_amp,
)
from bmoca.train.datasets import StepDataset, to_tensor
from bmoca.train.models import Policy
from bmoca.train.rl import greedy_measures, run_tasks
from bmoca.train.rl_env import TaskEnv

__all__ = ["FilteredBCSettings", "SuccessBuffer", "train"]

LR_SCHEDULES = ("constant", "linear")


@dataclass
class FilteredBCSettings:
    task: str = "gmail/open_Gmail"  # a task id or a spec of several (`settings`)
    configs: list[str] = field(default_factory=list)
    eval_configs: list[str] = field(default_factory=list)
    rounds: int = 100
    episodes: int = 16           # played per round, sampling the policy
    updates: int = 8             # minibatches per round
    batch_size: int = 32
    lr: float = 3e-4
    lr_schedule: str = "constant"  # or linear: from lr down to 0 at the last round
    weight_decay: float = 1e-4
    demos: str | None = None     # a demonstration dataset mixed into every batch
    demo_fraction: float = 0.5   # share of each batch from the demonstrations
    buffer_steps: int = 2000     # own successful steps kept, the newest (about 98 KB each)
    horizon: int = 0             # steps per episode; 0: each task's own step limit
    temperature: float = 1.0     # of the sampling softmax while playing
    eval_every: int = 0          # rounds between greedy evaluations (0: at the end only)
    greedy_train_configs: int = 35  # the curve's greedy_train: the first N of `configs`
    seed: int = 0
    device: str = "cpu"
    amp: bool | None = None


class SuccessBuffer:
    """The newest `capacity` steps of the policy's successful episodes: screen (uint8),
    task index and action; bounded in bytes by its capacity (a ring)."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.pixels = np.zeros((capacity, 256, 128, 3), np.uint8)
        self.tasks = np.zeros(capacity, np.int64)
        self.actions = np.zeros(capacity, np.int64)
        self.added = 0  # steps ever added; the ring's next slot is added % capacity

    def __len__(self) -> int:
        return min(self.added, self.capacity)

    def add(self, pixels: np.ndarray, task: int, action: int) -> None:
        slot = self.added % self.capacity
        self.pixels[slot], self.tasks[slot], self.actions[slot] = pixels, task, action
        self.added += 1

    def state(self) -> dict[str, Any]:
        kept = len(self)
        return {"pixels": torch.from_numpy(self.pixels[:kept].copy()),
                "tasks": torch.from_numpy(self.tasks[:kept].copy()),
                "actions": torch.from_numpy(self.actions[:kept].copy()), "added": self.added}

    def restore(self, state: dict[str, Any]) -> None:
        kept = len(state["actions"])
        self.pixels[:kept] = state["pixels"].numpy()
        self.tasks[:kept] = state["tasks"].numpy()
        self.actions[:kept] = state["actions"].numpy()
        self.added = int(state["added"])


def _check(settings: FilteredBCSettings, network: Policy) -> None:
    if network.config.get("action", "discrete") != "discrete":
        raise TrainError("filtered BC needs a discrete (385-way) policy")
    if not settings.configs:
        raise TrainError("filtered BC needs at least one training configuration")
    if settings.lr_schedule not in LR_SCHEDULES:
        raise TrainError(f"unknown learning-rate schedule {settings.lr_schedule!r}; use one "
                         f"of {LR_SCHEDULES}")
    if settings.demo_fraction and not settings.demos:
        raise TrainError("--demo-fraction above 0 needs demonstrations (--demos DIR), or "
                         "set it to 0")
    if not 0.0 <= settings.demo_fraction < 1.0:
        raise TrainError(f"--demo-fraction {settings.demo_fraction}: from 0 up to, not "
                         "including, 1 (the rest of each batch is the policy's own)")
    if settings.temperature <= 0:
        raise TrainError(f"--temperature {settings.temperature}: must be above 0")


def train(network: Policy, settings: FilteredBCSettings, *,
          on_row: Callable[[dict[str, Any]], None] | None = None,
          checkpointing: Checkpointing | None = None,
          curve: list[dict[str, Any]] | None = None,
          ) -> tuple[Policy, list[dict[str, Any]]]:
    """Fine-tune `network` by filtered BC; returns it (on the CPU) and the curve, a row per
    round in the form of PPO's (`iteration` is the round, `timesteps` the steps played so
    far; row 0: the starting policy's greedy success, when `eval_every`), so the report
    reads it alike; the rows go to `curve` as they come, those of a resumed checkpoint
    first."""
    _check(settings, network)
    chosen = run_tasks(settings.task)
    goals = [t.goal for t in chosen]
    saved = checkpointing.read() if checkpointing else None
    device = resolve_device(settings.device)
    amp = use_amp(settings.amp, device)
    network.to(device)
    params = [p for p in network.parameters() if p.requires_grad]
    optimiser = torch.optim.AdamW(params, lr=settings.lr, weight_decay=settings.weight_decay)
    scaler = grad_scaler(device, amp)
    draws = np.random.default_rng(settings.seed)  # tasks, configurations, batches
    sampling = torch.Generator().manual_seed(settings.seed)  # the played actions
    buffer = SuccessBuffer(settings.buffer_steps)
    curve = [] if curve is None else curve
    first = 0
    if saved is not None:
        network.load_state_dict(saved["model"], strict=False)
        optimiser.load_state_dict(saved["optimizer"])
        scaler.load_state_dict(saved["scaler"])
        draws.bit_generator.state = saved["draws"]
        sampling.set_state(saved["sampling"])
        buffer.restore(saved["buffer"])
        curve.extend(saved["curve"])
        first = int(saved["step"])
    demos = _demonstrations(settings, chosen)
    env = TaskEnv(chosen, settings.configs, horizon=settings.horizon, seed=settings.seed)

    def record(row: dict[str, Any], evaluate: bool) -> None:
        if evaluate:
            row.update(greedy_measures(network, chosen, settings))
        curve.append(row)
        if on_row is not None:
            on_row(row)

    timesteps = curve[-1]["timesteps"] if curve else 0
    try:
        if saved is None and settings.eval_every:
            record({"iteration": 0, "timesteps": 0, "updates": 0}, evaluate=True)
        for round_ in range(first, settings.rounds):
            started = time.perf_counter()
            wins, steps = _play(network, env, settings, goals, draws, sampling, buffer, device)
            timesteps += steps
            lr = settings.lr * (1 - round_ / settings.rounds
                                if settings.lr_schedule == "linear" else 1.0)
            for group in optimiser.param_groups:
                group["lr"] = lr
            losses = [_update(network, optimiser, scaler, settings, goals, buffer, demos,
                              draws, device, amp) for _ in range(settings.updates)]
            done = round_ + 1
            seconds = time.perf_counter() - started
            last = done == settings.rounds
            record({"iteration": done, "timesteps": timesteps,
                    "updates": done * settings.updates, "episodes": settings.episodes,
                    "success_rate": round(wins / settings.episodes, 4),
                    "buffer_steps": len(buffer), "loss": round(float(np.mean(losses)), 4),
                    "seconds": round(seconds, 1),
                    "env_steps_per_s": round(steps / seconds, 1) if seconds else 0.0},
                   evaluate=last or bool(settings.eval_every and done % settings.eval_every
                                         == 0))
            if checkpointing and checkpointing.due(done, settings.rounds):
                checkpointing.write({
                    "step": done, "model": network.weights(),
                    "optimizer": optimiser.state_dict(), "scaler": scaler.state_dict(),
                    "draws": draws.bit_generator.state, "sampling": sampling.get_state(),
                    "buffer": buffer.state(), "curve": list(curve)})
    finally:
        env.close()
    return network.to("cpu").eval(), curve


def _demonstrations(settings: FilteredBCSettings, chosen: list) -> StepDataset | None:
    if not settings.demos or not settings.demo_fraction:
        return None
    data = StepDataset(settings.demos, tasks=[t.id for t in chosen])
    if not data.demo_steps:
        raise TrainError(f"{settings.demos}: no demonstration of the run's tasks with "
                         "discrete actions (generate them with --play discrete)")
    return data


def _play(network: Policy, env: TaskEnv, settings: FilteredBCSettings, goals: list[str],
          draws: np.random.Generator, sampling: torch.Generator, buffer: SuccessBuffer,
          device: torch.device) -> tuple[int, int]:
    """One round's episodes; the successful ones' steps go to `buffer`. Returns the
    successes and the steps played."""
    network.eval()
    wins = steps = 0
    for _ in range(settings.episodes):
        task = int(draws.integers(len(goals)))
        config = settings.configs[int(draws.integers(len(settings.configs)))]
        pixels, _ = env.reset(options={"task": task, "config": config})
        played: list[tuple[np.ndarray, int]] = []
        while True:
            with torch.no_grad():
                logits = network(to_tensor(pixels)[None].to(device), [goals[task]])[0]
                probs = torch.softmax(logits.float().cpu() / settings.temperature, dim=0)
            action = int(torch.multinomial(probs, 1, generator=sampling))
            played.append((pixels, action))
            pixels, _, terminated, truncated, info = env.step(action)
            steps += 1
            if terminated or truncated:
                break
        if info.get("is_success"):
            wins += 1
            for screen, action in played:
                buffer.add(screen, task, action)
    network.train()
    return wins, steps


def _update(network: Policy, optimiser: torch.optim.Optimizer, scaler: Any,
            settings: FilteredBCSettings, goals: list[str], buffer: SuccessBuffer,
            demos: StepDataset | None, draws: np.random.Generator, device: torch.device,
            amp: bool) -> float:
    """One minibatch: the policy's own successful steps and the demonstrations' (all
    demonstrations while the buffer is empty; all own steps without demonstrations)."""
    if not len(buffer) and demos is None:
        return float("nan")  # nothing to learn from yet
    from_demos = settings.batch_size if not len(buffer) else \
        round(settings.batch_size * settings.demo_fraction) if demos is not None else 0
    screens: list[np.ndarray] = []
    batch_goals: list[str] = []
    actions: list[int] = []
    for _ in range(from_demos):
        index = demos.draw(draws)
        _demo, _path, goal, action, _gesture = demos.items[index]
        screens.append(demos.pixels(index))
        batch_goals.append(goal)
        actions.append(action)
    for slot in draws.integers(len(buffer), size=settings.batch_size - from_demos):
        screens.append(buffer.pixels[slot])
        batch_goals.append(goals[int(buffer.tasks[slot])])
        actions.append(int(buffer.actions[slot]))
    batch = {"pixels": torch.stack([to_tensor(s) for s in screens]), "goal": batch_goals,
             "action": torch.tensor(actions)}
    return gradient_step(network, batch, optimiser, scaler, device, amp)

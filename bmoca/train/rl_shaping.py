"""Reward shaping from sub-goal progress: the CheckPoint metric that `bmoca eval` reports,
turned into a potential (Ng, Harada and Russell, 1999) so that the best policy is unchanged.

The metric (`bmoca.env.targets.checkpoint_progress`): the expert's path in the episode's
task and configuration names its checkpoints (the elements it taps, the text it types, the
apps it opens); an agent's progress is the longest common subsequence of those and the
targets of its own steps, over their number. As a potential Φ(s) of the episode so far,
each step earns the task's reward plus γ·Φ(s') − Φ(s), with Φ = 0 once the episode has
terminated (the task succeeded), so the shaped return of an episode differs from the
sparse one by −Φ(s₀) = 0 and by the discounting in between: any path to success still
beats any path without it. A truncated episode (the horizon) is not terminal: its last
state keeps its potential, and PPO bootstraps from it as from any unfinished state.

The expert's checkpoints are played once per task and configuration (with the experts'
`route` into Settings, which should be the one the policy learnt: `--route shade` for a
policy cloned from shade demonstrations) and kept.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bmoca import tasks
from bmoca.env import BmocaEnv, DevicePool
from bmoca.env.targets import action_target, checkpoint_progress, is_checkpoint
from bmoca.tasks import experts

__all__ = ["ProgressShaping", "expert_checkpoints", "play_expert"]


def play_expert(task: tasks.Task, config: str, pool: DevicePool | None = None,
                route: str = "launcher",
                before_step: Callable[[BmocaEnv, dict], None] | None = None) -> list[dict]:
    """The observations after each step of the task's expert in `config` (a successful
    episode, else RuntimeError); `before_step` sees each action with the screen it is for."""
    if not task.expert:
        raise ValueError(f"task {task.id} has no expert plan to follow")
    env = BmocaEnv(task, config, device=pool or DevicePool(), observation="xml",
                   action="json")
    try:
        observation, _ = env.reset(seed=0)
        agent = experts.build(task.expert, route)
        agent.reset(task.goal, 0)
        seen: list[dict] = []
        while True:
            action = agent.act(observation)
            if before_step is not None:
                before_step(env, action)
            observation, _, terminated, truncated, info = env.step(action)
            seen.append(observation)
            if terminated or truncated:
                if not info.get("success"):
                    raise RuntimeError(f"the expert of {task.id} failed in {config}")
                return seen
    finally:
        if pool is None:
            env.close()


def expert_checkpoints(task: tasks.Task, config: str, pool: DevicePool | None = None,
                       route: str = "launcher") -> tuple[str, ...]:
    """The checkpoints of the task's expert in `config`, in the order it reaches them."""
    found: list[str] = []

    def note(env: BmocaEnv, action: dict) -> None:
        target = action_target(env, action)
        if is_checkpoint(target):
            found.append(target)

    play_expert(task, config, pool, route, before_step=note)
    return tuple(found)


class ProgressShaping:
    """The shaped rewards of one environment's episodes (one episode at a time)."""

    def __init__(self, gamma: float, route: str = "launcher") -> None:
        self.gamma, self.route = gamma, route
        self._references: dict[tuple[str, str], tuple[str, ...]] = {}
        self.checkpoints: tuple[str, ...] = ()
        self.targets: list[str | None] = []
        self.potential = 0.0

    def start(self, task: tasks.Task, config: str, pool: DevicePool,
              targets: Sequence[str | None] = ()) -> None:
        """A new episode of `task` in `config` (or one that already took `targets`)."""
        key = (task.id, config)
        if key not in self._references:
            self._references[key] = expert_checkpoints(task, config, pool, self.route)
        self.checkpoints = self._references[key]
        self.targets = list(targets)
        self.potential = checkpoint_progress(self.checkpoints, self.targets)

    def reward(self, reward: float, target: str | None, terminated: bool) -> float:
        """The step's reward plus γ·Φ(s') − Φ(s); `target` is what its action acted on."""
        self.targets.append(target)
        after = 0.0 if terminated else checkpoint_progress(self.checkpoints, self.targets)
        shaped = reward + self.gamma * after - self.potential
        self.potential = after
        return shaped

"""`replay:CONFIG`: the expert's actions on one configuration, replayed blind on another.

Why: it is the simplest agent that depends on the screen's geometry and nothing else, so
a factor grid (`bmoca eval --factors`) shows exactly what each factor moves - density,
device, icon layout and right-to-left locales move its taps; dark theme and wallpaper do
not - the weak agent of the factor example in docs/metrics.md. It claims done after its
last action, so its done claims are false whenever the replay missed.
"""

from __future__ import annotations

from typing import Any

from bmoca import tasks

_RECORDED: dict[tuple[str, str], tuple[dict[str, Any], ...]] = {}
_POOL: Any = None


def recorded(task: tasks.Task, config_id: str) -> tuple[dict[str, Any], ...]:
    """The expert's actions on `config_id` (one episode, seed 0), kept per process."""
    global _POOL
    key = (task.id, config_id)
    if key not in _RECORDED:
        from bmoca.agents.simple import ExpertAgent
        from bmoca.env import BmocaEnv, DevicePool

        if _POOL is None:
            _POOL = DevicePool("sim")
        expert = ExpertAgent(task)
        env = BmocaEnv(task, config_id, _POOL, observation=expert.observation_modes,
                       action=expert.action_mode)
        observation, _ = env.reset(seed=0)
        expert.reset(env.goal, seed=0)
        actions = []
        while True:
            action = expert.act(observation)
            actions.append(action)
            observation, _, terminated, truncated, _ = env.step(action)
            if terminated or truncated:
                break
        _RECORDED[key] = tuple(actions)
    return _RECORDED[key]


class ReplayAgent:
    """Replays `recorded(task, source)` step by step, then claims the task complete."""

    action_mode = "json"
    observation_modes = ("xml",)

    def __init__(self, task: tasks.Task, source: str):
        from bmoca import configs

        try:
            configs.get(source)
        except KeyError as exc:
            raise ValueError(f"replay:{source}: {exc.args[0]}") from None
        if not task.expert:
            raise ValueError(f"task {task.id} has no expert plan to replay")
        self.name = f"replay:{source}"
        self.actions = recorded(task, source)
        self.step = 0

    def reset(self, goal: str, seed: int | None = None) -> None:
        self.step = 0

    def act(self, observation: dict[str, Any]) -> Any:
        self.step += 1
        if self.step <= len(self.actions):
            return dict(self.actions[self.step - 1])
        return {"action_type": "status", "goal_status": "complete"}

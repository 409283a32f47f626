"""What the web UI's tests share: the task they play and a person's clicks that solve it."""

from __future__ import annotations

from bmoca import tasks

TASK = "settings/turn_on_airplane_mode"
CONFIG = "train_env_000"


def expert_taps(task_id: str = TASK, config: str = CONFIG) -> list[dict]:
    """The expert's clicks on this task and configuration, as gestures a person would make."""
    from bmoca.agents import ExpertAgent
    from bmoca.env import BmocaEnv

    env = BmocaEnv(task_id, config, observation=("xml", "text"), action="json")
    observation, _ = env.reset(seed=0)
    agent = ExpertAgent(tasks.get(task_id))
    agent.reset(env.goal, seed=0)
    gestures = []
    while True:
        action = agent.act(observation)
        assert action["action_type"] == "click", action
        gestures.append({"gesture": "tap", "x": action["x"], "y": action["y"]})
        observation, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            env.close()
            return gestures

"""Environment speed: reset time, env steps/s per observation mode, and episodes/s of the
expert, as an evaluation sees them (detectors, observations and action conversion included).

    python benchmarks/env_speed.py [--episodes 60] [--config test_env_100] [--tasks settings]
"""

from __future__ import annotations

import argparse
import statistics
import time

from rich.console import Console
from rich.table import Table

import bmoca
from bmoca import tasks
from bmoca.agents import ExpertAgent, RandomAgent
from bmoca.env import DevicePool


def run(task_list, config: str, observation, agent_for, episodes: int, pool) -> dict:
    resets, steps, step_time, solved = [], 0, 0.0, 0
    for i in range(episodes):
        task = task_list[i % len(task_list)]
        agent = agent_for(task)
        env = bmoca.make(task, config, device=pool, observation=observation,
                         action=agent.action_mode)
        t0 = time.perf_counter()
        obs, _ = env.reset(seed=i)
        resets.append(time.perf_counter() - t0)
        agent.reset(env.goal, seed=i)
        t0 = time.perf_counter()
        while True:
            obs, _, terminated, truncated, info = env.step(agent.act(obs))
            steps += 1
            if terminated or truncated:
                break
        step_time += time.perf_counter() - t0
        solved += info["success"]
    return {"reset_ms": statistics.median(resets) * 1000, "steps_per_s": steps / step_time,
            "success": solved / episodes}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=60)
    parser.add_argument("--config", default="test_env_100")
    parser.add_argument("--tasks", default="settings", help="task spec, as for bmoca eval")
    args = parser.parse_args()
    chosen = tasks.select(args.tasks)
    pool = DevicePool()
    t0 = time.perf_counter()
    pool.get(bmoca.configs.get(args.config))
    first = time.perf_counter() - t0
    table = Table("agent", "observation", "reset (median ms)", "env steps/s", "success")
    cases = [
        ("expert", ("xml",), ExpertAgent),
        ("expert", ("text",), ExpertAgent),
        ("random", ("pixels",), lambda t: RandomAgent("discrete")),
        ("random", ("pixels", "text", "som"), lambda t: RandomAgent("discrete")),
    ]
    for name, observation, agent_for in cases:
        if name == "expert" and "xml" not in observation:
            observation = ("xml", *observation)
        result = run(chosen, args.config, observation, agent_for, args.episodes, pool)
        table.add_row(name, "+".join(observation), f"{result['reset_ms']:.1f}",
                      f"{result['steps_per_s']:.0f}", f"{result['success']:.0%}")
    console = Console()
    console.print(table)
    console.print(f"first reset of a configuration (boot + provision): {first * 1000:.0f} ms")


if __name__ == "__main__":
    main()

"""Soak: many random steps across tasks, configurations, observation and action modes, with
resets, reporting steps/s and resident memory over time. Any exception that escapes
`reset` or `step` is counted (it should be 0: hostile actions are invalid actions).

    python benchmarks/soak.py [--steps 1000000] [--observations pixels,xml,text,som,xml+text]
        [--actions dual_gesture,discrete,text,json] [--configs test] [--tasks all]
        [--every 5000] [--json soak.json]

Each episode draws one of `--observations`; `xml+text` is one episode observing both.
Memory is sampled between episodes, at the first episode boundary after every `--every`
steps: the process's resident set (VmRSS) once the heap's free pages have been given back
(`bmoca.sim.heap.release`, as a phone's reset does after painting), which is what the
process holds; and its peak so far (VmHWM), which includes what an episode drew and
dropped. A run whose caches have filled should stay flat from there on.
"""

from __future__ import annotations

import argparse
import json
import resource
import time
import traceback
from pathlib import Path

import numpy as np

import bmoca
from bmoca import configs, tasks
from bmoca.env import DevicePool
from bmoca.sim import heap

EPISODE_CAP = 30
"""Steps per episode at most (a task's own limit when lower), so resets come often."""


def rss_mb(field: str = "VmRSS") -> float:
    """Resident memory in MB: current (VmRSS) or peak (VmHWM); the peak where /proc is
    missing."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(f"{field}:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def soak(steps: int, observations: list[str], actions: list[str], config_ids: list[str],
         task_ids: list[str], every: int, seed: int = 0) -> dict:
    rng = np.random.default_rng(seed)
    pool = DevicePool("sim")
    samples: list[dict] = []
    done = episodes = invalid = 0
    errors: list[str] = []
    started = last_t = time.perf_counter()
    last_steps = 0
    samples.append({"steps": 0, "elapsed_s": 0.0, "steps_per_s": 0.0, "rss_mb": rss_mb(),
                    "peak_mb": rss_mb("VmHWM")})

    def sample() -> None:
        nonlocal last_t, last_steps
        now = time.perf_counter()
        heap.release()
        samples.append({"steps": done, "elapsed_s": round(now - started, 1),
                        "steps_per_s": round((done - last_steps) / (now - last_t), 1),
                        "rss_mb": round(rss_mb(), 1), "peak_mb": round(rss_mb("VmHWM"), 1)})
        print(json.dumps(samples[-1]), flush=True)
        last_t, last_steps = now, done

    while done < steps:
        if done >= len(samples) * every:  # between episodes
            sample()
        task = task_ids[int(rng.integers(len(task_ids)))]
        config = config_ids[int(rng.integers(len(config_ids)))]
        observation = observations[int(rng.integers(len(observations)))]
        action = actions[int(rng.integers(len(actions)))]
        env = bmoca.make(task, config, device=pool, observation=tuple(observation.split("+")),
                         action=action)
        env.action_space.seed(int(rng.integers(1 << 31)))
        try:
            env.reset(seed=int(rng.integers(1 << 31)))
            for _ in range(min(EPISODE_CAP, env.step_limit)):
                _, _, terminated, truncated, info = env.step(env.action_space.sample())
                done += 1
                invalid += info.get("action_error") is not None
                if terminated or truncated or done >= steps:
                    break
        except Exception:  # noqa: BLE001 - counted: the soak's point is that there are none
            errors.append(f"{task} {config} {observation} {action}: "
                          + traceback.format_exc().splitlines()[-1])
            print("ERROR", errors[-1], flush=True)
        episodes += 1
        env = None  # between episodes, the phones hold what the process keeps
    sample()
    elapsed = time.perf_counter() - started
    pool.close()
    return {"steps": done, "episodes": episodes, "invalid_actions": invalid,
            "exceptions": len(errors), "errors": errors[:20], "elapsed_s": round(elapsed, 1),
            "steps_per_s": round(done / elapsed, 1), "observations": observations,
            "actions": actions, "configs": len(config_ids), "tasks": len(task_ids),
            "samples": samples}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=1_000_000)
    parser.add_argument("--observations", default="pixels,xml,text,som")
    parser.add_argument("--actions", default="dual_gesture,discrete,text,json")
    parser.add_argument("--configs", default="test", help="a split (train, test, all) or ids")
    parser.add_argument("--tasks", default="all", help="task spec, as for bmoca eval")
    parser.add_argument("--every", type=int, default=5000, help="steps between samples")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, help="write the result here")
    args = parser.parse_args()
    if args.steps < 1 or args.every < 1:
        parser.error("--steps and --every must be at least 1")
    config_ids = (list(configs.ids(args.configs)) if args.configs in (*configs.SPLITS, "all")
                  else list(configs.expand(args.configs)))
    task_ids = [t.id for t in tasks.select(args.tasks)]
    result = soak(args.steps, args.observations.split(","), args.actions.split(","),
                  config_ids, task_ids, args.every, args.seed)
    summary = {k: v for k, v in result.items() if k != "samples"}
    print(json.dumps(summary, indent=1))
    first = next((s for s in result["samples"] if s["steps"] >= args.every), None)
    if first is not None:
        last = result["samples"][-1]
        print(f"RSS between episodes: {first['rss_mb']} MB after {first['steps']} steps, "
              f"{last['rss_mb']} MB after {last['steps']}; peak {last['peak_mb']} MB")
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()

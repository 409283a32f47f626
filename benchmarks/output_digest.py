"""Digests of everything the simulator outputs along expert and random episodes, to prove
that a speed change left every output byte-identical: run it before and after, compare.

Per episode it hashes, at every step, the full-resolution XML dump and screenshot, every
observation (pixels, xml, text, set-of-marks), the reward, the flags and the info dict
(detector traces and `no_effect` included), and the phone's files at the end.

    python benchmarks/output_digest.py --out after.json [--configs ...] [--tasks all]
    python benchmarks/output_digest.py --compare before.json after.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Sequence

import numpy as np

DEFAULT_CONFIGS = ("test_env_100", "train_env_000", "test_env_109", "train_env_026",
                   "test_env_108", "train_env_030")
"""Pixel 3/4 densities 160-700, font scales 0.85-1.15, LTR and RTL, light and dark."""


def _feed(h, value) -> None:
    if isinstance(value, np.ndarray):
        h.update(repr((value.shape, value.dtype.str)).encode())
        h.update(np.ascontiguousarray(value).tobytes())
    elif isinstance(value, dict):
        for key in sorted(value):
            h.update(repr(key).encode())
            _feed(h, value[key])
    elif isinstance(value, (list, tuple)):
        h.update(f"[{len(value)}".encode())
        for item in value:
            _feed(h, item)
    else:
        h.update(repr(value).encode())


def episode_digest(task, config: str, agent, seed: int, pool,
                   step_limit: int | None = None) -> str:
    """One episode's digest: every observation, reward, flag and info of every step."""
    import bmoca

    env = bmoca.make(task, config, device=pool, observation=("pixels", "xml", "text", "som"),
                     action=agent.action_mode, step_limit=step_limit)
    h = hashlib.sha256()
    obs, info = env.reset(seed=seed)
    info = {k: v for k, v in info.items() if k != "reset_s"}
    agent.reset(env.goal, seed=seed)
    _feed(h, (obs, info, env.device.dump_hierarchy(), env.device.screenshot()))
    while True:
        obs, reward, terminated, truncated, info = env.step(agent.act(obs))
        _feed(h, (obs, reward, terminated, truncated, info))
        _feed(h, (env.device.dump_hierarchy(), env.device.screenshot()))
        if terminated or truncated:
            break
    files = env.device.system.state.vfs.files  # the phone's files (the snapshot's set order
    _feed(h, sorted(files.items()))             # varies with the process's hash seed)
    return h.hexdigest()


def digests(task_ids: Sequence[str], config_ids: Sequence[str], random_steps: int = 40) -> dict:
    from bmoca import tasks
    from bmoca.agents import ExpertAgent, RandomAgent
    from bmoca.env import DevicePool

    pool = DevicePool()
    out: dict[str, str] = {}
    for config in config_ids:
        for i, task_id in enumerate(task_ids):
            task = tasks.get(task_id)
            out[f"{task_id}@{config}/expert"] = episode_digest(task, config, ExpertAgent(task),
                                                               i, pool)
            if i % 3 == 0:  # random taps, swipes and keys: inert spots, list ends, no-ops
                out[f"{task_id}@{config}/random"] = episode_digest(
                    task, config, RandomAgent("discrete"), 1000 + i, pool, random_steps)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out")
    parser.add_argument("--configs", nargs="*", default=list(DEFAULT_CONFIGS))
    parser.add_argument("--tasks", default="all", help="task spec, as for bmoca eval")
    parser.add_argument("--per-app", type=int, default=0,
                        help="only the first N tasks of each app (0: all)")
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args()
    if args.compare:
        before, after = (json.loads(open(p).read()) for p in args.compare)
        differ = sorted(k for k in before if after.get(k) != before[k])
        missing = sorted(set(before) ^ set(after))
        for key in differ:
            print(f"differs: {key}")
        print(f"{len(before)} episodes before, {len(after)} after; {len(differ)} differ; "
              f"{len(missing)} not in both")
        return 1 if differ or missing else 0
    from bmoca import tasks

    chosen = tasks.select(args.tasks)
    if args.per_app:
        seen: dict[str, int] = {}
        chosen = [t for t in chosen if seen.setdefault(t.app, 0) < args.per_app
                  and not seen.update({t.app: seen[t.app] + 1})]
    task_ids = [t.id for t in chosen]
    result = digests(task_ids, args.configs)
    text = json.dumps(result, indent=1, sort_keys=True)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

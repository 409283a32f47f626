"""Evaluation throughput: episodes/s with the process pool and with Ray actors, on the same
plan (the expert on every task of a spec x configurations), into a results store as
`bmoca eval` does. Ray runs on a local instance started here (loopback) with as many CPUs
as workers; its start-up is timed apart.

    python benchmarks/ray_speed.py [--tasks settings] [--configs test_env_100..103]
                                   [--workers 2] [--agent expert]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from bmoca import configs, tasks
from bmoca.eval import evaluate
from bmoca.eval.store import Store


def timed_run(executor: str, args: argparse.Namespace, task_list, config_ids, out: Path) -> dict:
    with Store(out) as store:
        t0 = time.perf_counter()
        played = evaluate.evaluate(store, "bench", args.agent, task_list, config_ids,
                                   args.repeats, workers=args.workers, executor=executor)
        seconds = time.perf_counter() - t0
        done = sum(1 for e in store.episodes("bench") if e.status == "done")
    return {"executor": executor, "episodes": played, "done": done, "seconds": seconds,
            "episodes_per_s": played / seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", default="settings")
    parser.add_argument("--configs", default="test_env_100..103")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--agent", default="expert")
    args = parser.parse_args()
    task_list = tasks.select(args.tasks)
    config_ids = configs.expand(args.configs)
    import ray

    with tempfile.TemporaryDirectory() as tmp:
        rows = [timed_run("process", args, task_list, config_ids, Path(tmp) / "pool.sqlite")]
        t0 = time.perf_counter()
        ray.init(num_cpus=args.workers, include_dashboard=False, log_to_driver=False,
                 _node_ip_address="127.0.0.1", configure_logging=False)
        start_s = time.perf_counter() - t0
        try:
            rows.append(timed_run("ray", args, task_list, config_ids, Path(tmp) / "ray.sqlite"))
        finally:
            ray.shutdown()
    print(f"{args.agent} on {len(task_list)} tasks x {len(config_ids)} configurations x "
          f"{args.repeats}, {args.workers} workers")
    for row in rows:
        print(f"  {row['executor']:8s} {row['episodes']:4d} episodes ({row['done']} done) in "
              f"{row['seconds']:6.1f} s: {row['episodes_per_s']:5.2f} episodes/s")
    print(f"  (starting the local Ray instance took {start_s:.1f} s, not counted above)")


if __name__ == "__main__":
    main()

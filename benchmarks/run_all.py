"""Every speed figure of the project in one run: prints a table, writes JSON and compares
with the last recorded run, so that a slowdown shows.

Rates are given twice: per second of wall-clock time and per second of this process's CPU
time. On a shared machine (other jobs on the same cores) the wall figure swings with the
load; the CPU figure is what the code costs, and is the one compared with the goal.

    python benchmarks/run_all.py                 # everything (about 10 minutes on 2 cores)
    python benchmarks/run_all.py --quick         # fewer steps, no 200-phone or full-validate rows
    python benchmarks/run_all.py --only env_xml,cold_start --repeat 5
    python benchmarks/run_all.py --record        # also make this run the baseline
    python benchmarks/run_all.py --only fork_xml --record   # update these rows of it

The JSON goes to --out (default benchmarks/last_run.json); the baseline is
benchmarks/baseline.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
BASELINE = HERE / "baseline.json"

GOALS = {
    "sim_tap_xml": (2000, "higher"), "env_xml": (1500, "higher"), "env_pixels": (200, "higher"),
    "env_pixels_text_som": (100, "higher"), "cold_start": (0.35, "lower"),
    "validate_all": (40, "lower"), "memory_per_phone": (3.0, "lower"),
    "verify_1000": (60, "lower"), "fork_xml": (1.0, "lower"),
}
"""The goals of the speed issue (#18), on the project's 2-core machine, and issue #31's:
`verify_1000` (a 1,000-episode bundle verified in a minute) and `fork_xml` (at most 1 ms of
CPU per fork)."""


# -- the rows ------------------------------------------------------------------------------

def sim_tap_xml(steps: int) -> dict:
    """SimDevice: the scripted Settings mix of sim_speed.py, an XML dump after each input."""
    from bmoca import configs
    from bmoca.device import connect

    sys.path.insert(0, str(HERE))
    from sim_speed import scripted_steps

    device = connect("sim", configs.get("train_env_000"))
    device.dump_hierarchy()
    wall0, cpu0 = time.perf_counter(), time.process_time()
    scripted_steps(device, steps, device.dump_hierarchy)
    return _rates(steps, wall0, cpu0, "steps/s")


def _env_steps(observation: tuple[str, ...], steps: int) -> dict:
    """A random agent's discrete actions on the Settings tasks (test_env_100), as RL sees them."""
    import bmoca
    from bmoca import tasks
    from bmoca.agents import RandomAgent
    from bmoca.env import DevicePool

    pool = DevicePool()
    chosen = tasks.select("settings")
    agent = RandomAgent("discrete")
    done = episode = 0
    wall = cpu = 0.0
    while done < steps:
        env = bmoca.make(chosen[episode % len(chosen)], "test_env_100", device=pool,
                         observation=observation, action="discrete")
        obs, _ = env.reset(seed=episode)
        agent.reset(env.goal, seed=episode)
        wall0, cpu0 = time.perf_counter(), time.process_time()
        while done < steps:
            obs, _, terminated, truncated, _ = env.step(agent.act(obs))
            done += 1
            if terminated or truncated:
                break
        wall += time.perf_counter() - wall0
        cpu += time.process_time() - cpu0
        episode += 1
    return {"value": done / cpu, "wall": done / wall, "unit": "steps/s"}


def env_xml(steps: int) -> dict:
    return _env_steps(("xml",), steps)


def env_pixels(steps: int) -> dict:
    return _env_steps(("pixels",), max(100, steps // 4))


def env_pixels_text_som(steps: int) -> dict:
    return _env_steps(("pixels", "text", "som"), max(100, steps // 4))


def _forked_envs(episodes: int):
    """XML environments of the Settings tasks, each stepped a few random discrete actions
    into its episode (a fork is taken mid-episode, where the state has grown)."""
    import bmoca
    from bmoca import tasks
    from bmoca.agents import RandomAgent
    from bmoca.env import DevicePool

    pool = DevicePool()
    chosen = tasks.select("settings")
    agent = RandomAgent("discrete")
    for episode in range(episodes):
        env = bmoca.make(chosen[episode % len(chosen)], "test_env_100", device=pool,
                         observation="xml", action="discrete", stop_on_success=False)
        obs, _ = env.reset(seed=episode)
        agent.reset(env.goal, seed=episode)
        for _ in range(3 + episode % 8):
            obs, _, terminated, truncated, _ = env.step(agent.act(obs))
            if terminated or truncated:
                break
        yield env


def fork_xml(forks: int) -> dict:
    """`env.set_state(env.get_state())` on XML environments mid-episode: ms per fork."""
    envs = list(_forked_envs(10))
    per_env = max(1, forks // len(envs))
    wall0, cpu0 = time.perf_counter(), time.process_time()
    for env in envs:
        for _ in range(per_env):
            env.set_state(env.get_state())
    count = per_env * len(envs)
    return {"value": (time.process_time() - cpu0) / count * 1000,
            "wall": (time.perf_counter() - wall0) / count * 1000, "unit": "ms"}


def fork_state_kb() -> dict:
    """The size of a mid-episode XML state's bytes (`EnvState.to_bytes`), median."""
    sizes = [len(env.get_state().to_bytes()) / 1024 for env in _forked_envs(10)]
    return {"value": statistics.median(sizes), "unit": "KB", "max": max(sizes)}


COLD = ("import bmoca; env = bmoca.make('settings/turn_on_airplane_mode', 'test_env_100'); "
        "env.reset(seed=0)")


def cold_start(runs: int = 5) -> dict:
    """A new Python process: `import bmoca`, `make`, `reset` (pixels observation), median.

    Bytecode is compiled as a normal install has it (one run first writes it)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    command = [sys.executable, "-c",
               "import time, resource; t = time.perf_counter(); " + COLD + "; "
               "u = resource.getrusage(resource.RUSAGE_SELF); "
               "print(time.perf_counter() - t, u.ru_utime + u.ru_stime)"]
    subprocess.run(command, env=env, check=True, capture_output=True)
    walls, cpus = [], []
    for _ in range(runs):
        out = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
        wall, cpu = (float(v) for v in out.stdout.split())
        walls.append(wall)
        cpus.append(cpu)
    return {"value": statistics.median(cpus), "wall": statistics.median(walls), "unit": "s"}


def validate_all(workers: int = 2, configs: str | None = None) -> dict:
    """`bmoca validate --tasks all` with 2 workers (every configuration unless `configs`)."""
    command = [sys.executable, "-m", "bmoca.cli.main", "validate", "--tasks", "all",
               "--workers", str(workers), "--json"]
    if configs:
        command += ["--configs", configs]
    before = _children_cpu()
    wall0 = time.perf_counter()
    out = subprocess.run(command, check=False, capture_output=True, text=True)
    wall = time.perf_counter() - wall0
    cpu = _children_cpu() - before
    result = json.loads(out.stdout) if out.stdout.strip().startswith("{") else {}
    if not result:
        raise RuntimeError(f"bmoca validate gave no JSON: {out.stderr[-500:]}")
    return {"value": wall, "wall": wall, "cpu": cpu, "unit": "s", "ok": result.get("ok"),
            "episodes": result.get("episodes"), "configs": configs or "all"}


def _children_cpu() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


PHONES = """
import gc, json, sys
from bmoca import configs
from bmoca.env import DevicePool
def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 2**20
ids = configs.ids()
wanted = int(sys.argv[1])
chosen = [configs.get(i) for i in ids[:wanted]]
chosen += [configs.random_config(seed) for seed in range(wanted - len(chosen))]
pool = DevicePool()
first = pool.get(chosen[0]); first.dump_hierarchy(); first.screenshot()
gc.collect(); base = rss()
for config in chosen[1:]:
    d = pool.get(config); d.dump_hierarchy(); d.screenshot()
gc.collect()
print(json.dumps({"phones": wanted, "rss_mb": rss(), "first_mb": base}))
"""


def phones_memory(count: int) -> dict:
    """Resident memory of one process holding `count` phones of distinct configurations
    (the 45 presets, then seeded random ones), each booted, dumped and screenshot once."""
    out = subprocess.run([sys.executable, "-c", PHONES, str(count)], check=True,
                         capture_output=True, text=True)
    return json.loads(out.stdout)


def memory_per_phone() -> dict:
    one, ten = phones_memory(1), phones_memory(10)
    return {"value": (ten["rss_mb"] - ten["first_mb"]) / 9, "unit": "MB",
            "rss_one_phone_mb": one["rss_mb"]}


def eval_throughput(workers: int, episodes: int) -> dict:
    """Expert episodes per second through the eval runner with `workers` processes."""
    from bmoca import configs, tasks
    from bmoca.eval import runner

    chosen = tasks.select("settings")
    config_ids = configs.ids()[: max(1, -(-episodes // len(chosen)))]
    specs = runner.plan("expert", chosen, config_ids, 1)[:episodes]
    before = _children_cpu()
    wall0, cpu0 = time.perf_counter(), time.process_time()
    done = sum(1 for _ in runner.execute(specs, workers))
    wall = time.perf_counter() - wall0
    cpu = time.process_time() - cpu0 + _children_cpu() - before
    return {"value": done / wall, "wall": done / wall, "cpu_s": cpu, "unit": "episodes/s",
            "workers": workers, "episodes": done}


def verify_bundle(episodes: int, workers: int = 2) -> dict:
    """`bmoca verify --workers 2` of a bundle of `episodes` expert episodes (the Settings
    tasks over the 45 configurations), scaled to 1,000 episodes; the run it bundles is
    played first and not timed."""
    import tempfile

    from bmoca import configs, tasks
    from bmoca.eval import bundle, evaluate, verify
    from bmoca.eval.store import Store

    chosen = tasks.select("settings")
    config_ids = configs.ids()
    repeats = max(1, -(-episodes // (len(chosen) * len(config_ids))))
    with tempfile.TemporaryDirectory() as tmp:
        run_dir = Path(tmp)
        with Store(run_dir) as store:
            evaluate.evaluate(store, "bench", "expert", chosen, config_ids, repeats,
                              workers=workers, limit=episodes)
        path = run_dir / "bundle.json.gz"
        bundle.write(bundle.make(run_dir), path)
        before = _children_cpu()
        wall0, cpu0 = time.perf_counter(), time.process_time()
        report = verify.verify(bundle.load(path), workers)
        wall = time.perf_counter() - wall0
        cpu = time.process_time() - cpu0 + _children_cpu() - before
    scale = 1000 / report.replayed
    return {"value": wall * scale, "wall": wall * scale, "cpu": cpu * scale, "unit": "s",
            "episodes": report.replayed, "ok": report.ok}


def _rates(count: int, wall0: float, cpu0: float, unit: str) -> dict:
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    return {"value": count / cpu, "wall": count / wall, "unit": unit}


# -- running and reporting -------------------------------------------------------------------

def plan(args: argparse.Namespace) -> list[tuple[str, str, Callable[[], dict]]]:
    steps = 200 if args.quick else args.steps
    cores = os.cpu_count() or 1
    rows: list[tuple[str, str, Callable[[], dict]]] = [
        ("sim_tap_xml", "sim_speed.py tap + XML dump (Settings)", lambda: sim_tap_xml(steps)),
        ("env_xml", "env step, XML observation, discrete action (Settings)",
         lambda: env_xml(steps)),
        ("env_pixels", "env step, pixels observation", lambda: env_pixels(steps)),
        ("env_pixels_text_som", "env step, pixels + text + set-of-marks",
         lambda: env_pixels_text_som(steps)),
        ("fork_xml", "env fork: get_state + set_state, XML, mid-episode (ms)",
         lambda: fork_xml(500 if args.quick else 5000)),
        ("fork_state_kb", "env fork: a mid-episode XML state's bytes (KB)", fork_state_kb),
        ("cold_start", "whole process: import bmoca, make, reset (CPU s)",
         lambda: cold_start(3 if args.quick else 5)),
        ("validate_all", "bmoca validate --tasks all, 2 workers (s)",
         lambda: validate_all(2, "test_env_100..102" if args.quick else None)),
        ("memory_per_phone", "memory per extra phone of a distinct configuration (MB)",
         memory_per_phone),
    ]
    rows.append(("verify_1000", "bmoca verify of 1,000 expert episodes, 2 workers (s)",
                 lambda: verify_bundle(200 if args.quick else 1000)))
    for workers in sorted({1, 2, cores}):
        rows.append((f"eval_workers_{workers}", f"eval throughput, {workers} worker(s)",
                     lambda w=workers: eval_throughput(w, 16 if args.quick else 45)))
    for count in (1, 10, 45) if args.quick else (1, 10, 45, 200):
        rows.append((f"rss_{count}_phones", f"resident memory with {count} phone(s) (MB)",
                     lambda c=count: {"value": phones_memory(c)["rss_mb"], "unit": "MB"}))
    if args.only:
        wanted = set(args.only.split(","))
        unknown = wanted - {key for key, _, _ in rows}
        if unknown:
            raise SystemExit(f"run_all.py: unknown row(s) {', '.join(sorted(unknown))}; "
                             f"choose from {', '.join(key for key, _, _ in rows)}")
        rows = [row for row in rows if row[0] in wanted]
    return rows


def machine() -> dict:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(),
            "load_1min": os.getloadavg()[0] if hasattr(os, "getloadavg") else None}


def compare(rows: dict, baseline: dict) -> dict[str, str]:
    """A verdict per row against the baseline: 'same', 'faster x1.7', 'SLOWER x0.6'."""
    verdicts = {}
    for key, row in rows.items():
        old = baseline.get("rows", {}).get(key)
        if not old or not old.get("value") or not row.get("value"):
            continue
        lower_better = GOALS.get(key, (0, "higher"))[1] == "lower" or row["unit"] in ("s", "ms", "MB", "KB")
        ratio = (old["value"] / row["value"]) if lower_better else (row["value"] / old["value"])
        verdicts[key] = ("same" if 0.9 <= ratio <= 1.1 else
                         f"faster x{ratio:.2f}" if ratio > 1 else f"SLOWER x{ratio:.2f}")
    return verdicts


def goal_text(key: str, value: float) -> str:
    if key not in GOALS:
        return ""
    goal, better = GOALS[key]
    met = value >= goal if better == "higher" else value <= goal
    return f"{'>=' if better == 'higher' else '<='} {goal:g} {'met' if met else 'NOT met'}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=1000, help="env/sim steps per rate row")
    parser.add_argument("--repeat", type=int, default=3, help="runs per rate row (median)")
    parser.add_argument("--quick", action="store_true", help="fewer steps, smaller scaling rows")
    parser.add_argument("--only", help="comma-separated row keys")
    parser.add_argument("--out", type=Path, default=HERE / "last_run.json")
    parser.add_argument("--baseline", type=Path, default=BASELINE)
    parser.add_argument("--record", action="store_true",
                        help="write this run as the baseline (with --only: these rows replace "
                             "theirs in the baseline, the others stay)")
    args = parser.parse_args()
    results: dict[str, dict] = {}
    for key, title, run in plan(args):
        repeats = args.repeat if key in ("sim_tap_xml", "env_xml", "env_pixels",
                                         "env_pixels_text_som", "fork_xml") else 1
        runs = [run() for _ in range(repeats)]
        row = dict(runs[0])
        if repeats > 1:
            row["value"] = statistics.median(r["value"] for r in runs)
            row["wall"] = statistics.median(r["wall"] for r in runs)
            row["runs"] = [round(r["value"], 1) for r in runs]
        row["title"] = title
        results[key] = row
        print(f"  {title:<58} {row['value']:>10,.2f} {row['unit']:<11} {goal_text(key, row['value'])}",
              flush=True)
    rss = {n: results[f"rss_{n}_phones"]["value"] for n in (1, 10, 45, 200)
           if f"rss_{n}_phones" in results}
    if 45 in rss and 200 in rss:  # once the shared render caches are full
        results["memory_per_phone_45_200"] = {
            "value": (rss[200] - rss[45]) / 155, "unit": "MB",
            "title": "memory per extra phone, from 45 to 200 phones (MB)"}
        print(f"  {results['memory_per_phone_45_200']['title']:<58} "
              f"{results['memory_per_phone_45_200']['value']:>10,.2f} MB")
    baseline = json.loads(args.baseline.read_text()) if args.baseline.is_file() else {}
    verdicts = compare(results, baseline)
    record = {"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "machine": machine(),
              "rows": results}
    print()
    print(f"machine: {record['machine']['cpu']}, {record['machine']['cores']} cores, "
          f"load {record['machine']['load_1min']:.1f}; python {record['machine']['python']}")
    print(f"{'figure':<58} {'value':>10} {'unit':<11} {'wall':>9}  {'vs baseline':<14} goal")
    for key, row in results.items():
        wall = f"{row['wall']:,.2f}" if "wall" in row else ""
        print(f"{row['title']:<58} {row['value']:>10,.2f} {row['unit']:<11} {wall:>9}  "
              f"{verdicts.get(key, '-'):<14} {goal_text(key, row['value'])}")
    args.out.write_text(json.dumps(record, indent=1) + "\n")
    print(f"\nwrote {args.out}" + (f"; compared with {args.baseline} ({baseline.get('when')})"
                                    if baseline else "; no baseline to compare with"))
    if args.record:
        if args.only and baseline:  # a partial run: its rows, stamped, into the baseline
            for row in results.values():
                row["when"] = record["when"]
            record = {**baseline, "rows": {**baseline.get("rows", {}), **results}}
        args.baseline.write_text(json.dumps(record, indent=1) + "\n")
        print(f"recorded as the baseline: {args.baseline}")
    return 1 if any(v.startswith("SLOWER") for v in verdicts.values()) else 0


if __name__ == "__main__":
    sys.exit(main())

"""Golden outputs: record what the simulator shows and prints, to prove a refactor changed nothing.

Before moving code, record; after, record again and compare. Three parts:

- `flows`: the expert and a seeded random agent on every task in a spread of
  configurations (default phone, dark, right-to-left, tablet, CJK, large font); per step
  the SHA-256 of the uiautomator XML and of the screenshot, and at the end of the logcat;
- `validate`: what `bmoca validate --tasks all` decides per task, configuration and agent
  (success, steps, detector trace) in all 45 configurations;
- `tests`: every `shell`, `dump_hierarchy`, `screenshot` and `pull` the test suite makes
  on a simulated phone, with a hash of its answer, keyed by test id and call number.

    python tools/golden.py record golden-before.json [--parts flows,validate,tests]
    python tools/golden.py compare golden-before.json golden-after.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

FLOW_CONFIGS = ("train_env_000", "test_env_100", "test_env_104", "test_env_105",
                "test_env_106", "test_env_109")
PARTS = ("flows", "validate", "tests")
ROOT = Path(__file__).resolve().parent.parent


def sha(data: bytes | str) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()[:16]


# -- flows -----------------------------------------------------------------------------------


def _flow(job: tuple[str, str, str]) -> tuple[str, dict]:
    from bmoca import agents, tasks
    from bmoca.env.environment import BmocaEnv

    agent_name, task_id, config_id = job
    task = tasks.get(task_id)
    agent = agents.build(agent_name, task)
    env = BmocaEnv(task, config_id, observation=tuple(agent.observation_modes) + ("xml",),
                   action=agent.action_mode, render_mode="rgb_array")
    observation, _ = env.reset(seed=7)
    agent.reset(env.goal, seed=7)
    steps = [[sha(observation["xml"]), sha(env.render().tobytes())]]
    while True:
        observation, _, terminated, truncated, info = env.step(agent.act(observation))
        steps.append([sha(observation["xml"]), sha(env.render().tobytes()),
                      info.get("action_label"), info.get("action_error")])
        if terminated or truncated:
            break
    logcat, _ = env.device.shell("logcat -d")
    record = {"success": env.success, "steps": steps, "logcat": sha(logcat),
              "detector": list(info.get("detector", []))}
    env.close()
    return f"{agent_name}|{task_id}|{config_id}", record


def record_flows(workers: int) -> dict:
    from bmoca import tasks

    jobs = [(agent, task.id, config) for config in FLOW_CONFIGS
            for task in tasks.select("all") for agent in ("expert", "random")]
    with ProcessPoolExecutor(workers) as pool:
        return dict(pool.map(_flow, jobs, chunksize=8))


# -- validate --------------------------------------------------------------------------------


def record_validate(workers: int) -> dict:
    from bmoca import configs, tasks
    from bmoca.eval import runner

    task_list = tasks.select("all")
    config_ids = configs.ids()
    specs = runner.plan("expert", task_list, config_ids, 1) + runner.plan(
        "noop", task_list, config_ids, 1)
    out = {}
    for outcome in runner.execute(specs, workers):
        spec = outcome.spec
        out["|".join((spec.agent, spec.task_id, spec.config_id))] = {
            "success": outcome.success, "steps": len(outcome.steps), "error": outcome.error,
            "detector": outcome.detector_trace}
    return dict(sorted(out.items()))


# -- tests -----------------------------------------------------------------------------------


def record_tests(workers: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "BMOCA_GOLDEN_DIR": tmp,
               "PYTHONPATH": os.pathsep.join([str(ROOT / "tools"),
                                              os.environ.get("PYTHONPATH", "")])}
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "golden_plugin",
                        "-n", str(workers), "--dist", "loadfile", "-p", "no:cacheprovider"],
                       cwd=ROOT, env=env, check=False)
        calls: dict[str, list] = {}
        for path in Path(tmp).glob("*.jsonl"):
            for line in path.read_text().splitlines():
                test_id, entry = json.loads(line)
                calls.setdefault(test_id, []).append(entry)
    return dict(sorted(calls.items()))


# -- compare ---------------------------------------------------------------------------------


def compare(before: dict, after: dict) -> int:
    differences = 0
    for part in sorted(set(before) | set(after)):
        a, b = before.get(part, {}), after.get(part, {})
        keys = sorted(set(a) | set(b))
        changed = [k for k in keys if a.get(k) != b.get(k)]
        print(f"{part}: {len(keys)} entries, {len(changed)} differ")
        for key in changed[:20]:
            print(f"  {key}")
            print(f"    before: {json.dumps(a.get(key))[:300]}")
            print(f"    after:  {json.dumps(b.get(key))[:300]}")
        differences += len(changed)
    return 1 if differences else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record", help="record golden outputs into a JSON file")
    rec.add_argument("out", type=Path)
    rec.add_argument("--parts", default=",".join(PARTS),
                     help=f"comma-separated, of [{','.join(PARTS)}]")
    rec.add_argument("--workers", type=int, default=2)
    cmp = sub.add_parser("compare", help="compare two recordings; exit 1 when they differ")
    cmp.add_argument("before", type=Path)
    cmp.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.command == "compare":
        return compare(json.loads(args.before.read_text()), json.loads(args.after.read_text()))
    parts = [p for p in args.parts.split(",") if p]
    unknown = [p for p in parts if p not in PARTS]
    if unknown:
        parser.error(f"unknown part(s) {', '.join(unknown)}; choose from {', '.join(PARTS)}")
    recorders = {"flows": record_flows, "validate": record_validate, "tests": record_tests}
    result = {part: recorders[part](args.workers) for part in parts}
    args.out.write_text(json.dumps(result, indent=0, sort_keys=True))
    print(f"wrote {args.out}: " + ", ".join(f"{p} {len(result[p])}" for p in parts))
    return 0


if __name__ == "__main__":
    sys.exit(main())

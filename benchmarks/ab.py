"""Two source trees compared fairly on a machine whose speed drifts: `run_all.py` rows run
in one tree, then the other, again and again, and each row is reported as the median of
the paired ratios (after / before).

On a shared virtual machine the CPU figures of the same code move by a third within
minutes (the host's other tenants), so a before/after comparison of runs an hour apart,
or against `baseline.json`, says more about the host than the code. Pairs taken seconds
apart see the same host.

    git worktree add --detach /tmp/before 7b4e84e
    python benchmarks/ab.py /tmp/before . --only sim_tap_xml,env_xml --pairs 8
    python benchmarks/ab.py /tmp/before . --only cold_start --pairs 3 --json

Each run starts in its own tree's directory with that tree first on PYTHONPATH (the
cold-start and memory rows start subprocesses, which import from the working directory).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

LOWER_IS_BETTER_UNITS = ("s", "MB")


def run_rows(tree: Path, rows: str, repeat: int) -> dict[str, dict]:
    """One `run_all.py --only rows` in `tree`; its rows as the JSON gives them."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run.json"
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPATH"] = os.pathsep.join([str(tree), env.get("PYTHONPATH", "")]).rstrip(
            os.pathsep)
        command = [sys.executable, str(tree / "benchmarks" / "run_all.py"), "--only", rows,
                   "--repeat", str(repeat), "--out", str(out)]
        done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True)
        if not out.exists():
            raise SystemExit(f"ab.py: run_all.py failed in {tree}: {done.stderr.strip()[-500:]}")
        return json.loads(out.read_text())["rows"]


def summarize(before: list[dict], after: list[dict]) -> dict[str, dict]:
    """Per row: both sides' medians and the median of the paired ratios (>1: after is
    better, whether the row counts steps/s or seconds and megabytes)."""
    summary = {}
    for key in before[0]:
        old = [run[key]["value"] for run in before]
        new = [run[key]["value"] for run in after]
        lower_better = before[0][key]["unit"] in LOWER_IS_BETTER_UNITS
        ratios = sorted((o / n) if lower_better else (n / o) for o, n in zip(old, new, strict=True))
        summary[key] = {"unit": before[0][key]["unit"], "before": old, "after": new,
                        "before_median": statistics.median(old),
                        "after_median": statistics.median(new),
                        "ratio_median": statistics.median(ratios), "ratios": ratios}
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("before", type=Path, help="the tree measured first in each pair")
    parser.add_argument("after", type=Path, help="the tree measured second in each pair")
    parser.add_argument("--only", required=True, help="comma-separated run_all.py row keys")
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=1, help="run_all.py's --repeat per run")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = parser.parse_args()
    if args.pairs < 1 or args.repeat < 1:
        parser.error("--pairs and --repeat must be at least 1")
    trees = [args.before.resolve(), args.after.resolve()]
    for tree in trees:
        if not (tree / "benchmarks" / "run_all.py").is_file():
            parser.error(f"{tree} is not a bmoca source tree (no benchmarks/run_all.py)")
    before, after = [], []
    for _ in range(args.pairs):
        before.append(run_rows(trees[0], args.only, args.repeat))
        after.append(run_rows(trees[1], args.only, args.repeat))
    summary = summarize(before, after)
    if args.json:
        print(json.dumps(summary, indent=1))
        return
    print(f"{'row':<24}{'before':>12}{'after':>12}  unit       paired ratio (median, range)")
    for key, row in summary.items():
        print(f"{key:<24}{row['before_median']:>12,.2f}{row['after_median']:>12,.2f}  "
              f"{row['unit']:<10} x{row['ratio_median']:.2f} "
              f"({row['ratios'][0]:.2f}-{row['ratios'][-1]:.2f})")


if __name__ == "__main__":
    main()

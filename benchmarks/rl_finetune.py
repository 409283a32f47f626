"""BC → BC+RL (B-MoCA's RL figure): fine-tune each seed's BC checkpoint with PPO or DQN on
every task of a suite in the training configurations (`--configs`: all 35, or §6.7's 10),
and compare the greedy success on the 10 test configurations before and after, over seeds.

    python benchmarks/data_diversity.py --out runs/diversity-settings --tasks settings \\
        --route shade --steps 1400 --threads 1
    python benchmarks/rl_finetune.py --study runs/diversity-settings --out runs/rl-settings
    python benchmarks/rl_finetune.py --study runs/diversity-settings --out runs/dqn-settings \\
        --algo dqn

The BC checkpoints are a data-diversity study's (`STUDY/bc_<size>_seed<seed>.pt`, its
demonstrations `STUDY/demos` for the BC term and DQfD, its tasks and route), so the
comparison is with exactly the policies that study measured (their test success is read
from its results, measured the same way: `data_diversity.evaluate`). Each fine-tuning run is
`bmoca train ALGO` with the recipe below (anything after `--` is added to its command line
and wins), writes a checkpoint every 5 iterations and resumes after a stop; rerun the same
command to go on. `OUT/results.md` is the table: success per task before and after, mean ±
standard error over the seeds, and each seed's total.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from data_diversity import evaluate  # the study's own measure (this script's directory)

RECIPES = {
    "ppo": ["--shaping", "progress", "--kl-coef", "0.03", "--bc-coef", "0.1", "--lr", "5e-4",
            "--envs", "4", "--timesteps", "3000"],
    "dqn": ["--envs", "4", "--timesteps", "1200", "--kl-coef", "10"],
}
"""Measured on the Settings tasks (docs/training.md): multi-task PPO with the progress
reward, held near the BC policy by a small KL term and the BC loss on the demonstrations;
DQfD (the demonstrations in every batch, a large margin) held at the BC policy by a strong
KL term (without it, one seed of three collapsed)."""


def fine_tune(args: argparse.Namespace, study: dict, seed: int, init: Path, out: Path) -> float:
    command = [sys.executable, "-m", "bmoca.cli.main", "train", args.algo, "--init", str(init),
               "--out", str(out), "--task", args.tasks, "--configs", args.configs,
               "--horizon", "task", "--route", study.get("route", "launcher"),
               "--demos", str(args.study / "demos"), "--eval-configs", "none",
               "--eval-every", "0", "--seed", str(seed), "--threads", str(args.threads),
               "--checkpoint-every", "5", *RECIPES[args.algo], *args.extra]
    if Path(f"{out}.ckpt").exists():
        command.append("--resume")
    started = time.perf_counter()
    subprocess.run(command, check=True)
    return time.perf_counter() - started


def table(results: dict, spec: str, seeds: list[int], algo: str) -> str:
    import numpy as np

    from bmoca import tasks
    from bmoca.eval.metrics import mean_stderr
    from bmoca.eval.metrics import percent_cell as cell

    done = [str(seed) for seed in seeds if "tuned" in results.get(str(seed), {})]
    lines = [f"| task | BC | BC + {algo.upper()} |", "|---|---:|---:|"]
    for task in tasks.select(spec):
        lines.append(f"| {task.id} | {cell([results[s]['bc'][task.id] for s in done])} | "
                     f"{cell([results[s]['tuned'][task.id] for s in done])} |")

    def mean(seed: str, key: str) -> float:
        return float(np.mean(list(results[seed][key].values())))

    lines.append(f"| **average** | {cell([mean(s, 'bc') for s in done])} | "
                 f"{cell([mean(s, 'tuned') for s in done])} |")
    episodes = len(results["tasks"]) * 10
    lines.append("")
    lines.append(f"Per seed, of the {episodes} test episodes (BC → BC + {algo.upper()}): "
                 + "; ".join(f"seed {s}: {round(mean(s, 'bc') * episodes)} → "
                             f"{round(mean(s, 'tuned') * episodes)}" for s in done) + ".")
    gains = [100 * (mean(s, "tuned") - mean(s, "bc")) for s in done]
    if gains:
        gain, se = mean_stderr(gains)
        lines.append(f"Change: {gain:+.1f} ± {se:.1f} points "
                     "(mean ± standard error over the seeds).")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--study", type=Path, required=True,
                        help="a data_diversity.py --out directory (its BC checkpoints)")
    parser.add_argument("--out", type=Path, default=Path("runs/rl-finetune"))
    parser.add_argument("--algo", default="ppo", choices=sorted(RECIPES))
    parser.add_argument("--size", type=int, default=35,
                        help="the study's training-set size whose checkpoints to tune "
                        "[default: 35]")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--configs", default="train", help="where RL trains: train (the 35 "
                        "training configurations), paper (§6.7's 10) or ids [default: train]")
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    parser.add_argument("extra", nargs="*", help="after --: more `bmoca train` options")
    args = parser.parse_args()

    studied = args.study / "results.json"
    if not studied.exists():
        parser.exit(2, f"rl_finetune.py: error: --study: no {studied} (run "
                       "benchmarks/data_diversity.py --out STUDY first)\n")
    study = json.loads(studied.read_text())
    args.tasks = ",".join(study["tasks"])
    args.out.mkdir(parents=True, exist_ok=True)
    results_path = args.out / "results.json"
    results = json.loads(results_path.read_text()) if results_path.exists() else {}
    run = {"study": str(args.study.resolve()), "size": args.size, "algo": args.algo,
           "configs": args.configs, "recipe": [*RECIPES[args.algo], *args.extra]}
    if results.setdefault("run", run) != run:  # a resumed comparison keeps its recipe
        parser.exit(2, f"rl_finetune.py: error: {args.out} holds another run "
                       f"({json.dumps(results['run'])}); choose another --out\n")
    results["tasks"] = study["tasks"]
    for seed in args.seeds:
        init = args.study / f"bc_{args.size}_seed{seed}.pt"
        if not init.exists():
            parser.exit(2, f"rl_finetune.py: error: no {init} in the study (its sizes and "
                           "seeds: benchmarks/data_diversity.py --sizes --seeds)\n")
        entry = results.setdefault(str(seed), {})
        if "tuned" in entry:
            continue
        if "bc" not in entry:  # the study measured its checkpoints the same way
            studied_seed = study.get(f"{args.size}/{seed}", {}).get("success")
            entry["bc"] = studied_seed or evaluate(init, args.tasks)
            results_path.write_text(json.dumps(results, indent=1))
        tuned = args.out / f"{args.algo}_seed{seed}.pt"
        entry["seconds"] = round(fine_tune(args, study, seed, init, tuned), 1)
        entry["tuned"] = evaluate(tuned, args.tasks)
        results_path.write_text(json.dumps(results, indent=1))
        print(seed, json.dumps(entry), flush=True)
    markdown = table(results, args.tasks, args.seeds, args.algo)
    (args.out / "results.md").write_text(markdown)
    print(markdown)


if __name__ == "__main__":
    main()

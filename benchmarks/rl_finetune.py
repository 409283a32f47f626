"""BC → BC+RL (B-MoCA's RL figure): fine-tune each seed's BC checkpoint with PPO, DQN or
online filtered BC on
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
standard error over the seeds, and each seed's total; `--jobs N` fine-tunes N seeds at
once. `--control` (PPO, filtered BC) adds each BC checkpoint cloned on for as many
optimizer steps as its run took: the recipes train on the demonstrations too, so a gain
over an under-trained BC policy is not RL's alone.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from data_diversity import evaluate  # the study's own measure (this script's directory)

RECIPES = {
    "ppo": ["--shaping", "progress", "--kl-coef", "0.03", "--bc-coef", "0.1", "--lr", "5e-4",
            "--envs", "4", "--timesteps", "3000"],
    "dqn": ["--envs", "4", "--timesteps", "1200", "--kl-coef", "10"],
    "filtered-bc": ["--rounds", "100", "--episodes", "16", "--updates", "8", "--lr", "5e-4",
                    "--lr-schedule", "linear", "--buffer-steps", "4000"],
}
"""Measured on the Settings tasks (docs/training.md): multi-task PPO with the progress
reward, held near the BC policy by a small KL term and the BC loss on the demonstrations;
DQfD (the demonstrations in every batch, a large margin) held at the BC policy by a strong
KL term (without it, one seed of three collapsed); online filtered BC (the policy's own
successful episodes cloned with the demonstrations, half of each batch each), best with
`--configs random_train_0..999`, where every round meets new configurations."""
NAMES = {"ppo": "PPO", "dqn": "DQN", "filtered-bc": "filtered BC"}


def fine_tune(args: argparse.Namespace, study: dict, seed: int, init: Path, out: Path) -> float:
    command = [sys.executable, "-m", "bmoca.cli.main", "train", args.algo, "--init", str(init),
               "--out", str(out), "--task", args.tasks, "--configs", args.configs,
               "--horizon", "task", "--demos", str(args.study / "demos"),
               "--eval-configs", "none", "--eval-every", "0", "--seed", str(seed),
               "--threads", str(args.threads), "--checkpoint-every", "5"]
    if args.algo in ("ppo", "dqn"):  # their shaping follows the demonstrations' route
        command += ["--route", study.get("route", "launcher")]
    command += [*RECIPES[args.algo], *args.extra]
    if Path(f"{out}.ckpt").exists():
        command.append("--resume")
    started = time.perf_counter()
    subprocess.run(command, check=True)
    return time.perf_counter() - started


def optimizer_steps(tuned: Path) -> tuple[int, int, float]:
    """The optimizer steps of the run that wrote `tuned` (PPO: rollouts × epochs ×
    minibatches; filtered BC: rounds × updates), its minibatch size and learning rate."""
    import torch

    extra = torch.load(tuned, weights_only=True)["extra"]
    if "filtered_bc" in extra:
        run = extra["filtered_bc"]
        return run["rounds"] * run["updates"], run["batch_size"], run["lr"]
    rl = extra["rl"]
    rollout = rl["rollout_steps"] * rl["envs"]
    rollouts = math.ceil(rl["timesteps"] / rollout)
    return rollouts * rl["epochs"] * math.ceil(rollout / rl["batch_size"]), rl["batch_size"], rl["lr"]


def clone_on(args: argparse.Namespace, seed: int, init: Path, tuned: Path) -> tuple[Path, int]:
    """The control: the BC checkpoint cloned on, on the study's demonstrations, for as many
    optimizer steps as the RL run took (its minibatch size and learning rate, annealed to
    0), so that a gain from RL can be told from a gain from more cloning (the BC term's
    demonstrations, filtered BC's half batches of them). Returns the checkpoint and its steps."""
    from bmoca.train import bc
    from bmoca.train.datasets import StepDataset

    steps, batch, lr = optimizer_steps(tuned)
    data = StepDataset(args.study / "demos", tasks=args.tasks.split(","))
    settings = bc.Settings(steps=steps, batch_size=batch, lr=lr, restart_every=steps,
                           seed=seed)
    policy, _ = bc.train(data, settings, policy=bc.load(init))
    out = args.out / f"control_seed{seed}.pt"
    bc.save(policy, out, settings)
    return out, steps


def table(results: dict, spec: str, seeds: list[int], algo: str) -> str:
    import numpy as np

    from bmoca import tasks
    from bmoca.eval.metrics import mean_stderr
    from bmoca.eval.metrics import percent_cell as cell

    done = [str(seed) for seed in seeds if "tuned" in results.get(str(seed), {})]
    controlled = bool(done) and all("control" in results[s] for s in done)
    keys = ["bc", "tuned", *(["control"] if controlled else [])]
    lines = [f"| task | BC | BC + {NAMES[algo]} |" + (" BC cloned on (control) |"
                                                      if controlled else ""),
             "|---|---:|---:|" + ("---:|" if controlled else "")]
    for task in tasks.select(spec):
        lines.append(f"| {task.id} | " + " | ".join(
            cell([results[s][key][task.id] for s in done]) for key in keys) + " |")

    def mean(seed: str, key: str) -> float:
        return float(np.mean(list(results[seed][key].values())))

    lines.append("| **average** | " + " | ".join(cell([mean(s, key) for s in done])
                                                 for key in keys) + " |")
    episodes = len(results["tasks"]) * 10
    lines.append("")
    lines.append(f"Per seed, of the {episodes} test episodes (BC → BC + {NAMES[algo]}): "
                 + "; ".join(f"seed {s}: {round(mean(s, 'bc') * episodes)} → "
                             f"{round(mean(s, 'tuned') * episodes)}" for s in done) + ".")
    gains = [100 * (mean(s, "tuned") - mean(s, "bc")) for s in done]
    if gains:
        gain, se = mean_stderr(gains)
        lines.append(f"Change: {gain:+.1f} ± {se:.1f} points "
                     "(mean ± standard error over the seeds).")
    if controlled:
        cloned = [100 * (mean(s, "control") - mean(s, "bc")) for s in done]
        over = [100 * (mean(s, "tuned") - mean(s, "control")) for s in done]
        lines.append("Control, BC cloned on for as many optimizer steps ("
                     + ", ".join(f"seed {s}: {results[s]['control_steps']}" for s in done)
                     + "): {:+.1f} ± {:.1f} points; {} over it: {:+.1f} ± {:.1f}.".format(
                         *mean_stderr(cloned), NAMES[algo], *mean_stderr(over)))
    return "\n".join(lines) + "\n"


def control(args: argparse.Namespace, entry: dict, seed: int, init: Path, tuned: Path) -> None:
    """`clone_on`'s checkpoint for `seed`, measured as the others, into the seed's entry."""
    checkpoint, entry["control_steps"] = clone_on(args, seed, init, tuned)
    entry["control"] = evaluate(checkpoint, args.tasks)


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
    parser.add_argument("--control", action="store_true", help="PPO, filtered BC: also clone "
                        "each BC checkpoint on for as many optimizer steps as its run took, and "
                        "measure it beside (a rerun adds it to finished seeds)")
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    parser.add_argument("--jobs", type=int, default=1, help="seeds fine-tuned at once, each "
                        "in its own process [default: 1]")
    parser.add_argument("extra", nargs="*", help="after --: more `bmoca train` options")
    args = parser.parse_args()

    if args.jobs < 1:
        parser.exit(2, f"rl_finetune.py: error: --jobs: {args.jobs}; at least 1\n")
    if args.control and args.algo == "dqn":
        parser.exit(2, "rl_finetune.py: error: --control counts PPO's or filtered BC's "
                       "optimizer steps; use it with --algo ppo or filtered-bc\n")
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

    def save() -> None:  # after every measure: a stopped comparison keeps what it has
        results_path.write_text(json.dumps(results, indent=1))

    pending = []  # (seed, entry, init, tuned) still to fine-tune
    for seed in args.seeds:
        init = args.study / f"bc_{args.size}_seed{seed}.pt"
        if not init.exists():
            parser.exit(2, f"rl_finetune.py: error: no {init} in the study (its sizes and "
                           "seeds: benchmarks/data_diversity.py --sizes --seeds)\n")
        entry = results.setdefault(str(seed), {})
        tuned = args.out / f"{args.algo}_seed{seed}.pt"
        if "tuned" in entry:
            if args.control and "control" not in entry:
                control(args, entry, seed, init, tuned)
                save()
            continue
        if "bc" not in entry:  # the study measured its checkpoints the same way
            studied_seed = study.get(f"{args.size}/{seed}", {}).get("success")
            entry["bc"] = studied_seed or evaluate(init, args.tasks)
            save()
        pending.append((seed, entry, init, tuned))
    # each run is its own process; the measures run here, one at a time, as runs finish
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        running = {pool.submit(fine_tune, args, study, seed, init, tuned): (seed, entry, init,
                                                                             tuned)
                   for seed, entry, init, tuned in pending}
        for finished in as_completed(running):
            seed, entry, init, tuned = running[finished]
            entry["seconds"] = round(finished.result(), 1)
            entry["tuned"] = evaluate(tuned, args.tasks)
            save()
            if args.control:
                control(args, entry, seed, init, tuned)
                save()
            print(seed, json.dumps(entry), flush=True)
    markdown = table(results, args.tasks, args.seeds, args.algo)
    (args.out / "results.md").write_text(markdown)
    print(markdown)


if __name__ == "__main__":
    main()

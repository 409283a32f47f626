"""B-MoCA's data-diversity study (Figure 8): BC on the six representative tasks (or any
`--tasks` spec) with 7, 21 and 35 training configurations, each evaluated greedily on the 10
test configurations.

    python benchmarks/data_diversity.py --out runs/diversity
    python benchmarks/data_diversity.py --out runs/diversity-settings-shade --tasks settings \\
        --route shade --steps 700 --threads 1
    python benchmarks/data_diversity.py --out runs/diversity-gpu --arch reference \\
        --steps 4000 --device cuda --repeats 5

Steps, each resumable (rerun the same command to continue after a stop):
1. expert demonstrations of the tasks in all 35 training configurations
   (`bmoca demos generate`, `--repeats` episodes each);
2. one BC policy per training-set size and seed (`OUT/bc_<size>_seed<seed>.pt`), trained on
   the demonstrations of the first 7, 21 or 35 training configurations (§6.6);
3. greedy episodes of every task in the 10 test configurations, within the task's step
   limit (the simulator is deterministic, so one episode per configuration);

then a Markdown table (`OUT/results.md`) of success per task and size, mean ± standard
error over the seeds, and its plot (`OUT/results.png`, with the `report` extra), with the
paper's Language figures beside them (23 % with 7 training configurations, 53 % with 35;
the workshop version: 20, 40 and 63 % with 7, 21 and 35).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

PAPER_LANGUAGE = {7: "23", 21: "-", 35: "53"}
"""Figure 8 of B-MoCA v2 on Language; the workshop version's Figure 8 had 20, 40 and 63."""
WORKSHOP_LANGUAGE = {7: "20", 21: "40", 35: "63"}


def generate_demos(out: Path, spec: str, repeats: int, screen_width: int, workers: int,
                   route: str) -> Path:
    demos = out / "demos"
    command = [sys.executable, "-m", "bmoca.cli.main", "demos", "generate", "--tasks",
               spec, "--split", "train", "--repeats", str(repeats), "--out",
               str(demos), "--screen-width", str(screen_width), "--workers", str(workers),
               "--play", "discrete",  # labels a discrete policy can follow (docs/demos.md)
               "--route", route]
    subprocess.run(command, check=True)
    return demos


def train_one(demos: Path, size: int, seed: int, args: argparse.Namespace, path: Path) -> dict:
    from bmoca.train import bc
    from bmoca.train.datasets import StepDataset, training_configs

    data = StepDataset(demos, config_ids=training_configs(size))
    model = {"grid_taps": True} if args.grid_taps else {}
    if args.arch == "reference":
        from bmoca.cli.train import default_text_encoder

        model["text_encoder"] = default_text_encoder()
    settings = bc.Settings(arch=args.arch, steps=args.steps, batch_size=args.batch_size,
                           lr=args.lr, restart_every=max(1, args.steps // 2), seed=seed,
                           device=args.device, model=model)
    policy, result = bc.train(data, settings)
    bc.save(policy, path, settings, extra={"data": str(demos), "train_configs": size})
    return {"demos": len(data.demo_steps), "transitions": len(data),  # the data, not updates
            "seconds": round(result.seconds, 1),
            "final_loss": round(sum(result.losses[-20:]) / len(result.losses[-20:]), 4)}


def evaluate(path: Path, spec: str) -> dict[str, float]:
    """Greedy success of each task of `spec` over the 10 test configurations."""
    from bmoca import configs, tasks
    from bmoca.train import bc
    from bmoca.train.rl import greedy_by_task

    return greedy_by_task(bc.load(path), tasks.select(spec), list(configs.ids("test")))


def table(results: dict, spec: str, sizes: list[int], seeds: list[int]) -> str:
    import numpy as np

    from bmoca import tasks
    from bmoca.eval.metrics import percent_cell as cell

    header = ("| task | " + " | ".join(f"{s} configs" for s in sizes)
              + " | paper (7 / 35; workshop 7 / 21 / 35) |")
    lines = [header, "|---|" + "---:|" * len(sizes) + "---:|"]
    for task in tasks.select(spec):
        row = [cell([results[f"{s}/{seed}"]["success"][task.id] for seed in seeds
                     if f"{s}/{seed}" in results]) for s in sizes]
        paper = (f"{PAPER_LANGUAGE[7]} / {PAPER_LANGUAGE[35]}; "
                 f"{' / '.join(WORKSHOP_LANGUAGE.values())}" if "language" in task.id else "-")
        lines.append(f"| {task.id} | " + " | ".join(row) + f" | {paper} |")
    means = [cell([float(np.mean(list(results[f"{s}/{seed}"]["success"].values())))
                   for seed in seeds if f"{s}/{seed}" in results]) for s in sizes]
    lines.append("| **average** | " + " | ".join(means) + " | - |")
    return "\n".join(lines) + "\n"


def plot(results: dict, sizes: list[int], seeds: list[int], path: Path) -> bool:
    """Figure 8's plot: average test success against the number of training
    configurations, mean ± standard error over the seeds, each seed a dot, the paper's
    Language figures beside. False when matplotlib (the `report` extra) is missing."""
    try:
        import matplotlib
    except ImportError:
        return False
    import numpy as np

    from bmoca.eval.metrics import mean_stderr

    matplotlib.use("Agg")
    from matplotlib import pyplot

    figure, axes = pyplot.subplots(figsize=(5.5, 3.5), dpi=100)
    per_seed = {size: [100 * float(np.mean(list(results[f"{size}/{seed}"]["success"].values())))
                       for seed in seeds if f"{size}/{seed}" in results] for size in sizes}
    shown = [size for size in sizes if per_seed[size]]
    stats = [mean_stderr(per_seed[size]) for size in shown]
    means, errors = [m for m, _ in stats], [e for _, e in stats]
    axes.errorbar(shown, means, yerr=errors, marker="o", capsize=4,
                  label=f"bmoca, average over {len(results['tasks'])} tasks")
    for size in shown:
        axes.scatter([size] * len(per_seed[size]), per_seed[size], color="grey", s=12,
                     zorder=3)
    paper = {int(k): float(v) for k, v in PAPER_LANGUAGE.items() if v != "-"}
    axes.plot(list(paper), list(paper.values()), "s--", color="tab:red",
              label="paper, Language (v2)")
    axes.plot([int(k) for k in WORKSHOP_LANGUAGE], [float(v) for v in WORKSHOP_LANGUAGE.values()],
              "^:", color="tab:orange", label="paper, Language (workshop)")
    axes.set(xlabel="training configurations", ylabel="test success (%)", xticks=sizes,
             ylim=(0, 100), title="BC and data diversity (seeds as dots)")
    axes.legend(loc="upper left", fontsize="small")
    figure.tight_layout()
    figure.savefig(path)
    pyplot.close(figure)
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("runs/diversity"))
    parser.add_argument("--tasks", default="representative",
                        help="task spec, as for bmoca eval [default: representative]")
    parser.add_argument("--sizes", type=int, nargs="+", default=[7, 21, 35])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--repeats", type=int, default=1, help="demonstrations per task "
                        "and training configuration")
    parser.add_argument("--arch", default="small", choices=["small", "reference"])
    parser.add_argument("--grid-taps", action="store_true",
                        help="small arch: score each grid tap from the image under it")
    parser.add_argument("--steps", type=int, default=1000)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--device", default="cpu", help="torch device: cpu, cuda, mps")
    parser.add_argument("--threads", type=int, default=0, help="torch CPU threads")
    parser.add_argument("--screen-width", type=int, default=128)
    parser.add_argument("--workers", type=int, default=1, help="demo generation workers")
    parser.add_argument("--route", default="launcher", choices=["launcher", "shade"],
                        help="how the experts open Settings (bmoca demos generate --route): "
                        "the launcher icon, or the notification shade's gear, the same on "
                        "every home screen [default: launcher]")
    args = parser.parse_args()

    import torch

    if args.threads:
        torch.set_num_threads(args.threads)
    from bmoca import tasks

    try:
        chosen = [task.id for task in tasks.select(args.tasks)]
    except (KeyError, ValueError) as error:
        parser.exit(2, f"data_diversity.py: error: --tasks: {error}\n")
    args.out.mkdir(parents=True, exist_ok=True)
    results_path = args.out / "results.json"
    results = json.loads(results_path.read_text()) if results_path.exists() else {}
    if results.setdefault("tasks", chosen) != chosen:  # a resumed study keeps its tasks
        parser.exit(2, f"data_diversity.py: error: {args.out} holds a study of other tasks "
                       f"({', '.join(results['tasks'])}); choose another --out\n")
    # and its demonstrations' route (a study from before --route: the launcher's)
    recorded = "launcher" if len(set(results) - {"tasks"}) else args.route
    if results.setdefault("route", recorded) != args.route:
        parser.exit(2, f"data_diversity.py: error: {args.out} holds a study with --route "
                       f"{results['route']}; choose another --out\n")
    training = {"arch": args.arch, "steps": args.steps, "batch_size": args.batch_size,
                "lr": args.lr, "repeats": args.repeats, "screen_width": args.screen_width}
    if args.grid_taps:  # recorded only when on: a study from before the option still matches
        training["grid_taps"] = True
    if results.setdefault("training", training) != training:  # one budget per table
        parser.exit(2, f"data_diversity.py: error: {args.out} holds a study trained with "
                       f"{json.dumps(results['training'])}; choose another --out\n")
    started = time.perf_counter()
    demos = generate_demos(args.out, args.tasks, args.repeats, args.screen_width, args.workers,
                           args.route)
    for size in args.sizes:
        for seed in args.seeds:
            key = f"{size}/{seed}"
            if key in results:
                continue
            path = args.out / f"bc_{size}_seed{seed}.pt"
            info = train_one(demos, size, seed, args, path)
            info["success"] = evaluate(path, args.tasks)
            results[key] = info
            results_path.write_text(json.dumps(results, indent=1))
            print(key, json.dumps(info), flush=True)
    markdown = table(results, args.tasks, args.sizes, args.seeds)
    (args.out / "results.md").write_text(markdown)
    print(markdown)
    if plot(results, args.sizes, args.seeds, args.out / "results.png"):
        print(f"plot: {args.out / 'results.png'}")
    print(f"total {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()

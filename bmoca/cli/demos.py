"""`bmoca demos generate`: record the scripted experts into a demonstration dataset."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from bmoca.cli import executors
from bmoca.cli.common import (
    TASK_HELP,
    TASKS_HELP,
    choice,
    config_ids,
    console,
    error_line,
    select_tasks,
    split_option,
    task_split_option,
    writable_dir,
)

demos_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None,
                        help="Expert demonstration datasets for few-shot prompts and training.")


@demos_app.command("generate")
def demos_generate(
    task_specs: list[str] = typer.Option(None, "--tasks", help=TASKS_HELP + " [default: "
                                         "settings]", show_default=False),
    task_ids: list[str] = typer.Option(None, "--task", help=TASK_HELP),
    task_split: str = task_split_option(),
    split: str = split_option("train", "train, test or all configurations "
                              "(demonstrations are training data: train by default)"),
    config_spec: str = typer.Option(None, "--configs", help="comma-separated config ids, ranges "
                                    "such as train_env_000..006 or random_train_0..99 "
                                    "(overrides --split's list; the manifest keeps --split)"),
    repeats: int = typer.Option(1, min=1, help="episodes per task and configuration"),
    out: Path = typer.Option(..., help="dataset directory; rerunning resumes it"),
    workers: int = typer.Option(1, min=1, help="worker processes"),
    seed: int = typer.Option(0, help="base seed; each episode's seed derives from it"),
    screen_width: int = typer.Option(540, min=0, max=4096, help="width of saved screenshots in pixels "
                                     "(0: the phone's full size)"),
    play: str = typer.Option("exact", help="exact (the expert's own actions) or discrete "
                             "(each action as its 385-way equivalent: for training discrete "
                             "policies)"),
    route: str = typer.Option("launcher", help="how experts open Settings: launcher (its "
                              "icon, as the reference) or shade (the notification shade's "
                              "gear, the same on every home-screen layout)"),
    as_json: bool = typer.Option(False, "--json", help="print the summary as JSON"),
    executor: str = typer.Option("process", "--executor", help=executors.EXECUTOR_HELP),
    ray_address: str = typer.Option(None, "--ray", help=executors.RAY_HELP),
) -> None:
    """Record the scripted experts into a demonstration dataset (docs/demos.md).

    Only successful episodes are kept; failures are listed and counted in the manifest."""
    from bmoca.cli.eval import _progress, terminate_like_ctrl_c
    from bmoca.demos import DemoError
    from bmoca.demos.generate import PLAYS, generate
    from bmoca.tasks.experts import ROUTES

    play = choice("--play", play, list(PLAYS))
    route = choice("--route", route, list(ROUTES))
    task_list = select_tasks(task_specs, task_ids, default="settings", task_split=task_split)
    chosen_configs = config_ids(split, config_spec)
    writable_dir("--out", out)
    executor, ray_address, workers = executors.resolve(executor, ray_address, "sim", workers)
    terminate_like_ctrl_c()
    with _progress() as progress:
        bar = progress.add_task("demos", total=None, status="")
        counts = {"kept": 0, "failed": 0}

        def started(total: int, skipped: int) -> None:
            progress.update(bar, total=total, completed=skipped,
                            status=f"{skipped} already recorded" if skipped else "")

        def finished(rec) -> None:
            counts["failed" if rec.error else "kept"] += 1
            progress.update(bar, advance=1,
                            status=f"kept {counts['kept']}  failed {counts['failed']}")

        try:
            summary = generate(out, task_list, chosen_configs, split=split, repeats=repeats,
                               seed=seed, workers=workers, screen_width=screen_width or None,
                               play=play, route=route, executor=executor,
                               ray_address=ray_address, on_start=started,
                               on_episode=finished)
        except DemoError as exc:
            progress.stop()
            raise typer.Exit(_error(str(exc))) from None
        except KeyboardInterrupt:
            progress.stop()
            console.print(f"interrupted: recorded episodes are in {out}; run the same "
                          "command again to resume.", markup=False)
            raise typer.Exit(130) from None
    if as_json:
        print(json.dumps({"out": str(out), "kept": summary.kept, "failed": summary.failed,
                          "skipped": summary.skipped, "total_kept": summary.total_kept,
                          "total_failed": summary.total_failed,
                          "failures": list(summary.failures)}, indent=1))
        return
    for line in summary.failures:
        console.print(f"expert failed {line}", markup=False)
    console.print(f"{out}: kept {summary.kept} new episode(s), {summary.failed} expert "
                  f"failure(s), {summary.skipped} already done; dataset holds "
                  f"{summary.total_kept} episode(s), {summary.total_failed} failure(s) listed "
                  f"in failed.jsonl.", markup=False)


def _error(message: str) -> int:
    error_line(message)
    return 2


@demos_app.command("export")
def demos_export(
    data: Path = typer.Option(..., help="dataset directory written by `bmoca demos generate`"),
    fmt: str = typer.Option(..., "--format", help="minari, hf (Hugging Face datasets, "
                            "save_to_disk) or parquet (one file, one row per step)"),
    out: Path = typer.Option(..., help="parquet: the file; hf: a new directory; minari: the "
                             "Minari root (MINARI_DATASETS_PATH) to write the dataset into"),
    dataset_id: str = typer.Option("bmoca/demos-v0", help="minari: the dataset id"),
    as_json: bool = typer.Option(False, "--json", help="print the summary as JSON"),
) -> None:
    """Export a demonstration dataset to Minari, Hugging Face datasets or Parquet
    (docs/demos.md, "Export"). Needs the export extra: pip install 'bmoca[export]'."""
    from bmoca.demos import DemoError
    from bmoca.demos.export import FORMATS, export

    fmt = choice("--format", fmt, list(FORMATS))
    options = {"dataset_id": dataset_id} if fmt == "minari" else {}
    try:
        result = export(data, fmt, out, **options)
    except DemoError as exc:
        raise typer.Exit(_error(str(exc))) from None
    if as_json:
        print(json.dumps(result.to_json(), indent=1))
        return
    for line in result.skipped:
        console.print(f"left out {line}", markup=False, soft_wrap=True)
    for line in result.notes:
        console.print(f"note: {line}", markup=False, soft_wrap=True)
    console.print(f"{result.out}: {result.format}, {result.episodes} episode(s), "
                  f"{result.steps} step(s)", markup=False, soft_wrap=True)


@demos_app.command("list")
def demos_list(
    directory: Path = typer.Argument(None, metavar="DIR", show_default=False,
                                     help="dataset directory (`bmoca demos generate`, or the "
                                     "human recordings of `bmoca ui`)"),
    data: Path = typer.Option(None, metavar="DIR", help="the dataset directory, as the other "
                              "demos commands take it (same as DIR)"),
    as_json: bool = typer.Option(False, "--json", help="print JSON for scripts"),
) -> None:
    """List a dataset's episodes: task, configuration, steps, and who played them."""
    from bmoca.cli.common import bad, emit
    from bmoca.demos import DemoError, load

    if directory is not None and data is not None and directory != data:
        raise bad("--data", f"{data} and DIR {directory} name two datasets; give one")
    data = directory if directory is not None else data
    if data is None:
        raise bad("DIR", "missing: give the dataset directory, e.g. bmoca demos list demos/expert")
    try:
        dataset = load(data)
    except DemoError as exc:
        raise typer.Exit(_error(str(exc))) from None
    rows = [{"episode": n, "task": d.task_id, "config": d.config_id, "repeat": d.repeat,
             "steps": len(d.steps), "success": d.success,
             "played_by": "human" if d.human else "expert"}
            for n, d in enumerate(dataset.episodes)]
    emit(rows, as_json, columns=["episode", "task", "config", "repeat", "steps", "success",
                                 "played_by"])

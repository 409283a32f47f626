"""`bmoca bundle RUN_DIR`: write a finished run as one file that anyone can re-judge with
`bmoca verify` (the format: `bmoca.eval.bundle`)."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from bmoca.cli.common import JSON_HELP, bad, console, error_line, print_json

DEFAULT_NAME = "bundle.json.gz"


def bundle_command(
    run_dir: Path = typer.Argument(..., help="run directory of `bmoca eval` (holds "
                                   "results.sqlite)"),
    out: Path = typer.Option(None, help=f"bundle file to write (default RUN_DIR/{DEFAULT_NAME})"),
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """Bundle a finished run: code and task-suite hashes, each episode's task, configuration,
    seed and actions, the claimed results and table. Check it with `bmoca verify`."""
    from bmoca.eval import bundle

    if not run_dir.exists():
        raise bad("RUN_DIR", f"{run_dir} does not exist")
    target = out or (run_dir if run_dir.is_dir() else run_dir.parent) / DEFAULT_NAME
    if target.is_dir():
        raise bad("--out", f"{target} is a directory; give a file name")
    if not target.parent.is_dir():
        raise bad("--out", f"{target}: directory {target.parent} does not exist")
    try:
        content = bundle.make(run_dir)
    except bundle.BundleError as exc:
        error_line(exc)
        raise typer.Exit(2) from None
    bundle.write(content, target)
    runs = content["runs"]
    for run in runs:
        if run["bmoca_version"] != content["bmoca_version"]:
            sys.stderr.write(f"note: run {run['run_id']!r} was made by bmoca "
                             f"{run['bmoca_version']}, bundled by bmoca "
                             f"{content['bmoca_version']}: the bundle's hashes name the "
                             "installed code, not necessarily the code that ran it\n")
    episodes = sum(len(run["episodes"]) for run in runs)
    summary = {"bundle": str(target), "runs": len(runs), "episodes": episodes,
               "digest": content["digest"], "bmoca_version": content["bmoca_version"],
               "code_sha256": content["code"]["sha256"],
               "tasks_sha256": content["tasks"]["sha256"]}
    if as_json:
        print_json(summary)
        return
    console.print(f"bundle: {target} ({len(runs)} run(s), {episodes} episodes; "
                  f"{content['digest']}); check it with `bmoca verify {target}`",
                  markup=False, soft_wrap=True)

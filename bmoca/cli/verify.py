"""`bmoca verify BUNDLE`: replay every episode of a bundle without the agent, recompute
each success and the table, and exit 1 when anything differs from what it claims
(`bmoca.eval.verify`). Bad input (not a bundle, a damaged digest, an unknown task) is one
line and exit 2."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from bmoca.cli.common import JSON_HELP, console, error_line, print_json

FILES_SHOWN = 10
"""Changed files listed per part (code, task suite) before `and N more`."""


def verify_command(
    path: Path = typer.Argument(..., metavar="BUNDLE", exists=True, dir_okay=False,
                                help="a bundle written by `bmoca bundle`"),
    workers: int = typer.Option(1, min=1, help="worker processes"),
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """Replay a bundle's episodes on the simulator (no agent, no key, no network) and check
    every claimed success, step count and table cell; exit 1 when one differs or the code
    or task suite is not the installed one, 2 on bad input."""
    from bmoca.cli.eval import _progress
    from bmoca.eval import bundle, metrics, verify

    try:
        loaded = bundle.load(path)
        verify.jobs_of(loaded)  # bad task or configuration ids fail before any replay
    except bundle.BundleError as exc:
        error_line(exc)
        raise typer.Exit(2) from None
    with _progress() as bars:
        bar = bars.add_task("verify", total=None, status="")
        report = verify.verify(loaded, workers,
                               on_start=lambda total: bars.update(bar, total=total),
                               on_done=lambda n: bars.update(bar, advance=n))
    if as_json:
        print_json(_json(report))
        raise typer.Exit(0 if report.ok else 1)
    for diff in report.differences:
        console.print(f"differs  {diff.run_id}  {diff.task_id}  {diff.config_id}  repeat "
                      f"{diff.repeat}  seed {diff.seed}: {'; '.join(diff.what)}",
                      markup=False, soft_wrap=True)
    for table in report.tables:
        for line in table["differs"]:
            console.print(f"table differs  {table['run_id']}  {line}", markup=False,
                          soft_wrap=True)
    for name, part in (("code", "code"), ("task suite", "tasks")):
        suite = report.suite[part]
        if not suite["matches"]:
            console.print(_suite_line(name, suite), markup=False, soft_wrap=True)
    for table in report.tables:
        console.print(f"\nrecomputed table of run {table['run_id']} ({table['agent']}):",
                      markup=False, soft_wrap=True)
        metrics.render(table["table"], console=console)
    console.print(_summary(report), markup=False, soft_wrap=True)
    raise typer.Exit(0 if report.ok else 1)


def _suite_line(name: str, suite: dict[str, Any]) -> str:
    changed = suite["changed"]
    shown = ", ".join(changed[:FILES_SHOWN])
    more = f" and {len(changed) - FILES_SHOWN} more" if len(changed) > FILES_SHOWN else ""
    return (f"{name} differs from the installed bmoca: bundle sha256 {suite['bundle']}, "
            f"installed sha256 {suite['installed']}; {len(changed)} file(s): {shown}{more}. "
            "The episodes were replayed anyway, on the installed bmoca.")


def _summary(report: Any) -> str:
    tables = sum(1 for t in report.tables if not t["matches"])
    suite = [name for name, part in (("code", "code"), ("task suite", "tasks"))
             if not report.suite[part]["matches"]]
    unverified = (f", {report.unverified} infrastructure-error episode(s) not replayable"
                  if report.unverified else "")
    verdict = "ok: every claim holds" if report.ok else "FAILED"
    return (f"{verdict}: {report.replayed} episode(s) replayed in {report.seconds:.1f} s"
            f"{unverified}; {len(report.differences)} differ; "
            f"{'tables match' if not tables else f'{tables} table(s) differ'}; "
            + (f"{' and '.join(suite)} {'differs' if len(suite) == 1 else 'differ'} from "
               "the installed bmoca" if suite
               else "code and task suite match the installed bmoca"))


def _json(report: Any) -> dict[str, Any]:
    return {
        "ok": report.ok, "episodes": report.episodes, "replayed": report.replayed,
        "unverified": report.unverified, "seconds": round(report.seconds, 2),
        "differences": [{"run_id": d.run_id, "agent": d.agent, "task": d.task_id,
                         "config": d.config_id, "repeat": d.repeat, "seed": d.seed,
                         "claimed": {"success": d.claimed[0], "steps": d.claimed[1]},
                         "replay": {"success": d.replayed[0], "steps": d.replayed[1]},
                         "what": list(d.what)} for d in report.differences],
        "tables": [{k: v for k, v in t.items() if k != "table"} for t in report.tables],
        "code": report.suite["code"], "tasks": report.suite["tasks"],
    }

"""`bmoca validate --near-misses`: play every task's near-miss rows as an agent would and
print (or `--write`) the validity certificate, docs/validity.md."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

import typer

from bmoca import tasks
from bmoca.cli.common import console, error_line, print_json, write_last_screens


def run(task_list: Sequence[tasks.Task], config_ids: Sequence[str], *, workers: int,
        device: str, executor: str, ray_address: str | None, write: Path | None,
        screens: Path | None, as_json: bool, progress: Callable) -> None:
    """Play the rows, report every problem (a false accept or reject without a documented
    reason, or a row that cannot be played), write the certificate; exit 1 on a problem."""
    from bmoca.device.provision import CannotReset
    from bmoca.eval import near_misses

    rows = near_misses.selected_rows(task_list)
    started = time.perf_counter()
    with progress() as bars:
        bar = bars.add_task("near misses", total=None, status="")
        try:
            results = near_misses.play_rows(
                rows, config_ids, workers=workers, device=device, executor=executor,
                ray_address=ray_address, on_start=lambda total: bars.update(bar, total=total),
                on_episode=lambda outcome: bars.update(bar, advance=1))
        except CannotReset as exc:  # a used phone that cannot be brought back (README)
            bars.stop()
            error_line(exc)
            raise typer.Exit(2) from None
    seconds = time.perf_counter() - started
    found = near_misses.problems(results)
    if write is not None:
        write.parent.mkdir(parents=True, exist_ok=True)
        write.write_text(near_misses.certificate(results, config_ids), "utf-8")
    paths = write_last_screens(screens, [(f"{r.row.name}_{r.config_id}", r.row.id, r.problem,
                                          r.last_screen) for r in found])
    if as_json:
        print_json({"ok": not found, "tasks": len({r.task_id for r in rows}), "rows": len(rows),
                    "configs": list(config_ids), "episodes": len(results),
                    "seconds": round(seconds, 1), "certificate": str(write) if write else None,
                    "problems": [{"row": r.row.id, "config": r.config_id, "what": r.problem,
                                  "ended": r.ended, "steps": r.steps, "trace": list(r.trace[-4:]),
                                  "last_screen": path} for r, path in zip(found, paths,
                                                                          strict=True)]})
        raise typer.Exit(1 if found else 0)
    for result, path in zip(found, paths, strict=True):
        console.print(f"error {result.config_id}  {result.row.id}: {result.problem} "
                      f"(after {result.steps} steps, ended by {result.ended})", markup=False,
                      soft_wrap=True)
        for line in result.trace[-4:]:
            console.print(f"    {line}", markup=False)
        if path:
            console.print(f"    last screen: {path}", markup=False)
    wrote = f"; certificate written to {write}" if write is not None else ""
    summary = (f"{len(rows)} near-miss rows of {len({r.task_id for r in rows})} tasks x "
               f"{len(config_ids)} configurations ({len(results)} episodes, {seconds:.1f} s)")
    if found:
        console.print(f"{len(found)} problem(s) in {summary}{wrote}.", markup=False)
        raise typer.Exit(1)
    console.print(f"ok: {summary}: every near miss failed and every right path passed, or "
                  f"deviated as documented{wrote}.", markup=False)

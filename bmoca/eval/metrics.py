"""Success rates of a run: mean ± standard error over repeats, per task x config and aggregated.

Only episodes with status 'done' count; 'error' episodes (the infrastructure failed, the
agent was not judged) are counted apart in `Cell.errors` and left out of every rate, and
'running' episodes (unfinished) are ignored.

Why standard errors over repeats: tasks and configs are fixed by the benchmark, not
sampled, so the noise in a success rate comes from what changes between repeats (seeds,
agent sampling). Every aggregate therefore treats a repeat as one sample:

* task x config cell: the samples are the 0/1 successes of its repeats.
* any aggregate (a task over all configs, a config over all tasks, everything): the mean
  is the success rate over all its episodes; the standard error is taken over per-repeat
  success rates, each the average over the aggregate's episodes of that repeat index.
  With every cell run the same number of times, the mean equals the mean of the
  per-repeat rates.

Repeats are identified by (run_id, repeat), so episodes of several runs pooled together
count as separate repeats. Standard error = sample standard deviation (n - 1) / sqrt(n),
0.0 with a single repeat.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from rich import box
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table as RichTable

from bmoca.eval.store import EpisodeRow

MATRIX_MAX_CONFIGS = 12  # beyond this, a task x config matrix no longer reads well


@dataclass(frozen=True)
class Cell:
    """Success statistics of a group of episodes; rates are fractions in [0, 1].

    `n` is the number of repeats (samples of the standard error), `episodes` the number of
    'done' episodes (equal to `n` in a task x config cell). With no done episode, `mean`,
    `stderr` and `mean_steps` are NaN.
    """

    n: int
    successes: int
    mean: float
    stderr: float
    mean_steps: float
    episodes: int = 0
    errors: int = 0


@dataclass
class Table:
    """Success cells of a run: per task x config, per task, per config and overall."""

    tasks: list[str]
    configs: list[str]
    cells: dict[tuple[str, str], Cell]
    per_task: dict[str, Cell]
    per_config: dict[str, Cell]
    overall: Cell
    agents: list[str] = field(default_factory=list)


def _natural(text: str) -> tuple:
    """Sort key placing cfg2 before cfg10."""
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"(\d+)", text))


def _stderr(samples: Sequence[float]) -> float:
    n = len(samples)
    if n < 2:
        return 0.0
    mean = sum(samples) / n
    var = sum((s - mean) ** 2 for s in samples) / (n - 1)
    return math.sqrt(var) / math.sqrt(n)


def mean_stderr(samples: Sequence[float]) -> tuple[float, float]:
    """The mean of `samples` and its standard error (0 for fewer than two)."""
    return (sum(samples) / len(samples) if samples else float("nan")), _stderr(samples)


def percent_cell(samples: Sequence[float]) -> str:
    """`34 ± 2`: shares as percent, mean ± standard error over `samples` (seeds); `-` for
    none. The benchmark scripts' tables over seeds."""
    if not samples:
        return "-"
    mean, stderr = mean_stderr(samples)
    return f"{100 * mean:.0f} ± {100 * stderr:.0f}"


def _cell(done: Sequence[EpisodeRow], errors: int) -> Cell:
    if not done:
        return Cell(0, 0, math.nan, math.nan, math.nan, 0, errors)
    by_repeat: dict[tuple[str, int], list[float]] = defaultdict(list)
    for ep in done:
        by_repeat[(ep.run_id, ep.repeat)].append(1.0 if ep.success else 0.0)
    rates = [sum(v) / len(v) for _, v in sorted(by_repeat.items())]
    successes = sum(1 for ep in done if ep.success)
    return Cell(
        n=len(rates),
        successes=successes,
        mean=successes / len(done),
        stderr=_stderr(rates),
        mean_steps=sum(ep.steps or 0 for ep in done) / len(done),
        episodes=len(done),
        errors=errors,
    )


def success_table(episodes: Iterable[EpisodeRow]) -> Table:
    """Aggregate episodes of one agent into a `Table` (see the module docstring for the rules).

    Raises ValueError when the episodes come from several agents: filter them first.
    """
    eps = list(episodes)
    agents = sorted({ep.agent for ep in eps})
    if len(agents) > 1:
        raise ValueError(f"episodes of several agents ({', '.join(agents)}); tabulate one at a time")
    tasks = sorted({ep.task_id for ep in eps}, key=_natural)
    configs = sorted({ep.config_id for ep in eps}, key=_natural)

    def group(keep) -> Cell:
        chosen = [ep for ep in eps if keep(ep)]
        done = [ep for ep in chosen if ep.status == "done"]
        return _cell(done, sum(1 for ep in chosen if ep.status == "error"))

    return Table(
        tasks=tasks,
        configs=configs,
        cells={
            (t, c): group(lambda ep, t=t, c=c: ep.task_id == t and ep.config_id == c)
            for t in tasks
            for c in configs
        },
        per_task={t: group(lambda ep, t=t: ep.task_id == t) for t in tasks},
        per_config={c: group(lambda ep, c=c: ep.config_id == c) for c in configs},
        overall=group(lambda ep: True),
        agents=agents,
    )


def summarize(episodes: Iterable[EpisodeRow]) -> Cell:
    """One `Cell` for any group of episodes (a category, an app...), by the module's rules:
    'done' episodes count, 'error' ones are counted apart, repeats are (run_id, repeat)."""
    eps = list(episodes)
    done = [ep for ep in eps if ep.status == "done"]
    return _cell(done, sum(1 for ep in eps if ep.status == "error"))


def cell_json(cell: Cell) -> dict:
    """A cell for JSON: rates are fractions rounded to 6 places; NaN (no finished episode)
    is null, as JSON has no NaN."""
    def number(x: float) -> float | None:
        return None if math.isnan(x) else round(x, 6)

    return {"episodes": cell.episodes, "repeats": cell.n, "successes": cell.successes,
            "success": number(cell.mean), "stderr": number(cell.stderr),
            "mean_steps": number(cell.mean_steps), "errors": cell.errors}


def table_json(table: Table) -> dict:
    """The table as `bmoca eval --json` prints it: overall, per task, per config, cells."""
    return {"overall": cell_json(table.overall),
            "tasks": {task: cell_json(cell) for task, cell in table.per_task.items()},
            "configs": {config: cell_json(cell) for config, cell in table.per_config.items()},
            "cells": [{"task": task, "config": config, **cell_json(cell)}
                      for (task, config), cell in table.cells.items()]}


def format_cell(cell: Cell) -> str:
    """`67±33` in percent, `100` when the standard error is 0, `–` without done episodes."""
    if cell.episodes == 0:
        return "–"
    if cell.stderr == 0:
        return f"{cell.mean * 100:.0f}"
    return f"{cell.mean * 100:.0f}±{cell.stderr * 100:.0f}"


def _steps(cell: Cell) -> str:
    return "–" if cell.episodes == 0 else f"{cell.mean_steps:.1f}"


def _config_labels(configs: Sequence[str]) -> list[str]:
    """Column headers: the preset number (`test_env_100` -> `100`) when that is unambiguous."""
    short = [c.rsplit("_", 1)[-1] for c in configs]
    if all(c.startswith(("train_env_", "test_env_")) for c in configs) and len(set(short)) == len(short):
        return short
    return list(configs)


def _matrix_rows(table: Table) -> tuple[list[str], list[list[str]]]:
    header = ["task", *_config_labels(table.configs), "all"]
    rows = [
        [t, *(format_cell(table.cells[(t, c)]) for c in table.configs), format_cell(table.per_task[t])]
        for t in table.tasks
    ]
    rows.append(
        ["all tasks", *(format_cell(table.per_config[c]) for c in table.configs), format_cell(table.overall)]
    )
    return header, rows


def _summary_rows(table: Table) -> tuple[list[str], list[list[str]]]:
    header = ["task", "configs", "success % ± se", "mean steps", "errors"]

    def row(name: str, cell: Cell, configs: int) -> list[str]:
        return [name, str(configs), format_cell(cell), _steps(cell), str(cell.errors)]

    rows = [
        row(t, table.per_task[t], sum(1 for c in table.configs if table.cells[(t, c)].episodes))
        for t in table.tasks
    ]
    rows.append(row("all tasks", table.overall, len(table.configs)))
    return header, rows


def _caption(table: Table) -> str:
    o = table.overall
    who = f"{table.agents[0]}: " if table.agents else ""
    return (
        f"{who}success % (mean ± standard error over repeats); {o.episodes} episodes done, "
        f"{o.errors} errored (excluded)"
    )


def _rich(header: list[str], rows: list[list[str]], title: str | None, compact: bool) -> RichTable:
    out = RichTable(
        title=title,
        box=box.SIMPLE if compact else box.ROUNDED,
        padding=(0, 1),
        show_lines=False,
    )
    for i, name in enumerate(header):
        # task ids wrap (fold) before the numbers get squeezed
        out.add_column(name, justify="left" if i == 0 else "right", no_wrap=i > 0,
                       overflow="fold" if i == 0 else "ellipsis")
    for i, r in enumerate(rows):
        out.add_row(*r, end_section=(i == len(rows) - 2))
    return out


def _width(header: list[str], rows: list[list[str]]) -> int:
    """Columns of a no-wrap table: content, one padding cell each side, one border each."""
    cols = zip(header, *rows, strict=True)
    return sum(max(cell_len(v) for v in col) + 3 for col in cols) + 1


def render(table: Table, *, console: Console | None = None) -> None:
    """Print the table: a task x config matrix, or with many configs a per-task summary
    followed by the matrix only when the console is wide enough for it."""
    console = console or Console()
    if not console.is_terminal:  # a pipe or a file: plain Markdown, full task ids, no wrapping
        console.file.write(to_markdown(table))
        return
    header, rows = _matrix_rows(table)
    fits = _width(header, rows) <= console.width
    if len(table.configs) <= MATRIX_MAX_CONFIGS and fits:
        console.print(_rich(header, rows, title=None, compact=False))
        console.print(_caption(table), style="dim")
        return
    console.print(_rich(*_summary_rows(table), title=None, compact=False))
    console.print(_caption(table), style="dim")
    if fits:
        console.print(_rich(header, rows, title="success % by task x config", compact=True))


def _md(header: list[str], rows: list[list[str]]) -> list[str]:
    def line(cells: list[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

    align = "| " + " | ".join([":---"] + ["---:"] * (len(header) - 1)) + " |"
    return [line(header), align, *(line(r) for r in rows)]


def to_markdown(table: Table) -> str:
    """The rendered table as GitHub Markdown: the matrix, preceded by the per-task summary
    when there are more configs than fit a matrix on screen."""
    parts: list[str] = []
    if len(table.configs) > MATRIX_MAX_CONFIGS:
        parts += [*_md(*_summary_rows(table)), ""]
    parts += [*_md(*_matrix_rows(table)), "", f"*{_caption(table)}*"]
    return "\n".join(parts) + "\n"

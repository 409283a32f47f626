"""Factor analysis: which device factor breaks an agent.

A one-factor-at-a-time grid (`bmoca eval --factors`) plays every task on base
configurations and on configurations that differ from a base in one factor
(`bmoca.configs.derive`: `BASE+locale=ko-KR`). The drop a factor causes is the base's
success minus the variant's, paired on the same base, task, run and repeat; a factor with
several values averages its values within each pair first.

Why paired differences over (base, task, repeat): tasks differ in how hard they are, and
pairing removes that, so the standard error (sample sd of the differences / sqrt(pairs))
says whether the drop holds across the task suite, not only whether repeats agree. A
deterministic agent that never fails (the expert) gets 0 ± 0 for every factor.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bmoca.configs import derive
from bmoca.eval import metrics
from bmoca.eval.store import EpisodeRow


@dataclass(frozen=True)
class Drop:
    """Success on the bases and on the variants, and the paired drop between them."""

    factor: str
    value: str | None
    """None: all the factor's values together."""
    base_success: float
    success: float
    drop: float
    stderr: float
    pairs: int


@dataclass
class FactorTable:
    """Drops of one agent, per factor (all values) and per factor value."""

    agent: str
    bases: list[str]
    per_factor: dict[str, Drop]
    per_value: dict[tuple[str, str], Drop]
    cells: dict[str, dict[str, metrics.Cell]]
    """Per factor: success of "base" and of each value (for the plots)."""


def _stats(diffs: Sequence[float]) -> tuple[float, float]:
    n = len(diffs)
    if not n:
        return math.nan, math.nan
    mean = sum(diffs) / n
    if n < 2:
        return mean, 0.0
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    return mean, sd / math.sqrt(n)


def _drop(factor: str, value: str | None, pairs: list[tuple[float, float]]) -> Drop:
    diffs = [b - v for b, v in pairs]
    drop, stderr = _stats(diffs)
    base = sum(b for b, _ in pairs) / len(pairs) if pairs else math.nan
    var = sum(v for _, v in pairs) / len(pairs) if pairs else math.nan
    return Drop(factor, value, base, var, drop, stderr, len(pairs))


def analyse(episodes: Iterable[EpisodeRow]) -> FactorTable | None:
    """The factor table of one agent's episodes; None when they hold no derived config."""
    eps = [e for e in episodes if e.status == "done"]
    agents = sorted({e.agent for e in eps})
    if len(agents) > 1:
        raise ValueError(f"episodes of several agents ({', '.join(agents)}); analyse one at a time")
    base_of: dict[tuple[str, str, str, int], float] = {}
    variants: dict[tuple[str, str], dict[tuple[str, str, str, int], float]] = defaultdict(dict)
    base_ids: set[str] = set()
    by_config: dict[str, list[EpisodeRow]] = defaultdict(list)
    for e in eps:
        by_config[e.config_id].append(e)
        parsed = derive.factor_of(e.config_id)
        if parsed is None:
            base_of[(e.config_id, e.task_id, e.run_id, e.repeat)] = float(bool(e.success))
        else:
            base, factor, value = parsed
            base_ids.add(base)
            variants[(factor, value)][(base, e.task_id, e.run_id, e.repeat)] = float(
                bool(e.success))
    if not variants:
        return None
    per_value: dict[tuple[str, str], Drop] = {}
    grouped: dict[str, dict[tuple, list[float]]] = defaultdict(lambda: defaultdict(list))
    for (factor, value), results in sorted(variants.items(), key=lambda kv: _order(kv[0])):
        pairs = [(base_of[k], v) for k, v in results.items() if k in base_of]
        per_value[(factor, value)] = _drop(factor, value, pairs)
        for k, v in results.items():
            if k in base_of:
                grouped[factor][k].append(v)
    per_factor = {f: _drop(f, None, [(base_of[k], sum(v) / len(v)) for k, v in g.items()])
                  for f, g in grouped.items()}
    cells: dict[str, dict[str, metrics.Cell]] = {}
    base_eps = [e for b in base_ids for e in by_config.get(b, [])]
    for factor in per_factor:
        cells[factor] = {"base": metrics.summarize(base_eps)}
        for (f, value) in per_value:
            if f == factor:
                cells[factor][value] = metrics.summarize(
                    e for cid, rows in by_config.items() if derive.factor_of(cid) is not None
                    and derive.factor_of(cid)[1:] == (f, value) for e in rows)
    return FactorTable(agents[0] if agents else "", sorted(base_ids), per_factor, per_value,
                       cells)


def _order(key: tuple[str, str]) -> tuple[int, str]:
    factor, value = key
    rank = derive.FACTORS.index(factor) if factor in derive.FACTORS else len(derive.FACTORS)
    return rank, value


# -- presentation ----------------------------------------------------------------------------


def _pct(x: float) -> str:
    return "–" if math.isnan(x) else f"{x * 100:.0f}"


def _drop_text(d: Drop) -> str:
    if d.pairs == 0:
        return "–"
    return f"{d.drop * 100:+.0f}" if d.stderr == 0 else f"{d.drop * 100:+.0f}±{d.stderr * 100:.0f}"


HEADER = ["factor", "value", "base success %", "success %", "drop (pp ± se)", "pairs"]
CAPTION = ("drop = base success - success with one factor changed, in percentage points, "
           "paired on base x task x repeat (standard error over the pairs)")


def rows(table: FactorTable) -> tuple[list[str], list[list[str]]]:
    body: list[list[str]] = []
    for factor, total in table.per_factor.items():
        values = [d for (f, _), d in table.per_value.items() if f == factor]
        if len(values) > 1:
            body.append([factor, "all", _pct(total.base_success), _pct(total.success),
                         _drop_text(total), str(total.pairs)])
        for d in values:
            body.append([factor, str(d.value), _pct(d.base_success), _pct(d.success),
                         _drop_text(d), str(d.pairs)])
    return HEADER, body


def to_markdown(table: FactorTable) -> str:
    lines = [f"bases: {', '.join(table.bases)}", "", *metrics._md(*rows(table)), "",
             f"*{table.agent}: {CAPTION}*"]
    return "\n".join(lines) + "\n"


def render(table: FactorTable, console: Any) -> None:
    if not console.is_terminal:
        console.file.write(to_markdown(table))
        return
    console.print(metrics._rich(*rows(table), title=f"factors (bases: {', '.join(table.bases)})",
                                compact=False))
    console.print(CAPTION, style="dim")


def _num(x: float) -> float | None:
    return None if math.isnan(x) else round(x, 6)


def _drop_json(d: Drop) -> dict[str, Any]:
    return {"base_success": _num(d.base_success), "success": _num(d.success),
            "drop": _num(d.drop), "stderr": _num(d.stderr), "pairs": d.pairs}


def to_json(table: FactorTable) -> dict[str, Any]:
    return {"bases": table.bases,
            "factors": {f: {**_drop_json(d),
                            "values": {v: _drop_json(x) for (g, v), x in table.per_value.items()
                                       if g == f}}
                        for f, d in table.per_factor.items()}}


def plot(tables: Sequence[FactorTable], plot_dir: Path) -> list[str]:
    """One bar chart per factor: success on the bases and on each value, a bar per agent;
    returns the file names (no extension). Raises `bmoca.eval.plots.PlotsUnavailable`
    without matplotlib."""
    from bmoca.eval import plots

    names = []
    for factor in dict.fromkeys(f for t in tables for f in t.cells):
        groups = list(dict.fromkeys(g for t in tables for g in t.cells.get(factor, {})))
        name = f"factor_{factor}"
        plots.grouped_bars(plot_dir / f"{name}.png", groups,
                           {t.agent: t.cells.get(factor, {}) for t in tables},
                           title=f"Success as {factor} changes (base: {', '.join(tables[0].bases)})",
                           xlabel=factor)
        names.append(name)
    return names


def page_markdown(tables: Sequence[FactorTable], plot_names: Sequence[str]) -> str:
    """The report's factor page (factors.md)."""
    lines = ["# Which factor breaks an agent", "", CAPTION + ".", ""]
    for t in tables:
        lines += [f"## Agent `{t.agent}`", "", to_markdown(t)]
    lines += [f"![{n}](plots/{n}.png)" for n in plot_names]
    return "\n".join(lines) + "\n"

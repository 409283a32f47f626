"""Bar charts of success rates in the style of the B-MoCA paper's Figures 5-7, and RL
learning curves.

Figure 5 shows success per test configuration, Figure 6 per task, one bar per agent with
standard-error bars, and Figure 7 one agent across configurations; `grouped_bars` draws
all of these from `Cell`s. matplotlib is an optional extra (`pip install 'bmoca[report]'`)
and is imported only here, with the Agg backend, so reports work on headless machines.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from bmoca.eval.metrics import Cell

INSTALL_HINT = "pip install 'bmoca[report]'"


class PlotsUnavailable(RuntimeError):
    """matplotlib is not installed; the message says how to get it."""


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise PlotsUnavailable(f"plots need matplotlib, which is not installed: "
                               f"{INSTALL_HINT}") from None
    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def short(label: str, limit: int = 32) -> str:
    """A task id without its app prefix, shortened for an axis."""
    name = label.split("/", 1)[-1].replace("_", " ")
    return name if len(name) <= limit else name[: limit - 1] + "…"


def grouped_bars(path: Path, groups: Sequence[str], series: Mapping[str, Mapping[str, Cell]],
                 *, title: str, xlabel: str, labels: Sequence[str] | None = None) -> Path:
    """Success % per group, one bar per series (agent), error bars = standard error.

    Groups without done episodes are left empty. More than 12 groups are drawn as
    horizontal bars so long task names stay readable.
    """
    plt = _pyplot()
    labels = list(labels or groups)
    names = list(series)
    n, m = len(groups), max(1, len(names))
    width = 0.8 / m
    horizontal = n > 12
    size = (8, max(3.0, 0.28 * n * max(1, m / 2) + 1.2)) if horizontal else (
        max(5.0, 0.6 * n * max(1, m / 2) + 2), 4.2)
    fig, ax = plt.subplots(figsize=size, dpi=100)
    for i, name in enumerate(names):
        cells = [series[name].get(g) for g in groups]
        means = [c.mean * 100 if c and c.episodes else math.nan for c in cells]
        errs = [c.stderr * 100 if c and c.episodes else 0.0 for c in cells]
        pos = [k - 0.4 + width * (i + 0.5) for k in range(n)]
        bar = ax.barh if horizontal else ax.bar
        kw = {"xerr": errs} if horizontal else {"yerr": errs}
        bar(pos, [0 if math.isnan(v) else v for v in means], width * 0.92, label=name,
            capsize=2, **kw)
    ticks = list(range(n))
    if horizontal:
        ax.set_yticks(ticks, labels, fontsize=7)
        ax.invert_yaxis()
        ax.set_xlim(0, 105)
        ax.set_xlabel("success rate (%)")
        ax.set_ylabel(xlabel)
        ax.grid(axis="x", alpha=0.3)
    else:
        ax.set_xticks(ticks, labels, rotation=30 if n > 4 else 0,
                      ha="right" if n > 4 else "center", fontsize=8)
        ax.set_ylim(0, 105)
        ax.set_ylabel("success rate (%)")
        ax.set_xlabel(xlabel)
        ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    ax.set_title(title, fontsize=10)
    if len(names) > 1:
        ax.legend(fontsize=8, frameon=False)
    return _save(plt, fig, path)


def learning_curve(path: Path, rows: Sequence[Mapping[str, Any]], *, title: str) -> Path:
    """Success (exploring, and greedy where evaluated) and mean return against environment
    steps, from the rows of a `bmoca train ppo|dqn` curve."""
    plt = _pyplot()
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.6), dpi=100)

    def points(key: str, scale: float = 1.0) -> tuple[list[int], list[float]]:
        kept = [(r["timesteps"], scale * float(r[key])) for r in rows
                if r.get(key) is not None and not math.isnan(float(r[key]))]
        return [p[0] for p in kept], [p[1] for p in kept]

    for key, label, style in (("success_rate", "exploring", "-"),
                              ("greedy_train", "greedy, train configs", "o-"),
                              ("greedy_eval", "greedy, eval configs", "s--")):
        xs, ys = points(key, 100.0)
        if xs:
            left.plot(xs, ys, style, label=label, markersize=4)
    left.set_ylim(-3, 103)
    left.set_ylabel("success rate (%)")
    left.legend(fontsize=8, frameon=False)
    right.plot(*points("mean_return"), "-")
    right.set_ylabel("mean return (exploring)")
    for ax in (left, right):
        ax.set_xlabel("environment steps")
        ax.set_xlim(0, max(1, max(r["timesteps"] for r in rows)) * 1.02)
        ax.grid(alpha=0.3)
    fig.suptitle(title, fontsize=10)
    return _save(plt, fig, path)


def _save(plt: Any, fig: Any, path: Path) -> Path:
    """PNG without the matplotlib version in its metadata, so reruns give the same bytes."""
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="png", metadata={"Software": None})
    plt.close(fig)
    return path

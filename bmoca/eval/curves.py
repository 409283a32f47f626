"""Learning curves of RL fine-tuning in the evaluation report.

`bmoca train ppo|dqn|filtered-bc` writes one JSON line per iteration
(`bmoca.train.rl.write_curve`)
beside its checkpoint. The report shows that curve next to the trained agent's results, so
"RL raised success" is read off the same page as the success table: found beside a
`ppo:`/`dqn:`/`bc:` checkpoint that a run evaluated, or named with `bmoca report --curve`.
Reading needs no torch.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bmoca.agents.learned import is_learned_agent

SUFFIX = ".curve.jsonl"
COLUMNS = (("iteration", "iteration"), ("timesteps", "env steps"), ("episodes", "episodes"),
           ("success_rate", "exploring success"), ("mean_return", "mean return"),
           ("greedy_train", "greedy, train configs"), ("greedy_eval", "greedy, eval configs"),
           ("seconds", "seconds"))
CAPTION = ("One row per iteration (a PPO rollout, a block of DQN steps, or a filtered-BC "
           "round): episodes finished "
           "in it, their success and mean return under the exploring policy, and at the "
           "evaluation iterations the greedy policy's success over the training and evaluation "
           "configurations.")


class CurveError(ValueError):
    """A curve file that cannot be read; the message names the file and the line."""


@dataclass
class Curve:
    name: str
    path: Path
    rows: list[dict[str, Any]]

    @property
    def slug(self) -> str:
        return "curve_" + "".join(c if c.isalnum() else "_" for c in self.name)


def load(path: str | Path, name: str | None = None) -> Curve:
    """Read a curve file; every line must be a JSON object with integer `timesteps`."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CurveError(f"cannot read the curve {path}: {exc.strerror or exc}") from None
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise CurveError(f"{path}:{number}: not JSON ({exc.msg})") from None
        if not isinstance(row, dict) or not isinstance(row.get("timesteps"), int):
            raise CurveError(f"{path}:{number}: a curve row is a JSON object with integer "
                             "'timesteps' (as `bmoca train ppo|dqn` writes)")
        rows.append(row)
    if not rows:
        raise CurveError(f"{path} holds no iterations")
    return Curve(name or path.name.removesuffix(SUFFIX), path, rows)


def beside_checkpoint(agent_spec: str) -> Path | None:
    """The curve file that `bmoca train` wrote beside the checkpoint an agent spec names
    (`ppo:runs/ppo.pt` -> `runs/ppo.curve.jsonl`), if it exists."""
    target = agent_spec.partition(":")[2]
    if not is_learned_agent(agent_spec) or not target:
        return None
    path = Path(target).with_suffix(SUFFIX)
    return path if path.is_file() else None


def _cell(key: str, value: Any) -> str:
    if value is None or isinstance(value, float) and math.isnan(value):
        return ""
    if key in ("success_rate", "greedy_train", "greedy_eval"):
        return f"{100 * float(value):.0f}%"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def rows(curve: Curve) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the curve's table (the report's markdown and HTML)."""
    header = [title for _key, title in COLUMNS]
    return header, [[_cell(key, row.get(key)) for key, _title in COLUMNS] for row in curve.rows]


def summary(curve: Curve) -> str:
    """One line: where the greedy success started and ended."""
    evaluated = [r for r in curve.rows if "greedy_train" in r]
    last = curve.rows[-1]
    iterations = last.get("iteration", len(curve.rows))  # row 0, if any, is the start
    text = f"{iterations} iterations, {last['timesteps']} environment steps"
    if evaluated:
        first, end = evaluated[0], evaluated[-1]
        text += (f"; greedy success on the training configurations "
                 f"{_cell('greedy_train', first.get('greedy_train'))} at "
                 f"{first['timesteps']} steps, {_cell('greedy_train', end.get('greedy_train'))} "
                 f"at {end['timesteps']}; on the evaluation configurations "
                 f"{_cell('greedy_eval', first.get('greedy_eval'))} → "
                 f"{_cell('greedy_eval', end.get('greedy_eval'))}")
    return text


def plot(curve: Curve, plot_dir: Path) -> str:
    """Draw the curve into `plot_dir`; returns the file name without extension. Raises
    `bmoca.eval.plots.PlotsUnavailable` without matplotlib."""
    from bmoca.eval import plots

    plots.learning_curve(plot_dir / f"{curve.slug}.png", curve.rows,
                         title=f"Learning curve: {curve.name}")
    return curve.slug


__all__ = ["CAPTION", "Curve", "CurveError", "beside_checkpoint", "load", "plot", "rows",
           "summary"]

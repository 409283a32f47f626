"""Answers beyond a success rate: how far along the expert's path an agent got, how directly
it worked, how often its actions were invalid, and whether its "done" was true.

Why against the expert: the scripted expert solves every task in every configuration, so
its trajectory on the same task and configuration is a reference path whose sub-goals
(the elements it taps, the text it types, the apps it opens) the agent can be scored on,
as AndroidArena and Mobile-Bench score against human paths (see docs/metrics.md).

Every step the runner stores carries a `target` in its info (`step_target`): what the
action acted on, named independently of how the agent expressed it (coordinates, element
tags, JSON), e.g. ``tap com.android.settings:id/title 'Display'``. A *checkpoint* is a
reference step whose target is a tap or long press on an identified element, typed text
or an app opened; scrolls, waits, keys and the final status are not (a bigger screen or
another route needs none of them).

Per episode, with C the expert's checkpoints (L of them) and A the targets of the agent's
valid steps:

* progress (CheckPoint-style) = |LCS(C, A)| / L, 1.0 on success;
* completion (AndroidArena's task completion ratio) = k / L, k the last expert checkpoint
  whose inclusion lengthens the LCS (the furthest sub-goal reached in order), 1.0 on
  success;
* reversed redundancy ratio = expert steps / agent steps, on successes only (above 1 when
  the agent was more direct than the expert);
* invalid-action rate = invalid steps / steps;
* a done claim = the last step is a valid ``status complete``; false done = claimed and
  the state says the task is not done; missed done = the final state is successful but the
  agent did not claim it. Missed done is measurable only in runs with ``--judge-claims``
  (by default an episode ends the moment the state succeeds, before the agent could claim).

Aggregates average episodes (rates of steps are pooled per episode first); standard
errors are over repeats, as in `bmoca.eval.metrics`.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bmoca.env.targets import is_checkpoint, lcs_rows, step_target
from bmoca.eval.store import EpisodeRow, StepRow

__all__ = ["is_checkpoint", "step_target"]  # re-exported: the runner's step targets

REFERENCE_DIR = "reference"
"""The expert's reference episodes live in their own store under the run directory."""


# -- per episode ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Reference:
    """The expert's path on one task and configuration."""

    steps: int
    checkpoints: tuple[str, ...]
    success: bool = True


def reference_of(steps: Sequence[StepRow], success: bool = True) -> Reference | None:
    """None for episodes stored before steps carried targets (nothing to compare with)."""
    if steps and not any("target" in s.info for s in steps):
        return None
    targets = [s.info.get("target") for s in steps if s.valid]
    return Reference(len(steps), tuple(t for t in targets if is_checkpoint(t)), success)


@dataclass(frozen=True)
class EpisodeScore:
    """Efficiency and claim figures of one finished episode; None where not defined."""

    steps: int
    invalid: int
    success: bool
    claimed_done: bool
    claim_chance: bool
    """Whether the agent could have claimed done after succeeding (`--judge-claims` runs)."""
    progress: float | None
    completion: float | None
    rrr: float | None
    subgoals: float | None = None
    """A long-horizon task's share of sub-goals met at the episode's end (None otherwise)."""


def subgoals_met(steps: Sequence[StepRow]) -> float | None:
    """met / total of the last judged step that reported sub-goals (info["subgoals"])."""
    for step in reversed(steps):
        pair = step.info.get("subgoals")
        if isinstance(pair, list | tuple) and len(pair) == 2 and pair[1]:
            return pair[0] / pair[1]
    return None


def claimed_done(steps: Sequence[StepRow]) -> bool:
    """The episode ended on a valid `status complete`."""
    return bool(steps) and steps[-1].valid and steps[-1].info.get("status") == "complete"


def score_episode(episode: EpisodeRow, steps: Sequence[StepRow], ref: Reference | None, *,
                  judge_claims: bool = False) -> EpisodeScore:
    """Score one 'done' episode against the expert's reference (None: no reference)."""
    success = bool(episode.success)
    progress = completion = rrr = None
    if ref is not None and ref.success:
        if success:
            progress = completion = 1.0
            rrr = ref.steps / max(1, len(steps))
        elif not ref.checkpoints:
            progress = completion = 0.0
        else:
            agent = [s.info.get("target") or "" for s in steps if s.valid]
            lengths = lcs_rows(ref.checkpoints, agent)
            total = len(ref.checkpoints)
            progress = lengths[-1] / total
            last = max((j for j in range(1, total + 1) if lengths[j] > lengths[j - 1]), default=0)
            completion = last / total
    return EpisodeScore(steps=len(steps), invalid=sum(1 for s in steps if not s.valid),
                        success=success, claimed_done=claimed_done(steps),
                        claim_chance=judge_claims, progress=progress,
                        completion=completion, rrr=rrr, subgoals=subgoals_met(steps))


# -- aggregates ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Stat:
    """A mean with its standard error over repeats; NaN mean when nothing was measured."""

    mean: float
    stderr: float
    n: int


@dataclass(frozen=True)
class Efficiency:
    """Efficiency, progress and claim figures of a group of episodes."""

    episodes: int
    progress: Stat
    completion: Stat
    rrr: Stat
    invalid_rate: Stat
    steps_to_success: Stat
    claims: int
    false_done: int
    false_done_rate: float
    """False claims over claims (NaN without a claim)."""
    missed_done: int
    claim_chances: int
    """Successes the agent could have claimed (`--judge-claims` runs)."""
    missed_done_rate: float
    """Successes not claimed over successes the agent could claim (NaN when none could be:
    runs without --judge-claims end episodes on success)."""
    with_reference: int
    subgoals: Stat = Stat(math.nan, math.nan, 0)
    """Long-horizon episodes' share of sub-goals met at their end."""


def _stat(values: Sequence[tuple[tuple[str, int], float]]) -> Stat:
    """Mean over all values; standard error over the per-repeat means."""
    if not values:
        return Stat(math.nan, math.nan, 0)
    by_repeat: dict[tuple[str, int], list[float]] = defaultdict(list)
    for key, v in values:
        by_repeat[key].append(v)
    means = [sum(v) / len(v) for _, v in sorted(by_repeat.items())]
    n = len(means)
    mean = sum(v for _, v in values) / len(values)
    if n < 2:
        return Stat(mean, 0.0, n)
    m = sum(means) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in means) / (n - 1))
    return Stat(mean, sd / math.sqrt(n), n)


def aggregate(scored: Iterable[tuple[EpisodeRow, EpisodeScore]]) -> Efficiency:
    """Pool scored episodes (each with its row, for its repeat key)."""
    pairs = list(scored)

    def values(get) -> list[tuple[tuple[str, int], float]]:
        out = []
        for row, s in pairs:
            v = get(s)
            if v is not None:
                out.append(((row.run_id, row.repeat), float(v)))
        return out

    claims = sum(1 for _, s in pairs if s.claimed_done)
    false_done = sum(1 for _, s in pairs if s.claimed_done and not s.success)
    chances = [s for _, s in pairs if s.success and s.claim_chance]
    missed = sum(1 for s in chances if not s.claimed_done)
    return Efficiency(
        episodes=len(pairs),
        progress=_stat(values(lambda s: s.progress)),
        completion=_stat(values(lambda s: s.completion)),
        rrr=_stat(values(lambda s: s.rrr)),
        invalid_rate=_stat(values(lambda s: s.invalid / s.steps if s.steps else None)),
        steps_to_success=_stat(values(lambda s: s.steps if s.success else None)),
        claims=claims, false_done=false_done,
        false_done_rate=false_done / claims if claims else math.nan,
        missed_done=missed, claim_chances=len(chances),
        missed_done_rate=missed / len(chances) if chances else math.nan,
        with_reference=sum(1 for _, s in pairs if s.progress is not None),
        subgoals=_stat(values(lambda s: s.subgoals)),
    )


@dataclass
class EfficiencyTable:
    """Efficiency per task and overall for one agent."""

    agent: str
    per_task: dict[str, Efficiency]
    overall: Efficiency


def efficiency_table(agent: str, scored: Sequence[tuple[EpisodeRow, EpisodeScore]],
                     tasks_order: Sequence[str] | None = None) -> EfficiencyTable:
    tasks = list(tasks_order) if tasks_order else sorted({r.task_id for r, _ in scored})
    return EfficiencyTable(
        agent=agent,
        per_task={t: aggregate((r, s) for r, s in scored if r.task_id == t) for t in tasks},
        overall=aggregate(scored))


# -- presentation ----------------------------------------------------------------------------


def _pct(stat: Stat) -> str:
    if stat.n == 0 or math.isnan(stat.mean):
        return "–"
    if stat.stderr == 0:
        return f"{stat.mean * 100:.0f}"
    return f"{stat.mean * 100:.0f}±{stat.stderr * 100:.0f}"


def _rate(count: int, rate: float, out_of: int) -> str:
    return "–" if math.isnan(rate) else f"{rate * 100:.0f} ({count}/{out_of})"


def _ratio(stat: Stat) -> str:
    return "–" if stat.n == 0 else f"{stat.mean:.2f}"


def _num(stat: Stat) -> str:
    return "–" if stat.n == 0 else f"{stat.mean:.1f}"


HEADER = ["task", "progress %", "completion %", "sub-goals %", "RRR", "invalid %",
          "steps to success", "false done %", "missed done %"]


def row_of(name: str, e: Efficiency) -> list[str]:
    return [name, _pct(e.progress), _pct(e.completion), _pct(e.subgoals), _ratio(e.rrr),
            _pct(e.invalid_rate), _num(e.steps_to_success),
            _rate(e.false_done, e.false_done_rate, e.claims),
            _rate(e.missed_done, e.missed_done_rate, e.claim_chances)]


def rows(table: EfficiencyTable) -> tuple[list[str], list[list[str]]]:
    body = [row_of(t, e) for t, e in table.per_task.items()]
    body.append(row_of("all tasks", table.overall))
    return HEADER, body


CAPTION = ("progress: share of the expert's sub-goals reached (CheckPoint); completion: the "
           "furthest one reached in order (TCR); sub-goals: a long-horizon task's goals met "
           "at the end (its success's parts); RRR: expert steps / agent steps on "
           "successes; false done: claims of completion the state contradicts; missed "
           "done: successes not claimed (--judge-claims runs only)")


def _num_json(x: float) -> float | None:
    return None if math.isnan(x) else round(x, 6)


def stat_json(stat: Stat) -> dict[str, Any]:
    return {"mean": _num_json(stat.mean), "stderr": _num_json(stat.stderr), "repeats": stat.n}


def efficiency_json(e: Efficiency) -> dict[str, Any]:
    return {"episodes": e.episodes, "with_reference": e.with_reference,
            "progress": stat_json(e.progress), "completion": stat_json(e.completion),
            "reversed_redundancy": stat_json(e.rrr), "invalid_rate": stat_json(e.invalid_rate),
            "steps_to_success": stat_json(e.steps_to_success), "done_claims": e.claims,
            "false_done": e.false_done, "false_done_rate": _num_json(e.false_done_rate),
            "missed_done": e.missed_done, "claim_chances": e.claim_chances,
            "missed_done_rate": _num_json(e.missed_done_rate),
            "subgoals": stat_json(e.subgoals)}


def table_json(table: EfficiencyTable) -> dict[str, Any]:
    return {"overall": efficiency_json(table.overall),
            "tasks": {t: efficiency_json(e) for t, e in table.per_task.items()}}


def references_by_key(episodes: Iterable[EpisodeRow],
                      steps_of: Callable[[int], Sequence[StepRow]]
                      ) -> dict[tuple[str, str], Reference]:
    """References from expert episodes: the first finished repeat per task x config."""
    out: dict[tuple[str, str], Reference] = {}
    for e in sorted(episodes, key=lambda e: (e.repeat, e.run_id)):
        if e.status != "done" or e.agent != "expert" or (e.task_id, e.config_id) in out:
            continue
        ref = reference_of(steps_of(e.episode_id), bool(e.success))
        if ref is not None:
            out[(e.task_id, e.config_id)] = ref
    return out


def load_references(store: Any) -> dict[tuple[str, str], Reference]:
    """The expert's paths: its episodes in this store, else those in `reference/` beside it."""
    from bmoca.eval.store import FILENAME, Store

    refs: dict[tuple[str, str], Reference] = {}
    ref_dir = Path(store.path).parent / REFERENCE_DIR
    if (ref_dir / FILENAME).exists():
        with Store(ref_dir) as ref_store:
            refs.update(references_by_key(ref_store.episodes(), ref_store.steps_of))
    refs.update(references_by_key(store.episodes(), store.steps_of))
    return refs


def make_references(run_dir: Path, task_list: Sequence[Any], config_ids: Sequence[str],
                    workers: int = 1, limit: int | None = None, **executor: Any) -> int:
    """Play the expert once on every task x configuration that has no reference yet, into
    `RUN_DIR/reference/` (resumable like any run); returns how many it played. `limit`
    keeps the first task x configuration pairs in plan order (a run's `--limit N` with R
    repeats needs ceil(N / R)). `executor` passes `evaluate`'s executor and ray_address on."""
    from bmoca.eval import evaluate
    from bmoca.eval.store import Store

    (run_dir / REFERENCE_DIR).mkdir(parents=True, exist_ok=True)
    with Store(run_dir / REFERENCE_DIR) as store:
        return evaluate.evaluate(store, "expert-reference", "expert", task_list, config_ids, 1,
                                 seed=0, workers=workers, limit=limit, **executor)


def score_store(store: Any, agent: str, run_id: str | None = None,
                references: dict[tuple[str, str], Reference] | None = None,
                tasks_order: Sequence[str] | None = None) -> EfficiencyTable:
    """The efficiency table of an agent's finished episodes in a store."""
    refs = load_references(store) if references is None else references
    judged = {r.run_id for r in store.runs() if r.spec.get("judge_claims")}
    scored = []
    for e in store.episodes(run_id):
        if e.agent != agent or e.status != "done":
            continue
        scored.append((e, score_episode(e, store.steps_of(e.episode_id),
                                        refs.get((e.task_id, e.config_id)),
                                        judge_claims=e.run_id in judged)))
    return efficiency_table(agent, scored, tasks_order)


def to_markdown(table: EfficiencyTable) -> str:
    from bmoca.eval.metrics import _md

    return "\n".join([*_md(*rows(table)), "", f"*{table.agent}: {CAPTION}*"]) + "\n"


def render(table: EfficiencyTable, console: Any) -> None:
    """Print the table (plain Markdown when the console is not a terminal)."""
    from bmoca.eval.metrics import _rich

    if not console.is_terminal:
        console.file.write(to_markdown(table))
        return
    console.print(_rich(*rows(table), title="efficiency and done claims", compact=False))
    console.print(CAPTION, style="dim")

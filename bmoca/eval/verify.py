"""Re-judge a bundle (`bmoca.eval.bundle`): replay every episode without the agent.

Each 'done' episode is played again on the simulator: the same task (a family instance is
its `family@seed` id), configuration and seed, an environment with the same action mode,
step limit and judging rule (`stop_on_success`), and the recorded actions sent one by one
through `env.step`. The phone is deterministic, so the replay reaches the states the run
reached and its success and step count must equal the claimed ones; the table is then
recomputed from the replayed outcomes with `bmoca.eval.metrics` and compared cell by cell.

Replays observe nothing: observations are not needed to judge (detectors read the phone),
so the environment is built with no observation mode; the hierarchy is dumped only where
the action mode needs the screen's elements (text and JSON actions address them by
index). 'error' episodes (infrastructure failures, excluded from rates) cannot be
replayed; they are counted as unverified.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from bmoca.eval import runner
from bmoca.eval.bundle import (
    Bundle,
    BundleError,
    changed_files,
    installed_hashes,
    rows_of,
    summary,
)


@dataclass(frozen=True)
class Job:
    """One episode to replay; `index` is (run, episode) in the bundle."""

    index: tuple[int, int]
    task_id: str
    config_id: str
    seed: int | None
    step_limit: int
    action_mode: str
    stop_on_success: bool
    actions: tuple[str | None, ...]


@dataclass(frozen=True)
class Replayed:
    """What the replay found: success and steps as the runner counts them; `ended` when
    the episode ended (success, a status claim or the step limit) at its last step;
    `leftover` recorded actions after that end; `error` when the replay itself failed."""

    success: bool
    steps: int
    ended: bool
    leftover: int = 0
    error: str | None = None


@dataclass(frozen=True)
class Difference:
    """An episode whose claimed result is not what its replay gives."""

    run_id: str
    agent: str
    task_id: str
    config_id: str
    repeat: int
    seed: int | None
    claimed: tuple[bool | None, int | None]
    replayed: tuple[bool, int]
    what: tuple[str, ...]


@dataclass
class Report:
    """The verdict on a bundle; `ok` when nothing differs."""

    episodes: int = 0
    replayed: int = 0
    unverified: int = 0
    differences: list[Difference] = field(default_factory=list)
    tables: list[dict[str, Any]] = field(default_factory=list)
    """Per run: run_id, agent, matches, differs (cells as `what: claimed -> recomputed`),
    recomputed (the table as JSON) and table (the recomputed `metrics.Table`)."""
    suite: dict[str, dict[str, Any]] = field(default_factory=dict)
    """"code" and "tasks": bundle and installed sha256, matches, changed files."""
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return (not self.differences and all(t["matches"] for t in self.tables)
                and all(s["matches"] for s in self.suite.values()))


# -- replaying -------------------------------------------------------------------------------


def decode(action: str | None, mode: str) -> Any:
    """A stored action as the agent gave it: text actions are strings verbatim; other
    actions were stored as their JSON text (a JSON action given as a string parses to the
    same dict, so either form replays alike)."""
    if action is None or mode == "text":
        return action
    try:
        value = json.loads(action)
    except ValueError:
        return action
    if mode == "json" and not isinstance(value, dict):
        return action
    return value


def replay(job: Job, pool: Any) -> Replayed:
    """Play `job`'s actions in a fresh episode on `pool`'s phone; never raises."""
    from bmoca import tasks
    from bmoca.env import BmocaEnv

    steps = 0
    try:
        env = BmocaEnv(tasks.get(job.task_id), job.config_id, pool, observation=(),
                       action=job.action_mode, step_limit=job.step_limit,
                       stop_on_success=job.stop_on_success)
        env.reset(seed=job.seed)
        ended = False
        for action in job.actions:
            if ended:
                break
            _, _, terminated, truncated, _ = env.step(decode(action, job.action_mode))
            steps += 1
            ended = bool(terminated or truncated)
        return Replayed(env.success, steps, ended, len(job.actions) - steps)
    except Exception as exc:  # noqa: BLE001 - reported as the episode's difference
        return Replayed(False, steps, False, error=f"{type(exc).__name__}: {exc}")


def _replay_chunk(jobs: Sequence[Job]) -> list[tuple[tuple[int, int], Replayed]]:
    pool = runner.worker_pool()
    return [(job.index, replay(job, pool)) for job in jobs]


def replay_all(jobs: Sequence[Job], workers: int = 1,
               on_done: Callable[[int], None] | None = None) -> dict[tuple[int, int], Replayed]:
    """Replay `jobs` in this process or in `workers` processes, one phone per
    configuration per process (jobs are grouped by configuration)."""
    from bmoca.env import DevicePool

    ordered = sorted(jobs, key=lambda j: j.config_id)
    out: dict[tuple[int, int], Replayed] = {}
    if workers <= 1 or len(ordered) < 2:
        pool = DevicePool("sim")
        try:
            for job in ordered:
                out[job.index] = replay(job, pool)
                if on_done:
                    on_done(1)
        finally:
            pool.close()
        return out
    size = max(1, math.ceil(len(ordered) / (workers * 8)))
    parts = runner.chunks(ordered, size)  # type: ignore[arg-type]  # any .config_id
    with ProcessPoolExecutor(max_workers=workers, initializer=runner.worker_init,
                             initargs=(os.getpid(),), mp_context=runner.mp_context()) as ex:
        pending = {ex.submit(_replay_chunk, part) for part in parts}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                results = future.result()
                out.update(results)
                if on_done:
                    on_done(len(results))
    return out


# -- checking --------------------------------------------------------------------------------


def jobs_of(bundle: Bundle) -> list[Job]:
    """The bundle's 'done' episodes as replay jobs; BundleError (bad input) for a task,
    configuration or action mode this bmoca does not know."""
    from bmoca import configs, tasks
    from bmoca.env import actions as act

    known: set[str] = set()
    jobs = []
    for r, run in enumerate(bundle.runs):
        mode, stop = run["env"]["action"], run["env"]["stop_on_success"]
        try:
            act.make_mode(mode)
        except ValueError as exc:
            raise BundleError(f"{bundle.path}: run {run['run_id']!r}: {exc}") from None
        for e, episode in enumerate(run["episodes"]):
            task_id, config_id = episode["task"], episode["config"]
            if task_id not in known:
                try:
                    tasks.get(task_id)
                except tasks.TaskError as exc:
                    raise BundleError(f"{bundle.path}: unknown task id {task_id!r} "
                                      f"({' '.join(str(exc).split())})") from None
                known.add(task_id)
            if "cfg:" + config_id not in known:
                try:
                    configs.get(config_id)
                except (KeyError, ValueError) as exc:
                    message = exc.args[0] if exc.args else exc
                    raise BundleError(f"{bundle.path}: {message}") from None
                known.add("cfg:" + config_id)
            if episode["status"] == "done":
                jobs.append(Job((r, e), task_id, config_id, episode["seed"],
                                episode["step_limit"], mode, stop, tuple(episode["actions"])))
    return jobs


def _what_differs(episode: dict[str, Any], got: Replayed, limit: int) -> list[str]:
    what = []
    if got.error:
        what.append(f"the replay failed at step {got.steps + 1}: {got.error}")
    if got.leftover:
        what.append(f"the episode ended after step {got.steps}, but {got.leftover} more "
                    "recorded action(s) follow")
    elif not got.ended and not got.error:
        what.append(f"the recorded actions stop after step {got.steps}, before the episode "
                    f"ended (no success, no status, step limit {limit})")
    if episode["success"] != got.success:
        what.append(f"success: claimed {_yes(episode['success'])}, replay {_yes(got.success)}")
    if episode["steps"] != got.steps:
        what.append(f"steps: claimed {episode['steps']}, replay {got.steps}")
    return what


def _yes(value: bool | None) -> str:
    return "none" if value is None else "yes" if value else "no"


def _cells(table: dict[str, Any]) -> dict[str, Any]:
    """A table as JSON, flattened to `overall`, `task ID`, `config ID`, `cell TASK CONFIG`."""
    def part(key: str, kind: type) -> Any:  # a hand-made table of the wrong shape differs
        value = table.get(key)
        return value if isinstance(value, kind) else kind()

    out = {"overall": table.get("overall")}
    out.update({f"task {k}": v for k, v in part("tasks", dict).items()})
    out.update({f"config {k}": v for k, v in part("configs", dict).items()})
    for cell in part("cells", list):
        if isinstance(cell, dict):
            key = f"cell {cell.get('task')} {cell.get('config')}"
            out[key] = {k: v for k, v in cell.items() if k not in ("task", "config")}
    return out


def _cell_text(cell: Any) -> str:
    if not isinstance(cell, dict):
        return "absent"
    return f"{cell.get('successes')}/{cell.get('episodes')} successes, " \
           f"mean steps {cell.get('mean_steps')}"


def compare_tables(claimed: dict[str, Any], recomputed: dict[str, Any]) -> list[str]:
    """The cells whose claimed values differ from the recomputed ones, as readable lines."""
    old, new = _cells(claimed), _cells(recomputed)
    return [f"{key}: claimed {_cell_text(old.get(key))}, recomputed {_cell_text(new.get(key))}"
            for key in sorted(old.keys() | new.keys()) if old.get(key) != new.get(key)]


def _suite(bundle: Bundle) -> dict[str, dict[str, Any]]:
    installed = installed_hashes()
    out = {}
    for key in ("code", "tasks"):
        theirs = bundle.content[key]
        changed = changed_files(theirs["files"], installed[key]["files"])
        if summary(theirs["files"])["sha256"] != theirs.get("sha256"):
            changed.insert(0, f"the bundle's {key} sha256 does not match its own file list")
        for run in bundle.runs:  # what played each run, recorded when it started
            played = (run.get("spec") or {}).get("suite", {}).get(key)
            if played is not None and played != theirs.get("sha256"):
                changed.append(f"run {run['run_id']} was played by {key} {played[:12]}, "
                               f"not the bundle's {str(theirs.get('sha256'))[:12]}")
        out[key] = {"bundle": theirs.get("sha256"), "installed": installed[key]["sha256"],
                    "matches": theirs.get("sha256") == installed[key]["sha256"] and not changed,
                    "changed": changed}
    return out


def verify(bundle: Bundle, workers: int = 1,
           on_start: Callable[[int], None] | None = None,
           on_done: Callable[[int], None] | None = None) -> Report:
    """Replay the bundle and compare everything it claims (see the module doc)."""
    from bmoca.eval import metrics

    started = time.perf_counter()
    jobs = jobs_of(bundle)
    report = Report(episodes=bundle.episodes, replayed=len(jobs),
                    unverified=bundle.episodes - len(jobs), suite=_suite(bundle))
    if on_start:
        on_start(len(jobs))
    results = replay_all(jobs, workers, on_done)
    for r, run in enumerate(bundle.runs):
        outcomes: list[tuple[bool, int]] = []
        for e, episode in enumerate(run["episodes"]):
            got = results.get((r, e))
            if got is None:  # an 'error' episode: not replayed
                outcomes.append((False, 0))
                continue
            outcomes.append((got.success, got.steps))
            what = _what_differs(episode, got, episode["step_limit"])
            if what:
                report.differences.append(Difference(
                    run["run_id"], run["agent"], episode["task"], episode["config"],
                    episode["repeat"], episode["seed"], (episode["success"], episode["steps"]),
                    (got.success, got.steps), tuple(what)))
        table = metrics.success_table(rows_of(run, outcomes))
        recomputed = metrics.table_json(table)
        differs = compare_tables(run["table"], recomputed)
        report.tables.append({"run_id": run["run_id"], "agent": run["agent"],
                              "matches": not differs, "differs": differs,
                              "recomputed": recomputed, "table": table})
    report.seconds = time.perf_counter() - started
    return report


__all__ = ["Difference", "Job", "Replayed", "Report", "compare_tables", "decode", "jobs_of",
           "replay", "replay_all", "verify"]

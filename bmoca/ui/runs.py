"""Evaluation runs for the page, read live from their SQLite stores.

Why live: a `bmoca eval` writes each episode as it finishes (WAL mode, so reading while it
writes is safe), so listing and tabulating from the store at every request shows a run's
progress as it goes, with nothing to rebuild. A run is a directory holding
`results.sqlite` under the root `bmoca ui --runs` names (default `runs/`, where `bmoca eval`
writes), or the root itself. Episode pages are the HTML report's own (`episode_html`),
rendered on request.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bmoca.ui.errors import UiError

STATUSES = ("success", "fail", "error", "running")


def _rate(cell: Any) -> float | None:
    return None if math.isnan(cell.mean) else round(cell.mean, 4)


class Runs:
    """The run directories under `root`, by name (the directory's name)."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)

    def _dirs(self) -> dict[str, Path]:
        from bmoca.eval.store import FILENAME

        found: dict[str, Path] = {}
        if (self.root / FILENAME).is_file():
            found[self.root.resolve().name] = self.root
        if self.root.is_dir():
            for path in sorted(self.root.iterdir()):
                if (path / FILENAME).is_file():
                    found[path.name] = path
        return found

    def run_dir(self, name: str) -> Path:
        dirs = self._dirs()
        if name not in dirs:
            valid = ", ".join(dirs) or f"none yet under {self.root}"
            raise UiError(f"no run {name!r}; runs: {valid}", 404)
        return dirs[name]

    @contextmanager
    def _store(self, name: str) -> Iterator[Any]:
        from bmoca.eval.store import FILENAME, Store, StoreError

        try:
            store = Store(self.run_dir(name) / FILENAME)
        except StoreError as exc:
            raise UiError(str(exc), 500) from None
        with store:
            yield store

    def listing(self) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
        """Every run (agents, episodes finished of those planned, success rate), and the
        damaged ones, each with its error on one line: a store that cannot be read must
        not hide the runs beside it."""
        out, damaged = [], []
        for name in self._dirs():
            try:
                out.append(self._summary(name))
            except Exception as exc:  # noqa: BLE001 - a tampered store can fail any way
                message = exc.message if isinstance(exc, UiError) else (
                    f"{type(exc).__name__}: {exc}")
                damaged.append({"name": name, "error": " ".join(message.split())})
        return out, damaged

    def _summary(self, name: str) -> dict[str, Any]:
        from bmoca.eval import metrics

        with self._store(name) as store:
            runs, episodes = store.runs(), store.episodes()
        finished = sum(1 for e in episodes if e.status != "running")
        return {"name": name, "agents": sorted({r.agent for r in runs}),
                "run_ids": [r.run_id for r in runs],
                "created": min((r.created for r in runs), default=None),
                "episodes": len(episodes), "finished": finished, "planned": _planned(runs),
                "running": sum(1 for e in episodes if e.status == "running"),
                "success_rate": _rate(metrics.summarize(episodes))}

    def detail(self, name: str, *, task: str = "", config: str = "",
               status: str = "") -> dict[str, Any]:
        """A run's success table per agent (task x configuration) and its episodes,
        filtered by task (substring), configuration (exact) and status."""
        from bmoca.eval import metrics

        if status and status not in STATUSES:
            raise UiError(f"unknown status {status!r}; valid: {', '.join(STATUSES)}")
        with self._store(name) as store:
            runs, episodes = store.runs(), store.episodes()
        tables = []
        for agent in sorted({e.agent for e in episodes}):
            table = metrics.success_table(e for e in episodes if e.agent == agent)
            tables.append({
                "agent": agent, "configs": table.configs, "overall": _rate(table.overall),
                "rows": [{"task": t, "rate": _rate(table.per_task[t]),
                          "cells": [_rate(table.cells[(t, c)]) for c in table.configs]}
                         for t in table.tasks]})
        chosen = [e for e in episodes
                  if task in e.task_id and (not config or e.config_id == config)
                  and (not status or _status(e) == status)]
        planned = _planned(runs)
        return {"name": name, "runs": [{"run_id": r.run_id, "agent": r.agent,
                                        "created": r.created} for r in runs],
                "planned": planned, "finished": sum(1 for e in episodes
                                                    if e.status != "running"),
                "tables": tables, "tasks": sorted({e.task_id for e in episodes}),
                "configs": sorted({e.config_id for e in episodes}),
                "episodes": [{"episode_id": e.episode_id, "agent": e.agent,
                              "task_id": e.task_id, "config_id": e.config_id,
                              "repeat": e.repeat, "status": _status(e), "steps": e.steps,
                              "input_tokens": e.input_tokens,
                              "output_tokens": e.output_tokens} for e in chosen]}

    def episode(self, name: str, episode_id: int) -> dict[str, Any]:
        """One episode step by step: screenshot, action, validity, the model's answer."""
        with self._store(name) as store:
            row = self._row(store, name, episode_id)
            steps = store.steps_of(episode_id)
        run_dir = self.run_dir(name)
        final = f"screens/{episode_id}/final.png"
        return {"episode_id": episode_id, "task_id": row.task_id, "config_id": row.config_id,
                "agent": row.agent, "status": _status(row), "error": row.error,
                "input_tokens": row.input_tokens, "output_tokens": row.output_tokens,
                "cost_usd": row.cost_usd, "detector_trace": row.detector_trace,
                "final_screenshot": final if (run_dir / final).is_file() else None,
                "steps": [{"step": s.step, "action": s.action, "label": s.action_label,
                           "valid": s.valid, "error": s.error, "success": s.success,
                           "screenshot": s.screenshot, "gesture": s.info.get("gesture"),
                           "screen_size": s.info.get("screen_size"),
                           "reasoning": (s.agent_output or {}).get("response"),
                           "input_tokens": (s.agent_output or {}).get("input_tokens"),
                           "output_tokens": (s.agent_output or {}).get("output_tokens")}
                          for s in steps]}

    @staticmethod
    def _row(store: Any, name: str, episode_id: int) -> Any:
        for row in store.episodes():
            if row.episode_id == episode_id:
                return row
        raise UiError(f"run {name!r} has no episode {episode_id}", 404)

    def episode_page(self, name: str, episode_id: int) -> str:
        """The HTML report's page of one episode, rendered now (links resolve against
        `/runs/<name>/report/episodes/`, as in a built report)."""
        from bmoca.eval.report import Report, episode_html

        run_dir = self.run_dir(name)
        with self._store(name) as store:
            row = self._row(store, name, episode_id)
            ids = [e.episode_id for e in store.episodes() if e.agent == row.agent]
            where = ids.index(episode_id)
            report = Report(run_dir, run_dir / "report", store.runs(), [])
            return episode_html(report, store, row, ids[where - 1] if where else None,
                                ids[where + 1] if where + 1 < len(ids) else None)

    def file(self, name: str, relative: str) -> Path:
        """A file of the run directory (screenshots), never one outside it."""
        run_dir = self.run_dir(name).resolve()
        path = (run_dir / relative).resolve()
        if not path.is_relative_to(run_dir) or not path.is_file():
            raise UiError(f"run {name!r} has no file {relative!r}", 404)
        return path


def _planned(runs: list[Any]) -> int:
    """Episodes the runs' specs plan (tasks x configurations x repeats; a `--limit` run
    plays fewer and shows as unfinished, which it is)."""
    return sum(len(r.spec.get("tasks", [])) * len(r.spec.get("configs", []))
               * int(r.spec.get("repeats", 1)) for r in runs)


def _status(e: Any) -> str:
    if e.status == "done":
        return "success" if e.success else "fail"
    return e.status

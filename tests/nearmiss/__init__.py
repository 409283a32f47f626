"""The near-miss suite's rows: per app, trajectories that must fail a task (a near miss)
and trajectories that must pass it by a path its expert does not take.

Each module exports `ROWS`; `all_rows()` gathers them. tests/test_near_misses.py plays every
row on a fresh reset of its task and checks the verdict, and checks that every task has at
least two rows of each kind (docs/tasks.md, "The near-miss suite").
"""

from __future__ import annotations

from importlib import import_module

from nearmiss.common import Row

APPS = ("calculator", "chrome", "clock", "files", "launches", "phone", "settings", "snapseed",
        "storefronts", "wikipedia")


def all_rows() -> list[Row]:
    rows: list[Row] = []
    for app in APPS:
        rows.extend(import_module(f"nearmiss.{app}").ROWS)
    return rows

"""The task suite: data files under `tasks/data/`, loaded and validated once.

    bmoca.tasks.get("settings/turn_on_wifi")
    bmoca.tasks.list(app="Settings")
    bmoca.tasks.select("settings,representative")
"""

from __future__ import annotations

import builtins
import difflib
import fnmatch
from functools import cache
from importlib import resources
from pathlib import Path

from bmoca.tasks.detectors import DetectorError, Verdict
from bmoca.tasks.loader import load_file
from bmoca.tasks.spec import CATEGORIES, EpisodeStart, SetupError, Task, TaskError

__all__ = ["CATEGORIES", "DetectorError", "EpisodeStart", "SetupError", "Task", "TaskError",
           "Verdict", "all_tasks", "get", "list", "load_file", "select"]


@cache
def all_tasks() -> tuple[Task, ...]:
    data = Path(str(resources.files(__package__).joinpath("data")))
    tasks: builtins.list[Task] = []
    for path in sorted(data.glob("*.yaml")):
        tasks += load_file(path)
    ids = [t.id for t in tasks]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise TaskError(f"task ids defined twice: {', '.join(duplicates)}")
    return tuple(tasks)


def get(task_id: str) -> Task:
    for task in all_tasks():
        if task.id == task_id:
            return task
    ids = [t.id for t in all_tasks()]
    close = [i for i in ids if task_id.lower() in i.lower()][:5] or difflib.get_close_matches(
        task_id, ids, n=3, cutoff=0.8)
    hint = f"; did you mean {', '.join(close)}?" if close else "; see `bmoca tasks`"
    raise TaskError(f"unknown task id {task_id!r}{hint}")


def list(app: str | None = None, category: str | None = None) -> builtins.list[Task]:  # noqa: A001
    """Tasks of one app and/or category (case-insensitive), in file order."""
    return [t for t in all_tasks()
            if (app is None or t.app.lower() == app.lower())
            and (category is None or t.category.lower() == category.lower())]


def select(spec: str) -> builtins.list[Task]:
    """Tasks named by a comma-separated spec: `all`, `representative`, `v2` (the 131 tasks
    of the B-MoCA release), `v1` (tasks only the paper's first version had), an app, a
    category, a task id or an id pattern with `*`. Unknown names raise TaskError."""
    chosen: dict[str, Task] = {}
    for raw in spec.split(","):
        name = raw.strip()
        if not name:
            continue
        low = name.lower()
        if low == "all":
            found = builtins.list(all_tasks())
        elif low == "representative":
            found = [t for t in all_tasks() if t.representative]
        elif low in ("v1", "v2"):
            found = [t for t in all_tasks() if t.version == int(low[1])]
        elif "*" in name:
            found = [t for t in all_tasks() if fnmatch.fnmatchcase(t.id, name)]
        else:
            found = list(app=name) or list(category=name) or [
                t for t in all_tasks() if t.id == name]
        if not found:
            apps = sorted({t.app for t in all_tasks()})
            raise TaskError(f"{name!r} names no task; use all, representative, v1, v2, an app "
                            f"({', '.join(apps)}), a category ({', '.join(CATEGORIES)}), "
                            f"a task id or a pattern with *")
        for task in found:
            chosen.setdefault(task.id, task)
    if not chosen:
        raise TaskError("no tasks selected")
    return builtins.list(chosen.values())

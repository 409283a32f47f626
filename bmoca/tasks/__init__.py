"""The task suite: data files under `tasks/data/`, loaded and validated once.

    bmoca.tasks.get("settings/turn_on_wifi")
    bmoca.tasks.list(app="Settings")
    bmoca.tasks.select("settings,representative")
"""

from __future__ import annotations

import builtins
import difflib
import fnmatch
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from bmoca.formats import package_files
from bmoca.tasks.detectors import DetectorError, Verdict
from bmoca.tasks.loader import load_file
from bmoca.tasks.spec import CATEGORIES, EpisodeStart, SetupError, Task, TaskError

__all__ = ["CATEGORIES", "DetectorError", "EpisodeStart", "SetupError", "Task", "TaskError",
           "Verdict", "all_tasks", "get", "list", "load_file", "names", "select",
           "split_spec"]


@cache
def _data() -> Path:
    return Path(str(package_files.files(__package__).joinpath("data")))


@cache
def _stems() -> frozenset[str]:
    """The task files' names (every `make` looks its task up: no directory read each time)."""
    return frozenset(path.stem for path in _data().glob("*.yaml"))


@cache
def _file(stem: str) -> tuple[Task, ...]:
    """One app's task file, parsed once (`get` of one task reads only its app's file)."""
    return tuple(load_file(_data() / f"{stem}.yaml", cached=True))


@cache
def all_tasks() -> tuple[Task, ...]:
    tasks: builtins.list[Task] = []
    for path in sorted(_data().glob("*.yaml")):
        tasks += _file(path.stem)
    ids = [t.id for t in tasks]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise TaskError(f"task ids defined twice: {', '.join(duplicates)}")
    return tuple(tasks)


def get(task_id: str) -> Task:
    """A task by id; `<family>@<seed>` is an instance of a task family (`families`)."""
    if "@" in task_id:
        from bmoca.tasks import families

        return families.instance(task_id)
    stem = task_id.split("/", 1)[0]
    if "/" in task_id and stem in _stems():
        for task in _file(stem):  # a cold start needs one file, not all nineteen
            if task.id == task_id:
                return task
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


def split_spec(spec: str) -> builtins.list[str]:
    """A comma-separated spec's names, keeping task ids that contain commas whole
    (`calculator/compute_the_geometric_mean_of_3,_4,_and_5_in_Calculator`): at each
    position the longest run of pieces that spells a task id wins."""
    ids = {t.id for t in all_tasks()}
    pieces = spec.split(",")
    names: builtins.list[str] = []
    start = 0
    while start < len(pieces):
        end = next((e for e in range(len(pieces), start + 1, -1)
                    if ",".join(pieces[start:e]).strip() in ids), start + 1)
        name = ",".join(pieces[start:end]).strip()
        if name:
            names.append(name)
        start = end
    return names


def _match(name: str, split: tuple[tuple[str, str], ...] = ()) -> builtins.list[Task]:
    low = name.lower()
    if low == "all":
        return builtins.list(all_tasks())
    if low == "representative":
        return [t for t in all_tasks() if t.representative]
    if low in ("v1", "v2"):
        return [t for t in all_tasks() if t.version == int(low[1])]
    if any(c in name for c in "*?["):
        found = [t for t in all_tasks() if fnmatch.fnmatchcase(t.id, name)]
        return found or [t for t in all_tasks() if fnmatch.fnmatchcase(t.id.lower(), low)]
    found = (list(app=name) or list(category=name) or [t for t in all_tasks() if t.id == name]
             or [t for t in all_tasks() if t.id.lower() == low])
    if not found and (low == "families" or "@" in name or name in _family_ids()):
        from bmoca.tasks import families, splits

        return families.select(name, lambda: splits.seeds(split, families.DEFAULT_INSTANCES)
                               ) or []
    return found


def _family_ids() -> frozenset[str]:
    """The families' ids, read without loading the families unless there are any."""
    from bmoca.tasks import families

    return frozenset(f.id for f in families.all_families())


def names() -> builtins.list[str]:
    """Every name `select` takes besides patterns: keywords, apps, categories, task ids."""
    apps = sorted({t.app for t in all_tasks()})
    return ["all", "representative", "v1", "v2", *apps, *CATEGORIES, *(t.id for t in all_tasks())]


def select(spec: str | Iterable[str], task_split: str | None = None) -> builtins.list[Task]:
    """Tasks named by a comma-separated spec (or several specs): `all`, `representative`,
    `v2` (the 131 tasks of the B-MoCA release), `v1` (tasks only the paper's first version
    had), an app, a category, a task id (commas in it are kept) or a glob over ids
    (`clock/*alarm*`, `settings/turn_?n_wifi`); or instances of task families: `families`
    (five of each), a family id (its first five), `family@seed`, `family@first..last`.
    Unknown names raise TaskError naming the closest ones.

    `task_split` keeps the tasks of generalization splits (`bmoca.tasks.splits`:
    `test-instance`, `train-family`, `test-app`, comma-separated to combine axes); a family
    named without seeds then gives the first five seeds of the instance split."""
    from bmoca.tasks import splits

    split = splits.parse(task_split)
    specs = [spec] if isinstance(spec, str) else builtins.list(spec)
    chosen: dict[str, Task] = {}
    for part in specs:
        for name in split_spec(part):
            found = _match(name, split)
            if not found:
                raise TaskError(_unknown(name))
            for task in found:
                if splits.keeps(task, split):
                    chosen.setdefault(task.id, task)
    if not chosen:
        raise TaskError("no tasks selected" + (f" in task split {task_split}" if split else ""))
    return builtins.list(chosen.values())


def _unknown(name: str) -> str:
    apps = sorted({t.app for t in all_tasks()})
    candidates = names()
    by_lower = {c.lower(): c for c in candidates}
    close = [by_lower[c] for c in difflib.get_close_matches(name.lower(), by_lower, n=3,
                                                             cutoff=0.6)]
    if not close and "/" in name:
        close = [i for i in candidates if "/" in i and name.lower() in i.lower()][:3]
    hint = f"did you mean {', '.join(close)}? " if close else ""
    return (f"{name!r} names no task; {hint}valid: all, representative, v1, v2, an app "
            f"({', '.join(apps)}), a category ({', '.join(CATEGORIES)}), a task id (bmoca "
            f"tasks), a pattern with *, families, a family id or family@seed (bmoca tasks "
            f"--families)")

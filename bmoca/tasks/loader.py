"""Read and validate task files: YAML lists of tasks, one file per app.

Each entry is validated against the task-file JSON Schema (`bmoca.tasks.schema`), then
for what a schema cannot say (detector regexes, plan stages' arguments, dates, pushed
files). Every error is one line naming the file, the task and the field, so a broken file
can be fixed without reading this code.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from bmoca.formats import yamlload
from bmoca.tasks import experts, schema
from bmoca.tasks.detectors import DetectorError, parse
from bmoca.tasks.schema import OPTIONAL, REQUIRED, SETUP_KINDS
from bmoca.tasks.spec import SetupStep, Task, TaskError

__all__ = ["OPTIONAL", "REQUIRED", "SETUP_KINDS", "load_file", "read_data_file",
           "task_from_entry"]


def _define_loaders() -> tuple[type, type]:
    """`_YamlLoader` (the pure-Python parser, whose errors are the ones reported) and
    `_FastYamlLoader` (libyaml's, where PyYAML has it; see `bmoca.formats.yamlload`),
    both leaving an impossible date (2024-13-01) a string instead of raising a bare
    ValueError, so that the field check below reports it with file, task and field.
    Defined on first use: the suite's files come from the data cache without PyYAML."""
    import yaml

    class _Dates:
        def construct_yaml_timestamp(self, node):
            try:
                return super().construct_yaml_timestamp(node)
            except ValueError:
                return self.construct_scalar(node)

    class _YamlLoader(_Dates, yaml.SafeLoader):
        """The pure-Python parser (its errors are the ones reported)."""

    class _FastYamlLoader(_Dates, yamlload.FastSafeLoader):
        """libyaml's parser, where PyYAML has it (see `bmoca.formats.yamlload`)."""

    for loader in (_Dates, _YamlLoader, _FastYamlLoader):
        loader.__module__, loader.__qualname__ = __name__, loader.__name__
    for loader in (_YamlLoader, _FastYamlLoader):
        loader.add_constructor("tag:yaml.org,2002:timestamp", _Dates.construct_yaml_timestamp)
    return _YamlLoader, _FastYamlLoader


__getattr__ = yamlload.defined_on_first_use(globals(), ("_YamlLoader", "_FastYamlLoader"),
                                            _define_loaders)


def read_data_file(path: Path, what: str) -> Any:
    """A data file beside the tasks (families, near-miss rows) as PyYAML reads it, or a
    TaskError naming the file and why it cannot be read."""
    try:
        return yamlload.load(path.read_text("utf-8"))
    except (OSError, yamlload.yaml_error()) as exc:
        raise TaskError(f"{path}: cannot read {what} file: {exc}") from None


def load_file(path: str | Path, *, cached: bool = False) -> list[Task]:
    """The tasks of a task file; `cached`: one of the suite's (see `yamlload.load`)."""
    path = Path(path)
    try:
        text = path.read_text("utf-8")
        data = yamlload.load(text, f"{__name__}:_FastYamlLoader", f"{__name__}:_YamlLoader",
                             cached=cached)
    except (OSError, yamlload.yaml_error()) as exc:
        raise TaskError(f"{path}: cannot read task file: {exc}") from None
    if not isinstance(data, list):
        raise TaskError(f"{path}: expected a list of tasks at the top level")
    known = cached and schema.known_valid(text)  # the suite's, validated by an earlier process
    tasks = [_task(path, i, entry, checked=known) for i, entry in enumerate(data)]
    seen: set[str] = set()
    for task in tasks:
        if task.id in seen:
            raise TaskError(f"{path}: task {task.id}: duplicate id")
        seen.add(task.id)
    if cached and not known:
        schema.mark_valid(text)
    return tasks


def task_from_entry(path: Path, entry: Mapping[str, Any], family: str = "") -> Task:
    """A task from one entry (a family's instance, its placeholders filled); the errors
    name `path` and the task as a task file's do."""
    task = _task(path, 0, entry)
    return dataclasses.replace(task, family=family) if family else task


def _task(path: Path, index: int, entry: Any, *, checked: bool = False) -> Task:
    """A task from an entry; `checked`: the entry is known to fit the schema."""
    where = f"{path}: task #{index}"
    if isinstance(entry, Mapping) and isinstance(entry.get("id"), str):
        where = f"{path}: task {entry['id']}"
    if not checked:
        schema.check(where, entry)
    limit = entry["step_limit"]
    try:
        success = parse(entry["success"], "success")
    except DetectorError as exc:
        raise TaskError(f"{where}: field {exc}") from None
    plan = entry.get("expert") or []
    if plan:
        try:
            experts.check_plan(plan)
        except experts.PlanError as exc:
            raise TaskError(f"{where}: field {exc}") from None
    representative = entry.get("representative", False)
    version = entry.get("version", 2)
    reference = entry.get("reference") or {}
    return Task(
        id=entry["id"], app=entry["app"], category=entry["category"],
        instruction=entry["instruction"], step_limit=limit, success=success,
        setup=tuple(_setup(where, i, s, path.parent)
                    for i, s in enumerate(entry.get("setup") or [])),
        expert=tuple(plan), representative=representative, reference=dict(reference),
        version=version, source=str(path),
    )


def _setup(where: str, index: int, step: Any, data_dir: Path) -> SetupStep:
    """A set-up step the schema has checked the shape of: one kind, its fields."""
    field = f"{where}: field setup[{index}]"
    (kind, body), = step.items()
    names = SETUP_KINDS[kind]
    args = dict(body) if isinstance(body, Mapping) else {names[0]: body}
    if kind == "clock":
        at = args["at"]
        if isinstance(at, str):
            try:
                at = datetime.fromisoformat(at)
            except ValueError:
                raise TaskError(f"{field}.clock: 'at' must be 'YYYY-MM-DD HH:MM:SS', "
                                f"got {args['at']!r}") from None
        if not isinstance(at, datetime):
            raise TaskError(f"{field}.clock: 'at' must be a date and time")
        args["at"] = at
    if kind == "push" and not (data_dir / str(args["file"])).is_file():
        raise TaskError(f"{field}.push: file {args['file']!r} not found next to the task file")
    return SetupStep(kind, args)

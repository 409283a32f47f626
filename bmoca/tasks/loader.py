"""Read and validate task files: YAML lists of tasks, one file per app.

Every error names the file, the task and the field, so a broken file can be fixed
without reading this code.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from bmoca.formats import yamlload
from bmoca.tasks import experts
from bmoca.tasks.detectors import DetectorError, parse
from bmoca.tasks.spec import CATEGORIES, SetupStep, Task, TaskError

REQUIRED = ("id", "app", "category", "instruction", "step_limit", "success")
OPTIONAL = ("setup", "expert", "representative", "reference", "version")
SETUP_KINDS = {
    "clock": ("at",), "setting": ("namespace", "key", "value"), "shell": ("cmd",),
    "push": ("file", "to"),
}


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
        data = yamlload.load(path.read_text("utf-8"), f"{__name__}:_FastYamlLoader",
                             f"{__name__}:_YamlLoader", cached=cached)
    except (OSError, yamlload.yaml_error()) as exc:
        raise TaskError(f"{path}: cannot read task file: {exc}") from None
    if not isinstance(data, list):
        raise TaskError(f"{path}: expected a list of tasks at the top level")
    tasks = [_task(path, i, entry) for i, entry in enumerate(data)]
    seen: set[str] = set()
    for task in tasks:
        if task.id in seen:
            raise TaskError(f"{path}: task {task.id}: duplicate id")
        seen.add(task.id)
    return tasks


def task_from_entry(path: Path, entry: Mapping[str, Any], family: str = "") -> Task:
    """A task from one entry (a family's instance, its placeholders filled); the errors
    name `path` and the task as a task file's do."""
    task = _task(path, 0, entry)
    return dataclasses.replace(task, family=family) if family else task


def _task(path: Path, index: int, entry: Any) -> Task:
    where = f"{path}: task #{index}"
    if not isinstance(entry, Mapping):
        raise TaskError(f"{where}: expected a mapping, got {type(entry).__name__}")
    if isinstance(entry.get("id"), str):
        where = f"{path}: task {entry['id']}"
    missing = [f for f in REQUIRED if f not in entry]
    if missing:
        raise TaskError(f"{where}: missing field(s) {', '.join(missing)}")
    unknown = sorted(set(entry) - set(REQUIRED) - set(OPTIONAL))
    if unknown:
        raise TaskError(f"{where}: unknown field(s) {', '.join(unknown)}; "
                        f"fields are {', '.join(REQUIRED + OPTIONAL)}")
    for name in ("id", "app", "instruction"):
        if not isinstance(entry[name], str) or not entry[name].strip():
            raise TaskError(f"{where}: field {name}: expected a non-empty string")
    if entry["category"] not in CATEGORIES:
        raise TaskError(f"{where}: field category: {entry['category']!r} is not one of "
                        f"{', '.join(CATEGORIES)}")
    limit = entry["step_limit"]
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise TaskError(f"{where}: field step_limit: expected a positive integer, got {limit!r}")
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
    if not isinstance(representative, bool):
        raise TaskError(f"{where}: field representative: expected true or false")
    version = entry.get("version", 2)
    if version not in (1, 2) or isinstance(version, bool):
        raise TaskError(f"{where}: field version: expected 1 (the paper's first version only) "
                        f"or 2 (the release), got {version!r}")
    reference = entry.get("reference") or {}
    if not isinstance(reference, Mapping):
        raise TaskError(f"{where}: field reference: expected a mapping")
    return Task(
        id=entry["id"], app=entry["app"], category=entry["category"],
        instruction=entry["instruction"], step_limit=limit, success=success,
        setup=tuple(_setup(where, i, s, path.parent)
                    for i, s in enumerate(entry.get("setup") or [])),
        expert=tuple(plan), representative=representative, reference=dict(reference),
        version=version, source=str(path),
    )


def _setup(where: str, index: int, step: Any, data_dir: Path) -> SetupStep:
    field = f"{where}: field setup[{index}]"
    if not isinstance(step, Mapping) or len(step) != 1:
        raise TaskError(f"{field}: expected a one-key mapping ({', '.join(SETUP_KINDS)})")
    (kind, body), = step.items()
    if kind not in SETUP_KINDS:
        raise TaskError(f"{field}: unknown step {kind!r}; steps are {', '.join(SETUP_KINDS)}")
    names = SETUP_KINDS[kind]
    args = dict(body) if isinstance(body, Mapping) else {names[0]: body}
    missing = [n for n in names if n not in args]
    extra = sorted(set(args) - set(names))
    if missing or extra:
        raise TaskError(f"{field}.{kind}: expected fields {', '.join(names)}"
                        + (f"; missing {', '.join(missing)}" if missing else "")
                        + (f"; unknown {', '.join(extra)}" if extra else ""))
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

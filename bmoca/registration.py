"""gymnasium ids for the task suite, registered without loading the tasks.

Every task gets `bmoca/<app>-<name>-v0`, derived from its id by `gym_id`, and so does every
task family (its environment draws a new instance at each reset), plus two generic ids:
`bmoca/Task-v0`, that takes the task as a keyword, and `bmoca/Offline-v0`, the pixel and
discrete-action environment of a Minari export (`bmoca.env.offline`). Registration only stores entry-point
strings, so nothing heavy is imported until `gymnasium.make` builds an environment; the
ids are read from the task files with a line scan rather than by loading and validating
every task (a test checks the scan against `bmoca.tasks.all_tasks()`).

This module imports only the standard library (and gymnasium's registry when it
registers), so that gymnasium can call `register_envs` from its `gymnasium.envs` plugin
entry point (gymnasium < 1.0 loads those) and `import bmoca.env` can call it cheaply.
"""

from __future__ import annotations

import re
from functools import cache

from bmoca.formats.package_files import files as _package_files

NAMESPACE = "bmoca"
VERSION = 0
GENERIC_ID = f"{NAMESPACE}/Task-v{VERSION}"
"""`gymnasium.make(GENERIC_ID, task="settings/turn_on_wifi", ...)`: any task, even one
loaded from a file of your own (pass the `Task` object)."""
ENTRY_POINT = "bmoca.env.environment:BmocaEnv"
OFFLINE_ID = f"{NAMESPACE}/Offline-v{VERSION}"
"""`gymnasium.make(OFFLINE_ID, tasks=[...], configs=[...])`: the spaces of a Minari export
(pixel array in, 385-way discrete action out); what its `recover_environment()` builds."""
OFFLINE_ENTRY_POINT = "bmoca.env.offline:OfflineEnv"

_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")
_UNDERSCORES = re.compile(r"_{2,}")
_ID_LINE = re.compile(r"^- id:[ \t]*(\S.*?)[ \t]*$", re.MULTILINE)


def _clean(part: str) -> str:
    """Each run of characters outside [A-Za-z0-9_-] becomes one `_`; runs of `_` shrink to
    one and none is left at either end."""
    return _UNDERSCORES.sub("_", _UNSAFE.sub("_", part)).strip("_")


def gym_id(task_id: str) -> str:
    """The gymnasium id of a task: `settings/turn_on_wifi` -> `bmoca/settings-turn_on_wifi-v0`.

    The app and the name are joined by `-`; in each, every run of other characters than
    ASCII letters, digits, `_` and `-` becomes `_` (`clock/create_alarm_at_06:30_am` ->
    `bmoca/clock-create_alarm_at_06_30_am-v0`). Pure: any string maps, registered or not.
    """
    app, _, name = task_id.partition("/")
    parts = [_clean(p) for p in (app, name) if p]
    if not parts or not all(parts):
        raise ValueError(f"task id {task_id!r} has no letters or digits to name it by")
    return f"{NAMESPACE}/{'-'.join(parts)}-v{VERSION}"


@cache
def suite_task_ids() -> tuple[str, ...]:
    """The task ids of the suite's data files, in file order, read by a line scan."""
    data = _package_files(NAMESPACE).joinpath("tasks", "data")
    ids: list[str] = []
    for entry in sorted(data.iterdir(), key=lambda p: p.name):
        if entry.name.endswith(".yaml"):
            ids += _scalars(_ID_LINE.findall(entry.read_text("utf-8")))
    return tuple(ids)


_PLAIN_QUOTED = re.compile("'([^'\\n]*)'|\"([^\"\\\\\\n]*)\"")
"""A quoted scalar with nothing YAML would read differently from its letters: no escape
(`\\` in double quotes, `''` in single ones), no line break; it means what it encloses."""


def _unquoted(value: str) -> str | None:
    """What a quoted scalar of the plain kind means, read without PyYAML (the suite's ids
    are all of it); None for any other, which the YAML parser reads."""
    match = _PLAIN_QUOTED.fullmatch(value)
    if match is None or not match.group(match.lastindex or 0).isprintable():
        return None
    return match.group(match.lastindex or 0)


def _scalars(values: list[str]) -> list[str]:
    """The YAML scalars written on `- id:` lines; the quoted ones of the plain kind read as
    what they enclose, the others go through the YAML parser, all of a file's in one
    document (one parse per id was a tenth of `import bmoca.env`)."""
    plain = {value: _unquoted(value) for value in values if value[0] in "\"'"}
    if all(text is not None for text in plain.values()):  # also: nothing quoted
        return [plain[value] if value in plain else _scalar(value) for value in values]
    quoted = [value for value in values if value[0] in "\"'"]
    import yaml

    from bmoca.formats import yamlload

    try:
        parsed = yamlload.load("".join(f"- {value}\n" for value in quoted), cached=True)
    except yaml.YAMLError:  # say which one, in the words parsing it alone gives
        parsed = [yaml.safe_load(value) for value in quoted]
    if not isinstance(parsed, list) or len(parsed) != len(quoted):
        parsed = [yaml.safe_load(value) for value in quoted]
    found = iter(parsed)
    return [str(next(found)) if value[0] in "\"'" else _scalar(value) for value in values]


def _scalar(value: str) -> str:
    """A YAML scalar as written on an `- id:` line (quoted ones go through the YAML parser)."""
    if value[0] in "\"'":
        import yaml

        return str(yaml.safe_load(value))
    return value.split(" #", 1)[0].rstrip()


@cache
def family_ids() -> tuple[str, ...]:
    """The task families' ids (`bmoca/tasks/data/families/*.yaml`), by the same line scan."""
    data = _package_files(NAMESPACE).joinpath("tasks", "data", "families")
    ids: list[str] = []
    if data.is_dir():
        for entry in sorted(data.iterdir(), key=lambda p: p.name):
            if entry.name.endswith(".yaml"):
                ids += _scalars(_ID_LINE.findall(entry.read_text("utf-8")))
    return tuple(ids)


@cache
def family_gym_ids() -> dict[str, str]:
    """gymnasium id -> family id: each such environment draws a new instance of its family
    at every reset (`BmocaEnv`)."""
    table = id_table(family_ids())
    clash = sorted(set(table) & set(gym_ids()))
    if clash:
        raise ValueError(f"families and tasks share the gymnasium ids {', '.join(clash)}")
    return table


@cache
def gym_ids() -> dict[str, str]:
    """gymnasium id -> task id for the whole suite."""
    return id_table(suite_task_ids())


def id_table(task_ids: tuple[str, ...] | list[str]) -> dict[str, str]:
    """gymnasium id -> task id; two tasks that map to one id raise ValueError."""
    out: dict[str, str] = {}
    for task_id in task_ids:
        name = gym_id(task_id)
        if name in out:
            raise ValueError(f"tasks {out[name]!r} and {task_id!r} both map to the gymnasium "
                             f"id {name!r}; rename one")
        out[name] = task_id
    return out


def task_id_of(env_id: str) -> str:
    """The task id behind a registered gymnasium id (the inverse of `gym_id`)."""
    try:
        return gym_ids()[env_id] if env_id in gym_ids() else family_gym_ids()[env_id]
    except KeyError:
        raise KeyError(f"{env_id!r} is not a bmoca gymnasium id; they look like "
                       f"{gym_id('settings/turn_on_wifi')!r} (see bmoca.env.gym_id)") from None


def register_envs() -> None:
    """Register the generic ids and one id per suite task (idempotent, imports no task)."""
    from gymnasium.envs.registration import register, registry

    if GENERIC_ID not in registry:
        register(id=GENERIC_ID, entry_point=ENTRY_POINT)
    if OFFLINE_ID not in registry:
        register(id=OFFLINE_ID, entry_point=OFFLINE_ENTRY_POINT)
    for env_id, task_id in (*gym_ids().items(), *family_gym_ids().items()):
        if env_id not in registry:
            register(id=env_id, entry_point=ENTRY_POINT, kwargs={"task": task_id})

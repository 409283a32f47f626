"""The task-file format as JSON Schema, and the loader's check against it.

`bmoca/tasks/task.schema.json` is the published form (editors complete and check task files
with it, e.g. through a `# yaml-language-server: $schema=...` line); it is built from the
tables the code runs on (the fields, the set-up steps, the detectors' dataclasses, the
expert stages) by `build()` (`python tools/task_schema.py` writes it), and a test keeps the
file equal to it.

The loader validates every entry with `jsonschema` and reports the first error as one line
naming the file, the task and the field (`check`). What a schema cannot say (a detector's
regex compiles, a plan's stage arguments fit it, a pushed file exists, a date is real) the
loader checks after it.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from bmoca.tasks.spec import CATEGORIES, TaskError

__all__ = ["OPTIONAL", "REQUIRED", "SCHEMA_FILE", "SETUP_KINDS", "build", "check", "schema"]

REQUIRED = ("id", "app", "category", "instruction", "step_limit", "success")
OPTIONAL = ("setup", "expert", "representative", "reference", "version")
SETUP_KINDS = {
    "clock": ("at",), "setting": ("namespace", "key", "value"), "shell": ("cmd",),
    "push": ("file", "to"),
}
"""Each set-up step's fields; `- shell: CMD` is short for `- shell: {cmd: CMD}` (a step's
first field)."""
SCHEMA_FILE = Path(__file__).with_name("task.schema.json")
_TYPES = {"str": {"type": "string"}, "bool": {"type": "boolean"},
          "float": {"type": "number"}, "int": {"type": "integer"},
          "dict[str, Any]": {"type": "object"}, "Sequence[Any]": {"type": "array"},
          "list[Any]": {"type": "array"}, "Mapping[str, str]": {"type": "object"}}
_NON_EMPTY = {"type": "string", "pattern": r"\S"}


def _field_schema(annotation: str) -> dict[str, Any]:
    """A detector field's JSON type from its annotation (`str | None` allows null)."""
    parts = [p.strip() for p in annotation.split("|")]
    known = [_TYPES[p] for p in parts if p in _TYPES]
    if not known or len(known) + ("None" in parts) != len(parts):
        return {}  # Any, or a type JSON cannot name: the dataclass checks it
    types = [k["type"] for k in known] + (["null"] if "None" in parts else [])
    return {"type": types[0] if len(types) == 1 else types}


def _one_key(what: str, choices: dict[str, Any]) -> dict[str, Any]:
    """A mapping with exactly one key, one of `choices`, whose value has that key's schema;
    `title` says what a key is (a stage, a step, a detector) for the error message."""
    return {"type": "object", "minProperties": 1, "maxProperties": 1,
            "propertyNames": {"title": what, "enum": list(choices)}, "properties": choices}


def _detectors() -> dict[str, Any]:
    from bmoca.tasks.detectors import _PRIMITIVES

    detector = {"$ref": "#/$defs/detector"}
    choices: dict[str, Any] = {}
    for kind, cls in _PRIMITIVES.items():
        fields = [f for f in dataclasses.fields(cls) if f.init]
        choices[kind] = {
            "type": "object", "additionalProperties": False,
            "required": [f.name for f in fields if f.default is dataclasses.MISSING
                         and f.default_factory is dataclasses.MISSING],
            "properties": {f.name: _field_schema(str(f.type)) for f in fields},
        }
        if cls.__doc__:
            choices[kind]["description"] = " ".join(cls.__doc__.split())
    choices.update({
        "all": {"type": "array", "minItems": 1, "items": detector},
        "any": {"type": "array", "minItems": 1, "items": detector},
        "not": detector, "ever": detector, "never": detector,
        "before": {"type": "array", "minItems": 2, "maxItems": 2, "items": detector},
    })
    return _one_key("detector", choices)


def _setup_step() -> dict[str, Any]:
    steps = {}
    for kind, names in SETUP_KINDS.items():
        steps[kind] = {
            "if": {"type": "object"},
            "then": {"additionalProperties": False, "required": list(names),
                     "properties": {name: {} for name in names}},
            "else": {"type": ["string", "number", "boolean"]},  # the first field alone
        }
    return _one_key("step", steps)


def build() -> dict[str, Any]:
    """The schema of a task file, from the code's own tables."""
    from bmoca.tasks.experts import STAGES

    task = {
        "type": "object", "title": "task", "additionalProperties": False,
        "required": list(REQUIRED),
        "properties": {
            "id": {**_NON_EMPTY, "description": "app/name, unique in the suite"},
            "app": {**_NON_EMPTY, "description": "the app's label"},
            "category": {"enum": list(CATEGORIES)},
            "instruction": {**_NON_EMPTY, "description": "the goal the agent is given"},
            "step_limit": {"type": "integer", "minimum": 1},
            "success": {"$ref": "#/$defs/detector",
                        "description": "when the task is done (docs/tasks.md)"},
            "setup": {"type": "array", "items": {"$ref": "#/$defs/setup_step"}},
            "expert": {"type": "array", "minItems": 1, "items": {
                "if": {"type": "string"}, "then": {"enum": list(STAGES)},
                "else": _one_key("stage", {name: {} for name in STAGES})}},
            "representative": {"type": "boolean"},
            "reference": {"type": "object"},
            "version": {"enum": [1, 2], "description": "1: the paper's first version only; "
                                                      "2: the release"},
        },
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "bmoca task file",
        "description": "A list of tasks (bmoca/tasks/data/*.yaml; docs/tasks.md).",
        "type": "array", "items": {"$ref": "#/$defs/task"},
        "$defs": {"task": task, "detector": _detectors(), "setup_step": _setup_step()},
    }


@cache
def schema() -> dict[str, Any]:
    """The shipped schema (`task.schema.json`)."""
    return json.loads(SCHEMA_FILE.read_text("utf-8"))


@cache
def _validator() -> Any:
    import jsonschema

    return jsonschema.Draft202012Validator(
        {**schema()["$defs"]["task"], "$defs": schema()["$defs"]})


def _jsonable(value: Any) -> Any:
    """YAML's data as JSON has it: dates become their ISO text (the loader reads them)."""
    if isinstance(value, Mapping):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, datetime.date):
        return value.isoformat(" ") if isinstance(value, datetime.datetime) \
            else value.isoformat()
    return value


def _path(parts: Any) -> str:
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else f".{part}" if out else str(part)
    return out


def _words(error: Any) -> str:
    """One error in the loader's words."""
    value, schema_ = error.instance, error.schema
    if error.validator == "required":
        missing = [n for n in schema_["required"] if n not in value]
        return f"missing field(s) {', '.join(missing)}"
    if error.validator == "additionalProperties":
        extra = sorted(set(value) - set(schema_["properties"]))
        return (f"unknown field(s) {', '.join(map(str, extra))}; "
                f"fields are {', '.join(schema_['properties'])}")
    if error.validator in ("minProperties", "maxProperties"):
        return (f"expected a mapping with one key (one of "
                f"{', '.join(schema_['properties'])}), got {value!r}")
    if error.validator == "enum" and "title" in schema_:  # a one-key mapping's key
        return f"unknown {schema_['title']} {value!r}; use {', '.join(schema_['enum'])}"
    if error.validator == "enum":
        return f"{value!r} is not one of {', '.join(map(str, schema_['enum']))}"
    if error.validator == "pattern" and schema_.get("pattern") == _NON_EMPTY["pattern"]:
        return "expected a non-empty string"
    if error.validator == "type":
        kinds = schema_["type"] if isinstance(schema_["type"], list) else [schema_["type"]]
        names = {"object": "a mapping", "array": "a list", "string": "a string",
                 "integer": "an integer", "number": "a number", "boolean": "true or false",
                 "null": "nothing"}
        return f"expected {' or '.join(names[k] for k in kinds)}, got {value!r}"
    return error.message


def check(where: str, entry: Any) -> None:
    """Validate one task entry; TaskError `WHERE: field PATH: what` on the most relevant
    error (jsonschema's `best_match`)."""
    from jsonschema.exceptions import best_match

    error = best_match(_validator().iter_errors(_jsonable(entry)))
    if error is None:
        return
    path, words = _path(error.absolute_path), _words(error)
    raise TaskError(f"{where}: field {path}: {words}" if path else f"{where}: {words}")


def _mark(text: str) -> tuple[Path | None, bytes]:
    """The data-cache entry that says `text` fits the schema, and what it holds: the
    SHA-256 of the schema and the text it vouches for."""
    import hashlib

    from bmoca.formats import cachedir

    key = SCHEMA_FILE.read_bytes() + b"\0" + text.encode("utf-8", "surrogatepass")
    return cachedir.entry("taskschema", key), b"valid " + hashlib.sha256(key).hexdigest().encode()


def known_valid(text: str) -> bool:
    """Whether an earlier process validated this task file's text against this schema (a
    mark in the data cache), so a cold start need not import jsonschema for the suite."""
    from bmoca.formats import cachedir

    path, mark = _mark(text)
    return path is not None and cachedir.read(path) == mark


def mark_valid(text: str) -> None:
    """Remember that every entry of this text validated (see `known_valid`)."""
    from bmoca.formats import cachedir

    path, mark = _mark(text)
    if path is not None:
        cachedir.write(path, mark)


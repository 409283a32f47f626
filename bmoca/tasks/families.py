"""Task families: a task entry with typed parameters, from which any number of instances
are drawn (`bmoca.tasks.params`). An instance is `(family, seed)`: its id is
`<family id>@<seed>` (`clock/create_alarm_at_time@17`), and it is an ordinary `Task` with
its parameters filled into the instruction, set-up, success expression and expert plan,
so it works wherever a task id does (`--tasks`, `bmoca.make`, `bmoca/Task-v0`, the store
and reports). The fixed tasks of `bmoca/tasks/data/*.yaml` are left exactly as they are.

Families live in `bmoca/tasks/data/families/<app>.yaml`, one entry each: the fields of a
task (docs/tasks.md) with `${...}` placeholders, plus

    params:                        # drawn in this order, each by its type
      time: {time: {step: 5}}
      days: {days: [1, 7]}
    kind: parameterized            # what sort of family (docs/families.md)

Near-miss rows of a family are written under its id in the near-miss data files, with the
same placeholders (`bmoca.tasks.near_misses`).
"""

from __future__ import annotations

import functools
import math
import random
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bmoca.bytecache import approx_bytes, byte_lru
from bmoca.tasks import params as typed
from bmoca.tasks import templates
from bmoca.tasks.loader import read_data_file, task_from_entry
from bmoca.tasks.spec import Task, TaskError

KINDS = ("parameterized", "cross-app", "information-retrieval", "constrained",
         "long-horizon", "infeasible")
DEFAULT_INSTANCES = 5
"""Instances a family name alone selects (`--tasks clock/create_alarm_at_time`): seeds 0-4."""
_INSTANCE = re.compile(r"^(?P<family>[^@]+)@(?P<seed>\d+)$")
_RANGE = re.compile(r"^(?P<family>[^@]+)@(?P<first>\d+)\.\.(?P<last>\d+)$")
MAX_RANGE = 10_000
INSTANCES_BYTES = 8 << 20
"""Family instances kept, in bytes (their family, which keys them, is counted once, elsewhere)."""


@dataclass(frozen=True, eq=False)
class Family:
    """One family as read from its file (compared by identity: each is loaded once)."""

    id: str
    app: str
    category: str
    kind: str
    params: tuple[tuple[str, Any], ...]
    """(name, type) in drawing order."""
    template: Mapping[str, Any]
    """The task entry with placeholders (no `params` or `kind`)."""
    source: str

    @property
    def instance_count(self) -> int:
        """Distinct parameter combinations (instances past it repeat one)."""
        return math.prod(kind.size() for _, kind in self.params)

    def values(self, seed: int) -> dict[str, Any]:
        """The instance's parameters: drawn by a `random.Random` seeded by the family id
        and the seed (a string seed is hashed the same way on every machine and Python
        run), again while they fall in the other instance split than the seed's, so that
        test instances never share their parameters with training ones (`splits`)."""
        from bmoca.tasks import splits

        wanted = splits.seed_part(seed)
        first = None
        for attempt in range(splits.MAX_REDRAWS):
            rng = random.Random(f"{self.id}@{seed}" + (f"#{attempt}" if attempt else ""))
            values = {name: kind.draw(rng) for name, kind in self.params}
            if splits.values_part(values) == wanted:
                return values
            first = first or values
        return first  # a space too small to have values in both parts

    def instance(self, seed: int) -> Task:
        return _instance(self, seed)

    def describe_params(self) -> str:
        return "; ".join(f"{name}: {kind.describe()}" for name, kind in self.params)


@byte_lru(INSTANCES_BYTES, lambda key, task: approx_bytes(task))
def _instance(family: Family, seed: int) -> Task:
    where = f"{family.source}: family {family.id} instance {seed}"
    entry = dict(templates.fill(dict(family.template), family.values(seed), where))
    entry["id"] = f"{family.id}@{seed}"
    return task_from_entry(Path(family.source), entry, family=family.id)


def kind_of(task: Task) -> str:
    """The kind of the family a task is an instance of; "" for a fixed task."""
    return get(task.family).kind if task.family else ""


def has_subgoals(task: Task) -> bool:
    """A long-horizon instance: its success's top-level `all:` lists its sub-goals, whose
    share met is reported per episode (info["subgoals"], the efficiency table)."""
    return kind_of(task) == "long-horizon"


def load_file(path: str | Path) -> list[Family]:
    """The families of one file; every error names the file, the family and the field."""
    path = Path(path)
    data = read_data_file(path, "family")
    if not isinstance(data, list):
        raise TaskError(f"{path}: expected a list of families at the top level")
    families = [_family(path, i, entry) for i, entry in enumerate(data)]
    for family in families:  # every family makes a valid first instance, or says why
        family.instance(0)
    return families


def _family(path: Path, index: int, entry: Any) -> Family:
    where = f"{path}: family #{index}"
    if not isinstance(entry, Mapping):
        raise TaskError(f"{where}: expected a mapping")
    family_id = entry.get("id")
    if not isinstance(family_id, str) or "@" in family_id or "/" not in family_id:
        raise TaskError(f"{where}: field id: expected 'app/name' without '@'")
    where = f"{path}: family {family_id}"
    kind = entry.get("kind", "parameterized")
    if kind not in KINDS:
        raise TaskError(f"{where}: field kind: {kind!r} is not one of {', '.join(KINDS)}")
    raw = entry.get("params")
    if not isinstance(raw, Mapping) or not raw:
        raise TaskError(f"{where}: field params: expected a mapping of names to types")
    kinds = tuple((str(name), typed.parse_type(f"{where}: field params.{name}", spec))
                  for name, spec in raw.items())
    template = {k: v for k, v in entry.items() if k not in ("params", "kind")}
    for name in ("app", "category"):
        if not isinstance(entry.get(name), str):
            raise TaskError(f"{where}: field {name}: expected a string")
    return Family(family_id, entry["app"], entry["category"], kind, kinds, template, str(path))


def _data_dir() -> Path:
    return Path(__file__).parent / "data" / "families"


@functools.cache
def all_families() -> tuple[Family, ...]:
    families: list[Family] = []
    for path in sorted(_data_dir().glob("*.yaml")):
        families += load_file(path)
    ids = [f.id for f in families]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise TaskError(f"family ids defined twice: {', '.join(duplicates)}")
    return tuple(families)


def get(family_id: str) -> Family:
    for family in all_families():
        if family.id == family_id:
            return family
    known = ", ".join(f.id for f in all_families())
    raise TaskError(f"unknown task family {family_id!r}; families: {known}")


def is_instance_id(name: str) -> bool:
    return _INSTANCE.match(name) is not None


def instance(task_id: str) -> Task:
    """The task `<family>@<seed>` names."""
    match = _INSTANCE.match(task_id)
    if match is None:
        raise TaskError(f"{task_id!r} is not a family instance id (family@seed)")
    return get(match["family"]).instance(int(match["seed"]))


def select(name: str, seeds: Callable[[], Iterable[int]] = lambda: range(DEFAULT_INSTANCES)
           ) -> list[Task] | None:
    """Instances a `--tasks` name picks, or None when it names no family: `families` (the
    first five of every family), a family id (its first five), `family@seed`,
    `family@first..last`. `seeds` gives the seeds of "the first five" (an instance split
    gives its own)."""
    if name.lower() == "families":
        return [f.instance(s) for f in all_families() for s in seeds()]
    if is_instance_id(name):
        return [instance(name)]
    span = _RANGE.match(name)
    if span is not None:
        first, last = int(span["first"]), int(span["last"])
        if last < first or last - first >= MAX_RANGE:
            raise TaskError(f"{name!r}: a range of instances is first..last, first <= last, "
                            f"at most {MAX_RANGE} of them")
        family = get(span["family"])
        return [family.instance(s) for s in range(first, last + 1)]
    for family in all_families():
        if family.id == name:
            return [family.instance(s) for s in seeds()]
    return None

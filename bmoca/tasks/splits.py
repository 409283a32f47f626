"""Generalization splits of the task families, on AndroidWorld-Generalization's three axes
(unseen instance, unseen family, unseen app), to combine with B-MoCA's device axis (the
train and test configurations):

* **instance**: seed `s` is a test instance when `s % 5 == 4`; an instance's parameters
  are redrawn until they fall in its seed's part of the parameter space (a hash of the
  values), so no test instance shares its parameters with a training one;
* **family**: a family is held out when a hash of its id falls in the test quarter;
* **app**: four apps are held out, `TEST_APPS` (a utility, a communication app, a photo
  editor and a shop, each with fixed tasks and families); their fixed tasks and families
  go with them.

`--task-split test-family,train-app` keeps the tasks in every part named. The instance
axis applies to family instances only (a fixed task is one instance of itself), the family
axis to families only; fixed tasks pass them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from typing import Any

from bmoca.tasks.spec import Task, TaskError

AXES = ("instance", "family", "app")
SPLITS = tuple(f"{part}-{axis}" for axis in AXES for part in ("train", "test"))
TEST_SEED_EVERY = 5
MAX_REDRAWS = 200


def _hashed(text: str, buckets: int) -> bool:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % buckets == 0


def seed_part(seed: int) -> str:
    return "test" if seed % TEST_SEED_EVERY == TEST_SEED_EVERY - 1 else "train"


def values_part(values: dict[str, Any]) -> str:
    """The part of the parameter space values fall in (one fifth is test)."""
    text = repr(sorted((name, repr(value)) for name, value in values.items()))
    return "test" if _hashed(text, TEST_SEED_EVERY) else "train"


def family_part(family_id: str) -> str:
    return "test" if _hashed(f"family:{family_id}", 4) else "train"


TEST_APPS = ("Calculator", "Contacts", "Snapseed", "Walmart")


def app_part(app: str) -> str:
    return "test" if app.lower() in {a.lower() for a in TEST_APPS} else "train"


def parse(spec: str | Sequence[str] | None) -> tuple[tuple[str, str], ...]:
    """`test-family,train-app` -> (("family", "test"), ("app", "train")); TaskError naming
    the valid splits for anything else."""
    if not spec:
        return ()
    names = spec.split(",") if isinstance(spec, str) else list(spec)
    out = []
    for name in (n.strip().lower() for n in names if n.strip()):
        if name not in SPLITS:
            raise TaskError(f"unknown task split {name!r}; valid: {', '.join(SPLITS)}")
        part, axis = name.split("-", 1)
        out.append((axis, part))
    axes = [axis for axis, _ in out]
    if len(set(axes)) != len(axes):
        raise TaskError(f"task split {spec!r} names an axis twice")
    return tuple(out)


def keeps(task: Task, chosen: tuple[tuple[str, str], ...]) -> bool:
    for axis, part in chosen:
        if axis == "app" and app_part(task.app) != part:
            return False
        if axis == "family" and task.family and family_part(task.family) != part:
            return False
        if axis == "instance" and task.family:
            seed = int(task.id.rsplit("@", 1)[1])
            if seed_part(seed) != part:
                return False
    return True


def seeds(chosen: tuple[tuple[str, str], ...], count: int) -> Iterator[int]:
    """The first `count` seeds of the instance part chosen (all seeds when none is)."""
    part = dict(chosen).get("instance")
    seed = found = 0
    while found < count:
        if part is None or seed_part(seed) == part:
            yield seed
            found += 1
        seed += 1

"""Near-miss rows: trajectories an agent can play that must fail a task (a near miss) or
must pass it (another right path), played through `env.step` with the JSON actions an agent
sends, within the task's step limit, the episode ending at its first success.

A row is a plan of the experts' stages and of `bmoca.tasks.experts.moves` (long presses,
keys, typed text, a claim of being done). Every task whose expert opens an app gets four
rows derived from its expert (`generic_rows`); the data files under
`bmoca/tasks/data/near_misses/` add each task's own: the neighbouring item, the right
action undone before it counts, a side path to the same state. `bmoca validate
--near-misses` plays them and writes the certificate (docs/validity.md).

A data file maps task ids to lists of rows:

    settings/turn_on_wifi:
      - fail: airplane_switch_instead
        why: the neighbouring switch on the same page
        play:
          - open_app: com.android.settings
          - tap_id: {id: "android:id/title", index: 0}
          - set_switch: {id: "com.android.settings:id/switch_widget", checked: true}
      - pass: expert_after_a_detour
        play: [{open_app: com.android.chrome}, {press: HOME}, expert]

`expert` in a play stands for the task's whole expert plan, `{expert: {from: 1}}` for a
slice of it (`from`, `until` as in a Python slice). A row ends with a claim of being done
(`claim: complete`) unless its play ends with its own claim. A row whose verdict knowingly
differs from what a careful user expects carries `deviation:` with the reason; it then
asserts the verdict the criterion gives, so that a change either way is noticed.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bmoca.tasks import experts
from bmoca.tasks.loader import read_data_file
from bmoca.tasks.spec import Task, TaskError

KINDS = ("fail", "pass")
FIELDS = ("why", "play", "deviation")
OPENERS = ("open_app", "launch")
"""Expert stages that open the task's app: the generic rows start from them."""


@dataclass(frozen=True)
class Row:
    task_id: str
    must_pass: bool
    """What a careful user expects: True for another right path, False for a near miss."""
    name: str
    play: tuple[Mapping[str, Any], ...]
    why: str = ""
    deviation: str = ""
    """Why the task's criterion knowingly judges this row the other way ('' when it does not)."""
    source: str = "generic"

    @property
    def id(self) -> str:
        return f"{self.task_id}::{'pass' if self.must_pass else 'fail'}:{self.name}"

    @property
    def expected(self) -> bool:
        """The verdict the criterion must give: `must_pass`, unless a deviation is documented."""
        return self.must_pass != bool(self.deviation)


def _claimed(plan: Sequence[Mapping[str, Any]]) -> tuple[Mapping[str, Any], ...]:
    plan = tuple(plan)
    if plan and next(iter(plan[-1])) == "claim":
        return plan
    return (*plan, {"claim": "complete"})


def opened_package(task: Task) -> str | None:
    """The package the expert's first stage opens, if it opens one."""
    if not task.expert:
        return None
    (stage, arg), = task.expert[0].items()
    return arg if stage in OPENERS and isinstance(arg, str) else None


def generic_rows(task: Task) -> list[Row]:
    """The rows every task that opens an app gets, each no longer than the expert's path
    or the shortest near miss, so that they fit the task's step limit:

    - near misses: claiming done at once; a long press on the app's launcher icon (its
      shortcut popup opens, no app starts); App info from that popup (Settings' page about
      the app), where the step limit leaves room for the drawer, the long press, App info
      and the claim;
    - other right paths: the app opened from the app drawer; the app opened the other way
      (AndroidWorld's `open_app` action where the expert taps the icon, the icon where
      the expert sends `open_app`)."""
    rows = [Row(task.id, False, "claim_done_at_once", ({"claim": "complete"},),
                "claims the task done before doing anything")]
    package = opened_package(task)
    if package is None:
        return rows
    rows.append(Row(task.id, False, "long_press_app_icon",
                    _claimed([{"long_press_app": package}]),
                    "long-presses the app's launcher icon (its shortcut popup opens, no app "
                    "starts), then claims done"))
    if task.step_limit >= 4:
        rows.append(Row(task.id, False, "app_info_from_the_icons_popup",
                        _claimed([{"long_press_app": package}, {"popup_app_info": None}]),
                        "long-presses the app's launcher icon and taps App info (Settings' "
                        "page about the app opens, not the app), then claims done"))
    rest = task.expert[1:]
    rows.append(Row(task.id, True, "from_the_app_drawer",
                    _claimed([{"open_from_drawer": package}, *rest]),
                    "opens the app from the app drawer, then does the task"))
    if next(iter(task.expert[0])) == "open_app":
        rows.append(Row(task.id, True, "opened_by_open_app_action",
                        _claimed([{"launch": package}, *rest]),
                        "opens the app by the open_app action, then does the task"))
    else:
        rows.append(Row(task.id, True, "opened_from_its_icon",
                        _claimed([{"open_app": package}, *rest]),
                        "opens the app by its launcher icon, then does the task"))
    return rows


def _data_dir() -> Path:
    return Path(__file__).parent / "data" / "near_misses"


def load_file(path: str | Path, suite: Mapping[str, Task],
              family_rows: dict[str, list[tuple[str, Any, str]]] | None = None) -> list[Row]:
    """The rows of one data file; every error names the file, the task and the row. Rows
    under a family's id are checked on its first instance and kept, with their
    placeholders, in `family_rows` (family id -> (where, entry, file))."""
    from bmoca.tasks import families

    path = Path(path)
    data = read_data_file(path, "near-miss")
    if not isinstance(data, Mapping):
        raise TaskError(f"{path}: expected a mapping of task ids to lists of rows")
    rows = []
    for task_id, entries in data.items():
        where = f"{path}: task {task_id}"
        task = suite.get(task_id)
        family = None
        if task is None and family_rows is not None:
            family = next((f for f in families.all_families() if f.id == task_id), None)
        if task is None and family is None:
            raise TaskError(f"{where}: no such task")
        if not isinstance(entries, list):
            raise TaskError(f"{where}: expected a list of rows")
        for i, entry in enumerate(entries):
            if family is not None:
                family_rows.setdefault(task_id, []).append((f"{where}: row #{i}", entry, str(path)))
                _family_row(family, 0, f"{where}: row #{i}", entry, str(path))
            else:
                rows.append(_row(f"{where}: row #{i}", task, entry, str(path)))
    return rows


def _family_row(family, seed: int, where: str, entry: Any, source: str) -> Row:
    """A family's row for one instance: its placeholders filled with the instance's values."""
    from bmoca.tasks import templates

    filled = templates.fill(entry, family.values(seed), where)
    return _row(where, family.instance(seed), filled, source)


def _row(where: str, task: Task, entry: Any, source: str) -> Row:
    if not isinstance(entry, Mapping):
        raise TaskError(f"{where}: expected a mapping")
    kinds = [k for k in KINDS if k in entry]
    if len(kinds) != 1 or not isinstance(entry[kinds[0]], str):
        raise TaskError(f"{where}: give exactly one of 'fail: NAME' or 'pass: NAME'")
    kind, name = kinds[0], entry[kinds[0]]
    where = f"{where[:where.rindex(': row #')]}: row {name}"
    unknown = sorted(set(entry) - {kind, *FIELDS})
    if unknown:
        raise TaskError(f"{where}: unknown field(s) {', '.join(unknown)}; fields are "
                        f"{kind}, {', '.join(FIELDS)}")
    play = _expand(where, task, entry.get("play"))
    try:
        experts.check_plan(play, f"{where}: play")
    except experts.PlanError as exc:
        raise TaskError(str(exc)) from None
    for field in ("why", "deviation"):
        if not isinstance(entry.get(field, ""), str):
            raise TaskError(f"{where}: field {field}: expected a string")
    return Row(task.id, kind == "pass", name, _claimed(play), entry.get("why", ""),
               entry.get("deviation", ""), source)


def _expand(where: str, task: Task, play: Any) -> list[Mapping[str, Any]]:
    """The play with `expert` / `{expert: {from, until}}` replaced by the expert's stages."""
    if not isinstance(play, list) or not play:
        raise TaskError(f"{where}: field play: expected a non-empty list of stages")
    out: list[Mapping[str, Any]] = []
    for item in play:
        if item == "expert":
            out.extend(task.expert)
        elif isinstance(item, Mapping) and set(item) == {"expert"}:
            bounds = item["expert"] or {}
            if not isinstance(bounds, Mapping) or set(bounds) - {"from", "until"}:
                raise TaskError(f"{where}: field play: expert takes {{from: N, until: N}}")
            out.extend(task.expert[bounds.get("from"):bounds.get("until")])
        else:
            out.append(item)
    return out


@functools.cache
def _loaded() -> tuple[tuple[Row, ...], dict[str, list[tuple[str, Any, str]]]]:
    from bmoca import tasks

    suite = {t.id: t for t in tasks.all_tasks()}
    rows = [row for task in suite.values() for row in generic_rows(task)]
    family_rows: dict[str, list[tuple[str, Any, str]]] = {}
    for path in sorted(_data_dir().glob("*.yaml")):
        rows.extend(load_file(path, suite, family_rows))
    _check_unique(rows)
    return tuple(rows), family_rows


def _check_unique(rows: Sequence[Row]) -> None:
    seen: set[str] = set()
    for row in rows:
        if row.id in seen:
            raise TaskError(f"{row.source}: row {row.id} is defined twice")
        seen.add(row.id)


def all_rows() -> tuple[Row, ...]:
    """Every fixed task's rows: its generic ones, then those of the data files (by file
    name). A family instance's rows come from `rows_for`."""
    return _loaded()[0]


def rows_for(task_id: str) -> list[Row]:
    """A task's rows; for a family's instance (`family@seed`), the generic rows of the
    instance and the family's rows with the instance's values filled in."""
    from bmoca.tasks import families

    if not families.is_instance_id(task_id):
        return [row for row in all_rows() if row.task_id == task_id]
    task = families.instance(task_id)
    family = families.get(task.family)
    seed = int(task_id.rsplit("@", 1)[1])
    rows = generic_rows(task) + [_family_row(family, seed, where, entry, source)
                                 for where, entry, source in _loaded()[1].get(family.id, [])]
    _check_unique(rows)
    return rows


def get(task_id: str, name: str) -> Row:
    """One row of a task, by name; ValueError naming the task's rows when there is none."""
    found = rows_for(task_id)
    for row in found:
        if row.name == name:
            return row
    raise ValueError(f"task {task_id} has no near-miss row {name!r}; its rows: "
                     f"{', '.join(r.name for r in found) or 'none'}")

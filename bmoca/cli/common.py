"""What every `bmoca` command shares: one option vocabulary, checked values, piped output.

The vocabulary (README, "Command-line conventions"): `--tasks SPEC` (repeatable) and
`--task ID` (exact, repeatable) pick tasks; `--split train|test|all` or `--configs IDS` pick
configurations; `--config ID` is one configuration; `--repeats`, `--seed`, `--workers`
(default 1 everywhere); `--out` is where a command writes; `--device` is the phone;
`--json` prints what a script would read. A bad value is a BadParameter naming the valid
choices or the closest match; `bmoca.cli.main.main` prints it as one line, exit 2.
"""

from __future__ import annotations

import difflib
import json
import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

console = Console(highlight=False)
SPLITS = ("train", "test", "all")
DEVICE_HELP = ("sim, adb (the only attached device), adb:SERIAL (e.g. adb:emulator-5554) "
               "or adb:HOST:PORT")
TASKS_HELP = ("all, representative, v1, v2, an app, a category, task ids or globs over ids "
              "(clock/*alarm*), comma-separated (ids containing commas are kept whole); "
              "repeatable")
TASK_HELP = "one exact task id, never split at commas; repeatable"
TASK_SPLIT_HELP = ("keep a generalization split of the tasks: train-instance, test-instance, "
                   "train-family, test-family, train-app, test-app, comma-separated to "
                   "combine axes (docs/families.md)")
JSON_HELP = "print JSON for scripts instead of a table"


def error_line(message: object) -> None:
    """An error as one line on stderr (the console would wrap it at the terminal width)."""
    sys.stderr.write("error: " + " ".join(str(message).split()) + "\n")


def writable_dir(param: str, path: Path) -> Path:
    """`path` as a directory this process can write (created if missing), or a one-line
    BadParameter saying why not, before any work starts."""
    if path.exists() and not path.is_dir():
        raise bad(param, f"{path} exists and is not a directory")
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / f".bmoca-write-check-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise bad(param, f"cannot write to {path}: {exc.strerror or exc}") from None
    return path


def writable_file(param: str, path: Path) -> Path:
    """`path` as a file this process can create (its folder made if missing), or a
    one-line BadParameter saying why not, before any work starts (a checkpoint that
    cannot be written is found before training, not after it)."""
    if path.is_dir():
        raise bad(param, f"{path} is a directory; give a file name")
    writable_dir(param, path.parent)
    return path


def write_last_screens(screens: Path | None,
                       problems: Sequence[tuple[str, str, str, str | None]]) -> list[str | None]:
    """Each problem's last screen as a numbered file under `screens` (created when there
    is one to write); problems are (file name part, first line, what went wrong, screen).
    The paths written, None where nothing was."""
    paths: list[str | None] = []
    if screens and problems:
        screens.mkdir(parents=True, exist_ok=True)
    for number, (stem, heading, what, screen) in enumerate(problems, 1):
        path = None
        if screens and screen:
            path = screens / f"{number:03d}_{stem}.txt"
            path.write_text(f"{heading}\n{what}\n\n{screen}\n", "utf-8")
        paths.append(str(path) if path else None)
    return paths


def piped() -> bool:
    """Whether stdout is not a terminal: then output is plain text, never a drawn table."""
    return not sys.stdout.isatty()


def bad(param: str, message: str) -> typer.BadParameter:
    """A bad value: `bmoca.cli.main.main` prints it on one line and exits 2."""
    return typer.BadParameter(message, param_hint=param)


def closest(value: str, choices: Iterable[str]) -> str:
    """'did you mean X? ' for the nearest valid choice, or ''."""
    choices = list(choices)
    lower = {c.lower(): c for c in choices}
    near = difflib.get_close_matches(value.lower(), list(lower), n=1, cutoff=0.6)
    return f"did you mean {lower[near[0]]}? " if near else ""


def choice(param: str, value: str, choices: Sequence[str]) -> str:
    """`value` if it is one of `choices` (case-insensitive), else a bad value naming them."""
    for c in choices:
        if value.lower() == c.lower():
            return c
    raise bad(param, f"{value!r}; {closest(value, choices)}valid: {', '.join(choices)}")


def check_split(value: str) -> str:
    """A --split in its canonical case (`Test` is `test`: one run, not a second one)."""
    return choice("--split", value, SPLITS)


def canonical_task_split(value: str | None) -> str | None:
    """A --task-split as `splits.parse` reads it (lower case, no blanks), so that the run
    directory named after it is the same however it was typed; checked where it is used."""
    if value is None:
        return None
    return ",".join(n.strip().lower() for n in value.split(",") if n.strip())


def split_option(default: str, help: str = "train, test or all configurations") -> Any:
    """`--split train|test|all`, any case, normalised before the command sees it."""
    return typer.Option(default, "--split", help=help, metavar="SPLIT", callback=check_split)


def task_split_option() -> Any:
    """`--task-split`, any case, normalised before the command sees it."""
    return typer.Option(None, "--task-split", help=TASK_SPLIT_HELP, metavar="SPLITS",
                        callback=canonical_task_split)


def device_target(value: str) -> str:
    """Check a --device value; a bad one names the valid forms."""
    if value == "sim" or value == "adb" or (value.startswith("adb:") and len(value) > 4):
        return value
    raise bad("--device", f"{value!r}; valid: {DEVICE_HELP}")


# README, "Exit status": a phone that could not be reached is status 1 (bad input is 2).
UNREACHABLE_EXIT = 1


def unreachable(exc: object) -> typer.Exit:
    """A device that is not there: the device layer's advice as one `error:` line, and the
    exit every command gives for it (never a traceback)."""
    error_line(exc)
    return typer.Exit(UNREACHABLE_EXIT)


def check_reachable(target: str) -> None:
    """Fail fast, before any work, when a device over ADB is not attached or no adb server
    answers: `connect` alone only names the device, the first command would fail later."""
    if target == "sim":
        return
    from bmoca.device import DeviceError, connect

    try:
        connect(target).shell("true")
    except DeviceError as exc:
        raise unreachable(exc) from None


def select_tasks(specs: Sequence[str] | None, ids: Sequence[str] | None = None,
                 default: str | None = None, task_split: str | None = None):
    """Tasks from `--tasks` specs and exact `--task` ids, in order, without repeats, kept
    to `--task-split` when one is given."""
    from bmoca import tasks
    from bmoca.tasks import splits

    try:
        chosen_split = splits.parse(task_split)
    except tasks.TaskError as exc:
        raise bad("--task-split", str(exc)) from None
    chosen: dict[str, Any] = {}
    for task_id in ids or []:
        try:
            task = tasks.get(task_id)
        except tasks.TaskError as exc:
            raise bad("--task", str(exc)) from None
        if splits.keeps(task, chosen_split):
            chosen.setdefault(task.id, task)
    specs = list(specs or [])
    if not specs and not ids and default:
        specs = [default]
    if specs:
        try:
            for task in tasks.select(specs, task_split):
                chosen.setdefault(task.id, task)
        except tasks.TaskError as exc:
            raise bad("--tasks", str(exc)) from None
    if not chosen:
        raise bad("--task", f"no task given is in task split {task_split}")
    return list(chosen.values())


def tasks_label(specs: Sequence[str] | None, ids: Sequence[str] | None, default: str,
                task_split: str | None = None) -> str:
    """The task part of a default run directory's name (with the task split, if any)."""
    label = ",".join([*(specs or []), *(ids or [])]) or default
    return f"{label}@{task_split}" if task_split else label


def config_ids(split: str, config_spec: str | None) -> list[str]:
    from bmoca import configs

    split = check_split(split)
    try:
        chosen = configs.expand(config_spec) if config_spec else configs.ids(split)
    except (KeyError, ValueError) as exc:
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
        raise bad("--configs" if config_spec else "--split", str(message)) from None
    if not chosen:
        raise bad("--configs", f"{config_spec!r} names no configuration; give ids such as "
                  "test_env_100 or ranges such as train_env_000..006 (bmoca configs)")
    return list(chosen)


def locale(value: str) -> str:
    """A --locale as Android resolves it (`de` -> `de-DE`), or a bad value listing them."""
    from bmoca.formats.locales import resolve

    try:
        return resolve(value)
    except ValueError as exc:
        raise bad("--locale", str(exc)) from None


def emit(rows: list[dict[str, Any]], as_json: bool, columns: Sequence[str] | None = None) -> None:
    """A listing: JSON for scripts, tab-separated lines with a header when piped, a table
    on a terminal. Ids are printed whole in all three (folded, never ellipsised)."""
    if as_json:
        print_json(rows)
        return
    columns = list(columns or (rows[0].keys() if rows else []))
    if piped():
        sys.stdout.write("\t".join(columns) + "\n")
        for row in rows:
            sys.stdout.write("\t".join(_cell(row.get(c)) for c in columns) + "\n")
        return
    table = Table()
    for name in columns:
        table.add_column(name, overflow="fold")
    for row in rows:
        table.add_row(*(_cell(row.get(c)) for c in columns))
    console.print(table, markup=False)


def _cell(value: Any) -> str:
    if value is None or value is False:
        return ""
    if value is True:
        return "yes"
    return str(value)


def print_json(value: Any) -> None:
    sys.stdout.write(json.dumps(value, indent=1, ensure_ascii=False) + "\n")

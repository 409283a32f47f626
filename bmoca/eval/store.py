"""Results store of an evaluation run: one SQLite file per run directory.

Why SQLite: every write is committed as soon as it is made, so a run killed at any moment
loses at most the episode in flight; a restarted run asks `Store.finished_keys` which
episodes are done and skips them. Anyone can read the file with `sqlite3`, pandas or
Datasette without bmoca.

File format
-----------
``PRAGMA application_id`` is 0x626D6F63 ("bmoc") and marks the file as a bmoca results
store; ``PRAGMA user_version`` is the schema version (`SCHEMA_VERSION`, currently 3).
Opening a file of an older version upgrades it in place (`_MIGRATIONS`: columns added,
never removed, so an upgraded file reads like a new one with NULL in the new columns).
The file is kept in WAL mode, so ``<file>-wal`` and ``<file>-shm`` may lie beside it while
a run is writing; copy all three, or open and close the store once to fold them back in.
Booleans are INTEGER 0/1; JSON columns hold UTF-8 JSON text.

Table ``runs`` - one row per run recorded in the file:
  run_id         TEXT PRIMARY KEY  name the runner gave the run
  created        TEXT     UTC time of the first `start_run`, ISO 8601
  agent          TEXT     agent under evaluation
  spec           TEXT     JSON object of the run's arguments (tasks, configs, repeats, seeds...)
  bmoca_version  TEXT     version of the bmoca package that created the run

Table ``episodes`` - one row per (run_id, agent, task_id, config_id, repeat); a new attempt
at a key that is not 'done' replaces the old row and its steps:
  episode_id       INTEGER PRIMARY KEY  surrogate key, never reused within the file
  run_id           TEXT     -> runs.run_id
  agent            TEXT     agent that played the episode
  task_id          TEXT     task identifier
  config_id        TEXT     environment configuration identifier
  repeat           INTEGER  repeat index, 0-based, of this task x config
  seed             INTEGER  seed the episode was reset with (NULL when none)
  status           TEXT     'running' (begun, not finished: the process died or is still
                            going), 'done' (played to the end) or 'error' (infrastructure
                            failure; not an agent failure, excluded from success rates)
  success          INTEGER  1/0 when done: the task's detector judged the goal reached
  steps            INTEGER  agent steps taken
  invalid_actions  INTEGER  steps whose action could not be parsed or executed
  reward           REAL     summed reward
  terminated       INTEGER  1 when the episode ended on success or a terminal state
  truncated        INTEGER  1 when it ended on the step limit
  error            TEXT     infrastructure error message when status is 'error'
  detector_trace   TEXT     JSON: the success detector's record of what it checked
  started          REAL     Unix time the episode was begun
  finished         REAL     Unix time it was finished or failed
  wall_s           REAL     seconds from reset to the end, as measured by the runner
  reset_s          REAL     seconds the environment reset took
  input_tokens     INTEGER  (version 3) model input tokens summed over the episode's calls
                            (NULL for agents without a model, or when no call reported them)
  output_tokens    INTEGER  (version 3) model output tokens, summed likewise
  cost_usd         REAL     (version 3) USD the episode's model calls cost; NULL for agents
                            without a model or when a call's price is unknown; cached
                            answers cost 0. Also kept on 'error' episodes (what was spent)
  UNIQUE(run_id, agent, task_id, config_id, repeat)

Table ``steps`` - one row per agent step of an episode:
  episode_id    INTEGER  -> episodes.episode_id
  step          INTEGER  step index, 0-based
  action        TEXT     the action as the agent gave it: a string verbatim, else JSON
  action_label  TEXT     short human-readable form of the action (e.g. "tap(540, 1200)")
  valid         INTEGER  1 when the action was parsed and executed
  error         TEXT     why the action was invalid, else NULL
  reward        REAL     reward of the step
  success       INTEGER  1/0 success signal after the step (NULL when not evaluated)
  step_s        REAL     seconds the environment took to execute the step
  agent_s       REAL     seconds the agent took to choose the action
  info          TEXT     JSON object: the environment's info for the step; with saved
                         screens also "gesture" (the device commands the action became,
                         in screen pixels) and "screen_size" ([width, height])
  screenshot    TEXT     (version 2) path of the PNG of the screen the agent acted on,
                         relative to the run directory (`screens/<episode_id>/<step>.png`);
                         NULL when screens were not saved. A screen after the last step,
                         when saved, is `screens/<episode_id>/final.png` (no row).
  agent_output  TEXT     (version 3) JSON object: the model agent's `last_call` for the step
                         (model, provider, prompt with images as "<image WxH>", response,
                         input_tokens, output_tokens, cost_usd, cached, latency_s, attempts,
                         finish_reason); NULL for agents without a model. latency_s is a
                         timing value. API keys are never part of it.
  PRIMARY KEY(episode_id, step)

Determinism: with the same agent, spec and seeds, two runs write identical rows except for
the timing columns (runs.created, episodes.started/finished/wall_s/reset_s,
steps.step_s/agent_s), which are measured by the runner, and episode_id, which follows the
order episodes were begun; compare runs by the natural key, not by episode_id.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Collection, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict, dataclass, fields, is_dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 3
APPLICATION_ID = 0x626D6F63  # "bmoc"
FILENAME = "results.sqlite"
# Run arguments that change how a run is executed but not its results: resuming with
# other values for these is allowed. Callers can pass their own set to `start_run`.
VOLATILE_SPEC_KEYS: frozenset[str] = frozenset(
    {"workers", "jobs", "resume", "verbose", "quiet", "progress", "log_level", "out", "run_dir",
     "suite"}
)
"""`suite` is the code and task-suite hashes of the bmoca that started the run (what a
bundle checks it against); an upgraded bmoca may resume a run."""
# What a spec key left out means: a run records `device` only when it is not the simulator
# (so simulator runs from before it was recorded resume), yet compares it on every resume.
SPEC_DEFAULTS: dict[str, Any] = {"device": "sim"}

_SCHEMA = (
    """CREATE TABLE runs (
        run_id TEXT PRIMARY KEY,
        created TEXT NOT NULL,
        agent TEXT NOT NULL,
        spec TEXT NOT NULL,
        bmoca_version TEXT NOT NULL)""",
    """CREATE TABLE episodes (
        episode_id INTEGER PRIMARY KEY AUTOINCREMENT,
        run_id TEXT NOT NULL REFERENCES runs(run_id),
        agent TEXT NOT NULL,
        task_id TEXT NOT NULL,
        config_id TEXT NOT NULL,
        repeat INTEGER NOT NULL,
        seed INTEGER,
        status TEXT NOT NULL CHECK (status IN ('running', 'done', 'error')),
        success INTEGER,
        steps INTEGER,
        invalid_actions INTEGER,
        reward REAL,
        terminated INTEGER,
        truncated INTEGER,
        error TEXT,
        detector_trace TEXT,
        started REAL,
        finished REAL,
        wall_s REAL,
        reset_s REAL,
        input_tokens INTEGER,
        output_tokens INTEGER,
        cost_usd REAL,
        UNIQUE (run_id, agent, task_id, config_id, repeat))""",
    """CREATE TABLE steps (
        episode_id INTEGER NOT NULL REFERENCES episodes(episode_id) ON DELETE CASCADE,
        step INTEGER NOT NULL,
        action TEXT,
        action_label TEXT,
        valid INTEGER NOT NULL,
        error TEXT,
        reward REAL,
        success INTEGER,
        step_s REAL,
        agent_s REAL,
        info TEXT,
        screenshot TEXT,
        agent_output TEXT,
        PRIMARY KEY (episode_id, step))""",
    f"PRAGMA application_id = {APPLICATION_ID}",
    f"PRAGMA user_version = {SCHEMA_VERSION}",
)

# Statements that bring a file from version v to v + 1; opening an older file runs them.
_MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: ("ALTER TABLE steps ADD COLUMN screenshot TEXT",),
    2: ("ALTER TABLE steps ADD COLUMN agent_output TEXT",
        "ALTER TABLE episodes ADD COLUMN input_tokens INTEGER",
        "ALTER TABLE episodes ADD COLUMN output_tokens INTEGER",
        "ALTER TABLE episodes ADD COLUMN cost_usd REAL"),
}


class StoreError(Exception):
    """The results file cannot be used as asked: wrong file, newer schema, locked, misuse."""


@dataclass(frozen=True)
class RunRow:
    """A row of ``runs``; `spec` is decoded."""

    run_id: str
    created: str
    agent: str
    spec: dict[str, Any]
    bmoca_version: str


@dataclass(frozen=True)
class EpisodeRow:
    """A row of ``episodes``: booleans as bool, `detector_trace` decoded; NULL is None."""

    episode_id: int
    run_id: str
    agent: str
    task_id: str
    config_id: str
    repeat: int
    seed: int | None
    status: str
    success: bool | None
    steps: int | None
    invalid_actions: int | None
    reward: float | None
    terminated: bool | None
    truncated: bool | None
    error: str | None
    detector_trace: Any
    started: float | None
    finished: float | None
    wall_s: float | None
    reset_s: float | None
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost_usd: float | None = None

    @property
    def key(self) -> tuple[str, str, str, int]:
        """The (agent, task_id, config_id, repeat) key that `finished_keys` returns."""
        return (self.agent, self.task_id, self.config_id, self.repeat)


@dataclass(frozen=True)
class StepRow:
    """A row of ``steps``: `action` as stored (text), `info` decoded."""

    episode_id: int
    step: int
    action: str | None
    action_label: str | None
    valid: bool
    error: str | None
    reward: float | None
    success: bool | None
    step_s: float | None
    agent_s: float | None
    info: dict[str, Any]
    screenshot: str | None = None
    agent_output: dict[str, Any] | None = None


_EPISODE_COLS = ", ".join(f.name for f in fields(EpisodeRow))
_STEP_COLS = ", ".join(f.name for f in fields(StepRow))
_RUN_COLS = ", ".join(f.name for f in fields(RunRow))


def _json_default(obj: Any) -> Any:
    """Encode what environments commonly put in info dicts rather than failing mid-run."""
    if hasattr(obj, "tolist"):  # numpy arrays and scalars
        return obj.tolist()
    if is_dataclass(obj) and not isinstance(obj, type):  # e.g. a detector Verdict
        return asdict(obj)
    if isinstance(obj, (set, frozenset)):
        return sorted(obj, key=repr)
    return str(obj)


def _dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=_json_default)


def _cell(path: Path, text: Any, kind: type | tuple[type, ...], where: str) -> Any:
    """A JSON cell decoded and checked to be `kind` (or NULL): a hand-edited or damaged
    cell is a StoreError naming it, never a traceback in a report or a resumed run."""
    if text is None:
        return None
    try:
        value = json.loads(text) if isinstance(text, str | bytes) else text
    except (ValueError, RecursionError) as e:
        raise StoreError(f"{path}: {where} is not valid JSON ({_short(str(text))}): {e}") from None
    if value is not None and not isinstance(value, kind):
        raise StoreError(f"{path}: {where} should be a JSON {_JSON_NAMES[kind]}, got "
                         f"{_short(value)}")
    return value


_JSON_NAMES = {dict: "object", list: "array", (list, dict): "array or object"}


def _bool(value: int | None) -> bool | None:
    return None if value is None else bool(value)


_NUMBER_CELLS = {"repeat": int, "seed": int, "success": int, "steps": int,
                 "invalid_actions": int, "reward": float, "terminated": int, "truncated": int,
                 "started": float, "finished": float, "wall_s": float, "reset_s": float,
                 "input_tokens": int, "output_tokens": int, "cost_usd": float, "step": int,
                 "valid": int, "step_s": float, "agent_s": float}
"""Cells that hold numbers (SQLite keeps whatever type a hand edit writes into a cell)."""


def _numbers(path: Path, row: dict[str, Any], where: str) -> dict[str, Any]:
    """`row` with its number cells checked: a damaged or hand-edited cell ('abc' where a
    count belongs) is a StoreError naming it, never a TypeError deep in a report."""
    for name, kind in _NUMBER_CELLS.items():
        value = row.get(name)
        if value is None or name not in row:
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)) or (
                kind is int and not float(value).is_integer()):
            expected = "an integer" if kind is int else "a number"
            raise StoreError(f"{path}: {name} of {where} should be {expected}, got "
                             f"{_short(value)} (a damaged or edited store)")
        row[name] = kind(value)
    return row


def _int(value: bool | None) -> int | None:
    return None if value is None else int(bool(value))


def _bmoca_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("bmoca")
    except PackageNotFoundError:
        return "unknown"


def _short(value: Any, limit: int = 60) -> str:
    text = "<absent>" if value is _ABSENT else json.dumps(value, sort_keys=True, default=str)
    return text if len(text) <= limit else text[: limit - 3] + "..."


_ABSENT = object()


class Store:
    """The results file of one run directory; safe to share between threads of a process.

    Several processes may open the same file: WAL lets readers go on while one writes,
    and writers wait up to `timeout` seconds for each other before `StoreError`.
    """

    def __init__(self, path: str | Path, *, timeout: float = 10.0) -> None:
        path = Path(path)
        self.path = path / FILENAME if path.is_dir() else path
        self._lock = threading.RLock()
        try:
            self._db = sqlite3.connect(
                self.path, timeout=timeout, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as e:
            raise StoreError(f"cannot open results store {self.path}: {e}") from e
        try:
            self._open()
        except BaseException:
            self._db.close()
            raise

    # -- opening -------------------------------------------------------------------------

    def _state(self) -> tuple[int, int, list[str]]:
        app_id = self._db.execute("PRAGMA application_id").fetchone()[0]
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        tables = [r[0] for r in self._db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return app_id, version, tables

    def _check(self, app_id: int, version: int, tables: list[str]) -> bool:
        """True when the file is empty and needs the schema; raise when it is not ours."""
        if app_id == 0 and version == 0 and not tables:
            return True
        if app_id != APPLICATION_ID:
            shown = ", ".join(sorted(tables)[:5]) or "none"
            raise StoreError(
                f"{self.path} is a SQLite database but not a bmoca results store "
                f"(application_id {app_id:#x}, tables: {shown})"
            )
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} has results-store schema version {version}, newer than version "
                f"{SCHEMA_VERSION} that bmoca {_bmoca_version()} reads; upgrade bmoca to use it"
            )
        upgradable = all(v in _MIGRATIONS for v in range(version, SCHEMA_VERSION))
        if version < SCHEMA_VERSION and not upgradable:
            raise StoreError(
                f"{self.path} has results-store schema version {version}, which bmoca "
                f"{_bmoca_version()} cannot read (it reads version {SCHEMA_VERSION})"
            )
        return False

    def _open(self) -> None:
        try:
            # Read-only checks first: a foreign database must not be switched to WAL.
            if not self._check(*self._state()):
                self._configure()
                self._migrate()
                return
            self._configure()
            with self._tx("creating the schema") as db:
                if self._check(*self._state()):  # another process may have won the race
                    for statement in _SCHEMA:
                        db.execute(statement)
        except sqlite3.Error as e:
            raise self._error(e, "opening") from e

    def _migrate(self) -> None:
        """Upgrade an older schema in one transaction (another process may have done it)."""
        if self._state()[1] >= SCHEMA_VERSION:
            return
        with self._tx("upgrading the schema") as db:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            for v in range(version, SCHEMA_VERSION):
                for statement in _MIGRATIONS[v]:
                    db.execute(statement)
            if version < SCHEMA_VERSION:
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def _configure(self) -> None:
        self._db.execute("PRAGMA journal_mode = WAL")
        self._db.execute("PRAGMA synchronous = NORMAL")
        self._db.execute("PRAGMA foreign_keys = ON")

    def _error(self, e: sqlite3.Error, doing: str) -> StoreError:
        msg = str(e)
        if "locked" in msg or "busy" in msg:
            return StoreError(
                f"{self.path} is locked by another process (while {doing}); "
                "wait for it to finish or raise the Store timeout"
            )
        if "not a database" in msg or "malformed" in msg:
            return StoreError(f"{self.path} is not a bmoca results store: {msg}")
        if "closed database" in msg:
            return StoreError(f"{self.path}: the store is closed (while {doing})")
        return StoreError(f"{self.path}: {doing} failed: {msg}")

    # -- plumbing ------------------------------------------------------------------------

    @contextmanager
    def _tx(self, doing: str) -> Iterator[sqlite3.Connection]:
        """One committed transaction, taking the write lock up front to avoid deadlocks."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
            except sqlite3.Error as e:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise self._error(e, doing) from e

    def _query(self, doing: str, sql: str, params: tuple = ()) -> list[tuple]:
        with self._lock:
            try:
                return self._db.execute(sql, params).fetchall()
            except sqlite3.Error as e:
                raise self._error(e, doing) from e

    def _write(self, doing: str, sql: str, params: tuple) -> int:
        """One autocommitted statement; returns the number of rows it changed."""
        with self._lock:
            try:
                return self._db.execute(sql, params).rowcount
            except sqlite3.IntegrityError as e:
                raise StoreError(f"{self.path}: {doing} failed: {e}") from e
            except sqlite3.Error as e:
                raise self._error(e, doing) from e

    def _not_running(self, episode_id: int, doing: str) -> StoreError:
        rows = self._query(doing, "SELECT status FROM episodes WHERE episode_id=?", (episode_id,))
        if not rows:
            why = "does not exist (never begun, or replaced by a later begin_episode)"
        else:
            why = f"is {rows[0][0]!r}, not 'running'"
        return StoreError(f"{self.path}: cannot {doing}: episode {episode_id} {why}")

    def close(self) -> None:
        """Close the file; WAL contents are folded back into it when no one else has it open."""
        with self._lock:
            self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- runs ----------------------------------------------------------------------------

    def start_run(
        self,
        run_id: str,
        agent: str,
        spec: Mapping[str, Any],
        *,
        ignore: Collection[str] = VOLATILE_SPEC_KEYS,
    ) -> None:
        """Record a run, or check that a resumed run matches the recorded one.

        A resumed run must not mix results of different settings: when `agent` or a spec
        key outside `ignore` differs from the stored row, raise `StoreError` naming them.
        The stored row is never changed.
        """
        spec_json = _dumps(dict(spec))
        created = datetime.now(UTC).isoformat(timespec="seconds")
        with self._tx(f"starting run {run_id!r}") as db:
            row = db.execute("SELECT agent, spec FROM runs WHERE run_id=?", (run_id,)).fetchone()
            if row is None:
                db.execute(
                    f"INSERT INTO runs ({_RUN_COLS}) VALUES (?, ?, ?, ?, ?)",
                    (run_id, created, agent, spec_json, _bmoca_version()),
                )
                return
        stored_agent = row[0]
        stored = _cell(self.path, row[1], dict, f"the spec of run {run_id!r}") or {}
        new = json.loads(spec_json)
        diffs = []
        if stored_agent != agent:
            diffs.append(f"agent: {stored_agent!r} stored, {agent!r} now")
        for key in sorted((stored.keys() | new.keys()) - set(ignore)):
            absent = SPEC_DEFAULTS.get(key, _ABSENT)
            old_value, new_value = stored.get(key, absent), new.get(key, absent)
            if old_value != new_value:
                diffs.append(f"{key}: {_short(old_value)} stored, {_short(new_value)} now")
        if diffs:
            raise StoreError(
                f"run {run_id!r} in {self.path} was started with other settings ("
                + "; ".join(diffs)
                + "); resume it with the same arguments or use a new run id or directory"
            )

    def runs(self) -> list[RunRow]:
        """All runs recorded in the file, oldest first."""
        rows = self._query("listing runs", f"SELECT {_RUN_COLS} FROM runs ORDER BY created, run_id")
        return [RunRow(r[0], r[1], r[2], _cell(self.path, r[3], dict, f"the spec of run {r[0]!r}")
                       or {}, r[4]) for r in rows]

    # -- episodes ------------------------------------------------------------------------

    def finished_keys(self, run_id: str) -> set[tuple[str, str, str, int]]:
        """(agent, task_id, config_id, repeat) of the run's 'done' episodes: what to skip."""
        rows = self._query(
            "listing finished episodes",
            "SELECT agent, task_id, config_id, repeat FROM episodes "
            "WHERE run_id=? AND status='done'",
            (run_id,),
        )
        return {(a, t, c, int(r)) for a, t, c, r in rows}

    def begin_episode(
        self,
        run_id: str,
        agent: str,
        task_id: str,
        config_id: str,
        repeat: int,
        seed: int | None,
    ) -> int:
        """Open an episode as 'running' and return its episode_id.

        An earlier 'running' or 'error' attempt at the same key is deleted with its steps,
        so a resumed run retries it; a 'done' one raises `StoreError` (skip finished_keys).
        """
        key = (run_id, agent, task_id, config_id, int(repeat))
        doing = f"beginning episode {key}"
        with self._tx(doing) as db:
            if db.execute("SELECT 1 FROM runs WHERE run_id=?", (run_id,)).fetchone() is None:
                raise StoreError(f"{self.path}: {doing}: unknown run {run_id!r}; call start_run first")
            old = db.execute(
                "SELECT episode_id, status FROM episodes "
                "WHERE run_id=? AND agent=? AND task_id=? AND config_id=? AND repeat=?",
                key,
            ).fetchone()
            if old is not None:
                if old[1] == "done":
                    raise StoreError(
                        f"{self.path}: {doing}: already done as episode {old[0]}; "
                        "skip the keys finished_keys() returns"
                    )
                db.execute("DELETE FROM steps WHERE episode_id=?", (old[0],))
                db.execute("DELETE FROM episodes WHERE episode_id=?", (old[0],))
            cur = db.execute(
                "INSERT INTO episodes (run_id, agent, task_id, config_id, repeat, seed, status, "
                "started) VALUES (?, ?, ?, ?, ?, ?, 'running', ?)",
                (*key, None if seed is None else int(seed), time.time()),
            )
            return int(cur.lastrowid)

    def add_step(
        self,
        episode_id: int,
        step: int,
        *,
        action: Any,
        action_label: str | None,
        valid: bool,
        error: str | None = None,
        reward: float | None,
        success: bool | None,
        step_s: float | None,
        agent_s: float | None,
        info: Mapping[str, Any] | None = None,
        screenshot: str | None = None,
        agent_output: Mapping[str, Any] | None = None,
    ) -> None:
        """Record one step of a 'running' episode (a string action is kept verbatim;
        `agent_output` is a model agent's `last_call`, stored as JSON)."""
        doing = f"recording step {step} of episode {episode_id}"
        action_text = action if isinstance(action, str) or action is None else _dumps(action)
        changed = self._write(
            doing,
            f"INSERT INTO steps ({_STEP_COLS}) SELECT episode_id, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? "
            "FROM episodes WHERE episode_id=? AND status='running'",
            (
                int(step),
                action_text,
                action_label,
                int(bool(valid)),
                error,
                None if reward is None else float(reward),
                _int(success),
                step_s,
                agent_s,
                _dumps(dict(info or {})),
                screenshot,
                None if agent_output is None else _dumps(dict(agent_output)),
                episode_id,
            ),
        )
        if changed == 0:
            raise self._not_running(episode_id, f"record step {step}")

    def finish_episode(
        self,
        episode_id: int,
        *,
        success: bool,
        steps: int,
        invalid_actions: int,
        reward: float,
        terminated: bool,
        truncated: bool,
        detector_trace: Any,
        wall_s: float | None,
        reset_s: float | None,
        input_tokens: int | None = None,
        output_tokens: int | None = None,
        cost_usd: float | None = None,
    ) -> None:
        """Mark a 'running' episode 'done' with its outcome; `detector_trace` is stored as JSON."""
        changed = self._write(
            f"finishing episode {episode_id}",
            "UPDATE episodes SET status='done', success=?, steps=?, invalid_actions=?, reward=?, "
            "terminated=?, truncated=?, detector_trace=?, finished=?, wall_s=?, reset_s=?, "
            "input_tokens=?, output_tokens=?, cost_usd=? WHERE episode_id=? AND status='running'",
            (
                _int(success),
                int(steps),
                int(invalid_actions),
                float(reward),
                _int(terminated),
                _int(truncated),
                _dumps(detector_trace),
                time.time(),
                wall_s,
                reset_s,
                input_tokens,
                output_tokens,
                cost_usd,
                episode_id,
            ),
        )
        if changed == 0:
            raise self._not_running(episode_id, "finish it")

    def fail_episode(self, episode_id: int, error: str, *, input_tokens: int | None = None,
                     output_tokens: int | None = None, cost_usd: float | None = None) -> None:
        """Mark a 'running' episode 'error': the infrastructure failed, not the agent
        (the model usage up to the failure is kept)."""
        now = time.time()
        changed = self._write(
            f"failing episode {episode_id}",
            "UPDATE episodes SET status='error', error=?, finished=?, wall_s=? - started, "
            "input_tokens=?, output_tokens=?, cost_usd=? WHERE episode_id=? AND status='running'",
            (str(error), now, now, input_tokens, output_tokens, cost_usd, episode_id),
        )
        if changed == 0:
            raise self._not_running(episode_id, "fail it")

    def episodes(self, run_id: str | None = None) -> list[EpisodeRow]:
        """Episodes of one run (or of all runs), ordered by their natural key."""
        where, params = ("WHERE run_id=?", (run_id,)) if run_id is not None else ("", ())
        rows = self._query(
            "listing episodes",
            f"SELECT {_EPISODE_COLS} FROM episodes {where} "
            "ORDER BY run_id, agent, task_id, config_id, repeat",
            params,
        )
        out = []
        for r in rows:
            row = dict(zip((f.name for f in fields(EpisodeRow)), r, strict=True))
            row = _numbers(self.path, row, f"episode {row['episode_id']}")
            for name in ("success", "terminated", "truncated"):
                row[name] = _bool(row[name])
            row["detector_trace"] = _cell(self.path, row["detector_trace"], (list, dict),
                                          f"detector_trace of episode {row['episode_id']}")
            out.append(EpisodeRow(**row))
        return out

    def last_step_info(self, episode_id: int) -> dict[str, Any]:
        """The `info` of an episode's last step ({} when it has none), read alone."""
        rows = self._query(f"reading the last step of episode {episode_id}",
                           "SELECT step, info FROM steps WHERE episode_id=? "
                           "ORDER BY step DESC LIMIT 1", (episode_id,))
        if not rows:
            return {}
        step, info = rows[0]
        return _cell(self.path, info, dict, f"info of episode {episode_id} step {step}") or {}

    def steps_of(self, episode_id: int) -> list[StepRow]:
        """Steps of an episode in order."""
        rows = self._query(
            f"listing steps of episode {episode_id}",
            f"SELECT {_STEP_COLS} FROM steps WHERE episode_id=? ORDER BY step",
            (episode_id,),
        )
        checked = [(r, _numbers(self.path, {"step": r[1], "valid": r[4], "reward": r[6],
                                            "success": r[7], "step_s": r[8], "agent_s": r[9]},
                                f"episode {episode_id} step {r[1]}")) for r in rows]
        return [
            StepRow(
                episode_id=r[0],
                step=n["step"],
                action=r[2],
                action_label=r[3],
                valid=bool(n["valid"]),
                error=r[5],
                reward=n["reward"],
                success=_bool(n["success"]),
                step_s=n["step_s"],
                agent_s=n["agent_s"],
                info=_cell(self.path, r[10], dict, f"info of episode {episode_id} step {r[1]}")
                or {},
                screenshot=r[11],
                agent_output=_cell(self.path, r[12], dict,
                                   f"agent_output of episode {episode_id} step {r[1]}"),
            )
            for r, n in checked
        ]

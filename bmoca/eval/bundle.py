"""A results bundle: one file that lets anyone re-judge a finished `bmoca eval` run.

Why: a success rate reported by e-mail is taken on trust. bmoca's phone is deterministic,
so the agent's recorded actions, sent again through `env.step` in the same configuration
with the same seed, reach the same states; `bmoca verify` (`bmoca.eval.verify`) replays
every episode without the agent (no model, no key, no network) and recomputes each
success and the table.

File format (format version 1)
------------------------------
A gzip-compressed UTF-8 JSON object (never pickle), loaded with `json` only:

  format          "bmoca-bundle"
  format_version  1 (`FORMAT_VERSION`); a newer one is refused with a clear message
  digest          "sha256:<hex>" of the canonical JSON (sorted keys, no spaces, UTF-8)
                  of the object without this field: any edit that does not recompute it
                  is caught as a damaged file
  bmoca_version   version of the bmoca package that wrote the bundle
  code            {"sha256", "files": {path: sha256}}: the bmoca package's files (code,
                  simulator data, configurations) apart from the task suite
  tasks           the same for the task suite, `bmoca/tasks/data/` (tasks and families)
  runs            one object per run in RUN_DIR/results.sqlite:
    run_id, agent, created, spec (the run's arguments), bmoca_version (of the run)
    env           what the runner's environment judged with: {"action": action mode,
                  "stop_on_success": false under `--judge-claims`}
    table         the claimed success table, as `bmoca eval --json` prints it
    episodes      in the store's order: task (a fixed id or a family instance
                  `family@seed`), config, repeat, seed, step_limit, status ('done' or
                  'error'; unfinished ones are left out), success and steps as claimed,
                  error (the infrastructure error of an 'error' episode), and actions:
                  each step's action as results.sqlite holds it (a string verbatim,
                  anything else as its JSON text), in order

The hashes name what judged the run: `bmoca verify` says which files differ from the
installed bmoca. They are taken when the bundle is written; each run's spec also holds
the summary hashes of the bmoca that started it (`suite`), and `verify` reports a run
played by other code or tasks than the bundle names.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import zlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from bmoca.eval.store import FILENAME, EpisodeRow, Store, StoreError

FORMAT = "bmoca-bundle"
FORMAT_VERSION = 1
MAX_BYTES = 1 << 30
"""The most a bundle may decompress to: a damaged or hostile file is refused, not read
into all memory."""


class BundleError(Exception):
    """The file is not a bundle bmoca can use: not one, damaged, newer, or inconsistent."""


# -- content hashes --------------------------------------------------------------------------


def _package_root() -> Path:
    import bmoca

    return Path(bmoca.__file__).resolve().parent


def _file_hashes(root: Path, skip: Path | None = None) -> dict[str, str]:
    """sha256 of every file under `root` (bytecode caches aside), by path relative to the
    package's parent (`bmoca/...`), with `/` separators."""
    base = _package_root().parent
    out: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        if (not path.is_file() or "__pycache__" in path.parts or path.suffix == ".pyc"
                or (skip is not None and path.is_relative_to(skip))):
            continue
        out[path.relative_to(base).as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def summary(files: dict[str, str]) -> dict[str, Any]:
    """{"sha256": one hash over the listing, "files": the listing}."""
    lines = "".join(f"{digest}  {path}\n" for path, digest in sorted(files.items()))
    return {"sha256": hashlib.sha256(lines.encode()).hexdigest(), "files": files}


@cache
def installed_hashes() -> dict[str, dict[str, Any]]:
    """{"code": ..., "tasks": ...} of the bmoca this process imports (see the module doc)."""
    root = _package_root()
    data = root / "tasks" / "data"
    return {"code": summary(_file_hashes(root, skip=data)),
            "tasks": summary(_file_hashes(data))}


def suite_of_installed() -> dict[str, str]:
    """The two summary hashes a run records in its spec when it starts (`suite`), so a
    bundle made later can tell that other code or other tasks played it."""
    return {key: part["sha256"] for key, part in installed_hashes().items()}


def changed_files(bundled: dict[str, str], installed: dict[str, str]) -> list[str]:
    """Files whose content differs, was added or was removed, as `path (what)`."""
    out = []
    for path in sorted(bundled.keys() | installed.keys()):
        if path not in installed:
            out.append(f"{path} (not installed)")
        elif path not in bundled:
            out.append(f"{path} (not in the bundle)")
        elif bundled[path] != installed[path]:
            out.append(f"{path} (changed)")
    return out


# -- making a bundle -------------------------------------------------------------------------


def _version() -> str:
    from bmoca import __version__

    return __version__


def action_mode(agent: str, options: dict[str, Any], task: Any) -> str:
    """The action mode the runner's environment had for `agent` (its `action_mode`).

    Model agents and local Hugging Face models are known by name (building one would open
    a provider or load weights); the others are built as `bmoca eval` built them."""
    from bmoca import agents
    from bmoca.agents.llm import hf
    from bmoca.agents.llm.agent import parse_name

    spec = parse_name(agent)
    if spec is not None:
        return "text" if spec.kind in ("llm", "mllm") else "json"
    if hf.is_hf_agent(agent):
        return "text"
    try:
        return str(agents.build(agent, task, options).action_mode)
    except ValueError as exc:
        raise BundleError(f"cannot tell agent {agent!r}'s action mode: {exc}") from None


def _episode(store: Store, row: EpisodeRow, step_limit: int) -> dict[str, Any]:
    episode: dict[str, Any] = {
        "task": row.task_id, "config": row.config_id, "repeat": row.repeat, "seed": row.seed,
        "step_limit": step_limit, "status": row.status, "success": row.success,
        "steps": row.steps}
    if row.status == "error":
        episode["error"] = row.error
        episode["actions"] = []
    else:
        episode["actions"] = [step.action for step in store.steps_of(row.episode_id)]
    return episode


def make(run_dir: Path) -> dict[str, Any]:
    """The bundle of the run(s) in `run_dir` (a run directory or its results.sqlite), with
    its digest. Raises BundleError for a directory without a store or an unusable run."""
    path = run_dir / FILENAME if run_dir.is_dir() else run_dir
    if not path.is_file():
        raise BundleError(f"{run_dir}: no {FILENAME} here; give the run directory of a "
                          "finished `bmoca eval`")
    with open(path, "rb") as head:  # an empty file would be made a new store
        if head.read(16) != b"SQLite format 3\x00":
            raise BundleError(f"{path}: not a bmoca results store (not a SQLite file)")
    try:
        with Store(path) as store:
            runs = [run for run in (_run(store, r) for r in store.runs()) if run]
    except StoreError as exc:
        raise BundleError(str(exc)) from None
    if not runs:
        raise BundleError(f"{path}: no finished episode to bundle")
    hashes = {key: {"sha256": part["sha256"], "files": dict(part["files"])}
              for key, part in installed_hashes().items()}  # the cache stays unchanged
    return seal({"format": FORMAT, "format_version": FORMAT_VERSION,
                 "bmoca_version": _version(), "code": hashes["code"], "tasks": hashes["tasks"],
                 "runs": runs})


def _run(store: Store, run: Any) -> dict[str, Any] | None:
    """One run of the store as the bundle holds it; None when no episode of it finished
    (unfinished 'running' episodes are left out, as the table leaves them out)."""
    from bmoca import tasks
    from bmoca.eval import metrics

    rows = [e for e in store.episodes(run.run_id)
            if e.agent == run.agent and e.status in ("done", "error")]
    if not rows:
        return None
    episodes, mode, limits = [], None, {}
    for row in rows:
        if row.task_id not in limits:
            try:
                task = tasks.get(row.task_id)
            except tasks.TaskError as exc:
                raise BundleError(f"run {run.run_id!r}: {exc}") from None
            limits[row.task_id] = task.step_limit
            if mode is None:
                mode = action_mode(run.agent, dict(run.spec.get("agent_options", {})), task)
        episodes.append(_episode(store, row, limits[row.task_id]))
    return {"run_id": run.run_id, "agent": run.agent, "created": run.created,
            "spec": run.spec, "bmoca_version": run.bmoca_version,
            "env": {"action": mode, "stop_on_success": not run.spec.get("judge_claims", False)},
            "table": metrics.table_json(metrics.success_table(rows)),
            "episodes": episodes}


def _canonical(content: dict[str, Any]) -> bytes:
    body = {k: v for k, v in content.items() if k != "digest"}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


def digest_of(content: dict[str, Any]) -> str:
    """The digest a bundle's content must carry."""
    return "sha256:" + hashlib.sha256(_canonical(content)).hexdigest()


def seal(content: dict[str, Any]) -> dict[str, Any]:
    """`content` with its digest (recomputed: for writers, and tests that edit a bundle)."""
    return {**content, "digest": digest_of(content)}


def write(content: dict[str, Any], out: Path) -> None:
    """Write the bundle gzip-compressed (no name or time in the header: the same content
    gives the same bytes)."""
    data = json.dumps(content, sort_keys=True, ensure_ascii=False, indent=None,
                      allow_nan=False).encode("utf-8")
    tmp = out.with_name(out.name + ".tmp")
    with open(tmp, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw,
                                               mtime=0) as gz:
        gz.write(data)
    tmp.replace(out)


# -- reading a bundle ------------------------------------------------------------------------


@dataclass(frozen=True)
class Bundle:
    """A loaded, checked bundle: `content` as in the module doc."""

    path: Path
    content: dict[str, Any]

    @property
    def runs(self) -> list[dict[str, Any]]:
        return self.content["runs"]

    @property
    def episodes(self) -> int:
        return sum(len(run["episodes"]) for run in self.runs)


def _decompress(path: Path) -> bytes:
    raw = path.read_bytes()
    if raw[:2] != b"\x1f\x8b":
        return raw  # an uncompressed bundle (gunzipped by hand) reads the same
    out = bytearray()
    inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        out += inflate.decompress(raw, MAX_BYTES + 1)
        if len(out) > MAX_BYTES or inflate.unconsumed_tail:
            raise BundleError(f"{path}: decompresses to more than {MAX_BYTES >> 20} MiB; "
                              "not a bundle")
        if not inflate.eof:
            raise BundleError(f"{path}: the gzip stream is cut short (a damaged bundle)")
    except zlib.error as exc:
        raise BundleError(f"{path}: damaged gzip data ({exc})") from None
    return bytes(out)


def load(path: Path) -> Bundle:
    """Read and check a bundle: its format, version, digest and shape. Task and
    configuration ids are checked by `bmoca.eval.verify.check` (they need the suite)."""
    data = _decompress(path)
    try:
        content = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise BundleError(f"{path}: not a bmoca bundle (not JSON, nor gzip-compressed "
                          "JSON)") from None
    if not isinstance(content, dict) or content.get("format") != FORMAT:
        raise BundleError(f"{path}: not a bmoca bundle (no \"format\": \"{FORMAT}\")")
    version = content.get("format_version")
    if not isinstance(version, int) or version > FORMAT_VERSION or version < 1:
        raise BundleError(f"{path}: bundle format version {version!r}; this bmoca "
                          f"{_version()} reads version {FORMAT_VERSION}")
    try:
        expected = digest_of(content)
    except ValueError:
        raise BundleError(f"{path}: damaged bundle (a value JSON cannot hold)") from None
    if content.get("digest") != expected:
        raise BundleError(f"{path}: damaged bundle: its digest {content.get('digest')!r} "
                          f"does not match its content ({expected}); it was changed after "
                          "it was written")
    _check_shape(path, content)
    return Bundle(path, content)


_EPISODE_FIELDS: dict[str, type | tuple[type, ...]] = {
    "task": str, "config": str, "repeat": int, "seed": (int, type(None)), "step_limit": int,
    "status": str, "success": (bool, type(None)), "steps": (int, type(None)),
    "actions": list}


def _check_shape(path: Path, content: dict[str, Any]) -> None:
    """Every field the verifier reads, of the right JSON type: a one-line BundleError."""
    def need(value: Any, kind: type | tuple[type, ...], where: str) -> Any:
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            raise BundleError(f"{path}: malformed bundle: {where} is {value!r}")
        return value

    for key in ("code", "tasks"):
        need(need(content.get(key), dict, key).get("files"), dict, f"{key}.files")
    for r, run in enumerate(need(content.get("runs"), list, "runs")):
        need(run, dict, f"runs[{r}]")
        for key in ("run_id", "agent"):
            need(run.get(key), str, f"runs[{r}].{key}")
        env = need(run.get("env"), dict, f"runs[{r}].env")
        need(env.get("action"), str, f"runs[{r}].env.action")
        need(env.get("stop_on_success"), bool, f"runs[{r}].env.stop_on_success")
        need(run.get("table"), dict, f"runs[{r}].table")
        for e, episode in enumerate(need(run.get("episodes"), list, f"runs[{r}].episodes")):
            need(episode, dict, f"runs[{r}].episodes[{e}]")
            for key, kind in _EPISODE_FIELDS.items():
                need(episode.get(key), kind, f"runs[{r}].episodes[{e}].{key}")
            if episode["status"] not in ("done", "error"):
                raise BundleError(f"{path}: malformed bundle: runs[{r}].episodes[{e}].status "
                                  f"is {episode['status']!r}")
            for a, action in enumerate(episode["actions"]):
                need(action, (str, type(None)), f"runs[{r}].episodes[{e}].actions[{a}]")


def rows_of(run: dict[str, Any], outcomes: list[tuple[bool, int]] | None = None
            ) -> list[EpisodeRow]:
    """A run's episodes as store rows for `metrics.success_table`: as claimed, or with the
    (success, steps) of `outcomes` (one per episode, in order) for 'done' ones."""
    rows = []
    for index, episode in enumerate(run["episodes"]):
        success, steps = episode["success"], episode["steps"]
        if outcomes is not None and episode["status"] == "done":
            success, steps = outcomes[index]
        rows.append(EpisodeRow(
            episode_id=index, run_id=run["run_id"], agent=run["agent"],
            task_id=episode["task"], config_id=episode["config"], repeat=episode["repeat"],
            seed=episode["seed"], status=episode["status"], success=success, steps=steps,
            invalid_actions=None, reward=None, terminated=None, truncated=None,
            error=episode.get("error"), detector_trace=None, started=None, finished=None,
            wall_s=None, reset_s=None))
    return rows


__all__ = ["FORMAT", "FORMAT_VERSION", "Bundle", "BundleError", "StoreError", "changed_files",
           "digest_of", "installed_hashes", "load", "make", "rows_of", "seal", "summary",
           "write"]

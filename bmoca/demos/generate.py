"""Record scripted-expert episodes into a demonstration dataset (`bmoca demos generate`).

Only the main process writes. Each finished episode goes to disk in this order: its
screenshots into `screens/<n>.tmp/`, renamed to `screens/<n>/`, then one line appended to
`episodes.jsonl` (flushed and synced), then the manifest replaced atomically. A run killed
at any point leaves every earlier episode intact; a rerun drops the half-written line or
orphan screen folder, skips the episodes already kept or failed, and plays the rest.
Failed expert episodes are not kept as demonstrations; they are listed in `failed.jsonl`
(so a rerun does not retry them: experts are deterministic) and counted in the manifest.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bmoca import tasks
from bmoca.demos import (
    EPISODES,
    FAILED,
    FORMAT,
    MANIFEST,
    SCREENS,
    VERSION,
    DemoError,
    read_lines,
    read_manifest,
    render_observation,
)
from bmoca.demos.convert import DiscretePlay, convert, discrete_play
from bmoca.lifeline import die_with_parent
from bmoca.tasks.experts import ROUTES

SCREEN_WIDTH = 540
MAX_SCREEN_WIDTH = 4096
"""Widest saved screenshot: a phone is at most 1440 px wide; a typo must not ask for GBs."""
PLAYS = ("exact", "discrete")  # the expert's own actions, or their 385-way equivalents


@dataclass(frozen=True)
class Job:
    task: tasks.Task
    config_id: str
    repeat: int
    seed: int
    play: str = "exact"
    route: str = "launcher"

    @property
    def key(self) -> tuple[str, str, int]:
        return (self.task.id, self.config_id, self.repeat)


@dataclass
class Recorded:
    """A played episode as the worker sends it back: steps as JSON, PNGs apart.

    `screens` has one PNG per step and then the final screen; `final` is the text
    observation after the last action."""

    job: Job
    success: bool = False
    steps: list[dict[str, Any]] = field(default_factory=list)
    screens: list[bytes] = field(default_factory=list)
    final: list[dict[str, Any]] | None = None
    error: str | None = None


@dataclass
class Summary:
    """What a generation did: episodes kept now, failed now, skipped as already done."""

    kept: int = 0
    failed: int = 0
    skipped: int = 0
    total_kept: int = 0
    total_failed: int = 0
    failures: list[str] = field(default_factory=list)


def observed(env: Any, observation: dict[str, Any]) -> tuple[Any, list[dict[str, Any]]]:
    """The screen an action was taken on (an `actions.Screen`, for converting it into
    every form) and the text observation as JSON elements, checked against the prompt
    form the environment showed. `observation` needs the "xml" and "text" modes."""
    from bmoca.env import actions as act
    from bmoca.env import observations as obs
    from bmoca.formats.locales import is_rtl

    width, height = env.device.screen_size()
    found = tuple(obs.translate(observation["xml"]))
    shown = [e.to_dict(width, height, check=env.text_check, bbox=env.text_bbox) for e in found]
    if render_observation(shown) != observation["text"]:
        raise RuntimeError("the stored elements do not render to the environment's text "
                           "observation")
    return act.Screen(width, height, found, rtl=is_rtl(env.config.locale)), shown


def record_episode(job: Job, pool: Any, screen_width: int | None = SCREEN_WIDTH) -> Recorded:
    """Play the task's expert once and record every step in all forms."""
    from bmoca.agents import ExpertAgent
    from bmoca.env import BmocaEnv
    from bmoca.eval.runner import screen_png

    out = Recorded(job)
    try:
        action_mode = DiscretePlay() if job.play == "discrete" else "json"
        env = BmocaEnv(job.task, job.config_id, pool, observation=("xml", "text"),
                       action=action_mode, render_mode="rgb_array")
        observation, _info = env.reset(seed=job.seed)
        agent = ExpertAgent(job.task, route=job.route)
        agent.reset(env.goal, seed=job.seed)

        while True:
            screen, shown = observed(env, observation)
            out.screens.append(screen_png(env.render(), screen_width))
            action = agent.act(observation)
            forms = convert(action, screen)
            if job.play == "discrete":
                forms = discrete_play(forms, screen)
            observation, reward, terminated, truncated, info = env.step(action)
            if info.get("action_error"):
                raise RuntimeError(f"step {len(out.steps)}: the expert's action "
                                   f"{forms.json_action} failed: {info['action_error']}")
            out.steps.append({
                "step": len(out.steps), "text_observation": shown,
                "text_action": forms.text_action, "json_action": forms.json_action,
                "dual_gesture": None if forms.dual_gesture is None else list(forms.dual_gesture),
                "discrete": forms.discrete, "screenshot": None, "reward": float(reward),
                "terminated": bool(terminated), "truncated": bool(truncated)})
            if terminated or truncated:
                break
        _screen, out.final = observed(env, observation)
        out.screens.append(screen_png(env.render(), screen_width))
        out.success = env.success
        if not out.success:
            out.error = (f"expert did not succeed in {len(out.steps)} steps: "
                         + "; ".join(info.get("detector", [])))
    except Exception as exc:  # noqa: BLE001 - an expert failure is reported, not raised
        out.error = f"{type(exc).__name__}: {exc}"
    return out


_POOL: Any = None


def _init(parent_pid: int | None = None) -> None:
    global _POOL
    from bmoca.env import DevicePool

    if parent_pid is not None:
        die_with_parent(parent_pid)  # a killed `bmoca demos generate` leaves no worker

    _POOL = DevicePool("sim")


def _play(job: Job, screen_width: int | None) -> Recorded:
    return record_episode(job, _POOL, screen_width)


def _lost(job: Job, why: str) -> Recorded:
    return Recorded(job, error=why)


def _played(jobs: Sequence[Job], workers: int, screen_width: int | None,
            executor: str = "process", ray_address: str | None = None) -> Iterator[Recorded]:
    if executor == "ray":
        from bmoca.eval import ray_executor

        yield from ray_executor.stream(record_episode, jobs, config_of=lambda j: j.config_id,
                                       lost=_lost, workers=workers or None,
                                       address=ray_address,
                                       kwargs={"screen_width": screen_width})
        return
    if workers <= 1:
        from bmoca.env import DevicePool

        pool = DevicePool("sim")
        try:
            for job in jobs:
                yield record_episode(job, pool, screen_width)
        finally:
            pool.close()
        return
    with ProcessPoolExecutor(max_workers=workers, initializer=_init,
                             initargs=(os.getpid(),)) as executor:
        queue = iter(jobs)
        pending = {executor.submit(_play, j, screen_width)
                   for _, j in zip(range(workers * 2), queue, strict=False)}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
                nxt = next(queue, None)
                if nxt is not None:
                    pending.add(executor.submit(_play, nxt, screen_width))


def store_episode(out: Path, number: int, episode: dict[str, Any], screens: Sequence[bytes]
                  ) -> None:
    """Write episode `number` of the dataset in `out`: its screens (one PNG per step, then
    the final screen) into `screens/<number>/`, then its line in `episodes.jsonl`. The
    steps' and the final observation's `screenshot` fields are filled in here. Shared by
    the expert generator and the web UI's human recordings, so both write one format."""
    steps = episode["steps"]
    final = out / SCREENS / str(number)
    tmp = out / SCREENS / f"{number}.tmp"
    for leftover in (final, tmp):  # orphans of a run killed before its line was written
        if leftover.exists():
            shutil.rmtree(leftover)
    tmp.mkdir(parents=True)
    for step, png in zip(steps, screens, strict=False):
        (tmp / f"{step['step']}.png").write_bytes(png)
        step["screenshot"] = f"{SCREENS}/{number}/{step['step']}.png"
    last = len(steps)  # the screen after the last action
    (tmp / f"{last}.png").write_bytes(screens[last])
    os.replace(tmp, final)
    episode["final"]["screenshot"] = f"{SCREENS}/{number}/{last}.png"
    _append(out / EPISODES, episode)


def write_manifest(out: Path, manifest: dict[str, Any]) -> None:
    """Replace the manifest atomically (a killed writer leaves the old one)."""
    _write_atomic(out / MANIFEST, json.dumps(manifest, indent=2, sort_keys=True) + "\n")


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, "utf-8")
    os.replace(tmp, path)


def _append(path: Path, value: dict[str, Any]) -> None:
    with path.open("a", encoding="utf-8") as f:
        f.write(json.dumps(value, ensure_ascii=False, sort_keys=True) + "\n")
        f.flush()
        os.fsync(f.fileno())


def _complete(path: Path) -> list[dict[str, Any]]:
    """The complete lines of a .jsonl file, cutting off a half-written last line."""
    lines, end = read_lines(path)
    if path.exists() and path.stat().st_size != end:
        with path.open("r+b") as f:
            f.truncate(end)
    return [raw for _, raw in lines]


def package_version() -> str:
    """The installed bmoca's version, as manifests record it."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("bmoca")
    except PackageNotFoundError:
        return "unknown"


def generate(out: str | Path, task_list: Sequence[tasks.Task], config_ids: Sequence[str], *,
             split: str = "train", repeats: int = 1, seed: int = 0, workers: int = 1,
             screen_width: int | None = SCREEN_WIDTH, play: str = "exact",
             route: str = "launcher", executor: str = "process",
             ray_address: str | None = None,
             on_start: Callable[[int, int], None] | None = None,
             on_episode: Callable[[Recorded], None] | None = None) -> Summary:
    """Record the experts of `task_list` on `config_ids`, `repeats` times each, into `out`.

    Resumes a dataset already in `out` (same `split` required; tasks and configurations
    are added to its manifest). Tasks without an expert raise DemoError before any work.
    `play="discrete"` executes each expert action as its 385-way discrete equivalent (the
    grid tap on the same element, the discrete swipe), so discrete policies learn from
    the screens they will meet; episodes the expert then fails are listed as failed.
    `route="shade"` has the experts open Settings from the notification shade's gear.
    `executor="ray"` records on a Ray cluster (`bmoca.eval.ray_executor`).
    """
    from bmoca.eval.runner import episode_seed

    out = Path(out)
    if repeats < 1:
        raise DemoError(f"repeats must be at least 1, got {repeats}")
    if screen_width is not None and not 1 <= screen_width <= MAX_SCREEN_WIDTH:
        raise DemoError(f"screen_width must be in 1..{MAX_SCREEN_WIDTH} (or None: the phone's "
                        f"size), got {screen_width}")
    if play not in PLAYS:
        raise DemoError(f"play must be one of {', '.join(PLAYS)}, not {play!r}")
    if route not in ROUTES:
        raise DemoError(f"route must be one of {', '.join(ROUTES)}, not {route!r}")
    no_expert = [t.id for t in task_list if not t.expert]
    if no_expert:
        raise DemoError(f"tasks without an expert plan cannot be demonstrated: "
                        f"{', '.join(no_expert)}")
    if out.exists() and not out.is_dir():
        raise DemoError(f"{out} exists and is not a directory")
    if out.is_dir() and (out / MANIFEST).exists():
        manifest = read_manifest(out)
        if manifest.get("split") != split:
            raise DemoError(f"{out} holds a {manifest.get('split')!r} dataset; generate the "
                            f"{split!r} split into another directory")
        if manifest.get("seed", seed) != seed:
            raise DemoError(f"{out} was generated with --seed {manifest['seed']}; resume it "
                            f"with the same seed or use another directory")
        if manifest.get("version") != VERSION:
            raise DemoError(f"{out} is a version {manifest.get('version')} dataset; this bmoca "
                            f"writes version {VERSION}: generate into another directory")
        if manifest.get("play", "exact") != play:
            raise DemoError(f"{out} was generated with --play {manifest.get('play', 'exact')}; "
                            f"resume it with the same --play or use another directory")
        if manifest.get("route", "launcher") != route:
            raise DemoError(f"{out} was generated with --route "
                            f"{manifest.get('route', 'launcher')}; resume it with the same "
                            f"--route or use another directory")
    elif out.is_dir() and any(out.iterdir()):
        raise DemoError(f"{out} is not empty and holds no {MANIFEST}; choose a new directory")
    else:
        manifest = {"format": FORMAT, "version": VERSION, "split": split, "tasks": [],
                    "configs": [], "episodes": 0, "failed": 0}
    (out / SCREENS).mkdir(parents=True, exist_ok=True)
    kept = _complete(out / EPISODES)
    failed = _complete(out / FAILED)
    done = {(e["task_id"], e["config_id"], int(e.get("repeat", 0))) for e in kept + failed}
    manifest.update({
        "tasks": sorted(set(manifest.get("tasks", [])) | {t.id for t in task_list}),
        "configs": sorted(set(manifest.get("configs", [])) | set(config_ids)),
        "repeats": max(int(manifest.get("repeats", 0)), repeats), "seed": seed, "play": play,
        "route": route,
        "episodes": len(kept), "failed": len(failed), "bmoca_version": package_version()})
    write_manifest(out, manifest)

    jobs = [Job(t, c, r, episode_seed(seed, t.id, c, r), play, route)
            for c in config_ids for t in task_list for r in range(repeats)]
    todo = [j for j in jobs if j.key not in done]
    summary = Summary(skipped=len(jobs) - len(todo))
    if on_start:
        on_start(len(jobs), summary.skipped)
    number = len(kept)
    for rec in _played(todo, workers, screen_width, executor, ray_address):
        job = rec.job
        if rec.error is not None:
            _append(out / FAILED, {"task_id": job.task.id, "config_id": job.config_id,
                                   "repeat": job.repeat, "seed": job.seed, "error": rec.error})
            summary.failed += 1
            summary.failures.append(f"{job.task.id} on {job.config_id} #{job.repeat}: "
                                    f"{rec.error}")
            manifest["failed"] = len(failed) + summary.failed
        else:
            store_episode(out, number, {
                "task_id": job.task.id, "config_id": job.config_id, "goal": job.task.goal,
                "success": True, "repeat": job.repeat, "seed": job.seed, "steps": rec.steps,
                "final": {"text_observation": rec.final}}, rec.screens)
            number += 1
            summary.kept += 1
            manifest["episodes"] = number
        write_manifest(out, manifest)
        if on_episode:
            on_episode(rec)
    summary.total_kept, summary.total_failed = manifest["episodes"], manifest["failed"]
    return summary

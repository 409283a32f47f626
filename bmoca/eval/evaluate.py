"""An evaluation run: plan the episodes, skip finished ones, play the rest, store them."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bmoca import tasks
from bmoca.eval import runner
from bmoca.eval.store import Store


def run_id_for(agent: str, task_spec: str, split: str) -> str:
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in f"{agent}-{task_spec}-{split}")
    return safe.strip("_") or "run"


def evaluate(store: Store, run_id: str, agent: str, task_list: Sequence[tasks.Task],
             config_ids: Sequence[str], repeats: int, *, seed: int = 0, workers: int = 1,
             spec: dict | None = None, save_screens: bool = False,
             agent_options: dict[str, Any] | None = None, device: str = "sim",
             limit: int | None = None, env_options: dict[str, Any] | None = None,
             executor: str = "process", ray_address: str | None = None,
             on_start: Callable[[int, int], None] | None = None,
             on_episode: Callable[[runner.Outcome], None] | None = None) -> int:
    """Play every episode of the plan that the store does not hold yet; returns how many.

    `on_start(total, already_done)` is called once; `on_episode` after each stored episode.
    `save_screens` writes each step's screenshot under the run directory (see `record`).
    `limit` keeps only the plan's first episodes (a trial before spending on a model); it
    is not part of the run's spec, so a later run with a larger limit or none resumes it.
    `env_options` go to every episode's `BmocaEnv` (e.g. stop_on_success=False).
    `executor="ray"` plays the episodes on a Ray cluster at `ray_address` (same results).
    `agent_options` go to a model agent; those that can change results are part of the
    run's spec, so a resumed run must give the same ones (transport options such as
    timeout, retries and cache may differ). So is a `device` other than the simulator.
    """
    from bmoca.agents.llm.agent import TRANSPORT_OPTIONS
    from bmoca.eval.bundle import suite_of_installed

    run_spec = {**(spec or {}), "tasks": [t.id for t in task_list],
                "configs": list(config_ids), "repeats": repeats, "seed": seed,
                "suite": suite_of_installed()}
    if device != "sim":  # a run resumed on another phone would mix two devices' results
        run_spec["device"] = device
    if agent_options:
        run_spec["agent_options"] = {k: v for k, v in sorted(agent_options.items())
                                     if k not in TRANSPORT_OPTIONS}
    store.start_run(run_id, agent, run_spec)
    episodes = runner.plan(agent, task_list, config_ids, repeats, seed, agent_options)
    if limit is not None:
        episodes = episodes[:limit]
    finished = store.finished_keys(run_id)
    todo = [e for e in episodes if e.key not in finished]
    if on_start:
        on_start(len(episodes), len(episodes) - len(todo))
    for outcome in runner.execute(todo, workers, save_screens=save_screens, device=device,
                                  env_options=env_options, executor=executor,
                                  ray_address=ray_address):
        with _interrupts_deferred():
            record(store, run_id, outcome)
        if on_episode:
            on_episode(outcome)
    return len(todo)


@contextmanager
def _interrupts_deferred() -> Iterator[None]:
    """Ctrl-C or SIGTERM while an episode is being stored takes effect once it is stored, so
    an interrupted run never leaves a half-written episode behind (a killed one still can:
    its rows stay `running` and are played again on resume)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    for sig in handlers:
        signal.signal(sig, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
        if caught:
            signal.raise_signal(caught[0])  # now handled as it would have been


def _write_png(run_dir: Path, relative: str, data: bytes) -> str:
    """Write atomically (a killed run leaves no half PNG) and return the relative path."""
    path = run_dir / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)
    return relative


def record(store: Store, run_id: str, outcome: runner.Outcome) -> None:
    """Store one outcome; screenshots go to `screens/<episode_id>/<step>.png` beside the
    store (episode ids are never reused, so a retried episode never mixes its screens)."""
    spec = outcome.spec
    episode_id = store.begin_episode(run_id, spec.agent, spec.task_id, spec.config_id,
                                     spec.repeat, spec.seed)
    run_dir = store.path.parent
    for index, step in enumerate(outcome.steps):
        shot = None if step.screenshot is None else _write_png(
            run_dir, f"screens/{episode_id}/{index}.png", step.screenshot)
        store.add_step(episode_id, index, action=step.action, action_label=step.action_label,
                       valid=step.valid, error=step.error, reward=step.reward,
                       success=step.success, step_s=step.step_s, agent_s=step.agent_s,
                       info=step.info, screenshot=shot, agent_output=step.agent_output)
    if outcome.final_screenshot is not None:
        _write_png(run_dir, f"screens/{episode_id}/final.png", outcome.final_screenshot)
    usage = {"input_tokens": outcome.input_tokens, "output_tokens": outcome.output_tokens,
             "cost_usd": outcome.cost_usd}
    if outcome.error:
        store.fail_episode(episode_id, outcome.error, **usage)
        return
    store.finish_episode(episode_id, success=outcome.success, steps=len(outcome.steps),
                         invalid_actions=outcome.invalid_actions, reward=outcome.reward,
                         terminated=outcome.terminated, truncated=outcome.truncated,
                         detector_trace=outcome.detector_trace, wall_s=outcome.wall_s,
                         reset_s=outcome.reset_s, **usage)


def default_run_dir(agent: str, task_spec: str, split: str) -> Path:
    return Path("runs") / run_id_for(agent, task_spec, split)

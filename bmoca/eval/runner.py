"""Expand agent x tasks x configurations x repeats into episodes and play them.

Episodes run in this process or in N worker processes; each worker keeps one phone per
configuration (`DevicePool`) so a configuration is provisioned once per worker. Workers
send finished episodes back whole and only this process writes the store, so a killed
run loses at most the episodes in flight and a restart skips every finished one.
"""

from __future__ import annotations

import hashlib
import io
import multiprocessing
import os
import sys
import time
import traceback
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from bmoca import agents, tasks
from bmoca.device.provision import CannotReset
from bmoca.env import BmocaEnv, DevicePool
from bmoca.env import actions as act
from bmoca.lifeline import die_with_parent

SCREEN_WIDTH = 540
"""Width of saved screenshots: half a phone's width keeps text legible at ~100 kB a PNG."""

Progress = Callable[["Outcome"], None]


@dataclass(frozen=True)
class EpisodeSpec:
    agent: str
    task: tasks.Task
    config_id: str
    repeat: int
    seed: int
    agent_options: tuple[tuple[str, Any], ...] = ()
    """Options of a model agent (`bmoca eval --agent-option key=value`), sorted by key."""

    @property
    def task_id(self) -> str:
        return self.task.id

    @property
    def key(self) -> tuple[str, str, str, int]:
        return (self.agent, self.task_id, self.config_id, self.repeat)


@dataclass
class StepRecord:
    action: Any
    action_label: str | None
    valid: bool
    error: str | None
    reward: float
    success: bool
    step_s: float
    agent_s: float
    info: dict[str, Any]
    screenshot: bytes | None = None
    """PNG of the screen the agent acted on, when screens are saved."""
    agent_output: dict[str, Any] | None = None
    """A model agent's `last_call` for this step (prompt, answer, tokens, cost)."""


@dataclass
class Outcome:
    spec: EpisodeSpec
    success: bool = False
    steps: list[StepRecord] = field(default_factory=list)
    invalid_actions: int = 0
    reward: float = 0.0
    terminated: bool = False
    truncated: bool = False
    detector_trace: list[str] = field(default_factory=list)
    wall_s: float = 0.0
    reset_s: float = 0.0
    error: str | None = None
    """An infrastructure error (device, set-up, agent crash): not an agent failure."""
    last_screen: str | None = None
    """The screen translator's text of the last observation (for `validate`)."""
    final_screenshot: bytes | None = None
    """PNG of the screen after the last step, when screens are saved."""
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost_usd: float | None = None
    """Model usage summed over the episode's calls: None for agents without a model; the
    cost is None as soon as one call's price is unknown."""
    _cost_unknown: bool = False

    def start_usage(self) -> None:
        self.input_tokens, self.output_tokens, self.cost_usd = 0, 0, 0.0

    def add_usage(self, call: dict[str, Any]) -> None:
        """Add one `last_call` to the sums (tokens a server did not report count as 0)."""
        self.input_tokens = (self.input_tokens or 0) + int(call.get("input_tokens") or 0)
        self.output_tokens = (self.output_tokens or 0) + int(call.get("output_tokens") or 0)
        cost = call.get("cost_usd")
        if cost is None:
            self._cost_unknown = True
        self.cost_usd = None if self._cost_unknown else round((self.cost_usd or 0.0) + cost, 8)


def episode_seed(base_seed: int, task_id: str, config_id: str, repeat: int) -> int:
    """A seed per episode that does not depend on the order episodes run in."""
    digest = hashlib.sha256(f"{base_seed}|{task_id}|{config_id}|{repeat}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def plan(agent: str, task_list: Sequence[tasks.Task], config_ids: Sequence[str], repeats: int,
         base_seed: int = 0, agent_options: dict[str, Any] | None = None) -> list[EpisodeSpec]:
    """Episodes ordered by configuration, so consecutive episodes reuse a phone."""
    options = tuple(sorted((agent_options or {}).items()))
    return [EpisodeSpec(agent, task, config_id, repeat,
                        episode_seed(base_seed, task.id, config_id, repeat), options)
            for config_id in config_ids for task in task_list for repeat in range(repeats)]


def screen_png(frame: Any, width: int | None = SCREEN_WIDTH) -> bytes:
    """A screenshot array as PNG bytes, scaled to `width` (None or 0: full size)."""
    from PIL import Image

    image = Image.fromarray(frame)
    if width and image.width != width:
        image = image.resize((width, max(1, round(image.height * width / image.width))),
                             Image.Resampling.BOX)
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def gesture_of(commands: Sequence[act.Command]) -> list[dict[str, Any]]:
    """Device commands as JSON for drawing an action on its screenshot (pixels)."""
    out: list[dict[str, Any]] = []
    for c in commands:
        if isinstance(c, act.Tap):
            out.append({"tap": [c.x, c.y]})
        elif isinstance(c, act.LongPress):
            out.append({"long_press": [c.x, c.y]})
        elif isinstance(c, act.Swipe):
            out.append({"swipe": [c.x1, c.y1, c.x2, c.y2]})
        elif isinstance(c, act.PressKey):
            out.append({"key": c.key})
        elif isinstance(c, act.TypeText):
            out.append({"text": c.text})
        elif isinstance(c, act.OpenApp):
            out.append({"open_app": c.name})
    return out


def _gesture(env: BmocaEnv, action: Any) -> list[dict[str, Any]] | None:
    """What the action will do on the current screen; None when it is invalid."""
    try:
        return gesture_of(env.action_mode.convert(action, env._screen))
    except (act.InvalidAction, ValueError):
        return None


def play(spec: EpisodeSpec, pool: DevicePool, *, keep_screen: bool = False,
         env_options: dict[str, Any] | None = None, save_screens: bool = False,
         targets: bool = True) -> Outcome:
    """Play one episode; every exception becomes an infrastructure error in the outcome,
    except a phone that cannot be put in the configuration (`CannotReset`), which would
    fail every episode the same way and so stops the run.

    With `save_screens`, each step carries a PNG of the screen the agent acted on and its
    info the pixel gesture the action became (for reports that draw actions). Without
    `targets` the steps' `info["target"]` is None: `validate` reads only verdicts, and
    finding what each action touches was a twentieth of its time."""
    from bmoca.env.targets import action_target  # lazily, as before: cold imports stay light

    outcome = Outcome(spec)
    started = time.perf_counter()
    env = None
    try:
        task = spec.task
        agent = agents.build(spec.agent, task, dict(spec.agent_options))
        uses_model = hasattr(agent, "last_call")
        if uses_model:
            outcome.start_usage()
        modes = tuple(agent.observation_modes)
        if keep_screen and "text" not in modes:
            modes += ("text",)
        env = BmocaEnv(task, spec.config_id, pool, observation=modes, action=agent.action_mode,
                       render_mode="rgb_array" if save_screens else None,
                       **{**(env_options or {}), **getattr(agent, "env_options", {})})
        observation, info = env.reset(seed=spec.seed)
        outcome.reset_s = float(info.get("reset_s", 0.0))
        agent.reset(env.goal, seed=spec.seed)
        while True:
            shot = screen_png(env.render()) if save_screens else None
            t0 = time.perf_counter()
            action = agent.act(observation)
            t1 = time.perf_counter()
            call = getattr(agent, "last_call", None) if uses_model else None
            if call is not None:
                outcome.add_usage(call)
            drawn = _gesture(env, action) if save_screens else None
            target = action_target(env, action) if targets else None
            observation, reward, terminated, truncated, info = env.step(action)
            t2 = time.perf_counter()
            error = info.get("action_error")
            step_info = {k: v for k, v in info.items() if k not in ("goal",)}
            step_info["target"] = target
            if save_screens:
                step_info["screen_size"] = list(env.device.screen_size())
                if drawn is not None:
                    step_info["gesture"] = drawn
            outcome.steps.append(StepRecord(
                action=_plain(action), action_label=info.get("action_label"),
                valid=error is None, error=error, reward=float(reward),
                success=bool(info["success"]), step_s=t2 - t1, agent_s=t1 - t0,
                info=step_info, screenshot=shot,
                agent_output=dict(call) if call is not None else None))
            outcome.reward += float(reward)
            if terminated or truncated:
                break
        outcome.success = env.success
        outcome.invalid_actions = env.invalid_actions
        outcome.terminated, outcome.truncated = bool(terminated), bool(truncated)
        outcome.detector_trace = list(info.get("detector", []))
        if save_screens:
            outcome.final_screenshot = screen_png(env.render())
        if keep_screen:
            outcome.last_screen = observation.get("text")
    except CannotReset:
        raise
    except Exception as exc:  # noqa: BLE001 - recorded, never lost
        outcome.error = f"{type(exc).__name__}: {exc}"
        outcome.detector_trace = traceback.format_exc().splitlines()[-6:]
        if keep_screen and env is not None and env.device is not None:
            try:
                outcome.last_screen = env.device.dump_hierarchy()
            except Exception:  # noqa: BLE001
                pass
    outcome.wall_s = time.perf_counter() - started
    return outcome


def _plain(action: Any) -> Any:
    """Actions as JSON-friendly values (numpy arrays become lists)."""
    if hasattr(action, "tolist"):
        return action.tolist()
    return action


# -- executors -------------------------------------------------------------------------------

_WORKER_POOL: DevicePool | None = None


def worker_init(parent_pid: int | None = None) -> None:
    """A worker process's start: die with the parent, keep one phone per configuration."""
    global _WORKER_POOL
    if parent_pid is not None:
        die_with_parent(parent_pid)  # a killed `bmoca eval` leaves no worker behind
    _WORKER_POOL = DevicePool("sim")  # only the simulator runs in several workers


def worker_pool() -> DevicePool:
    """The phones of this worker process (after `worker_init`)."""
    assert _WORKER_POOL is not None, "worker_init was not called in this process"
    return _WORKER_POOL


def mp_context() -> Any:
    """How to start workers. Forking a process that has started torch's thread pool (a
    learned agent was loaded to check its checkpoint) deadlocks the children; such runs
    start fresh workers instead."""
    return multiprocessing.get_context("spawn" if "torch" in sys.modules else None)


def _worker_play(specs: Sequence[EpisodeSpec], keep_screen: bool, env_options: dict[str, Any],
                 save_screens: bool = False, targets: bool = True) -> list[Outcome]:
    """Play a chunk of episodes in this worker, one after the other."""
    pool = worker_pool()
    return [play(spec, pool, keep_screen=keep_screen, env_options=env_options,
                 save_screens=save_screens, targets=targets) for spec in specs]


def chunks(specs: Sequence[EpisodeSpec], size: int) -> list[list[EpisodeSpec]]:
    """Consecutive runs of at most `size` episodes, each of one configuration (the plan
    is ordered by configuration, so a chunk plays on one phone of a worker)."""
    out: list[list[EpisodeSpec]] = []
    for spec in specs:
        if out and len(out[-1]) < size and out[-1][-1].config_id == spec.config_id:
            out[-1].append(spec)
        else:
            out.append([spec])
    return out


def _lost(spec: EpisodeSpec, why: str) -> Outcome:
    """An episode whose Ray actor died: an infrastructure error, played again on resume."""
    return Outcome(spec, error=why)


def execute(specs: Iterable[EpisodeSpec], workers: int = 1, *, keep_screen: bool = False,
            env_options: dict[str, Any] | None = None,
            save_screens: bool = False, device: str = "sim", executor: str = "process",
            ray_address: str | None = None, chunk: int = 1,
            targets: bool = True) -> Iterator[Outcome]:
    """Play episodes, yielding each outcome as it finishes (in completion order).

    Worker processes get `chunk` consecutive episodes of a configuration at a time and
    send them back together: fewer round trips (sending an episode to a worker and its
    outcome back cost the parent 1.6 ms of CPU, a tenth of a `validate` episode), at the
    price of up to `chunk` times as many episodes in flight when a run is killed.
    `targets`: see `play`.

    `device` is a `bmoca.device.connect` target; a real device (`adb...`) is one phone,
    so its episodes run one at a time. `executor="ray"` plays them on a Ray cluster
    (`bmoca.eval.ray_executor`; `workers` actors, 0 for one per CPU of the cluster).
    """
    specs = list(specs)
    env_options = env_options or {}
    if device != "sim" and (workers > 1 or executor != "process"):
        raise ValueError(f"device {device!r} is one phone: use one worker")
    if executor == "ray":
        from bmoca.eval import ray_executor

        yield from ray_executor.stream(
            play, specs, config_of=lambda s: s.config_id, lost=_lost, workers=workers or None,
            address=ray_address, kwargs={"keep_screen": keep_screen,
                                         "env_options": env_options,
                                         "save_screens": save_screens,
                                         "targets": targets})
        return
    if executor != "process":
        raise ValueError(f"unknown executor {executor!r}; valid: process, ray")
    if workers <= 1:
        pool = DevicePool(device)
        try:
            for spec in specs:
                yield play(spec, pool, keep_screen=keep_screen, env_options=env_options,
                           save_screens=save_screens, targets=targets)
        finally:
            pool.close()
        return
    # Give each worker whole configurations: contiguous chunks of the config-ordered plan.
    with ProcessPoolExecutor(max_workers=workers, initializer=worker_init,
                             initargs=(os.getpid(),), mp_context=mp_context()) as executor:
        pending = set()
        queue = iter(chunks(specs, max(1, chunk)))
        for part in queue:
            pending.add(executor.submit(_worker_play, part, keep_screen, env_options,
                                        save_screens, targets))
            if len(pending) >= workers * 4:
                break
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield from future.result()
                nxt = next(queue, None)
                if nxt is not None:
                    pending.add(executor.submit(_worker_play, nxt, keep_screen, env_options,
                                                save_screens, targets))

"""Play episodes on a Ray cluster: the process pool's results, past one machine.

Why actors: building a phone for a configuration costs far more than an episode's step, so
each worker is a long-lived actor that keeps one phone per configuration (`DevicePool`),
as a pool process does, and is fed whole configurations in turn. Outcomes come back to
the caller one by one as they finish, so the caller alone writes the store and a killed
run resumes exactly as with the pool.

Connecting: `address=None` uses a Ray already initialised in this process (tests start
one on loopback), else joins a running cluster (`"auto"` or `ray://host:10001`); nothing
here starts a local instance. Every node needs the same bmoca installed.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from itertools import groupby
from typing import Any

from bmoca.eval import runner

INSTALL_HINT = "pip install 'bmoca[ray]'"


class RayUnavailable(RuntimeError):
    """Ray is not installed, or no cluster answers at the address; the message says which."""


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise RayUnavailable(f"the ray executor needs ray, which is not installed: "
                             f"{INSTALL_HINT}") from None
    return ray


def connect(address: str | None = None) -> Any:
    """The `ray` module, joined to a cluster (see the module docstring)."""
    ray = _ray()
    if ray.is_initialized():
        return ray
    try:
        ray.init(address=address or "auto", include_dashboard=False, log_to_driver=False,
                 configure_logging=False)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise RayUnavailable(f"no Ray cluster at {address or 'auto'!r}: "
                             f"{' '.join(str(exc).split())[:200]} (start one with `ray start "
                             "--head`, or give its address with --ray)") from None
    return ray


class EpisodeWorker:
    """One worker: a phone per configuration, kept between the episodes it plays."""

    def __init__(self) -> None:
        from bmoca.env import DevicePool

        self.pool = DevicePool("sim")

    def play(self, spec: runner.EpisodeSpec, keep_screen: bool, env_options: dict[str, Any],
             save_screens: bool) -> runner.Outcome:
        return runner.play(spec, self.pool, keep_screen=keep_screen, env_options=env_options,
                           save_screens=save_screens)


def cluster_cpus(address: str | None = None) -> int:
    ray = connect(address)
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def execute(specs: Iterable[runner.EpisodeSpec], workers: int | None = None, *,
            address: str | None = None, keep_screen: bool = False,
            env_options: dict[str, Any] | None = None,
            save_screens: bool = False) -> Iterator[runner.Outcome]:
    """Play episodes on `workers` actors (default: one per CPU of the cluster), yielding
    each outcome as it finishes. Each actor takes one configuration's episodes at a time
    and keeps two in flight, so it never waits on the driver."""
    ray = connect(address)
    specs = list(specs)
    if not specs:
        return
    count = workers or cluster_cpus(address)
    groups = deque(list(g) for _, g in groupby(specs, key=lambda s: s.config_id))
    count = max(1, min(count, len(specs)))
    actor_class = ray.remote(num_cpus=1)(EpisodeWorker)
    actors = [actor_class.remote() for _ in range(count)]
    queues: list[deque[runner.EpisodeSpec]] = [deque() for _ in actors]
    env_options = env_options or {}
    pending: dict[Any, tuple[int, runner.EpisodeSpec, Any]] = {}

    def feed(i: int) -> None:
        if not queues[i]:
            if groups:
                queues[i].extend(groups.popleft())
            else:  # steal the back half of the longest queue, so no actor idles at the end
                longest = max(range(len(queues)), key=lambda k: len(queues[k]))
                for _ in range(len(queues[longest]) // 2):
                    queues[i].appendleft(queues[longest].pop())
        if queues[i]:
            spec = queues[i].popleft()
            ref = actors[i].play.remote(spec, keep_screen, env_options, save_screens)
            pending[ref] = (i, spec, actors[i])

    try:
        for i in range(len(actors)):
            feed(i)
            feed(i)
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                i, spec, actor = pending.pop(ref)
                try:
                    outcome = ray.get(ref)
                except ray.exceptions.RayError as exc:  # a node or actor died
                    outcome = runner.Outcome(spec, error=f"{type(exc).__name__}: "
                                             f"{' '.join(str(exc).split())[:300]}")
                    if actors[i] is actor:
                        actors[i] = actor_class.remote()
                yield outcome
                feed(i)
    finally:  # stopped early (Ctrl-C, an error): the episodes in flight are dropped
        for actor in actors:
            ray.kill(actor)

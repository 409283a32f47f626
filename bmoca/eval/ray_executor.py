"""Play episodes on a Ray cluster: the process pool's results, past one machine.

Why actors: building a phone for a configuration costs far more than an episode's step, so
each worker is a long-lived actor that keeps one phone per configuration (`DevicePool`),
as a pool process does, and is fed whole configurations in turn. Outcomes come back to
the caller one by one as they finish, so the caller alone writes the store and a killed
run resumes exactly as with the pool.

Connecting (`bmoca.cluster.connect`): a Ray already initialised in this process (tests
start one on loopback), else a running cluster (`"auto"` or `ray://host:10001`); nothing
here starts a local instance. Every node needs the same bmoca installed.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from itertools import groupby
from typing import Any, TypeVar

from bmoca.cluster import INSTALL_HINT, RayUnavailable, connect

__all__ = ["INSTALL_HINT", "PhoneWorker", "RayUnavailable", "cluster_cpus", "connect", "stream"]

T = TypeVar("T")


class PhoneWorker:
    """One worker: a phone per configuration, kept between the episodes it plays."""

    def __init__(self) -> None:
        from bmoca.env import DevicePool

        self.pool = DevicePool("sim")

    def run(self, play: Callable[..., Any], item: Any, kwargs: dict[str, Any]) -> Any:
        return play(item, self.pool, **kwargs)


def cluster_cpus(address: str | None = None) -> int:
    ray = connect(address)
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def stream(play: Callable[..., T], items: Iterable[Any], *, config_of: Callable[[Any], str],
           lost: Callable[[Any, str], T], workers: int | None = None,
           address: str | None = None, kwargs: dict[str, Any] | None = None) -> Iterator[T]:
    """`play(item, pool, **kwargs)` for every item on `workers` actors (default: one per CPU
    of the cluster), yielding results as they finish. Each actor takes one configuration's
    items at a time (`config_of`) and keeps two in flight, so it never waits on the caller;
    an item whose actor died comes back as `lost(item, why)` and the actor is replaced."""
    ray = connect(address)
    items = list(items)
    if not items:
        return
    groups = deque(list(g) for _, g in groupby(items, key=config_of))
    count = max(1, min(workers or cluster_cpus(address), len(items)))
    actor_class = ray.remote(num_cpus=1)(PhoneWorker)
    actors = [actor_class.remote() for _ in range(count)]
    queues: list[deque[Any]] = [deque() for _ in actors]
    kwargs = kwargs or {}
    pending: dict[Any, tuple[int, Any, Any]] = {}

    def feed(i: int) -> None:
        if not queues[i]:
            if groups:
                queues[i].extend(groups.popleft())
            else:  # steal the back half of the longest queue, so no actor idles at the end
                longest = max(range(len(queues)), key=lambda k: len(queues[k]))
                for _ in range(len(queues[longest]) // 2):
                    queues[i].appendleft(queues[longest].pop())
        if queues[i]:
            item = queues[i].popleft()
            pending[actors[i].run.remote(play, item, kwargs)] = (i, item, actors[i])

    try:
        for i in range(len(actors)):
            feed(i)
            feed(i)
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                i, item, actor = pending.pop(ref)
                try:
                    result = ray.get(ref)
                except ray.exceptions.RayError as exc:  # a node or actor died
                    result = lost(item, f"{type(exc).__name__}: "
                                        f"{' '.join(str(exc).split())[:300]}")
                    if actors[i] is actor:
                        actors[i] = actor_class.remote()
                yield result
                feed(i)
    finally:  # stopped early (Ctrl-C, an error): the episodes in flight are dropped
        for actor in actors:
            ray.kill(actor)

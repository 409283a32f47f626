"""Requests per minute to a model provider, held across every worker of a run.

Why a shared limiter: a provider's rate limit is per account, not per process; N workers
each pacing themselves to the limit send N times too much and spend the run in 429
retries. On Ray (the worker process has Ray initialised, as actors do) one named actor
per provider and model hands out send slots to every worker in the cluster; elsewhere a
pacer per process spaces that process's calls (with `--workers N`, give each its share).
A slot is a time at least 60/rpm seconds after the previous one; the caller sleeps until
its slot. Cached answers take no slot.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any


class Pacer:
    """Slots `60 / rpm` seconds apart on `clock`; `reserve` returns (slot, wait)."""

    def __init__(self, rpm: float, clock: Callable[[], float] = time.monotonic) -> None:
        if rpm <= 0:
            raise ValueError(f"rpm must be > 0, got {rpm}")
        self.interval = 60.0 / rpm
        self.clock = clock
        self.next = -float("inf")

    def reserve(self) -> tuple[float, float]:
        now = self.clock()
        slot = max(now, self.next)
        self.next = slot + self.interval
        return slot, slot - now


_LOCAL: dict[str, Pacer] = {}


def _ray_if_running() -> Any:
    """The ray module when this process runs under Ray (never imports it otherwise)."""
    ray = sys.modules.get("ray")
    return ray if ray is not None and ray.is_initialized() else None


def shared_pacer(key: str, rpm: float) -> Any:
    """The cluster's limiter actor for `key` (created by the first worker that asks)."""
    ray = _ray_if_running()
    if ray is None:
        raise RuntimeError("no Ray in this process: the limiter is per process here")
    actor = ray.remote(num_cpus=0)(Pacer)
    # detached: a named actor is still collected when its creator's handles go, which
    # would kill the limiter under the other workers' feet; it lives as long as the cluster
    return actor.options(name=f"bmoca-rate:{key}:{rpm:g}", namespace="bmoca",
                         get_if_exists=True, lifetime="detached").remote(rpm)


def limiter(key: str, rpm: float, sleep: Callable[[float], None] = time.sleep
            ) -> Callable[[], float]:
    """A function that waits for the next send slot of `key` and returns the wait."""
    ray = _ray_if_running()
    if ray is not None:
        actor = shared_pacer(key, rpm)

        def wait_shared() -> float:
            _slot, delay = ray.get(actor.reserve.remote())
            sleep(delay)
            return delay

        return wait_shared
    pacer = _LOCAL.setdefault(f"{key}:{rpm:g}", Pacer(rpm))

    def wait_local() -> float:
        _slot, delay = pacer.reserve()
        sleep(delay)
        return delay

    return wait_local

"""Joining a Ray cluster, for the evaluation executor and the Ray vector environment.

Why one place: both must behave alike - use a Ray this process already started (tests
start one on loopback), else join a running cluster, and never start one silently; a
missing ray or cluster is one line saying what to do.
"""

from __future__ import annotations

from typing import Any

INSTALL_HINT = "pip install 'bmoca[ray]'"


class RayUnavailable(RuntimeError):
    """Ray is not installed, or no cluster answers at the address; the message says which."""


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise RayUnavailable(f"running on Ray needs ray, which is not installed: "
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

"""pytest plugin for `tools/golden.py`: hashes every answer a simulated phone gives a test.

Loaded with `-p golden_plugin` (tools/ on PYTHONPATH); writes one JSONL file per xdist
worker into $BMOCA_GOLDEN_DIR. Records only; never changes what a test sees.
"""

from __future__ import annotations

import hashlib
import json
import os

import pytest

_current = {"test": "", "n": 0}
_out = None


def _digest(value) -> str:
    if hasattr(value, "tobytes"):
        value = value.tobytes()
    if isinstance(value, tuple):
        value = repr(value)
    if isinstance(value, str):
        value = value.encode("utf-8")
    return hashlib.sha256(value).hexdigest()[:16]


def _wrap(cls, name: str) -> None:
    original = getattr(cls, name)

    def recorded(self, *args, **kwargs):
        result = original(self, *args, **kwargs)
        if _out is not None and _current["test"]:
            _current["n"] += 1
            entry = [_current["n"], name, repr(args)[:200], _digest(result)]
            _out.write(json.dumps([_current["test"], entry]) + "\n")
        return result

    setattr(cls, name, recorded)


def pytest_configure(config) -> None:
    global _out
    from bmoca.sim.device import SimDevice

    for name in ("shell", "dump_hierarchy", "screenshot", "pull"):
        _wrap(SimDevice, name)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    _out = open(os.path.join(os.environ["BMOCA_GOLDEN_DIR"], f"{worker}.jsonl"), "a")


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item) -> None:
    _current["test"], _current["n"] = item.nodeid, 0


def pytest_unconfigure(config) -> None:
    if _out is not None:
        _out.flush()

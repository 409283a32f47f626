"""The soak's short form, in the test command: random steps in every observation mode, with
resets across tasks, configurations and action modes, raise nothing, and resident memory
after a warm-up stays under a ceiling. The long form (`benchmarks/soak.py`, 100,000 steps
a mode, figures in the README) is what shows memory flat; this catches a leak of a few
hundred KB a step, or an exception, in under a minute."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from bmoca import configs, tasks

pytestmark = pytest.mark.reliability

_spec = importlib.util.spec_from_file_location(
    "soak_benchmark", Path(__file__).resolve().parents[1] / "benchmarks" / "soak.py")
assert _spec is not None and _spec.loader is not None
soak_benchmark = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(soak_benchmark)

MODES = {
    # mode: (warm-up steps, steps after it, MB resident memory may grow after warm-up)
    "xml": (300, 900, 32),
    "text": (300, 900, 32),
    "xml+text": (300, 900, 32),
    # pixel caches (labels, icons, kept screens, layouts, shadows: about 200 MB of byte
    # budgets) fill for thousands of steps, by 70 MB in the first 300: the ceiling is
    # their fill, not a leak's
    "pixels": (100, 300, 128),
    "som": (100, 300, 128),
}


@pytest.mark.parametrize("mode", list(MODES))
def test_a_short_soak_raises_nothing_and_memory_stays_under_its_ceiling(mode: str) -> None:
    warm, more, ceiling_mb = MODES[mode]
    result = soak_benchmark.soak(
        warm + more, [mode], ["dual_gesture", "discrete", "text", "json"],
        list(configs.ids("test")), [t.id for t in tasks.select("all")], every=warm, seed=7)
    assert result["exceptions"] == 0, result["errors"]
    assert result["steps"] == warm + more
    samples = [s["rss_mb"] for s in result["samples"] if s["steps"] >= warm]
    assert len(samples) == 1 + more // warm
    assert max(samples) <= samples[0] + ceiling_mb, (mode, samples)

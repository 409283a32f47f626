"""A phone's reset gives the heap's free pages back to the system, so that images drawn and
dropped do not leave a long run's resident memory growing (bmoca.sim.heap)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

import bmoca
from bmoca.sim import heap

pytestmark = [pytest.mark.reliability,
              pytest.mark.skipif(not heap.available(), reason="no glibc malloc_trim here")]


def test_resets_after_screens_were_painted_give_free_pages_back():
    env = bmoca.make("clock/create_alarm_at_10:30_am", "test_env_100", observation=("pixels",),
                     action="json")
    env.reset(seed=0)
    before, steps = heap.trims(), 0
    apps = ("Settings", "Clock", "Contacts", "Phone", "Messages", "Chrome", "Gmail", "Files")
    while heap.trims() == before:  # each step shows another screen
        _, _, terminated, truncated, info = env.step(
            {"action_type": "open_app", "app_name": apps[steps % len(apps)]})
        assert info.get("action_error") is None
        steps += 1
        assert steps <= 3 * heap.PAINTS_BEFORE_RESET_TRIM
        if terminated or truncated:
            env.reset(seed=0)
    assert steps >= heap.PAINTS_BEFORE_RESET_TRIM // 2
    env.reset(seed=0)  # nothing painted since: nothing to give back
    assert heap.trims() == before + 1
    env.close()


_FRAGMENT = textwrap.dedent("""
    from pathlib import Path
    from PIL import Image
    from bmoca.sim import heap

    def rss_mb():
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024

    del_me = Image.new("RGB", (1200, 1000), (1, 2, 3))
    del del_me  # freeing a block that big lifts glibc's mmap threshold: the next go to the heap
    big, pins = [], []
    for n in range(40):  # 4 MB images (RGB is 4 bytes a pixel), each followed by a smaller one that stays
        big.append(Image.new("RGB", (1000, 1000), (n, 1, 2)))
        pins.append(Image.new("L", (500, 400)))
    del big
    held = rss_mb()
    for _ in range(heap.PAINTS_BEFORE_RESET_TRIM):
        heap.note_paint()
    print(heap.at_reset(), round(held - rss_mb()))
""")


@pytest.mark.parametrize("setting, trimmed", [("", True), ("0", False)])
def test_freed_images_pinned_in_the_heap_are_returned(setting, trimmed):
    env = dict(os.environ, BMOCA_TRIM_HEAP=setting)
    out = subprocess.run([sys.executable, "-c", _FRAGMENT], env=env, capture_output=True,
                         text=True, timeout=120, check=True).stdout.split()
    assert out[0] == str(trimmed)
    released = int(out[1])
    assert (released > 80) if trimmed else (released < 20), released

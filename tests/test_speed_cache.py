"""The on-disk cache of rendered assets (app icons, the wallpaper) changes no pixel: a phone booted with it off, with
an empty cache, with a full one, with damaged entries or an unwritable directory shows the
same home screen, byte for byte (each boot in a fresh process, as a cold start is)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from bmoca.sim.render.disk_cache import ENV

BOOT = """
import hashlib
from bmoca import configs
from bmoca.device import connect
phone = connect("sim", configs.get("test_env_109"))
print(hashlib.sha256(phone.screenshot().tobytes()).hexdigest())
"""


def _home_screen(setting: str) -> str:
    env = {**os.environ, ENV: setting}
    out = subprocess.run([sys.executable, "-c", BOOT], env=env, capture_output=True, text=True,
                         check=True)
    return out.stdout.strip()


def test_cached_and_drawn_assets_give_the_same_screen(tmp_path: Path):
    drawn = _home_screen("off")
    folder = tmp_path / "assets"
    assert _home_screen(str(folder)) == drawn  # an empty cache: drawn, then kept
    entries = sorted(folder.iterdir())
    assert {e.name.split("-")[0] for e in entries} == {"app_icon", "wallpaper"}, \
        "the first boot keeps what it drew"
    assert not list(folder.glob("*.tmp")), "no half-written entry is left"
    assert _home_screen(str(folder)) == drawn  # read back
    for entry in entries:
        entry.write_bytes(entry.read_bytes()[:40])  # cut short
    assert _home_screen(str(folder)) == drawn
    assert all(entry.stat().st_size > 40 for entry in entries), "damaged entries drawn again"
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    assert _home_screen(str(blocker / "assets")) == drawn  # cannot be written: drawn

"""The on-disk cache of rendered assets (app icons, the wallpaper) changes no pixel: a phone booted with it off, with
an empty cache, with a full one, with damaged entries or an unwritable directory shows the
same home screen, byte for byte (each boot in a fresh process, as a cold start is)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import check_disk_cache

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
    check_disk_cache(_home_screen, tmp_path / "assets",
                     {"app_icon", "wallpaper", "wallpaper_pixels"})

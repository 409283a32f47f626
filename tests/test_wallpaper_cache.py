"""Wallpapers are kept decoded one at a time and otherwise compressed
(`bmoca.sim.render.wallpaper`): what comes back from the compressed form, on its own and
on a phone's screen, is the same bytes as what was decoded, and the bounds hold."""

from __future__ import annotations

import dataclasses
import io

import numpy as np
import pytest
from PIL import Image

from bmoca import configs
from bmoca.assets import wallpapers
from bmoca.device import connect
from bmoca.sim.render.wallpaper import WALLPAPERS, WallpaperCache, decode, decoded_bytes


def _png(name: str, width: int, height: int) -> bytes:
    return wallpapers.encode_png(wallpapers.generate(name, width, height))


def _reference(blob: bytes, width: int, height: int) -> Image.Image:
    """How the painter decoded a wallpaper before: convert, resize, crop, always."""
    img = Image.open(io.BytesIO(blob)).convert("RGB")
    scale = max(width / img.width, height / img.height)
    size = (max(width, round(img.width * scale)), max(height, round(img.height * scale)))
    img = img.resize(size, Image.BILINEAR)
    left, top = (img.width - width) // 2, (img.height - height) // 2
    return img.crop((left, top, left + width, top + height))


@pytest.mark.parametrize("file_size", [(90, 180), (120, 200), (60, 180)])
def test_decode_is_the_resize_and_crop_it_replaces(file_size):
    blob = _png("08_colors", *file_size)
    got = decode(blob, 90, 180)
    assert got.mode == "RGB" and got.size == (90, 180)
    assert got.tobytes() == _reference(blob, 90, 180).tobytes()


def test_a_wallpaper_evicted_and_inflated_is_the_same_bytes():
    cache = WallpaperCache(decoded_budget=0)
    blobs = {name: _png(name, 80, 160) for name in ("01_red", "10_galaxy", "04_sky")}
    first = {name: cache.get(name, lambda b=blob: decode(b, 80, 160)).tobytes()
             for name, blob in blobs.items()}
    assert (cache.made, cache.inflated) == (3, 0)
    for name in blobs:
        again = cache.get(name, lambda: pytest.fail("made again instead of inflated"))
        assert again.mode == "RGB" and again.tobytes() == first[name]
    assert (cache.made, cache.inflated) == (3, 3)


def test_the_bounds_hold():
    cache = WallpaperCache(decoded_budget=2 * 80 * 160 * 4, packed_budget=60_000)
    for name in wallpapers.WALLPAPERS:
        cache.get(name, lambda n=name: wallpapers.generate(n, 80, 160))
        assert len(cache._decoded) <= 2
        assert cache._packed_bytes <= cache.packed_budget
        assert cache._packed_bytes == sum(len(p) for p, _ in cache._packed.values())
    assert len(cache._packed) < len(wallpapers.WALLPAPERS)  # the oldest were dropped
    assert list(cache._decoded) == list(wallpapers.WALLPAPERS[-2:])
    # the last one is kept decoded even when it alone is over the budget
    tight = WallpaperCache(decoded_budget=0, packed_budget=0)
    image = tight.get("x", lambda: wallpapers.generate("01_red", 80, 160))
    assert tight.get("x", lambda: pytest.fail("not kept")) is image
    assert tight.nbytes == decoded_bytes(image) and not tight._packed


def test_a_phone_s_home_screen_after_its_wallpaper_was_evicted():
    base = configs.get("test_env_100")
    red = dataclasses.replace(base, id="wallpaper_red", wallpaper="01_red")
    blue = dataclasses.replace(base, id="wallpaper_blue", wallpaper="02_blue")
    WALLPAPERS.cache_clear()
    before = WALLPAPERS.inflated
    first = np.array(connect("sim", red).screenshot())
    connect("sim", blue).screenshot()  # its wallpaper takes the decoded place
    assert len(WALLPAPERS._decoded) == 1
    again = connect("sim", red).screenshot()
    assert WALLPAPERS.inflated == before + 1
    assert again.tobytes() == first.tobytes()

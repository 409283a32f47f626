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


def _shown(cache: WallpaperCache, key, size, make) -> bytes:
    with cache.shown(key, size, make) as image:
        assert image.mode == "RGB" and image.size == size
        return image.tobytes()


def test_a_wallpaper_replaced_and_inflated_again_is_the_same_bytes():
    cache = WallpaperCache()
    blobs = {name: _png(name, 80, 160) for name in ("01_red", "10_galaxy", "04_sky")}
    first = {name: _shown(cache, name, (80, 160), lambda b=blob: decode(b, 80, 160))
             for name, blob in blobs.items()}
    assert first == {name: decode(blob, 80, 160).tobytes() for name, blob in blobs.items()}
    assert (cache.made, cache.inflated) == (3, 0)
    for name in blobs:
        again = _shown(cache, name, (80, 160), lambda: pytest.fail("made again, not inflated"))
        assert again == first[name]
    assert (cache.made, cache.inflated) == (3, 3)
    assert _shown(cache, "04_sky", (80, 160), lambda: pytest.fail("not kept")) == first["04_sky"]
    assert cache.inflated == 3  # the one shown last is still decoded


def test_a_size_has_one_decoded_image_filled_in_place():
    cache = WallpaperCache()
    with cache.shown("a", (80, 160), lambda: wallpapers.generate("01_red", 80, 160)) as a:
        pass
    with cache.shown("b", (80, 160), lambda: wallpapers.generate("02_blue", 80, 160)) as b:
        assert b is a
    assert len(cache._slots) == 1


def test_one_key_at_two_sizes_is_two_wallpapers():
    cache = WallpaperCache(decoded_budget=0)
    for _ in range(2):
        for size in ((80, 160), (90, 150)):
            got = _shown(cache, "default", size, lambda s=size: wallpapers.generate("04_sky", *s))
            assert got == wallpapers.generate("04_sky", *size).tobytes()
    assert (cache.made, cache.inflated) == (2, 2)


def test_a_wallpaper_of_the_wrong_size_is_refused_and_nothing_is_kept():
    cache = WallpaperCache()
    with pytest.raises(ValueError, match="not the screen"):
        _shown(cache, "a", (80, 160), lambda: wallpapers.generate("01_red", 80, 161))
    assert not cache._packed
    assert _shown(cache, "a", (80, 160), lambda: wallpapers.generate("01_red", 80, 160))


def test_the_bounds_hold():
    sizes = [(80, 160), (90, 180), (100, 200)]
    cache = WallpaperCache(decoded_budget=2 * 90 * 180 * 4, packed_budget=60_000)
    for name in wallpapers.WALLPAPERS:
        for size in sizes:
            _shown(cache, (name, size), size, lambda n=name, s=size: wallpapers.generate(n, *s))
            assert sum(decoded_bytes(image) for _, image in cache._slots.values()) \
                <= max(cache.decoded_budget, decoded_bytes(cache._slots[size][1]))
            assert cache._packed_bytes <= cache.packed_budget
            assert cache._packed_bytes == sum(len(p) for p in cache._packed.values())
    assert list(cache._slots) == [(100, 200)]  # two of the sizes do not fit the budget
    assert len(cache._packed) < len(wallpapers.WALLPAPERS) * len(sizes)  # the oldest dropped
    # the last one is kept decoded even when it alone is over the budget
    tight = WallpaperCache(decoded_budget=0, packed_budget=0)
    shown = _shown(tight, "x", (80, 160), lambda: wallpapers.generate("01_red", 80, 160))
    assert _shown(tight, "x", (80, 160), lambda: pytest.fail("not kept")) == shown
    assert tight.nbytes == 80 * 160 * 4 and not tight._packed


def test_a_phone_s_home_screen_after_its_wallpaper_was_evicted():
    base = configs.get("test_env_100")
    red = dataclasses.replace(base, id="wallpaper_red", wallpaper="01_red")
    blue = dataclasses.replace(base, id="wallpaper_blue", wallpaper="02_blue")
    WALLPAPERS.cache_clear()
    first = np.array(connect("sim", red).screenshot())
    connect("sim", blue).screenshot()  # its wallpaper takes the decoded place
    assert len(WALLPAPERS._slots) == 1
    before = (WALLPAPERS.made, WALLPAPERS.inflated)
    again = connect("sim", red).screenshot()
    assert (WALLPAPERS.made, WALLPAPERS.inflated) == (before[0], before[1] + 1)
    assert again.tobytes() == first.tobytes()


def test_spare_wallpapers_are_swapped_in_not_inflated_and_stay_the_same_bytes():
    """A process stepping phones of three wallpapers in turn, with room for two spares:
    after the first round no wallpaper is made or inflated again, and each is unchanged."""
    size = (80, 160)
    names = ("01_red", "02_blue", "04_sky")
    cache = WallpaperCache(spare_budget=2 * 80 * 160 * 4)
    expected = {n: wallpapers.generate(n, *size).tobytes() for n in names}
    for name in names:
        assert _shown(cache, name, size, lambda n=name: wallpapers.generate(n, *size)) \
            == expected[name]
    for _ in range(3):
        for name in names:
            assert _shown(cache, name, size, lambda: pytest.fail("not kept")) == expected[name]
    assert (cache.made, cache.inflated) == (3, 0)
    assert cache.nbytes - cache._packed_bytes == 3 * 80 * 160 * 4
    # with room for one spare only, the third wallpaper is inflated into the oldest spare
    tight = WallpaperCache(spare_budget=80 * 160 * 4)
    for _ in range(2):
        for name in names:
            assert _shown(tight, name, size, lambda n=name: wallpapers.generate(n, *size)) \
                == expected[name]
    assert tight.made == 3 and tight.inflated == 3
    assert tight.nbytes - tight._packed_bytes == 2 * 80 * 160 * 4


def test_a_wallpaper_kept_on_disk_is_inflated_by_a_new_process_to_the_same_bytes(tmp_path):
    """`stored`: the compressed pixels a cache made are read back by another cache (as by
    a new process) without decoding; a damaged or cut file means decoding again."""
    blob = _png("10_galaxy", 80, 160)
    entry = tmp_path / "wallpaper_pixels-x.bin"
    reference = decode(blob, 80, 160).tobytes()
    first = WallpaperCache()
    assert _shown_stored(first, blob, lambda: decode(blob, 80, 160), entry) == reference
    assert (first.made, first.inflated) == (1, 0) and entry.exists()
    second = WallpaperCache()
    assert _shown_stored(second, blob, lambda: pytest.fail("decoded, not read"), entry
                         ) == reference
    assert (second.made, second.inflated) == (0, 1) and second._packed
    whole = entry.read_bytes()
    for damaged in (whole[:40], whole[:-40] + bytes(40), b""):
        entry.write_bytes(damaged)
        third = WallpaperCache()
        assert _shown_stored(third, blob, lambda: decode(blob, 80, 160), entry) == reference
        assert (third.made, third.inflated) == (1, 0)
        assert entry.read_bytes() == whole, "made again and kept"
    other = WallpaperCache()  # an entry of another size is refused, not pasted
    with other.shown("x", (90, 160), lambda: decode(_png("10_galaxy", 90, 160), 90, 160),
                     lambda: entry) as image:
        assert image.tobytes() == decode(_png("10_galaxy", 90, 160), 90, 160).tobytes()
    assert other.made == 1


def _shown_stored(cache: WallpaperCache, key, make, entry) -> bytes:
    with cache.shown(key, (80, 160), make, lambda: entry) as image:
        return image.tobytes()

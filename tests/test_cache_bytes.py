"""Every cache in the process whose values vary in size is bounded in bytes: filled past
its budget with distinct (and long) arguments, it drops its oldest entries and holds no
more than the budget, however long the process runs or whatever text it is sent.

Budgets are lowered for the test (each cache's `budget` is a plain attribute), so filling
takes milliseconds; the production budgets are the modules' constants."""

from __future__ import annotations

import io
import sys
from collections.abc import Callable, Iterator

import pytest
from PIL import Image

from bmoca import configs
from bmoca.assets import wallpapers
from bmoca.bytecache import SHARED, SHARED_BUDGET_ENV, ByteLRU, SharedBudget, approx_bytes
from bmoca.env import observations, targets
from bmoca.formats import hierarchy, shared_prefs
from bmoca.sim.apps.maps import mapdraw
from bmoca.sim.apps.snapseed import photo
from bmoca.sim.apps.walmart import images as walmart_images
from bmoca.sim.apps.wikipedia import images as wikipedia_images
from bmoca.sim.render import app_icons, icons, images, painter, scenes, text, widgets
from bmoca.sim.shell import session
from bmoca.sim.ui import sizes
from bmoca.sim.ui.view import column
from bmoca.sim.ui.view import text as text_view
from bmoca.tasks import families
from bmoca.tasks.experts import base as experts

pytestmark = pytest.mark.reliability

BUDGET = 256 << 10
"""The lowered budget every cache is filled past."""


def _png(n: int, size: int = 64) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (size + n % 7, size), (n % 256, n * 7 % 256, 40)).save(out, "PNG")
    return out.getvalue()


def _dump(n: int) -> str:
    nodes = "".join(f'<node index="{i}" text="row {n} {i} {"x" * 200}" class="android.widget'
                    f'.TextView" clickable="true" bounds="[0,{i * 10}][100,{i * 10 + 9}]" />'
                    for i in range(20))
    return f"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=" \
           f'"0"><node index="0" bounds="[0,0][100,200]">{nodes}</node></hierarchy>'


_RENDERER = text.get_text_renderer()
_FAMILY = families.all_families()[0]
_CONFIG = next(iter(configs.ids("test")))

FILLERS: dict[str, tuple[ByteLRU, Callable[[int], object]]] = {
    "text layout": (_RENDERER._layout,
                    lambda n: _RENDERER.measure(f"{n} " + "word " * 300, 20 + n % 9)),
    "text label": (_RENDERER._label, lambda n: _RENDERER.label(f"Label {n}", 40, "#000000")),
    "text covering": (_RENDERER._covering,
                      lambda n: _RENDERER.measure("w" * 2000 + str(n), 14)),
    "icon": (icons._icon, lambda n: icons.icon("settings", 40 + n % 50, (n % 256, 0, 0))),
    "icon on circle": (icons.icon_on_circle,
                       lambda n: icons.icon_on_circle("wifi", (n % 256, 9, 9), 48, 24)),
    "shadow": (painter.elevation_shadow,
               lambda n: painter.elevation_shadow(100 + n, 80, 8, 6)),
    "decoded photo": (images._decode, lambda n: images.decode(_png(n))),
    "cropped photo": (images._cropped, lambda n: images.cropped(_png(1), (60 + n, 60))),
    "snapseed photo": (photo._rendered, lambda n: photo.rendered(_png(2), (50 + n, 50))),
    "app icon": (app_icons._app_icon,
                 lambda n: app_icons.app_icon("com.android.settings", 40 + n)),
    "mark": (app_icons.mark, lambda n: app_icons.mark("g", 20 + n)),
    "wallpaper matrix": (wallpapers._cubic_matrix,
                         lambda n: wallpapers._cubic_matrix(200 + n, 16)),
    "wallpaper grain": (wallpapers._grain_image,
                        lambda n: wallpapers._grain_image(130, 140, n, 0.5)),
    "parsed dump": (hierarchy.parse, lambda n: hierarchy.parse(_dump(n))),
    "dump nodes": (observations._nodes_of, lambda n: observations.nodes(_dump(n))),
    "translated dump": (observations._translated, lambda n: observations.translate(_dump(n))),
    "set-of-marks label": (observations._label,
                           lambda n: observations._label(str(n), (200, 30, 30), 30)),
    "step targets": (targets._boxes, lambda n: targets._boxes(_dump(n))),
    "expert nodes": (experts._parsed, lambda n: experts._parsed(_dump(n))),
    "shell line": (session._parsed,
                   lambda n: session._parsed(f"echo {n} " + "a" * 3000)),
    "family instance": (families._instance, lambda n: _FAMILY.instance(n)),
    "shape sprite": (painter.shape_sprite,
                     lambda n: painter.shape_sprite("round", 50 + n, 40, 8, (9, 9, 9), None)),
    "scene": (scenes.scene, lambda n: scenes.scene(n, 60, 40)),
    "gradient ring": (widgets.gradient_ring,
                      lambda n: widgets.gradient_ring(40 + n, 3, widgets.INSTAGRAM_RING)),
    "wikipedia lead image": (wikipedia_images._scaled,
                             lambda n: wikipedia_images._scaled("Earth", 60 + n, 40)),
    "wikipedia wordmark": (wikipedia_images.wordmark,
                           lambda n: wikipedia_images.wordmark(20 + n, (0, 0, 0))),
    "walmart product": (walmart_images.product_image,
                        lambda n: walmart_images.product_image("banana", 30 + n)),
    "map": (mapdraw._maps, lambda n: mapdraw.map_image(60 + n, 50, 0.5, False)),
    "derived configuration": (configs.derived,  # an id names any number of changes
                              lambda n: configs.derived(_CONFIG + "+dark_theme=true" * (n + 1))),
}


@pytest.fixture
def lowered() -> Iterator[None]:
    saved = {name: cache.budget for name, (cache, _) in FILLERS.items()}
    for cache, _ in FILLERS.values():
        cache.cache_clear()
        cache.budget = BUDGET
    yield
    for name, (cache, _) in FILLERS.items():
        cache.budget = saved[name]
        cache.cache_clear()


@pytest.mark.parametrize("name", sorted(FILLERS))
def test_a_cache_filled_past_its_budget_holds_no_more_than_it(name: str, lowered: None
                                                              ) -> None:
    cache, fill = FILLERS[name]
    calls = 0
    while cache.cache_info().misses < 3 or cache.nbytes + (cache.nbytes // max(
            1, cache.cache_info().currsize)) <= BUDGET:
        fill(calls)  # until one more entry would not fit
        calls += 1
        assert calls < 5000, f"{name}: {cache.nbytes} bytes after {calls} calls"
    for _ in range(calls):
        fill(calls)
        calls += 1
        assert cache.nbytes <= BUDGET
    info = cache.cache_info()
    assert 0 < info.currsize < info.misses, f"{name}: entries were dropped, some kept"
    held = sum(approx_bytes(entry[0]) for entry in cache._items.values())
    assert held <= BUDGET or name in ("parsed dump", "dump nodes", "step targets"), held


def test_every_byte_bounded_cache_of_the_package_is_filled_here() -> None:
    """A new `ByteLRU` must join FILLERS, so that its bound is tested too."""
    found = {id(obj) for module in list(sys.modules.values())
             if getattr(module, "__name__", "").startswith("bmoca.")
             for obj in vars(module).values() if isinstance(obj, ByteLRU)}
    found |= {id(c) for c in (_RENDERER._layout, _RENDERER._label, _RENDERER._covering)}
    assert found == {id(cache) for cache, _ in FILLERS.values()}


def test_a_long_key_counts_and_a_value_over_the_budget_is_not_kept() -> None:
    cache = ByteLRU(lambda key: None, 64 << 10)
    for n in range(100):
        cache(f"{n}" + "k" * 10_000)  # None values: the keys are what they hold
    assert cache.nbytes <= 64 << 10 and cache.cache_info().currsize <= 7
    big = ByteLRU(lambda n: b"x" * n, 1000)
    assert big(5000) == b"x" * 5000 and big.cache_info().currsize == 0


def test_caches_sharing_a_budget_hold_no_more_than_it_together() -> None:
    """Each cache stays under its own budget and all of them under the shared one, the
    least recently used entry of any of them going first."""
    shared = SharedBudget(300 << 10)
    photos = ByteLRU(lambda n: b"p" * (50 << 10), 256 << 10, shared=shared)
    labels = ByteLRU(lambda n: b"l" * (50 << 10), 256 << 10, shared=shared)
    photos(0)
    for n in range(20):
        labels(n)
        photos(0)  # used all along: it outlives older labels
        assert labels.nbytes <= 256 << 10 and shared.nbytes <= 300 << 10
    assert photos.cache_info().currsize == 1 and photos.cache_info().misses == 1
    assert labels.cache_info().currsize == 4  # 5 entries of 50 KB and more fill 300 KB
    assert shared.nbytes > 200 << 10


def test_the_process_shares_one_budget_of_cache_memory(monkeypatch) -> None:
    """The package's caches share `SHARED`, read from BMOCA_MEMORY_CACHE_MB when it is
    first needed; a bad value names the variable."""
    assert all(cache._shared is SHARED for cache, _ in FILLERS.values())
    monkeypatch.setenv(SHARED_BUDGET_ENV, "12.5")
    assert SharedBudget(SHARED_BUDGET_ENV, 160).budget == int(12.5 * (1 << 20))
    monkeypatch.delenv(SHARED_BUDGET_ENV)
    assert SharedBudget(SHARED_BUDGET_ENV, 160).budget == 160 << 20
    for bad in ("abc", "-1", "nan", "inf"):
        monkeypatch.setenv(SHARED_BUDGET_ENV, bad)
        with pytest.raises(ValueError, match=f"^{SHARED_BUDGET_ENV} must be a number of "
                                             f"megabytes \\(0 or more\\), not '{bad}'$"):
            SharedBudget(SHARED_BUDGET_ENV, 160).budget  # noqa: B018


def test_the_measure_cache_starts_again_past_its_budget_in_bytes() -> None:
    cache = sizes.MeasureCache(budget=BUDGET)
    numbers: dict[int, int] = {}
    peak = 0
    for n in range(400):
        cache.display("d")
        cache.number(column(text_view(f"{n} " + "t" * 2000), text_view(str(n))), numbers)
        peak = max(peak, cache.nbytes)
        assert len(cache.nodes) < 400
    assert BUDGET < peak <= BUDGET + 3 * (sizes.NODE_BYTES + 2100), "one run past, at most"


def test_the_shared_prefs_files_kept_hold_no_more_than_their_budget(monkeypatch) -> None:
    """Prefs files written lately are kept to read back without XML: a typed text makes
    a file of any size, so what they hold is bounded too."""
    monkeypatch.setattr(shared_prefs, "WRITTEN_BYTES", BUDGET)
    for n in range(40):
        raw = shared_prefs.dump({"note": f"{n} " + "x" * 20_000, "count": n})
        assert shared_prefs.written_bytes <= BUDGET
        assert shared_prefs.parse(raw)["count"] == n
    assert len(shared_prefs._WRITTEN) < 40


def test_the_label_shadows_kept_hold_no_more_than_their_budget(monkeypatch) -> None:
    monkeypatch.setattr(painter, "LABEL_SHADOWS_BYTES", BUDGET)
    painter._SHADOWS.clear()
    monkeypatch.setattr(painter, "_shadows_held", 0)
    sprites = [Image.new("RGBA", (100 + n, 40), (0, 0, 0, 255)) for n in range(40)]
    for sprite in sprites:
        painter._shadow(sprite, 3)
        assert painter._shadows_held <= BUDGET
    assert 0 < len(painter._SHADOWS) < len(sprites)

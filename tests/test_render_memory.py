"""The render caches that grew with every display a process met are bounded, and what they
drop comes back the same bytes: fonts opened again draw the same labels and icons."""

from __future__ import annotations

import pytest

from bmoca.sim.render import icons, text

pytestmark = pytest.mark.reliability


def test_a_label_drawn_after_its_font_was_closed_is_the_same_bytes():
    renderer = text.get_text_renderer()
    text.load_font.cache_clear()
    renderer._label.cache_clear()
    words = ("Network & internet", "Réseau et Internet", "الشبكة والإنترنت", "网络和互联网")
    locales = ("en-US", "fr-FR", "ar-EG", "zh-CN")
    first = [renderer.label(w, 40, (0, 0, 0), 500, loc).tobytes()
             for w, loc in zip(words, locales, strict=True)]
    for size in range(20, 20 + 2 * text.FONT_CACHE_SIZE):
        renderer.label("Settings", size, (0, 0, 0), 400, "en-US")
        assert text.load_font.cache_info().currsize <= text.FONT_CACHE_SIZE
    renderer._label.cache_clear()
    renderer._layout.cache_clear()
    again = [renderer.label(w, 40, (0, 0, 0), 500, loc).tobytes()
             for w, loc in zip(words, locales, strict=True)]
    assert again == first


def test_an_icon_drawn_after_its_font_was_closed_is_the_same_bytes():
    icons.icon_font.cache_clear()
    icons._icon.cache_clear()
    first = [icons.icon(n, 66, (0, 0, 0), filled=f).tobytes()
             for n in ("settings", "wifi") for f in (False, True)]
    for size in range(20, 20 + 2 * icons.ICON_FONT_CACHE_SIZE):
        icons.icon("settings", size, (0, 0, 0))
        assert icons.icon_font.cache_info().currsize <= icons.ICON_FONT_CACHE_SIZE
    icons._icon.cache_clear()
    again = [icons.icon(n, 66, (0, 0, 0), filled=f).tobytes()
             for n in ("settings", "wifi") for f in (False, True)]
    assert again == first

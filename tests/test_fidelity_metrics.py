"""Sizes a vision agent compares with a real Pixel: a Settings row's height (text lines with
Android's font padding) and the navigation bar's glyphs (SystemUI's 28 dp vectors)."""

from __future__ import annotations

import re

import numpy as np

import bmoca

REAL_SETTINGS_ROW_DP = 73.0
"""A top-level Settings row (16 dp padding, a 16 sp title, a 14 sp summary, each TextView
with font padding) on a real Android 10 phone at 440 dpi and font scale 1.0."""
REAL_BACK_GLYPH_DP = (14.0, 16.6)
"""ic_sysbar_back: the triangle spans x 6-20 and y 5.7-22.3 of its 28 dp box."""


def _settings(config: str = "train_env_002"):
    """Settings' home page through the agent's own action, in a 440 dpi, font scale 1.0
    configuration."""
    env = bmoca.make("settings/turn_on_airplane_mode", config=config, observation=("xml",),
                     action="json")
    env.reset(seed=0)
    observation, *_ = env.step({"action_type": "open_app", "app_name": "Settings"})
    screen = env.unwrapped.device.screenshot()  # full size (the observation is 128 x 256)
    env.close()
    return {"xml": observation["xml"], "screen": screen}


def _top(xml: str, title: str) -> int:
    match = re.search(f'text="{re.escape(title)}"' + r'[^>]*bounds="\[\d+,(\d+)\]', xml)
    assert match, title
    return int(match.group(1))


def test_settings_rows_are_as_tall_as_on_a_real_phone():
    xml = _settings()["xml"]
    pitches = [_top(xml, b) - _top(xml, a) for a, b in (
        ("Network &amp; internet", "Connected devices"),
        ("Connected devices", "Apps &amp; notifications"))]
    density = 440 / 160
    for pitch in pitches:
        assert abs(pitch / density - REAL_SETTINGS_ROW_DP) <= 0.02 * REAL_SETTINGS_ROW_DP, pitch


def _ink_box(image: np.ndarray, box: tuple[int, int, int, int]) -> tuple[int, int]:
    left, top, right, bottom = box
    crop = image[top:bottom, left:right].astype(int).mean(axis=2)
    ys, xs = np.nonzero(np.abs(crop - np.median(crop)) > 60)
    return int(xs.max() - xs.min() + 1), int(ys.max() - ys.min() + 1)


def test_the_back_buttons_glyph_is_the_size_of_android_10s():
    image = np.asarray(_settings()["screen"])
    height, width = image.shape[:2]
    bar = 132  # 48 dp at 440 dpi; Back is the first of three buttons in the middle half
    glyph = _ink_box(image, (width // 4 - width // 8, height - bar, width // 4 + width // 8,
                             height))
    density = 440 / 160
    for measured, real in zip(glyph, REAL_BACK_GLYPH_DP, strict=True):
        assert abs(measured / density - real) <= 0.1 * real, (glyph, REAL_BACK_GLYPH_DP)

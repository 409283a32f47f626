"""Text, icon, app-icon and wallpaper primitives of the simulated phone's renderer."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from bmoca.assets import wallpapers
from bmoca.formats.apps import all_apps
from bmoca.sim.render import text as text_mod
from bmoca.sim.render.app_icons import APP_ICON_DESIGNS, app_icon
from bmoca.sim.render.icons import has_icon, icon
from bmoca.sim.render.text import (
    ELLIPSIS,
    TextRenderer,
    bidi_levels,
    first_strong_rtl,
    get_text_renderer,
    line_height,
    normalize_locale,
    visual_order,
)

BLACK = (0, 0, 0)


@pytest.fixture(scope="module")
def r() -> TextRenderer:
    return get_text_renderer()


def alpha(img: Image.Image) -> np.ndarray:
    return np.asarray(img.getchannel("A"))


def ink_center_x(img: Image.Image) -> float:
    a = alpha(img).astype(np.float64)
    cols = a.sum(axis=0)
    return float((cols * np.arange(len(cols))).sum() / cols.sum())


# --------------------------------------------------------------------------- text


def test_raqm_guard_names_the_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(text_mod.features, "check", lambda name: False)
    with pytest.raises(RuntimeError, match="libfribidi0"):
        text_mod.ensure_complex_text_layout()


@pytest.mark.parametrize(
    ("raw", "norm"),
    [
        ("zh-hans-CN", "zh-Hans-CN"),
        ("zh_Hans_CN", "zh-Hans-CN"),
        ("ur_PK", "ur-PK"),
        ("EN-us", "en-US"),
    ],
)
def test_locale_normalisation(raw: str, norm: str) -> None:
    assert normalize_locale(raw) == norm


def test_measure_grows_with_length(r: TextRenderer) -> None:
    widths = [r.measure(s, 40)[0] for s in ("S", "Set", "Settings", "Settings and more")]
    assert widths == sorted(widths) and len(set(widths)) == len(widths)
    assert all(r.measure(s, 40)[1] == line_height(40) for s in ("S", "Settings"))
    # Android's TextView pads the text to Roboto's top and bottom (includeFontPadding):
    # floor(-1.056 * 40) = -43 to ceil(0.271 * 40) = 11, not the 1.17 em of ascent + descent
    assert line_height(40) == 54
    # a second line adds ascent + descent: round(37.1) + round(9.8)
    assert line_height(40, 2) == 54 + 47 == r.measure("Settings\nand more", 40)[1]
    hi = r.measure("सेटिंग्स और नेटवर्क", 40, locale="hi-IN")
    assert hi[1] == line_height(40)  # one line: the paint's padding, for every script


def test_cjk_lines_are_taller_past_the_first(r: TextRenderer) -> None:
    """fallbackLineSpacing: a line in Noto Sans CJK is as tall as its hhea extent (1.16 +
    0.288 em) where it meets another line; a lone line keeps the paint's (Roboto's) padding."""
    zh = "\u8bbe\u7f6e\u548c\u7f51\u7edc"
    assert r.measure(zh, 40, locale="zh-Hans-CN")[1] == line_height(40)
    two = r.measure(zh + "\n" + zh, 40, locale="zh-Hans-CN")[1]
    assert two == 43 + round(0.288 * 40) + round(1.16 * 40) + 11 > line_height(40, 2)
    assert r.label(zh + "\n" + zh, 40, BLACK, locale="zh-Hans-CN", max_lines=2).height == two


def test_measure_is_cached(r: TextRenderer) -> None:
    r.measure("cache me please", 33)
    hits = r.cache_info()["layout"].hits
    r.measure("cache me please", 33)
    assert r.cache_info()["layout"].hits == hits + 1


def test_paragraph_direction_follows_the_first_strong_letter(r: TextRenderer) -> None:
    # As Android's TextView (textDirection firstStrong): a line that starts with a Latin
    # word is an LTR paragraph even in Arabic, one that starts with Arabic is RTL even in
    # English; the locale decides only for lines without letters (numbers, punctuation).
    latin_first = "WWWW \u0628\u0628\u0628\u0628\u0628\u0628"
    arabic_first = "\u0628\u0628\u0628\u0628\u0628\u0628 WWWW"
    for locale in ("ar-AE", "en-US"):
        ltr = r.label(latin_first, 40, BLACK, locale=locale)
        rtl = r.label(arabic_first, 40, BLACK, locale=locale)
        assert ink_center_x(ltr) / ltr.width < 0.47  # the wide Latin word on the left
        assert ink_center_x(rtl) / rtl.width < 0.47  # ... and on the left here too
    assert first_strong_rtl("Can you?", default=True) is False
    assert first_strong_rtl("(202) 456-1111", default=True) is True
    assert first_strong_rtl("(202) 456-1111", default=False) is False
    assert [run.rtl for run in r.layout("Can you?", 40, locale="ar-AE").runs] == [False]
    assert [run.rtl for run in r.layout("\u0628\u0628?", 40, locale="en-US").runs] == [True]
    # Text without letters takes the locale's direction unless the view forces one.
    number = "(202) 456-1111"
    in_arabic = np.asarray(r.label(number, 40, BLACK, locale="ar-AE"))
    forced = np.asarray(r.label(number, 40, BLACK, locale="ar-AE", direction="ltr"))
    assert not np.array_equal(in_arabic, forced)
    with pytest.raises(ValueError, match="direction"):
        r.label(number, 40, BLACK, direction="up")


def test_arabic_wrapped_lines_are_right_aligned(r: TextRenderer) -> None:
    text = "\u062a\u0634\u063a\u064a\u0644 \u0627\u0644\u0634\u0628\u0643\u0629 \u0627\u0644\u0644\u0627\u0633\u0644\u0643\u064a\u0629 \u0648\u0627\u0644\u0628\u0644\u0648\u062a\u0648\u062b \u0628"
    lines = r.wrap(text, 40, locale="ar-AE", max_width=300, max_lines=3)
    assert len(lines) >= 2
    img = r.label(text, 40, BLACK, locale="ar-AE", max_width=300, max_lines=3)
    lh = line_height(40)
    last = alpha(img)[(len(lines) - 1) * lh : len(lines) * lh]
    cols = np.nonzero(last.max(axis=0) > 64)[0]
    assert cols.max() >= img.width - 4  # flush right
    assert cols.min() > img.width * 0.5  # the short last line leaves the left side empty
    ltr = r.label(text, 40, BLACK, locale="ar-AE", max_width=300, max_lines=3, align="end")
    cols = np.nonzero(alpha(ltr)[(len(lines) - 1) * lh :].max(axis=0) > 64)[0]
    assert cols.min() <= 4  # "end" is the left side in RTL


def test_mixed_font_runs_follow_bidi(r: TextRenderer) -> None:
    # A CJK word inside Arabic needs two fonts; in the RTL paragraph it goes on the left.
    lay = r.layout("\u0634\u0628\u0643\u0629 \u8bbe\u7f6e", 40, locale="ar-AE")
    faces = [run.face for run in lay.runs]
    assert faces[0].startswith("cjk") and faces[-1] == "arabic"
    assert bidi_levels("\u0634\u0628 ab 12", 1) == [1, 1, 1, 2, 2, 2, 2, 2]
    assert bidi_levels("abc \u0634\u0628 ", 0) == [0, 0, 0, 0, 1, 1, 0]
    assert visual_order([1, 1, 2, 2]) == [2, 3, 1, 0]
    assert visual_order([0, 1, 1, 0]) == [0, 2, 1, 3]


def test_fallback_font_for_missing_glyphs(r: TextRenderer) -> None:
    # Noto Sans Devanagari lacks U+2011; "Wi\u2011Fi" must come from a Latin font, and
    # Latin words in non-Latin locales are drawn in Roboto, as Android's default family.
    lay = r.layout("\u0935\u093e\u0908-\u092b\u093e\u0908 Wi\u2011Fi", 40, locale="hi-IN")
    assert {run.face for run in lay.runs} == {"devanagari", "roboto"}
    lay = r.layout("\u8bbe\u7f6e Chrome", 40, locale="zh-hans-CN")
    assert [(run.text.strip(), run.face) for run in lay.runs] == [("\u8bbe\u7f6e", "cjk-sc"),
                                                                ("Chrome", "roboto")]
    lay = r.layout("\u062a\u0637\u0628\u064a\u0642 Google", 40, locale="ar-EG")
    assert {run.text.strip(): run.face for run in lay.runs} == {
        "\u062a\u0637\u0628\u064a\u0642": "arabic", "Google": "roboto"}
    # Akan keeps Noto Sans for words Roboto cannot draw whole (it lacks \u025b)
    assert [run.face for run in r.layout("Nhyehy\u025be", 40, locale="ak-GH").runs] == [
        "notosans"]


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("\u0938\u0947\u091f\u093f\u0902\u0917\u094d\u0938", "hi-IN"),
        ("\u8bbe\u7f6e", "zh-Hans-CN"),
        ("\u8a2d\u5b9a", "ja-JP"),
        ("\uc124\uc815", "ko-KR"),
        ("\u062a\u0631\u062a\u06cc\u0628\u0627\u062a", "ur_PK"),
    ],
)
def test_complex_scripts_have_ink(r: TextRenderer, text: str, locale: str) -> None:
    img = r.label(text, 40, (26, 115, 232), locale=locale)
    a = alpha(img)
    assert img.mode == "RGBA" and img.height == line_height(40)
    assert (a > 128).sum() > 100
    assert np.asarray(img)[a == 255][:, :3].tolist()[0] == [26, 115, 232]


def test_ellipsize_respects_max_width(r: TextRenderer) -> None:
    long = "Connected devices, Bluetooth, driving mode and NFC settings"
    full_w = r.measure(long, 40)[0]
    img = r.label(long, 40, BLACK, max_width=250)
    assert full_w > 250 and img.width <= 250 and img.height == line_height(40)
    (line,) = r.wrap(long, 40, max_width=250)
    assert line.endswith(ELLIPSIS) and r.measure(line, 40)[0] <= 250
    two = r.wrap(long, 40, max_width=250, max_lines=2)
    assert len(two) == 2 and two[1].endswith(ELLIPSIS) and not two[0].endswith(ELLIPSIS)
    assert all(r.measure(s, 40)[0] <= 250 for s in two)
    img2 = r.label(long, 40, BLACK, max_width=250, max_lines=2)
    assert img2.height == line_height(40, 2) and img2.width <= 250
    short = r.label("Wi\u2011Fi", 40, BLACK, max_width=250)
    assert short.width == r.measure("Wi\u2011Fi", 40)[0]  # tight, not padded to max_width
    cjk = r.wrap(
        "\u4fdd\u5b58\u6e08\u307f\u306e\u30cd\u30c3\u30c8\u30ef\u30fc\u30af\u306b\u81ea\u52d5\u7684\u306b\u63a5\u7d9a",
        40,
        locale="ja-JP",
        max_width=200,
        max_lines=2,
    )
    assert len(cjk) == 2 and all(r.measure(s, 40, locale="ja-JP")[0] <= 200 for s in cjk)


def test_label_cache_and_determinism(r: TextRenderer) -> None:
    args = ("Network & internet", 42, (32, 33, 36))
    a = r.label(*args, weight=500)
    assert r.label(*args, weight=500) is a
    assert r.label("Network & internet", 42, (32, 33, 36, 255), weight=500) is a
    fresh = TextRenderer().label(*args, weight=500)
    assert fresh is not a and fresh.tobytes() == a.tobytes()
    assert r.label(*args, weight=700).tobytes() != a.tobytes()


# --------------------------------------------------------------------------- icons


def test_icon_has_ink_of_requested_colour() -> None:
    img = icon("settings", 48, (200, 30, 40))
    assert img.size == (48, 48) and img.mode == "RGBA"
    arr = np.asarray(img)
    ink = arr[..., 3] > 0
    assert ink.sum() > 300
    assert (arr[ink][:, :3] == (200, 30, 40)).all()
    assert icon("settings", 48, (200, 30, 40)) is img
    filled = icon("settings", 48, (200, 30, 40), filled=True)
    assert (alpha(filled) > 128).sum() > (alpha(img) > 128).sum()


def test_unknown_icon_raises_keyerror() -> None:
    assert has_icon("wifi") and not has_icon("no_such_icon_xyz")
    with pytest.raises(KeyError, match="no_such_icon_xyz"):
        icon("no_such_icon_xyz", 24, BLACK)


# --------------------------------------------------------------------------- app icons


@pytest.mark.parametrize("package", [a.package for a in all_apps()])
def test_app_icons(package: str) -> None:
    assert package in APP_ICON_DESIGNS
    img = app_icon(package, 96)
    assert img.size == (96, 96) and img.mode == "RGBA"
    a = alpha(img)
    for corner in (a[:4, :4], a[:4, -4:], a[-4:, :4], a[-4:, -4:]):
        assert corner.max() == 0
    yy, xx = np.mgrid[0:96, 0:96]
    inside = np.hypot(yy - 47.5, xx - 47.5) < 38  # the visible circle is 0.9 of the box
    assert a[inside].min() == 255
    assert app_icon(package, 96) is img


def test_app_icons_are_distinct_and_fallback_exists() -> None:
    packages = [a.package for a in all_apps()]
    # The 18 home-screen apps of the configurations plus the Google app behind the search pill.
    assert len(packages) == 19 and "com.android.settings" in packages
    assert "com.google.android.googlequicksearchbox" in packages
    digests = {app_icon(p, 64).tobytes() for p in packages}
    assert len(digests) == len(packages)
    unknown = app_icon("com.example.unknown", 64)
    assert unknown.size == (64, 64) and unknown.tobytes() not in digests


# --------------------------------------------------------------------------- wallpapers


@pytest.fixture(scope="module")
def small_wallpapers() -> dict[str, bytes]:
    return {name: wallpapers.generate(name, 270, 540).tobytes() for name in wallpapers.WALLPAPERS}


def test_wallpaper_names() -> None:
    assert wallpapers.WALLPAPERS == (
        "00_default",
        "01_red",
        "02_blue",
        "03_paper",
        "04_sky",
        "05_doughnut",
        "06_bubble",
        "07_food",
        "08_colors",
        "09_rainbow",
        "10_galaxy",
        "11_pyramid",
        "12_ocean",
        "13_canyon",
    )


@pytest.mark.parametrize("name", wallpapers.WALLPAPERS)
@pytest.mark.parametrize("size", [(270, 540), (101, 203)])
def test_wallpaper_size_and_determinism(name: str, size: tuple[int, int]) -> None:
    a = wallpapers.generate(name, *size)
    b = wallpapers.generate(name, *size)
    assert a.size == size and a.mode == "RGB"
    assert a.tobytes() == b.tobytes()
    assert np.asarray(a).std() > 3  # not a flat fill


def test_wallpapers_differ(small_wallpapers: dict[str, bytes]) -> None:
    arrays = {n: np.frombuffer(b, np.uint8).astype(np.int16) for n, b in small_wallpapers.items()}
    names = list(arrays)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            assert np.abs(arrays[a] - arrays[b]).mean() > 8, (a, b)


def test_unknown_wallpaper_lists_valid_names() -> None:
    with pytest.raises(ValueError, match="00_default.*13_canyon"):
        wallpapers.generate("14_nope", 100, 200)


def test_encode_png_round_trips() -> None:
    img = wallpapers.generate("04_sky", 120, 240)
    data = wallpapers.encode_png(img)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    import io

    assert Image.open(io.BytesIO(data)).convert("RGB").tobytes() == img.tobytes()

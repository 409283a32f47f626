"""Shaped, multi-script text sprites for the simulated phone.

Why this exists: Pillow draws with one font per call and has no font fallback, while Android
labels mix scripts (Latin digits inside Arabic, "Chrome" inside a Japanese label, U+2011 in
"Wi‑Fi"). This module picks a font per word by cmap coverage, resolves bidi levels across
font runs, shapes every run with raqm (HarfBuzz + FriBiDi) and caches the finished sprites so a
full screen costs a few milliseconds.

Fonts (all OFL-1.1, installed from PyPI): Roboto for Latin/Cyrillic locales, Noto Sans for
Akan-like Latin, Noto Sans Arabic, Noto Sans Devanagari and the Noto Sans CJK collection.
"""

from __future__ import annotations

import math
import re
import threading
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache

from PIL import Image, ImageColor, ImageDraw, ImageFont, features

from bmoca.bytecache import ByteLRU
from bmoca.formats.locales import canonical
from bmoca.sim.render.fonts import font_cmap, font_face
from bmoca.sim.render.metrics import ROBOTO_EM, line_extent, line_height, stack_lines

Color = tuple[int, int, int] | tuple[int, int, int, int] | str
"""An RGB or RGBA tuple (0-255), or a CSS-like string such as ``"#1A73E8"``."""


ELLIPSIS = "\u2026"
LABEL_CACHE_BYTES = 48 << 20
"""Label sprites kept, in bytes (sprites vary 1000-fold in size: see bmoca.bytecache)."""
LAYOUT_CACHE_BYTES = 16 << 20
"""Line layouts kept, in bytes: a layout's runs grow with its text, and its key holds it."""
COVERING_CACHE_BYTES = 2 << 20
"""Face choices kept, in bytes: a word is any length (a typed 64 KB line is one word)."""
FONT_CACHE_SIZE = 8
"""FreeType faces kept open. A face is 0.2–0.5 MB (more for CJK) at every size and weight,
and one phone met 39 of them in 600 steps (a new display brings its own sizes); fonts are
only used to make labels and layouts the caches lack, and opening one again costs 0.1–0.6 ms."""
_ALIGNS = ("start", "center", "end")
_RTL_LANGS = frozenset({"ar", "ur", "fa", "he", "iw", "ps", "sd", "ug", "yi"})
_NOTO_SANS_LATIN_LANGS = frozenset({"ak", "ee", "tw", "ha", "yo", "ig", "ff", "ln", "bm", "dz"})


# --------------------------------------------------------------------------- guards, colours


def ensure_complex_text_layout() -> None:
    """Fail loudly when Pillow lacks raqm: it would silently draw unshaped, LTR Arabic."""
    if not features.check("raqm"):
        raise RuntimeError(
            "Pillow's complex text layout (libraqm) is unavailable, so Arabic/Urdu would be "
            "drawn unshaped and left-to-right and Devanagari conjuncts would break. Pillow's "
            "wheel bundles raqm and HarfBuzz but loads the system FriBiDi library "
            "(libfribidi.so.0) at run time. Fix: install it, e.g. on Debian/Ubuntu "
            "`apt-get install -y libfribidi0`, then restart Python and check "
            "`python -c \"from PIL import features; print(features.check('raqm'))\"`."
        )


def to_rgba(color: Color) -> tuple[int, int, int, int]:
    """Normalise a colour so equal colours share one cache entry."""
    if isinstance(color, str):
        color = ImageColor.getrgb(color)
    if len(color) == 3:
        r, g, b = color
        return (int(r), int(g), int(b), 255)
    if len(color) == 4:
        r, g, b, a = color
        return (int(r), int(g), int(b), int(a))
    raise ValueError(f"colour must be RGB or RGBA, got {color!r}")


def colorize(mask: Image.Image, color: Color) -> Image.Image:
    """Turn an 8-bit coverage mask into a straight-alpha RGBA sprite of one colour.

    Why not draw on RGBA directly: drawing onto a transparent RGBA canvas blends the
    anti-aliased edges towards transparent black, leaving dark fringes when composited.
    """
    r, g, b, a = to_rgba(color)
    if a != 255:
        mask = mask.point([v * a // 255 for v in range(256)])
    out = Image.new("RGBA", mask.size, (r, g, b, 0))
    out.putalpha(mask)
    return out


# --------------------------------------------------------------------------- fonts and locales


@lru_cache(maxsize=FONT_CACHE_SIZE)
def load_font(key: str, size_px: int, weight: int = 400) -> ImageFont.FreeTypeFont:
    """A FreeType font at a size and weight; variable fonts get their `wght` axis set."""
    face = font_face(key)
    size = size_px * face.scale if face.scale != 1.0 else size_px
    font = ImageFont.truetype(face.path, size, index=face.index)
    try:
        axes = font.get_variation_axes()
    except OSError:  # not a variable font (the CJK collection is Regular only)
        return font
    values = []
    for axis in axes:
        name = axis["name"].decode() if isinstance(axis["name"], bytes) else str(axis["name"])
        if name.lower() in ("weight", "wght"):
            values.append(max(axis["minimum"], min(axis["maximum"], weight)))
        else:
            values.append(axis["default"])
    font.set_variation_by_axes(values)
    return font


@cache
def _is_variable(key: str) -> bool:
    try:
        load_font(key, 16).get_variation_axes()
    except OSError:
        return False
    return True


@dataclass(frozen=True)
class LocaleInfo:
    """What text rendering needs to know about a locale."""

    tag: str  # normalised BCP-47, e.g. "zh-Hans-CN"
    language: str  # OpenType/raqm language, e.g. "ar", "zh-Hans"
    rtl: bool
    chain: tuple[str, ...]  # face keys, primary first


def normalize_locale(locale: str) -> str:
    """Canonical BCP-47 spelling; an empty tag means en-US."""
    return canonical(locale) or "en-US"


@lru_cache(maxsize=256)  # canonical tags (at most 91 bytes) to ~1 KB infos: < 0.3 MB
def locale_info(locale: str) -> LocaleInfo:
    """Primary font and fallback chain for a locale.

    The chain is: the locale's font, then Noto Sans and Roboto (so Latin words the primary
    font lacks stay in a Latin design), then the script fonts (Arabic, Devanagari, CJK) for
    characters no Latin font covers.
    """
    tag = normalize_locale(locale)
    parts = tag.split("-")
    lang = parts[0]
    script = next((p for p in parts[1:] if len(p) == 4), "")
    region = next((p for p in parts[1:] if len(p) in (2, 3) and not p.islower()), "")
    language = lang
    if lang == "zh":
        if script == "Hant" or (not script and region in ("TW", "HK", "MO")):
            cjk = "cjk-hk" if region in ("HK", "MO") else "cjk-tc"
            language = "zh-Hant"
        else:
            cjk = "cjk-sc"
            language = "zh-Hans"
        primary = cjk
    elif lang == "ja":
        primary = cjk = "cjk-ja"
    elif lang == "ko":
        primary = cjk = "cjk-ko"
    else:
        cjk = "cjk-sc"
        if lang in ("ar", "ur", "fa", "ps", "sd", "ug"):
            primary = "arabic"
        elif lang in ("hi", "mr", "ne", "sa"):
            primary = "devanagari"
        elif lang in _NOTO_SANS_LATIN_LANGS:
            primary = "notosans"
        else:
            primary = "roboto"
    chain: list[str] = []
    for key in (primary, "notosans", "roboto", "arabic", "devanagari", cjk):
        if key not in chain:
            chain.append(key)
    return LocaleInfo(tag, language, lang in _RTL_LANGS, tuple(chain))


@cache
def latin_first(chain: tuple[str, ...]) -> tuple[str, ...]:
    """The chain words are matched against: Roboto first in non-Latin locales.

    Why: Android's default family is Roboto and script fonts are its fallbacks, so "Chrome"
    in a Japanese or Arabic label, and Western digits, are drawn in Roboto, not in the Latin
    glyphs the Arabic, Devanagari or CJK font also carries. Akan keeps Noto Sans (Roboto
    lacks its letters; a word Roboto cannot draw whole falls through anyway)."""
    if chain[0] in ("roboto", "notosans"):
        return chain
    return ("roboto",) + tuple(key for key in chain if key != "roboto")


def is_rtl(locale: str) -> bool:
    """Whether the locale lays out right-to-left (mirrored screens, right-aligned text)."""
    return locale_info(locale).rtl


# --------------------------------------------------------------------------- unicode helpers


def _ignorable(ch: str) -> bool:
    """Format controls and variation selectors: never decide the font of a word."""
    cat = unicodedata.category(ch)
    return cat == "Cf" or "\ufe00" <= ch <= "\ufe0f"


def _is_mark(ch: str) -> bool:
    return unicodedata.category(ch)[0] == "M"


def cluster_boundaries(text: str) -> list[int]:
    """Offsets (1..len) where a string may be cut without splitting a shaped cluster."""
    out = []
    n = len(text)
    for i in range(1, n + 1):
        if i < n:
            cur, prev = text[i], text[i - 1]
            if (
                _is_mark(cur)
                or cur in "\u200c\u200d"
                or "\ufe00" <= cur <= "\ufe0f"
                or prev == "\u200d"
                or unicodedata.combining(prev) == 9  # virama: next consonant joins a conjunct
                or "\udc00" <= cur <= "\udfff"
            ):
                continue
        out.append(i)
    return out


def _is_cjk_breakable(ch: str) -> bool:
    """Ideographs, kana and Hangul syllables: a line may break before or after them."""
    cp = ord(ch)
    return (
        0x2E80 <= cp <= 0x9FFF
        or 0xAC00 <= cp <= 0xD7AF
        or 0xF900 <= cp <= 0xFAFF
        or 0xFF00 <= cp <= 0xFFEF
        or 0x20000 <= cp <= 0x3FFFF
    )


_NO_LINE_START = set(
    "、。，．,.!?！？:;：；)]}）」』】〕〉》〙〗〟’”ー々ゝゞぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ・…%％"
)
_NO_LINE_END = set("([{（「『【〔〈《〘〖〝‘“")


def line_break_positions(text: str) -> list[int]:
    """Offsets where a new line may start: after spaces, and around CJK characters."""
    out = []
    for i in range(1, len(text)):
        prev, cur = text[i - 1], text[i]
        if cur.isspace():
            continue
        if prev.isspace() or prev == "\u200b":
            out.append(i)
        elif (
            (_is_cjk_breakable(prev) or _is_cjk_breakable(cur))
            and cur not in _NO_LINE_START
            and prev not in _NO_LINE_END
            and not _is_mark(cur)
        ):
            out.append(i)
    return out


# --------------------------------------------------------------------------- bidi

_EXPLICIT = frozenset({"LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"})
_NEUTRAL = frozenset({"B", "S", "WS", "ON", "BN"})


def first_strong_rtl(text: str, default: bool) -> bool:
    """Paragraph direction as Android's TextView resolves it (textDirection firstStrong):
    from the first strong letter, else the layout direction of the locale."""
    for c in text:
        kind = unicodedata.bidirectional(c)
        if kind == "L":
            return False
        if kind in ("R", "AL"):
            return True
    return default


def bidi_levels(text: str, base_level: int) -> list[int]:
    """Resolved embedding level per character (UBA rules W1-W7, N1-N2, I1-I2, L1).

    Explicit embeddings/isolates are treated as neutrals; UI strings rarely carry them.
    Only needed when a line mixes fonts: single-font lines go to raqm whole.
    """
    n = len(text)
    orig = [unicodedata.bidirectional(c) or "L" for c in text]
    types = ["BN" if t in _EXPLICIT else t for t in orig]
    sos = "R" if base_level % 2 else "L"
    prev = sos
    for i, t in enumerate(types):  # W1
        if t == "NSM":
            types[i] = prev
        elif t != "BN":
            prev = t
    last = sos
    for i, t in enumerate(types):  # W2
        if t in ("L", "R", "AL"):
            last = t
        elif t == "EN" and last == "AL":
            types[i] = "AN"
    types = ["R" if t == "AL" else t for t in types]  # W3
    for i in range(1, n - 1):  # W4
        t, a, b = types[i], types[i - 1], types[i + 1]
        if t == "ES" and a == b == "EN":
            types[i] = "EN"
        elif t == "CS" and a == b and a in ("EN", "AN"):
            types[i] = a
    i = 0
    while i < n:  # W5
        if types[i] == "ET":
            j = i
            while j < n and types[j] == "ET":
                j += 1
            if (i > 0 and types[i - 1] == "EN") or (j < n and types[j] == "EN"):
                types[i:j] = ["EN"] * (j - i)
            i = j
        else:
            i += 1
    types = ["ON" if t in ("ES", "ET", "CS") else t for t in types]  # W6
    last = sos
    for i, t in enumerate(types):  # W7
        if t in ("L", "R"):
            last = t
        elif t == "EN" and last == "L":
            types[i] = "L"

    def strong(t: str) -> str:
        return "L" if t == "L" else "R"

    i = 0
    while i < n:  # N1, N2
        if types[i] in _NEUTRAL:
            j = i
            while j < n and types[j] in _NEUTRAL:
                j += 1
            before = sos if i == 0 else strong(types[i - 1])
            after = sos if j == n else strong(types[j])
            types[i:j] = [before if before == after else sos] * (j - i)
            i = j
        else:
            i += 1
    levels = []
    for t in types:  # I1, I2
        if base_level % 2 == 0:
            levels.append(base_level + (1 if t == "R" else 2 if t in ("AN", "EN") else 0))
        else:
            levels.append(base_level + (1 if t in ("L", "EN", "AN") else 0))
    j = n
    while j > 0 and (orig[j - 1] in ("WS", "S", "B", "BN") or orig[j - 1] in _EXPLICIT):
        j -= 1
        levels[j] = base_level  # L1: trailing whitespace takes the paragraph level
    return levels


def visual_order(levels: list[int]) -> list[int]:
    """Indices in display order (UBA rule L2) for items at the given levels."""
    order = list(range(len(levels)))
    odd = [lv for lv in levels if lv % 2]
    if not odd:
        return order
    for lvl in range(max(levels), min(odd) - 1, -1):
        i = 0
        while i < len(order):
            if levels[order[i]] >= lvl:
                j = i
                while j < len(order) and levels[order[j]] >= lvl:
                    j += 1
                order[i:j] = order[i:j][::-1]
                i = j
            else:
                i += 1
    return order


# --------------------------------------------------------------------------- layout


@dataclass(frozen=True)
class Run:
    """A piece of one line drawn in one call: one face, one direction."""

    text: str
    face: str
    rtl: bool
    language: str
    x: float  # left edge within the line
    width: float


@dataclass(frozen=True)
class LineLayout:
    runs: tuple[Run, ...]
    width: float
    baseline_em: float

    @property
    def faces(self) -> frozenset[str]:
        return frozenset(run.face for run in self.runs if run.text.strip())


class TextRenderer:
    """Measures and draws labels with font fallback, bidi and an LRU sprite cache."""

    def __init__(self, label_cache_bytes: int = LABEL_CACHE_BYTES) -> None:
        ensure_complex_text_layout()
        self._lock = threading.RLock()
        self._layout = ByteLRU(self._layout_uncached, LAYOUT_CACHE_BYTES)
        self._label = ByteLRU(self._label_uncached, label_cache_bytes)
        self._covering = ByteLRU(self._covering_uncached, COVERING_CACHE_BYTES)

    # ---- public API

    def line_height(self, size_px: int) -> int:
        return line_height(size_px)

    def measure(
        self, text: str, size_px: int, weight: int = 400, locale: str = "en-US",
        include_pad: bool = True,
    ) -> tuple[int, int]:
        """(advance width, height) in pixels; hard line breaks give the widest line and
        the height of all of them."""
        loc = normalize_locale(locale)
        layouts = [self._layout(line, size_px, weight, loc) for line in text.split("\n")]
        width = max(lay.width for lay in layouts)
        return math.ceil(width - 1e-6), self._stack(layouts, size_px, include_pad)[1]

    def height(self, text: str, size_px: int, weight: int = 400, locale: str = "en-US",
               max_width: int | None = None, max_lines: int = 1,
               include_pad: bool = True) -> int:
        """Height of the text as `label` wraps and draws it (a TextView's wrap_content)."""
        loc = normalize_locale(locale)
        lines = self._wrap(text, size_px, weight, loc, max_width, max_lines)
        return self._stack([self._layout(line, size_px, weight, loc) for line in lines],
                           size_px, include_pad)[1]

    def label(
        self,
        text: str,
        size_px: int,
        color: Color,
        weight: int = 400,
        locale: str = "en-US",
        max_width: int | None = None,
        max_lines: int = 1,
        align: str = "start",
        direction: str | None = None,
        include_pad: bool = True,
    ) -> Image.Image:
        """A tight RGBA sprite of the text, wrapped to `max_lines` and ellipsized with "…".

        `direction` ("ltr"/"rtl") forces the paragraph direction, as a view's
        `android:textDirection` does (phone numbers are LTR in every language); by default
        each line takes the direction of its first strong letter, else the locale's.

        The returned image is shared through the cache: treat it as read-only (`copy()` it
        before drawing on it).
        """
        if align not in _ALIGNS:
            raise ValueError(f"align must be one of {_ALIGNS}, got {align!r}")
        if direction not in (None, "ltr", "rtl"):
            raise ValueError(f"direction must be None, 'ltr' or 'rtl', got {direction!r}")
        if max_lines < 1:
            raise ValueError(f"max_lines must be >= 1, got {max_lines}")
        if size_px < 1:
            raise ValueError(f"size_px must be >= 1, got {size_px}")
        if max_width is not None:
            max_width = max(1, int(max_width))
        return self._label(
            text,
            int(size_px),
            to_rgba(color),
            int(weight),
            normalize_locale(locale),
            max_width,
            int(max_lines),
            align,
            direction,
            bool(include_pad),
        )

    def wrap(
        self,
        text: str,
        size_px: int,
        weight: int = 400,
        locale: str = "en-US",
        max_width: int | None = None,
        max_lines: int = 1,
    ) -> list[str]:
        """The lines `label` would draw (useful for accessibility text and tests)."""
        return self._wrap(text, size_px, weight, normalize_locale(locale), max_width, max_lines)

    def layout(
        self, text: str, size_px: int, weight: int = 400, locale: str = "en-US"
    ) -> LineLayout:
        """Runs of one line in display order (fonts, directions, x offsets); for debugging."""
        return self._layout(text, int(size_px), int(weight), normalize_locale(locale))

    def cache_info(self) -> dict[str, object]:
        return {"label": self._label.cache_info(), "layout": self._layout.cache_info()}

    # ---- font choice

    def _covering_uncached(self, token: str, chain: tuple[str, ...]) -> str | None:
        for key in chain:
            cmap = font_cmap(key)
            if all(ord(c) in cmap or _ignorable(c) for c in token):
                return key
        return None

    def _assign_faces(self, text: str, chain: tuple[str, ...]) -> list[str]:
        """Face per character: a whole word in the first face covering it, else per char."""
        faces: list[str | None] = [None] * len(text)
        spaces: list[tuple[int, int]] = []
        for m in re.finditer(r"\s+|\S+", text):
            start, end = m.span()
            token = m.group()
            if token.isspace():
                spaces.append((start, end))
                continue
            key = self._covering(token, chain)
            if key is not None:
                faces[start:end] = [key] * (end - start)
                continue
            prev: str | None = None
            for i in range(start, end):
                ch = text[i]
                if prev is not None and (_is_mark(ch) or _ignorable(ch)):
                    faces[i] = prev
                    continue
                prev = self._covering(ch, chain) or chain[0]
                faces[i] = prev
        for start, end in spaces:
            token = text[start:end]
            candidates = []
            if start > 0:
                candidates.append(faces[start - 1])
            if end < len(text):
                candidates.append(faces[end])
            choice = None
            for key in candidates:
                if key is not None and self._covering(token, (key,)) is not None:
                    choice = key
                    break
            faces[start:end] = [choice or self._covering(token, chain) or chain[0]] * (end - start)
        return [f or chain[0] for f in faces]

    # ---- layout

    def _layout_uncached(self, text: str, size_px: int, weight: int, loc: str,
                         direction: str | None = None) -> LineLayout:
        info = locale_info(loc)
        base_em = font_face(info.chain[0]).baseline_em
        if not text:
            return LineLayout((), 0.0, base_em)
        rtl = direction == "rtl" if direction else first_strong_rtl(text, info.rtl)
        faces = self._assign_faces(text, latin_first(info.chain))
        if all(f == faces[0] for f in faces):
            face = faces[0]
            lang = self._run_language(face, info)
            width = self._length(text, face, size_px, weight, rtl, lang)
            return LineLayout((Run(text, face, rtl, lang, 0.0, width),), width, base_em)
        levels = bidi_levels(text, 1 if rtl else 0)
        pieces: list[tuple[str, str, int]] = []
        start = 0
        for i in range(1, len(text) + 1):
            if i == len(text) or faces[i] != faces[start] or levels[i] != levels[start]:
                pieces.append((text[start:i], faces[start], levels[start]))
                start = i
        runs = []
        x = 0.0
        for idx in visual_order([p[2] for p in pieces]):
            chunk, face, level = pieces[idx]
            rtl = level % 2 == 1
            lang = self._run_language(face, info)
            width = self._length(chunk, face, size_px, weight, rtl, lang)
            runs.append(Run(chunk, face, rtl, lang, x, width))
            x += width
        return LineLayout(tuple(runs), x, base_em)

    @staticmethod
    def _stack(layouts: list[LineLayout], size_px: int, include_pad: bool = True
               ) -> tuple[list[int], int]:
        return stack_lines([line_extent(lay.faces, size_px) for lay in layouts], size_px,
                           include_pad)

    @staticmethod
    def _run_language(face: str, info: LocaleInfo) -> str:
        if face == info.chain[0]:
            return info.language
        lang = font_face(face).language
        return lang or info.language

    def _length(
        self, text: str, face: str, size_px: int, weight: int, rtl: bool, lang: str
    ) -> float:
        font = load_font(face, size_px, weight)
        with self._lock:
            return font.getlength(text, direction="rtl" if rtl else "ltr", language=lang)

    # ---- wrapping

    def _width(self, text: str, size_px: int, weight: int, loc: str) -> float:
        return self._layout(text, size_px, weight, loc).width

    def _wrap(
        self,
        text: str,
        size_px: int,
        weight: int,
        loc: str,
        max_width: int | None,
        max_lines: int,
    ) -> list[str]:
        paragraphs = text.split("\n")
        lines: list[str] = []
        for p_index, para in enumerate(paragraphs):
            rest = para
            while True:
                more_after = p_index < len(paragraphs) - 1
                if len(lines) == max_lines - 1:
                    lines.append(self._ellipsize(rest, size_px, weight, loc, max_width, more_after))
                    return lines
                if max_width is None or self._width(rest, size_px, weight, loc) <= max_width:
                    lines.append(rest)
                    break
                head, rest = self._break_line(rest, size_px, weight, loc, max_width)
                lines.append(head)
        return lines

    def _break_line(
        self, text: str, size_px: int, weight: int, loc: str, max_width: int
    ) -> tuple[str, str]:
        """Longest head that fits, cut at a word (or CJK) break, else inside the word."""

        def fits(end: int) -> bool:
            return self._width(text[:end].rstrip(), size_px, weight, loc) <= max_width

        best = self._last_fitting(line_break_positions(text), fits)
        if best is None:
            best = self._last_fitting(cluster_boundaries(text), fits)
            if best is None:  # not even one cluster fits: still make progress
                bounds = cluster_boundaries(text)
                best = bounds[0] if bounds else len(text)
        return text[:best].rstrip(), text[best:].lstrip()

    def _ellipsize(
        self, text: str, size_px: int, weight: int, loc: str, max_width: int | None, force: bool
    ) -> str:
        """Fit the last line; cut at a character boundary and end it with "…" if needed."""
        if max_width is None:
            return text.rstrip() + ELLIPSIS if force else text
        if not force and self._width(text, size_px, weight, loc) <= max_width:
            return text

        def fits(end: int) -> bool:
            cand = text[:end].rstrip() + ELLIPSIS
            return self._width(cand, size_px, weight, loc) <= max_width

        bounds = [b for b in cluster_boundaries(text) if b < len(text) or force]
        best = self._last_fitting(bounds, fits)
        return (text[:best].rstrip() if best else "") + ELLIPSIS

    @staticmethod
    def _last_fitting(positions: list[int], fits: Callable[[int], bool]) -> int | None:
        """Binary search for the last position whose prefix fits (widths grow with length)."""
        lo, hi, best = 0, len(positions) - 1, None
        while lo <= hi:
            mid = (lo + hi) // 2
            if fits(positions[mid]):
                best = positions[mid]
                lo = mid + 1
            else:
                hi = mid - 1
        return best

    # ---- drawing

    def _label_uncached(
        self,
        text: str,
        size_px: int,
        rgba: tuple[int, int, int, int],
        weight: int,
        loc: str,
        max_width: int | None,
        max_lines: int,
        align: str,
        direction: str | None = None,
        include_pad: bool = True,
    ) -> Image.Image:
        lines = self._wrap(text, size_px, weight, loc, max_width, max_lines)
        layouts = [self._layout(line, size_px, weight, loc, direction) for line in lines]
        widths = [math.ceil(lay.width - 1e-6) for lay in layouts]
        width = max(widths) if widths else 0
        if max_width is not None:
            width = min(width, max_width)
        width = max(1, width)
        extents = [line_extent(lay.faces, size_px) for lay in layouts]
        baselines, height = stack_lines(extents, size_px, include_pad)
        mask = Image.new("L", (width, max(1, height)), 0)
        draw = ImageDraw.Draw(mask)
        rtl = locale_info(loc).rtl
        for row, (lay, w) in enumerate(zip(layouts, widths, strict=True)):
            if align == "center":
                x0 = (width - w) // 2
            elif (align == "start") != rtl:  # start in LTR, or end in RTL
                x0 = 0
            else:
                x0 = width - w
            # faces drawn as stand-ins for Android's compact UI fonts sit a little higher
            baseline = baselines[row] + round(size_px * (lay.baseline_em + ROBOTO_EM[1]))
            for run in lay.runs:
                if not run.text.strip():
                    continue
                font = load_font(run.face, size_px, weight)
                stroke = 0
                if weight >= 600 and not _is_variable(run.face):
                    stroke = max(1, round(size_px / 40))  # faux bold for the Regular-only CJK
                with self._lock:
                    draw.text(
                        (x0 + run.x, baseline),
                        run.text,
                        fill=255,
                        font=font,
                        anchor="ls",
                        direction="rtl" if run.rtl else "ltr",
                        language=run.language,
                        stroke_width=stroke,
                        stroke_fill=255,
                    )
        sprite = colorize(mask, rgba)
        # the font padding: rows above the first line's ascent and below the last line's
        # descent, which hold no ink (the layout checks leave them out)
        sprite.info["font_padding"] = (
            max(0, baselines[0] + extents[0][0]) if layouts else 0,
            max(0, height - baselines[-1] - extents[-1][1]) if layouts else 0)
        return sprite


_renderer: TextRenderer | None = None
_renderer_lock = threading.Lock()


def get_text_renderer() -> TextRenderer:
    """The process-wide renderer (fonts and sprite caches are shared)."""
    global _renderer
    if _renderer is None:
        with _renderer_lock:
            if _renderer is None:
                _renderer = TextRenderer()
    return _renderer


def layout_metrics(locale: str):
    """The layout's two text callbacks for a locale, from the shared renderer: a single
    line's (width, height), and the height of text as it wraps in a width."""
    renderer = get_text_renderer()

    def measure(text: str, size: int, weight: int, pad: bool):
        return renderer.measure(text, size, weight, locale, pad)

    def text_height(text: str, size: int, weight: int, max_width: int, max_lines: int,
                    pad: bool) -> int:
        return renderer.height(text, size, weight, locale, max_width, max_lines, pad)

    return measure, text_height

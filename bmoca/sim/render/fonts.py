"""The font files behind the text renderer, and the code points each one maps.

Both are read at every cold start; finding them through `fontpkg`'s entry points and
reading the cmap tables with fontTools cost more than the rest of the first screen's text,
so the files are found from their packages' metadata and the cmaps kept in the data cache.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache


@dataclass(frozen=True)
class FontFace:
    """One face of one font file, with how to place it in Roboto's line box."""

    key: str
    path: str
    index: int
    baseline_em: float  # baseline below Roboto's ascent line, in em of size_px
    language: str | None  # OpenType language used for runs of this face in other locales
    scale: float = 1.0  # glyph size relative to size_px
    extent_em: tuple[float, float] | None = None
    """The face's own (ascent, descent) in em when it reaches past Roboto's: Android 10's
    TextView (fallbackLineSpacing, on for apps targeting P+) makes a line holding a run of
    this face as tall as the face's hhea extent; None keeps Roboto's."""


@cache
def font_face(key: str) -> FontFace:
    """Resolve a face key ("roboto", "arabic", "cjk-ja", ...) to its installed file."""
    if key.startswith("cjk-"):
        import noto_cjk_sans_otc

        index, lang = {
            "cjk-ja": (0, "ja"),
            "cjk-ko": (1, "ko"),
            "cjk-sc": (2, "zh-Hans"),
            "cjk-tc": (3, "zh-Hant"),
            "cjk-hk": (4, "zh-HK"),
        }[key]
        # Noto Sans CJK's hhea: ascender 1160, descender -288 (units per em 1000); it sits
        # on Roboto's baseline, as Minikin draws every fallback run
        return FontFace(key, str(noto_cjk_sans_otc.FONT_PATH), index, 1900 / 2048, lang,
                        extent_em=(1.16, 0.288))
    # Arabic and Devanagari ink spans more than Roboto's 1.17 em line box. Android ships
    # vertically compact "UI" builds of these fonts for that reason; we approximate them by
    # drawing slightly smaller and centring the ink, so hamzas and descenders are not clipped
    # (their lines keep Roboto's extent: the UI builds' own hhea values are not known here).
    # Noto Sans (Akan's letters) is Android's Latin fallback: hhea 1069 / -293 per 1000.
    family, baseline, lang, scale, extent = {
        "roboto": ("Roboto", 1900 / 2048, None, 1.0, None),
        "notosans": ("Noto Sans", 0.90, None, 1.0, (1.069, 0.293)),
        "arabic": ("Noto Sans Arabic", 0.83, "ar", 0.90, None),
        "devanagari": ("Noto Sans Devanagari", 0.89, "hi", 0.96, None),
    }[key]
    return FontFace(key, _family_file(family), 0, baseline, lang, scale, extent)


def _family_file(family: str) -> str:
    """`str(fontpkg.path(family))`: the family's regular file (weight 400, normal style).

    `fontpkg` finds families by reading the entry points of every installed distribution
    (a tenth of a cold start in a large environment); a family's own package,
    `fontpkg_<slug>`, lists its files in `metadata.json`, read here as `fontpkg` reads it.
    A family without such a package, or with files this does not expect, asks `fontpkg`."""
    import importlib.util
    import json
    from pathlib import Path

    slug = re.sub(r"[\s_]+", "-", family.strip().lower())
    spec = importlib.util.find_spec("fontpkg_" + slug.replace("-", "_"))
    if spec is not None and spec.origin and spec.submodule_search_locations is not None:
        root = Path(spec.origin).parent
        try:
            meta = json.loads((root / "metadata.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            meta = {}
        wght = [a for a in meta.get("axes", ()) if a.get("tag") == "wght"][:1]
        files = [f for f in meta.get("files", ()) if f.get("style", "normal") == "normal"
                 ] if meta.get("slug") == slug else []
        # fontpkg.select_file: a variable file whose wght axis spans 400, else a 400 one
        chosen = [f for f in files if f.get("variable") and wght
                  and int(wght[0]["min"]) <= 400 <= int(wght[0]["max"])]
        chosen += [f for f in files if f.get("weight") is not None and int(f["weight"]) == 400]
        if chosen:
            return str(root.joinpath(*chosen[0]["path"].split("/")))
    import fontpkg

    return str(fontpkg.path(family))


@cache
def font_cmap(key: str) -> frozenset[int]:
    """Code points a face maps (fontTools getBestCmap), computed once per face and kept in
    the data cache (`bmoca.formats.cachedir`) by the font file's name, size and time and
    the version of fontTools."""
    import marshal
    import os

    from bmoca.formats import cachedir, package_files

    face = font_face(key)
    stat = os.stat(face.path)
    entry = f"{face.path}\0{face.index}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode()
    name = entry + package_files.init_source("fontTools")  # its version, not imported
    return frozenset(marshal.loads(cachedir.cached_bytes(
        "cmap", name, lambda: marshal.dumps(tuple(sorted(_read_cmap(face)))))))


def _read_cmap(face: FontFace) -> dict[int, str]:
    from fontTools.ttLib import TTFont

    with TTFont(face.path, fontNumber=face.index, lazy=True) as tt:
        return tt.getBestCmap()


def family_file(family: str) -> str:
    """The regular file of an installed font family (apps' own faces: Wikipedia's serif)."""
    return _family_file(family)

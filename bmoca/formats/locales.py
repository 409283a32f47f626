"""Locale tags: the 15 locales of the B-MoCA configurations and BCP-47 spelling."""

from __future__ import annotations

import re
from functools import lru_cache

SUPPORTED: tuple[str, ...] = (
    "en-US", "es-US", "fr-CA", "zh-Hans-CN", "hi-IN", "ja-JP", "ru-MD", "ar-AE", "ar-EG",
    "de-DE", "ak-GH", "pt-BR", "pt-PT", "ko-KR", "ur-PK",
)


@lru_cache(maxsize=256)
def canonical(tag: str) -> str:
    """BCP-47 casing and separators: `zh-hans-CN`, `zh_Hans_CN` -> `zh-Hans-CN`; `ur_PK` -> `ur-PK`."""
    parts = [p for p in re.split(r"[-_]", str(tag).strip()) if p]
    if not parts:
        return ""
    out = [parts[0].lower()]
    for part in parts[1:]:
        if len(part) == 4 and part.isalpha():
            out.append(part.title())
        elif (len(part) == 2 and part.isalpha()) or (len(part) == 3 and part.isdigit()):
            out.append(part.upper())
        else:
            out.append(part.lower())
    return "-".join(out)


LIKELY: dict[str, str] = {"ar": "ar-EG", "pt": "pt-BR", "zh": "zh-Hans-CN"}
"""A language with several supported locales resolves as CLDR's likely subtags do (ar ->
ar-Arab-EG, pt -> pt-Latn-BR); Android picks the same one for a bare language."""


def resolve(tag: str) -> str:
    """The supported locale a tag means, as Android resolves a request: the exact locale,
    else the one locale of its language (`de` -> `de-DE`), preferring the same region
    (`zh-CN` -> `zh-Hans-CN`) and then the likely one (`pt` -> `pt-BR`).

    Raises ValueError naming the supported locales when none speaks the language."""
    wanted = canonical(tag)
    if wanted in SUPPORTED:
        return wanted
    parts = wanted.split("-")
    regions = [p for p in parts[1:] if (len(p) == 2 and p.isupper()) or p.isdigit()]
    script = next((p for p in parts[1:] if len(p) == 4 and p.isalpha()), None)
    if parts[0] == "zh" and script is None and regions:
        script = "Hant" if regions[-1] in ("TW", "HK", "MO") else "Hans"
    same_language = [s for s in SUPPORTED if s.split("-")[0] == parts[0]
                     and (script is None or len(s.split("-")) < 3 or s.split("-")[1] == script)]
    for candidate in same_language:
        if regions and candidate.split("-")[-1] == regions[-1]:
            return candidate
    if len(same_language) == 1:
        return same_language[0]
    if parts[0] in LIKELY and same_language:
        return LIKELY[parts[0]]
    raise ValueError(f"unsupported locale {tag!r}; supported: {', '.join(SUPPORTED)}")


RTL_LANGUAGES = ("ar", "ur", "fa", "he", "iw")


def is_rtl(locale: str) -> bool:
    """Whether Android lays the locale out right to left."""
    return canonical(locale).split("-")[0] in RTL_LANGUAGES


ARABIC_INDIC_DIGITS = ("ar-EG",)
"""Locales whose default numbering system (CLDR, as Android 10's ICU formats `%d`) is
Arabic-Indic; the other 14 write Latin digits."""


def native_digits(locale: str, text: str) -> str:
    """`text` with its ASCII digits as the locale's formatter writes them (`%d`, sizes)."""
    if canonical(locale) not in ARABIC_INDIC_DIGITS:
        return text
    return text.translate(str.maketrans("0123456789.", "٠١٢٣٤٥٦٧٨٩٫"))

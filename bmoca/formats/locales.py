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

"""Locale tags: the 15 locales of the B-MoCA configurations and BCP-47 spelling."""

from __future__ import annotations

import re
from functools import lru_cache

SUPPORTED: tuple[str, ...] = (
    "en-US", "es-US", "fr-CA", "zh-Hans-CN", "hi-IN", "ja-JP", "ru-MD", "ar-AE", "ar-EG",
    "de-DE", "ak-GH", "pt-BR", "pt-PT", "ko-KR", "ur-PK",
)


@lru_cache(maxsize=256)  # tags of at most 91 bytes (a property's length): under 0.1 MB
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


_SCRIPT_RANGES = (
    ("Cyrl", 0x0400, 0x052F), ("Arab", 0x0600, 0x06FF), ("Arab", 0x0750, 0x077F),
    ("Arab", 0xFB50, 0xFDFF), ("Arab", 0xFE70, 0xFEFF), ("Deva", 0x0900, 0x097F),
    ("Hang", 0x1100, 0x11FF), ("Hang", 0x3130, 0x318F), ("Hang", 0xAC00, 0xD7AF),
    ("Kana", 0x3040, 0x30FF), ("Hani", 0x3400, 0x9FFF), ("Hani", 0xF900, 0xFAFF),
)
_ROOT_ORDER = ("Latn", "Cyrl", "Arab", "Deva", "Hang", "Kana", "Hani")
_REORDER = {"ar": ("Arab",), "ur": ("Arab",), "ru": ("Cyrl",), "ko": ("Hang", "Hani"),
            "zh": ("Hani",), "ja": ("Latn", "Kana", "Hani")}
"""CLDR collation `[reorder …]` per language: these scripts sort first, the rest follow in
the root order (Latin, Cyrillic, Arabic, Devanagari, Hangul, Kana, Han)."""
_URDU_ALPHABET = "اآبپتٹثجچحخدڈذرڑزژسشصضطظعغفقکگلمنںوہھءیے"
_URDU_SAME = str.maketrans({"ك": "ک", "ه": "ہ", "ي": "ی", "ى": "ی", "أ": "ا", "إ": "ا"})


def _script(ch: str) -> str:
    cp = ord(ch)
    for name, low, high in _SCRIPT_RANGES:
        if low <= cp <= high:
            return name
    return "Latn"


_HAN_ENCODING = {"zh": "gb2312", "ja": "euc_jp"}
"""ICU's Chinese collation orders Han by pinyin and its Japanese one by JIS X 0208, whose
level-1 kanji are laid out by reading (on'yomi); GB2312's level-1 hanzi are laid out by
pinyin. So a character's code in these encodings is its rank in the locale's order."""


def _han_ranks(lang: str, text: str) -> tuple[int, ...]:
    """Per-character ranks for zh and ja: Latin and others first (by case-folded code
    point), then kana (katakana folded to hiragana), then Han in the encoding's order,
    then Han the encoding lacks (by code point)."""
    encoding = _HAN_ENCODING[lang]
    ranks = []
    for c in text:
        script = _script(c)
        if script == "Hani":
            try:
                ranks.append(0x200000 + int.from_bytes(c.encode(encoding), "big"))
            except UnicodeEncodeError:
                ranks.append(0x400000 + ord(c))
        elif script == "Kana":
            cp = ord(c)
            ranks.append(0x100000 + (cp - 0x60 if 0x30A1 <= cp <= 0x30F6 else cp))
        else:
            ranks.append(ord(c.casefold()[0]))
    return tuple(ranks)


def collation_key(locale: str, label: str) -> tuple:
    """A sort key approximating the locale's ICU collator, as Launcher3 sorts the app
    drawer: the locale's own script first (Arabic before Latin in Arabic and Urdu), kana
    folded so katakana and hiragana interleave by sound, Urdu in its own alphabet order,
    Chinese by pinyin and Japanese kanji in JIS order (`_HAN_ENCODING`). Korean hanja
    (by their hangul reading in ICU) keep code point order."""
    lang = canonical(locale).split("-")[0]
    first = _REORDER.get(lang, ())
    order = first + tuple(s for s in _ROOT_ORDER if s not in first)
    text = label.strip()
    script = _script(text[0]) if text else "Latn"
    if lang in _HAN_ENCODING:
        return (order.index(script), _han_ranks(lang, text), label)
    if script == "Kana":  # katakana -> hiragana, so "カメラ" sorts among か
        text = "".join(chr(ord(c) - 0x60) if 0x30A1 <= ord(c) <= 0x30F6 else c for c in text)
    if lang == "ur" and script == "Arab":
        folded = text.translate(_URDU_SAME)
        ranks = tuple(_URDU_ALPHABET.find(c) if c in _URDU_ALPHABET else 100 + ord(c)
                      for c in folded)
        return (order.index(script), ranks, label)
    return (order.index(script), text.casefold(), label)

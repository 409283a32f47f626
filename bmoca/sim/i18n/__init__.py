"""String resources: every visible string comes from here, translated for 15 locales.

Files are `strings/<locale>.yaml`, flat `key: text` maps; `{name}` placeholders are
filled by `Strings.get(key, name=...)`. A key missing in a locale falls back to en-US
(the test suite checks that no locale misses any key).
"""

from __future__ import annotations

from functools import cache
from importlib import resources

import yaml

from bmoca.formats.locales import SUPPORTED as LOCALES
from bmoca.formats.locales import canonical

RTL_LANGUAGES = ("ar", "ur", "fa", "he", "iw")


class UnknownLocale(ValueError):
    pass


def normalize_locale(tag: str) -> str:
    """`zh-hans-CN`, `ur_PK`, `en_us` -> the BCP-47 spelling of a supported locale."""
    locale = canonical(tag)
    if locale in LOCALES:
        return locale
    raise UnknownLocale(f"unsupported locale {tag!r}; supported: {', '.join(LOCALES)}")


def is_rtl(locale: str) -> bool:
    return locale.split("-")[0].lower() in RTL_LANGUAGES


@cache
def _table(locale: str) -> dict[str, str]:
    path = resources.files(__package__).joinpath("strings", f"{locale}.yaml")
    if not path.is_file():
        return {}
    data = yaml.safe_load(path.read_text("utf-8")) or {}
    return {str(k): str(v) for k, v in data.items()}


class Strings:
    """The string table of one locale, with en-US fallback."""

    def __init__(self, locale: str):
        self.locale = normalize_locale(locale)
        self.rtl = is_rtl(self.locale)
        self._own = _table(self.locale)
        self._base = _table("en-US")

    def get(self, key: str, **fmt) -> str:
        text = self._own.get(key)
        if text is None:
            text = self._base.get(key)
            if text is None:
                raise KeyError(f"no string resource {key!r}")
        return text.format(**fmt) if fmt else text

    __call__ = get

    def has(self, key: str) -> bool:
        return key in self._base


@cache
def strings(locale: str) -> Strings:
    return Strings(locale)


def keys() -> list[str]:
    return sorted(_table("en-US"))


def missing_keys(locale: str) -> list[str]:
    own = _table(normalize_locale(locale))
    return [k for k in keys() if k not in own]

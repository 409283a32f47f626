"""String resources: every visible string comes from here, translated for 15 locales.

Files are `strings/<locale>.yaml` (system UI, launcher, Settings) and
`strings/<app>/<locale>.yaml` (one folder per app), flat `key: text` maps; `{name}` placeholders are
filled by `Strings.get(key, name=...)`. A key missing in a locale falls back to en-US
(the test suite checks that no locale misses any key). An app folder without a locale's
file is an app that does not ship that language (the 2021 Walmart app has only English and
Spanish): Android then shows the app's default resources, and so its keys fall back to
en-US there by design.

The launcher labels of the 18 apps, `app.<package>`, are not in these files: they live in
`bmoca/formats/app_labels.yaml` (read through `bmoca.formats.apps.label_in`), where code
above the simulator can read them too.
"""

from __future__ import annotations

from functools import cache, lru_cache

from bmoca.formats import apps as app_table
from bmoca.formats import package_files, yamlload
from bmoca.formats.locales import SUPPORTED as LOCALES
from bmoca.formats.locales import canonical, is_rtl


class UnknownLocale(ValueError):
    pass


def normalize_locale(tag: str) -> str:
    """`zh-hans-CN`, `ur_PK`, `en_us` -> the BCP-47 spelling of a supported locale."""
    locale = canonical(tag)
    if locale in LOCALES:
        return locale
    raise UnknownLocale(f"unsupported locale {tag!r}; supported: {', '.join(LOCALES)}")


APP_LABEL_PREFIX = "app."
LOCALES_KEPT = 16
"""String tables kept: a locale's is at most its strings files (en-US's, the largest, about
150 KB) and the keys it was asked for (under 1,000), so under 6 MB for 16; a shell can
set any tag (`setprop persist.sys.locale`), and each was kept for good."""


@cache
def _app_label_packages() -> frozenset[str]:
    return frozenset(app.package for app in app_table.all_apps())


def _app_label_package(key: str) -> str | None:
    """The package of an `app.<package>` key whose label lives in bmoca.formats, else None."""
    if key.startswith(APP_LABEL_PREFIX):
        package = key[len(APP_LABEL_PREFIX):]
        if package in _app_label_packages():
            return package
    return None


@lru_cache(maxsize=LOCALES_KEPT + 1)
def _table(locale: str) -> dict[str, str]:
    """`strings/<locale>.yaml` merged with each app's `strings/<app>/<locale>.yaml`."""
    root = package_files.files(__package__).joinpath("strings")
    paths = [root.joinpath(f"{locale}.yaml")]
    paths += [d.joinpath(f"{locale}.yaml") for d in _app_folders()]
    table: dict[str, str] = {}
    for path in paths:
        if not path.is_file():
            continue
        data = yamlload.load(path.read_text("utf-8"), cached=True) or {}
        for key, value in data.items():
            if str(key) in table:
                raise ValueError(f"string {key!r} defined twice for {locale} ({path})")
            table[str(key)] = str(value)
    return table


class Strings:
    """The string table of one locale, with en-US fallback."""

    def __init__(self, locale: str):
        self.locale = normalize_locale(locale)
        self.rtl = is_rtl(self.locale)
        self._own = _table(self.locale)
        self._base = _table("en-US")
        self._found: dict[str, str] = {}
        """key -> its text, as looked up before: screens ask for the same few keys at
        every build (a launcher asks for each app's label)."""

    def get(self, key: str, **fmt) -> str:
        text = self._found.get(key)
        if text is None:
            package = _app_label_package(key)
            text = app_table.label_in(package, self.locale) if package else self._own.get(key)
            if text is None:
                text = self._base.get(key)
                if text is None:
                    raise KeyError(f"no string resource {key!r}")
            self._found[key] = text
        return text.format(**fmt) if fmt else text

    __call__ = get

    def has(self, key: str) -> bool:
        return key in self._base or _app_label_package(key) is not None


@lru_cache(maxsize=LOCALES_KEPT)
def strings(locale: str) -> Strings:
    return Strings(locale)


def keys() -> list[str]:
    """Every string key: the en-US table's and the `app.<package>` labels of bmoca.formats."""
    return sorted(set(_table("en-US")) | {APP_LABEL_PREFIX + p for p in _app_label_packages()})


def _app_folders() -> list:
    root = package_files.files(__package__).joinpath("strings")
    return [d for d in sorted(root.iterdir(), key=lambda d: d.name) if d.is_dir()]


def languages_of_app_strings() -> dict[str, tuple[str, ...]]:
    """App string folders that ship only some languages -> those locales."""
    partial = {}
    for folder in _app_folders():
        shipped = tuple(loc for loc in LOCALES if folder.joinpath(f"{loc}.yaml").is_file())
        if len(shipped) < len(LOCALES):
            partial[folder.name] = shipped
    return partial


def missing_keys(locale: str) -> list[str]:
    """Keys that `locale` has no text of its own for (and so falls back to en-US), leaving
    out the keys of apps that do not ship `locale` at all."""
    locale = normalize_locale(locale)
    own = dict(_table(locale))
    for folder in _app_folders():
        if not folder.joinpath(f"{locale}.yaml").is_file():
            own.update(yamlload.load(folder.joinpath("en-US.yaml").read_text("utf-8")) or {})

    def has_own(key: str) -> bool:
        package = _app_label_package(key)
        return app_table.has_label(package, locale) if package else key in own

    return [k for k in keys() if not has_own(k)]

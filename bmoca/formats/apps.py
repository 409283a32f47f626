"""The launchable apps of the B-MoCA image: labels (in every locale), packages, launcher components."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from . import package_files, yamlload
from .locales import SUPPORTED, canonical


@dataclass(frozen=True)
class AppInfo:
    label: str
    package: str
    activity: str
    uid: int
    home: bool = True
    """Whether B-MoCA's home-screen layouts may place it (False: only the drawer shows it)."""

    @property
    def component(self) -> str:
        """`pkg/.Cls` when the class starts with the package, else `pkg/full.Class`."""
        return short_component(self.package, self.activity)

    @property
    def full_component(self) -> str:
        return f"{self.package}/{self.activity}"


def short_component(package: str, cls: str) -> str:
    if cls.startswith(package + "."):
        return f"{package}/{cls[len(package):]}"
    return f"{package}/{cls}"


@cache
def all_apps() -> tuple[AppInfo, ...]:
    rows = yamlload.load(package_files.files(__package__).joinpath("apps.yaml").read_text("utf-8"),
                         cached=True)
    return tuple(AppInfo(**row) for row in rows)


def home_screen_apps() -> tuple[AppInfo, ...]:
    """The 18 B-MoCA apps: those a configuration's home screen may place."""
    return tuple(app for app in all_apps() if app.home)


def by_label(label: str) -> AppInfo:
    app = _by_lower_label().get(label.lower())
    if app is not None:
        return app
    raise KeyError(f"no app labelled {label!r}; known: {', '.join(a.label for a in all_apps())}")


@cache
def _by_lower_label() -> dict[str, AppInfo]:
    """Lower-cased label -> the first app of that label: validating the 45 presets looked
    up 900 labels, each by a scan of every app."""
    index: dict[str, AppInfo] = {}
    for app in all_apps():
        index.setdefault(app.label.lower(), app)
    return index


def by_package(package: str) -> AppInfo:
    for app in all_apps():
        if app.package == package:
            return app
    raise KeyError(f"no app with package {package!r}")


@cache
def _labels() -> dict[str, dict[str, str]]:
    data = yamlload.load(
        package_files.files(__package__).joinpath("app_labels.yaml").read_text("utf-8"), cached=True)
    return {str(pkg): {canonical(loc): str(text) for loc, text in (row or {}).items()}
            for pkg, row in (data or {}).items()}


def label_in(package: str, locale: str) -> str:
    """The launcher label of `package` in `locale` (any tag spelling); en-US where it has none."""
    row = _labels().get(package)
    if row is None:
        known = ", ".join(a.package for a in all_apps())
        raise KeyError(f"no app label for package {package!r}; known packages: {known}")
    text = row.get(canonical(locale))
    return text if text is not None else row["en-US"]


def has_label(package: str, locale: str) -> bool:
    """Whether `package` has its own label in `locale` (no en-US fallback); False if unknown."""
    return canonical(locale) in _labels().get(package, {})


@cache
def labels_of(package: str) -> frozenset[str]:
    """Every label `package` has in the supported locales (to find its icon in any language);
    kept, as experts and rows ask at every step."""
    return frozenset(label_in(package, locale) for locale in SUPPORTED)

"""The launchable apps of the B-MoCA image: labels, packages, launcher components."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources

import yaml


@dataclass(frozen=True)
class AppInfo:
    label: str
    package: str
    activity: str
    uid: int

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
    rows = yaml.safe_load(resources.files(__package__).joinpath("apps.yaml").read_text("utf-8"))
    return tuple(AppInfo(**row) for row in rows)


def by_label(label: str) -> AppInfo:
    for app in all_apps():
        if app.label.lower() == label.lower():
            return app
    raise KeyError(f"no app labelled {label!r}; known: {', '.join(a.label for a in all_apps())}")


def by_package(package: str) -> AppInfo:
    for app in all_apps():
        if app.package == package:
            return app
    raise KeyError(f"no app with package {package!r}")

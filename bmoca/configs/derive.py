"""Configurations that differ from a base in one factor, for attributing a drop in success.

A B-MoCA configuration changes six factors at once (device, density and font scale,
locale, dark theme, wallpaper, icon layout), so a failure on it cannot be pinned on one.
A derived configuration changes one: its id says how, `BASE+FACTOR=VALUE`
(`test_env_100+locale=ko-KR`), so any process - a worker, a Ray node - rebuilds it from the
id alone (`bmoca.configs.get`, where `change` and `derived` live), and `bmoca configs
derive` writes the same configurations as a YAML data file. This module builds grids of
them and names what a derived id changed.

Factors and their values:

* device=PROFILE: another device profile, at the same density option (0, 1, 2);
* density=0|1|2: the profile's density option, with its font scale;
* locale=TAG: one of the 15 supported locales;
* dark_theme=true|false;
* wallpaper=NAME: one of the 14 wallpapers;
* layout=CONFIG|stock: the home-screen icon layout of another configuration, or the
  launcher's stock layout;
* perturbation=none|light|heavy|KIND@STEP: interruptions during the episode (an incoming
  call, a heads-up, a permission dialog, ...: `bmoca.sim.system.perturbations`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from bmoca.configs import (
    FACTORS,
    SEPARATOR,
    change,
    derived,
    derived_id,
    get,
    parse_id,
)
from bmoca.device.config import DeviceConfig

__all__ = ["DEFAULT_VARIATIONS", "FACTORS", "SEPARATOR", "change", "derived", "derived_id",
           "factor_of", "one_at_a_time", "parse_id", "parse_vary", "to_yaml"]

DEFAULT_VARIATIONS: dict[str, tuple[str, ...]] = {
    "device": ("pixel_6",),
    "density": ("0", "2"),
    "locale": ("ko-KR", "ar-EG"),
    "dark_theme": ("true",),
    "wallpaper": ("10_galaxy",),
    "layout": ("test_env_104",),
    "perturbation": ("heavy",),
}
"""`bmoca eval --factors` without --vary: one or two values per factor, from the test split."""


def parse_vary(items: Sequence[str]) -> dict[str, list[str]]:
    """`["locale=ko-KR,ar-EG", "dark_theme=true"]` -> {factor: values}; checks the names."""
    out: dict[str, list[str]] = {}
    for item in items:
        factor, eq, values = item.partition("=")
        factor = factor.strip()
        if factor not in FACTORS:
            raise ValueError(f"{item!r}: unknown factor {factor!r}; valid: {', '.join(FACTORS)}")
        chosen = [v.strip() for v in values.split(",") if v.strip()]
        if not eq or not chosen:
            raise ValueError(f"{item!r}: expected FACTOR=VALUE[,VALUE...]")
        out.setdefault(factor, []).extend(v for v in chosen if v not in out.get(factor, []))
    return out


def one_at_a_time(base_ids: Sequence[str], variations: dict[str, Sequence[str]]) -> list[str]:
    """The bases and, for each base, one configuration per factor value (values equal to the
    base's own are skipped: they would not change it). Every id is checked."""
    out: list[str] = []
    for base_id in base_ids:
        base = get(base_id)
        out.append(base_id)
        for factor, values in variations.items():
            for value in values:
                config = change(base, factor, value)
                if dataclasses.replace(config, id=base.id) == base:
                    continue
                out.append(derived_id(base_id, factor, value))
    return out


def factor_of(config_id: str) -> tuple[str, str, str] | None:
    """(base, factor, value) of a one-factor derived id; None for anything else."""
    if SEPARATOR not in config_id:
        return None
    base, pairs = parse_id(config_id)
    if len(pairs) != 1:
        return None
    return base, pairs[0][0], pairs[0][1]


def to_yaml(config_ids: Sequence[str]) -> str:
    """The configurations in the `presets.yaml` format (readable by `configs.load_file`)."""
    import yaml

    rows: list[dict[str, Any]] = []
    for cid in config_ids:
        c: DeviceConfig = get(cid)
        row: dict[str, Any] = {"id": cid, "device": c.profile.name, "density": c.density,
                               "font_scale": c.font_scale, "locale": c.locale,
                               "wallpaper": c.wallpaper, "dark_theme": c.dark_theme}
        if c.split:
            row["split"] = c.split
        if c.perturbation != "none":
            row["perturbation"] = c.perturbation
        if c.home is not None:
            row["hotseat"] = dict(c.home.hotseat)
            row["workspace"] = {f"{x},{y}": label for (x, y), label in c.home.workspace.items()}
        rows.append(row)
    header = ("# Configurations derived one factor at a time (bmoca configs derive); each id\n"
              "# BASE+FACTOR=VALUE also resolves without this file.\n")
    return header + yaml.safe_dump({"configs": rows}, sort_keys=False, allow_unicode=True)

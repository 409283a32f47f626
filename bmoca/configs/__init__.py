"""Device configurations as data: the device profiles, the 45 B-MoCA presets, a generator.

The presets live in `data/presets.yaml` and the profiles in `data/devices.yaml`; users can
keep their own configurations in the same YAML format and load them with `load_file`.
Everything loaded is validated, so a typo fails at load time with the file, the config id
and the field in the message, not later as a strange screen.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from bmoca.bytecache import byte_lru
from bmoca.device.config import GENERATED_PHONE, DeviceConfig, DeviceProfile, HomeLayout
from bmoca.formats import apps, package_files, yamlload
from bmoca.formats.locales import SUPPORTED, canonical
from bmoca.sim.system import perturbations

__all__ = [
    "LOCALES", "TRAIN_LOCALES", "WALLPAPERS", "TRAIN_WALLPAPERS", "ConfigError", "profiles",
    "profile", "presets", "get", "ids", "load_file", "validate", "random_config",
    "normalize_locale", "FACTORS", "SEPARATOR", "change", "derived", "derived_id", "parse_id",
    "random_phone", "GENERATED_PHONE",
]

LOCALES = SUPPORTED
"""The 15 locales of B-MoCA (BCP-47); the simulator translates every string into each."""

TRAIN_LOCALES: tuple[str, ...] = (
    "en-US", "es-US", "fr-CA", "zh-Hans-CN", "hi-IN", "ja-JP", "ru-MD", "ar-AE", "de-DE",
    "ak-GH", "pt-BR", "pt-PT",
)

WALLPAPERS: tuple[str, ...] = (
    "00_default", "01_red", "02_blue", "03_paper", "04_sky", "05_doughnut", "06_bubble",
    "07_food", "08_colors", "09_rainbow", "10_galaxy", "11_pyramid", "12_ocean", "13_canyon",
)

TRAIN_WALLPAPERS: tuple[str, ...] = (
    "00_default", "01_red", "02_blue", "03_paper", "04_sky", "07_food", "08_colors",
    "10_galaxy", "13_canyon",
)

SPLITS = ("train", "test")
DISTRIBUTIONS = (*SPLITS, "phones")
"""What `random_<distribution>_<seed>` draws from (see `random_config`)."""
PHONE_WIDTH = 1080
PHONE_HEIGHTS = (1920, 2520)
"""A generated phone's height in px at 1080 wide: 16:9 to 7:3, portrait."""
PHONE_DENSITIES = (380, 500)
"""A generated phone's native density in dpi; its options are B-MoCA's x1, x0.75, x1.25."""
DERIVED_BYTES = 4 << 20
"""Derived configurations kept, in bytes (an id names any number of changes)."""
HOTSEAT_SLOTS = range(5)
GRID_X = range(5)
GRID_Y = range(1, 5)  # row 0 is the launcher's At-a-Glance area

_CONFIG_KEYS = {"id", "split", "device", "dpi_index", "density", "font_scale", "locale",
                "wallpaper", "dark_theme", "hotseat", "workspace", "note", "same_layout_as",
                "perturbation"}
_PROFILE_KEYS = {"name", "model", "width", "height", "density", "density_options",
                 "font_scale_options", "landscape", "used_by", "note"}


class ConfigError(ValueError):
    """Invalid configuration data; the message names the file, the config id and the field."""


def _err(source: str, cid: str, fieldname: str, message: str) -> ConfigError:
    return ConfigError(f"{source}: {cid}: {fieldname}: {message}")


# -- YAML ---------------------------------------------------------------------------


def _define_loaders() -> tuple[type, type]:
    """`_Loader`, safe YAML that accepts `[x, y]: label` keys (sequences become tuples), and
    `_FastLoader`, the same with libyaml's parser (see `bmoca.formats.yamlload`): defined
    on first use, so that reading the package's files from the data cache imports no
    PyYAML."""
    import yaml

    class _Loader(yaml.SafeLoader):
        """Safe YAML that accepts `[x, y]: label` keys (sequences become tuples)."""

    class _FastLoader(yamlload.FastSafeLoader):
        """`_Loader` with libyaml's parser (see `bmoca.formats.yamlload`)."""

    for loader in (_Loader, _FastLoader):
        loader.__module__, loader.__qualname__ = __name__, loader.__name__
        loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG,
                               _construct_mapping)
    return _Loader, _FastLoader


__getattr__ = yamlload.defined_on_first_use(globals(), ("_Loader", "_FastLoader"),
                                            _define_loaders)


def _construct_mapping(loader: Any, node: Any) -> dict[Any, Any]:
    loader.flatten_mapping(node)
    pairs = loader.construct_pairs(node, deep=True)
    return {tuple(k) if isinstance(k, list) else k: v for k, v in pairs}


def _load_yaml(text: str, source: str, cached: bool = False) -> Any:
    """`cached`: a data file of the package's (see `yamlload.load`)."""
    try:
        return yamlload.load(text, f"{__name__}:_FastLoader", f"{__name__}:_Loader",
                             cached=cached)  # SafeLoader subclasses
    except yamlload.yaml_error() as exc:
        raise ConfigError(f"{source}: not valid YAML: {exc}") from None


def _data_file(name: str) -> tuple[str, str]:
    ref = package_files.files(__package__).joinpath("data", name)
    return ref.read_text("utf-8"), str(ref)


# -- profiles -----------------------------------------------------------------------


@cache
def _profiles() -> dict[str, DeviceProfile]:
    text, source = _data_file("devices.yaml")
    rows = _load_yaml(text, source, cached=True)
    if not isinstance(rows, list):
        raise ConfigError(f"{source}: expected a list of device profiles")
    out: dict[str, DeviceProfile] = {}
    for i, row in enumerate(rows):
        name = row.get("name", f"#{i}") if isinstance(row, dict) else f"#{i}"
        if not isinstance(row, dict):
            raise _err(source, name, "profile", "expected a mapping")
        unknown = set(row) - _PROFILE_KEYS
        if unknown:
            raise _err(source, name, sorted(unknown)[0], "unknown field")
        try:
            prof = DeviceProfile(
                name=str(row["name"]), width=int(row["width"]), height=int(row["height"]),
                density=int(row["density"]),
                density_options=tuple(int(d) for d in row["density_options"]),
                font_scale_options=tuple(float(f) for f in row["font_scale_options"]),
                landscape=bool(row.get("landscape", False)), model=str(row.get("model", "")),
            )
        except KeyError as exc:
            raise _err(source, name, exc.args[0], "missing") from None
        except (TypeError, ValueError) as exc:
            raise _err(source, name, "profile", str(exc)) from None
        if len(prof.density_options) != 3 or len(prof.font_scale_options) != 3:
            raise _err(source, name, "density_options", "need exactly three options")
        if prof.landscape != (prof.width > prof.height):
            raise _err(source, name, "landscape", f"{prof.width}x{prof.height} disagrees")
        out[prof.name] = prof
    return out


def profiles() -> dict[str, DeviceProfile]:
    """All device profiles by name (pixel_3, pixel_4, pixel_4_xl, pixel_5, pixel_6, WXGA_Tablet)."""
    return dict(_profiles())


def profile(name: str) -> DeviceProfile:
    """One profile by name (case-insensitive)."""
    table = _profiles()
    if name in table:
        return table[name]
    for key, prof in table.items():
        if key.lower() == name.lower():
            return prof
    raise KeyError(f"unknown device profile {name!r}; known: {', '.join(table)}")


# -- validation ---------------------------------------------------------------------


def normalize_locale(tag: str) -> str:
    """BCP-47 casing and separators: `zh-hans-CN` -> `zh-Hans-CN`, `ur_PK` -> `ur-PK`."""
    return canonical(tag)


def _label(value: Any, source: str, cid: str, fieldname: str) -> str:
    try:
        return apps.by_label(str(value)).label
    except KeyError:
        known = ", ".join(a.label for a in apps.all_apps())
        raise _err(source, cid, fieldname, f"unknown app {value!r}; known: {known}") from None


def _int(value: Any, source: str, cid: str, fieldname: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise _err(source, cid, fieldname, f"{value!r} is not an integer")
    try:
        return int(value)
    except ValueError:
        raise _err(source, cid, fieldname, f"{value!r} is not an integer") from None


def _home(hotseat: Any, workspace: Any, source: str, cid: str) -> HomeLayout:
    if hotseat is None:
        hotseat = {}
    if workspace is None:
        workspace = {}
    if not isinstance(hotseat, Mapping):
        raise _err(source, cid, "hotseat", "expected a mapping slot -> app label")
    if not isinstance(workspace, Mapping):
        raise _err(source, cid, "workspace", "expected a mapping [x, y] -> app label")
    hot: dict[int, str] = {}
    for key, label in hotseat.items():
        slot = _int(key, source, cid, "hotseat")
        if slot not in HOTSEAT_SLOTS:
            raise _err(source, cid, "hotseat", f"slot {slot} out of range 0-4")
        hot[slot] = _label(label, source, cid, f"hotseat[{slot}]")
    work: dict[tuple[int, int], str] = {}
    for key, label in workspace.items():
        cell = key
        if isinstance(key, str):  # also accept "x,y"
            cell = tuple(p.strip() for p in key.split(","))
        if not isinstance(cell, tuple) or len(cell) != 2:
            raise _err(source, cid, "workspace", f"key {key!r} is not a cell [x, y]")
        x, y = (_int(c, source, cid, "workspace") for c in cell)
        if x not in GRID_X or y not in GRID_Y:
            raise _err(source, cid, "workspace",
                       f"cell [{x}, {y}] out of range (x 0-4, y 1-4; row 0 is At a Glance)")
        if (x, y) in work:
            raise _err(source, cid, "workspace", f"cell [{x}, {y}] given twice")
        work[(x, y)] = _label(label, source, cid, f"workspace[{x}, {y}]")
    return HomeLayout(hotseat=dict(sorted(hot.items())),
                      workspace=dict(sorted(work.items(), key=lambda kv: (kv[0][1], kv[0][0]))))


def validate(config: DeviceConfig, source: str = "<config>") -> DeviceConfig:
    """Check a configuration built in code the same way files are checked; returns it."""
    cid = config.id
    prof = config.profile
    if prof.name not in _profiles() and prof.name != GENERATED_PHONE:
        raise _err(source, cid, "device", f"unknown profile {prof.name!r}; "
                   f"known: {', '.join(_profiles())}")
    if config.density not in prof.density_options:
        raise _err(source, cid, "density", f"{config.density} is not one of {prof.name}'s "
                   f"options {list(prof.density_options)}")
    if not 0.5 <= config.font_scale <= 2.0:
        raise _err(source, cid, "font_scale", f"{config.font_scale} outside 0.5-2.0")
    if config.locale not in LOCALES:
        raise _err(source, cid, "locale", f"unsupported locale {config.locale!r}; "
                   f"supported: {', '.join(LOCALES)}")
    if config.wallpaper not in WALLPAPERS:
        raise _err(source, cid, "wallpaper", f"unknown wallpaper {config.wallpaper!r}; "
                   f"valid: {', '.join(WALLPAPERS)}")
    if config.split not in ("", *SPLITS):
        raise _err(source, cid, "split", f"{config.split!r} is not train or test")
    if config.home is not None:
        _home(config.home.hotseat, config.home.workspace, source, cid)
    return config


def _parse(row: Any, index: int, source: str) -> DeviceConfig:
    if not isinstance(row, Mapping):
        raise _err(source, f"#{index}", "config", "expected a mapping")
    cid = row.get("id")
    if not isinstance(cid, str) or not cid:
        raise _err(source, f"#{index}", "id", "missing or not a string")
    unknown = sorted(set(row) - _CONFIG_KEYS, key=str)
    if unknown:
        raise _err(source, cid, str(unknown[0]), f"unknown field; valid: {', '.join(sorted(_CONFIG_KEYS))}")
    dev = row.get("device", "pixel_3")
    try:
        prof = profile(str(dev))
    except KeyError:
        raise _err(source, cid, "device", f"unknown profile {dev!r}; "
                   f"known: {', '.join(_profiles())}") from None

    index_value = row.get("dpi_index")
    dpi_index = None
    if index_value is not None:
        dpi_index = _int(index_value, source, cid, "dpi_index")
        if dpi_index not in range(3):
            raise _err(source, cid, "dpi_index", f"{dpi_index} is not 0, 1 or 2")
    if "density" in row:
        density = _int(row["density"], source, cid, "density")
        if density not in prof.density_options:
            raise _err(source, cid, "density", f"{density} is not one of {prof.name}'s "
                       f"options {list(prof.density_options)}")
        if dpi_index is not None and density != prof.density_options[dpi_index]:
            raise _err(source, cid, "density", f"{density} disagrees with dpi_index "
                       f"{dpi_index} ({prof.density_options[dpi_index]})")
    else:
        density = prof.density_options[dpi_index or 0]
    if "font_scale" in row:
        try:
            font_scale = float(row["font_scale"])
        except (TypeError, ValueError):
            raise _err(source, cid, "font_scale", f"{row['font_scale']!r} is not a number") from None
        if dpi_index is not None and font_scale != prof.font_scale_options[dpi_index]:
            raise _err(source, cid, "font_scale", f"{font_scale} disagrees with dpi_index "
                       f"{dpi_index} ({prof.font_scale_options[dpi_index]})")
    else:
        font_scale = prof.font_scale_options[prof.density_options.index(density)]

    locale = normalize_locale(row.get("locale", "en-US"))
    if locale not in LOCALES:
        raise _err(source, cid, "locale", f"unsupported locale {row.get('locale')!r}; "
                   f"supported: {', '.join(LOCALES)}")
    dark = row.get("dark_theme", False)
    if not isinstance(dark, bool):
        raise _err(source, cid, "dark_theme", f"{dark!r} is not true or false")
    split = row.get("split", "")
    if split is None:
        split = ""
    if split not in ("", *SPLITS):
        raise _err(source, cid, "split", f"{split!r} is not train or test")
    home = None
    if "hotseat" in row or "workspace" in row:
        home = _home(row.get("hotseat"), row.get("workspace"), source, cid)
    perturbation = str(row.get("perturbation", "none"))
    try:
        perturbations.check(perturbation)
    except perturbations.PerturbationError as exc:
        raise _err(source, cid, "perturbation", str(exc)) from None
    config = DeviceConfig(id=cid, profile=prof, density=density, font_scale=font_scale,
                          locale=locale, wallpaper=str(row.get("wallpaper", "00_default")),
                          dark_theme=dark, home=home, split=split, perturbation=perturbation)
    return validate(config, source)


def _parse_document(data: Any, source: str) -> list[DeviceConfig]:
    rows = data.get("configs") if isinstance(data, Mapping) else data
    if not isinstance(rows, list):
        raise ConfigError(f"{source}: expected a list of configurations (or 'configs: [...]')")
    out: list[DeviceConfig] = []
    seen: set[str] = set()
    for i, row in enumerate(rows):
        config = _parse(row, i, source)
        if config.id in seen:
            raise _err(source, config.id, "id", "duplicate id")
        seen.add(config.id)
        out.append(config)
    return out


def load_file(path: str | Path) -> list[DeviceConfig]:
    """Configurations from a user YAML file in the `presets.yaml` format, validated."""
    path = Path(path)
    return _parse_document(_load_yaml(path.read_text("utf-8"), str(path)), str(path))


# -- presets ------------------------------------------------------------------------


@cache
def _presets() -> dict[str, DeviceConfig]:
    text, source = _data_file("presets.yaml")
    return {c.id: c for c in _parse_document(_load_yaml(text, source, cached=True), source)}


def presets() -> dict[str, DeviceConfig]:
    """The 45 B-MoCA environments by id (train_env_000..034, test_env_100..109)."""
    return dict(_presets())


def ids(split: str | None = None) -> list[str]:
    """Preset ids in file order, of one split ("train" | "test") or all (None | "all")."""
    if split in (None, "all"):
        return list(_presets())
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; use 'train', 'test', 'all' or None")
    return [cid for cid, c in _presets().items() if c.split == split]


def _id_ranges() -> str:
    groups: dict[str, list[str]] = {}
    for cid in _presets():
        groups.setdefault(cid.rstrip("0123456789"), []).append(cid)
    return ", ".join(f"{g[0]}..{g[-1]}" for g in groups.values())


_RANDOM_ID = re.compile(r"random_(train|test|phones)_(\d+)")


def get(config_id: str) -> DeviceConfig:
    """A preset by id; `random_<split>_<seed>` ids give `random_config(seed, split)`."""
    table = _presets()
    if config_id in table:
        return table[config_id]
    match = _RANDOM_ID.fullmatch(config_id)
    if match:
        return random_config(int(match.group(2)), match.group(1))
    if SEPARATOR in config_id:  # BASE+FACTOR=VALUE
        try:
            return derived(config_id)
        except ValueError as exc:
            raise KeyError(str(exc)) from None
    close = difflib.get_close_matches(config_id, list(table), n=3, cutoff=0.6)
    hint = f"did you mean {', '.join(close)}? " if close else ""
    raise KeyError(f"unknown configuration {config_id!r}; {hint}valid ids: {_id_ranges()} "
                   f"(or random_train_<seed> / random_test_<seed> / random_phones_<seed>, "
                   f"or BASE+FACTOR=VALUE)")


_RANGE = re.compile(r"(.*?)(\d+)\.\.(?:\1)?(\d+)")


def expand(spec: str) -> list[str]:
    """Comma-separated ids with ranges: `train_env_000..006` or `random_train_0..199`
    (the end may repeat the prefix). Unknown ids raise KeyError naming the valid ones."""
    chosen: list[str] = []
    for item in (part.strip() for part in spec.split(",")):
        if not item:
            continue
        match = _RANGE.fullmatch(item)
        if match:
            prefix, first, last = match.groups()
            if int(last) < int(first):
                raise ValueError(f"empty configuration range {item!r}: {last} < {first}")
            chosen += [f"{prefix}{n:0{len(first)}d}" for n in range(int(first), int(last) + 1)]
        else:
            chosen.append(item)
    for config_id in chosen:
        get(config_id)
    return chosen


# -- generator ----------------------------------------------------------------------


def _dark_frequency(split: str) -> float:
    configs = [c for c in _presets().values() if c.split == split]
    return sum(c.dark_theme for c in configs) / len(configs)


def random_phone(seed: int) -> DeviceProfile:
    """A portrait phone no preset uses, for device randomization in RL: 1080 px wide,
    `PHONE_HEIGHTS` tall (multiples of 8), a native density in `PHONE_DENSITIES`, and
    B-MoCA's three display options (native, x0.75, x1.25 with font scales 1, 1.15, 0.85).
    A continuum rather than named models, so that no test device is in it as such."""
    rng = np.random.default_rng([seed, 1])  # a stream apart from random_config's
    low, high = PHONE_HEIGHTS
    height = 8 * int(rng.integers(low // 8, high // 8 + 1))
    native = 10 * int(rng.integers(PHONE_DENSITIES[0] // 10, PHONE_DENSITIES[1] // 10 + 1))
    return DeviceProfile(GENERATED_PHONE, PHONE_WIDTH, height, native,
                         (native, round(native * 0.75), round(native * 1.25)),
                         model=f"Generated phone {PHONE_WIDTH}x{height} {native}dpi")


def random_config(seed: int, split: str = "train") -> DeviceConfig:
    """A new configuration drawn from a distribution; the same seed gives the same one.

    train: Pixel 3, the 12 train locales, the 9 train wallpapers, any density option,
    dark theme as often as in the train presets, 2-5 hotseat and 3-16 workspace apps.
    test: every profile the test presets use, all 15 locales, all 14 wallpapers, dark theme
    as often as in the test presets, 0-5 hotseat and 1-16 workspace apps (the test presets
    include near-empty home screens).
    phones: `random_train_<seed>` on a `random_phone(seed)` instead of the Pixel 3, in the
    same density option: device randomization with the training distribution's locales,
    wallpapers and home screens. It belongs to neither split (`split` is "").
    """
    if split not in DISTRIBUTIONS:
        raise ValueError(f"unknown distribution {split!r}; use {', '.join(DISTRIBUTIONS)}")
    if split == "phones":
        phone = on_profile(random_config(seed, "train"), random_phone(seed))
        return validate(dataclasses.replace(phone, id=f"random_phones_{seed}", split=""),
                        "random_config")
    rng = np.random.default_rng(seed)
    if split == "train":
        profile_names = ["pixel_3"]
        locales, wallpapers = TRAIN_LOCALES, TRAIN_WALLPAPERS
        hot_range, work_range = (2, 5), (3, 16)
    else:
        profile_names = sorted({c.profile.name for c in _presets().values() if c.split == "test"})
        locales, wallpapers = LOCALES, WALLPAPERS
        hot_range, work_range = (0, 5), (1, 16)
    prof = profile(profile_names[int(rng.integers(len(profile_names)))])
    dpi_index = int(rng.integers(3))
    locale = locales[int(rng.integers(len(locales)))]
    wallpaper = wallpapers[int(rng.integers(len(wallpapers)))]
    dark = bool(rng.random() < _dark_frequency(split))

    labels = [a.label for a in apps.home_screen_apps()]
    n_hot = int(rng.integers(hot_range[0], hot_range[1] + 1))
    n_work = int(rng.integers(work_range[0], min(work_range[1], len(labels) - n_hot) + 1))
    chosen = [labels[i] for i in rng.permutation(len(labels))[: n_hot + n_work]]
    slots = sorted(int(s) for s in rng.choice(len(HOTSEAT_SLOTS), size=n_hot, replace=False))
    cells_all = [(x, y) for y in GRID_Y for x in GRID_X]
    cells = sorted((cells_all[int(i)] for i in rng.choice(len(cells_all), size=n_work,
                                                          replace=False)),
                   key=lambda c: (c[1], c[0]))
    home = HomeLayout(hotseat=dict(zip(slots, chosen[:n_hot], strict=True)),
                      workspace=dict(zip(cells, chosen[n_hot:], strict=True)))
    config = DeviceConfig(id=f"random_{split}_{seed}", profile=prof,
                          density=prof.density_options[dpi_index],
                          font_scale=prof.font_scale_options[dpi_index], locale=locale,
                          wallpaper=wallpaper, dark_theme=dark, home=home, split=split)
    return validate(config, "random_config")


# -- one-factor derivations (bmoca.configs.derive builds grids and files on these) ------

FACTORS = ("device", "density", "locale", "dark_theme", "wallpaper", "layout", "perturbation")
SEPARATOR = "+"
"""`BASE+FACTOR=VALUE`: a configuration that differs from BASE in one factor."""


def _choices(factor: str) -> str:
    return {
        "device": ", ".join(_profiles()),
        "density": "0, 1, 2",
        "locale": ", ".join(LOCALES),
        "dark_theme": "true, false",
        "wallpaper": ", ".join(WALLPAPERS),
        "layout": "a configuration id or stock",
        "perturbation": f"none, light, heavy or KIND@STEP ({', '.join(perturbations.KINDS)})",
    }[factor]


def on_profile(config: DeviceConfig, other: DeviceProfile) -> DeviceConfig:
    """`config` on another phone in the same display option (B-MoCA's density index), so
    that only the device changes."""
    option = config.profile.density_options.index(config.density)
    return dataclasses.replace(config, profile=other, density=other.density_options[option],
                               font_scale=other.font_scale_options[option])


def change(config: DeviceConfig, factor: str, value: str) -> DeviceConfig:
    """`config` with one factor set to `value` (same id: the caller names the result)."""
    if factor not in FACTORS:
        raise ValueError(f"unknown factor {factor!r}; valid: {', '.join(FACTORS)}")
    bad = ValueError(f"{factor}={value!r} is not valid; valid: {_choices(factor)}")
    if factor == "device":
        try:
            return on_profile(config, profile(value))
        except KeyError:
            raise bad from None
    if factor == "density":
        if value not in ("0", "1", "2"):
            raise bad
        index = int(value)
        return dataclasses.replace(config, density=config.profile.density_options[index],
                                   font_scale=config.profile.font_scale_options[index])
    if factor == "locale":
        tag = normalize_locale(value)
        if tag not in LOCALES:
            raise bad
        return dataclasses.replace(config, locale=tag)
    if factor == "dark_theme":
        if value.lower() not in ("true", "false"):
            raise bad
        return dataclasses.replace(config, dark_theme=value.lower() == "true")
    if factor == "wallpaper":
        if value not in WALLPAPERS:
            raise bad
        return dataclasses.replace(config, wallpaper=value)
    if factor == "perturbation":
        try:
            return dataclasses.replace(config, perturbation=perturbations.check(value))
        except perturbations.PerturbationError:
            raise bad from None
    if value == "stock":
        return dataclasses.replace(config, home=None)
    try:
        other = get(value)
    except KeyError:
        raise bad from None
    return dataclasses.replace(config, home=other.home)


def parse_id(config_id: str) -> tuple[str, list[tuple[str, str]]]:
    """`BASE+F=V+G=W` -> (BASE, [(F, V), (G, W)])."""
    base, *changes = config_id.split(SEPARATOR)
    pairs = []
    for item in changes:
        factor, eq, value = item.partition("=")
        if not eq or not value:
            raise ValueError(f"{config_id!r}: {item!r} is not FACTOR=VALUE "
                             f"(factors: {', '.join(FACTORS)})")
        pairs.append((factor, value))
    return base, pairs


@byte_lru(DERIVED_BYTES)
def derived(config_id: str) -> DeviceConfig:
    """The configuration a derived id names, built from its base."""
    base_id, pairs = parse_id(config_id)
    config = get(base_id)
    for factor, value in pairs:
        config = change(config, factor, value)
    config = dataclasses.replace(config, id=config_id, split="")  # in neither split
    return validate(config, "derived configuration")


def derived_id(base_id: str, factor: str, value: str) -> str:
    return f"{base_id}{SEPARATOR}{factor}={value}"

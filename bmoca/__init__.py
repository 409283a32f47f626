"""bmoca: a benchmark and training ground for agents that control Android phones.

    env = bmoca.make("settings/turn_on_wifi", config="test_env_100", observation="text",
                     action="text")

Submodules (`bmoca.tasks`, `bmoca.configs`, ...) load on first use, so `import bmoca`
stays cheap; `bmoca.make` is `bmoca.env.make` itself, with its signature and help.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from bmoca.device import register_config_source

if TYPE_CHECKING:
    from bmoca.env import make

__version__ = "0.1.0"

SUBMODULES = ("agents", "cli", "configs", "demos", "device", "env", "eval", "formats", "hubs",
              "sim", "tasks", "train")


def _preset(config_id: str):
    """Configuration ids for `bmoca.device.connect`: the device layer sits below the presets,
    so the package registers them there (a preset id, or random_<split>_<seed>)."""
    from bmoca import configs

    return configs.get(config_id)


register_config_source(_preset)


def __getattr__(name: str) -> Any:
    """Lazy access: `bmoca.tasks` imports the submodule, `bmoca.make` is `bmoca.env.make`."""
    if name == "make":
        return importlib.import_module("bmoca.env").make
    if name in SUBMODULES:
        return importlib.import_module(f"bmoca.{name}")
    raise AttributeError(f"module 'bmoca' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), "make", *SUBMODULES])


__all__ = ["__version__", "make"]

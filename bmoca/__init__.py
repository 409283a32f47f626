"""bmoca: a benchmark and training ground for agents that control Android phones.

    env = bmoca.make("settings/turn_on_wifi", config="test_env_100", observation="text",
                     action="text")
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"


def make(*args: Any, **kwargs: Any):
    """`bmoca.env.make`: a gymnasium environment for one task and configuration."""
    from bmoca.env import make as _make

    return _make(*args, **kwargs)

"""The environment layer: `make`, observations and action converters."""

from __future__ import annotations

from bmoca.env.devices import DevicePool
from bmoca.env.environment import OBSERVATION_MODES, BmocaEnv, make

__all__ = ["OBSERVATION_MODES", "BmocaEnv", "DevicePool", "make"]

"""The environment layer: `make`, observations and action converters.

Importing it registers the gymnasium ids (`bmoca/<app>-<name>-v0` per task and
`bmoca/Task-v0`; see `bmoca.registration`) and lets `AsyncVectorEnv` share text
observations (`bmoca.env.vector`).
"""

from __future__ import annotations

from bmoca.env import vector as _vector  # noqa: F401  (registers FreeText shared memory)
from bmoca.env.devices import DevicePool
from bmoca.env.environment import OBSERVATION_MODES, BmocaEnv, make
from bmoca.registration import GENERIC_ID, gym_id, register_envs, task_id_of

__all__ = ["GENERIC_ID", "OBSERVATION_MODES", "BmocaEnv", "DevicePool", "gym_id", "make",
           "task_id_of"]

register_envs()

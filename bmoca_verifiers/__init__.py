"""bmoca as the verifiers taskset `bmoca-verifiers` (verifiers imports a taskset id as a
top-level module and takes the Taskset, Env and Harness classes its `__all__` exports).
The code is `bmoca.hubs.verifiers_env`."""

from bmoca.hubs.verifiers_env import BmocaChat, BmocaEnv, BmocaTaskset, load_environment

__all__ = ["BmocaChat", "BmocaEnv", "BmocaTaskset", "load_environment"]

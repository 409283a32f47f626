"""A gymnasium vector environment whose sub-environments are Ray actors.

Why: RL on phones is bound by the environments, not the learner, and one machine's
cores run out long before a learner does; on a Ray cluster each sub-environment is an
actor on whichever node has a free CPU, and a step waits on all of them in parallel.
It behaves as `gymnasium.vector.SyncVectorEnv` built from the same functions (same
observations, rewards, ends and infos for the same seeds and actions; next-step
autoreset), which its test checks.

    from functools import partial
    import bmoca
    from bmoca.env.ray_vector import RayVectorEnv

    envs = RayVectorEnv([partial(bmoca.make, "settings/turn_on_wifi", config="train",
                                 observation="pixels", action="discrete")] * 64)

Needs the `ray` extra; joins a cluster as `bmoca.cluster.connect` does (never starts one
unless this process already did).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from copy import deepcopy
from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space, concatenate, create_empty_array, iterate

from bmoca.cluster import connect


class EnvActor:
    """One sub-environment, living in a Ray actor."""

    def __init__(self, make: Callable[[], gymnasium.Env]):
        self.env = make()

    def describe(self) -> tuple[Any, Any, dict[str, Any], str | None]:
        env = self.env
        return env.observation_space, env.action_space, dict(env.metadata), env.render_mode

    def reset(self, seed: int | None, options: dict[str, Any] | None) -> tuple[Any, dict]:
        return self.env.reset(seed=seed, options=options)

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict]:
        return self.env.step(action)

    def restart(self) -> tuple[Any, float, bool, bool, dict]:
        """The next-step autoreset: a reset reported as a step with no reward."""
        observation, info = self.env.reset()
        return observation, 0.0, False, False, info

    def call(self, name: str, args: tuple, kwargs: dict[str, Any]) -> Any:
        attribute = getattr(self.env, name)
        return attribute(*args, **kwargs) if callable(attribute) else attribute

    def close(self) -> None:
        self.env.close()


class RayVectorEnv(VectorEnv):
    """`len(env_fns)` sub-environments, one Ray actor each (`num_cpus` CPUs apiece)."""

    def __init__(self, env_fns: Sequence[Callable[[], gymnasium.Env]], *,
                 address: str | None = None, num_cpus: float = 1, copy: bool = True):
        if not env_fns:
            raise ValueError("RayVectorEnv needs at least one environment function")
        self._ray = connect(address)
        remote = self._ray.remote(num_cpus=num_cpus)(EnvActor)
        self.actors = [remote.remote(fn) for fn in env_fns]
        self.num_envs = len(self.actors)
        self.copy = copy
        observation_space, action_space, metadata, render_mode = self._ray.get(
            self.actors[0].describe.remote())
        self.single_observation_space, self.single_action_space = observation_space, action_space
        self.observation_space = batch_space(observation_space, self.num_envs)
        self.action_space = batch_space(action_space, self.num_envs)
        self.metadata = {**metadata, "autoreset_mode": AutoresetMode.NEXT_STEP}
        self.render_mode = render_mode
        self._observations = create_empty_array(observation_space, self.num_envs)
        self._autoreset = np.zeros(self.num_envs, dtype=np.bool_)
        self.closed = False

    def reset(self, *, seed: int | list[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
        if len(seeds) != self.num_envs:
            raise ValueError(f"{len(seeds)} seeds for {self.num_envs} environments")
        mask = np.ones(self.num_envs, dtype=np.bool_)
        if options is not None and "reset_mask" in options:  # as SyncVectorEnv takes it
            options = dict(options)
            mask = _reset_mask(options.pop("reset_mask"), self.num_envs)
        chosen = np.flatnonzero(mask)
        results = self._ray.get([self.actors[i].reset.remote(seeds[i], options)
                                 for i in chosen])
        observations = ([None] * self.num_envs if mask.all() else
                        [deepcopy(o) for o in iterate(self.observation_space, self._observations)])
        self._autoreset[mask] = False
        infos: dict[str, Any] = {}
        for i, (observation, info) in zip(chosen, results, strict=True):
            observations[i] = observation
            infos = self._add_info(infos, info, int(i))
        self._observations = concatenate(self.single_observation_space, observations,
                                         self._observations)
        return (deepcopy(self._observations) if self.copy else self._observations), infos

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict]:
        refs = [actor.restart.remote() if self._autoreset[i] else actor.step.remote(action)
                for i, (actor, action) in enumerate(
                    zip(self.actors, iterate(self.action_space, actions), strict=True))]
        results = self._ray.get(refs)
        infos: dict[str, Any] = {}
        for i, result in enumerate(results):
            infos = self._add_info(infos, result[4], i)
        rewards = np.array([r[1] for r in results], dtype=np.float64)
        terminations = np.array([r[2] for r in results], dtype=np.bool_)
        truncations = np.array([r[3] for r in results], dtype=np.bool_)
        self._autoreset = terminations | truncations
        self._observations = concatenate(self.single_observation_space,
                                         [r[0] for r in results], self._observations)
        observations = deepcopy(self._observations) if self.copy else self._observations
        return observations, rewards, terminations, truncations, infos

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        return tuple(self._ray.get([a.call.remote(name, args, kwargs) for a in self.actors]))

    def render(self) -> tuple[Any, ...] | None:
        return self.call("render")

    def close_extras(self, **kwargs: Any) -> None:
        try:
            self._ray.get([a.close.remote() for a in self.actors])
        finally:
            for actor in self.actors:
                self._ray.kill(actor)


def _reset_mask(mask: Any, n: int) -> np.ndarray:
    """`options["reset_mask"]`, checked as `SyncVectorEnv` checks it: which sub-environments
    a reset restarts (the others keep their episodes and observations)."""
    if not isinstance(mask, np.ndarray):
        raise TypeError(f"`options['reset_mask']` must be a numpy array, got {type(mask)}")
    if mask.shape != (n,):
        raise ValueError(f"`options['reset_mask']` must have shape `({n},)`, got {mask.shape}")
    if mask.dtype != np.bool_:
        raise TypeError(f"`options['reset_mask']` must have `dtype=np.bool_`, got {mask.dtype}")
    if not mask.any():
        raise ValueError("`options['reset_mask']` must contain at least one True value")
    return mask

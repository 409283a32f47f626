"""Forking an episode: `get_state` at any step, `set_state` (or `reset(options={"state":
...})`) continues it byte for byte, in memory and through the checked bytes format."""

from __future__ import annotations

import pickle
from functools import cache

import gymnasium
import numpy as np
import pytest

import bmoca
from bmoca import configs, tasks
from bmoca.agents import ExpertAgent
from bmoca.device import DeviceError
from bmoca.env import DevicePool
from bmoca.env.fork import MAGIC, EnvState, StateError
from bmoca.registration import family_ids
from bmoca.tasks.experts.base import ExpertStuck

WIFI = "settings/turn_on_wifi"
FAST_CONFIGS = ("test_env_100", "train_env_003", "test_env_104", "train_env_021")
"""A few presets of different densities, locales, themes and home screens (every preset
in the slow test)."""
OBSERVATIONS = {"json": [("xml",), ("xml", "text"), ("xml", "pixels"), ("xml", "som")],
                "text": [("text",), ("xml", "text")],
                "discrete": [("xml",), ("pixels",), ("pixels", "text", "som")],
                "dual_gesture": [("xml",), ("pixels",), ("text",)]}


@cache
def _pools() -> tuple[DevicePool, DevicePool]:
    """Two pools: a fork is also set on another phone object than the one it came from."""
    return DevicePool(), DevicePool()


@cache
def _task_ids() -> tuple[str, ...]:
    return (*[t.id for t in tasks.all_tasks()], *sorted(family_ids()))


def _outcome(result: tuple) -> bytes:
    """A step's or reset's result as bytes: arrays by content, the rest by repr."""
    obs, *rest = result
    parts = [(k, v.dtype.str, v.shape, v.tobytes()) if isinstance(v, np.ndarray) else (k, v)
             for k, v in sorted(obs.items())]
    return pickle.dumps((parts, repr(rest)))


def _play(env, actions) -> list[bytes]:
    out = []
    for action in actions:
        try:
            out.append(_outcome(env.step(action)))
        except RuntimeError as exc:  # the episode ended: a step raises, in both runs alike
            out.append(repr(exc).encode())
            break
    return out


def _case(seed: int, config_ids=FAST_CONFIGS):
    """An environment stepped to a random moment of an episode, and the actions to continue
    with: a random task (a family's instance too), configuration, observation and action
    mode; JSON episodes take a prefix of the expert's actions to get deep into the app."""
    rng = np.random.default_rng(seed)
    task = _task_ids()[int(rng.integers(len(_task_ids())))]
    action = ("json", "discrete", "dual_gesture", "text")[int(rng.integers(4))]
    choices = OBSERVATIONS[action]
    observation = choices[int(rng.integers(len(choices)))]
    config = config_ids[int(rng.integers(len(config_ids)))]
    options = {"stop_on_success": bool(rng.random() < 0.8)}
    env = bmoca.make(task, config, device=_pools()[0], observation=observation,
                     action=action, **options)
    env.action_space.seed(seed)
    obs, _ = env.reset(seed=seed)
    expert = ExpertAgent(env.task) if action == "json" and env.task.expert else None
    if expert is not None:
        expert.reset(env.goal, seed=seed)
    experts, randoms = int(rng.integers(0, 10)), int(rng.integers(0, 4))
    for n in range(experts + randoms):
        chosen = None
        if expert is not None and n < experts:
            try:
                chosen = expert.act(obs)
            except ExpertStuck:
                expert = None
        obs, _, terminated, truncated, _ = env.step(
            env.action_space.sample() if chosen is None else chosen)
        if terminated or truncated:
            break
    continuation = [env.action_space.sample() for _ in range(int(rng.integers(1, 7)))]
    return env, continuation, (task, config, observation, action, options)


def _check_fork(seed: int, config_ids=FAST_CONFIGS) -> None:
    env, actions, spec = _case(seed, config_ids)
    state = env.get_state()
    original = _play(env, actions)
    env.set_state(state)
    assert _play(env, actions) == original, (seed, spec)
    if seed % 3 == 0:  # through the bytes format, on another environment and phone
        task, config, observation, action, options = spec
        other = bmoca.make(task, config, device=_pools()[1], observation=observation,
                           action=action, **options)
        other.reset(seed=seed + 1)
        blob = state.to_bytes()
        other.reset(options={"state": EnvState.from_bytes(blob)})
        assert _play(other, actions) == original, (seed, spec)
        assert EnvState.from_bytes(blob).to_bytes() == blob


@pytest.mark.parametrize("seed", range(60))
def test_a_fork_continues_byte_for_byte(seed):
    _check_fork(seed)


@pytest.mark.slow
def test_a_thousand_forks_across_every_configuration():
    for seed in range(1000, 2000):
        _check_fork(seed, configs.ids())


def test_reset_from_a_state_gives_its_observation_and_later_resets_are_its_own():
    env = bmoca.make("settings/turn_on_wifi", observation=("xml", "text"), action="json",
                     device=_pools()[0])
    env.reset(seed=3)
    obs, *_ = env.step('{"action_type": "open_app", "app_name": "Settings"}')
    state = env.get_state()
    obs2, info = env.reset(options={"state": state})
    assert obs2 == obs and info["steps"] == 1 and "reset_s" in info
    with pytest.raises(ValueError, match="exclude each other"):
        env.reset(options={"state": state, "config": "test_env_101"})


def test_the_success_latch_claims_and_history_come_back():
    env = bmoca.make(WIFI, observation="xml", action="json", device=_pools()[0],
                     stop_on_success=False)
    env.reset(seed=0)
    env.step('{"action_type": "answer", "text": "42"}')
    state = env.get_state()
    env.step('{"action_type": "answer", "text": "7"}')
    restored = EnvState.from_bytes(state.to_bytes())
    assert restored.claims.answer == "42" and restored.steps == 1
    env.set_state(restored)
    assert env.steps == 1 and env._claims.answer == "42"


def test_an_ended_episode_stays_ended_after_a_fork():
    env = bmoca.make(WIFI, observation="xml", action="json", device=_pools()[0])
    env.reset(seed=0)
    env.step('{"action_type": "status", "goal_status": "infeasible"}')
    state = env.get_state()
    env.reset(seed=1)
    env.set_state(state)
    with pytest.raises(RuntimeError, match="the episode has ended"):
        env.step('{"action_type": "wait"}')


def test_a_family_state_carries_its_instance():
    family = sorted(family_ids())[0]
    env = bmoca.make(family, observation="xml", action="json", device=_pools()[0])
    env.reset(seed=5)
    drawn = env.task.id
    state = env.get_state()
    env.reset(seed=6)
    assert env.task.id != drawn
    env.set_state(EnvState.from_bytes(state.to_bytes()))
    assert env.task.id == drawn and env.goal == tasks.get(drawn).goal
    # the generator is part of the state: the next reset after a fork draws the same
    # instance every time (a seed given with the state re-seeds it)
    env.reset()
    following = env.task.id
    for restore in (state, EnvState.from_bytes(state.to_bytes())):
        env.set_state(restore)
        env.reset()
        assert env.task.id == following
    env.reset(seed=99, options={"state": state})
    env.reset()
    assert env.task.id != following


def test_a_tampered_or_foreign_blob_is_refused():
    env = bmoca.make(WIFI, observation="xml", action="json", device=_pools()[0])
    env.reset(seed=0)
    blob = env.get_state().to_bytes()
    edited = bytearray(blob)
    edited[-40] ^= 1
    with pytest.raises(StateError, match="damaged: its digest does not match"):
        EnvState.from_bytes(bytes(edited))
    with pytest.raises(StateError, match="not a bmoca environment state"):
        EnvState.from_bytes(b"\x80\x04N.")
    with pytest.raises(StateError, match="this bmoca reads version 1"):
        EnvState.from_bytes(b"BMOCA-ENVSTATE 9\n" + blob[len(MAGIC):])
    # a well-formed blob whose pickle names code is refused before the name is imported
    from bmoca.sim import snapshots

    evil = snapshots.encode(pickle.dumps({"phone": b"", "x": print}), MAGIC)
    with pytest.raises(StateError, match="builtins.print, which is not phone state"):
        EnvState.from_bytes(evil)
    inner = snapshots.encode(pickle.dumps(
        {**_fields_of(blob), "phone": pickle.dumps(print)}), MAGIC)
    with pytest.raises(StateError, match="builtins.print, which is not phone state"):
        EnvState.from_bytes(inner)
    missing = {k: v for k, v in _fields_of(blob).items() if k != "steps"}
    with pytest.raises(StateError, match="lacks steps"):
        EnvState.from_bytes(snapshots.encode(pickle.dumps(missing), MAGIC))


def _fields_of(blob: bytes) -> dict:
    from bmoca.sim import snapshots

    return snapshots.decode(blob, "test", MAGIC)


def test_a_state_is_set_only_where_the_settings_and_task_match():
    pool = _pools()[0]
    env = bmoca.make(WIFI, observation="xml", action="json", device=pool)
    env.reset(seed=0)
    state = env.get_state()
    pixels = bmoca.make(WIFI, observation="pixels", action="json", device=pool)
    with pytest.raises(StateError, match=r"other settings: observation=\('xml',\)"):
        pixels.set_state(state)
    other = bmoca.make("settings/turn_off_wifi", observation="xml", action="json", device=pool)
    with pytest.raises(StateError, match="cannot be set in an environment of"):
        other.set_state(state)
    with pytest.raises(TypeError, match="takes an EnvState"):
        env.set_state(state.to_bytes())
    with pytest.raises(RuntimeError, match=r"call reset\(\) before get_state"):
        pixels.get_state()


def test_a_state_pickles_through_its_checked_bytes():
    env = bmoca.make(WIFI, observation="xml", action="json", device=_pools()[0])
    env.reset(seed=0)
    state = env.get_state()
    copy = pickle.loads(pickle.dumps(state))
    assert copy.to_bytes() == state.to_bytes()


def test_a_real_phone_cannot_fork_and_says_why():
    from bmoca.device.adb import AdbDevice

    phone = object.__new__(AdbDevice)  # not connected: forking asks the phone nothing
    with pytest.raises(DeviceError, match="AdbDevice cannot fork an episode: a real phone's "
                                          "state .* is not a value"):
        phone.fork_state()
    env = bmoca.make(WIFI, observation="xml", action="json", device="adb:emulator-5554")
    source = bmoca.make(WIFI, observation="xml", action="json", device=_pools()[0])
    source.reset(seed=0)
    with pytest.raises(DeviceError, match="device 'adb:emulator-5554' cannot fork an episode"):
        env.set_state(source.get_state())


def test_a_vector_env_starts_a_group_of_rollouts_from_one_state():
    env = bmoca.make(WIFI, observation="xml", action="discrete", device=_pools()[0])
    env.reset(seed=0)
    env.step(100)
    state = env.get_state()
    envs = gymnasium.vector.SyncVectorEnv(
        [lambda: bmoca.make(WIFI, observation="xml", action="discrete")] * 3)
    obs, infos = envs.reset(options={"state": state})
    assert list(infos["steps"]) == [1, 1, 1] and len(set(obs["xml"])) == 1
    actions = np.array([382, 383, 100])
    _, _, _, _, infos = envs.step(actions)
    assert list(infos["steps"]) == [2, 2, 2]
    # one sub-environment alone, through gymnasium's reset mask
    envs.reset(options={"state": state, "reset_mask": np.array([False, True, False])})
    assert [e.steps for e in envs.envs] == [2, 1, 2]
    states = envs.call("get_state")
    assert len(states) == 3 and states[1].steps == 1
    envs.close()


class _Call:
    """A stand-in for a Ray actor method: `.remote(...)` runs it here and now."""

    def __init__(self, method):
        self.remote = method


class _Actor:
    def __init__(self, obj):
        self._obj = obj

    def __getattr__(self, name):
        return _Call(getattr(self._obj, name))


class _LocalRay:
    """Just enough of `ray` for `RayVectorEnv`, in this process (ray is an extra)."""

    def remote(self, **_):
        return lambda cls: type("Remote", (), {"remote": staticmethod(
            lambda *args: _Actor(cls(*args)))})

    def get(self, refs):
        return refs

    def kill(self, actor):
        pass


def test_ray_vector_env_takes_states_and_a_reset_mask_as_sync_does(monkeypatch):
    from bmoca.env import ray_vector

    monkeypatch.setattr(ray_vector, "connect", lambda address: _LocalRay())
    env = bmoca.make(WIFI, observation=("xml", "pixels"), action="discrete",
                     device=_pools()[0])
    env.reset(seed=0)
    env.step(100)
    state = env.get_state()

    def make():
        return bmoca.make(WIFI, observation=("xml", "pixels"), action="discrete")

    on_ray = ray_vector.RayVectorEnv([make] * 3)
    local = gymnasium.vector.SyncVectorEnv([make] * 3)
    try:
        for envs in (on_ray, local):
            envs.reset(seed=1)
            envs.step(np.array([382, 383, 100]))
            envs.step(np.array([383, 383, 383]))
        mask = np.array([False, True, False])
        a = on_ray.reset(options={"state": state, "reset_mask": mask})
        b = local.reset(options={"state": state, "reset_mask": mask})
        assert a[0]["xml"] == b[0]["xml"] and np.array_equal(a[0]["pixels"], b[0]["pixels"])
        assert list(a[1]["_steps"]) == [False, True, False] and a[1]["steps"][1] == 1
        assert [s.steps for s in on_ray.call("get_state")] == [2, 1, 2]
        a, b = on_ray.step(np.array([383, 383, 383])), local.step(np.array([383, 383, 383]))
        assert a[0]["xml"] == b[0]["xml"] and list(a[4]["steps"]) == [3, 2, 3]
        with pytest.raises(TypeError, match="must be a numpy array"):
            on_ray.reset(options={"reset_mask": [True, False, False]})
    finally:
        on_ray.close()
        local.close()


def test_a_state_holding_an_apps_date_goes_through_the_bytes():
    """Calendar's open day is a `datetime.date` in the app's state: a plain value the
    checked format lets through (and nothing that runs code)."""
    task = "calendar/tell_who_i_meet_on_a_day@0"
    env = bmoca.make(task, observation="xml", action="json", device=_pools()[0])
    observation, _ = env.reset(seed=0)
    expert = ExpertAgent(tasks.get(task))
    expert.reset(env.goal)
    observation = env.step(expert.act(observation))[0]
    env.step(expert.act(observation))  # the day's list is open
    state = env.get_state()
    blob = state.to_bytes()
    other = bmoca.make(task, observation="xml", action="json", device=_pools()[1])
    other.reset(options={"state": EnvState.from_bytes(blob)})
    action = {"action_type": "navigate_back"}
    assert _play(env, [action]) == _play(other, [action])

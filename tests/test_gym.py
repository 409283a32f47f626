"""gymnasium integration: registered ids, `gymnasium.make`, `make_vec`, `check_env`, and
configurations drawn per reset."""

from __future__ import annotations

import subprocess
import sys
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.envs.registration import ENV_ID_RE, parse_env_id, registry
from gymnasium.utils.env_checker import check_env

import bmoca
import bmoca.env
from bmoca import configs, registration, tasks

WIFI = "settings/turn_on_wifi"
WAIT = '{"action_type": "wait"}'
OPEN_SETTINGS = '{"action_type": "open_app", "app_name": "Settings"}'


def test_every_task_has_a_valid_unique_registered_id():
    suite = [t.id for t in tasks.all_tasks()]
    assert list(registration.suite_task_ids()) == suite  # the line scan reads what the loader does
    ids = registration.gym_ids()
    assert len(ids) == len(suite)  # no two tasks share an id (id_table would have raised)
    for env_id, task_id in ids.items():
        assert ENV_ID_RE.fullmatch(env_id), env_id
        assert parse_env_id(env_id) == ("bmoca", env_id[6:-3], 0)
        assert set(env_id) <= set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                  "0123456789_-/")
        assert env_id in registry and registry[env_id].kwargs == {"task": task_id}
        assert bmoca.env.task_id_of(env_id) == task_id
    assert bmoca.env.gym_id(WIFI) == "bmoca/settings-turn_on_wifi-v0"
    assert bmoca.env.gym_id("clock/create_alarm_at_06:30_am") == \
        "bmoca/clock-create_alarm_at_06_30_am-v0"
    assert bmoca.env.gym_id("calculator/input_'10!÷(2!x8!)'_in_Calculator") == \
        "bmoca/calculator-input_10_2_x8_in_Calculator-v0"
    assert bmoca.env.GENERIC_ID in registry


def test_a_collision_is_an_error_naming_both_tasks():
    with pytest.raises(ValueError, match=r"'a/b:c' and 'a/b c' both map to .*bmoca/a-b_c-v0"):
        registration.id_table(["a/b:c", "a/b c"])
    with pytest.raises(KeyError, match="not a bmoca gymnasium id"):
        bmoca.env.task_id_of("bmoca/no_such_task-v0")


def test_registration_imports_no_task_and_import_bmoca_no_gymnasium():
    code = ("import sys, bmoca; assert 'gymnasium' not in sys.modules; "
            "from bmoca import registration; registration.register_envs(); "
            "import gymnasium; assert 'bmoca/settings-turn_on_wifi-v0' in gymnasium.registry; "
            "assert not {'bmoca.tasks', 'bmoca.env'} & set(sys.modules), sorted(sys.modules)")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def _check_without_warnings(env) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env)


def test_gymnasium_make_by_task_id_and_generic_id_pass_check_env_without_warnings():
    env = gymnasium.make(bmoca.env.gym_id(WIFI), observation=("pixels", "text"), action="json")
    assert env.spec.id == "bmoca/settings-turn_on_wifi-v0"
    assert env.unwrapped.task.id == WIFI
    _check_without_warnings(env.unwrapped)
    env.close()
    generic = gymnasium.make("bmoca/Task-v0", task="settings/turn_off_wifi", action="discrete",
                             config="test_env_101")
    observation, info = generic.reset(seed=0)
    assert info["task_id"] == "settings/turn_off_wifi" and info["config_id"] == "test_env_101"
    assert observation["pixels"].shape == (256, 128, 3)
    _check_without_warnings(generic.unwrapped)
    generic.close()


def test_bmoca_make_gives_a_spec_that_rebuilds_the_environment():
    env = bmoca.make(WIFI, "test_env_102", observation=("xml",), action="text",
                     pixels_size=(64, 128))
    assert env.spec.id == "bmoca/settings-turn_on_wifi-v0"
    assert env.spec.kwargs == {"task": WIFI, "config": "test_env_102", "observation": ("xml",),
                               "action": "text", "pixels_size": (64, 128)}
    assert env.metadata["render_fps"] > 0
    _check_without_warnings(env)
    again = gymnasium.make(env.spec)
    assert again.unwrapped.config.id == "test_env_102" and again.unwrapped.modes == ("xml",)
    again.close()
    env.close()
    own = tasks.load_file(tasks.get(WIFI).source)[1]  # a Task object not from the suite
    assert own.id == WIFI and own is not tasks.get(WIFI)
    spec = bmoca.make(own).spec
    assert spec.id == "bmoca/Task-v0" and spec.kwargs["task"] is own


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("observation", ["pixels", "text"])
def test_make_vec_in_both_modes_with_pixels_and_text(mode, observation):
    envs = gymnasium.make_vec(bmoca.env.gym_id(WIFI), num_envs=2, vectorization_mode=mode,
                              observation=observation, action="json", config="test_env_100")
    try:
        first, info = envs.reset(seed=0)
        assert list(info["config_id"]) == ["test_env_100", "test_env_100"]
        after, reward, terminated, truncated, info = envs.step([WAIT, OPEN_SETTINGS])
        assert reward.tolist() == [0.0, 0.0] and not terminated.any() and not truncated.any()
        if observation == "pixels":
            assert first["pixels"].shape == (2, 256, 128, 3) and first["pixels"].dtype == np.uint8
            assert np.array_equal(after["pixels"][0], first["pixels"][0])
            assert not np.array_equal(after["pixels"][1], first["pixels"][1])
        else:
            assert isinstance(first["text"], tuple) and len(first["text"]) == 2
            assert all(isinstance(t, str) and "numeric_tag" in t for t in after["text"])
            assert after["text"][0] == first["text"][0]
            assert after["text"][1] != first["text"][1]  # the observation follows the phone
            assert "settings" in after["text"][1].lower()
    finally:
        envs.close()


def test_async_vector_env_shares_text_observations_in_memory():
    """The default `shared_memory=True`: texts come back through shared memory, and a
    string that does not fit its slot is refused rather than cut."""
    from gymnasium.vector.utils import (
        create_shared_memory,
        read_from_shared_memory,
        write_to_shared_memory,
    )

    from bmoca.env.actions import FreeText

    space = FreeText(max_length=4)
    memory = create_shared_memory(space, n=2)
    view = read_from_shared_memory(space, memory, n=2)
    write_to_shared_memory(space, 1, "añb€", memory)
    assert tuple(view) == ("", "añb€")
    write_to_shared_memory(space, 0, "ok", memory)
    assert view[0] == "ok" and view[-1] == "añb€" and len(view) == 2
    with pytest.raises(ValueError, match="does not fit"):
        write_to_shared_memory(space, 0, "€" * 6, memory)


def test_configurations_drawn_per_reset_from_a_split_seeded():
    env = bmoca.make(WIFI, config="train", observation="xml", action="json")
    drawn = []
    for seed in range(6):
        _, info = env.reset(seed=seed)
        drawn.append(info["config_id"])
    train = set(configs.ids("train"))
    assert set(drawn) <= train and len(set(drawn)) > 1
    assert [env.reset(seed=seed)[1]["config_id"] for seed in range(6)] == drawn  # seeded
    unseeded = [env.reset()[1]["config_id"] for _ in range(6)]
    assert set(unseeded) <= train
    _, info = env.reset(options={"config": "test_env_104"})  # one reset's override
    assert info["config_id"] == "test_env_104"
    env.close()


def test_configurations_from_a_list_a_range_or_fixed():
    listed = bmoca.make(WIFI, config=["test_env_100", "test_env_109"], observation="xml",
                        action="json")
    seen = {listed.reset(seed=s)[1]["config_id"] for s in range(8)}
    assert seen == {"test_env_100", "test_env_109"}
    ranged = bmoca.make(WIFI, config="train_env_000..001", observation="xml", action="json")
    assert {ranged.reset(seed=s)[1]["config_id"] for s in range(8)} == {
        "train_env_000", "train_env_001"}
    fixed = bmoca.make(WIFI, config="train_env_003", observation="xml", action="json")
    assert {fixed.reset(seed=s)[1]["config_id"] for s in range(4)} == {"train_env_003"}
    for env in (listed, ranged, fixed):
        env.close()
    with pytest.raises(ValueError, match="empty list"):
        bmoca.make(WIFI, config=[])
    with pytest.raises(KeyError, match="unknown configuration"):
        bmoca.make(WIFI, config="trian")

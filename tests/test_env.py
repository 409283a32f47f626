"""The gymnasium environment, driven through `bmoca.make` like a user would."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import bmoca
import bmoca.configs
from bmoca import tasks
from bmoca.agents import ExpertAgent, RandomAgent

WIFI = "settings/turn_on_wifi"


def play(env, agent, seed):
    observation, info = env.reset(seed=seed)
    agent.reset(env.goal, seed=seed)
    trace = [observation]
    while True:
        observation, reward, terminated, truncated, info = env.step(agent.act(observation))
        trace.append((observation, reward, terminated, truncated, info))
        if terminated or truncated:
            return trace


@pytest.mark.parametrize("action", ["dual_gesture", "discrete", "text", "json"])
def test_passes_gymnasium_env_checker(pool, action):
    env = bmoca.make(WIFI, "test_env_100", device=pool,
                     observation=("pixels", "xml", "text", "som"), action=action)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning either (spec, render_fps, spaces)
        check_env(env, skip_render_check=True)


def test_observation_modes_have_their_shapes(pool):
    env = bmoca.make(WIFI, "test_env_101", device=pool, observation=("pixels", "som", "text", "xml"),
                     action="text", pixels_size=(64, 128), som_size=(128, 256))
    obs, info = env.reset(seed=0)
    assert obs["pixels"].shape == (128, 64, 3) and obs["pixels"].dtype == np.uint8
    assert obs["som"].shape == (256, 128, 3)
    assert obs["xml"].startswith("<?xml")
    assert obs["text"].startswith("[{'numeric_tag': 0, 'resource_id':")
    assert info["goal"] == "Goal: turn on wifi" and info["config_id"] == "test_env_101"
    assert env.observation_space.contains(obs)


def test_expert_solves_with_reward_and_termination(pool):
    env = bmoca.make(WIFI, "test_env_100", device=pool, observation="xml", action="json")
    trace = play(env, ExpertAgent(tasks.get(WIFI)), seed=3)
    *_, (obs, reward, terminated, truncated, info) = trace
    assert (reward, terminated, truncated) == (1.0, True, False)
    assert info["success"] and info["steps"] == len(trace) - 1
    assert info["detector"] == ["shell[settings get global wifi_on] equals 1: 1"]
    assert env.device.shell("settings get global wifi_on")[0].strip() == "1"


@pytest.mark.parametrize("config_id", ["random_phones_0", "random_phones_3"])
def test_expert_plays_on_generated_phones(pool, config_id):
    """The screen follows the generated phone's size and density, and the expert's taps,
    sent through env.step, still land (device randomization for RL)."""
    env = bmoca.make("settings/toggle_dark_theme_in_setting", config_id, device=pool,
                     observation=("pixels", "xml"), action="json",
                     pixels_size=(64, 128))
    trace = play(env, ExpertAgent(tasks.get("settings/toggle_dark_theme_in_setting")), seed=1)
    *_, (obs, reward, terminated, truncated, info) = trace
    assert (reward, terminated) == (1.0, True) and info["config_id"] == config_id
    phone = bmoca.configs.get(config_id).profile
    assert f'bounds="[0,0][{phone.width},{phone.height}]"' in trace[0]["xml"]


def test_malformed_action_is_a_step_that_changes_nothing(pool):
    env = bmoca.make(WIFI, "test_env_100", device=pool, observation="xml", action="text")
    obs, _ = env.reset(seed=0)
    before = env.device.dump_hierarchy()
    obs2, reward, terminated, truncated, info = env.step("Thought: hmm\nAction: fly()")
    assert info["steps"] == 1 and info["invalid_actions"] == 1
    assert "InvalidAction" in info["action_error"]
    assert obs2 == obs and env.device.dump_hierarchy() == before
    assert (reward, terminated, truncated) == (0.0, False, False)


def test_truncated_at_the_step_limit(pool):
    env = bmoca.make(WIFI, "test_env_100", device=pool, observation="xml", action="json")
    env.reset(seed=0)
    for step in range(1, env.step_limit + 1):
        _, reward, terminated, truncated, info = env.step({"action_type": "wait"})
        assert truncated == (step == env.step_limit) and not terminated and reward == 0.0
    assert info["steps"] == tasks.get(WIFI).step_limit == 6


def test_reset_restores_the_configuration_and_runs_the_setup(pool):
    env = bmoca.make(WIFI, "test_env_100", device=pool, observation="xml", action="json")
    env.reset(seed=0)
    env.device.shell("svc wifi enable")
    env.device.shell("settings put system font_scale 1.3")
    env.reset(seed=0)
    assert env.device.shell("settings get global wifi_on")[0].strip() == "0"
    assert env.device.shell("settings get system font_scale")[0].strip() != "1.3"
    _, info = env.reset(options={"config": "test_env_109"})
    tablet = bmoca.configs.get("test_env_109").profile
    assert info["config_id"] == "test_env_109"
    assert env.device.screen_size() == (tablet.width, tablet.height) != (1080, 2160)


def test_same_seed_same_episode_byte_for_byte():
    """Two fresh environments (fresh phones) and a seeded random agent: identical pixels,
    hierarchies, rewards and infos at every step."""
    runs = []
    for _ in range(2):
        env = bmoca.make("settings/turn_on_airplane_mode", "test_env_105",
                         observation=("pixels", "xml", "text"), action="discrete")
        runs.append(play(env, RandomAgent("discrete"), seed=1234))
        env.close()
    first, second = runs
    assert len(first) == len(second)
    assert first[0]["pixels"].tobytes() == second[0]["pixels"].tobytes()
    for (o1, *rest1), (o2, *rest2) in zip(first[1:], second[1:], strict=True):
        assert o1["pixels"].tobytes() == o2["pixels"].tobytes()
        assert o1["xml"] == o2["xml"] and o1["text"] == o2["text"]
        assert rest1 == rest2


def test_open_app_action_by_label_in_any_language(pool):
    env = bmoca.make("settings/open_the_setting_app", "train_env_001", device=pool,
                     observation="xml", action="json")
    env.reset(seed=0)
    _, _, _, _, info = env.step({"action_type": "open_app", "app_name": "Nonexistent"})
    assert "no installed app" in info["action_error"]
    _, reward, terminated, _, info = env.step({"action_type": "open_app", "app_name": "Einstellungen"})
    assert reward == 1.0 and terminated


def test_status_ends_the_episode_without_success(pool):
    env = bmoca.make(WIFI, "test_env_100", device=pool, observation="xml", action="json")
    env.reset(seed=0)
    _, reward, terminated, truncated, info = env.step(
        {"action_type": "status", "goal_status": "complete"})
    assert terminated and not truncated and reward == 0.0 and not info["success"]


def test_unknown_names_are_clear_errors():
    with pytest.raises(tasks.TaskError, match="unknown task id"):
        bmoca.make("settings/turn_on_wifii")
    with pytest.raises(ValueError, match="observation mode"):
        bmoca.make(WIFI, observation="smell")
    with pytest.raises(ValueError, match="dual_gesture"):
        bmoca.make(WIFI, action="telepathy")
    with pytest.raises(KeyError, match="nope"):
        bmoca.make(WIFI, config="nope")


@pytest.mark.parametrize("config", ["test_env_100", "test_env_109"])  # en-US phone, ar-EG tablet
def test_text_press_actions_hit_the_navigation_bar_in_ltr_and_rtl(pool, config):
    env = bmoca.make(WIFI, config, device=pool, observation="xml", action="text")
    env.reset(seed=0)
    env.device.shell("am start -n com.android.settings/.Settings")
    obs, *_ = env.step('Action: swipe("down")')
    assert 'package="com.android.settings"' in obs["xml"]
    obs, *_ = env.step('Action: press("BACK")')
    assert 'package="com.google.android.apps.nexuslauncher"' in obs["xml"]
    obs, *_ = env.step("Action: press('OVERVIEW')")
    assert "overview_panel" in obs["xml"]


def test_steps_after_the_end_are_an_error_until_reset(pool):
    env = bmoca.make(WIFI, "test_env_100", device=pool, observation="xml", action="json")
    play(env, ExpertAgent(tasks.get(WIFI)), seed=0)           # terminated by success
    with pytest.raises(RuntimeError, match=r"ended \(terminated.*call reset\(\)"):
        env.step({"action_type": "wait"})
    env.reset(seed=0)
    for _ in range(env.step_limit):
        env.step({"action_type": "wait"})
    with pytest.raises(RuntimeError, match=r"ended \(truncated"):
        env.step({"action_type": "wait"})
    env.reset(seed=0)
    assert env.step({"action_type": "wait"})[4]["steps"] == 1


def test_evaluate_reports_success_without_a_step(pool):
    env = bmoca.make(WIFI, "test_env_100", device=pool, observation="xml", action="json")
    with pytest.raises(RuntimeError, match="reset"):
        env.evaluate()
    env.reset(seed=0)
    assert env.evaluate() is False
    env.device.shell("svc wifi enable")                       # done behind the agent's back
    assert env.evaluate() is True and env.steps == 0


@pytest.mark.parametrize("observation", ["xml", "pixels"])
def test_info_says_when_a_step_did_nothing(pool, observation):
    env = bmoca.make(WIFI, "test_env_109", device=pool, observation=observation, action="json")
    env.reset(seed=0)
    flags = [env.step(action)[4]["no_effect"] for action in (
        {"action_type": "navigate_home"},                     # already home
        {"action_type": "input_text", "text": "hello"},       # no field, no key handler
        {"action_type": "fly"},                                # malformed
        {"action_type": "open_app", "app_name": "Settings"},
        {"action_type": "navigate_back"},
    )]
    assert flags == [True, True, True, False, False]

"""A pixel env's phone keeps its latest paints and hands one out again when a screen comes
back (`bmoca.sim.kept_screens`); the env keeps the scaled pixels and marks of the very
screen. Every observation, render and info must be what a phone that reuses nothing
(`SimDevice.reuse_layout = False`) gives, and a kept screen is never handed out for a
screen that would be painted differently."""

from __future__ import annotations

import gc
import io

import pytest
from conftest import assert_same_outputs
from PIL import Image

import bmoca
from bmoca import configs, tasks
from bmoca.agents import ExpertAgent, RandomAgent
from bmoca.device import connect
from bmoca.env import DevicePool
from bmoca.sim import kept_screens
from bmoca.sim.kept_screens import KeptScreens
from bmoca.sim.render.painter import WALLPAPER_PATH

MODES = ("pixels", "xml", "text", "som")


def _play(task, config: str, agent, seed: int, reuse: bool, steps: int) -> tuple[list, int]:
    """Every observation, render, reward, flag and info of an episode, and how many of the
    phone's screens were one it had handed out before, but not just before."""
    pool = DevicePool()
    device = pool.get(configs.get(config))
    device.reuse_layout = reuse
    handed: list = []
    screen_image = device.screen_image

    def watched():
        image = screen_image()
        handed.append(image)
        return image

    device.screen_image = watched
    env = bmoca.make(task, config, device=pool, observation=MODES, action=agent.action_mode,
                     step_limit=steps, render_mode="rgb_array")
    obs, _ = env.reset(seed=seed)
    agent.reset(env.goal, seed=seed)
    seen = [(obs, env.render())]
    while True:
        obs, reward, terminated, truncated, info = env.step(agent.act(obs))
        seen.append((obs, env.render(), reward, terminated, truncated, info,
                     device.dump_hierarchy(), device.screenshot()))
        if terminated or truncated:
            break
    again = sum(1 for i, image in enumerate(handed)
                if i > 1 and image is not handed[i - 1]
                and any(image is earlier for earlier in handed[:i - 1]))
    return seen, again


@pytest.mark.parametrize("config", ["test_env_100", "test_env_109", "train_env_026"])
def test_random_episodes_with_kept_screens_are_those_of_a_phone_that_reuses_nothing(config):
    """Random taps, swipes, BACK and HOME on Settings come back to screens seen before."""
    task = tasks.get("settings/turn_on_airplane_mode")
    fresh, _ = _play(task, config, RandomAgent("discrete"), 11, False, 60)
    kept, again = _play(task, config, RandomAgent("discrete"), 11, True, 60)
    assert_same_outputs(fresh, kept, config)
    assert again > 0, "a random walk should come back to a kept screen"


@pytest.mark.parametrize("task_id", ["clock/create_alarm_at_06:30_am", "phone/call_123-4578"])
def test_expert_episodes_with_kept_screens_are_those_of_a_phone_that_reuses_nothing(task_id):
    task = tasks.get(task_id)
    fresh, _ = _play(task, "test_env_100", ExpertAgent(task), 0, False, 80)
    kept, _ = _play(task, "test_env_100", ExpertAgent(task), 0, True, 80)
    assert_same_outputs(fresh, kept, task_id)


def _home_settings_home(device, wallpaper: bytes | None) -> list:
    """Home, Settings, (a new wallpaper,) home again: the screens as painted."""
    device.keep_screens(4)
    device.press("HOME")
    shots = [device.screen_image()]
    device.shell("am start -n com.android.settings/.Settings")
    shots.append(device.screen_image())
    if wallpaper is not None:
        device.push(wallpaper, WALLPAPER_PATH)
    device.press("HOME")
    shots.append(device.screen_image())
    return shots


def test_home_after_settings_is_the_kept_home_screen():
    device = connect("sim", configs.get("test_env_100"))
    home, settings, again = _home_settings_home(device, None)
    assert again is home and settings is not home
    fresh = connect("sim", configs.get("test_env_100"))
    fresh.reuse_layout = False
    assert _home_settings_home(fresh, None)[2].tobytes() == again.tobytes()


def test_a_new_wallpaper_is_not_taken_from_a_kept_home_screen():
    """The home screen's tree is the same, but the painter reads the wallpaper's file."""
    blob = io.BytesIO()
    Image.new("RGB", (1080, 2160), (30, 200, 90)).save(blob, "PNG")
    device = connect("sim", configs.get("test_env_100"))
    home, _, again = _home_settings_home(device, blob.getvalue())
    assert again is not home and again.tobytes() != home.tobytes()
    fresh = connect("sim", configs.get("test_env_100"))
    fresh.reuse_layout = False
    assert _home_settings_home(fresh, blob.getvalue())[2].tobytes() == again.tobytes()


def test_a_new_minute_in_the_status_bar_is_painted_again():
    device = connect("sim", configs.get("test_env_100"))
    device.keep_screens(4)
    device.press("HOME")
    home = device.screen_image()
    device.shell("am start -n com.android.settings/.Settings")
    device.screen_image()
    device.system.state.clock.advance(61_000)
    device.press("HOME")
    again = device.screen_image()
    assert again is not home and again.tobytes() != home.tobytes()


def test_a_phone_is_never_handed_another_phones_screen():
    one, two = (connect("sim", configs.get("test_env_100")) for _ in range(2))
    for device in (one, two):
        device.keep_screens(4)
        device.press("HOME")
    assert one.screen_image() is not two.screen_image()
    assert one.screen_image().tobytes() == two.screen_image().tobytes()


def test_kept_screens_are_bounded_per_phone_and_in_bytes_and_dropped_with_the_phone():
    kept = KeptScreens(budget_bytes=3 * 10 * 10 * 4)
    a, b = object(), object()
    images = [Image.new("RGB", (10, 10), (i, 0, 0)) for i in range(6)]
    for i in range(3):
        kept.keep(a, 2, (10, 10), [("app", i)], (), images[i])
    assert len(kept) == 2 and kept.find(a, (10, 10), [("app", 0)], ()) is None
    assert kept.find(a, (10, 10), [("app", 2)], ()) is images[2]
    assert kept.find(b, (10, 10), [("app", 2)], ()) is None, "another phone's"
    assert kept.find(a, (10, 10), [("app", 2)], ("other",)) is None, "other inputs"
    kept.keep(b, 4, (10, 10), [("app", 3)], (), images[3])
    kept.keep(b, 4, (10, 10), [("app", 4)], (), images[4])
    assert len(kept) == 3 and kept.find(a, (10, 10), [("app", 1)], ()) is None, "over budget"
    kept.forget(b)
    assert len(kept) == 1

    gc.collect()  # the phones of tests before
    device = connect("sim", configs.get("test_env_100"))
    device.keep_screens(4)
    device.screen_image()
    with_phone = len(kept_screens.SHARED)
    del device
    gc.collect()
    assert len(kept_screens.SHARED) == with_phone - 1

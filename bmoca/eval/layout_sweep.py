"""Layout checks over what agents see: named screens and every frame of expert episodes.

Why here: the checks themselves (`bmoca.sim.render.layout_check`) read one frame; this
drives the phone there, through the device contract and the environment, so the tests and
`tools/layout_sweep.py` look at exactly the screens the experts reach.
"""

from __future__ import annotations

from collections.abc import Iterable

from bmoca import agents, configs
from bmoca.device import connect
from bmoca.device.config import DeviceConfig
from bmoca.env.environment import BmocaEnv
from bmoca.sim.render.layout_check import check_device
from bmoca.sim.screens import by_name, reach
from bmoca.tasks import Task


def display_matrix() -> list:
    """Every device x density x font scale of the device profiles, as configurations.

    Why: the 45 presets use only some of these combinations; the layout checks must hold
    at all of them. Locales and themes rotate through the combinations (all 15 locales
    appear, Urdu and Arabic at the largest densities), so each combination is one phone."""
    locales = configs.LOCALES
    out = []
    for name, profile in sorted(configs.profiles().items()):
        for density in profile.density_options:
            for font_scale in profile.font_scale_options:
                i = len(out)
                locale = locales[(i * 7) % len(locales)]
                if density == max(profile.density_options) and font_scale == max(
                        profile.font_scale_options):
                    locale = "ur-PK" if i % 2 else "ar-EG"
                out.append(DeviceConfig(
                    id=f"{name}_{density}dpi_{font_scale:g}x_{locale}", profile=profile,
                    density=density, font_scale=font_scale, locale=locale,
                    dark_theme=i % 2 == 1))
    return out


def screen_issues(config: DeviceConfig, screen_name: str) -> list[str]:
    """Issues on one named screen of a fresh phone in `config`, one line each."""
    device = connect("sim", config)
    reach(device, by_name(screen_name))
    return [f"{config.id} {screen_name}: {issue}" for issue in check_device(device)]


def expert_frame_issues(config_id: str, task_list: Iterable[Task]) -> list[str]:
    """Issues on every frame the experts of `task_list` pass through in a configuration."""
    found: list[str] = []
    for task in task_list:
        agent = agents.build("expert", task)
        env = BmocaEnv(task, config_id, observation=tuple(agent.observation_modes),
                       action=agent.action_mode)
        try:
            observation, _ = env.reset(seed=0)
            agent.reset(env.goal, seed=0)
            for step in range(task.step_limit + 1):
                found += [f"{config_id} {task.id} step {step}: {issue}"
                          for issue in check_device(env.device)]
                if step == task.step_limit:
                    break
                observation, _, terminated, truncated, _ = env.step(agent.act(observation))
                if terminated or truncated:
                    found += [f"{config_id} {task.id} end: {issue}"
                              for issue in check_device(env.device)]
                    break
        finally:
            env.close()
    return found

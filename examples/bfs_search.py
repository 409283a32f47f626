"""Shortest solutions by breadth-first search over forked episode states.

Each node of the search is an `EnvState` (`env.get_state()`); expanding it sets it back
(`env.set_state`) and takes one of B-MoCA's 385 discrete actions. Two pruning rules keep
the tree small:

* a state whose phone fingerprint (`device.state_fingerprint()`: everything but the
  clock) was reached before, at the same depth or shallower, is not expanded again
  (`--prune screen`: one whose screen was, a coarser rule for deep tasks, since log
  lines and the recents list make most paths' phones differ);
* of the 378 grid taps, one per element they would land on is tried: the taps whose
  point lies in the same smallest clickable (or long-clickable, checkable, scrollable)
  node of the screen's hierarchy act on the same view, except on a slider, where each
  column is a different value (every such tap is kept). Taps that land on no such node
  are skipped, since no view takes them; the 4 swipes and 3 buttons are always tried.

The first action whose step reports success ends the search: its path is a shortest
solution in discrete actions (within the pruning). The scripted expert's length (JSON
actions: an `open_app` or `input_text` is one step) is printed beside it.

    python examples/bfs_search.py                          # Settings tasks, test_env_100
    python examples/bfs_search.py --tasks settings/turn_on_wifi --configs test_env_100,test_env_104
    python examples/bfs_search.py --tasks "settings/go_to_the_'add_a_language'_page_in_setting" --prune screen
"""

from __future__ import annotations

import argparse
import functools
import re
import sys
import time
from dataclasses import dataclass

import bmoca
from bmoca import tasks
from bmoca.agents import ExpertAgent
from bmoca.env import DevicePool
from bmoca.env.actions import Discrete, Screen, Tap
from bmoca.formats import apps
from bmoca.formats.hierarchy import parse

_BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")
_TAKES = ("clickable", "long-clickable", "checkable", "scrollable")


@dataclass
class Result:
    task: str
    config: str
    length: int | None
    path: list[int]
    expanded: int
    steps: int
    seconds: float


def candidate_actions(state) -> list[int]:
    """The discrete actions worth trying on `state`'s screen (see the module's doc)."""
    targets = _targets(state.xml or "")
    seen: set[tuple] = set()
    chosen = []
    for index, point in enumerate(_tap_points(state.screen.width, state.screen.height,
                                              state.screen.rtl)):
        if point is None:  # a swipe or a navigation button: always tried
            chosen.append(index)
            continue
        node = _smallest(targets, *point)
        if node is None:
            continue
        key = (node, point[0]) if node[1] else node
        if key not in seen:
            seen.add(key)
            chosen.append(index)
    return chosen


@functools.cache
def _tap_points(width: int, height: int, rtl: bool) -> tuple[tuple[int, int] | None, ...]:
    """Where each grid tap of the discrete space lands on such a screen (None: not a grid
    tap), as the action mode converts it."""
    mode = Discrete()
    screen = Screen(width, height, rtl=rtl)
    points: list[tuple[int, int] | None] = []
    for index in range(mode.n):
        command = mode.convert(index, screen)[0]
        points.append((command.x, command.y) if index < mode.n_taps and isinstance(
            command, Tap) else None)
    return tuple(points)


def _targets(xml: str) -> list[tuple[tuple[int, int, int, int], bool]]:
    """(bounds, is a slider) of the nodes that take touches."""
    if not xml:
        return []
    found = []
    for node in parse(xml).iter("node"):
        if not any(node.get(name) == "true" for name in _TAKES):
            continue
        match = _BOUNDS.fullmatch(node.get("bounds", ""))
        if match:
            box = tuple(int(v) for v in match.groups())
            found.append((box, "SeekBar" in node.get("class", "")))
    return found


def _smallest(targets, x: int, y: int):
    inside = [t for t in targets if t[0][0] <= x < t[0][2] and t[0][1] <= y < t[0][3]]
    return min(inside, key=lambda t: (t[0][2] - t[0][0]) * (t[0][3] - t[0][1]), default=None)


_SYSTEM = {"com.android.systemui", "com.google.android.apps.nexuslauncher"}
"""Packages every task's path may pass through (the shade, the home screen)."""


def search(task: str, config: str, pool: DevicePool, budget: int,
           prune: str = "state", app_only: bool = False) -> Result:
    """Breadth-first search from the task's reset, at most `budget` steps in all. `prune`
    "state" skips a state whose phone fingerprint was reached before; "screen" one whose
    screen (its hierarchy) was, which also merges states that differ only in what the
    screen does not show (log lines, the recents list, task ids): far fewer nodes, but a
    solution through such a difference can be missed. `app_only` leaves unexpanded a
    screen of another app than the task's (the home screen and the shade stay)."""
    started = time.perf_counter()
    env = bmoca.make(task, config, device=pool, observation="xml", action="discrete")
    obs, _ = env.reset(seed=0)
    root = env.get_state()
    allowed = _SYSTEM | {apps.by_label(env.task.app).package}

    def key(observation):
        return env.device.state_fingerprint() if prune == "state" else observation["xml"]

    seen = {key(obs)}
    frontier = [(root, [])]
    expanded = steps = 0
    while frontier and steps < budget:
        following = []
        for state, path in frontier:
            expanded += 1
            for action in candidate_actions(state):
                if steps >= budget:
                    break
                env.set_state(state)
                obs, _, terminated, truncated, info = env.step(action)
                steps += 1
                if info["success"]:
                    return Result(task, config, len(path) + 1, path + [action], expanded,
                                  steps, time.perf_counter() - started)
                reached = key(obs)
                if terminated or truncated or reached in seen:
                    continue
                if app_only and _package(obs["xml"]) not in allowed:
                    continue
                seen.add(reached)
                following.append((env.get_state(), path + [action]))
        frontier = following
    return Result(task, config, None, [], expanded, steps, time.perf_counter() - started)


def _package(xml: str) -> str | None:
    """The package of the screen's first node (the focused window's)."""
    match = re.search(r'package="([^"]*)"', xml)
    return match.group(1) if match else None


def expert_length(task: str, config: str, pool: DevicePool) -> int | None:
    """The scripted expert's steps to success (JSON actions), or None if it fails."""
    env = bmoca.make(task, config, device=pool, observation="xml", action="json")
    obs, _ = env.reset(seed=0)
    agent = ExpertAgent(env.task)
    agent.reset(env.goal, seed=0)
    while True:
        obs, _, terminated, truncated, info = env.step(agent.act(obs))
        if terminated or truncated:
            return info["steps"] if info["success"] else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", default="settings", help="task spec, as for bmoca eval")
    parser.add_argument("--configs", default="test_env_100", help="comma-separated ids")
    parser.add_argument("--budget", type=int, default=20000, help="steps per search")
    parser.add_argument("--prune", choices=("state", "screen"), default="state",
                        help="skip states whose phone (or only screen) was seen before")
    parser.add_argument("--app-only", action="store_true",
                        help="expand no screen of another app than the task's")
    args = parser.parse_args()
    pool = DevicePool()
    print(f"{'task':<52} {'config':<13} {'BFS':>4} {'expert':>6} {'steps':>6} {'s':>6}")
    unsolved = 0
    for config in args.configs.split(","):
        for task in tasks.select(args.tasks):
            result = search(task.id, config, pool, args.budget, args.prune, args.app_only)
            expert = expert_length(task.id, config, pool)
            unsolved += result.length is None
            shown = "-" if result.length is None else str(result.length)
            print(f"{task.id:<52} {config:<13} {shown:>4} {expert or '-':>6} "
                  f"{result.steps:>6} {result.seconds:>6.1f}  {result.path}", flush=True)
    return 1 if unsolved else 0


if __name__ == "__main__":
    sys.exit(main())

"""The gymnasium environment: one task on one phone configuration.

Each `reset` loads the configuration's snapshot, runs the task's set-up, presses HOME
and clears the logs; each `step` converts the agent's action to touches and keys, sends
them through the Device contract and checks the task's success expression. A malformed
action still counts as a step and changes nothing; `info` says what was wrong.
"""

from __future__ import annotations

import functools
import inspect
import time
import weakref
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.envs.registration import EnvSpec
from PIL import ImageChops

from bmoca import configs, tasks
from bmoca.device import Device, DeviceConfig, DeviceError, InvalidInput
from bmoca.device.contract import fork_unsupported
from bmoca.env import actions as act
from bmoca.env import fork
from bmoca.env import observations as obs
from bmoca.env.devices import DevicePool, resolve_config
from bmoca.env.fork import EnvState
from bmoca.formats import apps as app_table
from bmoca.formats.locales import is_rtl
from bmoca.registration import gym_id
from bmoca.tasks.answers import Claims
from bmoca.tasks.detectors import History

OBSERVATION_MODES = ("pixels", "xml", "text", "som")


class BmocaEnv(gymnasium.Env):
    """A B-MoCA task as a `gymnasium.Env`; build it with `bmoca.make`."""

    metadata = {"render_modes": ["rgb_array"], "render_fps": 2}
    """One frame per step; 2 fps plays a recorded episode at about a person's pace."""

    def __init__(self, task: tasks.Task | str,
                 config: str | DeviceConfig | Sequence[str | DeviceConfig] = "test_env_100",
                 device: str | Device | DevicePool = "sim",
                 observation: str | Sequence[str] = ("pixels",),
                 action: str | act.ActionMode = "dual_gesture", *,
                 seed: int | None = None, pixels_size: tuple[int, int] = (128, 256),
                 som_size: tuple[int, int] = (256, 512), text_bbox: bool = False,
                 text_check: bool = True, step_limit: int | None = None,
                 render_mode: str | None = None, stop_on_success: bool = True,
                 task_split: str | None = None, **action_options: Any):
        self.family = family_of(task)
        """A task family given by id: every reset draws a new instance of it (from the
        reset's seed, within `task_split`'s instance part when it names one)."""
        self._instance_part = _instance_part(task_split) if self.family else None
        if self.family is not None:
            task = self.family.instance(_instance_seed(0, self._instance_part))
        elif task_split is not None:
            raise ValueError("task_split goes with a task family's id (bmoca tasks --families)")
        self.task = task if isinstance(task, tasks.Task) else tasks.get(task)
        self._configs = config_choices(config)
        self.config = self._configs[0]
        self.pool = device if isinstance(device, DevicePool) else DevicePool(device)
        modes = (observation,) if isinstance(observation, str) else tuple(observation)
        unknown = [m for m in modes if m not in OBSERVATION_MODES]
        if unknown:
            raise ValueError(f"unknown observation mode(s) {unknown}; "
                             f"choose from {', '.join(OBSERVATION_MODES)}")
        self.modes = modes
        """No mode (`observation=()`): observations are empty dicts, for judging recorded
        actions (`bmoca verify`): detectors read the phone, not the observation."""
        self.action_mode = action if isinstance(action, act.ActionMode) else act.make_mode(
            action, **action_options)
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode must be None or 'rgb_array', got {render_mode!r}")
        self.render_mode = render_mode
        self.pixels_size = _image_size(pixels_size, "pixels_size")
        self.som_size = _image_size(som_size, "som_size")
        self.text_bbox, self.text_check = text_bbox, text_check
        if step_limit is not None and (isinstance(step_limit, bool) or not isinstance(
                step_limit, int | np.integer) or step_limit < 1):
            raise ValueError(f"step_limit must be a positive int (or None: the task's "
                             f"{self.task.step_limit}), got {step_limit!r}")
        self._step_limit_given = step_limit is not None
        self.step_limit = int(step_limit) if step_limit is not None else self.task.step_limit
        self.stop_on_success = stop_on_success
        """False: the episode ends only on the agent's status or the step limit, and success
        is the state's verdict after the last step (to score an agent's done claims)."""
        # Each step reads only what the observation and the action mode use: the translated
        # elements feed `text`/`som` and the tags of text/JSON actions; detectors that need the
        # hierarchy dump it themselves when it was not read here.
        self._needs_elements = bool({"text", "som"} & set(modes)) or isinstance(
            self.action_mode, act.TextActions | act.JsonActions)
        self._needs_xml = self._needs_elements or "xml" in modes
        self.action_space = self.action_mode.space()
        self.observation_space = spaces.Dict(self._observation_spaces())
        self._seed = seed
        self._settings: tuple | None = None
        self.device: Device | None = None
        self._start: tasks.EpisodeStart | None = None
        self._screen = act.Screen(1, 1)
        self._xml: str | None = None
        self._frame: np.ndarray | None = None
        self._shot: Any = None
        """What this observation's pixels are scaled from: the device's painted image, or
        the screenshot array where it paints none."""
        self._scaled_shot: Any = None
        """The screen last scaled, held so that it is known again when the device hands it
        out again."""
        self._described: tuple | None = None
        """(hierarchy, screen size, text observation) of the last step that described one:
        the same dump is not described again (`obs.translate` keeps its parse already)."""
        self.steps = self.invalid_actions = 0
        self.success = False
        self._claims = Claims()
        """The agent's last answer and status claim in this episode (answer tasks read them)."""
        self._history = History()
        """When the parts of the success expression's `ever`/`never`/`before` first held."""
        self._ended: str | None = None
        """"terminated" or "truncated" once the episode is over; step() then refuses."""
        self.spec = _own_spec(self.family.id if self.family else self.task, config, device, dict(
            observation=observation, action=action, seed=seed, pixels_size=pixels_size,
            som_size=som_size, text_bbox=text_bbox, text_check=text_check,
            step_limit=step_limit, render_mode=render_mode, task_split=task_split,
            **({} if stop_on_success else {"stop_on_success": False}), **action_options))

    # -- gymnasium API -------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """A new episode; `options={"state": state}` continues one from `get_state` instead
        (then a `seed` re-seeds only the generator later resets draw from)."""
        options = options or {}
        if "state" in options:
            return self._reset_to(options, seed)
        if seed is None and self._seed is not None:
            seed, self._seed = self._seed, None
        super().reset(seed=seed)
        if "config" in options:
            self.config = resolve_config(options["config"])
        elif len(self._configs) > 1:  # a configuration per episode, drawn with the reset's seed
            self.config = self._configs[int(self.np_random.integers(len(self._configs)))]
        if self.family is not None:  # an instance per episode, drawn with the reset's seed
            drawn = int(self.np_random.integers(0, 2**30))
            self.task = self.family.instance(_instance_seed(drawn, self._instance_part))
            if not self._step_limit_given:
                self.step_limit = self.task.step_limit
        started = time.perf_counter()
        self.device = self.pool.get(self.config)
        if {"pixels", "som"} & set(self.modes):
            self.device.keep_screens(SCREENS_KEPT)
        self._start = self.task.initialize(self.device)
        self._arm_perturbations()
        self.steps = self.invalid_actions = 0
        self.success = False
        self._ended = None
        self._claims = Claims()
        self._history = History()
        observation = self._observe()
        info = self._info(reset_s=time.perf_counter() - started)
        return observation, info

    def step(self, action: Any):
        if self.device is None or self._start is None:
            raise RuntimeError("call reset() before step()")
        if self._ended:
            raise RuntimeError(
                f"the episode has ended ({self._ended} after {self.steps} steps); call reset() "
                "before step() again")
        self.steps += 1
        before = self._fingerprint()
        error, label, extra = None, None, {}
        try:
            label, commands = convert_action(self.action_mode, action, self._screen)
            extra = self._execute(commands)
        except (act.InvalidAction, InvalidInput) as exc:
            error = f"{type(exc).__name__}: {exc}"
            self.invalid_actions += 1
        changed = error is None
        if self._perturbed():
            self.device.perturb(self.steps)  # what is due shows, even after a refused action
            changed = True
        if "answer" in extra or "status" in extra:
            self._claims = Claims(extra.get("answer", self._claims.answer),
                                  extra.get("status", self._claims.status))
        observation = self._observe() if changed else _copy(self._last_observation)
        self._history.step = self.steps
        verdict = (self.task.is_successful(self.device, self._start, self._xml, self._claims,
                                           self._history) if changed else None)
        if verdict is not None and (verdict.ok or not self.stop_on_success):
            self.success = verdict.ok
        terminated = (self.success and self.stop_on_success) or extra.get("status") is not None
        truncated = not terminated and self.steps >= self.step_limit
        self._ended = "terminated" if terminated else "truncated" if truncated else None
        info = self._info(action_label=label, action_error=error, **extra)
        if verdict is not None:
            info["detector"] = verdict.trace
            if verdict.parts and _has_subgoals(self.task):
                info["subgoals"] = [sum(verdict.parts), len(verdict.parts)]
        if before is not None:
            info["no_effect"] = not changed or _same_state(self._fingerprint(), before)
        if self._perturbed():
            info["perturbations"] = self.device.perturbation_outcomes()
        return observation, float(self.success), terminated, truncated, info

    def _perturbed(self) -> bool:
        return self.config.perturbation != "none"

    def _arm_perturbations(self) -> None:
        """Draw the episode's perturbation schedule (its own generator, from the reset's) and
        give it to the phone; a configuration without one leaves the phone as it was. Each
        event adds a step to the task's limit (declining a call, swiping a heads-up away
        takes one), unless the limit was given."""
        if not self._perturbed():
            return
        if self.pool.simulated is False or not hasattr(self.device, "arm_perturbations"):
            raise DeviceError(f"perturbation={self.config.perturbation} needs the simulated "
                              "phone: a real device cannot be interrupted on a schedule")
        task = self.task
        about = " ".join((task.id, task.app, task.instruction, repr(task.success),
                          repr(task.expert), repr(task.setup))).lower()
        seed = int(self.np_random.integers(2**31))
        events = self.device.arm_perturbations(self.config.perturbation, seed, about)
        if not self._step_limit_given:  # a person spends a step on each interruption
            self.step_limit = self.task.step_limit + events

    def get_state(self) -> EnvState:
        """The whole episode as it stands, as a value: `set_state` (or `reset(options=
        {"state": ...})`) continues from it, here or in any environment of the same
        observation and action settings, as often as wanted; the same actions then give
        the same observations, rewards, ends and infos, byte for byte. `to_bytes` stores
        it. On a real phone this raises `DeviceError` (its state is no value to copy)."""
        if self.device is None or self._start is None:
            raise RuntimeError("call reset() before get_state()")
        generator = self._np_random
        return EnvState(
            settings=self._fork_settings(), task=self.task, config=self.config,
            phone=self.device.fork_state(), start=self._start, steps=self.steps,
            invalid_actions=self.invalid_actions, success=self.success, ended=self._ended,
            step_limit=self.step_limit, claims=self._claims,
            history=(self._history.step, tuple(self._history.first_held.items())),
            random=(None if generator is None else generator.bit_generator.state,
                    self._np_random_seed),
            seed=self._seed, xml=self._xml, screen=self._screen,
            observation=fork.frozen_observation(self._last_observation))

    def set_state(self, state: EnvState) -> None:
        """Continue from `state` (see `get_state`); the state itself is left unchanged."""
        if not isinstance(state, EnvState):
            raise TypeError(f"set_state takes an EnvState (env.get_state()), got "
                            f"{type(state).__name__}")
        if state.settings != self._fork_settings():
            ours = dict(self._fork_settings())
            differ = [f"{key}={value!r} (here {ours.get(key)!r})"
                      for key, value in state.settings if ours.get(key) != value]
            raise fork.StateError("the state was taken in an environment of other settings: "
                                  + ", ".join(differ))
        self._check_task(state.task)
        if self.pool.simulated is False:
            raise fork_unsupported(f"device {self.pool.target!r}")
        device = self.pool.get(state.config, fresh=False)
        device.restore_fork_state(state.phone)
        if {"pixels", "som"} & set(self.modes):
            device.keep_screens(SCREENS_KEPT)
        self.device, self.config, self.task = device, state.config, state.task
        self.step_limit, self._start = state.step_limit, state.start
        self.steps, self.invalid_actions = state.steps, state.invalid_actions
        self.success, self._ended, self._claims = state.success, state.ended, state.claims
        self._history = History()
        self._history.step, self._history.first_held = state.history[0], dict(state.history[1])
        generator, self._np_random_seed = state.random
        if generator is None:
            self._np_random = None
        else:
            self._np_random = np.random.Generator(np.random.PCG64())
            self._np_random.bit_generator.state = generator
        self._seed = state.seed
        self._xml, self._screen = state.xml, state.screen
        self._last_observation = dict(state.observation)
        self._frame = self._shot = None

    def _reset_to(self, options: dict[str, Any], seed: int | None):
        """`reset` from a state: its last observation, and an info as a reset gives."""
        if "config" in options:
            raise ValueError("reset options 'state' and 'config' exclude each other: the "
                             "state holds its own configuration")
        started = time.perf_counter()
        self.set_state(options["state"])
        if seed is not None:
            super().reset(seed=seed)
        return _copy(self._last_observation), self._info(reset_s=time.perf_counter() - started)

    def _fork_settings(self) -> tuple:
        """What a state's observation caches and conversion depend on (see `EnvState`),
        worked out once: none of it changes after construction."""
        if self._settings is None:
            self._settings = (
                ("observation", self.modes), ("action", fork.mode_settings(self.action_mode)),
                ("pixels_size", self.pixels_size), ("som_size", self.som_size),
                ("text_bbox", self.text_bbox), ("text_check", self.text_check),
                ("stop_on_success", self.stop_on_success))
        return self._settings

    def _check_task(self, task: tasks.Task) -> None:
        """StateError unless `task` is this environment's (an instance of its family)."""
        ok = (task.family == self.family.id if self.family is not None
              else task is self.task or task.id == self.task.id)
        if not ok:
            mine = self.family.id if self.family is not None else self.task.id
            raise fork.StateError(f"a state of task {task.id!r} cannot be set in an "
                                  f"environment of {mine!r}")

    def evaluate(self) -> bool:
        """The task's success on the phone as it is now, without taking a step (for agents
        that decide when they are done, or checks after the episode)."""
        if self.device is None or self._start is None:
            raise RuntimeError("call reset() before evaluate()")
        return self.task.is_successful(self.device, self._start, claims=self._claims,
                                       history=self._history).ok

    def render(self) -> np.ndarray | None:
        if self.render_mode == "rgb_array" and self.device is not None:
            return self._screenshot()
        return None

    def close(self) -> None:
        self.pool.close()
        self.device = None

    # -- helpers ---------------------------------------------------------------------------
    @property
    def goal(self) -> str:
        return self.task.goal

    def _observation_spaces(self) -> dict[str, spaces.Space]:
        out: dict[str, spaces.Space] = {}
        for mode in self.modes:
            if mode == "pixels":
                w, h = self.pixels_size
                out[mode] = spaces.Box(0, 255, (h, w, 3), np.uint8)
            elif mode == "som":
                w, h = self.som_size
                out[mode] = spaces.Box(0, 255, (h, w, 3), np.uint8)
            else:
                out[mode] = act.FreeText(max_length=1 << 22)
        return out

    def _fingerprint(self) -> tuple[bytes, str | None, Any] | None:
        """The device's state and the screen as last observed, to tell a step that did
        nothing; None when the device cannot fingerprint its state (a real phone). The
        frame is the observed image or array itself: the same object while the screen
        stands, and comparing two others costs a millisecond, where hashing each cost a
        quarter of a pixels step."""
        state = self.device.state_fingerprint()
        if state is None:
            return None
        frame = self._source() if {"pixels", "som"} & set(self.modes) else None
        return state, self._xml, frame  # what this env's observations read, nothing more

    def _source(self) -> Any:
        """The observed screen as pixel observations scale it: the device's painted image
        where it has one (the full-size array is then made only when `render` asks), else
        the screenshot array."""
        if self._shot is None:
            image = self.device.screen_image()
            self._shot = image if image is not None else self._screenshot()
        return self._shot

    def _screenshot(self) -> np.ndarray:
        """The observed screen as an array (the device's, read-only where it says so)."""
        if self._frame is None:
            shot = self._shot
            self._frame = (self.device.screenshot() if shot is None
                           else shot if isinstance(shot, np.ndarray)
                           else self.device.screenshot_of(shot))
        return self._frame

    def _observe(self) -> dict[str, Any]:
        device = self.device
        self._frame = self._shot = None
        self._xml = device.dump_hierarchy() if self._needs_xml else None
        width, height = device.screen_size()
        elements = tuple(obs.translate(self._xml)) if self._needs_elements else ()
        self._screen = act.Screen(width, height, elements, rtl=is_rtl(self.config.locale))
        out: dict[str, Any] = {}
        for mode in self.modes:
            if mode == "pixels":
                out[mode] = self._scaled((mode, self.pixels_size, None),
                                         lambda shot: obs.resize(shot, self.pixels_size))
            elif mode == "xml":
                out[mode] = self._xml
            elif mode == "text":
                out[mode] = self._text(elements, width, height)
            elif mode == "som":
                out[mode] = self._scaled((mode, self.som_size, self._xml),
                                         lambda shot: obs.set_of_marks(
                                             shot, list(elements), self.som_size))
        self._last_observation = out
        return out

    def _text(self, elements: tuple[obs.Element, ...], width: int, height: int) -> str:
        """`describe` of the elements, the last step's again on the same dump (a simulated
        phone hands out the very same string while the screen stands)."""
        last = self._described
        if last is not None and last[0] == self._xml and last[1] == (width, height):
            return last[2]
        text = obs.describe(list(elements), width, height, check=self.text_check,
                            bbox=self.text_bbox)
        self._described = (self._xml, (width, height), text)
        return text

    def _scaled(self, key: tuple, make) -> np.ndarray:
        """`make(screen)`, or a copy of an earlier one when the device handed back the very
        same (read-only) image or array and `key` (the mode, its size, and for marks the
        hierarchy) is the same: a simulated phone does when nothing on screen changed or a
        screen it kept comes back, and scaling a full-size screen was a third of a pixels
        step."""
        shot = self._source()
        for ref, kept_key, value in reversed(_SCALED):
            if ref() is shot and kept_key == key:
                return value.copy()
        value = make(shot)
        if not (isinstance(shot, np.ndarray) and shot.flags.writeable):
            # a device's image is never drawn on; a writable array may change in place
            _SCALED[:] = [k for k in _SCALED if k[0]() is not None][1 - SCALED_KEPT:]
            _SCALED.append((weakref.ref(shot), key, value.copy()))
            self._scaled_shot = shot
        return value

    def _execute(self, commands: Sequence[act.Command]) -> dict[str, Any]:
        return execute(self.device, commands)

    def _info(self, **extra: Any) -> dict[str, Any]:
        info = {"goal": self.task.goal, "task_id": self.task.id, "config_id": self.config.id,
                "success": self.success, "steps": self.steps,
                "invalid_actions": self.invalid_actions}
        info.update({k: v for k, v in extra.items() if v is not None})
        return info


SCREENS_KEPT = 4
"""Latest screens a pixel env asks its device to keep (`Device.keep_screens`): about 4 in
10 paints of a random agent repeat one of the last few screens."""

SCALED_KEPT = 16
"""Scaled pixels and marks kept for the process's envs, by the very screen they were
scaled from (a weak reference: a screen no one holds is never handed out again)."""

_SCALED: list[tuple] = []
"""(a weak reference to the screen, (mode, size, hierarchy), the value), newest last."""

MAX_IMAGE_SIDE = 4096
"""The largest side of a `pixels`/`som` observation (a phone screen is at most 1440x3200)."""


def _image_size(size: Any, name: str) -> tuple[int, int]:
    """(width, height), each an int in 1..MAX_IMAGE_SIDE, or ValueError naming `name`."""
    try:
        width, height = size
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be (width, height), got {size!r}") from None
    for side in (width, height):
        if isinstance(side, bool) or not isinstance(side, int | np.integer) or not (
                1 <= side <= MAX_IMAGE_SIDE):
            raise ValueError(f"{name} sides must be ints in 1..{MAX_IMAGE_SIDE}, got {size!r}")
    return int(width), int(height)


def convert_action(mode: act.ActionMode, action: Any, screen: act.Screen
             ) -> tuple[str, list[act.Command]]:
    """The action's label and commands. Conversion is pure and reads only the action, so
    anything it raises on a hostile value (a 400-digit float, JSON nested 100,000 deep)
    is the agent's invalid action, never an error of the run."""
    try:
        return mode.label(action), mode.convert(action, screen)
    except act.InvalidAction:
        raise
    except (ValueError, TypeError, OverflowError, RecursionError, MemoryError) as exc:
        text = str(exc)
        raise act.InvalidAction(f"{type(exc).__name__}: {text[:200]}") from None


def execute(device: Device, commands: Sequence[act.Command]) -> dict[str, Any]:
    """Run converted commands on a device; `answer`/`status` come back as a dict, the
    rest are touches and keys (shared with `bmoca.env.androidworld`)."""
    extra: dict[str, Any] = {}
    for command in commands:
        if isinstance(command, act.Tap):
            device.tap(command.x, command.y)
        elif isinstance(command, act.LongPress):
            device.long_press(command.x, command.y, command.duration_ms)
        elif isinstance(command, act.Swipe):
            device.swipe(command.x1, command.y1, command.x2, command.y2, command.duration_ms)
        elif isinstance(command, act.PressKey):
            device.press(command.key)
        elif isinstance(command, act.TypeText):
            device.input_text(command.text)
        elif isinstance(command, act.OpenApp):
            open_app(device, command.name)
        elif isinstance(command, act.Answer):
            extra["answer"] = command.text
        elif isinstance(command, act.Status):
            extra["status"] = command.goal_status
    return extra


def open_app(device: Device, name: str) -> None:
    """AndroidWorld's open_app: by label (any language) or package, via the launcher intent."""
    wanted = name.strip().casefold()
    for app in app_table.all_apps():
        if wanted == app.package.casefold() or wanted in {
                label.casefold() for label in app_table.labels_of(app.package)}:
            out, code = device.shell(
                f"monkey -p {app.package} -c android.intent.category.LAUNCHER 1")
            if code != 0:
                raise DeviceError(f"launching {app.package} failed: {out.strip()}")
            return
    raise act.InvalidAction(f"open_app: no installed app named {name!r}")


def config_choices(config: str | DeviceConfig | Sequence[str | DeviceConfig]
                   ) -> tuple[DeviceConfig, ...]:
    """The configurations an environment draws from: one (fixed), or several drawn at every
    reset, as the reference's training loop does: a split name (`train`, `test`, `all`:
    its presets), a comma-separated spec with ranges (`train_env_000..006`) or a list."""
    if isinstance(config, DeviceConfig):
        return (config,)
    if isinstance(config, str):
        if config in (*configs.SPLITS, "all"):
            return tuple(configs.get(c) for c in configs.ids(config))
        if "," in config or ".." in config:
            return tuple(configs.get(c) for c in configs.expand(config))
        return (resolve_config(config),)
    chosen = tuple(resolve_config(c) for c in config)
    if not chosen:
        raise ValueError("config: an empty list of configurations")
    return chosen


def family_of(task: Any):
    """The family a task argument names by its id (no `@seed`), or None."""
    from bmoca.registration import family_ids

    if not isinstance(task, str) or task not in family_ids():
        return None
    from bmoca.tasks import families

    return families.get(task)


def _has_subgoals(task: tasks.Task) -> bool:
    from bmoca.tasks import families

    return families.has_subgoals(task)


def _instance_part(task_split: str | None) -> str | None:
    from bmoca.tasks import splits

    try:
        return dict(splits.parse(task_split)).get("instance")
    except tasks.TaskError as exc:
        raise ValueError(str(exc)) from None


def _instance_seed(drawn: int, part: str | None) -> int:
    """The `drawn`-th seed of an instance part (every seed when there is none)."""
    from bmoca.tasks.splits import TEST_SEED_EVERY as every

    if part == "test":
        return drawn * every + every - 1
    if part == "train":
        return drawn // (every - 1) * every + drawn % (every - 1)
    return drawn


def _own_spec(task: tasks.Task | str, config: Any, device: Any,
              kwargs: dict[str, Any]) -> EnvSpec:
    """The spec `gymnasium.make` would have given this environment, so that checkers and
    `gymnasium.make(env.spec)` can build it again. A device or pool object is left out
    (a copy would share or clone a phone): the copy gets a simulated phone. A family's
    environment is named by the family's id (a string here)."""
    from bmoca.registration import ENTRY_POINT, GENERIC_ID, family_gym_ids, gym_ids

    task_kwargs: dict[str, Any]
    if isinstance(task, str):
        env_id, task_kwargs = gym_id(task), {"task": task}
        if family_gym_ids().get(env_id) != task:
            env_id = GENERIC_ID
    elif gym_ids().get(gym_id(task.id)) == task.id and tasks.get(task.id) is task:
        env_id, task_kwargs = gym_id(task.id), {"task": task.id}
    elif task.family and tasks.get(task.id) is task:  # one instance: the generic id, by id
        env_id, task_kwargs = GENERIC_ID, {"task": task.id}
    else:  # a task of your own: the generic id with the task object
        env_id, task_kwargs = GENERIC_ID, {"task": task}
    defaults = _init_parameters()
    given = {k: v for k, v in kwargs.items()
             if k not in defaults or v != defaults[k].default}
    if config != defaults["config"].default:
        given["config"] = config
    if isinstance(device, str) and device != defaults["device"].default:
        given["device"] = device
    return EnvSpec(id=env_id, entry_point=ENTRY_POINT, kwargs={**task_kwargs, **given})


@functools.cache
def _init_parameters() -> Any:
    """`BmocaEnv.__init__`'s parameters, read once: `inspect.signature` cost a fifth of a
    `make`."""
    return inspect.signature(BmocaEnv.__init__).parameters


def _copy(observation: dict[str, Any]) -> dict[str, Any]:
    """A new observation object each step: callers may keep and modify what they get."""
    return {k: v.copy() if isinstance(v, np.ndarray) else v for k, v in observation.items()}


def _same_state(after: tuple | None, before: tuple) -> bool:
    if after is None or after[:2] != before[:2]:
        return False
    if after[2] is None or before[2] is None:
        return after[2] is before[2]
    return after[2] is before[2] or _same_pixels(after[2], before[2])


def _same_pixels(a: Any, b: Any) -> bool:
    """Whether two screens (painted RGB images or arrays) hold the same pixels. Two images
    are compared in Pillow (their difference has no box: 1 ms), not read into arrays."""
    if not isinstance(a, np.ndarray) and not isinstance(b, np.ndarray) and (
            a.mode == b.mode == "RGB" and a.size == b.size):
        return ImageChops.difference(a, b).getbbox() is None
    return bool(np.array_equal(np.asarray(a), np.asarray(b)))


def make(task: tasks.Task | str,
         config: str | DeviceConfig | Sequence[str | DeviceConfig] = "test_env_100",
         device: str | Device | DevicePool = "sim", observation: str | Sequence[str] = ("pixels",),
         action: str | act.ActionMode = "dual_gesture", seed: int | None = None,
         **options: Any) -> BmocaEnv:
    """A `gymnasium.Env` for `task` on configuration `config` (see `BmocaEnv`)."""
    return BmocaEnv(task, config, device, observation, action, seed=seed, **options)

"""An episode's whole state as a value: fork it, continue it many times, store it.

`BmocaEnv.get_state()` returns an `EnvState`: the phone (its system state, kept as the
snapshot images are: small objects pickled, file contents shared, so a fork costs well
under a millisecond), the task instance, what the reset recorded, the step count, the
success latch, the ended flag, the agent's claims, the trajectory detectors' history,
the invalid-action count, the last observation and what the next step's action
conversion reads (the hierarchy and the translated screen), and the environment's random
generator. `BmocaEnv.set_state(state)` puts all of it back, so the same actions give the
same observations, rewards, ends and infos, byte for byte.

On disk (`to_bytes` / `EnvState.from_bytes`) a state is a checked blob in the snapshot
files' format (`bmoca.sim.snapshots`): a versioned header, a digest, and a pickle that is
read by the unpickler that resolves only the simulator's state classes; everything else
in it is plain data (str, int, bytes, tuples, dicts). An edited or planted blob is
refused with `StateError`, before any code it names is imported.
"""

from __future__ import annotations

import io
import pickle
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from bmoca.device.contract import InvalidInput

VERSION = 1
_PREFIX = b"BMOCA-ENVSTATE "
MAGIC = _PREFIX + str(VERSION).encode() + b"\n"
_KIND = "bmoca environment state"


class StateError(ValueError):
    """A state that cannot be read or set here; the message says why."""


@dataclass(frozen=True, eq=False)
class EnvState:
    """One moment of an episode (build it with `BmocaEnv.get_state`). Immutable and shared
    freely: setting it any number of times, in any environment of the same settings, never
    changes it."""

    settings: tuple
    """What the environment's observations and action conversion depend on (observation
    modes, image sizes, action mode): a state is set only where they are the same."""
    task: Any
    """The task (a family's drawn instance included)."""
    config: Any
    """The phone's configuration (`DeviceConfig`)."""
    phone: Any
    """The simulated phone's state (`SimDevice.fork_state`)."""
    start: Any
    """What the reset recorded for relative criteria (`EpisodeStart`)."""
    steps: int
    invalid_actions: int
    success: bool
    ended: str | None
    step_limit: int
    claims: Any
    """The agent's last answer and status claim (`Claims`)."""
    history: tuple[int, tuple[tuple[int, int], ...]]
    """(the history's step, (id of a detector part, the step it first held)...): parts of
    `task`'s success expression, which this state keeps alive."""
    random: tuple[Any, Any]
    """(the environment's generator's bit-generator state or None, its seed or None)."""
    seed: int | None
    """The constructor's seed, when no reset has used it yet."""
    xml: str | None
    screen: Any
    """The last observation's screen as action conversion reads it (`Screen`)."""
    observation: Mapping[str, Any]
    """The last observation (arrays read-only: a step after an invalid action copies it)."""
    version: int = VERSION

    def to_bytes(self) -> bytes:
        """The state as a checked blob that `EnvState.from_bytes` reads back (in another
        process too). The task and the configuration are stored by id, so they must be
        ones `bmoca.tasks.get` and `bmoca.configs` know (a family's instances are)."""
        from bmoca import tasks
        from bmoca.env.devices import resolve_config
        from bmoca.sim import snapshots
        from bmoca.sim.system.statecopy import dumps
        from bmoca.tasks.detectors import History

        try:
            known = tasks.get(self.task.id)
        except tasks.TaskError:
            known = None
        if known != self.task:
            raise StateError(f"task {self.task.id!r} is not a registered task: a state of a "
                             "task object of your own forks in memory only")
        try:
            config = resolve_config(self.config.id)
        except (KeyError, ValueError):
            config = None
        if config != self.config:
            raise StateError(f"configuration {self.config.id!r} is not one `bmoca.configs` "
                             "knows by id: a state on it forks in memory only")
        history = History()
        history.first_held = dict(self.history[1])
        payload = {
            "settings": self.settings, "task": self.task.id, "config": self.config.id,
            "phone": dumps(self.phone.state()), "start": dict(self.start.reset_values),
            "steps": self.steps, "invalid_actions": self.invalid_actions,
            "success": self.success, "ended": self.ended, "step_limit": self.step_limit,
            "claims": (self.claims.answer, self.claims.status),
            "history": (self.history[0], history.positions(self.task.success)),
            "random": self.random, "seed": self.seed, "xml": self.xml,
            "screen": (self.screen.width, self.screen.height, self.screen.rtl,
                       bool(self.screen.elements)),
            "observation": {mode: _array_data(value) for mode, value in
                            self.observation.items()},
        }
        return snapshots.encode(_plain_dumps(payload), MAGIC)

    @classmethod
    def from_bytes(cls, data: bytes) -> EnvState:
        """A state `to_bytes` wrote, or `StateError` saying why `data` is not one."""
        from bmoca import tasks
        from bmoca.env import observations as obs
        from bmoca.env.commands import Screen
        from bmoca.env.devices import resolve_config
        from bmoca.sim import snapshots
        from bmoca.sim.system.server import SystemState
        from bmoca.sim.system.statecopy import StateImage
        from bmoca.tasks.answers import Claims
        from bmoca.tasks.detectors import History
        from bmoca.tasks.spec import EpisodeStart

        if isinstance(data, bytes | bytearray) and bytes(data[:len(_PREFIX)]) == _PREFIX:
            header = bytes(data[:len(MAGIC) + 8]).split(b"\n", 1)[0]
            if header != MAGIC[:-1]:
                raise StateError(f"an environment state of another format "
                                 f"({header.decode('ascii', 'replace')!r}): this bmoca reads "
                                 f"version {VERSION}")
        try:
            payload = snapshots.decode(data, "the environment state", MAGIC, _KIND)
        except InvalidInput as exc:
            raise StateError(str(exc)) from None
        try:
            _check(payload)
            phone = snapshots.loads(payload["phone"], "the environment state's phone")
            if not isinstance(phone, SystemState):
                raise StateError("the environment state holds no simulated phone state")
            task = tasks.get(payload["task"])
            config = resolve_config(payload["config"])
            answer, status = payload["claims"]
            step, positions = payload["history"]
            history = History.at(task.success, step, positions)
            width, height, rtl, has_elements = payload["screen"]
            xml = payload["xml"]
            elements = tuple(obs.translate(xml)) if has_elements and xml is not None else ()
            return cls(
                settings=payload["settings"], task=task, config=config,
                phone=StateImage(phone),
                start=EpisodeStart(dict(payload["start"])), steps=payload["steps"],
                invalid_actions=payload["invalid_actions"], success=payload["success"],
                ended=payload["ended"], step_limit=payload["step_limit"],
                claims=Claims(answer, status),
                history=(history.step, tuple(history.first_held.items())),
                random=payload["random"], seed=payload["seed"], xml=xml,
                screen=Screen(width, height, elements, rtl=rtl),
                observation={mode: _array_of(value)
                             for mode, value in payload["observation"].items()})
        except StateError:
            raise
        except InvalidInput as exc:
            raise StateError(str(exc)) from None
        except Exception as exc:  # noqa: BLE001 - whatever is wrong, the blob is not a state
            raise StateError(f"the environment state is malformed: {type(exc).__name__}: "
                             f"{exc}") from None

    def __reduce__(self) -> tuple:
        """Pickled (to a vector environment's worker process, say) as its checked bytes."""
        return EnvState.from_bytes, (self.to_bytes(),)


_FIELDS = {"phone": bytes, "settings": tuple, "task": str, "config": str, "start": dict, "steps": int,
           "invalid_actions": int, "success": bool, "ended": (str, type(None)),
           "step_limit": int, "claims": tuple, "history": tuple, "random": tuple,
           "seed": (int, type(None)), "xml": (str, type(None)), "screen": tuple,
           "observation": dict}


def _check(payload: Any) -> None:
    """StateError unless `payload` has every field, of its type."""
    if not isinstance(payload, dict):
        raise StateError(f"the environment state is malformed: a {type(payload).__name__}")
    missing = sorted(set(_FIELDS) - set(payload))
    if missing:
        raise StateError(f"the environment state lacks {', '.join(missing)}")
    wrong = [name for name, kind in _FIELDS.items() if not isinstance(payload[name], kind)]
    if wrong:
        raise StateError(f"the environment state's {', '.join(wrong)} have the wrong type")
    if payload["ended"] not in (None, "terminated", "truncated"):
        raise StateError(f"the environment state's ended is {payload['ended']!r}")


def _plain_dumps(payload: dict[str, Any]) -> bytes:
    """The payload's pickle without memo references (it is plain data with no cycles), so
    that equal states give equal bytes whichever objects happen to be shared."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, pickle.HIGHEST_PROTOCOL)
    pickler.fast = True
    pickler.dump(payload)
    return out.getvalue()


def _array_data(value: Any) -> Any:
    """An observation value as plain data: a string as it is, an image as its bytes."""
    if isinstance(value, np.ndarray):
        return ("uint8", tuple(value.shape), value.astype(np.uint8, copy=False).tobytes())
    return value


def _array_of(value: Any) -> Any:
    if isinstance(value, str):
        return value
    kind, shape, data = value
    if kind != "uint8" or not isinstance(data, bytes) or not all(
            isinstance(n, int) and n >= 0 for n in shape):
        raise StateError("the environment state's observation is malformed")
    array = np.frombuffer(data, dtype=np.uint8).reshape(shape)
    return array  # read-only, as the arrays of a state in memory are


def frozen_observation(observation: Mapping[str, Any]) -> dict[str, Any]:
    """The observation as a state keeps it: images copied and read-only (an agent may
    write into the arrays it was given), strings as they are."""
    out: dict[str, Any] = {}
    for mode, value in observation.items():
        if isinstance(value, np.ndarray):
            value = value.copy()
            value.flags.writeable = False
        out[mode] = value
    return out


def mode_settings(mode: Any) -> tuple:
    """An action mode as comparable data: its name and its scalar options (a nested mode's
    too), which are all that its conversion reads."""
    from bmoca.env.actions import ActionMode

    items = []
    for key, value in sorted(vars(mode).items()):
        if isinstance(value, ActionMode):
            value = mode_settings(value)
        elif not isinstance(value, int | float | str | bool | type(None)):
            value = repr(value)
        items.append((key, value))
    return (mode.name, tuple(items))


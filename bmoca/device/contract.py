"""The one contract every phone implements: what ADB gives, nothing more.

Everything above the device layer (environment, detectors, agents, runner) talks to a
phone only through `Device`, so one task definition is valid on the simulator and on a
real emulator or phone.
"""

from __future__ import annotations

import abc
import enum
from typing import Any

import numpy as np


class Key(str, enum.Enum):  # noqa: UP042 - str() keeps the member name in messages
    """Keys accepted by `Device.press`, named as Android's KEYCODE_* without the prefix."""

    BACK = "BACK"
    HOME = "HOME"
    APP_SWITCH = "APP_SWITCH"
    ENTER = "ENTER"
    DEL = "DEL"
    TAB = "TAB"
    SPACE = "SPACE"
    ESCAPE = "ESCAPE"
    MENU = "MENU"
    VOLUME_UP = "VOLUME_UP"
    VOLUME_DOWN = "VOLUME_DOWN"
    POWER = "POWER"
    DPAD_UP = "DPAD_UP"
    DPAD_DOWN = "DPAD_DOWN"
    DPAD_LEFT = "DPAD_LEFT"
    DPAD_RIGHT = "DPAD_RIGHT"

    @classmethod
    def parse(cls, key: str | Key) -> Key:
        """Accept `BACK`, `KEYCODE_BACK`, `back`, `OVERVIEW` (an alias of APP_SWITCH)."""
        if isinstance(key, Key):
            return key
        name = str(key).strip().upper()
        if name.startswith("KEYCODE_"):
            name = name[len("KEYCODE_"):]
        name = {"OVERVIEW": "APP_SWITCH", "RECENTS": "APP_SWITCH", "DELETE": "DEL",
                "BACKSPACE": "DEL", "RETURN": "ENTER"}.get(name, name)
        try:
            return cls(name)
        except ValueError:
            valid = ", ".join(k.value for k in cls)
            raise InvalidInput(f"unknown key {key!r}; valid keys: {valid}") from None


KEYCODES: dict[Key, int] = {
    Key.HOME: 3, Key.BACK: 4, Key.DPAD_UP: 19, Key.DPAD_DOWN: 20, Key.DPAD_LEFT: 21,
    Key.DPAD_RIGHT: 22, Key.VOLUME_UP: 24, Key.VOLUME_DOWN: 25, Key.POWER: 26, Key.TAB: 61,
    Key.SPACE: 62, Key.ENTER: 66, Key.DEL: 67, Key.MENU: 82, Key.ESCAPE: 111,
    Key.APP_SWITCH: 187,
}
"""Android KEYCODE_* numbers, as `input keyevent` takes them."""


class DeviceError(Exception):
    """Base class of every error a device raises."""


def fork_unsupported(what: str) -> DeviceError:
    """The error of a phone that cannot fork an episode (any but the simulator), saying why."""
    return DeviceError(_NO_FORK.format(what))


_NO_FORK = (
    "{} cannot fork an episode: a real phone's state (its processes' memory, its storage, "
    "its radios) is not a value a program can copy and put back in a millisecond. Fork "
    "episodes on the simulator (device=\"sim\"); on an emulator, save and load whole-device "
    "snapshots between episodes (snapshot_save / snapshot_load) instead")


class InvalidInput(DeviceError, ValueError):
    """An input the device cannot take (outside the screen, unknown key, untypeable text).

    The device state is unchanged when this is raised.
    """


class Device(abc.ABC):
    """A phone: the simulator (`SimDevice`) or a real emulator/phone (`AdbDevice`)."""

    serial: str

    # -- screen -------------------------------------------------------------------
    @abc.abstractmethod
    def screen_size(self) -> tuple[int, int]:
        """(width, height) in pixels, as the display currently is (rotation applied)."""

    @abc.abstractmethod
    def screenshot(self) -> np.ndarray:
        """The screen as an RGB uint8 array of shape (height, width, 3)."""

    def image_of(self, screenshot: np.ndarray) -> Any:
        """The PIL image (RGB, not to be changed) `screenshot` was read from, where the device
        still has it, else None: scaling it spares converting the array back to an image."""
        return None

    def screen_image(self) -> Any:
        """The screen as a PIL image (RGB, shared: never to be drawn on) where the device
        paints one, else None (a real phone). Pixel observations scale it, so a changed
        screen is not also read into a full-size array unless someone asks for that."""
        return None

    def keep_screens(self, count: int) -> None:
        """Ask the device to keep up to `count` earlier screens it painted and hand the
        same image out again when one comes back (a pixel observer scales it only once);
        a device that paints none ignores it."""

    def screenshot_of(self, image: Any) -> np.ndarray:
        """The screenshot array of an image `screen_image` handed out: the array
        `screenshot` gives for that screen, made without looking at the phone again."""
        return np.asarray(image.convert("RGB") if image.mode != "RGB" else image)

    @abc.abstractmethod
    def dump_hierarchy(self) -> str:
        """The active window's view hierarchy in `uiautomator dump` XML."""

    # -- input --------------------------------------------------------------------
    @abc.abstractmethod
    def tap(self, x: int, y: int) -> None: ...

    @abc.abstractmethod
    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        """A touch from (x1, y1) to (x2, y2); zero length with a long duration is a long press."""

    def long_press(self, x: int, y: int, duration_ms: int = 800) -> None:
        self.swipe(x, y, x, y, duration_ms)

    @abc.abstractmethod
    def press(self, key: str | Key) -> None: ...

    @abc.abstractmethod
    def input_text(self, text: str) -> None:
        """Type into the focused field, as `adb shell input text` does."""

    # -- shell and files ----------------------------------------------------------
    @abc.abstractmethod
    def shell(self, cmd: str) -> tuple[str, int]:
        """Run a shell command; returns (stdout and stderr together, exit code)."""

    @abc.abstractmethod
    def pull(self, path: str) -> bytes: ...

    @abc.abstractmethod
    def push(self, data: bytes, path: str) -> None: ...

    # -- snapshots ----------------------------------------------------------------
    @abc.abstractmethod
    def snapshot_save(self, name: str) -> None: ...

    @abc.abstractmethod
    def snapshot_load(self, name: str) -> None: ...

    def state_fingerprint(self) -> bytes | None:
        """A digest of the phone's state apart from its clock, so that the environment can
        tell an action that changed nothing; None (the default) when the device cannot say
        cheaply, as a real phone cannot."""
        return None

    def fork_state(self) -> Any:
        """The phone's whole state as a value that `restore_fork_state` puts back, so that an
        episode can be continued many times from one moment (`BmocaEnv.get_state`). Only a
        simulated phone can: the default raises `DeviceError` saying why."""
        raise fork_unsupported(type(self).__name__)

    def restore_fork_state(self, state: Any) -> None:
        """Put back a state `fork_state` returned (the default raises, as it does)."""
        raise fork_unsupported(type(self).__name__)

    def close(self) -> None:
        """Release what the device holds (connections, servers)."""

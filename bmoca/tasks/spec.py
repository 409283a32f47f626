"""A task: instruction, step limit, set-up and success expression, read from a data file.

The life cycle follows AndroidWorld's evaluators: `initialize` puts the phone in the
task's starting state and records what relative criteria need; `is_successful` checks
the success expression; `tear_down` undoes nothing on the simulator (the next reset loads
a snapshot) and is there for real phones.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from bmoca.device.contract import Device, DeviceError
from bmoca.tasks.answers import Claims
from bmoca.tasks.detectors import Detector, History, Probe, Verdict, walk

CATEGORIES = ("System", "Web/Shopping", "Communication", "Utility", "Event")


class TaskError(ValueError):
    """A task file, task or field that is wrong; the message names all three."""


class SetupError(DeviceError):
    """A set-up step failed on the device."""


@dataclass(frozen=True)
class SetupStep:
    """One step of a task's set-up: `clock`, `setting`, `shell` or `push`."""

    kind: str
    args: Mapping[str, Any]

    def apply(self, device: Device, data_dir: Path) -> None:
        if self.kind == "clock":
            when: datetime = self.args["at"]
            _shell(device, f"su 0 toybox date {when:%m%d%H%M%Y.%S}")
        elif self.kind == "setting":
            a = self.args
            _shell(device, f"settings put {a['namespace']} {a['key']} {shlex.quote(str(a['value']))}")
        elif self.kind == "shell":
            _shell(device, self.args["cmd"])
        elif self.kind == "push":
            device.push((data_dir / self.args["file"]).read_bytes(), self.args["to"])

    def describe(self) -> str:
        return f"{self.kind}: " + ", ".join(f"{k}={v}" for k, v in self.args.items())


@dataclass(frozen=True)
class EpisodeStart:
    """What `initialize` recorded: values the relative criteria compare against."""

    reset_values: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Task:
    id: str
    app: str
    category: str
    instruction: str
    step_limit: int
    success: Detector
    setup: tuple[SetupStep, ...] = ()
    expert: tuple[Mapping[str, Any], ...] = ()
    """The scripted expert's plan (`bmoca.tasks.experts`)."""
    representative: bool = False
    reference: Mapping[str, Any] = field(default_factory=dict)
    """The reference implementation's criterion and why ours deviates, when it does."""
    version: int = 2
    """2: one of the 131 tasks of the B-MoCA release; 1: a task of the paper's first
    (60-task) version that the release dropped, kept because it exercises the same apps."""
    source: str = ""
    """The data file the task was read from."""
    family: str = ""
    """The family this task is an instance of (`bmoca.tasks.families`), or ''."""

    @property
    def goal(self) -> str:
        """The instruction as B-MoCA shows it to agents."""
        return f"Goal: {self.instruction}"

    @property
    def log_filters(self) -> list[str]:
        return sorted({d.filter for d in walk(self.success) if hasattr(d, "filter")})

    def initialize(self, device: Device) -> EpisodeStart:
        """Run the set-up, go HOME, clear the logs and record the reset values."""
        data_dir = Path(self.source).parent if self.source else Path(".")
        for step in self.setup:
            try:
                step.apply(device, data_dir)
            except (DeviceError, OSError) as exc:
                raise SetupError(f"task {self.id}: set-up step {step.describe()} failed: {exc}") from exc
        device.press("HOME")
        _shell(device, "logcat -b all -c")
        values: dict[str, str] = {}
        self.success.capture(Probe(device), values)
        return EpisodeStart(values)

    def is_successful(self, device: Device, start: EpisodeStart,
                      hierarchy: str | None = None, claims: Claims | None = None,
                      history: History | None = None) -> Verdict:
        """The verdict on the phone as it is; `claims` is what the agent said in the episode
        (its answer and status), which `answer` and `claimed` detectors read, and `history`
        when the parts of `ever`/`never`/`before` held (the environment keeps both)."""
        return self.success.check(Probe(device, start.reset_values, hierarchy, claims, history))

    def tear_down(self, device: Device) -> None:
        """Nothing to undo: every reset starts from the configuration's snapshot."""


def _shell(device: Device, cmd: str) -> str:
    out, code = device.shell(cmd)
    if code != 0:
        raise SetupError(f"`{cmd}` exited {code}: {out.strip() or '(no output)'}")
    return out

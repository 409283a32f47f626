"""Agents written outside bmoca: `package.module:ClassOrFactory` and installed names.

`bmoca eval --agent mymod:MyAgent -o key=value` imports `mymod` (from the current
directory or anywhere on PYTHONPATH), calls `MyAgent(key="value")` once per episode, and
checks that what it returns follows the agent protocol (`bmoca.agents.base.Agent`). An
installed package can add names instead, through the `bmoca.agents` entry-point group:

    [project.entry-points."bmoca.agents"]
    my-agent = "mypackage.agents:MyAgent"

Only the spec string travels to worker processes; each imports it itself. Every failure
(no such module, no such attribute, not callable, refused options, not an agent) is one
ValueError naming the spec and what was wrong.
"""

from __future__ import annotations

import importlib
import inspect
import os
import re
import sys
from collections.abc import Callable, Mapping
from importlib import metadata
from typing import Any

from bmoca import tasks

GROUP = "bmoca.agents"
_IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
_SPEC = re.compile(rf"(?P<module>{_IDENT}(?:\.{_IDENT})*):(?P<attr>{_IDENT}(?:\.{_IDENT})*)")
PROTOCOL = ("name", "action_mode", "observation_modes", "reset", "act")


def is_spec(name: str) -> bool:
    """True for `package.module:Attribute` (dotted identifiers on both sides)."""
    return _SPEC.fullmatch(name) is not None


def installed() -> dict[str, metadata.EntryPoint]:
    """Agent names added by installed packages (the `bmoca.agents` entry points)."""
    return {ep.name: ep for ep in metadata.entry_points(group=GROUP)}


def find(name: str) -> Callable[..., Any] | None:
    """The factory an installed name or a `module:attr` spec names; None when `name` is
    neither (so the caller can list the valid forms). A spec that does not resolve raises."""
    entry = installed().get(name)
    if entry is not None:
        try:
            return _callable(entry.load(), f"agent {name!r} (entry point {entry.value})")
        except ValueError:
            raise
        except Exception as exc:  # noqa: BLE001 - a broken plugin is named, not a traceback
            raise ValueError(f"agent {name!r}: loading entry point {entry.value!r} of group "
                             f"{GROUP!r} failed: {type(exc).__name__}: {exc}") from None
    match = _SPEC.fullmatch(name)
    if match is None:
        return None
    return _callable(_resolve(name, match["module"], match["attr"]), f"agent {name!r}")


def _resolve(spec: str, module_name: str, attr: str) -> Any:
    cwd = os.getcwd()
    if cwd not in sys.path and "" not in sys.path:  # the `bmoca` script does not add it
        sys.path.append(cwd)
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and (module_name + ".").startswith(exc.name + "."):
            raise ValueError(f"agent {spec!r}: no module named {exc.name!r} (looked in the "
                             "current directory and on PYTHONPATH)") from None
        raise ValueError(f"agent {spec!r}: importing module {module_name!r} failed: "
                         f"{type(exc).__name__}: {exc}") from None
    except Exception as exc:  # noqa: BLE001 - the module's own error, named
        raise ValueError(f"agent {spec!r}: importing module {module_name!r} failed: "
                         f"{type(exc).__name__}: {exc}") from None
    value: Any = module
    for part in attr.split("."):
        if not hasattr(value, part):
            public = sorted(n for n in dir(value) if not n.startswith("_"))
            raise ValueError(f"agent {spec!r}: {getattr(value, '__name__', module_name)!r} has "
                             f"no attribute {part!r}; it has: {', '.join(public) or 'nothing'}")
        value = getattr(value, part)
    return value


def _callable(value: Any, what: str) -> Callable[..., Any]:
    if not callable(value):
        raise ValueError(f"{what} is a {type(value).__name__}, not a class or factory "
                         "that returns an agent")
    return value


def build(name: str, factory: Callable[..., Any], task: tasks.Task,
          options: Mapping[str, Any] | None = None) -> Any:
    """Call `factory(**options)` (adding `task=` when it takes one) and check the result."""
    kwargs = dict(options or {})
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):
        signature = None
    if signature is not None:
        if "task" in signature.parameters and "task" not in kwargs:
            kwargs["task"] = task
        try:
            signature.bind(**kwargs)
        except TypeError as exc:
            takes = [p for p in signature.parameters if p != "task"]
            raise ValueError(f"agent {name!r} refuses options {sorted(options or {})}: {exc}; "
                             f"it takes: {', '.join(takes) or 'none'}") from None
    try:
        agent = factory(**kwargs)
    except Exception as exc:  # noqa: BLE001 - the agent's own error, named
        raise ValueError(f"agent {name!r}: building it failed: "
                         f"{type(exc).__name__}: {exc}") from None
    check(name, agent)
    return agent


def check(name: str, agent: Any) -> None:
    """The agent protocol, with what is missing or wrong named (ValueError)."""
    from bmoca.env import OBSERVATION_MODES
    from bmoca.env.actions import MODES, make_mode

    missing = [a for a in PROTOCOL if not hasattr(agent, a)]
    missing += [a for a in ("reset", "act") if hasattr(agent, a) and not callable(
        getattr(agent, a))]
    if missing:
        raise ValueError(f"agent {name!r} gave a {type(agent).__name__}, which is not an agent: "
                         f"it lacks {', '.join(missing)} (the protocol: name, action_mode, "
                         "observation_modes, reset(goal, seed), act(observation); "
                         "docs/agents.md)")
    try:
        make_mode(agent.action_mode)
    except (TypeError, ValueError):
        raise ValueError(f"agent {name!r}: action_mode {agent.action_mode!r} is not one of "
                         f"{', '.join(MODES)}") from None
    modes = agent.observation_modes
    if isinstance(modes, str) or not all(m in OBSERVATION_MODES for m in modes):
        raise ValueError(f"agent {name!r}: observation_modes {modes!r} must be a tuple of "
                         f"{', '.join(OBSERVATION_MODES)}")

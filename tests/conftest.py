"""Helpers that drive a device the way an agent or a detector does: XML in, taps out."""

from __future__ import annotations

import re

import numpy as np
import pytest
from lxml import etree

from bmoca import configs
from bmoca.device import connect


def nodes(xml: str, **attrs: str) -> list[etree._Element]:
    """Nodes whose attributes equal the given ones (resource_id -> resource-id)."""
    root = etree.fromstring(xml.encode("utf-8"))
    wanted = {k.replace("_", "-"): v for k, v in attrs.items()}
    return [n for n in root.iter("node") if all(n.get(k) == v for k, v in wanted.items())]


def bounds(node: etree._Element) -> tuple[int, int, int, int]:
    return tuple(int(v) for v in re.findall(r"-?\d+", node.get("bounds")))


def launch(component: str, config: str = "test_env_100"):
    """A simulated phone in a preset configuration with `component` started from the shell."""
    device = connect("sim", config=configs.get(config))
    out, code = device.shell(f"am start -n {component}")
    assert code == 0, out
    return device


def center_of(device, index: int = 0, **attrs: str) -> tuple[int, int]:
    found = nodes(device.dump_hierarchy(), **attrs)
    if len(found) <= index:
        raise LookupError(f"no node {attrs} on screen")
    left, top, right, bottom = bounds(found[index])
    return (left + right) // 2, (top + bottom) // 2


def tap_on(device, index: int = 0, **attrs: str) -> None:
    device.tap(*center_of(device, index, **attrs))


def row_of(xml: str, title: str) -> etree._Element:
    """The clickable preference row around a title."""
    node = nodes(xml, text=title)[0]
    while node is not None and node.get("clickable") != "true":
        node = node.getparent()
    return node


def logcat(device, *filters: str) -> str:
    out, code = device.shell("logcat -d " + " ".join(filters) + (" *:S" if filters else ""))
    assert code == 0, out
    return out


@pytest.fixture(scope="session")
def booted() -> bytes:
    """One stock boot per test process; `device` restores it (booting builds every app)."""
    return connect("sim").snapshot_bytes()


@pytest.fixture
def device(booted: bytes):
    """A stock phone, as `connect("sim")` gives, restored from the shared boot."""
    dev = connect("sim")
    dev.restore_bytes(booted)
    return dev


def run_attempts(task_id: str, attempts, expect: bool, config: str = "test_env_100") -> None:
    """Play each attempt (a function of a fresh device, after the task's reset) and check the
    task's verdict: near misses must fail (`expect=False`), other right paths must pass.
    The task must not be done at reset either way."""
    from bmoca import tasks

    task = tasks.get(task_id)
    for attempt in attempts:
        device = connect("sim", config=configs.get(config))
        start = task.initialize(device)
        assert task.is_successful(device, start).ok is False, "done at reset"
        attempt(device)
        verdict = task.is_successful(device, start)
        assert verdict.ok is expect, (getattr(attempt, "__name__", attempt), verdict.trace)


@pytest.fixture(scope="module")
def pool():
    """Phones shared by a module's episodes (reset from snapshots, as the runner does)."""
    from bmoca.env import DevicePool

    devices = DevicePool()
    yield devices
    devices.close()


def run_expert(pool, task_id: str, config: str) -> dict:
    """Play a task's expert through the env's JSON actions; the last step's info."""
    import bmoca
    from bmoca import tasks
    from bmoca.agents import ExpertAgent

    env = bmoca.make(task_id, config, device=pool, observation="xml", action="json")
    observation, info = env.reset(seed=0)
    agent = ExpertAgent(tasks.get(task_id))
    agent.reset(env.goal, seed=0)
    while True:
        observation, reward, terminated, truncated, info = env.step(agent.act(observation))
        if terminated or truncated:
            return info


def check_disk_cache(read, folder, kinds: set[str]) -> None:
    """An on-disk cache that `read(setting)` uses (the setting: "off" or a folder) gives
    what no cache gives when empty, full, damaged and unwritable, and keeps entries of
    `kinds` (the part of an entry's name before its first "-")."""
    reference = read("off")
    assert read(str(folder)) == reference  # empty: made, then kept
    entries = sorted(folder.iterdir())
    assert {e.name.split("-")[0] for e in entries} == kinds, "the first run keeps what it made"
    assert not list(folder.glob("*.tmp")), "no half-written entry is left"
    assert read(str(folder)) == reference  # full: read back
    for entry in entries:
        entry.write_bytes(entry.read_bytes()[:40])  # cut short
    assert read(str(folder)) == reference
    assert all(entry.stat().st_size > 40 for entry in entries), "damaged entries made again"
    blocker = folder.parent / "a-file"
    blocker.write_text("not a directory")
    assert read(str(blocker / folder.name)) == reference  # cannot be written


def assert_same_outputs(a, b, where: str) -> None:
    """Two recordings of observations, infos, dumps and screenshots equal byte for byte
    (arrays by shape and bytes, containers item by item); `where` names the first place
    that differs."""
    if isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray) and a.shape == b.shape and a.tobytes() == b.tobytes(), \
            where
    elif isinstance(a, dict):
        assert a.keys() == b.keys(), where
        for key in a:
            assert_same_outputs(a[key], b[key], f"{where}.{key}")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            assert_same_outputs(x, y, f"{where}[{i}]")
    else:
        assert a == b, where

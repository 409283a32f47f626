"""Rows and the small helpers rows share: launching an app as the launcher does, tapping
a node found by resource-id, typing through the shell."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from conftest import bounds, nodes, tap_on

Play = Callable[[object], object]


@dataclass(frozen=True)
class Row:
    """One trajectory: played on a fresh reset of `task_id`, the verdict must be `must_pass`.
    `english` rows find nodes by English text, so they run on the English configurations
    only; `xfail` names a known finding that could not be fixed (a strict xfail)."""

    task_id: str
    must_pass: bool
    name: str
    play: Play
    english: bool = False
    xfail: str | None = None

    @property
    def id(self) -> str:
        return f"{self.task_id}::{'pass' if self.must_pass else 'fail'}:{self.name}"


def fails(task_id: str, name: str, play: Play, **kw) -> Row:
    return Row(task_id, False, name, play, **kw)


def passes(task_id: str, name: str, play: Play, **kw) -> Row:
    return Row(task_id, True, name, play, **kw)


def from_generators(task_ids: Iterable[str], near: Callable[[str], Iterable[Play]],
                    right: Callable[[str], Iterable[Play]], english: bool = True) -> list[Row]:
    """Rows from an app's `near_misses(task_id)` / `right_paths(task_id)` generators;
    a lambda is named by its kind and position."""
    rows = []
    for task_id in task_ids:
        for must_pass, gen in ((False, near), (True, right)):
            for i, play in enumerate(gen(task_id)):
                name = getattr(play, "__name__", "<lambda>")
                if name == "<lambda>":
                    name = f"{'right' if must_pass else 'near'}_{i}"
                rows.append(Row(task_id, must_pass, name, play, english))
    return rows


def launch(device, package: str) -> None:
    """Start an app by its launcher intent (what tapping its icon does)."""
    out, code = device.shell(f"monkey -p {package} -c android.intent.category.LAUNCHER 1")
    assert code == 0, out


def start(device, component: str, *extra: str) -> None:
    out, code = device.shell(" ".join(("am start", *extra, "-n", component)))
    assert code == 0, out


def tap_id(device, rid: str, index: int = 0) -> None:
    tap_on(device, index, resource_id=rid)


def has(device, rid: str) -> bool:
    return bool(nodes(device.dump_hierarchy(), resource_id=rid))


def tap_node(device, node) -> None:
    left, top, right, bottom = bounds(node)
    device.tap((left + right) // 2, (top + bottom) // 2)


def shell(device, *commands: str) -> None:
    for command in commands:
        out, code = device.shell(command)
        assert code == 0, (command, out)


def app_drawer(device) -> None:
    """Open the launcher's app drawer by swiping up from the home screen."""
    device.press("HOME")
    width, height = device.screen_size()
    device.swipe(width // 2, height * 3 // 4, width // 2, height // 4)


def seq(*steps: Play) -> Play:
    """A trajectory made of steps played in order (for table rows)."""
    def play(device) -> None:
        for step in steps:
            step(device)
    return play

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


def tap_nth(device, rid: str, index: int, order: list[str] | None = None) -> None:
    """Tap the index-th node with this id counting from the top of a scrolling list,
    scrolling down a little at a time (as a user would) while it is below the fold: rows
    grow with their wrapped text, so at 700 dpi a list's later rows start off screen.
    Pass the same `order` list to several calls to keep counting from the list's top."""
    width, height = device.screen_size()
    order = [] if order is None else order
    for _ in range(10):
        found = nodes(device.dump_hierarchy(), resource_id=rid)
        for node in found:
            key = node.get("text") or node.get("bounds")
            if key not in order:
                order.append(key)
        if len(order) > index:
            for node in found:
                if (node.get("text") or node.get("bounds")) == order[index]:
                    tap_node(device, node)
                    return
        device.swipe(width // 2, height * 3 // 5, width // 2, height * 2 // 5, 400)
    raise LookupError(f"no {index}-th {rid} in the list")


def scroll_to_top(device, rid: str) -> None:
    """Scroll a list back up until its first node with this id stops changing."""
    width, height = device.screen_size()
    last = None
    for _ in range(10):
        found = nodes(device.dump_hierarchy(), resource_id=rid)
        first = (found[0].get("text"), found[0].get("bounds")) if found else None
        if first == last:
            return
        last = first
        device.swipe(width // 2, height * 2 // 5, width // 2, height * 3 // 5, 400)


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

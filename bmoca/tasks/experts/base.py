"""What every scripted expert shares: reading the screen, finding elements, acting.

Experts act only through the environment's JSON action interface (clicks at element
centres, scrolls, navigation keys) and read only the observation's view hierarchy. They
find elements by resource-id and by position among same-id siblings, never by translated
text, so one expert works in every language and layout. The one exception is a launcher
icon, which carries no resource-id on Android: it is found by the app's label in any of
the 15 locales (`bmoca.formats.apps.labels_of`).

An expert is a plan: a list of stages, each of which looks at the screen and either
returns an action or reports that it is satisfied, which moves the plan on.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bmoca.bytecache import byte_lru
from bmoca.formats import apps as app_table
from bmoca.formats.hierarchy import DUMPS_KEPT, PARSED_BYTES, numbered
from bmoca.formats.hierarchy import parse as parse_dump
from bmoca.tasks.experts import interruptions

LAUNCHER = "com.google.android.apps.nexuslauncher"
SYSTEMUI = "com.android.systemui"
SETTINGS = "com.android.settings"
APPS_LIST = f"{LAUNCHER}:id/apps_list_view"
"""The app drawer's list: present only while the drawer is open."""
ROUTES = ("launcher", "shade")
"""How an expert opens Settings: its launcher icon (the reference's way), or the gear of
the notification shade (a path that looks the same on every home-screen layout)."""
Action = dict[str, Any]
_BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")


@dataclass(frozen=True)
class Node:
    id: str
    text: str
    desc: str
    cls: str
    package: str
    checked: bool
    scrollable: bool
    bounds: tuple[int, int, int, int]
    tag: int = -1
    """The element's number in the env's post-order numbering (a JSON action's `index`)."""

    @property
    def center(self) -> tuple[int, int]:
        x1, y1, x2, y2 = self.bounds
        return (x1 + x2) // 2, (y1 + y2) // 2

    @property
    def height(self) -> int:
        return self.bounds[3] - self.bounds[1]


class Screen:
    """The nodes of one hierarchy dump, in document order."""

    def __init__(self, xml: str):
        self.nodes: list[Node] = list(_parsed(xml))
        self.package = self.nodes[0].package if self.nodes else ""

    def all(self, id: str) -> list[Node]:
        return [n for n in self.nodes if n.id == id]

    def first(self, id: str) -> Node | None:
        found = self.all(id)
        return found[0] if found else None

    def has(self, id: str) -> bool:
        return any(n.id == id for n in self.nodes)

    def signature(self) -> tuple:
        """Changes whenever what is on screen changes (to detect the end of a list)."""
        return tuple((n.id, n.text, n.bounds) for n in self.nodes)

    def rtl(self) -> bool | None:
        """Whether the layout is mirrored, judged from a list row's icon and title, or else
        from the pulled-down shade's status bar (its clock starts the bar, on the right in
        a right-to-left layout; the system icons end it)."""
        icons, titles = self.all("android:id/icon"), self.all("android:id/title")
        if icons and titles:
            return icons[0].center[0] > titles[0].center[0]
        clock, system = self.first(f"{SYSTEMUI}:id/clock"), self.first(f"{SYSTEMUI}:id/system_icons")
        if clock is not None and system is not None:
            return clock.center[0] > system.center[0]
        return None


@byte_lru(PARSED_BYTES, maxsize=DUMPS_KEPT)
def _parsed(xml: str) -> tuple[Node, ...]:
    """The nodes of a dump seen lately (a screen that did not change dumps the same text),
    in document order, each with its number in the env's observations
    (`bmoca.formats.hierarchy.numbered`)."""
    root = parse_dump(xml)
    order = numbered(root)  # held, so that each element keeps its id while it is read
    tags = {id(el): n for n, el in enumerate(order)}
    found = [(el, m) for el in root.iter("node")
             if (m := _BOUNDS.fullmatch(el.get("bounds", "")))]
    return tuple(Node(
        id=el.get("resource-id", ""), text=el.get("text", ""), desc=el.get("content-desc", ""),
        cls=el.get("class", ""), package=el.get("package", ""),
        checked=el.get("checked") == "true", scrollable=el.get("scrollable") == "true",
        bounds=tuple(map(int, m.groups())), tag=tags[id(el)])  # type: ignore[arg-type]
        for el, m in found)


def click(node: Node) -> Action:
    x, y = node.center
    return {"action_type": "click", "x": x, "y": y}


def long_press(node: Node) -> Action:
    x, y = node.center
    return {"action_type": "long_press", "x": x, "y": y}


def click_at(node: Node, fx: float) -> Action:
    """A tap at fraction `fx` of the node's width (a slider position)."""
    x1, _y1, x2, _y2 = node.bounds
    pad = (x2 - x1) * 0.04
    return {"action_type": "click", "x": int(x1 + pad + (x2 - x1 - 2 * pad) * fx),
            "y": node.center[1]}


SCROLL_DOWN: Action = {"action_type": "scroll", "direction": "down"}
"""Reveal what is below: the finger moves up from the centre of the screen to its top edge
(on the home screen, the swipe up that opens the app drawer). Too long a move for a list:
the 300 ms swipe flings on, and the list travels about a container's height or more."""
PULL_SHADE: Action = {"action_type": "swipe", "direction": "down"}
"""The finger moves down from the top edge: the notification shade comes down."""
HOME: Action = {"action_type": "navigate_home"}
BACK: Action = {"action_type": "navigate_back"}
WAIT: Action = {"action_type": "wait"}

Stage = Callable[[Screen, "Expert"], Action | None]
"""Returns the next action, or None when the stage is already satisfied."""


class ExpertStuck(RuntimeError):
    """The expert cannot find what its plan needs; the message says which stage and why."""


class Expert:
    """Runs a plan of stages; `act` takes an observation with an `xml` entry (the agent
    wrapper, `bmoca.agents.ExpertAgent`, declares the modes to the runner)."""

    def __init__(self, stages: Sequence[Stage], route: str = "launcher"):
        if route not in ROUTES:
            raise ValueError(f"route must be one of {', '.join(ROUTES)}, not {route!r}")
        self.stages = list(stages)
        self.route = route
        self.reset("")

    def reset(self, goal: str, seed: int | None = None) -> None:
        self.stage = 0
        self.memory: dict[str, Any] = {}
        """What the expert learnt about the device (e.g. `rtl`), kept for the episode."""
        self.scratch: dict[str, Any] = {}
        """Counters of the current stage, cleared when the plan moves on."""

    def act(self, observation: dict[str, Any]) -> Action:
        screen = Screen(observation["xml"])
        interrupted = interruptions.deal_with(screen)
        if interrupted is not None:
            return interrupted
        rtl = screen.rtl()
        if rtl is not None:
            self.memory["rtl"] = rtl
        for _ in range(len(self.stages) + 1):
            if self.stage >= len(self.stages):
                return {"action_type": "status", "goal_status": "complete"}
            action = self.stages[self.stage](screen, self)
            if action is not None:
                return action
            self._next()
        return WAIT

    def _next(self) -> None:
        self.stage += 1
        self.scratch.clear()

    def advance_after(self, action: Action) -> Action:
        """Return `action` and move to the next stage (for one-shot taps)."""
        self._next()
        return action

    def scroll_or_fail(self, screen: Screen, why: str, limit: int = 8,
                       rows: str | None = None, action: Action | None = None) -> Action:
        """The next scroll down the list that holds the elements with id `rows` (see
        `scroll_list`), or `action` instead; ExpertStuck after `limit` of them in this
        stage."""
        count = self.scratch.get("scrolls", 0)
        if count >= limit:
            raise ExpertStuck(f"stage {self.stage}: {why} (after {count} scrolls)")
        self.scratch["scrolls"] = count + 1
        return action if action is not None else scroll_list(screen, rows)


def scroll_list(screen: Screen, rows: str | None = None) -> Action:
    """Scroll a list down by less than its own height: JSON `scroll` on the list container
    itself, so the finger goes from the container's centre to its top edge in 300 ms.

    The drag is half the list, and what the list coasts after the lift is less than the
    drag (the simulator's fling adds velocity / 2500 dp/s of it, under the drag for lists
    under 1,500 dp; Android 10's OverScroller coasts about half to two thirds of it at
    these speeds), so the list moves by less than its height: no row passes from below the
    list to above it unseen, which `shown_in_list` relies on to keep count under rows
    taller than the move leaves in common. (`SCROLL_DOWN`, from the screen's centre, flings
    on by about a list's height or more: tall rows then leave nothing to count by.)

    The container is the innermost scrollable holding an element with id `rows` (or that
    element itself), else the largest scrollable on screen; with none, the screen is
    scrolled (`SCROLL_DOWN`)."""
    container = list_container(screen, rows)
    if container is None or container.tag < 0:
        return SCROLL_DOWN
    return {"action_type": "scroll", "index": container.tag, "direction": "down"}


def list_container(screen: Screen, rows: str | None = None) -> Node | None:
    """The scroll container of the list that holds the elements with id `rows` (see
    `scroll_list`)."""
    lists = [n for n in screen.nodes if n.scrollable and n.height > 0]
    for node in screen.all(rows) if rows else ():
        holders = [n for n in lists if _inside(node.bounds, n.bounds)]
        if holders:
            return holders[-1]
    return max(lists, key=lambda n: n.height * (n.bounds[2] - n.bounds[0]), default=None)


# -- stages shared by the app experts ----------------------------------------------------------


def open_app(package: str) -> Stage:
    """From anywhere, get the app to the foreground through the launcher (Settings through
    the shade's gear when the expert's route is "shade")."""
    app_table.labels_of(package)  # an unknown app is the plan's error, not the episode's

    def stage(screen: Screen, expert: Expert) -> Action | None:
        if screen.package == package:
            return None
        if package == SETTINGS and expert.route == "shade":
            gear = screen.first(f"{SYSTEMUI}:id/settings_button")
            if gear is not None:
                return click(gear)
            return PULL_SHADE if screen.package == LAUNCHER else HOME
        # the stage is satisfied once the app is in front
        return toward_launcher_icon(package, screen, expert, click)

    return stage


def toward_launcher_icon(package: str, screen: Screen, expert: Expert,
                         act: Callable[[Node], Action]) -> Action:
    """`act` on the app's launcher icon, or the move that brings it on screen: HOME from
    another app, then a scroll (on the home screen, the swipe up that opens the drawer)."""
    if screen.package != LAUNCHER:
        return HOME
    labels = app_table.labels_of(package)
    icons = [n for n in screen.nodes if n.cls == "android.widget.TextView"
             and n.text in labels and n.height > 0]
    if icons:
        return act(icons[0])
    # on the home screen, the swipe up that opens the app drawer; in it, a scroll of its list
    home = None if screen.has(APPS_LIST) else SCROLL_DOWN
    return expert.scroll_or_fail(screen, f"no launcher icon for {package}", rows=APPS_LIST,
                                 action=home)


def tap_id(id: str, index: int = 0, act: Callable[[Node], Action] = click) -> Stage:
    """Tap (or `act` on) the `index`-th element with this resource-id in the page's list,
    counting from the top of the list; scrolls down until that element is fully shown.

    Rows scrolled off the top are accounted for by lining up the elements seen before and
    after each scroll (the same row shows the same text on both screens, whatever the
    language), so `index` keeps counting from the top of the whole list.
    """

    def stage(screen: Screen, expert: Expert) -> Action | None:
        node = shown_in_list(screen, expert, id, index)
        if node is not None:
            return expert.advance_after(act(node))
        return expert.scroll_or_fail(screen, f"no {id} #{index} on screen", rows=id)

    return stage


def shown_in_list(screen: Screen, expert: Expert, id: str, index: int,
                  usable: Callable[[Node], bool] | None = None) -> Node | None:
    """The `index`-th element with this id (counting from the top of the whole list) when
    it is fully shown now (and `usable`, e.g. clear of a floating bar); else None, having
    noted the list so that the stage's next scroll is accounted for (see `tap_id`)."""
    found = screen.all(id)
    first = _first_visible_index(found, expert)
    k = index - first
    now = [_identity(n) for n in found]
    # the last scroll moved nothing: the list is at its end, where its last row sits flush
    # with the container's bottom edge and is whole (RecyclerView has no bottom padding)
    at_end = expert.scratch.get("before_scroll") == (now, first)
    if 0 <= k < len(found) and _fully_shown(found[k], screen, flush=at_end) \
            and (usable is None or usable(found[k])):
        return found[k]
    expert.scratch["before_scroll"] = (now, first)
    return None


def _identity(node: Node) -> tuple[str, str]:
    return (node.text, node.desc)


def _first_visible_index(found: list[Node], expert: Expert) -> int:
    """Index in the whole list of the first element shown now (0 before any scroll).

    The rows shown before and after a scroll are lined up where they have rows in common.
    Rows taller than the scroll leaves in common (Wikipedia's feed cards with their lead
    pictures) may have none: then every row shown before went off the top, and since the
    expert's scroll (`scroll_list`) moves the list by less than its container's height,
    no row passed unseen, so the first row shown now is the one after the last shown."""
    before = expert.scratch.get("before_scroll")
    if before is None:
        return 0
    previous, first = before
    now = [_identity(n) for n in found]
    for offset in range(len(previous)):
        overlap = min(len(previous) - offset, len(now))
        if overlap and previous[offset:offset + overlap] == now[:overlap]:
            return first + offset
    return first + len(previous)


def set_switch(id: str, index: int = 0, *, checked: bool | None = None) -> Stage:
    """Make the `index`-th switch with this id checked or not (None: flip it once)."""

    def stage(screen: Screen, expert: Expert) -> Action | None:
        found = screen.all(id)
        if len(found) <= index or not _fully_shown(found[index], screen):
            return expert.scroll_or_fail(screen, f"no switch {id} #{index} on screen",
                                          rows=id)
        switch = found[index]
        if checked is not None and switch.checked == checked:
            return None
        return expert.advance_after(click(switch))

    return stage


def slide(id: str, index: int, fraction: float) -> Stage:
    """Tap a slider at `fraction` of its range (mirrored in right-to-left layouts)."""

    def stage(screen: Screen, expert: Expert) -> Action | None:
        found = screen.all(id)
        if len(found) <= index or not _fully_shown(found[index], screen):
            return expert.scroll_or_fail(screen, f"no slider {id} #{index} on screen",
                                          rows=id)
        fx = 1.0 - fraction if expert.memory.get("rtl") else fraction
        return expert.advance_after(click_at(found[index], fx))

    return stage


def slide_to(id: str, index: int, value: int, low: int, high: int) -> Stage:
    """Tap a stepped slider (a volume SeekBar of `low`..`high`) right on the point of
    `value`: AbsSeekBar.trackTouchEvent takes the touch's place along the bar and rounds it
    to the nearest step, so a tap on a step's own point lands on that step (mirrored in
    right-to-left layouts, where the bar runs from the right)."""
    if not low <= value <= high or low >= high:
        raise ValueError(f"value {value} is not on a slider of {low}..{high}")

    def stage(screen: Screen, expert: Expert) -> Action | None:
        found = screen.all(id)
        if len(found) <= index or not _fully_shown(found[index], screen):
            return expert.scroll_or_fail(screen, f"no slider {id} #{index} on screen",
                                          rows=id)
        fraction = (value - low) / (high - low)
        fx = 1.0 - fraction if expert.memory.get("rtl") else fraction
        x1, _y1, x2, _y2 = found[index].bounds
        x = min(x2 - 1, max(x1, round(x1 + (x2 - x1) * fx)))
        return expert.advance_after({"action_type": "click", "x": x,
                                     "y": found[index].center[1]})

    return stage


def tap_if_shown(id: str, long: bool = False) -> Stage:
    """Dismiss an optional dialog: tap (or long-press) `id` if it is on screen, else move
    on; also a control one form factor lacks (Chrome's tab switcher button on a tablet)."""

    def stage(screen: Screen, expert: Expert) -> Action | None:
        node = screen.first(id)
        return expert.advance_after((long_press if long else click)(node)) if node else None

    return stage


def tap_unless_shown(id: str, shown: str) -> Stage:
    """Tap `id` (a toggle, e.g. a panel's expand arrow) unless `shown` is already on screen."""

    def stage(screen: Screen, expert: Expert) -> Action | None:
        if screen.has(shown):
            return None
        node = screen.first(id)
        if node is None:
            raise ExpertStuck(f"stage {expert.stage}: no {id} on screen")
        return expert.advance_after(click(node))

    return stage


def wait_for(id: str) -> Stage:
    """Move on once `id` is on screen (after a tap that opens a page)."""
    return _repeat_until(id, WAIT, 3, "never appeared")


def back_until(id: str) -> Stage:
    """Press BACK until `id` is on screen (leaving pages whose Up button has no id)."""
    return _repeat_until(id, BACK, 4, "never came back")


def _repeat_until(id: str, action: Action, limit: int, failure: str) -> Stage:
    """Repeat `action` until `id` is on screen, at most `limit` times."""

    def stage(screen: Screen, expert: Expert) -> Action | None:
        if screen.has(id):
            return None
        count = expert.scratch.get("repeats", 0)
        if count >= limit:
            raise ExpertStuck(f"stage {expert.stage}: {id} {failure}")
        expert.scratch["repeats"] = count + 1
        return action

    return stage


def _fully_shown(node: Node, screen: Screen, flush: bool = False) -> bool:
    """Inside its scroll container, with room to spare (a clipped row may not take taps);
    `flush`: a row ending exactly at the container's bottom edge counts (the list's end)."""
    containers = [n for n in screen.nodes if n.scrollable and _inside(node.bounds, n.bounds)]
    if not containers:
        return node.height > 0
    x1, y1, x2, y2 = containers[-1].bounds
    spare = 0 if flush else 4
    return node.bounds[1] >= y1 and node.bounds[3] <= y2 - spare and node.height > 0


def contains(outer: tuple[int, int, int, int], inner: tuple[int, int, int, int]) -> bool:
    """`inner` lies wholly within `outer` (bounds as uiautomator reports them)."""
    return (outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2]
            and inner[3] <= outer[3])


def _inside(inner: tuple[int, int, int, int], outer: tuple[int, int, int, int]) -> bool:
    """Starts inside `outer` (a row may run past a scroll container's bottom edge)."""
    return (outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2]
            and inner[1] < outer[3])

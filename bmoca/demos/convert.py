"""An expert's JSON action in B-MoCA's other three forms: text, dual gesture, discrete.

The conversions are chosen to be exact where the forms allow it, so a demonstration
replayed in any of the env's action modes does what the expert did:

* a click at (x, y) becomes `tap(i)` when the smallest translated element under the point
  has its tap point (the centre of its on-screen part) exactly there, otherwise
  `dual-gesture(...)` with the point; the dual gesture is ((y + 0.5) / H, (x + 0.5) / W)
  for touch and lift, the centre of the pixel, which the env maps back to (x, y);
* a scroll or swipe becomes the dual gesture from its touch to its lift pixel, and the
  text action the same gesture written as `dual-gesture(...)` with 4 decimals (B-MoCA's
  `swipe("up")` moves the finger 0.8 -> 0.2 of the screen, farther than the expert does);
* navigate_home/back/recents become `press("HOME"|"BACK"|"OVERVIEW")` and the gesture a
  tap on that navigation-bar button (mirrored in right-to-left locales), which is what
  B-MoCA's text and discrete modes do;
* the discrete index of a tap is the grid cell nearest the point among those that land in
  the same element (the smallest element under the point that holds a grid cell), so
  that the coarse 385-way tap still hits what the expert hit; a swipe's is the closest
  of the four swipe directions (`Discrete.index_of`), a button tap's the button. The
  discrete swipe moves the finger farther than the expert's scroll, so a demonstration
  replayed in discrete actions diverges unless it was played in them (`discrete_play`).

`wait`, `status`, `answer`, text input and long presses have no B-MoCA form: None.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from bmoca.env import actions as act

_BUTTONS = {"HOME": "HOME", "BACK": "BACK", "APP_SWITCH": "OVERVIEW"}


@dataclass(frozen=True)
class Forms:
    """One action in the four forms (None where a form cannot express it)."""

    json_action: dict[str, Any]
    text_action: str | None
    dual_gesture: tuple[float, float, float, float] | None
    discrete: int | None


def _point(x: int, y: int, screen: act.Screen) -> tuple[float, float]:
    """Normalised (y, x) at the centre of pixel (x, y)."""
    return (y + 0.5) / screen.height, (x + 0.5) / screen.width


def _gesture_text(vector: tuple[float, float, float, float]) -> str:
    return "dual-gesture({:.4f}, {:.4f}, {:.4f}, {:.4f})".format(*vector)


def element_at(x: int, y: int, screen: act.Screen) -> int | None:
    """Tag of the element `tap(i)` would hit at exactly (x, y), else None."""
    under = []
    for e in screen.elements:
        x1, y1, x2, y2 = e.bounds
        if x1 <= x < x2 and y1 <= y < y2:
            under.append(((x2 - x1) * (y2 - y1), e.numeric_tag))
    for _area, tag in sorted(under):
        try:
            centre = screen.center_of(tag, "tap")
        except act.InvalidAction:
            continue
        return tag if centre == (x, y) else None
    return None


def convert(action: Any, screen: act.Screen) -> Forms:
    """All forms of one JSON action on `screen` (the screen it was taken on)."""
    mode = act.JsonActions()
    parsed = mode.parse(action)
    commands = [c for c in mode.convert(parsed, screen) if not isinstance(c, act.Wait)]
    none = Forms(parsed, None, None, None)
    if len(commands) != 1:
        return none
    command = commands[0]
    if isinstance(command, act.Tap):
        ty, tx = _point(command.x, command.y, screen)
        vector = (ty, tx, ty, tx)
        tag = element_at(command.x, command.y, screen)
        text = f"tap({tag})" if tag is not None else _gesture_text(vector)
    elif isinstance(command, act.Swipe):
        ty, tx = _point(command.x1, command.y1, screen)
        ly, lx = _point(command.x2, command.y2, screen)
        vector = (ty, tx, ly, lx)
        text = _gesture_text(vector)
    elif isinstance(command, act.PressKey) and command.key in _BUTTONS:
        button = _BUTTONS[command.key]
        x = act.NAV_BUTTON_X[button]
        vector = (act.NAV_BAR_Y, 1.0 - x if screen.rtl else x) * 2
        text = f'press("{button}")'
    else:
        return none
    if isinstance(command, act.Tap):
        discrete = snap_tap(command.x, command.y, screen)
    else:
        discrete = act.Discrete.index_of(*vector, rtl=screen.rtl)
    return Forms(parsed, text, tuple(float(v) for v in vector), discrete)


@functools.lru_cache(maxsize=16)
def _grid(width: int, height: int) -> tuple[tuple[int, int], ...]:
    """The pixel each of the 378 discrete taps lands on, on a screen of this size (taps
    depend on nothing else, so one computation per size serves every step)."""
    mode, screen = act.Discrete(), act.Screen(width, height, ())
    return tuple((tap.x, tap.y) for tap in (mode.convert(index, screen)[0]
                                             for index in range(act.Discrete.n_taps)))


def snap_tap(x: int, y: int, screen: act.Screen) -> int:
    """The discrete tap that hits the element a tap at (x, y) hits, nearest to (x, y).

    The elements under the point are nested; the smallest that holds a grid cell decides
    (a grid cell is 0.0375 of the height apart, more than a text line, so a row's title
    often holds none while the row does). Nearest overall when none does."""
    grid = _grid(screen.width, screen.height)
    under = sorted(((e.bounds[2] - e.bounds[0]) * (e.bounds[3] - e.bounds[1]), e.bounds)
                   for e in screen.elements
                   if e.bounds[0] <= x < e.bounds[2] and e.bounds[1] <= y < e.bounds[3])
    candidates = list(range(len(grid)))
    for _area, (x1, y1, x2, y2) in under:
        inside = [i for i, (gx, gy) in enumerate(grid) if x1 <= gx < x2 and y1 <= gy < y2]
        if inside:
            candidates = inside
            break
    return min(candidates, key=lambda i: (grid[i][0] - x) ** 2 + (grid[i][1] - y) ** 2)


def discrete_play(forms: Forms, screen: act.Screen) -> Forms:
    """The forms of what a discrete agent does for this expert action: its discrete index,
    executed. A tap becomes a click on the grid point, so every form describes the executed
    action; a swipe keeps the expert's JSON (a JSON swipe has no finger path) with the
    discrete swipe's gesture. Actions without a discrete form are returned unchanged."""
    if forms.discrete is None:
        return forms
    command = act.Discrete().convert(forms.discrete, screen)[0]
    if isinstance(command, act.Tap):
        return convert({"action_type": "click", "x": command.x, "y": command.y}, screen)
    if isinstance(command, act.Swipe):
        vector = (*_point(command.x1, command.y1, screen), *_point(command.x2, command.y2, screen))
        return Forms(forms.json_action, _gesture_text(vector), vector, forms.discrete)
    return forms


class DiscretePlay(act.JsonActions):
    """JSON expert actions executed as a discrete agent's equivalent (`discrete_play`), so
    that a demonstration shows the screens a discrete policy will meet."""

    name = "json"

    def convert(self, action: Any, screen: act.Screen) -> list[act.Command]:
        forms = convert(action, screen)
        if forms.discrete is None:
            return super().convert(action, screen)
        return act.Discrete().convert(forms.discrete, screen)

"""Layout checks on a composed frame: text that collides, text cut off, unreachable buttons.

Why: a screen can be correct in the uiautomator dump yet unreadable in pixels (labels
drawn over each other at 700 dpi, a two-line summary squeezed into a one-line row). These
checks read the laid-out view tree and measure every label with the renderer itself
(`painter.place_text`), so they see the boxes the painter really fills. Text that an opaque
view painted later hides (a drawer, bottom sheet or menu over the content of the same
window) is not visible, so it collides with nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from bmoca.sim.render.painter import app_icon_top, place_text
from bmoca.sim.system.windows import Frame, Window
from bmoca.sim.ui.view import Box, View

TOLERANCE_PX = 1
"""Anti-aliasing slack: boxes that share one pixel row or column do not collide."""


@dataclass(frozen=True)
class Issue:
    kind: str
    """"overlap" (two labels draw over each other), "clipped" (a label is drawn outside its
    view), "offscreen" (a clickable view reaches past the screen)."""
    window: str
    what: str

    def __str__(self) -> str:
        return f"{self.kind} in {self.window}: {self.what}"


@dataclass(frozen=True)
class _Label:
    view: View
    box: Box
    """Where the text's line boxes are drawn, cut to what the painter's clip lets through."""
    path: str
    order: int
    """When the painter draws the view (pre-order, as `painter._window` walks the tree)."""


@dataclass(frozen=True)
class _Cover:
    """An opaque background: whatever was painted before it under `box` is not visible."""
    order: int
    box: Box
    """The filled area, cut to the painter's clip."""
    bounds: Box
    corner: int


def _opaque(view: View) -> bool:
    bg = view.bg
    return bg is not None and (len(bg) == 3 or bg[3] >= 255)


def _covers(cover: _Cover, box: Box) -> bool:
    """Whether `box` lies inside the fill, away from its rounded-off corners."""
    c = cover.box
    if box[0] < c[0] or box[1] < c[1] or box[2] > c[2] or box[3] > c[3]:
        return False
    b, r = cover.bounds, cover.corner
    near_left, near_right = box[0] < b[0] + r, box[2] > b[2] - r
    near_top, near_bottom = box[1] < b[1] + r, box[3] > b[3] - r
    return not ((near_left or near_right) and (near_top or near_bottom))


def _hidden(label: _Label, box: Box, covers: list[_Cover]) -> bool:
    """Whether an opaque view painted after the label hides all of it within `box`."""
    return any(c.order > label.order and _covers(c, box) for c in covers)


def _describe(view: View) -> str:
    name = view.id or view.cls or "view"
    text = view.text if len(view.text) <= 24 else view.text[:23] + "\u2026"
    return f"{name} {text!r} {list(view.bounds)}"


def _intersect(a: Box, b: Box) -> Box | None:
    box = (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))
    return box if box[2] > box[0] and box[3] > box[1] else None


def _shown_text(view: View, theme_text) -> tuple[str, object] | None:
    """The text a view paints and its colour, or None when it paints none."""
    color = view.text_color or theme_text
    shown = view.text
    if not shown and view.hint and view.on_text is not None:
        shown = view.hint
    if not shown or view.draw is not None:
        return None
    if len(color) == 4 and color[3] == 0:
        return None
    return shown, color


def _labels(window: Window, scale: float, font_scale: float, locale: str, rtl: bool,
            issues: list[Issue], text_color, covers: list[_Cover]) -> list[_Label]:
    """Every drawn label of a window with its box; clipped labels are reported on the way,
    and opaque backgrounds are gathered into `covers`."""
    out: list[_Label] = []
    stack: list[tuple[View, Box, bool]] = [(window.root, window.box, False)]
    order = 0
    while stack:
        view, clip, in_scroller = stack.pop()
        if not view.visible or not view.on_screen:
            continue
        order += 1
        if _opaque(view):
            filled = _intersect(view.bounds, clip)
            if filled is not None:
                covers.append(_Cover(order, filled, view.bounds, int(view.corner * scale + 0.5)))
        shown = _shown_text(view, text_color)
        if shown is not None:
            top = None
            if view.image and view.image.startswith("app:"):
                top = app_icon_top(view, scale)[1]
            sprite, x, y = place_text(view, shown[0], shown[1], scale, font_scale, locale, rtl,
                                      top)
            # TextView's font padding holds no ink: text reaching into it overlaps nothing
            pad_top, pad_bottom = sprite.info.get("font_padding", (0, 0))
            box = (x, y + pad_top, x + sprite.width, y + sprite.height - pad_bottom)
            b = view.bounds
            if (box[0] < b[0] - TOLERANCE_PX or box[1] < b[1] - TOLERANCE_PX
                    or box[2] > b[2] + TOLERANCE_PX or box[3] > b[3] + TOLERANCE_PX):
                issues.append(Issue("clipped", window.kind,
                                    f"{_describe(view)} draws its text at {list(box)}"))
            seen = _intersect(box, clip)
            if seen is not None:
                out.append(_Label(view, seen, view.id, order))
        child_clip = view.clip if view.scrollable else clip
        for child in reversed(view.children):
            if not view.scrollable and child.visible and _has_text(child, text_color):
                _check_inside(child, view, window, issues)
            stack.append((child, child_clip, in_scroller or view.scrollable))
    return out


def _has_text(view: View, text_color) -> bool:
    return any(_shown_text(v, text_color) is not None for v in view.walk())


def _check_inside(child: View, parent: View, window: Window, issues: list[Issue]) -> None:
    """A view holding text must lie inside its (non-scrolling) parent: what sticks out is cut
    off on a phone, and here it would not even be drawn."""
    c, p = child.bounds, parent.bounds
    if (c[0] < p[0] - TOLERANCE_PX or c[1] < p[1] - TOLERANCE_PX
            or c[2] > p[2] + TOLERANCE_PX or c[3] > p[3] + TOLERANCE_PX):
        issues.append(Issue("clipped", window.kind,
                            f"{_describe(child)} sticks out of its parent {_describe(parent)}"))


def _offscreen(window: Window, screen: Box, issues: list[Issue]) -> None:
    """Clickable views outside scrolling containers must lie wholly on the screen: a
    button half past the edge is one an agent can see but not reliably press."""
    stack: list[tuple[View, bool]] = [(window.root, False)]
    while stack:
        view, scrolled = stack.pop()
        if not view.visible or not view.on_screen:
            continue
        if view.clickable and not scrolled:
            b = view.bounds
            if b[0] < screen[0] or b[1] < screen[1] or b[2] > screen[2] or b[3] > screen[3]:
                issues.append(Issue("offscreen", window.kind,
                                    f"{_describe(view)} reaches past the {screen[2]}x{screen[3]} "
                                    f"screen"))
        for child in view.children:
            stack.append((child, scrolled or view.scrollable))


def check_frame(frame: Frame, size: tuple[int, int], locale: str, text_color) -> list[Issue]:
    """All layout issues of a frame: overlapping labels, clipped labels, off-screen buttons.

    `text_color` is the theme's default text colour (labels without their own colour)."""
    layout = frame.layout
    screen = (0, 0, size[0], size[1])
    issues: list[Issue] = []
    for window in frame.windows:
        covers: list[_Cover] = []
        labels = _labels(window, layout.scale, layout.font_scale, locale, layout.rtl, issues,
                         text_color, covers)
        labels.sort(key=lambda lab: lab.box[1])
        for i, a in enumerate(labels):
            for b in labels[i + 1:]:
                if b.box[1] >= a.box[3] - TOLERANCE_PX:
                    break
                hit = _intersect(a.box, b.box)
                if hit is None or (hit[2] - hit[0] <= TOLERANCE_PX
                                   or hit[3] - hit[1] <= TOLERANCE_PX):
                    continue
                if _related(a.view, b.view) or _hidden(a, hit, covers) or _hidden(b, hit, covers):
                    continue
                issues.append(Issue("overlap", window.kind,
                                    f"{_describe(a.view)} and {_describe(b.view)} draw text "
                                    f"over each other at {list(hit)}"))
        _offscreen(window, screen, issues)
    return issues


def _related(a: View, b: View) -> bool:
    """A view and its own descendant may share pixels (a button and its label)."""
    return a is b or any(v is b for v in a.walk()) or any(v is a for v in b.walk())


def check_device(device) -> list[Issue]:
    """Layout issues of what a simulated phone shows right now."""
    from bmoca.sim.ui.theme import theme

    system = device.system
    return check_frame(device.frame, device.screen_size(), system.locale,
                       theme(system.night_mode).text)

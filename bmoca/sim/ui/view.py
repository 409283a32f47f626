"""View nodes: what uiautomator reports about a view, how it is laid out, drawn and touched.

Screens are functions from state to a tree of `View`s, rebuilt whenever state changes;
handlers on nodes are closures over the app's state, so a tree is never stored in a
snapshot. Sizes are in dp (text in sp); the layout pass turns them into pixel bounds.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass, field

MATCH = -1.0
"""Fill the parent (match_parent)."""
WRAP = -2.0
"""Size to the content (wrap_content)."""

Color = tuple[int, int, int] | tuple[int, int, int, int]
Box = tuple[int, int, int, int]
"""(left, top, right, bottom) in pixels, right and bottom exclusive as Android's Rect."""


@dataclass(slots=True, eq=False, weakref_slot=True)
class View:
    # -- what uiautomator reports ---------------------------------------------------
    cls: str = "android.view.View"
    id: str = ""
    text: str = ""
    desc: str = ""
    package: str = ""
    checkable: bool = False
    checked: bool = False
    clickable: bool = False
    enabled: bool = True
    focusable: bool = False
    focused: bool = False
    scrollable: bool = False
    long_clickable: bool = False
    password: bool = False
    selected: bool = False
    children: list[View] = field(default_factory=list)
    visible: bool = True
    """Invisible views take no space and are not dumped, but keep their index slot."""

    # -- layout (dp) ----------------------------------------------------------------
    width: float = MATCH
    height: float = WRAP
    weight: float = 0.0
    orientation: str = "v"
    """Children stacked: "v" vertically, "h" horizontally, "z" on top of each other."""
    padding: tuple[float, float, float, float] = (0, 0, 0, 0)
    margin: tuple[float, float, float, float] = (0, 0, 0, 0)
    gravity: str = "start|top"
    """Where this view sits in a "z" parent, or how a "v"/"h" parent aligns it across."""
    spacing: float = 0.0
    """Gap between children of a "v"/"h" container, in dp."""
    absolute: tuple[float, float] | None = None
    """Position (dp) relative to the parent's content box; bypasses stacking."""

    # -- drawing --------------------------------------------------------------------
    bg: Color | None = None
    corner: float = 0.0
    border: Color | None = None
    text_size: float = 14.0
    min_text_size: float = 0.0
    """With a fixed or filled height: the text shrinks (not below this size) until its line
    fits the view, as android:autoSizeTextType="uniform" does (the Calculator's formula)."""
    text_color: Color | None = None
    font_weight: int = 400
    max_lines: int = 1
    align: str = "start"
    """Text alignment: "start", "center", "end" (start is right in RTL locales)."""
    include_font_padding: bool = True
    """android:includeFontPadding: the text reaches from the font's top to its bottom (on
    by default); off, it spans the first line's ascent to the last line's descent."""
    text_direction: str = ""
    """Paragraph direction: "" (first strong letter, else the locale's), "ltr" or "rtl"
    (android:textDirection; phone numbers and formulas are "ltr" in every language)."""
    hint: str = ""
    """Shown greyed in an empty text field; not reported by uiautomator."""
    icon: str | None = None
    """A Material Symbols name drawn centered in the view."""
    icon_color: Color | None = None
    icon_size: float = 24.0
    icon_filled: bool = False
    image: str | None = None
    """A named image the renderer knows: "app:<package>", "wallpaper", "snapshot:<task>"."""
    draw: Callable[..., None] | None = None
    """Custom painter: draw(painter, view) for switches, sliders, dials."""
    progress: float | None = None
    """A SeekBar's position, 0..1 (drawn, not dumped: uiautomator has no attribute for it)."""
    elevation: float = 0.0
    alpha: float = 1.0
    mirror: bool = True
    """Whether a container lays its children out mirrored in RTL locales: an "h" one
    reverses them; a "z" one with False is android:layoutDirection="ltr" (a camera
    preview or a map, which no language turns around)."""

    # -- behaviour ------------------------------------------------------------------
    on_click: Callable[[], None] | None = None
    on_long_click: Callable[[], None] | None = None
    tooltip: str = ""
    """View.setTooltipText (the TOOLTIP flag): a long press the view's own listener does not
    take shows this label and is consumed, so no click follows on release; see
    `SimDevice._hit`. Not dumped: uiautomator reports `long-clickable` from LONG_CLICKABLE only."""
    on_drag: Callable[[float, float, bool], None] | None = None
    """Dragging inside the view: called with the touch point as fractions (0..1) of the
    view's width and height, and whether the finger lifted."""
    on_swipe: Callable[..., bool] | None = None
    """A swipe that starts on this view (swipe-to-dismiss); True if consumed."""
    on_text: Callable[[str], None] | None = None
    """Makes this an editable field; called with the field's new full text."""
    on_submit: Callable[[], None] | None = None
    """ENTER / the keyboard's action key in this field."""
    input_type: str = "text"
    """android:inputType: "text" (Gboard's letters), "number" or "phone" (its number pad)."""
    ime_action: str = "done"
    """android:imeOptions, drawn on the keyboard's action key: "done", "search", "next",
    "send"."""
    scroll_key: str = ""
    """Key of this container's scroll offset in the window's scroll state."""
    horizontal_scroll: bool = False

    # -- computed by layout -----------------------------------------------------------
    bounds: Box = (0, 0, 0, 0)
    """Full bounds in screen pixels (may extend beyond a scrolling parent)."""
    clip: Box = (0, 0, 0, 0)
    """The part of `bounds` that is on screen; what uiautomator reports."""

    def add(self, *views: View | None) -> View:
        """Append children (None entries are skipped, to keep builders terse)."""
        if None in views:  # views compare by identity: a C-level scan
            views = tuple([v for v in views if v is not None])
        self.children.extend(views)
        return self

    def walk(self):
        """Pre-order traversal of visible views."""
        stack = [self]
        while stack:
            view = stack.pop()
            if not view.visible:
                continue
            yield view
            stack.extend(reversed(view.children))

    def find(self, resource_id: str = "", text: str = "", desc: str = "") -> View | None:
        """First visible view matching all given attributes (tests and experts use it)."""
        for view in self.walk():
            if resource_id and view.id != resource_id:
                continue
            if text and view.text != text:
                continue
            if desc and view.desc != desc:
                continue
            return view
        return None

    def find_all(self, resource_id: str = "", text: str = "") -> list[View]:
        return [v for v in self.walk()
                if (not resource_id or v.id == resource_id) and (not text or v.text == text)]

    @property
    def is_editable(self) -> bool:
        return self.on_text is not None

    @property
    def on_screen(self) -> bool:
        left, top, right, bottom = self.clip
        return right > left and bottom > top

    @property
    def center(self) -> tuple[int, int]:
        left, top, right, bottom = self.clip
        return (left + right) // 2, (top + bottom) // 2


def clip_of(view: View) -> Callable[[], Box]:
    """A reader of `view`'s clip (known only once laid out) that does not keep the view
    alive: a handler of the view that read `view.clip` itself made a reference cycle, so
    the view and its handler waited for the collector instead of going with their tree."""
    ref = weakref.ref(view)
    return lambda: ref().clip  # type: ignore[union-attr]  # called through the view itself


# -- builders: the handful of widget shapes Android apps are made of -----------------

def frame(*children: View | None, **kw) -> View:
    kw.setdefault("cls", "android.widget.FrameLayout")
    kw.setdefault("orientation", "z")
    return View(**kw).add(*children)


def column(*children: View | None, **kw) -> View:
    kw.setdefault("cls", "android.widget.LinearLayout")
    kw.setdefault("orientation", "v")
    return View(**kw).add(*children)


def row(*children: View | None, **kw) -> View:
    kw.setdefault("cls", "android.widget.LinearLayout")
    kw.setdefault("orientation", "h")
    kw.setdefault("width", MATCH)
    return View(**kw).add(*children)


def text(value: str, **kw) -> View:
    kw.setdefault("cls", "android.widget.TextView")
    kw.setdefault("width", WRAP)
    kw.setdefault("height", WRAP)
    return View(text=value, **kw)


def icon(name: str, size: float = 24.0, **kw) -> View:
    kw.setdefault("cls", "android.widget.ImageView")
    kw.setdefault("width", size)
    kw.setdefault("height", size)
    return View(icon=name, icon_size=size, **kw)


def spacer(width: float = 0.0, height: float = 0.0, weight: float = 0.0) -> View:
    """Empty space; not dumped (uiautomator skips views that are not important)."""
    return View(cls="", width=width, height=height, weight=weight)


def scroller(*children: View | None, key: str, horizontal: bool = False, **kw) -> View:
    """A scrolling container; its offset lives in the window's scroll state under `key`."""
    kw.setdefault("cls", "android.widget.HorizontalScrollView" if horizontal
                  else "android.widget.ScrollView")
    kw.setdefault("height", MATCH)
    kw.setdefault("orientation", "h" if horizontal else "v")
    return View(scrollable=True, scroll_key=key, horizontal_scroll=horizontal, **kw).add(*children)

"""Layout: dp sizes to pixel bounds, with Android's rounding and scrolling containers.

One pass: a view gets its width from the parent (MATCH), a fixed size or its content
(WRAP); heights of WRAP views come from their children. Scrolling containers lay their
children out at full length, shift them by the scroll offset and clip them to the viewport.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from functools import lru_cache

from bmoca.sim.ui.sizes import SIZE_BYTES, VIEW_BYTES, MeasureCache
from bmoca.sim.ui.view import MATCH, WRAP, Box, View

TextMeasure = Callable[[str, int, int, bool], tuple[int, int]]
"""(text, size_px, weight, include_font_padding) -> (width_px, height_px) of the text on one
line."""
TextHeight = Callable[[str, int, int, int, int, bool], int]
"""(text, size_px, weight, max_width_px, max_lines, include_font_padding) -> height_px of
the text as the renderer wraps it (with font padding above the first line and below the
last unless the view turns it off, as a TextView)."""


@dataclass
class ScrollState:
    """Scroll offsets (px) of a window's containers and how far each may scroll."""

    offsets: dict[str, int] = field(default_factory=dict)
    extents: dict[str, int] = field(default_factory=dict)
    """Filled by layout: the maximum offset of each container."""


@lru_cache(maxsize=8192)  # (dp, scale) -> int, ~250 bytes an entry: under 2.5 MB
def dimension_px(dp: float, scale: float) -> int:
    """Android's getDimensionPixelSize: round half up, at least 1 for positive sizes."""
    if not dp:
        return 0
    value = int(dp * scale + 0.5)
    return value if value else (1 if dp > 0 else -1)


def parse_gravity(gravity: str) -> tuple[str, str]:
    """"end|center_vertical" -> ("end", "center"); "center" centers both ways."""
    horizontal, vertical = "start", "top"
    for token in gravity.split("|"):
        if token == "center":
            horizontal = vertical = "center"
        elif token == "center_horizontal":
            horizontal = "center"
        elif token == "center_vertical":
            vertical = "center"
        elif token in ("start", "end"):
            horizontal = token
        elif token in ("top", "bottom"):
            vertical = token
    return horizontal, vertical


class Layout:
    """Lays out trees for one display: density, font scale, direction, text metrics."""

    def __init__(self, density: int, font_scale: float, rtl: bool, measure: TextMeasure,
                 text_height: TextHeight | None = None, sizes: MeasureCache | None = None,
                 display: Hashable = None):
        self.scale = density / 160.0
        self.font_scale = font_scale
        self.rtl = rtl
        self.measure = measure
        self.text_height = text_height
        """The renderer's own line breaking, so a view is as tall as the text it draws."""
        self._px4: dict[tuple, tuple[int, int, int, int]] = {}
        self.cache = sizes if sizes is not None else MeasureCache()
        """Sizes kept across runs; `display` names what besides a subtree they depend on
        (density, font scale and the text metrics of `measure`): a shared cache needs it."""
        self.display = display

    def px(self, dp: float) -> int:
        return dimension_px(dp, self.scale)

    def px4(self, box: tuple[float, float, float, float]) -> tuple[int, int, int, int]:
        """Padding or margin in pixels, cached (every view has one of a few shapes)."""
        found = self._px4.get(box)
        if found is None:
            found = self._px4[box] = (self.px(box[0]), self.px(box[1]), self.px(box[2]),
                                      self.px(box[3]))
        return found

    def sp(self, sp: float) -> int:
        return int(sp * self.scale * self.font_scale + 0.5)

    # -- public ---------------------------------------------------------------------
    def run(self, root: View, box: Box, scroll: ScrollState) -> None:
        left, top, right, bottom = box
        self._scroll = scroll
        self._sizes, self._arranged = self.cache.display(self.display)
        self._numbers: dict[int, int] = {}
        self.cache.number(root, self._numbers)
        self._place(root, left, top, right - left, bottom - top, box)

    # -- measuring --------------------------------------------------------------------
    def _text_size(self, view: View, avail_w: int) -> tuple[int, int]:
        shown = view.text or view.hint
        size = self.sp(view.text_size)
        pad = view.include_font_padding
        if not shown:
            return 0, self.measure("", size, view.font_weight, pad)[1]
        width, line_h = self.measure(shown, size, view.font_weight, pad)
        if view.max_lines > 1 and avail_w > 0 and width > avail_w:
            if self.text_height is not None:
                return avail_w, self.text_height(shown, size, view.font_weight, avail_w,
                                                 view.max_lines, pad)
            return avail_w, line_h * min(view.max_lines, -(-width // avail_w))
        return width, line_h

    def _content_size(self, view: View, avail_w: int, avail_h: int) -> tuple[int, int]:
        """Natural size of the content of a WRAP view, padding included."""
        pl, pt, pr, pb = self.px4(view.padding)
        inner_w = max(0, avail_w - pl - pr)
        if not view.children:
            if view.text or view.hint:
                w, h = self._text_size(view, inner_w)
            elif view.icon:
                w = h = self.px(view.icon_size)
            else:
                w = h = 0
            return w + pl + pr, h + pt + pb
        w = h = 0
        kids = [c for c in view.children if c.visible and c.absolute is None]
        gap = self.px(view.spacing)
        shares = self._weighted_widths(view, kids, inner_w, gap)
        for child in kids:
            share = shares.get(id(child))
            cw, ch = self._outer_size(child, inner_w if share is None else share,
                                      max(0, avail_h - pt - pb))
            if share is not None:  # a weighted child asks for no width of its own
                ml, _, mr, _ = self.px4(child.margin)
                cw = ml + mr
            if view.orientation == "v":
                w = max(w, cw)
                h += ch
            elif view.orientation == "h":
                w += cw
                h = max(h, ch)
            else:
                w, h = max(w, cw), max(h, ch)
        if kids and view.orientation in "vh":
            if view.orientation == "v":
                h += gap * (len(kids) - 1)
            else:
                w += gap * (len(kids) - 1)
        return w + pl + pr, h + pt + pb

    def _weighted_widths(self, view: View, kids: list[View], inner_w: int,
                         gap: int) -> dict[int, int]:
        """The width each weighted child of a row will be given, as placing gives it: a
        row is as tall as its text wraps in that share, not in the whole row."""
        if view.orientation != "h":
            return {}
        weighted = [c for c in kids if c.weight > 0]
        if not weighted:
            return {}
        used = gap * max(0, len(kids) - 1)
        for child in kids:
            ml, _, mr, _ = self.px4(child.margin)
            used += ml + mr
            if child.weight <= 0:
                used += self._size(child, inner_w, 1 << 20)[0]
        remaining = max(0, inner_w - used)
        total = sum(c.weight for c in weighted)
        shares = {}
        for child in weighted:
            ml, _, mr, _ = self.px4(child.margin)
            shares[id(child)] = int(remaining * child.weight / total) + ml + mr
        return shares

    def _size(self, view: View, avail_w: int, avail_h: int) -> tuple[int, int]:
        """Border-box size of a view given the space its parent offers (margins excluded).

        Kept by the subtree's content number (`bmoca.sim.ui.sizes`): WRAP parents measure
        their children, then place them, and the next frame holds mostly the same rows."""
        number = self._numbers[id(view)]
        key = (number, avail_w, avail_h if self._uses_height(view, number) else -1)
        size = self._sizes.get(key)
        if size is None:
            size = self._sizes[key] = self._measure(view, avail_w, avail_h)
            self.cache.nbytes += SIZE_BYTES
        return size

    def _uses_height(self, view: View, number: int) -> bool:
        """Whether a view's size depends on the height its parent offers."""
        found = self.cache.uses_height.get(number)
        if found is None:
            if view.height == MATCH or view.weight:
                found = True
            elif view.height >= 0:
                found = False
            else:
                found = any(self._uses_height(c, self._numbers[id(c)])
                            for c in view.children if c.visible)
            self.cache.uses_height[number] = found
        return found

    def _measure(self, view: View, avail_w: int, avail_h: int) -> tuple[int, int]:
        ml, mt, mr, mb = self.px4(view.margin)
        avail_w -= ml + mr
        avail_h -= mt + mb
        if view.width >= 0 and view.height >= 0:
            return self.px(view.width), self.px(view.height)
        if view.width == MATCH or (view.width == 0 and view.weight > 0):
            # a weighted child (width 0, weight > 0) fills the share it is measured in, so
            # its text wraps, and its height grows, as it will be drawn
            w = max(0, avail_w)
        elif view.width == WRAP:
            w = None
        else:
            w = self.px(view.width)
        if view.height == MATCH:
            h = max(0, avail_h)
        elif view.height == WRAP:
            h = None
        else:
            h = self.px(view.height)
        if w is None or h is None:
            cw, ch = self._content_size(view, w if w is not None else max(0, avail_w), avail_h)
            if w is None:
                w = min(cw, max(0, avail_w))
            if h is None:
                h = ch
        return w, h

    def _outer_size(self, view: View, avail_w: int, avail_h: int) -> tuple[int, int]:
        w, h = self._size(view, avail_w, avail_h)
        ml, mt, mr, mb = self.px4(view.margin)
        return w + ml + mr, h + mt + mb

    # -- placing ----------------------------------------------------------------------
    def _place(self, view: View, x: int, y: int, w: int, h: int, clip: Box) -> None:
        cl, ct, cr, cb = clip
        if view.children and w > 0 and h > 0 and cl <= x and ct <= y and x + w <= cr \
                and y + h <= cb:
            # whole on screen: arranged as the last time a subtree like it was this size
            key = (self._numbers[id(view)], w, h)
            if key in self._arranged:
                kept = self._arranged[key]
                if kept is not None:
                    _arrange(view, kept, x, y)
                    return
            else:
                self._place_views(view, x, y, w, h, clip)
                kept = self._arranged[key] = _arrangement(view, x, y)
                self.cache.nbytes += SIZE_BYTES + VIEW_BYTES * len(kept or ())
                return
        self._place_views(view, x, y, w, h, clip)

    def _place_views(self, view: View, x: int, y: int, w: int, h: int, clip: Box) -> None:
        view.bounds = (x, y, x + w, y + h)
        cl, ct, cr, cb = clip
        vis = (max(x, cl), max(y, ct), min(x + w, cr), min(y + h, cb))
        if vis[2] <= vis[0] or vis[3] <= vis[1]:
            # entirely off screen: neither dumped, drawn nor touchable, so its subtree
            # is not placed (as a RecyclerView does not bind off-screen rows)
            view.clip = (vis[0], vis[1], vis[0], vis[1])
            return
        view.clip = vis
        if not view.children:
            return
        pl, pt, pr, pb = self.px4(view.padding)
        # a "z" container with mirror=False is android:layoutDirection="ltr": its padding,
        # its children's margins and start/end stay put in right-to-left locales
        rtl = self.rtl and (view.mirror or view.orientation != "z")
        if rtl:
            pl, pr = pr, pl
        ix, iy = x + pl, y + pt
        iw, ih = max(0, w - pl - pr), max(0, h - pt - pb)
        inner_clip = vis
        offset = 0
        if view.scrollable and view.scroll_key:
            offset = self._scroll.offsets.get(view.scroll_key, 0)
            inner_clip = (max(vis[0], x), max(vis[1], y), min(vis[2], x + w), min(vis[3], y + h))
        kids = [c for c in view.children if c.visible]
        flow = [c for c in kids if c.absolute is None]
        if view.orientation == "z":
            for child in flow:
                cw, ch = self._size(child, iw, ih)
                self._place_in_frame(child, ix, iy, iw, ih, cw, ch, inner_clip, rtl)
        else:
            self._place_linear(view, flow, ix, iy, iw, ih, offset, inner_clip)
        for child in kids:
            if child.absolute is not None:
                ax, ay = child.absolute
                cw, ch = self._size(child, iw, ih)
                px = ix + self.px(ax)
                if rtl:
                    px = ix + iw - self.px(ax) - cw
                self._place(child, px, iy + self.px(ay), cw, ch, inner_clip)

    def _place_in_frame(self, child: View, ix, iy, iw, ih, cw, ch, clip: Box,
                        rtl: bool) -> None:
        ml, mt, mr, mb = self.px4(child.margin)
        if rtl:
            ml, mr = mr, ml
        horizontal, vertical = parse_gravity(child.gravity)
        if horizontal == "center":
            cx = ix + (iw - cw) // 2
        elif (horizontal == "end") != rtl:
            cx = ix + iw - cw - mr
        else:
            cx = ix + ml
        if vertical == "bottom":
            cy = iy + ih - ch - mb
        elif vertical == "center":
            cy = iy + (ih - ch) // 2
        else:
            cy = iy + mt
        self._place(child, cx, cy, cw, ch, clip)

    def _place_linear(self, view: View, kids: list[View], ix, iy, iw, ih, offset, clip) -> None:
        vertical = view.orientation == "v"
        gap = self.px(view.spacing)
        main_avail = ih if vertical else iw
        sizes: list[tuple[int, int]] = []
        used = gap * max(0, len(kids) - 1)
        total_weight = 0.0
        for child in kids:
            if child.weight > 0:
                sizes.append((0, 0))
                total_weight += child.weight
                ml, mt, mr, mb = self.px4(child.margin)
                used += (mt + mb) if vertical else (ml + mr)
                continue
            # A horizontal LinearLayout offers each child what the ones before it left
            # (Android's measureChildWithMargins), so the last of an overfull row is squeezed;
            # a HorizontalScrollView measures its content UNSPECIFIED across: no limit.
            offered = iw if vertical else (1 << 20 if view.scrollable
                                           else max(0, iw - used))
            cw, ch = self._size(child, offered, ih if not view.scrollable else 1 << 20)
            sizes.append((cw, ch))
            ml, mt, mr, mb = self.px4(child.margin)
            used += (ch + mt + mb) if vertical else (cw + ml + mr)
        remaining = max(0, main_avail - used)
        pos = -offset
        order = list(range(len(kids)))
        reverse = (not vertical) and self.rtl and view.mirror
        for i in order:
            child = kids[i]
            cw, ch = sizes[i]
            ml, mt, mr, mb = self.px4(child.margin)
            if child.weight > 0:
                share = int(remaining * child.weight / total_weight)
                if vertical:
                    cw = self._size(child, iw, share)[0]
                    ch = share
                else:
                    cw = share
                    ch = self._size(child, share, ih)[1]
            if vertical:
                horizontal = parse_gravity(child.gravity)[0]
                if horizontal == "center":
                    cx = ix + (iw - cw) // 2
                elif (horizontal == "end") != self.rtl:
                    cx = ix + iw - cw - (ml if self.rtl else mr)
                else:
                    cx = ix + (mr if self.rtl else ml)
                self._place(child, cx, iy + pos + mt, cw, ch, clip)
                pos += mt + ch + mb + gap
            else:
                across = parse_gravity(child.gravity)[1]
                if across == "center":
                    cy = iy + (ih - ch) // 2
                elif across == "bottom":
                    cy = iy + ih - ch - mb
                else:
                    cy = iy + mt
                if reverse:
                    cx = ix + iw - pos - ml - cw
                else:
                    cx = ix + pos + ml
                self._place(child, cx, cy, cw, ch, clip)
                pos += ml + cw + mr + gap
        if view.scrollable and view.scroll_key:
            content = pos + offset - gap if kids else 0
            extent = max(0, content - main_avail)
            self._scroll.extents[view.scroll_key] = extent
            if offset > extent:
                # content shrank: clamp and lay out again at the valid offset
                self._scroll.offsets[view.scroll_key] = extent
                self._place_linear(view, kids, ix, iy, iw, ih, extent, clip)


def _placed_children(view: View, clip: Box) -> list[View]:
    """The children layout placed under a view with this clip (none when it is off screen)."""
    if clip[2] <= clip[0] or clip[3] <= clip[1]:
        return []
    return [c for c in reversed(view.children) if c.visible]


def _arrangement(view: View, x: int, y: int) -> tuple | None:
    """Bounds and clips of a placed subtree's views relative to (x, y), in the order
    `_arrange` walks; None when it holds a scrolling container (its offset is state)."""
    out = []
    stack = [view]
    while stack:
        node = stack.pop()
        if node.scrollable and node.scroll_key:
            return None
        (left, top, right, bottom), clip = node.bounds, node.clip
        out.append((left - x, top - y, right - x, bottom - y, clip[0] - x, clip[1] - y,
                    clip[2] - x, clip[3] - y))
        stack.extend(_placed_children(node, clip))
    return tuple(out)


def _arrange(view: View, kept: tuple, x: int, y: int) -> None:
    """Place a subtree as `kept` (from a subtree with the same content number) at (x, y)."""
    stack = [view]
    for left, top, right, bottom, cl, ct, cr, cb in kept:
        node = stack.pop()
        node.bounds = (left + x, top + y, right + x, bottom + y)
        node.clip = (cl + x, ct + y, cr + x, cb + y)
        if cr > cl and cb > ct and node.children:
            stack.extend([c for c in reversed(node.children) if c.visible])

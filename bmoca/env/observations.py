"""Observations as agents see them: the screen translator and screenshot helpers.

`translate` and `describe` are B-MoCA's screen translator (view hierarchy -> the text an
LLM reads); `resize` and `set_of_marks` prepare screenshots for pixel and multimodal
agents. Everything here is pure: XML and arrays in, data out, no device access.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from PIL import Image, ImageChops, ImageDraw, ImageFont

from bmoca.bytecache import byte_lru
from bmoca.formats.hierarchy import DUMPS_KEPT, PARSED_BYTES, TREE_BYTES, numbered

if TYPE_CHECKING:
    from lxml import etree

__all__ = ["Element", "ObservationError", "describe", "nodes", "resize", "set_of_marks",
           "translate"]


class ObservationError(ValueError):
    """An observation that cannot be read (malformed hierarchy XML, bad screenshot)."""


@dataclass(frozen=True)
class Element:
    """One view of the hierarchy, reduced to what the B-MoCA translator shows an agent.

    `numeric_tag` is the element's position in post-order, which is how agents name it in
    `tap(n)`; `bounds` are pixels (x1, y1, x2, y2), right/bottom exclusive as in Android.
    """

    numeric_tag: int
    resource_id: str
    cls: str
    content_description: str
    text: str
    checked: str
    bounds: tuple[int, int, int, int]
    full_resource_id: str = ""

    @property
    def center(self) -> tuple[int, int]:
        """Pixel centre of the bounds (floored), where a tap on this element lands."""
        x1, y1, x2, y2 = self.bounds
        return (x1 + x2) // 2, (y1 + y2) // 2

    def to_dict(self, width: int, height: int, *, check: bool = True,
                bbox: bool = False) -> dict[str, Any]:
        """The translator's dict for this element, keys in the reference's order."""
        out: dict[str, Any] = {
            "numeric_tag": self.numeric_tag,
            "resource_id": self.resource_id,
            "class": self.cls,
            "content_description": self.content_description,
            "text": self.text,
        }
        if check:
            out["checked"] = self.checked
        if bbox:
            x1, y1, x2, y2 = self.bounds
            out["bbox location"] = (f"(({x1 / width:.2f}, {y1 / height:.2f}), "
                                    f"({x2 / width:.2f}, {y2 / height:.2f}))")
        return out


_BOUNDS = re.compile(r"^\s*\[\s*(-?\d+)\s*,\s*(-?\d+)\s*\]\s*\[\s*(-?\d+)\s*,\s*(-?\d+)\s*\]\s*$")
_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>")


@functools.cache
def _lxml() -> tuple[Any, Any]:
    """lxml's etree and the dump parser, made on first use: a pixel env's cold start reads
    no dump, and importing lxml was 10 ms of it."""
    from lxml import etree

    return etree, etree.XMLParser(resolve_entities=False, no_network=True,
                                  remove_comments=True, remove_pis=True)


def _parse_xml(xml: str | bytes) -> etree._Element:
    """Parse a dump; tolerate the declaration and the trailer `uiautomator dump` may print."""
    if isinstance(xml, bytes):
        try:
            xml = xml.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ObservationError(f"hierarchy XML is not UTF-8: {exc}") from None
    if not isinstance(xml, str):
        raise ObservationError(f"hierarchy XML must be str or bytes, not {type(xml).__name__}")
    text = _DECLARATION.sub("", xml, count=1)
    end = text.rfind("</hierarchy>")
    if end >= 0:  # `adb shell uiautomator dump /dev/tty` appends "UI hierchary dumped to ..."
        text = text[:end + len("</hierarchy>")]
    if not text.strip():
        raise ObservationError("hierarchy XML is empty")
    etree, parser = _lxml()
    try:
        return etree.fromstring(text, parser)
    except etree.XMLSyntaxError as exc:
        raise ObservationError(f"malformed hierarchy XML: {exc}") from None


def _after(value: str, sep: str) -> str:
    return value.rsplit(sep, 1)[-1]


def nodes(xml: str | bytes) -> list[etree._Element]:
    """The hierarchy's nodes that `translate` tags, in its order (for callers that need
    attributes it leaves out, such as `bmoca.env.androidworld`). Read them, do not change
    them: the nodes of the dumps seen lately are handed out again."""
    if isinstance(xml, str):
        return list(_nodes_of(xml))
    return _nodes(xml)


@byte_lru(PARSED_BYTES, TREE_BYTES, DUMPS_KEPT)
def _nodes_of(xml: str) -> tuple[etree._Element, ...]:
    """A screen that did not change dumps the same text, and the translator, the step
    targets and the AndroidWorld view all read it: parsed once."""
    return tuple(_nodes(xml))


def _nodes(xml: str | bytes) -> list[etree._Element]:
    return numbered(_parse_xml(xml))


def translate(xml: str | bytes) -> list[Element]:
    """Every element that has `bounds`, in post-order (children first), tagged by position.

    This is the B-MoCA translator: post-order means the outermost full-screen container
    gets the largest tag, and tags are stable for a given hierarchy.
    """
    if isinstance(xml, str):
        return list(_translated(xml))
    return _translate(xml)


@byte_lru(PARSED_BYTES, maxsize=DUMPS_KEPT)
def _translated(xml: str) -> tuple[Element, ...]:
    """The elements of a dump seen lately: a screen that did not change is dumped as the
    same text, and parsing it again was a sixth of a validate episode."""
    return tuple(_translate(xml))


def _translate(xml: str | bytes) -> list[Element]:
    elements: list[Element] = []
    for node in nodes(xml):
        raw = node.get("bounds")
        match = _BOUNDS.match(raw)
        if match is None:
            raise ObservationError(
                f"malformed bounds {raw!r} on <{node.tag} class={node.get('class', '')!r}> "
                f"(line {node.sourceline}); expected '[x1,y1][x2,y2]'")
        x1, y1, x2, y2 = map(int, match.groups())
        full_id = node.get("resource-id") or ""
        flags = (node.get("checked"), node.get("selected"), node.get("focused"))
        elements.append(Element(
            numeric_tag=len(elements),
            resource_id=_after(full_id, "/"),
            cls=_after(node.get("class") or "", "."),
            content_description=node.get("content-desc") or "",
            text=node.get("text") or "",
            checked="true" if "true" in flags else "false",
            bounds=(x1, y1, x2, y2),
            full_resource_id=full_id,
        ))
    return elements


def describe(elements: Iterable[Element], width: int, height: int, *, check: bool = True,
             bbox: bool = False) -> str:
    """The prompt text: Python's `str()` of the element dicts, exactly as B-MoCA prints it."""
    if bbox and (width <= 0 or height <= 0):
        raise ValueError(f"screen size must be positive, got {width}x{height}")
    return str([e.to_dict(width, height, check=check, bbox=bbox) for e in elements])


def _as_rgb(screenshot: np.ndarray | Image.Image) -> Image.Image:
    if isinstance(screenshot, Image.Image):  # the device's own, read from: never drawn on
        return screenshot if screenshot.mode == "RGB" else screenshot.convert("RGB")
    array = np.asarray(screenshot)
    if array.ndim != 3 or array.shape[2] not in (3, 4) or 0 in array.shape:
        raise ObservationError(
            f"screenshot must be an (H, W, 3) RGB array, got shape {array.shape}")
    if array.dtype != np.uint8:
        raise ObservationError(f"screenshot must be uint8, got {array.dtype}")
    return Image.fromarray(np.ascontiguousarray(array[:, :, :3]), "RGB")


def _check_size(size: Sequence[int]) -> tuple[int, int]:
    if len(size) != 2 or any(int(v) != v or v <= 0 for v in size):
        raise ValueError(f"size must be (width, height) in positive pixels, got {size!r}")
    return int(size[0]), int(size[1])


def resize(screenshot: np.ndarray | Image.Image, size: tuple[int, int]) -> np.ndarray:
    """Resize to (width, height) by area averaging, as the reference's INTER_AREA does.

    Area averaging keeps thin text and icons visible at the small sizes agents use.
    """
    target = _check_size(size)
    image = _as_rgb(screenshot)
    if image.size != target:
        image = image.resize(target, Image.Resampling.BOX)
    return np.asarray(image, dtype=np.uint8).copy()


LABELS_BYTES = 4 << 20
"""Set-of-marks tag labels kept, in bytes (a tag's label is as big as its font)."""
_PALETTE = ((230, 25, 75), (60, 180, 75), (0, 130, 200), (245, 130, 48), (145, 30, 180),
            (0, 128, 128), (240, 50, 230), (128, 0, 0), (0, 0, 128), (128, 128, 0))


@functools.lru_cache(maxsize=8)  # Pillow's default font at 8 sizes: a few MB
def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    """Pillow's bundled default font: no font files to find or download."""
    return ImageFont.load_default(size)


_PAD = 1
"""Pixels between a mark's tag and the edge of its label."""


@byte_lru(LABELS_BYTES)
def _label(tag: str, colour: tuple[int, int, int], size: int
           ) -> tuple[int, int, int, int, Image.Image | None]:
    """A tag's label: its text box (left, top) offsets, its width and height, and the label
    as an image to paste, drawn once, as `set_of_marks` draws it: a filled box and the tag
    over it. None where the tag's ink would reach past the box (then it is drawn in place):
    the label is drawn on black and on white and must leave both untouched around it."""
    font = _font(size)
    left, top, right, bottom = ImageDraw.Draw(Image.new("RGB", (1, 1))).textbbox(
        (0, 0), tag, font=font)
    width, height = right - left + 2 * _PAD, bottom - top + 2 * _PAD
    ink = _ink(colour)
    margin = height + 2
    drawn = []
    for around in ((0, 0, 0), (255, 255, 255)):
        canvas = Image.new("RGB", (width + 2 * margin, height + 2 * margin), around)
        draw = ImageDraw.Draw(canvas)
        draw.rectangle((margin, margin, margin + width - 1, margin + height - 1), fill=colour)
        draw.text((margin + _PAD - left, margin + _PAD - top), tag, fill=ink, font=font)
        box = (margin, margin, margin + width, margin + height)
        drawn.append(canvas.crop(box))
        canvas.paste(around, box)
        if ImageChops.difference(canvas, Image.new("RGB", canvas.size, around)).getbbox():
            return left, top, width, height, None
    same = drawn[0].tobytes() == drawn[1].tobytes()
    return left, top, width, height, drawn[0] if same else None


def _ink(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """A tag's text colour: black on a light label, white on a dark one."""
    luminance = 0.299 * colour[0] + 0.587 * colour[1] + 0.114 * colour[2]
    return (0, 0, 0) if luminance > 140 else (255, 255, 255)


def _marked(element: Element, width: int, height: int) -> bool:
    """Default filter: a real box that is not a full-screen container."""
    x1, y1, x2, y2 = element.bounds
    x1, y1, x2, y2 = max(x1, 0), max(y1, 0), min(x2, width), min(y2, height)
    if x2 <= x1 or y2 <= y1:
        return False
    return (x2 - x1) * (y2 - y1) < 0.9 * width * height


def set_of_marks(screenshot: np.ndarray | Image.Image, elements: Sequence[Element],
                 size: tuple[int, int], *, only: set[int] | None = None) -> np.ndarray:
    """The screenshot resized to `size` with each element's box and numeric tag drawn.

    A Set-of-Mark image lets a multimodal agent name elements by tag, as in `tap(n)`.
    `only` picks the tags to draw; by default every non-degenerate on-screen element smaller
    than 90 % of the screen (full-screen containers would only add clutter). Larger boxes
    are drawn first so the labels of small elements stay readable.
    """
    target = _check_size(size)
    image = _as_rgb(screenshot)
    src_w, src_h = image.size
    if image.size != target:
        image = image.resize(target, Image.Resampling.BOX)
    elif image is screenshot:
        image = image.copy()  # marks are drawn on it
    sx, sy = target[0] / src_w, target[1] / src_h
    if only is None:
        chosen = [e for e in elements if _marked(e, src_w, src_h)]
    else:
        chosen = [e for e in elements if e.numeric_tag in only]

    def area(e: Element) -> int:
        x1, y1, x2, y2 = e.bounds
        return max(x2 - x1, 0) * max(y2 - y1, 0)

    chosen.sort(key=lambda e: (-area(e), e.numeric_tag))
    draw = ImageDraw.Draw(image)
    font_size = max(10, round(min(target) / 24))
    font = _font(font_size)
    line = max(1, round(min(target) / 300))
    for element in chosen:
        x1, y1, x2, y2 = element.bounds
        box = (max(0, round(x1 * sx)), max(0, round(y1 * sy)),
               min(target[0] - 1, round(x2 * sx) - 1), min(target[1] - 1, round(y2 * sy) - 1))
        if box[2] < box[0] or box[3] < box[1]:
            continue
        colour = _PALETTE[element.numeric_tag % len(_PALETTE)]
        draw.rectangle(box, outline=colour, width=line)
        label = str(element.numeric_tag)
        left, top, label_w, label_h, drawn = _label(label, colour, font_size)
        lx = min(box[0], max(0, target[0] - label_w))
        ly = min(box[1], max(0, target[1] - label_h))
        if drawn is not None:  # the same pixels as drawing it here, without the font
            image.paste(drawn, (lx, ly))
            continue
        draw.rectangle((lx, ly, lx + label_w - 1, ly + label_h - 1), fill=colour)
        draw.text((lx + _PAD - left, ly + _PAD - top), label, fill=_ink(colour), font=font)
    return np.asarray(image, dtype=np.uint8).copy()

"""A uiautomator dump, parsed once however many readers it has.

A step's screen is read by the task's detectors, the scripted experts and the RL state
reader, each of which used to parse it again; and a screen that did not change is dumped
as the same text step after step (`bmoca.sim` hands out the same string), so the parsed
trees of the last few dumps are kept.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bmoca.bytecache import byte_lru, text_bytes

if TYPE_CHECKING:
    from lxml import etree


DUMPS_KEPT = 16
"""Parsed dumps kept at most: a step's readers ask for the last few screens only."""
PARSED_BYTES = 16 << 20
"""...and within this many bytes: a dump is as long as its screen's text."""
TREE_BYTES = text_bytes(10)
"""What a parsed dump holds: libxml2 takes about 9 bytes a character of the dump."""


@byte_lru(PARSED_BYTES, TREE_BYTES, DUMPS_KEPT)
def parse(xml: str) -> etree._Element:
    """The root of the dump `xml`, shared between callers: read it, never change it. A
    malformed dump raises `lxml.etree.XMLSyntaxError`, as `etree.fromstring` does."""
    from lxml import etree  # on first use: a cold start that reads no dump skips lxml

    return etree.fromstring(xml.encode("utf-8"))


def numbered(root: etree._Element) -> list[etree._Element]:
    """The elements that have `bounds`, in post-order (children first): an element's
    position here is its number in the env's observations (B-MoCA's translator, the
    `index` of a JSON action), so the outermost full-screen container gets the largest."""
    from lxml import etree

    return [node for _event, node in etree.iterwalk(root, events=("end",))
            if isinstance(node.tag, str) and node.get("bounds") is not None]

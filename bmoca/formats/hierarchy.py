"""A uiautomator dump, parsed once however many readers it has.

A step's screen is read by the task's detectors, the scripted experts and the RL state
reader, each of which used to parse it again; and a screen that did not change is dumped
as the same text step after step (`bmoca.sim` hands out the same string), so the parsed
trees of the last few dumps are kept.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lxml import etree


@functools.lru_cache(maxsize=16)
def parse(xml: str) -> etree._Element:
    """The root of the dump `xml`, shared between callers: read it, never change it. A
    malformed dump raises `lxml.etree.XMLSyntaxError`, as `etree.fromstring` does."""
    from lxml import etree  # on first use: a cold start that reads no dump skips lxml

    return etree.fromstring(xml.encode("utf-8"))

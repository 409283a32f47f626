"""Android's SharedPreferences files (`shared_prefs/*.xml`) in their real format
(`XmlUtils.writeMapXml` through `FastXmlSerializer`): one element per entry, typed by its
tag (`boolean`/`int`/`long`/`float` carry a `value` attribute, `string` its text)."""

from __future__ import annotations

import math

HEADER = "<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n"
Value = bool | int | float | str
_TEXT = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
_ATTR = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\n": "&#10;", "\r": "&#13;",
                       "\t": "&#9;"})


def escape(text: str) -> str:
    """Element text with &, < and > escaped (what `xml.sax.saxutils.escape` writes; that
    module imports urllib.request, http and ssl, a tenth of a cold start)."""
    return text.translate(_TEXT)


def quoteattr(text: str) -> str:
    """An attribute value in quotes, as `xml.sax.saxutils.quoteattr` writes it: double
    quotes unless the value has some, then single ones unless it has both."""
    text = text.translate(_ATTR)
    if '"' not in text:
        return f'"{text}"'
    if "'" not in text:
        return f"'{text}'"
    return '"' + text.replace('"', "&quot;") + '"'


_WRITTEN: dict[bytes, dict[str, Value]] = {}
"""The last files `dump` wrote whose entries `parse` would read back exactly, by content:
an app writes its prefs on a phone's first start and reads them at the next, and reading
them without an XML parser spares a cold start importing lxml (10 ms)."""
_WRITTEN_MAX = 64
WRITTEN_BYTES = 8 << 20
"""...and what they hold at most, counted as three times the file (the file, and the
entries' texts with their objects): a typed text makes a file of any size."""
written_bytes = 0
"""What `_WRITTEN` holds now, as counted."""


def _reads_back(entries: dict[str, Value]) -> bool:
    """Whether parsing `dump(entries)` gives `entries` again, types and order included:
    texts of printable characters, tabs and line breaks only (XML turns a carriage return
    into a line break and refuses control characters), finite floats."""
    for name, value in entries.items():
        if type(value) is float:
            if not math.isfinite(value):
                return False
        elif type(value) is str:
            if not _plain(value):
                return False
        elif type(value) not in (bool, int):
            return False
        if not _plain(name):
            return False
    return True


def _plain(text: str) -> bool:
    return text.isprintable() or text.replace("\n", "").replace("\t", "").isprintable()


def dump(entries: dict[str, Value]) -> bytes:
    """The file `XmlUtils.writeMapXml` writes for `entries`."""
    global written_bytes
    raw = _dump(entries)
    size = 3 * len(raw)
    if size <= WRITTEN_BYTES and _reads_back(entries):
        if len(_WRITTEN) >= _WRITTEN_MAX or written_bytes + size > WRITTEN_BYTES:
            _WRITTEN.clear()
            written_bytes = 0
        if raw not in _WRITTEN:
            written_bytes += size
        _WRITTEN[raw] = dict(entries)
    return raw


def _dump(entries: dict[str, Value]) -> bytes:
    lines = [HEADER + "<map>"]
    for name, value in entries.items():
        if isinstance(value, bool):
            lines.append(f'    <boolean name={quoteattr(name)} value="{str(value).lower()}" />')
        elif isinstance(value, int):
            lines.append(f'    <int name={quoteattr(name)} value="{value}" />')
        elif isinstance(value, float):
            lines.append(f'    <float name={quoteattr(name)} value="{value!r}" />')
        else:
            lines.append(f"    <string name={quoteattr(name)}>{escape(value)}</string>")
    lines.append("</map>")
    return ("\n".join(lines) + "\n").encode("utf-8")


def parse(raw: bytes) -> dict[str, Value]:
    """The entries of a prefs file; a corrupt file reads as empty, as SharedPreferencesImpl
    does (it logs the error and starts from an empty map). A file `dump` wrote lately is
    read from what it was written from (the same entries, see `_reads_back`)."""
    written = _WRITTEN.get(raw)
    if written is not None:
        return dict(written)
    return parse_xml(raw)


def parse_xml(raw: bytes) -> dict[str, Value]:
    """`parse` through the XML parser, always."""
    from lxml import etree  # on first use: importing it was 10 ms of every cold start

    try:
        root = etree.fromstring(raw)
    except etree.XMLSyntaxError:
        return {}
    entries: dict[str, Value] = {}
    for node in root:
        name, value = node.get("name"), node.get("value")
        if name is None:
            continue
        try:
            if node.tag == "boolean":
                entries[name] = value == "true"
            elif node.tag in ("int", "long"):
                entries[name] = int(value or "0")
            elif node.tag == "float":
                entries[name] = float(value or "0")
            elif node.tag == "string":
                entries[name] = node.text or ""
        except ValueError:
            continue
    return entries

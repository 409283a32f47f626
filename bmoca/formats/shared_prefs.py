"""Android's SharedPreferences files (`shared_prefs/*.xml`) in their real format
(`XmlUtils.writeMapXml` through `FastXmlSerializer`): one element per entry, typed by its
tag (`boolean`/`int`/`long`/`float` carry a `value` attribute, `string` its text)."""

from __future__ import annotations

from lxml import etree

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


def dump(entries: dict[str, Value]) -> bytes:
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
    does (it logs the error and starts from an empty map)."""
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

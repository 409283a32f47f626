"""The `uiautomator dump` XML, byte for byte as Android 10's AccessibilityNodeInfoDumper writes it."""

from __future__ import annotations

import re

from bmoca.sim.ui.view import View

HEADER = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"

_INVALID_XML = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;",
                          "\n": "&#10;", "\r": "&#13;", "\t": "&#9;"})
_NAF_EXCLUDED = ("android.widget.ListView", "android.widget.GridView",
                 "android.widget.ScrollView", "android.widget.EditText")


def _attr(value: str) -> str:
    if not value:
        return ""
    if not value.isprintable():
        value = _INVALID_XML.sub(".", value)
    return value.translate(_ESCAPES)


def _bool(flag: bool) -> str:
    return "true" if flag else "false"


def _has_label_below(view: View) -> bool:
    for child in view.children:
        if child.visible and (child.text or child.desc or _has_label_below(child)):
            return True
    return False


def _is_naf(view: View) -> bool:
    """Clickable and enabled but nothing labels it: what the dumper flags as NAF."""
    return (view.clickable and view.enabled and not view.text and not view.desc
            and view.cls not in _NAF_EXCLUDED and not _has_label_below(view))


def dump(root: View, package: str, rotation: int = 0) -> str:
    """Serialise a laid-out window tree; off-screen and invisible views are skipped."""
    return dump_windows([(root, package)], rotation)


def dump_windows(roots: list[tuple[View, str]], rotation: int = 0) -> str:
    """Several windows' trees, one root node each in order (as UiDevice's
    dumpWindowHierarchy lists the windows it reports)."""
    out: list[str] = [HEADER, f'<hierarchy rotation="{rotation}">']
    for index, (root, package) in enumerate(roots):
        _node(root, index, package, out)
    out.append("</hierarchy>")
    return "".join(out)


def _dumped_children(view: View) -> list[View]:
    """Children as the accessibility tree has them: layout-only wrappers (no class) are
    transparent, their children count as the parent's."""
    out: list[View] = []
    for child in view.children:
        if child.cls:
            out.append(child)
        elif child.visible:
            out.extend(_dumped_children(child))
    return out


def _node(view: View, index: int, package: str, out: list[str]) -> None:
    left, top, right, bottom = view.clip
    naf = 'NAF="true" ' if view.clickable and _is_naf(view) else ""
    # TextView.getTextForAccessibility: an empty field reports its hint
    shown = view.text or (view.hint if view.on_text is not None else "")
    flags = _FLAGS[view.checkable, view.checked, view.clickable, view.enabled, view.focusable,
                   view.focused, view.scrollable, view.long_clickable, view.password,
                   view.selected]
    out.append(
        f'<node {naf}index="{index}" text="{_attr(shown)}" '
        f'resource-id="{view.id}" class="{view.cls}" package="{view.package or package}" '
        f'content-desc="{_attr(view.desc)}" {flags} bounds="[{left},{top}][{right},{bottom}]"'
    )
    shown_children = [(i, c) for i, c in enumerate(_dumped_children(view))
                      if c.visible and c.clip[2] > c.clip[0] and c.clip[3] > c.clip[1]]
    if not shown_children:
        out.append(" />")
        return
    out.append(">")
    for i, child in shown_children:
        _node(child, i, package, out)
    out.append("</node>")


class _Flags(dict):
    """The ten boolean attributes of a node as the dumper writes them, by their values:
    a view has one of a few dozen combinations, each formatted once."""

    def __missing__(self, key: tuple) -> str:
        text = " ".join(f'{name}="{_bool(flag)}"' for name, flag in zip(_FLAG_NAMES, key,
                                                                          strict=True))
        if len(self) < 4096:
            self[key] = text
        return text


_FLAG_NAMES = ("checkable", "checked", "clickable", "enabled", "focusable", "focused",
               "scrollable", "long-clickable", "password", "selected")
_FLAGS = _Flags()

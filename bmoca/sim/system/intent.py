"""Intents, and their `toShortString` form as `ActivityTaskManager: START` prints it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

ACTION_MAIN = "android.intent.action.MAIN"
CATEGORY_LAUNCHER = "android.intent.category.LAUNCHER"
CATEGORY_HOME = "android.intent.category.HOME"
FLAG_ACTIVITY_NEW_TASK = 0x10000000
FLAG_ACTIVITY_CLEAR_TASK = 0x00008000
FLAG_ACTIVITY_TASK_ON_HOME = 0x00004000
FLAG_ACTIVITY_RESET_TASK_IF_NEEDED = 0x00200000
FLAG_ACTIVITY_FORWARD_RESULT = 0x02000000
FLAG_GRANT_READ_URI_PERMISSION = 0x00000001
FLAG_GRANT_WRITE_URI_PERMISSION = 0x00000002
FLAG_GRANT_PERSISTABLE_URI_PERMISSION = 0x00000040
LAUNCHER_FLAGS = FLAG_ACTIVITY_NEW_TASK | FLAG_ACTIVITY_RESET_TASK_IF_NEEDED
ACTION_OPEN_DOCUMENT = "android.intent.action.OPEN_DOCUMENT"
ACTION_GET_CONTENT = "android.intent.action.GET_CONTENT"
CATEGORY_OPENABLE = "android.intent.category.OPENABLE"
RESULT_OK = -1
RESULT_CANCELED = 0
"""Activity.RESULT_OK and RESULT_CANCELED: what a started-for-result activity hands back."""


@dataclass
class Intent:
    action: str | None = None
    categories: tuple[str, ...] = ()
    data: str | None = None
    mime_type: str | None = None
    flags: int = 0
    package: str | None = None
    component: tuple[str, str] | None = None
    """(package, full class name)."""
    bounds: tuple[int, int, int, int] | None = None
    extras: dict = field(default_factory=dict)

    @classmethod
    def launcher(cls, package: str, activity: str, bounds=None) -> Intent:
        return cls(action=ACTION_MAIN, categories=(CATEGORY_LAUNCHER,), flags=LAUNCHER_FLAGS,
                   component=(package, activity), bounds=bounds)

    @property
    def is_launcher(self) -> bool:
        return self.action == ACTION_MAIN and CATEGORY_LAUNCHER in self.categories

    def short_string(self) -> str:
        """Intent.toShortString(secure=true, comp=true, extras=true, clip=false)."""
        parts = []
        if self.action:
            parts.append(f"act={self.action}")
        if self.categories:
            parts.append("cat=[" + ",".join(self.categories) + "]")
        if self.data:
            parts.append(f"dat={safe_uri(self.data)}")
        if self.mime_type:
            parts.append(f"typ={self.mime_type}")
        if self.flags:
            parts.append(f"flg=0x{self.flags:x}")
        if self.package:
            parts.append(f"pkg={self.package}")
        if self.component:
            from bmoca.formats.apps import short_component
            parts.append("cmp=" + short_component(*self.component))
        if self.bounds:
            left, top, right, bottom = self.bounds
            parts.append(f"bnds=[{left},{top}][{right},{bottom}]")
        if self.extras:
            parts.append("(has extras)")
        return " ".join(parts)


def safe_uri(uri: str) -> str:
    """Uri.toSafeString: hide phone numbers and e-mail, drop query and fragment."""
    scheme, sep, rest = uri.partition(":")
    if not sep:
        return uri.split("#", 1)[0]
    if scheme in ("tel", "sip", "sms", "smsto", "mailto", "nfc"):
        return scheme + ":" + re.sub(r"[0-9A-Za-z]", "x", rest)
    if scheme in ("http", "https", "ftp", "rtsp"):
        host = rest.lstrip("/").split("/", 1)[0].split("@")[-1]
        return f"{scheme}://{host}/..." if rest.startswith("//") else uri
    return scheme + ":" + rest.split("?", 1)[0].split("#", 1)[0]

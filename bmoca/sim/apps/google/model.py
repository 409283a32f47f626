"""What the Google app's screens share: its names, the search it opens, its search history."""

from __future__ import annotations

from dataclasses import dataclass, field

from bmoca.sim.apps.base import Context
from bmoca.sim.system.intent import FLAG_ACTIVITY_CLEAR_TASK, FLAG_ACTIVITY_NEW_TASK, Intent

PACKAGE = "com.google.android.googlequicksearchbox"
QUERY_ENTRY = "com.google.android.apps.gsa.queryentry.QueryEntryActivity"
SEARCH_ACTIVITY = f"{PACKAGE}.SearchActivity"
ACTION_GLOBAL_SEARCH = "android.search.action.GLOBAL_SEARCH"
ACTION_VOICE_ASSIST = "android.intent.action.VOICE_ASSIST"
HISTORY_LIMIT = 50


@dataclass
class GoogleData:
    searches: list[str] = field(default_factory=list)
    """Submitted queries, oldest first (the Recent tab shows them newest first)."""


def gid(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


def open_search(ctx: Context) -> None:
    """The launcher's search pill and the app's search box: the query entry, in a task of
    its own."""
    ctx.start_activity(Intent(action=ACTION_GLOBAL_SEARCH, flags=0x10000000,
                              component=(PACKAGE, QUERY_ENTRY)))


def start_voice_search(ctx: Context) -> None:
    """The search pill's microphone. The Pixel Launcher's QSB sends
    `Intent(VOICE_ASSIST).setPackage(<Google app>)` with NEW_TASK | CLEAR_TASK; the Google
    app's query entry takes it and opens listening ("Speak now"), with no text field
    focused, so no keyboard attaches."""
    ctx.start_activity(Intent(action=ACTION_VOICE_ASSIST, package=PACKAGE,
                              flags=FLAG_ACTIVITY_NEW_TASK | FLAG_ACTIVITY_CLEAR_TASK))


def remember(ctx: Context, query: str) -> None:
    data: GoogleData = ctx.data
    if query in data.searches:
        data.searches.remove(query)
    data.searches.append(query)
    del data.searches[:-HISTORY_LIMIT]


def history(ctx: Context) -> list[str]:
    data: GoogleData = ctx.data
    return list(data.searches)

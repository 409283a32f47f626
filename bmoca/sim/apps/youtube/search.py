"""YouTube's search page (2020-21): the top bar's search opens a page of its own over the
feed, with the `search_edit_text` field focused (the keyboard up). Under the field: with
nothing typed, the searches made before (a clock icon each, newest first); while typing,
suggestions that complete the text (a magnifier icon each). Every row ends with the ↖
arrow (↗ in right-to-left languages) that puts its text into the field to go on typing; a tap on the row searches for it,
as the keyboard's search key does for the field's text. The results are the feed's videos
whose title or channel holds a word of the search (all of them when none does: YouTube
always has results), under the field, which keeps the search's text.

The suggestions are our own: the feed's titles and channels that start with or contain the
text, then the text with a few common endings, at most eight rows.
"""

from __future__ import annotations

from collections.abc import Callable

from bmoca.sim.apps.base import Context
from bmoca.sim.apps.youtube.feed import VIDEOS, Video, palette, yid
from bmoca.sim.ui.view import MATCH, View, icon, row, scroller, text

ENDINGS = ("tutorial", "music", "live", "for beginners", "review")
MAX_SUGGESTIONS = 8


def suggestions(query: str, history: tuple[str, ...]) -> list[tuple[str, bool]]:
    """(text, from history) rows for the typed `query`."""
    typed = query.strip().lower()
    if not typed:
        return [(h, True) for h in history[:MAX_SUGGESTIONS]]
    rows = [(h, True) for h in history if h.startswith(typed) and h != typed]
    names = [v.title.lower() for v in VIDEOS] + [v.channel.lower() for v in VIDEOS]
    rows += [(n, False) for n in names if n.startswith(typed)]
    rows += [(n, False) for n in names if typed in n and not n.startswith(typed)]
    rows += [(f"{typed} {e}", False) for e in ENDINGS]
    seen: set[str] = set()
    out = []
    for shown, old in rows:
        if shown not in seen:
            seen.add(shown)
            out.append((shown, old))
    return out[:MAX_SUGGESTIONS]


def results(query: str) -> list[Video]:
    """The feed's videos a search finds (every video when none matches)."""
    words = [w for w in query.lower().split() if len(w) > 1]
    found = [v for v in VIDEOS
             if any(w in f"{v.title} {v.channel}".lower() for w in words)]
    return found or list(VIDEOS)


def suggestion_list(ctx: Context, query: str, history: tuple[str, ...],
                    search: Callable[[str], None], fill: Callable[[str], None]) -> View:
    """The page under the field: one row per suggestion."""
    bg, fg, dim = palette(ctx)

    def line(shown: str, old: bool) -> View:
        return row(icon("history" if old else "search", 24, icon_color=dim, cls="",
                        margin=(16, 0, 16, 0), gravity="center_vertical"),
                   text(shown, text_size=16, text_color=fg, width=0, weight=1,
                        gravity="start|center_vertical", id=yid("suggestion_text")),
                   row(icon("north_east" if ctx.rtl else "north_west", 24, icon_color=dim, cls="", gravity="center"),
                       width=48, height=48, clickable=True, desc=ctx.t("youtube.fill_query"),
                       cls="android.widget.ImageView", gravity="center",
                       on_click=lambda: fill(shown)),
                   height=48, clickable=True, on_click=lambda: search(shown),
                   gravity="center_vertical", cls="android.widget.LinearLayout")

    return scroller(*[line(shown, old) for shown, old in suggestions(query, history)],
                    key="suggestions", cls="android.widget.ListView",
                    id=yid("search_suggestions"), width=MATCH, height=MATCH, bg=bg)

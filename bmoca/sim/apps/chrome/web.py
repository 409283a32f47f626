"""Chrome's model: tabs, history, and the small offline web the simulated phone can reach.

There is no network at run time, so "the web" is a fixed set of pages of our own making;
the omnibox resolves what is typed as Chrome does (a URL with a scheme or a dotted host
is navigated to, anything else is a Google search), and a host outside the set gets
Chrome's error page (`ERR_NAME_NOT_RESOLVED`), as a phone without that site would.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import quote_plus, unquote_plus, urlsplit

NTP = "chrome://newtab/"
SEARCH = "https://www.google.com/search?q="


@dataclass(frozen=True)
class Page:
    url: str
    title: str
    body: tuple[str, ...]


PAGES: tuple[Page, ...] = (
    Page("https://www.google.com/", "Google", ()),
    Page("https://example.com/", "Example Domain", (
        "This domain is for use in illustrative examples in documents.",
        "You may use this domain in literature without prior coordination or asking for "
        "permission.")),
    Page("https://en.m.wikipedia.org/wiki/Android_10", "Android 10 - Wikipedia", (
        "Android 10 is the tenth major release and the 17th version of the Android mobile "
        "operating system.",
        "It was first released as a developer preview in March 2019 and publicly on "
        "September 3, 2019.")),
    Page("https://www.walmart.com/", "Walmart.com | Save Money. Live Better", (
        "Shop groceries, home goods and more.",)),
    Page("https://weather.example.org/", "Weather", (
        "Today: 21°, partly cloudy.", "Tomorrow: 18°, rain.")),
)


@dataclass
class Tab:
    url: str = NTP
    title: str = ""
    back: list[str] = field(default_factory=list)
    """URLs to return to with BACK, oldest first."""
    forward: list[str] = field(default_factory=list)
    """URLs left by going back, the nearest last (the tablet toolbar's Forward)."""


@dataclass
class Visit:
    url: str
    title: str
    at_ms: int


@dataclass
class ChromeData:
    """Chrome's state on the phone: B-MoCA's set-up has run it once (terms accepted, no
    sign-in), which leaves one tab on the new-tab page."""

    tabs: list[Tab] = field(default_factory=lambda: [Tab()])
    current: int = 0
    incognito: list[Tab] = field(default_factory=list)
    incognito_current: int = 0
    in_incognito: bool = False
    history: list[Visit] = field(default_factory=list)

    def open_tabs(self) -> list[Tab]:
        return self.incognito if self.in_incognito else self.tabs

    def tab(self) -> Tab:
        tabs = self.open_tabs()
        index = self.incognito_current if self.in_incognito else self.current
        return tabs[min(index, len(tabs) - 1)]

    def select(self, index: int) -> None:
        if self.in_incognito:
            self.incognito_current = index
        else:
            self.current = index

    def new_tab(self, incognito: bool = False) -> None:
        self.in_incognito = incognito
        tabs = self.open_tabs()
        tabs.append(Tab())
        self.select(len(tabs) - 1)

    def close_tab(self, index: int) -> None:
        tabs = self.open_tabs()
        del tabs[index]
        if not tabs and self.in_incognito:
            self.in_incognito = False
            return
        if not tabs:
            tabs.append(Tab())  # Chrome keeps a window open on a fresh new-tab page
        self.select(min(index, len(tabs) - 1))


def page_at(url: str) -> Page | None:
    wanted = _normal(url)
    return next((p for p in PAGES if _normal(p.url) == wanted), None)


def _normal(url: str) -> str:
    parts = urlsplit(url)
    host = parts.netloc.lower().removeprefix("www.")
    return f"{host}{parts.path.rstrip('/')}"


_HOST = re.compile(r"^[\w-]+(\.[\w-]+)+(:\d+)?(/.*)?$")


def resolve(typed: str) -> str:
    """What the omnibox navigates to for the typed text (AutocompleteMatch's default)."""
    text = typed.strip()
    if re.match(r"^[a-z][a-z0-9+.-]*://", text, re.I) or text.startswith("chrome:"):
        return text
    if " " not in text and _HOST.match(text):
        return "https://" + text
    return SEARCH + quote_plus(text)


def search_query(url: str) -> str | None:
    return unquote_plus(url[len(SEARCH):]) if url.startswith(SEARCH) else None


def search(query: str) -> list[Page]:
    words = [w for w in query.casefold().split() if w]
    return [p for p in PAGES if words and p.url != "https://www.google.com/" and all(
        w in (p.title + " " + " ".join(p.body) + " " + p.url).casefold() for w in words)]


def host_of(url: str) -> str:
    return urlsplit(url).netloc or url

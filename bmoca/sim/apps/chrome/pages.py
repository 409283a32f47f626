"""What Chrome's content area shows: the new-tab page, a page of the offline web, Google's
results, and the error page for a site that cannot be reached; and Chrome's colours."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bmoca.sim.apps.base import Context
from bmoca.sim.apps.chrome import web
from bmoca.sim.apps.chrome.web import NTP, ChromeData, Tab, Visit
from bmoca.sim.system import perturbations
from bmoca.sim.ui.view import MATCH, WRAP, Color, View, column, frame, icon, row, scroller, text

PACKAGE = "com.android.chrome"
GOOGLE_COLORS: tuple[Color, ...] = ((66, 133, 244), (234, 67, 53), (251, 188, 5),
                                    (66, 133, 244), (52, 168, 83), (234, 67, 53))
WRAP_BUTTON = 96
"""The error page's Reload button width (dp)."""


def chid(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


@dataclass(frozen=True)
class Colors:
    toolbar: Color
    page: Color
    text: Color
    secondary: Color
    icon: Color
    field: Color
    menu: Color
    link: Color
    switcher: Color


def colors(ctx: Context, incognito: bool) -> Colors:
    """Chrome 83's light, dark and incognito themes."""
    if incognito:
        return Colors(toolbar=(50, 54, 57), page=(32, 33, 36), text=(232, 234, 237),
                      secondary=(154, 160, 166), icon=(232, 234, 237), field=(60, 64, 67),
                      menu=(41, 42, 45), link=(138, 180, 248), switcher=(32, 33, 36))
    if ctx.theme.dark:
        return Colors(toolbar=(32, 33, 36), page=(32, 33, 36), text=(232, 234, 237),
                      secondary=(154, 160, 166), icon=(232, 234, 237), field=(60, 64, 67),
                      menu=(41, 42, 45), link=(138, 180, 248), switcher=(24, 24, 24))
    return Colors(toolbar=(255, 255, 255), page=(255, 255, 255), text=(32, 33, 36),
                  secondary=(95, 99, 104), icon=(95, 99, 104), field=(241, 243, 244),
                  menu=(255, 255, 255), link=(26, 13, 171), switcher=(241, 243, 244))


def display_url(url: str) -> str:
    """What the omnibox shows when not editing: the host and path, no scheme."""
    if url == NTP:
        return ""
    for prefix in ("https://", "http://"):
        if url.startswith(prefix):
            rest = url[len(prefix):].removeprefix("www.")
            return rest.rstrip("/") if rest.count("/") <= 1 else rest
    return url


def title_of(ctx: Context, url: str) -> str:
    if url == NTP:
        return ctx.t("chrome.new_tab")
    query = web.search_query(url)
    if query is not None:
        return ctx.t("chrome.search_title", query=query)
    page = web.page_at(url)
    return page.title if page else web.host_of(url)


def navigate(ctx: Context, url: str) -> None:
    """Load `url` in the current tab, remembering where it came from and the visit."""
    data: ChromeData = ctx.data
    tab = data.tab()
    if tab.url != url:
        tab.back.append(tab.url)
        tab.forward.clear()
    tab.url = url
    tab.title = title_of(ctx, url)
    if not data.in_incognito and url != NTP:
        data.history.append(Visit(url, tab.title, ctx.system.state.clock.now_ms))


def content(ctx: Context, c: Colors, tab: Tab, open_url: Callable[[str], None],
            focus_omnibox: Callable[[], None]) -> View:
    if tab.url == NTP:
        return _new_tab_page(ctx, c, open_url, focus_omnibox)
    query = web.search_query(tab.url)
    if query is not None:
        return _results(ctx, c, query, open_url)
    page = web.page_at(tab.url)
    if page is None or tab.url.startswith("chrome:"):
        return _error(ctx, c, tab.url)
    body = list(page.body)
    injected = perturbations.content_injection(ctx.system, "web")
    if injected is not None:  # a perturbation: the page carries text aimed at the agent
        body.insert(min(1, len(body)), injected)
    paragraphs = [text(p, text_size=16, text_color=c.text, max_lines=20, width=MATCH,
                       cls="android.view.View", margin=(0, 0, 0, 12)) for p in body]
    return _web_view(c, page.title, text(page.title, text_size=28, text_color=c.text,
                                         max_lines=3, width=MATCH, cls="android.view.View",
                                         margin=(0, 8, 0, 16)), *paragraphs)


def _web_view(c: Colors, title: str, *children: View) -> View:
    return scroller(*children, key=f"chrome:page:{title}", cls="android.webkit.WebView",
                    desc=title, width=MATCH, height=MATCH, padding=(16, 16, 16, 16), bg=c.page)


def _new_tab_page(ctx: Context, c: Colors, open_url: Callable[[str], None],
                  focus_omnibox: Callable[[], None]) -> View:
    data = ctx.data
    if data.in_incognito:
        return column(
            icon("visibility_off", 64, icon_color=c.secondary, cls="android.widget.ImageView",
                 gravity="center", margin=(0, 48, 0, 16)),
            text(ctx.t("chrome.incognito_title"), text_size=22, text_color=c.text,
                 gravity="center", max_lines=2, id=chid("new_tab_incognito_title")),
            width=MATCH, height=MATCH, bg=c.page)
    logo = row(*(text(letter, text_size=56, font_weight=500, text_color=color, cls="")
                 for letter, color in zip("Google", GOOGLE_COLORS, strict=True)),
               cls="android.widget.ImageView", id=chid("search_provider_logo"),
               desc="Google", width=WRAP, height=96, gravity="center", mirror=False,
               margin=(0, 40, 0, 16))
    search_box = row(
        text("", id=chid("search_box_text"), hint=ctx.t("chrome.search_or_type"),
             text_size=16, text_color=c.secondary, width=0, weight=1,
             gravity="center_vertical", cls="android.widget.EditText", clickable=True,
             on_click=focus_omnibox, on_text=lambda _value: focus_omnibox()),
        frame(icon("mic", 24, icon_color=c.icon, gravity="center", cls=""),
              cls="android.widget.ImageView", id=chid("voice_search_button"),
              desc=ctx.t("chrome.voice_search"), width=48, height=48, clickable=True),
        cls="android.widget.LinearLayout", id=chid("search_box"), width=MATCH, height=48,
        corner=24, bg=c.field, margin=(16, 0, 16, 24), padding=(16, 0, 4, 0),
        gravity="center_vertical", clickable=True, on_click=focus_omnibox)
    tiles = [column(frame(text(page.title[:1], text_size=20, font_weight=500,
                               text_color=c.link, align="center", width=48,
                               height=48, cls=""),
                          width=48, height=48, corner=24, bg=c.field, gravity="center", cls=""),
                    text(page.title, text_size=12, text_color=c.text, align="center",
                         width=MATCH, id=chid("tile_view_title")),
                    cls="android.widget.FrameLayout", desc=page.title, width=0, weight=1,
                    clickable=True, focusable=True, gravity="center",
                    on_click=lambda url=page.url: open_url(url))
             for page in web.PAGES[1:5]]
    return scroller(logo, search_box,
                    row(*tiles, cls="android.view.ViewGroup", id=chid("tile_grid_layout"),
                        width=MATCH, padding=(8, 0, 8, 0)),
                    key="chrome:ntp", cls="android.widget.ScrollView", id=chid("ntp_scrollview"),
                    width=MATCH, height=MATCH, bg=c.page)


def _results(ctx: Context, c: Colors, query: str, open_url: Callable[[str], None]) -> View:
    found = web.search(query)
    rows: list[View] = []
    for page in found:
        rows.append(column(
            text(web.host_of(page.url), text_size=12, text_color=c.secondary,
                 cls="android.view.View"),
            text(page.title, text_size=18, text_color=c.link, cls="android.view.View",
                 max_lines=2),
            text(page.body[0] if page.body else "", text_size=14, text_color=c.text,
                 max_lines=3, cls="android.view.View"),
            cls="android.view.View", width=MATCH, clickable=True, margin=(0, 0, 0, 20),
            on_click=lambda url=page.url: open_url(url)))
    if not found:
        rows.append(text(ctx.t("chrome.no_results", query=query), text_size=16,
                         text_color=c.text, max_lines=4, width=MATCH, cls="android.view.View"))
    return _web_view(c, ctx.t("chrome.search_title", query=query), *rows)


def _error(ctx: Context, c: Colors, url: str) -> View:
    host = web.host_of(url)
    return _web_view(
        c, host,
        icon("description", 48, icon_color=c.secondary, cls="android.view.View",
             margin=(0, 32, 0, 24)),
        text(ctx.t("chrome.cant_reach"), text_size=22, text_color=c.text, max_lines=2,
             width=MATCH, cls="android.view.View"),
        text(ctx.t("chrome.cant_reach_detail", host=host), text_size=14, text_color=c.secondary,
             max_lines=3, width=MATCH, cls="android.view.View", margin=(0, 12, 0, 12)),
        text("ERR_NAME_NOT_RESOLVED", text_size=12, text_color=c.secondary,
             cls="android.view.View", text_direction="ltr"),
        frame(text(ctx.t("chrome.reload"), text_size=14, font_weight=500,
                   text_color=(255, 255, 255), gravity="center", cls=""),
              cls="android.widget.Button", width=WRAP_BUTTON, height=36, corner=4,
              bg=(26, 115, 232), gravity="end", margin=(0, 24, 0, 0), clickable=True))


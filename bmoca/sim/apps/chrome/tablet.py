"""Chrome's tablet UI (sw600dp, Chrome 83-90): the tab strip above the tablet toolbar.

On a large screen `ChromeTabbedActivity` inflates `toolbar_tablet.xml` under a 40 dp tab
strip (`tab_strip_height`): Home (shown while a homepage is set, as B-MoCA's Chrome has),
Back, Forward, Reload, the omnibox (`location_bar`, `url_bar`) and the ⋮ menu. The layout's
`tab_switcher_button` is `gone` (ToolbarTablet shows it only in its accessibility tab
switcher mode), so there is no tab count on a tablet: the strip shows every tab.

The strip is drawn by the compositor (`StripLayoutHelper`), not by views: what
uiautomator sees are the virtual views of `CompositorViewHolder`'s accessibility provider,
id-less `android.view.View` nodes described by `StripLayoutHelper` in
`getVirtualViews` order: each tab ("<title>, Tab", "<title>, Selected Tab", "Incognito
Tab" in the incognito strip), its close button ("Close <title> tab"), then the new-tab
button ("New tab" / "New incognito tab") right after the last tab. A tab is 265 dp wide
at most (MAX_TAB_WIDTH_DP); where the tabs do not fit, the real strip cascades them
(stacks them 4 dp apart at its edges); here they shrink evenly instead, so every tab stays
on screen (a simplification). The incognito model has a strip of its own: while it is
shown, the strip lists the incognito tabs.
"""

from __future__ import annotations

from collections.abc import Callable

from bmoca.sim.apps.base import Context
from bmoca.sim.apps.chrome import pages
from bmoca.sim.apps.chrome.pages import chid
from bmoca.sim.apps.chrome.web import NTP, ChromeData, Tab
from bmoca.sim.apps.contacts.ui import icon_button
from bmoca.sim.ui.view import MATCH, View, frame, icon, row, text

STRIP_DP = 40.0
"""`tab_strip_height`."""
TAB_MAX_DP = 265.0
NEW_TAB_BUTTON_DP = 58.0
CLOSE_DP = 36.0
"""StripLayoutTab's CLOSE_BUTTON_WIDTH_DP."""
VIRTUAL = "android.view.View"
"""ExploreByTouchHelper's class for a virtual view."""


def strip_colors(ctx: Context, incognito: bool) -> tuple:
    """(strip background, a background tab, title text): the selected tab takes the
    toolbar's colour, as the folio of `bg_tabstrip_tab` does."""
    if incognito or ctx.theme.dark:
        return (32, 33, 36), (41, 42, 45), (232, 234, 237)
    return (222, 225, 230), (222, 225, 230), (60, 64, 67)


def strip(ctx: Context, data: ChromeData, toolbar: tuple, on_change: Callable[[], None]) -> View:
    """The tab strip of the shown model: its tabs, their close buttons, the new-tab button."""
    t = ctx.t
    incognito = data.in_incognito
    back, other, fg = strip_colors(ctx, incognito)
    tabs = data.open_tabs()
    current = data.tab()
    width_dp = ctx.system.screen_dp()[0]
    tab_w = min(TAB_MAX_DP, (width_dp - NEW_TAB_BUTTON_DP - 8) / max(1, len(tabs)))
    suffix = "chrome.strip_incognito_tab" if incognito else "chrome.strip_tab"
    views: list[View] = []
    for index, tab in enumerate(tabs):
        title = tab.title or t("chrome.new_tab")
        selected = tab is current

        def pick(i: int = index) -> None:
            data.select(i)
            on_change()

        def close(i: int = index) -> None:
            data.close_tab(i)
            on_change()

        identifier = t(suffix + ("_selected" if selected else ""))
        views.append(frame(
            row(frame(icon("public" if tab.url != NTP else "article", 16, icon_color=fg,
                           cls="", gravity="center"),
                      width=16, height=16, gravity="center_vertical", margin=(12, 0, 8, 0),
                      cls=""),
                text(title, text_size=13, text_color=fg, width=0, weight=1, cls="",
                     gravity="center_vertical", margin=(0, 0, CLOSE_DP, 0)),
                cls=VIRTUAL, desc=f"{title}, {identifier}", width=MATCH, height=MATCH,
                clickable=True, on_click=pick, gravity="center_vertical"),
            frame(icon("close", 16, icon_color=fg, cls="", gravity="center"),
                  cls=VIRTUAL, desc=t("chrome.close_tab", title=title), width=CLOSE_DP,
                  height=MATCH, clickable=True, on_click=close, gravity="end|center_vertical"),
            cls="", orientation="z", width=tab_w, height=STRIP_DP - 4, corner=8,
            bg=toolbar if selected else other, gravity="bottom", margin=(0, 4, 0, 0)))

    def new_tab() -> None:
        data.new_tab(incognito=incognito)
        on_change()

    plus = frame(icon("add", 20, icon_color=fg, cls="", gravity="center"), cls=VIRTUAL,
                 desc=t("chrome.new_incognito_tab" if incognito else "chrome.new_tab"),
                 width=NEW_TAB_BUTTON_DP, height=32.5, clickable=True, on_click=new_tab,
                 gravity="center_vertical")
    return row(*views, plus, cls="", width=MATCH, height=STRIP_DP, bg=back,
               padding=(4, 0, 4, 0))


def toolbar(ctx: Context, c: pages.Colors, tab: Tab, on_home: Callable[[], None],
            on_back: Callable[[], None], on_forward: Callable[[], None],
            on_reload: Callable[[], None], omnibox: View, menu: View) -> View:
    """`toolbar_tablet.xml`: Home, Back, Forward, Reload, the omnibox, the ⋮ menu."""
    t = ctx.t
    faded = (*c.icon[:3], 97)  # a disabled button's icon at 38 % (Material's disabled alpha)
    back = icon_button(ctx, "arrow_back", t("chrome.back"), on_back,
                       c.icon if tab.back else faded, chid("back_button"))
    back.enabled = bool(tab.back)
    forward = icon_button(ctx, "arrow_forward", t("chrome.forward"), on_forward,
                          c.icon if tab.forward else faded, chid("forward_button"))
    forward.enabled = bool(tab.forward)
    return row(
        icon_button(ctx, "home", t("chrome.home"), on_home, c.icon, chid("home_button")),
        back, forward,
        icon_button(ctx, "refresh", t("chrome.refresh"), on_reload, c.icon,
                    chid("refresh_button")),
        omnibox, menu,
        cls="android.widget.FrameLayout", id=chid("toolbar"), width=MATCH, height=56,
        bg=c.toolbar, gravity="center_vertical", padding=(4, 0, 4, 0), spacing=0)

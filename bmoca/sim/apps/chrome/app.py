"""Chrome (`com.android.chrome`): the launcher alias, the tabbed browser and History.

The launcher starts `com.google.android.apps.chrome.Main` (an alias of Chrome's launcher
activity), which hands over to `org.chromium.chrome.browser.ChromeTabbedActivity`: two
START lines, the first naming `com.google.android.apps.chrome`. B-MoCA's set-up has run
Chrome once (terms accepted, sign-in skipped), so it opens on one new-tab page.

The tabbed activity has the toolbar (`home_button`, `location_bar` → `url_bar`,
`tab_switcher_button` whose content-desc counts the open tabs, and whose long press opens
the tab switcher action menu: Close tab, New tab, New incognito tab; `menu_button`), the page
(the new-tab page with its search box and tiles, a page of the offline web, Google's
results, or the error page), the app menu (a popup: New tab … Help & feedback, with
History starting `HistoryActivity`), and the tab switcher (`new_tab_view_button`).
The model and the offline web are in `web.py`; History's screen is in `history.py`. On a
tablet (sw600dp) the toolbar is the tablet one under the tab strip, without the tab
switcher button (`tablet.py`).
"""

from __future__ import annotations

from bmoca.formats.locales import native_digits
from bmoca.sim.apps.base import Activity, App, Context
from bmoca.sim.apps.chrome import pages, tablet
from bmoca.sim.apps.chrome.history import HISTORY, HistoryActivity
from bmoca.sim.apps.chrome.pages import PACKAGE, chid, colors, navigate
from bmoca.sim.apps.chrome.web import NTP, ChromeData, resolve
from bmoca.sim.apps.contacts.ui import icon_button
from bmoca.sim.system.intent import Intent
from bmoca.sim.ui.view import MATCH, WRAP, View, column, frame, row, scroller, text

MAIN = "com.google.android.apps.chrome.Main"
TABBED = "org.chromium.chrome.browser.ChromeTabbedActivity"
LAUNCHER_SHORTCUT = "org.chromium.chrome.browser.LauncherShortcutActivity"
ACTION_OPEN_NEW_TAB = "chromium.shortcut.action.OPEN_NEW_TAB"
ACTION_OPEN_NEW_INCOGNITO_TAB = "chromium.shortcut.action.OPEN_NEW_INCOGNITO_TAB"
MENU_ITEMS = ("new_tab", "new_incognito_tab", "bookmarks", "recent_tabs", "history",
              "downloads", "share", "find_in_page", "add_to_home", "desktop_site", "settings",
              "help")
"""The app menu's rows, top to bottom; Share, Find in page and Add to Home screen only
show on a web page."""
PAGE_ONLY = {"share", "find_in_page", "add_to_home"}
MENU_WIDTH_DP = 260
TAB_MENU_WIDTH_DP = 220
MENU_MARGIN_DP = 4


class ChromeLauncher(Activity):
    """The alias the launcher starts: hands its intent to the tabbed activity, never drawn."""

    def on_create(self, ctx: Context) -> None:
        intent = self.intent  # the launcher's category stays with the alias's record
        ctx.start_activity(Intent(action=intent.action, flags=intent.flags,
                                  component=(PACKAGE, TABBED),
                                  extras={"com.android.chrome.invoked_from_launcher": True}))
        ctx.finish()

    def build(self, ctx: Context) -> View:
        return frame(width=MATCH, height=MATCH, bg=colors(ctx, False).background)


class LauncherShortcut(Activity):
    """`LauncherShortcutActivity`, which Chrome's launcher shortcuts start: "New tab" (its
    manifest's `new-tab-shortcut`) and "New incognito tab" (the dynamic
    `dynamic-new-incognito-tab-shortcut` it publishes once it has run). The real trampoline
    hands a VIEW of the new-tab page to ChromeLauncherActivity, which opens it in a new
    (incognito) tab of ChromeTabbedActivity; here it opens the tab itself and shows the
    tabbed activity (the running one, singleTask, with its menu and switcher closed, or a
    new one), then finishes. Any other action is dropped, as the real one drops it."""

    def on_create(self, ctx: Context) -> None:
        action = self.intent.action
        if action in (ACTION_OPEN_NEW_TAB, ACTION_OPEN_NEW_INCOGNITO_TAB):
            data: ChromeData = ctx.data
            data.new_tab(incognito=action == ACTION_OPEN_NEW_INCOGNITO_TAB)
            task = ctx.system.state.am.task_for(PACKAGE)
            running = [r.activity for r in (task.records if task else []) if r.cls == TABBED]
            if running:  # its menus and tab switcher close on the new intent
                browser = running[-1]
                browser.menu = browser.tab_menu = browser.switcher = False
            else:
                ctx.start_activity(Intent(action="android.intent.action.VIEW", data=NTP,
                                          component=(PACKAGE, TABBED)))
        ctx.finish()

    def build(self, ctx: Context) -> View:
        return frame(width=MATCH, height=MATCH, bg=colors(ctx, False).background)


class ChromeTabbedActivity(Activity):
    popup_dialog = True  # the app menu is a popup at the top end, over an undimmed page

    def __init__(self, intent: Intent):
        super().__init__(intent)
        self.menu = False
        self.tab_menu = False
        """The tab switcher button's long-press menu (TabSwitcherActionMenuCoordinator)."""
        self.switcher = False
        self.typed: str | None = None
        """What the focused omnibox holds; None while it is not being edited."""

    # -- the toolbar ------------------------------------------------------------------
    def _edit_url(self, ctx: Context) -> None:
        self.typed = ""
        if ctx.record is not None:
            ctx.record.focus = chid("url_bar")

    def _go(self, ctx: Context) -> None:
        if self.typed is not None and self.typed.strip():
            navigate(ctx, resolve(self.typed))
        self.typed = None
        if ctx.record is not None:
            ctx.record.focus = None

    def _omnibox(self, ctx: Context, c: pages.Colors) -> View:
        """`location_bar` with `url_bar`: the page's address, or what is being typed."""
        data: ChromeData = ctx.data
        editing = ctx.record is not None and ctx.record.focus == chid("url_bar")
        if not editing:
            self.typed = None

        def on_text(value: str) -> None:
            self.typed = value

        url_text = self.typed if editing else pages.display_url(data.tab().url)
        return row(View(cls="android.widget.EditText", id=chid("url_bar"), text=url_text or "",
                        hint=ctx.t("chrome.search_or_type"), text_size=16, text_color=c.text,
                        width=0, weight=1, height=40, clickable=True, focusable=True,
                        long_clickable=True, on_text=on_text,
                        on_click=lambda: self._edit_url(ctx),
                        on_long_click=lambda: self._edit_url(ctx),
                        on_submit=lambda: self._go(ctx), ime_action="go", input_type="uri",
                        gravity="center_vertical", padding=(16, 0, 8, 0),
                        text_direction="ltr"),
                   cls="android.widget.FrameLayout", id=chid("location_bar"), width=0,
                   weight=1, height=40, corner=20, bg=c.field, gravity="center_vertical")

    def _toolbar(self, ctx: Context, c: pages.Colors) -> View:
        data: ChromeData = ctx.data
        t = ctx.t
        menu = icon_button(ctx, "more_vert", t("chrome.more_options"), self._open_menu, c.icon,
                           chid("menu_button"))
        if ctx.system.sw600dp:
            return tablet.toolbar(ctx, c, data.tab(), lambda: navigate(ctx, NTP),
                                  lambda: self._back(ctx), lambda: self._forward(ctx),
                                  lambda: None, self._omnibox(ctx, c), menu)
        count = len(data.open_tabs())
        switcher_desc = t("chrome.tabs_one") if count == 1 else t(
            "chrome.tabs_many", count=native_digits(ctx.locale, str(count)))
        return row(
            icon_button(ctx, "home", t("chrome.home"),
                        lambda: navigate(ctx, NTP), c.icon, chid("home_button")),
            self._omnibox(ctx, c),
            frame(text(native_digits(ctx.locale, str(count)) if count < 100 else ":D",
                       text_size=12, font_weight=700,
                       text_color=c.icon, align="center", width=20, height=20,
                       border=c.icon, corner=4, gravity="center", cls=""),
                  cls="android.widget.ImageButton", id=chid("tab_switcher_button"),
                  desc=switcher_desc, width=48, height=48, clickable=True, focusable=True,
                  long_clickable=True, gravity="center_vertical", on_click=self._open_switcher,
                  on_long_click=self._open_tab_menu),
            menu,
            cls="android.widget.FrameLayout", id=chid("toolbar"), width=MATCH, height=56,
            bg=c.toolbar, gravity="center_vertical", padding=(4, 0, 4, 0))

    def _back(self, ctx: Context) -> bool:
        """The previous page of the tab (BACK, the tablet's Back button); False if none."""
        tab = ctx.data.tab()
        if not tab.back:
            return False
        tab.forward.append(tab.url)
        tab.url = tab.back.pop()
        tab.title = pages.title_of(ctx, tab.url)
        return True

    def _forward(self, ctx: Context) -> None:
        tab = ctx.data.tab()
        if tab.forward:
            tab.back.append(tab.url)
            tab.url = tab.forward.pop()
            tab.title = pages.title_of(ctx, tab.url)

    def _tab_changed(self) -> None:
        """A tab picked, closed or opened from the strip: the omnibox stops editing."""
        self.typed = None

    def _open_switcher(self) -> None:
        self.switcher = True
        self.menu = False

    def _open_menu(self) -> None:
        self.menu = True

    def _open_tab_menu(self) -> None:
        self.tab_menu = True

    def _tab_menu(self, ctx: Context) -> View:
        """The tab switcher action menu: a popup over the tab switcher button (its end edge
        at the button's, overlapping it): Close tab, a divider, New tab, New incognito tab.
        Close tab closes the current tab; New tab opens a new-tab page in the normal tabs
        and New incognito tab one in the incognito tabs, as ChromeTabbedActivity does for
        `close_tab`, `new_tab_menu_id` and `new_incognito_tab_menu_id`."""
        data: ChromeData = ctx.data
        c = colors(ctx, data.in_incognito)

        def choose(key: str):
            def handler() -> None:
                self.tab_menu = False
                if key == "close_tab":
                    data.close_tab(data.open_tabs().index(data.tab()))
                else:
                    data.new_tab(incognito=key == "new_incognito_tab")
            return handler

        def item(key: str, glyph: str, label: str) -> View:
            return row(View(cls="android.widget.ImageView", id=chid("menu_item_icon"),
                            icon=glyph, icon_color=c.icon, width=24, height=24,
                            gravity="center_vertical"),
                       text(label, id=chid("menu_item_text"), text_size=16, text_color=c.text,
                            gravity="center_vertical", margin=(16, 0, 0, 0)),
                       cls="android.widget.LinearLayout", width=MATCH, height=48,
                       padding=(16, 0, 16, 0), clickable=True, focusable=True,
                       gravity="center_vertical", on_click=choose(key))

        return column(
            item("close_tab", "close", ctx.t("chrome.close_current_tab")),
            View(cls="", width=MATCH, height=1, bg=c.field, margin=(0, 4, 0, 4)),
            item("new_tab", "add_box", ctx.t("chrome.new_tab")),
            item("new_incognito_tab", "visibility_off", ctx.t("chrome.new_incognito_tab")),
            cls="android.widget.ListView", id=chid("menu_list"), width=TAB_MENU_WIDTH_DP,
            height=WRAP, bg=c.menu, elevation=8, corner=4, gravity="end|top",
            margin=(0, 4, 52, 0), padding=(0, 8, 0, 8))

    # -- screens ----------------------------------------------------------------------
    def build(self, ctx: Context) -> View:
        data: ChromeData = ctx.data
        c = colors(ctx, data.in_incognito)
        if self.switcher:
            return self._switcher(ctx, c)
        body = pages.content(ctx, c, data.tab(), lambda url: navigate(ctx, url),
                             lambda: self._edit_url(ctx))
        top = [self._toolbar(ctx, c)]
        if ctx.system.sw600dp:
            top.insert(0, tablet.strip(ctx, data, c.toolbar, self._tab_changed))
        return column(*top,
                      frame(body, cls="android.widget.FrameLayout",
                            id=chid("compositor_view_holder"), width=MATCH, height=0, weight=1,
                            bg=c.page),
                      width=MATCH, height=MATCH, bg=c.page)

    def dialog(self, ctx: Context) -> View | None:
        if self.tab_menu and not self.switcher:
            return self._tab_menu(ctx)
        if not self.menu or self.switcher:
            return None
        data: ChromeData = ctx.data
        c = colors(ctx, data.in_incognito)
        on_page = data.tab().url != NTP
        rows = [self._menu_row(ctx, c, key) for key in MENU_ITEMS
                if on_page or key not in PAGE_ONLY]
        icons = row(*(icon_button(ctx, glyph, ctx.t(f"chrome.{key}"), None, c.icon,
                                  chid(view_id))
                      for glyph, key, view_id in (
                          ("arrow_forward", "forward", "forward_menu_id"),
                          ("star", "bookmark", "bookmark_this_page_id"),
                          ("download", "download", "offline_page_id"),
                          ("info", "page_info", "info_menu_id"),
                          ("refresh", "refresh", "reload_menu_id"))),
                    width=MATCH, height=48, gravity="center_vertical",
                    spacing=_icon_spacing(ctx.system.screen_dp()[0]))
        return column(icons, scroller(*rows, key="chrome:menu", cls="android.widget.ListView",
                                      id=chid("app_menu_list"), width=MATCH,
                                      height=WRAP),
                      cls="android.widget.FrameLayout", width=MENU_WIDTH_DP, bg=c.menu,
                      elevation=8, corner=4, gravity="end|top", margin=(0, 4, MENU_MARGIN_DP, 0),
                      padding=(0, 4, 0, 8))

    def _menu_row(self, ctx: Context, c: pages.Colors, key: str) -> View:
        def choose() -> None:
            self.menu = False
            data: ChromeData = ctx.data
            if key in ("new_tab", "new_incognito_tab"):
                data.new_tab(incognito=key == "new_incognito_tab")
            elif key == "history":
                ctx.start_activity(Intent(component=(PACKAGE, HISTORY)))

        return frame(text(ctx.t(f"chrome.{key}"), id=chid("menu_item_text"), text_size=16,
                          text_color=c.text, gravity="start|center_vertical",
                          margin=(16, 0, 16, 0)),
                     cls="android.widget.LinearLayout", width=MATCH, height=48,
                     clickable=True, focusable=True, on_click=choose)

    def on_back(self, ctx: Context) -> bool:
        if self.tab_menu:
            self.tab_menu = False
            return True
        if self.menu:
            self.menu = False
            return True
        if self.switcher:
            self.switcher = False
            return True
        return self._back(ctx)

    def _switcher(self, ctx: Context, c: pages.Colors) -> View:
        data: ChromeData = ctx.data
        t = ctx.t
        cards = []
        for index, tab in enumerate(data.open_tabs()):
            title = tab.title or t("chrome.new_tab")

            def pick(i=index) -> None:
                data.select(i)
                self.switcher = False

            def close(i=index) -> None:
                data.close_tab(i)

            cards.append(column(
                row(text(title, id=chid("tab_title"), text_size=14, font_weight=500,
                         text_color=c.text, width=0, weight=1, gravity="center_vertical",
                         margin=(12, 0, 0, 0)),
                    icon_button(ctx, "close", t("chrome.close_tab", title=title), close,
                                c.icon, chid("close_btn")),
                    width=MATCH, height=48, gravity="center_vertical"),
                frame(text(pages.display_url(tab.url), text_size=12, text_color=c.secondary,
                           gravity="center", cls=""),
                      width=MATCH, height=140, bg=c.page, cls=""),
                cls="android.widget.FrameLayout", id=chid("content_view"), width=MATCH,
                corner=8, bg=c.field, margin=(16, 8, 16, 8), clickable=True, focusable=True,
                on_click=pick))
        bar = row(
            icon_button(ctx, "add", t("chrome.new_tab"), lambda: self._new_tab(data), c.icon,
                        chid("new_tab_view_button")),
            text(t("chrome.incognito_tabs") if data.in_incognito else "", width=0, weight=1,
                 text_size=16, text_color=c.icon, gravity="center_vertical"),
            icon_button(ctx, "more_vert", t("chrome.more_options"), None, c.icon,
                        chid("menu_button")),
            cls="android.widget.FrameLayout", id=chid("tab_switcher_toolbar"), width=MATCH,
            height=56, bg=c.toolbar, gravity="center_vertical", padding=(4, 0, 4, 0))
        return column(bar, scroller(*cards, key="chrome:tabs",
                                    cls="androidx.recyclerview.widget.RecyclerView",
                                    id=chid("tab_list_view"), width=MATCH, height=0, weight=1),
                      width=MATCH, height=MATCH, bg=c.switcher)

    def _new_tab(self, data: ChromeData) -> None:
        data.new_tab(incognito=data.in_incognito)
        self.switcher = False


class ChromeApp(App):
    package = PACKAGE
    label_key = f"app.{PACKAGE}"
    uid = 10111
    activities = {MAIN: ChromeLauncher, TABBED: ChromeTabbedActivity, HISTORY: HistoryActivity,
                  LAUNCHER_SHORTCUT: LauncherShortcut}

    def initial_data(self) -> ChromeData:
        return ChromeData()


def _icon_spacing(screen_dp: float) -> float:
    """Gap between the menu's five 48 dp icons: 4 dp, less where the 260 dp menu is cut
    to a narrow screen (700 dpi phones), so the refresh icon stays on the menu."""
    menu = min(MENU_WIDTH_DP, screen_dp - MENU_MARGIN_DP)
    return max(0.0, min(4.0, (menu - 5 * 48) / 4))

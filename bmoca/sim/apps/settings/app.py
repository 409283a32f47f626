"""Settings (`com.android.settings`): homepage, SubSettings pages, search, language picker.

Pages are data (`pages.py`); this module draws them in Android 10's preference
layout (real ids) and wires each switch and slider to the system service and log line
that a real change produces.
"""

from __future__ import annotations

from bmoca.formats import apps as app_table
from bmoca.sim.apps.alert_dialog import dialog_card
from bmoca.sim.apps.base import Activity, App, Context
from bmoca.sim.apps.longpress import focus_field
from bmoca.sim.apps.settings.headers import battery_header, storage_header, usage_bar
from bmoca.sim.apps.settings.pages import PAGES, TOP_LEVEL, Page, Pref, SettingsData, all_searchable
from bmoca.sim.apps.systemui.app import seekbar
from bmoca.sim.i18n import LOCALES, strings
from bmoca.sim.render.widgets import draw_icon_on_circle, draw_switch
from bmoca.sim.system.audio import STREAMS
from bmoca.sim.system.intent import Intent
from bmoca.sim.system.settings import TOGGLES
from bmoca.sim.ui.view import MATCH, WRAP, View, column, frame, icon, row, scroller, text

PACKAGE = "com.android.settings"
HOMEPAGE = "com.android.settings.Settings"
SUBSETTINGS = "com.android.settings.SubSettings"
LOCALE_PICKER = "com.android.settings.localepicker.LocalePickerWithRegionActivity"
SEARCH = "com.android.settings.search.SearchActivity"
_S = "com.android.settings.Settings$"
SHORTCUTS: dict[str, tuple[str, str]] = {
    "android.settings.WIFI_SETTINGS": (_S + "WifiSettingsActivity", "wifi"),
    "android.settings.BLUETOOTH_SETTINGS": (_S + "BluetoothSettingsActivity", "bluetooth"),
    "android.settings.WIRELESS_SETTINGS": (_S + "NetworkDashboardActivity", "network"),
    "android.settings.AIRPLANE_MODE_SETTINGS": (_S + "NetworkDashboardActivity", "network"),
    "android.settings.NETWORK_OPERATOR_SETTINGS": (
        "com.android.settings.network.telephony.MobileNetworkActivity", "mobile_network"),
    "android.settings.DISPLAY_SETTINGS": (_S + "DisplaySettingsActivity", "display"),
    "android.settings.SOUND_SETTINGS": (_S + "SoundSettingsActivity", "sound"),
    "android.settings.LOCATION_SOURCE_SETTINGS": (_S + "LocationSettingsActivity", "location"),
    "android.intent.action.POWER_USAGE_SUMMARY": (_S + "PowerUsageSummaryActivity", "battery"),
    "android.settings.APPLICATION_SETTINGS": (_S + "ManageApplicationsActivity", "manage_apps"),
    "android.settings.APPLICATION_DETAILS_SETTINGS": (
        "com.android.settings.applications.InstalledAppDetails", "app_info"),
}
"""Settings' intent actions that open one page directly (its manifest's activity aliases),
as Quick Settings' long presses and `am start -a` use them: action -> (activity, page)."""
_SHORTCUT_PAGES = {cls: page for cls, page in SHORTCUTS.values()}
FONT_SCALES = (0.85, 1.0, 1.15, 1.3)


def sid(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


# -- the behaviour behind switches, sliders and action rows ----------------------------

SETTING_SWITCHES = {name: TOGGLES[name] for name in (
    "vibrate_when_ringing", "adaptive_brightness", "auto_rotate", "mobile_data", "roaming",
    "location")}
"""Switches that are one setting (`bmoca.sim.system.settings.TOGGLES`)."""

APP_SWITCHES_ON = frozenset({"battery_percentage", "wifi_wakeup", "show_passwords", "auto_sync",
                             "badging"})
"""Switches the app keeps itself that start out on."""


def switch_state(ctx: Context, action: str) -> bool:
    system = ctx.system
    if action == "wifi":
        return system.wifi_enabled
    if action == "airplane":
        return system.airplane_mode
    if action == "bluetooth":
        return system.bluetooth_enabled
    if action == "dark_theme":
        return system.night_mode
    if action in SETTING_SWITCHES:
        namespace, key, _, off = SETTING_SWITCHES[action]
        return system.state.settings.get(namespace, key) not in (off, None)
    return ctx.data.switches.get(action, action in APP_SWITCHES_ON)


def toggle(ctx: Context, activity: SubSettings | None, action: str) -> None:
    system = ctx.system
    on = not switch_state(ctx, action)
    if action == "wifi":
        system.set_wifi(on, caller=PACKAGE)  # Android allows Wi-Fi on in airplane mode
    elif action == "airplane":
        system.set_airplane_mode(on)
    elif action == "bluetooth":
        system.set_bluetooth(on)
    elif action == "dark_theme":
        if on and system.state.settings.get("secure", "dark_mode_dialog_seen") != "1":
            if activity is not None:
                activity.dialog_open = "dark_theme"
            return
        system.set_night_mode(on)
    elif action in SETTING_SWITCHES:
        namespace, key, on_value, off_value = SETTING_SWITCHES[action]
        system.put_setting(namespace, key, on_value if on else off_value)
    else:
        ctx.data.switches[action] = on


def acknowledge_dark_theme(ctx: Context) -> None:
    """DarkUIInfoDialogFragment: its button or its dismissal turns dark theme on."""
    ctx.system.put_setting("secure", "dark_mode_dialog_seen", "1")
    ctx.system.set_night_mode(True)


def slider_value(ctx: Context, action: str) -> float:
    if action.startswith("stream:"):
        stream = STREAMS[int(action.split(":")[1])]
        level = ctx.system.state.audio.get(stream.id)
        return (level - stream.min) / (stream.max - stream.min)
    if action == "font_scale":
        scale = ctx.system.font_scale
        nearest = min(range(len(FONT_SCALES)), key=lambda i: abs(FONT_SCALES[i] - scale))
        return nearest / (len(FONT_SCALES) - 1)
    raise KeyError(action)


def slide(ctx: Context, action: str, fraction: float) -> None:
    if action.startswith("stream:"):
        stream = STREAMS[int(action.split(":")[1])]
        level = stream.min + round(fraction * (stream.max - stream.min))
        ctx.system.set_volume(stream.id, level)
    elif action == "font_scale":
        scale = FONT_SCALES[round(fraction * (len(FONT_SCALES) - 1))]
        ctx.system.put_setting("system", "font_scale", f"{scale:g}" if scale != 1 else "1.0")


def summary(ctx: Context, pref: Pref) -> str:
    """Summaries that show live state; the rest are string resources."""
    system = ctx.system
    key = pref.key
    if key == "wifi" or key == "wifi_network":
        # WifiSummaryUpdater: "Off" whenever Wi-Fi is off, airplane mode or not
        if not system.wifi_enabled:
            return ctx.t("settings.switch.off_summary")
        return "AndroidWifi" if key == "wifi" else ctx.t("settings.wifi_network.summary")
    if key == "brightness":
        level = system.state.settings.get_int("system", "screen_brightness", 102)
        return f"{round(level * 100 / 255)}%"
    if key == "apps":
        return ctx.t("settings.apps.summary")
    if key == "device_name":
        return system.state.hardware.model
    if key == "model":
        return system.state.hardware.model
    if key == "languages":
        return language_name(system.locale)
    if key == "font_size":
        return ctx.t(f"settings.font_size.option.{round(slider_value(ctx, 'font_scale') * 3)}")
    if key == "dark_theme":
        return ctx.t("settings.dark_theme.on_summary" if system.night_mode
                     else "settings.dark_theme.off_summary")
    return ctx.t(f"settings.{key}.summary")


def language_name(locale: str) -> str:
    """A locale's name in its own language, as the language list shows it."""
    return strings(locale).get("language.self_name")


# -- views --------------------------------------------------------------------------

def switch_view(ctx: Context, view_id: str, on: bool, handler=None) -> View:
    return View(cls="android.widget.Switch", id=view_id, text=ctx.t("settings.switch.on") if on
                else ctx.t("settings.switch.off"), checkable=True, checked=on, clickable=handler
                is not None, focusable=handler is not None, width=52, height=32, draw=draw_switch,
                text_color=(0, 0, 0, 0), on_click=handler, gravity="center_vertical")


def pref_row(ctx: Context, title: str, summary_text: str | None = None, icon_name: str | None = None,
             icon_color=None, widget: View | None = None, on_click=None, view_id: str = "",
             show_icon_frame: bool = True, icon_view: View | None = None,
             below: View | None = None) -> View:
    """A preference row; `icon_view` replaces the Material icon (app rows show app icons);
    `below` goes under the summary (Storage's usage bars)."""
    theme = ctx.theme
    parts: list[View | None] = []
    if show_icon_frame:
        if icon_view is None and icon_name:
            icon_view = icon(icon_name, 24, id="android:id/icon",
                             icon_color=icon_color or theme.icon, gravity="center")
        parts.append(frame(
            icon_view,
            id="android:id/icon_frame", cls="android.widget.LinearLayout", width=56, height=WRAP,
            gravity="center_vertical"))
    labels = column(
        text(title, id="android:id/title", text_size=16, text_color=theme.text, width=MATCH,
             max_lines=2),
        text(summary_text, id="android:id/summary", text_size=14, text_color=theme.text_secondary,
             width=MATCH, max_lines=4) if summary_text else None,
        below,
        cls="android.widget.RelativeLayout", width=0, weight=1, height=WRAP,
        gravity="center_vertical", padding=(0, 16, 0, 16),
    )
    parts.append(labels)
    if widget is not None:
        parts.append(frame(widget, id="android:id/widget_frame", cls="android.widget.LinearLayout",
                           width=WRAP, height=WRAP, gravity="center_vertical",
                           padding=(16, 0, 0, 0)))
    return row(*parts, id=view_id, cls="android.widget.LinearLayout", height=WRAP,
               padding=(8 if show_icon_frame else 16, 0, 16, 0), clickable=on_click is not None,
               focusable=on_click is not None, on_click=on_click, gravity="center_vertical")


def page_background(ctx: Context):
    """Settings' window background: true black in Android 10's dark theme (the reference
    screenshots' Settings and Battery pages measure (0, 0, 0)), white in the light one."""
    return (0, 0, 0) if ctx.theme.dark else ctx.theme.background


SW600_SIDE_MARGIN_DP = 40
"""Settings' values-sw600dp `screen_margin_sides`: on a tablet the single-pane list is inset
by this much on both sides (0 on a phone)."""
SW600_SEARCH_BAR_DP = 64
"""values-sw600dp `search_bar_height` (48 dp on a phone)."""


def settings_list(ctx: Context, *rows: View | None, key: str, **kw) -> View:
    """The scrolling list every Settings screen shows its rows in; on sw600dp it is inset by
    `screen_margin_sides`, so the content forms a column with the tablet's side margins."""
    margin = SW600_SIDE_MARGIN_DP if ctx.system.sw600dp else 0
    return scroller(*rows, key=key, padding=(margin, 0, margin, 0), **kw)


class SettingsActivity(Activity):
    """What Settings' activities share: the status bar over the black dark-theme page."""

    def status_bar_color(self, night: bool) -> tuple[int, int, int] | None:
        return (0, 0, 0) if night else None


def top_level_icon(name: str | None, color) -> View | None:
    """Android 10's homepage icons: a white glyph on a coloured circle."""
    if not name:
        return None
    return View(cls="android.widget.ImageView", id="android:id/icon", icon=name,
                icon_color=color, icon_size=20, icon_filled=True, draw=draw_icon_on_circle,
                width=36, height=36, gravity="center")


def card_surface(ctx: Context):
    """Settings' cards: a grey card in the dark theme, a light one in the light theme."""
    return (41, 42, 45) if ctx.theme.dark else (241, 243, 244)


def suggestion_card(ctx: Context) -> View:
    """The homepage's contextual card (a setup suggestion, as on a fresh emulator); tapping
    it opens Accounts, where an account is added."""
    theme = ctx.theme
    return column(
        icon("email", 20, icon_color=theme.icon, cls="android.widget.ImageView"),
        text(ctx.t("settings.suggestion_email"), text_size=16,
             text_color=theme.text, width=MATCH, max_lines=2, margin=(0, 12, 0, 0)),
        text(ctx.t("settings.suggestion_email.summary"), text_size=14,
             text_color=theme.text_secondary, width=MATCH, max_lines=3),
        cls="android.widget.LinearLayout", id=sid("suggestion_tile"), height=WRAP,
        bg=card_surface(ctx), corner=8, margin=(8, 8, 8, 8), padding=(16, 16, 16, 16),
        clickable=True, focusable=True, on_click=lambda: open_page(ctx, "accounts"),
    )


VALUE_AT_END = ("last_full_charge", "screen_usage")


def divider(ctx: Context) -> View:
    """A PreferenceCategory's 1 dp divider across the list."""
    return View(cls="android.view.View", width=MATCH, height=1, bg=ctx.theme.divider)


def footer(ctx: Context, key: str) -> View:
    """A page's footer: an info icon and a note (FooterPreference)."""
    theme = ctx.theme
    return row(
        frame(icon("info", 24, icon_color=theme.icon, cls="android.widget.ImageView",
                   gravity="center"),
              cls="android.widget.LinearLayout", width=56,
              height=WRAP, gravity="top"),
        text(ctx.t(key), text_size=14, text_color=theme.text_secondary,
             width=0, weight=1, max_lines=4),
        cls="android.widget.LinearLayout", height=WRAP, padding=(8, 16, 16, 16),
    )


def app_bar(ctx: Context, title: str, on_up) -> View:
    """Settings' framework Toolbar: its navigation button has no tooltip (android.widget.
    Toolbar sets only the description), so a held Up goes up on release; Search settings
    is an icon-only menu item, whose ActionMenuItemView has its title as tooltip."""
    theme = ctx.theme
    return row(
        View(cls="android.widget.ImageButton", desc=ctx.t("settings.navigate_up"),
             icon="arrow_back", icon_color=theme.icon, width=56, height=56, clickable=True,
             focusable=True, on_click=on_up, gravity="center_vertical"),
        text(title, text_size=20, font_weight=400, text_color=theme.text, width=0, weight=1,
             gravity="center_vertical", margin=(16, 0, 0, 0)),
        View(cls="android.widget.ImageButton", desc=ctx.t("settings.search_settings"),
             icon="search", icon_color=theme.icon, width=56, height=56, clickable=True,
             focusable=True, gravity="center_vertical", tooltip=ctx.t("settings.search_settings"),
             on_click=lambda: ctx.start_activity(Intent(component=(PACKAGE, SEARCH)))),
        cls="android.view.ViewGroup", id=sid("action_bar"), height=56, bg=page_background(ctx),
        gravity="center_vertical",
    )


# -- activities ---------------------------------------------------------------------

class Homepage(SettingsActivity):
    """SettingsHomepageActivity (started through the `.Settings` alias)."""

    def build(self, ctx: Context) -> View:
        theme = ctx.theme
        rows = [pref_row(ctx, ctx.t(f"settings.{p.key}"), summary(ctx, p),
                         icon_view=top_level_icon(p.icon, p.icon_color),
                         on_click=self._opener(ctx, p.opens)) for p in TOP_LEVEL]
        search = frame(
            row(icon("search", 24, icon_color=theme.icon, gravity="center_vertical", cls=""),
                text(ctx.t("settings.search_settings"), id=sid("search_action_bar_title"),
                     text_size=16, text_color=theme.text_secondary, margin=(16, 0, 0, 0),
                     gravity="center_vertical", width=0, weight=1),
                cls="android.view.ViewGroup", id=sid("search_action_bar"),
                height=SW600_SEARCH_BAR_DP if ctx.system.sw600dp else 48,
                padding=(16, 0, 12, 0), clickable=True, focusable=True, gravity="center_vertical",
                on_click=lambda: ctx.start_activity(Intent(component=(PACKAGE, SEARCH)))),
            cls="android.widget.FrameLayout", id=sid("search_bar"), height=WRAP, bg=theme.surface,
            corner=8, margin=(16, 16, 16, 8), elevation=1,
        )
        content = column(
            search,
            column(suggestion_card(ctx), cls="android.widget.FrameLayout",
                   id=sid("contextual_cards_content"), height=WRAP),
            column(*rows, cls="android.widget.FrameLayout", id=sid("main_content"), height=WRAP),
            cls="android.widget.LinearLayout", id=sid("homepage_container"), height=WRAP,
        )
        return settings_list(ctx, content, key="home", cls="android.widget.ScrollView",
                        id=sid("main_content_scrollable_container"), bg=page_background(ctx))

    @staticmethod
    def _opener(ctx: Context, page_id: str | None):
        if page_id is None:
            return None
        return lambda: open_page(ctx, page_id)


def _package_of(intent: Intent) -> str | None:
    """The package an APPLICATION_DETAILS_SETTINGS intent names (`dat=package:<name>`)."""
    scheme, _, name = (intent.data or "").partition(":")
    return name if scheme == "package" and name else None


def open_page(ctx: Context, page_id: str, **extras) -> None:
    page = PAGES[page_id]
    ctx.start_activity(Intent(component=(PACKAGE, SUBSETTINGS),
                              extras={":settings:show_fragment": page.fragment, "page": page_id,
                                      **extras}))


class SubSettings(SettingsActivity):
    """A SettingsActivity showing one fragment (page)."""

    def __init__(self, intent: Intent):
        super().__init__(intent)
        shortcut = _SHORTCUT_PAGES.get(intent.component[1]) if intent.component else None
        self.page_id: str = intent.extras.get("page", shortcut or "network")
        self.expanded = False
        self.dialog_open: str | None = None
        self.app_package: str | None = intent.extras.get("package") or _package_of(intent)

    @property
    def page(self) -> Page:
        return PAGES[self.page_id]

    def on_create(self, ctx: Context) -> None:
        ctx.log("D", "SettingsActivity", "Starting onCreate")
        ctx.log("D", "SettingsActivity", "Starting to set activity title")
        ctx.log("D", "SettingsActivity", "Done setting title")
        ctx.log("D", "SettingsActivity", f"Switching to fragment {self.page.fragment}")
        for controller in self.page.controllers:
            ctx.log("D", "PrefCtrlListHelper",
                    f"Could not find Context-only controller for pref: {controller}")
        ctx.log("D", "SettingsActivity", "Executed frag manager pendingTransactions")
        if self.page_id == "app_info" and self.app_package is not None and not any(
                a.package == self.app_package for a in app_table.all_apps()):
            ctx.finish()  # AppInfoDashboardFragment: no such package, the page closes

    def on_back(self, ctx: Context) -> bool:
        if self.dialog_open == "dark_theme":
            self.dialog_open = None
            acknowledge_dark_theme(ctx)
            return True
        return False

    def title(self, ctx: Context) -> str:
        if self.page_id == "app_info" and self.app_package:
            return ctx.t("settings.app_info")
        if self.page_id == "manage_apps":
            return ctx.t("settings.manage_apps")
        return ctx.t(f"settings.{self.page_id}")

    def build(self, ctx: Context) -> View:
        theme = ctx.theme
        rows: list[View] = []
        page = self.page
        if page.switch_bar:
            on = switch_state(ctx, page.switch_bar)
            handler = self._toggle(ctx, page.switch_bar)
            rows.append(row(
                text(ctx.t(f"settings.switch_bar.{page.switch_bar}"), id=sid("switch_text"),
                     text_size=16, font_weight=500, text_color=(0, 0, 0) if on else theme.text,
                     width=0, weight=1, gravity="center_vertical"),
                switch_view(ctx, sid("switch_widget"), on),
                cls="android.widget.LinearLayout", id=sid("switch_bar"), height=WRAP,
                padding=(72, 18, 16, 18), bg=theme.accent if on else theme.surface,
                clickable=True, focusable=True, on_click=handler, gravity="center_vertical"))
        if self.page_id == "manage_apps":
            rows += self._app_list(ctx)
        elif self.page_id == "app_info":
            rows += self._app_header(ctx)
        elif self.page_id == "languages":
            rows += self._languages(ctx)
        elif self.page_id == "apps":
            rows += self._recent_apps(ctx)
        elif self.page_id == "storage":
            rows.append(storage_header(ctx))
        hidden = [p for p in page.prefs if p.advanced]
        for pref in page.prefs:
            if pref.kind == "header" and self.page_id == "apps":
                continue
            if pref.advanced and not self.expanded:
                continue
            rows.append(self._pref(ctx, pref))
        if hidden and not self.expanded:
            titles = ", ".join(ctx.t(f"settings.{p.key}") for p in hidden)
            rows.append(pref_row(ctx, ctx.t("settings.advanced"), titles, "expand_more",
                                 on_click=lambda: setattr(self, "expanded", True)))
        if self.page_id == "battery":
            rows.append(divider(ctx))
            rows.append(footer(ctx, "settings.battery_footer"))
        return column(
            app_bar(ctx, self.title(ctx), ctx.finish),
            settings_list(ctx, *rows, key="list", cls="androidx.recyclerview.widget.RecyclerView",
                     id=sid("recycler_view"), height=0, weight=1),
            width=MATCH, height=MATCH, bg=page_background(ctx),
        )

    def _toggle(self, ctx: Context, action: str):
        return lambda: toggle(ctx, self, action)

    def _pref(self, ctx: Context, pref: Pref) -> View:
        theme = ctx.theme
        title = ctx.t(f"settings.{pref.key}")
        if pref.key == "see_all_apps":
            title = ctx.t("settings.see_all_apps", count=len(app_table.all_apps()))
        if pref.kind == "header" and pref.key == "battery_level":
            return column(*battery_header(ctx, page_background(ctx), card_surface(ctx)),
                          height=WRAP)
        if pref.kind == "header":
            return text(title, text_size=14, font_weight=500, text_color=theme.accent,
                        width=MATCH, padding=(72, 16, 16, 8))
        summary_text = summary(ctx, pref) if pref.summary else None
        if pref.kind == "switch":
            on = switch_state(ctx, pref.action)
            handler = self._toggle(ctx, pref.action)
            return pref_row(ctx, title, summary_text, pref.icon, widget=switch_view(
                ctx, "android:id/switch_widget", on), on_click=handler)
        if pref.kind == "master_switch":
            on = switch_state(ctx, pref.action)
            return pref_row(ctx, title, summary_text, pref.icon,
                            widget=switch_view(ctx, sid("switchWidget"), on,
                                               self._toggle(ctx, pref.action)),
                            on_click=self._opener(ctx, pref))
        if pref.kind == "slider":
            return self._slider(ctx, pref, title)
        if pref.key in VALUE_AT_END:
            # PowerUsageSummary's history rows show their value at the end, not under the title
            value = text(summary_text or "", id="android:id/summary", text_size=14,
                         text_color=theme.text_secondary)
            return column(divider(ctx) if pref.key == VALUE_AT_END[0] else None,
                          pref_row(ctx, title, None, pref.icon, widget=value), height=WRAP)
        return pref_row(ctx, title, summary_text, pref.icon, pref.icon_color,
                        on_click=self._opener(ctx, pref), below=usage_bar(pref.key),
                        view_id=sid(pref.view_id) if pref.view_id else "")

    def _opener(self, ctx: Context, pref: Pref):
        if pref.opens:
            return lambda: open_page(ctx, pref.opens)
        if pref.action == "brightness_dialog":
            return lambda: ctx.start_activity(
                Intent(action="com.android.intent.action.SHOW_BRIGHTNESS_DIALOG"))
        return lambda: None

    def _slider(self, ctx: Context, pref: Pref, title: str) -> View:
        theme = ctx.theme
        action = pref.action

        def drag(fx: float, fy: float, lifted: bool) -> None:
            slide(ctx, action, fx)

        bar = seekbar(ctx, "android:id/seekbar", slider_value(ctx, action), title, drag)
        if action == "font_scale":
            labels = row(*[text(ctx.t(f"settings.font_size.option.{i}"), text_size=12,
                                text_color=theme.text_secondary, width=0, weight=1,
                                align="center") for i in range(len(FONT_SCALES))], height=WRAP)
            return column(row(bar, height=WRAP, padding=(16, 8, 16, 0)), labels, height=WRAP,
                          padding=(0, 0, 0, 16))
        return row(
            frame(icon(pref.icon, 24, id="android:id/icon", icon_color=theme.icon,
                       gravity="center"), id="android:id/icon_frame",
                  cls="android.widget.LinearLayout", width=56, height=WRAP,
                  gravity="center_vertical"),
            column(text(title, id="android:id/title", text_size=16, text_color=theme.text,
                        width=MATCH),
                   row(bar, height=WRAP), cls="android.widget.RelativeLayout", width=0, weight=1,
                   height=WRAP, padding=(0, 16, 0, 8)),
            cls="android.widget.LinearLayout", height=WRAP, padding=(8, 0, 16, 0),
            gravity="center_vertical",
        )

    def _recent_apps(self, ctx: Context) -> list[View]:
        theme = ctx.theme
        views = [text(ctx.t("settings.recent_apps"), text_size=14, font_weight=500,
                      text_color=theme.accent, width=MATCH, padding=(72, 16, 16, 8))]
        recent = [t.package for t in reversed(ctx.system.state.am.recents)][:3]
        for package in recent:
            views.append(self._app_row(ctx, package, ctx.t("settings.app_opened_recently")))
        return views

    def _app_row(self, ctx: Context, package: str, summary_text: str) -> View:
        app_icon = View(cls="android.widget.ImageView", id="android:id/icon",
                        image=f"app:{package}", icon_size=32, width=32, height=32, gravity="center")
        return pref_row(ctx, ctx.t(f"app.{package}"), summary_text, icon_view=app_icon,
                        on_click=lambda: open_page(ctx, "app_info", package=package))

    def _app_list(self, ctx: Context) -> list[View]:
        labelled = sorted(((ctx.t(f"app.{a.package}"), a) for a in app_table.all_apps()),
                          key=lambda pair: pair[0].casefold())
        sizes = {a.package: 8 + (sum(map(ord, a.package)) % 180) for a in app_table.all_apps()}
        return [self._app_row(ctx, info.package, ctx.t("settings.app_size", size=sizes[info.package]))
                for _, info in labelled]

    def _app_header(self, ctx: Context) -> list[View]:
        theme = ctx.theme
        package = self.app_package or PACKAGE
        label = ctx.t(f"app.{package}")

        def force_stop() -> None:
            ctx.system.am.kill_process(package, "from pid 1000")

        def open_app() -> None:
            info = app_table.by_package(package)
            ctx.start_activity(Intent.launcher(info.package, info.activity))

        button = dict(cls="android.widget.Button", text_size=14, font_weight=500,
                      text_color=theme.accent, width=0, weight=1, height=72, clickable=True,
                      focusable=True, icon_size=24, align="center")
        return [
            column(View(cls="android.widget.ImageView", id=sid("entity_header_icon"),
                        image=f"app:{package}", width=64, height=64, icon_size=64,
                        gravity="center_horizontal"),
                   text(label, id=sid("entity_header_title"), text_size=24, text_color=theme.text,
                        gravity="center_horizontal", margin=(0, 12, 0, 0)),
                   cls="android.widget.LinearLayout", id=sid("app_entity_header"), height=WRAP,
                   padding=(16, 24, 16, 8)),
            row(View(id=sid("button1"), text=ctx.t("settings.app_open"), on_click=open_app,
                     **button),
                View(id=sid("button2"), text=ctx.t("settings.app_uninstall"), enabled=False,
                     **button),
                View(id=sid("button3"), text=ctx.t("settings.app_force_stop"), on_click=force_stop,
                     **button),
                cls="android.widget.LinearLayout", id=sid("app_buttons"), height=WRAP,
                padding=(8, 0, 8, 8)),
        ]

    def _languages(self, ctx: Context) -> list[View]:
        theme = ctx.theme
        data: SettingsData = ctx.data
        if not data.locales:
            data.locales = [ctx.system.locale]
        rows = []
        for index, locale in enumerate(data.locales, start=1):
            rows.append(row(
                text(str(index), id=sid("label"), text_size=16, text_color=theme.text_secondary,
                     width=56, align="center", gravity="center_vertical"),
                text(language_name(locale), id=sid("label"), text_size=16, text_color=theme.text,
                     width=0, weight=1, gravity="center_vertical"),
                icon("drag_handle", 24, id=sid("dragHandle"), icon_color=theme.icon,
                     gravity="center_vertical"),
                cls="android.widget.LinearLayout", height=56, padding=(0, 0, 16, 0)))
        rows.append(row(
            icon("add", 24, icon_color=theme.accent, width=56, gravity="center_vertical"),
            text(ctx.t("settings.add_language"), text_size=16, text_color=theme.text,
                 gravity="center_vertical"),
            cls="android.widget.LinearLayout", id=sid("add_language"), height=56,
            clickable=True, focusable=True, gravity="center_vertical",
            on_click=lambda: ctx.start_activity(Intent(component=(PACKAGE, LOCALE_PICKER)))))
        return rows

    def dialog(self, ctx: Context) -> View | None:
        if self.dialog_open != "dark_theme":
            return None

        def ok() -> None:
            self.dialog_open = None
            acknowledge_dark_theme(ctx)

        return dialog_card(ctx, ctx.t("settings.dark_theme.dialog_title"),
                           ctx.t("settings.dark_theme.dialog_message"),
                           [("button1", ctx.t("settings.dialog_got_it"), ok)])


class LocalePicker(SettingsActivity):
    """LocalePickerWithRegionActivity: every supported language, with search."""

    def __init__(self, intent: Intent):
        super().__init__(intent)
        self.query: str | None = None

    def on_back(self, ctx: Context) -> bool:
        if self.query is not None:
            self.query = None
            return True
        return False

    def build(self, ctx: Context) -> View:
        theme = ctx.theme
        data: SettingsData = ctx.data
        names = sorted(((language_name(loc), loc) for loc in LOCALES if loc not in data.locales),
                       key=lambda pair: pair[0].casefold())
        if self.query:
            q = self.query.casefold()
            names = [(n, loc) for n, loc in names if q in n.casefold() or q in loc.casefold()]
        rows = [text(name, id="android:id/locale", text_size=16, text_color=theme.text,
                     width=MATCH, height=56, padding=(16, 16, 16, 16), clickable=True,
                     focusable=True, on_click=self._adder(ctx, loc)) for name, loc in names]

        def on_text(value: str) -> None:
            self.query = value

        if self.query is None:
            bar = app_bar(ctx, ctx.t("settings.add_language"), ctx.finish)
            bar.children[-1].on_click = lambda: setattr(self, "query", "")
        else:
            bar = row(
                View(cls="android.widget.ImageButton", desc=ctx.t("settings.navigate_up"),
                     icon="arrow_back", icon_color=theme.icon, width=56, height=56,
                     clickable=True, on_click=lambda: setattr(self, "query", None)),
                View(cls="android.widget.EditText", id="android:id/search_src_text",
                     text=self.query, hint=ctx.t("settings.search"), text_size=18,
                     text_color=theme.text, width=0, weight=1, clickable=True, focusable=True,
                     long_clickable=True, on_text=on_text,
                     on_long_click=focus_field(ctx, "android:id/search_src_text"),
                     ime_action="search", gravity="center_vertical"),
                cls="android.view.ViewGroup", id=sid("action_bar"), height=56,
                bg=page_background(ctx), gravity="center_vertical")
        return column(bar, settings_list(ctx, *rows, key="locales", cls="android.widget.ListView",
                                         id="android:id/list", height=0, weight=1),
                      width=MATCH, height=MATCH, bg=page_background(ctx))

    def _adder(self, ctx: Context, locale: str):
        def add() -> None:
            data: SettingsData = ctx.data
            if not data.locales:
                data.locales = [ctx.system.locale]
            data.locales.append(locale)
            ctx.finish()
        return add


class SearchActivity(SettingsActivity):
    """Settings search: matches preference titles in the current language."""

    def __init__(self, intent: Intent):
        super().__init__(intent)
        self.query = ""

    def on_create(self, ctx: Context) -> None:
        if ctx.record is not None:
            ctx.record.focus = "android:id/search_src_text"

    def build(self, ctx: Context) -> View:
        theme = ctx.theme
        results = []
        q = self.query.strip().casefold()
        if q:
            seen = set()
            for page_id, pref in all_searchable():
                title = ctx.t(f"settings.{pref.key}", count=len(app_table.all_apps())) \
                    if pref.key == "see_all_apps" else ctx.t(f"settings.{pref.key}")
                if q not in title.casefold() or title in seen:
                    continue
                seen.add(title)
                where = ctx.t("settings.title") if page_id == "top" else ctx.t(f"settings.{page_id}")
                target = pref.opens or (None if page_id == "top" else page_id)
                results.append(pref_row(ctx, title, where, "settings", on_click=(
                    lambda t=target: open_page(ctx, t)) if target else None))
        if q and not results:
            results.append(text(ctx.t("settings.no_results"), text_size=16,
                                text_color=theme.text_secondary, width=MATCH, align="center",
                                margin=(0, 32, 0, 0)))

        def on_text(value: str) -> None:
            self.query = value

        bar = row(
            View(cls="android.widget.ImageButton", desc=ctx.t("settings.navigate_up"),
                 icon="arrow_back", icon_color=theme.icon, width=56, height=56, clickable=True,
                 on_click=ctx.finish),
            View(cls="android.widget.EditText", id="android:id/search_src_text", text=self.query,
                 hint=ctx.t("settings.search_settings"), text_size=18, text_color=theme.text,
                 width=0, weight=1, clickable=True, focusable=True, long_clickable=True,
                 on_text=on_text, on_long_click=focus_field(ctx, "android:id/search_src_text"),
                 ime_action="search", gravity="center_vertical"),
            cls="android.view.ViewGroup", id=sid("search_toolbar"), height=56, bg=theme.surface,
            corner=8, margin=(8, 8, 8, 8), gravity="center_vertical")
        return column(bar, settings_list(ctx, *results, key="results",
                                         cls="androidx.recyclerview.widget.RecyclerView",
                                         id=sid("list_results"), height=0, weight=1),
                      width=MATCH, height=MATCH, bg=page_background(ctx))


class SettingsApp(App):
    package = PACKAGE
    label_key = f"app.{PACKAGE}"
    uid = 1000
    activities = {HOMEPAGE: Homepage, SUBSETTINGS: SubSettings, LOCALE_PICKER: LocalePicker,
                  SEARCH: SearchActivity, **{cls: SubSettings for cls in _SHORTCUT_PAGES}}
    intent_actions = {"android.settings.SETTINGS": HOMEPAGE,
                      **{action: cls for action, (cls, _page) in SHORTCUTS.items()}}

    def initial_data(self) -> SettingsData:
        return SettingsData()

    def on_boot(self, ctx: Context) -> None:
        if not isinstance(ctx.data, SettingsData):
            ctx.system.state.app_data[PACKAGE] = SettingsData()


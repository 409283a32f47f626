"""Pixel Launcher: home screen from launcher.db, the app drawer, and Overview (recents)."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from bmoca.formats import apps as app_table
from bmoca.formats import launcher_db
from bmoca.formats.locales import collation_key, native_digits
from bmoca.sim.apps.base import Activity, App, Context, Swipe
from bmoca.sim.apps.google.model import PACKAGE as GOOGLE
from bmoca.sim.apps.google.model import SEARCH_ACTIVITY, open_search, start_voice_search
from bmoca.sim.apps.launcher.grid import GridProfile, cell_width, grid_profile, icon_dp
from bmoca.sim.apps.launcher.popup import (
    IconPopup,
    Placement,
    TaskMenu,
    icon_popup,
    popup_views,
    task_menu_views,
)
from bmoca.sim.apps.systemui.state import pull_shade
from bmoca.sim.render.widgets import draw_assistant, draw_google_g
from bmoca.sim.system.intent import Intent
from bmoca.sim.system.server import HOME_PACKAGE, LAUNCHER_UID, SystemServer
from bmoca.sim.ui.layout import dimension_px
from bmoca.sim.ui.view import (
    MATCH,
    WRAP,
    View,
    clip_of,
    column,
    frame,
    icon,
    row,
    scroller,
    spacer,
    text,
)

ACTIVITY = "com.google.android.apps.nexuslauncher.NexusLauncherActivity"
WHITE = (255, 255, 255)


def _id(name: str) -> str:
    return f"{HOME_PACKAGE}:id/{name}"


def temperature_c(now) -> int:
    """At-a-glance's temperature: a smooth seasonal curve of the virtual date (northern
    mid-latitudes: about 2 °C in mid-January, 22 °C in mid-July), so it is deterministic."""
    day = now.timetuple().tm_yday
    return round(12 - 10 * math.cos(2 * math.pi * (day - 15) / 365.25) - 0.0)


def weather_icon(now) -> str:
    """A Material Symbols weather glyph that follows the date (deterministic)."""
    return ("partly_cloudy_day", "cloud", "sunny", "rainy")[now.toordinal() % 4]


class LauncherData:
    """The home screen as last read from launcher.db."""

    def __init__(self) -> None:
        self.items: list[launcher_db.LauncherItem] = []
        self.error: str = ""


class Launcher(App):
    package = HOME_PACKAGE
    label_key = "app.launcher"
    uid = LAUNCHER_UID
    system_process = True

    def initial_data(self) -> LauncherData:
        return LauncherData()

    def on_boot(self, ctx: Context) -> None:
        """Read launcher.db as Launcher3 does at start; a broken file falls back to stock."""
        vfs = ctx.system.state.vfs
        data = ctx.data
        if not vfs.exists(launcher_db.DEVICE_PATH):
            vfs.write(launcher_db.DEVICE_PATH, launcher_db.build(launcher_db.STOCK_HOME))
        try:
            data.items = launcher_db.read(vfs.read(launcher_db.DEVICE_PATH))
            data.error = ""
        except launcher_db.LauncherDbError as exc:
            data.items = launcher_db.items_of(launcher_db.STOCK_HOME)
            data.error = str(exc)
            ctx.log("E", "LauncherProvider", f"Failed to load launcher.db, using the default "
                                             f"workspace: {exc}")
        known = {a.package for a in app_table.all_apps()}
        data.items = [item for item in data.items if item.package in known]


class LauncherActivity(Activity):
    fullscreen = True

    def __init__(self, intent: Intent):
        super().__init__(intent)
        self.mode = "home"
        self.query = ""
        self.popup: IconPopup | None = None
        """The open shortcuts popup (popup.py), if any."""
        self.task_menu: TaskMenu | None = None
        """Overview's open task menu, if any."""

    def light_bars(self, night: bool) -> bool | None:
        return self.mode == "drawer" and not night

    def on_home(self, ctx: Context) -> None:
        self.mode = "home"
        self.query = ""
        self.close_menus()
        if ctx.record is not None:
            ctx.record.scroll.offsets.clear()
            ctx.record.focus = None

    def close_menus(self) -> None:
        """AbstractFloatingView.closeAllOpenViews: the shortcuts popup and the task menu."""
        self.popup = None
        self.task_menu = None

    def on_back(self, ctx: Context) -> bool:
        if self.popup is not None or self.task_menu is not None:
            self.close_menus()  # BACK closes the floating view first, then the mode
        elif self.mode != "home":
            self.on_home(ctx)
        return True

    def on_swipe(self, ctx: Context, swipe: Swipe) -> bool:
        if self.popup is not None or self.task_menu is not None:
            self.close_menus()
            return True
        if self.mode == "home" and swipe.direction == "up":
            self.mode = "drawer"
            return True
        if self.mode == "home" and swipe.direction == "down":
            pull_shade(ctx.system)  # the Pixel launcher pulls the notification shade down
            return True
        if self.mode == "drawer" and swipe.direction == "down":
            self.on_home(ctx)
            return True
        return False

    def build(self, ctx: Context) -> View:
        if self.mode == "drawer":
            root = self._drawer(ctx)
            self._float(ctx, root, 0)
            return root
        if self.mode == "overview":
            root = self._overview(ctx)
            self._float(ctx, root, 24)
            return root
        root = self._home(ctx)
        self._float(ctx, root, 0)
        return root

    def _float(self, ctx: Context, layer: View, top_dp: float) -> None:
        """Add the open floating view (popup or task menu) to `layer`, on top of it."""
        if self.popup is None and self.task_menu is None:
            return
        system = ctx.system
        width, height = system.screen_px()
        scale = system.density / 160
        place = Placement(width, height, scale, ctx.rtl, dimension_px(top_dp, scale))
        if self.popup is not None:
            popup = self.popup

            def launch() -> None:
                self.close_menus()
                ctx.start_activity(Intent.launcher(popup.package, popup.activity,
                                                   bounds=popup.cell))
            layer.add(*popup_views(ctx, popup, place, self.close_menus, launch))
        elif self.task_menu is not None and self.mode == "overview":
            layer.add(*task_menu_views(ctx, self.task_menu, place, self.close_menus))

    def _long_press(self, ctx: Context, view: View, package: str, activity: str):
        """An app icon's OnLongClickListener (ItemLongClickListener): the shortcuts popup."""
        read = icon_popup(view, package, activity, ctx.system.density / 160)

        def show() -> None:
            self.task_menu = None
            self.popup = read()
        return show

    # -- home ---------------------------------------------------------------------
    def _home(self, ctx: Context) -> View:
        w_dp, h_dp = ctx.system.screen_dp()
        grid = grid_profile(ctx.system)
        items = ctx.data.items
        cell_w = w_dp / grid.columns
        work_h = h_dp - 24 - 8 - 100 - 72 - 48
        cell_h = work_h / grid.rows
        cells = [self._glance(ctx, w_dp, cell_h)]
        for item in items:
            if item.is_hotseat:
                continue
            x, y = item.cell
            cells.append(self._icon(ctx, grid, item.package, item.activity, cell_w, cell_h,
                                    absolute=(x * cell_w, y * cell_h)))
        page = View(cls="android.view.ViewGroup", width=MATCH, height=MATCH).add(
            View(cls="android.view.ViewGroup", width=MATCH, height=MATCH).add(*cells))
        workspace = View(cls="android.widget.ScrollView", id=_id("workspace"), scrollable=True,
                         width=MATCH, height=work_h).add(page)
        hotseat_cells = []
        slot_w = w_dp / grid.hotseat_icons  # a slot is the item's rank, as in Launcher3
        for item in items:
            if item.is_hotseat:
                hotseat_cells.append(self._icon(ctx, grid, item.package, item.activity, slot_w,
                                                100, absolute=(item.slot * slot_w, 0),
                                                label=False))
        hotseat = View(cls="android.view.ViewGroup", id=_id("hotseat"), width=MATCH,
                       height=100).add(View(cls="android.view.ViewGroup", width=MATCH,
                                            height=MATCH).add(*hotseat_cells))
        return frame(
            column(
                spacer(height=24),
                workspace,
                View(cls="android.view.View", id=_id("page_indicator"), width=MATCH, height=8),
                hotseat,
                self._search_pill(ctx),
                spacer(height=48),
                width=MATCH, height=MATCH, cls="android.widget.FrameLayout", id=_id("drag_layer"),
            ),
            View(cls="android.view.View", desc=ctx.t("launcher.apps_list"), width=MATCH, height=24,
                 absolute=(0, h_dp - 48 - 72 - 100 - 24), clickable=True,
                 on_click=lambda: setattr(self, "mode", "drawer")),
            image="wallpaper", width=MATCH, height=MATCH, id=_id("launcher"),
        )

    def _glance(self, ctx: Context, w_dp: float, cell_h: float) -> View:
        now = ctx.today()
        date = ctx.t("format.glance_date", weekday=ctx.t(f"date.weekday.{now.weekday()}"),
                     month=ctx.t(f"date.month_short.{now.month}"),
                     day=native_digits(ctx.locale, str(now.day)))
        one_line = w_dp >= 360
        # under the date, the weather line is smaller (16 sp) so both fit the cell
        size = 22 if one_line else 16
        weather = row(
            icon(weather_icon(now), 20 if one_line else 16, icon_color=WHITE,
                 icon_filled=True, cls="", gravity="center_vertical"),
            text(native_digits(ctx.locale, f"{temperature_c(now)}") + "\u00b0C",
                 id=_id("weather_temp"), text_size=size, text_color=WHITE, elevation=1,
                 margin=(6, 0, 0, 0), gravity="center_vertical"),
            cls="", width=WRAP, height=WRAP, gravity="center",
            margin=(12, 0, 0, 0) if one_line else (0, 2, 0, 0))
        date_view = text(date, id=_id("date"), text_size=22, text_color=WHITE, font_weight=400,
                         gravity="center_vertical", elevation=1)
        # one line (date, then the weather) where it fits, else the weather under the date,
        # or no weather where even that would not fit the cell (a one-line TextView is
        # 1.33 em tall: Roboto's top to bottom, with its font padding)
        two_lines_dp = (22 + 16) * (2163 + 555) / 2048 * ctx.system.font_scale + 2
        if one_line:
            line = row(date_view, weather, cls="", width=WRAP, height=WRAP, gravity="center")
        elif cell_h >= two_lines_dp:
            date_view.gravity = weather.gravity = "center_horizontal"
            line = column(date_view, weather, cls="", width=WRAP, height=WRAP, gravity="center")
        else:
            date_view.gravity = "center"
            line = date_view
        return frame(
            line,
            cls="android.view.ViewGroup", id=_id("smartspace_content"), width=w_dp,
            height=cell_h, absolute=(0, 0),
        )

    def _icon(self, ctx: Context, grid: GridProfile, package: str, activity: str, w: float,
              h: float, absolute: tuple[float, float], label: bool = True) -> View:
        name = ctx.t(f"app.{package}")
        largest = grid.icon_dp if label else grid.hotseat_icon_dp
        view = View(cls="android.widget.TextView", text=name, desc=name, width=w, height=h,
                    absolute=absolute, image=f"app:{package}",
                    icon_size=icon_dp(w, h, label, largest), padding=(4, 0, 4, 0),
                    text_size=grid.label_sp, text_color=WHITE if label else (0, 0, 0, 0),
                    align="center",
                    clickable=True, long_clickable=True, focusable=True, elevation=1)
        clip = clip_of(view)
        view.on_click = lambda: ctx.start_activity(Intent.launcher(package, activity,
                                                                   bounds=clip()))
        view.on_long_click = self._long_press(ctx, view, package, activity)
        return view

    def _g_icon(self, ctx: Context) -> View:
        """The pill's "G": the Google app itself, as its launcher icon would open it."""
        view = View(cls="android.widget.ImageView", id=_id("g_icon"),
                    desc=ctx.t("launcher.google_app"), width=24, height=24, icon_size=22,
                    draw=draw_google_g, clickable=True, gravity="center_vertical")
        clip = clip_of(view)
        view.on_click = lambda: ctx.start_activity(Intent.launcher(GOOGLE, SEARCH_ACTIVITY,
                                                                   bounds=clip()))
        return view

    def _search_pill(self, ctx: Context) -> View:
        surface = (255, 255, 255, 235) if not ctx.theme.dark else (48, 49, 52, 235)
        return frame(
            row(
                self._g_icon(ctx),
                spacer(weight=1),
                View(cls="android.widget.ImageView", id=_id("mic_icon"),
                     desc=ctx.t("launcher.voice_search"), width=24, height=24, icon_size=24,
                     draw=draw_assistant, clickable=True, gravity="center_vertical",
                     on_click=lambda: start_voice_search(ctx)),
                cls="android.widget.FrameLayout", id=_id("search_container_hotseat"),
                desc=ctx.t("launcher.search"), clickable=True, height=48, bg=surface, corner=24,
                padding=(16, 12, 16, 12), margin=(16, 0, 16, 0), gravity="center_vertical",
                on_click=lambda: open_search(ctx),
            ),
            cls="", width=MATCH, height=72, padding=(0, 8, 0, 16),
        )

    # -- all apps -------------------------------------------------------------------
    def _drawer(self, ctx: Context) -> View:
        theme = ctx.theme
        w_dp, _ = ctx.system.screen_dp()
        labelled = sorted(((ctx.t(f"app.{a.package}"), a) for a in app_table.all_apps()),
                          key=lambda pair: collation_key(ctx.locale, pair[0]))
        query = self.query.strip().casefold()
        if query:
            labelled = [(n, a) for n, a in labelled if query in n.casefold()]
        grid = grid_profile(ctx.system)
        columns = grid.drawer_columns
        cell_w = cell_width(w_dp - 16, grid, ctx.system.density)
        cell_h = grid.drawer_cell_dp
        rows = []
        for start in range(0, len(labelled), columns):
            cells = []
            for name, info in labelled[start:start + columns]:
                view = View(cls="android.widget.TextView", id=_id("icon"), text=name, desc=name,
                            width=cell_w, height=cell_h, image=f"app:{info.package}",
                            icon_size=icon_dp(cell_w, cell_h, True, grid.icon_dp),
                            padding=(4, 0, 4, 0), text_size=grid.label_sp,
                            text_color=theme.text, align="center", clickable=True,
                            long_clickable=True, focusable=True)
                view.on_click = self._launch(ctx, info, view)
                view.on_long_click = self._long_press(ctx, view, info.package, info.activity)
                cells.append(view)
            rows.append(row(*cells, cls="", height=WRAP))
        if not rows:
            rows.append(text(ctx.t("launcher.no_apps_found", query=self.query), width=MATCH,
                             align="center", text_color=theme.text_secondary, margin=(0, 32, 0, 0)))

        def on_text(value: str) -> None:
            self.query = value

        # the Pixel launcher's drawer search: the "G" and the Assistant dots, as at home
        search = row(
            View(cls="", width=24, height=24, icon_size=20, draw=draw_google_g,
                 gravity="center_vertical"),
            View(cls="android.widget.EditText", id=_id("search_container_all_apps"),
                 text=self.query, hint=ctx.t("launcher.search_apps"), width=0, weight=1,
                 height=WRAP, text_size=16, text_color=theme.text, clickable=True,
                 focusable=True, long_clickable=True, on_text=on_text,
                 ime_action="search", gravity="center_vertical", margin=(12, 0, 0, 0)),
            View(cls="", width=24, height=24, icon_size=22, draw=draw_assistant,
                 gravity="center_vertical"),
            cls="", height=48, bg=theme.surface, corner=24, padding=(16, 0, 16, 0),
            margin=(16, 8, 16, 8),
        )
        bg = (255, 255, 255, 245) if not theme.dark else (32, 33, 36, 245)
        return column(
            spacer(height=24),
            search,
            View(cls="android.view.View", width=MATCH, height=1, bg=theme.divider,
                 margin=(0, 4, 0, 0)),
            scroller(*rows, key="apps", cls="androidx.recyclerview.widget.RecyclerView",
                     id=_id("apps_list_view"), width=MATCH, height=0, weight=1,
                     padding=(8, 8, 8, 8)),
            spacer(height=48),
            cls="android.widget.FrameLayout", id=_id("apps_view"), width=MATCH, height=MATCH,
            bg=bg, image="wallpaper",
        )

    @staticmethod
    def _launch(ctx: Context, info: app_table.AppInfo, view: View):
        clip = clip_of(view)
        return lambda: ctx.start_activity(Intent.launcher(info.package, info.activity,
                                                          bounds=clip()))

    # -- overview -------------------------------------------------------------------
    def _overview(self, ctx: Context) -> View:
        system = ctx.system
        w_dp, h_dp = system.screen_dp()
        tasks = list(system.state.am.recents)
        card_w, card_h = w_dp * 0.62, (h_dp - 24 - 48) * 0.62
        if not tasks:
            body = text(ctx.t("launcher.no_recent_items"), width=MATCH, align="center",
                        text_color=WHITE, text_size=16, gravity="center")
            return frame(frame(body, cls="", width=MATCH, height=MATCH),
                         image="wallpaper", id=_id("overview_panel"), width=MATCH, height=MATCH,
                         bg=(0, 0, 0, 110), desc=ctx.t("launcher.recent_apps"))
        cards: list[View] = [View(cls="android.widget.Button", id=_id("clear_all"),
                                  text=ctx.t("launcher.clear_all"), width=WRAP, height=48,
                                  text_color=WHITE, text_size=14, font_weight=500,
                                  gravity="center_vertical", margin=(24, 0, 24, 0),
                                  padding=(12, 14, 12, 14), clickable=True, focusable=True,
                                  on_click=lambda: [system.am.remove_task(t.id) for t in tasks])]
        for task in tasks:
            cards.append(self._task_card(ctx, task.id, task.package, card_w, card_h))
        side = (w_dp - card_w) / 2
        strip = scroller(*cards, key="overview", horizontal=True, id=_id("overview_panel"),
                         desc=ctx.t("launcher.recent_apps"), width=MATCH, height=card_h + 60,
                         padding=(side, 0, side, 0), spacing=16, gravity="center_vertical",
                         mirror=False)
        return frame(strip, image="wallpaper", bg=(0, 0, 0, 110), width=MATCH, height=MATCH,
                     padding=(0, 24, 0, 48))

    def _task_card(self, ctx: Context, task_id: int, package: str, w: float, h: float) -> View:
        """A TaskView: a tap resumes the task; its icon, tapped or long-pressed, opens the
        task menu (TaskView.onTaskDataLoaded); a touch held elsewhere on the card belongs to
        Overview's drag (up to dismiss, down to launch), so a long press resumes nothing."""
        system = ctx.system
        name = ctx.t(f"app.{package}")
        icon_view = View(cls="android.view.View", id=_id("icon"), width=48, height=48,
                         image=f"app:{package}", icon_size=48, gravity="center_horizontal",
                         margin=(0, -24, 0, 0), clickable=True, long_clickable=True)
        card = frame(
            View(cls="android.view.View", id=_id("snapshot"), width=MATCH, height=MATCH,
                 bg=ctx.theme.background, corner=8, draw=_snapshot_painter(system, task_id)),
            icon_view,
            cls="android.widget.FrameLayout", desc=name, width=w, height=h, clickable=True,
            focusable=True, long_clickable=True, gravity="center_vertical",
            on_click=lambda: system.am.resume_task(task_id), on_long_click=_held,
        )
        clip = clip_of(card)

        def show_menu() -> None:
            self.popup = None
            self.task_menu = TaskMenu(task_id, package, clip())

        icon_view.on_click = icon_view.on_long_click = show_menu

        def dismiss(swipe: Swipe) -> bool:
            if swipe.direction == "up":
                system.am.remove_task(task_id)
                return True
            return False

        card.on_swipe = dismiss
        return card


def _snapshot_painter(system: SystemServer, task_id: int):
    """A card's painter of its task's snapshot (`SystemServer.task_snapshot`): it reads the
    task's state, which the card's signature does not hold, so its screen is reused only
    while the state stands still."""

    def draw_snapshot(canvas, view: View) -> None:
        left, top, right, bottom = view.bounds
        draw = system.task_snapshot
        image = draw(task_id, (right - left, bottom - top)) if draw is not None else None
        if image is not None:
            mask = Image.new("L", image.size, 0)
            ImageDraw.Draw(mask).rounded_rectangle((0, 0, image.width - 1, image.height - 1),
                                                   canvas.px(8), fill=255)
            canvas.paste(Image.merge("RGBA", (*image.split(), mask)), left, top, view.clip)

    return draw_snapshot


def _held() -> None:
    """A held touch on an Overview card: the drag that may follow is a swipe here."""


Launcher.activities = {ACTIVITY: LauncherActivity}


def toggle_overview(system: SystemServer) -> None:
    """The Overview button: show recents; pressed again there, switch to the last app."""
    home = system.state.am.home
    if home is None or home.top is None:
        return
    launcher: LauncherActivity = home.top.activity
    in_overview = system.state.am.foreground is home and launcher.mode == "overview"
    if in_overview:
        if system.state.am.recents:
            system.am.resume_task(system.state.am.recents[-1].id)
        return
    system.am.go_home()
    launcher.mode = "overview"
    home.top.scroll.offsets["overview"] = 1 << 30  # layout clamps it: the newest card shows

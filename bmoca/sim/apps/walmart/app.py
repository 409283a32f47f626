"""Walmart (`com.walmart.android`): splash, root activity with the bottom navigation,
department pages, the cart and the store map.

The launcher starts `SplashActivity`, which hands over to `RootActivity` at once (the real
splash shows the spark for a moment and finishes). The root activity's state is the tab
(`navigation_*`, `selected` on the current one) and a stack of pages over the tabs: a
department or subcategory (`category_container_title`), the cart
(`cart_fragment_constraint_layout`) or the store map (`instoremaps_webview_container`).
BACK pops a page, then returns to Shop, then leaves the app.
"""

from __future__ import annotations

from bmoca.sim.apps.base import Activity, App, Context
from bmoca.sim.apps.walmart import catalog
from bmoca.sim.apps.walmart.images import product_painter
from bmoca.sim.system.intent import Intent
from bmoca.sim.ui.view import MATCH, View, column, frame, icon, row, scroller, text

PACKAGE = "com.walmart.android"
SPLASH = "com.walmart.glass.integration.splash.SplashActivity"
ROOT = "com.walmart.glass.integration.root.RootActivity"
TABS = ("shop", "my_items", "search", "services", "account")
TAB_ICONS = {"shop": "storefront", "my_items": "favorite", "search": "search",
             "services": "home_repair_service", "account": "person"}
BLUE = (0, 113, 220)
YELLOW = (255, 194, 32)


def wid(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


def _colors(dark: bool) -> dict:
    if dark:
        return {"bg": (18, 18, 18), "surface": (38, 38, 40), "text": (238, 238, 238),
                "muted": (170, 170, 174), "bar": (0, 65, 130), "accent": (120, 180, 255),
                "divider": (60, 60, 64)}
    return {"bg": (255, 255, 255), "surface": (242, 248, 253), "text": (46, 47, 50),
            "muted": (116, 118, 124), "bar": BLUE, "accent": BLUE, "divider": (227, 228, 229)}


class SplashActivity(Activity):
    """Shows the spark, then starts the root activity and finishes."""

    def on_create(self, ctx: Context) -> None:
        ctx.start_activity(Intent(component=(PACKAGE, ROOT)))
        ctx.finish()

    def build(self, ctx: Context) -> View:
        return frame(icon("asterisk", 96, icon_color=YELLOW, gravity="center"),
                     cls="android.widget.FrameLayout", width=MATCH, height=MATCH, bg=BLUE,
                     orientation="z")


class RootActivity(Activity):
    def __init__(self, intent):
        super().__init__(intent)
        self.tab = "shop"
        self.pages: list[tuple[str, str]] = []
        """Pages over the tabs: ("category", name), ("cart", ""), ("map", "")."""
        self.cart: list[tuple[str, str]] = []

    # -- navigation -----------------------------------------------------------------
    def select_tab(self, tab: str) -> None:
        self.tab, self.pages = tab, []

    def push(self, kind: str, arg: str = "") -> None:
        if not self.pages or self.pages[-1] != (kind, arg):
            self.pages.append((kind, arg))

    def on_back(self, ctx: Context) -> bool:
        if self.pages:
            self.pages.pop()
            return True
        if self.tab != "shop":
            self.tab = "shop"
            return True
        return False

    # -- screens --------------------------------------------------------------------
    def build(self, ctx: Context) -> View:
        c = _colors(ctx.theme.dark)
        if self.pages:
            kind, arg = self.pages[-1]
            page = {"category": self._category, "cart": self._cart,
                    "map": self._store_map}[kind](ctx, c, arg)
        else:
            page = {"shop": self._shop, "my_items": self._my_items, "search": self._search,
                    "services": self._services, "account": self._account}[self.tab](ctx, c)
        body = frame(page, cls="android.widget.FrameLayout", id=wid("root_fragment_container"),
                     width=MATCH, height=0, weight=1, bg=c["bg"])
        return column(body, self._bottom_nav(ctx, c), cls="android.widget.LinearLayout",
                      id=wid("root_container"), width=MATCH, height=MATCH, bg=c["bg"])

    def _bottom_nav(self, ctx: Context, c: dict) -> View:
        items = []
        for tab in TABS:
            chosen = tab == self.tab
            color = c["accent"] if chosen else c["muted"]
            label = ctx.t(f"wm.nav.{tab}")
            items.append(column(
                icon(TAB_ICONS[tab], 24, cls="android.widget.ImageView", icon_color=color,
                     icon_filled=chosen, gravity="center_horizontal", id=wid("icon")),
                text(label, text_size=12, text_color=color, gravity="center_horizontal",
                     font_weight=500 if chosen else 400, margin=(0, 2, 0, 0),
                     id=wid("largeLabel") if chosen else wid("smallLabel")),
                cls="android.widget.FrameLayout", id=wid(f"navigation_{tab}"), desc=label,
                clickable=True, focusable=True, selected=chosen, width=0, weight=1,
                height=MATCH, padding=(2, 8, 2, 6), on_click=lambda t=tab: self.select_tab(t),
                # BottomNavigationItemView.initialize: the title is the tooltip, so a held
                # item shows it and switches nothing (View.tooltip).
                tooltip=label))
        return row(*items, cls="android.view.ViewGroup", id=wid("bottom_navigation"),
                   width=MATCH, height=64, bg=c["bg"], elevation=8)

    def _header(self, ctx: Context, c: dict, title: str | None = None) -> View:
        """The blue bar: up arrow and title on pages, the search box on tabs; the cart."""
        parts: list[View] = []
        if title is not None:
            parts.append(View(cls="android.widget.ImageButton", desc=ctx.t("wm.up"),
                              icon="arrow_back", icon_color=(255, 255, 255), width=48,
                              height=MATCH, clickable=True, focusable=True,
                              on_click=self._up))
            parts.append(text(title, id=wid("toolbar_title"), text_size=18, font_weight=600,
                              text_color=(255, 255, 255), width=0, weight=1,
                              gravity="start|center_vertical"))
        else:
            parts.append(row(icon("search", 20, icon_color=(116, 118, 124)),
                             text(ctx.t("wm.search_hint"), text_size=15,
                                  text_color=(116, 118, 124), margin=(8, 0, 8, 0), width=0,
                                  weight=1),
                             cls="android.widget.TextView", id=wid("search_bar"), width=0,
                             weight=1, height=40, bg=(255, 255, 255), corner=20,
                             padding=(12, 10, 12, 10), margin=(12, 8, 4, 8), clickable=True,
                             on_click=lambda: self.select_tab("search")))
        count = str(len(self.cart)) if self.cart else ""
        parts.append(frame(icon("shopping_cart", 26, icon_color=(255, 255, 255),
                                gravity="center"),
                           text(count, text_size=10, text_color=(0, 0, 0), bg=YELLOW,
                                corner=8, width=16, height=16, align="center",
                                gravity="end|top", visible=bool(count)),
                           cls="android.widget.FrameLayout", id=wid("cart_icon"),
                           desc=ctx.t("wm.cart"), orientation="z", width=56, height=MATCH,
                           clickable=True, focusable=True, on_click=lambda: self.push("cart")))
        return row(*parts, cls="android.view.ViewGroup", id=wid("toolbar"), width=MATCH,
                   height=56, bg=c["bar"])

    def _up(self) -> None:
        if self.pages:
            self.pages.pop()

    def _list_row(self, c: dict, label: str, symbol: str | None, action, rid: str,
                  desc: str = "") -> View:
        return row(icon(symbol, 24, icon_color=c["accent"], margin=(0, 0, 16, 0))
                   if symbol else None,
                   text(label, text_size=16, text_color=c["text"], width=0, weight=1),
                   icon("chevron_right", 20, icon_color=c["muted"]),
                   cls="android.view.ViewGroup", id=wid(rid), desc=desc, width=MATCH,
                   height=56, padding=(16, 16, 16, 16), clickable=True, focusable=True,
                   on_click=action)

    def _section(self, c: dict, title: str) -> View:
        return text(title, text_size=18, font_weight=700, text_color=c["text"],
                    padding=(16, 16, 16, 8), width=MATCH)

    def _shop(self, ctx: Context, c: dict) -> View:
        rows = [self._list_row(c, name, catalog.ICONS[name],
                               lambda n=name: self.push("category", n), "department_item")
                for name in catalog.DEPARTMENTS]
        return column(self._header(ctx, c),
                      scroller(self._section(c, ctx.t("wm.departments")), *rows,
                               key="wm_shop", id=wid("shop_recycler_view"), width=MATCH,
                               height=0, weight=1),
                      width=MATCH, height=MATCH)

    def _category(self, ctx: Context, c: dict, name: str) -> View:
        subs = catalog.DEPARTMENTS.get(name, ())
        body: list[View] = [text(name, id=wid("category_container_title"), text_size=22,
                                 font_weight=700, text_color=c["text"], width=MATCH,
                                 padding=(16, 16, 16, 8))]
        body += [self._list_row(c, sub, None, lambda s=sub: self.push("category", s),
                                "category_item") for sub in subs]
        if not subs:
            body += [self._product(ctx, c, p, price) for p, price in catalog.products(name)]
        return column(self._header(ctx, c, name),
                      scroller(*body, key=f"wm_cat_{name}", id=wid("category_recycler_view"),
                               width=MATCH, height=0, weight=1),
                      width=MATCH, height=MATCH)

    def _product(self, ctx: Context, c: dict, name: str, price: str) -> View:
        return row(View(cls="android.widget.ImageView", id=wid("product_image"), width=72,
                        height=72, draw=product_painter(name), gravity="center_vertical"),
                   column(text(price, text_size=16, font_weight=700, text_color=c["text"]),
                          text(name, text_size=14, text_color=c["text"], max_lines=2),
                          width=0, weight=1, padding=(12, 0, 12, 0)),
                   text(ctx.t("wm.add"), cls="android.widget.Button", id=wid("add_to_cart"),
                        text_size=14, font_weight=600, text_color=(255, 255, 255), bg=BLUE,
                        corner=18, width=80, height=36, align="center", clickable=True,
                        on_click=lambda: self.cart.append((name, price))),
                   cls="android.view.ViewGroup", id=wid("product_tile"), width=MATCH,
                   height=96, padding=(16, 12, 16, 12))

    def _cart(self, ctx: Context, c: dict, _: str) -> View:
        lines: list[View] = [text(ctx.t("wm.subtotal", count=len(self.cart)), text_size=16,
                                  font_weight=600, text_color=c["text"], padding=(16, 16, 16, 8),
                                  width=MATCH, id=wid("cart_subtotal"))]
        if self.cart:
            lines += [row(text(n, text_size=14, text_color=c["text"], width=0, weight=1),
                          text(p, text_size=14, font_weight=700, text_color=c["text"]),
                          width=MATCH, height=48, padding=(16, 12, 16, 12))
                      for n, p in self.cart]
        else:
            lines.append(column(icon("shopping_cart", 64, icon_color=c["muted"],
                                     gravity="center_horizontal"),
                                text(ctx.t("wm.cart_empty"), text_size=18, font_weight=600,
                                     text_color=c["text"], align="center", width=MATCH,
                                     id=wid("cart_empty_title")),
                                width=MATCH, padding=(16, 64, 16, 16)))
        return column(self._header(ctx, c, ctx.t("wm.cart")),
                      column(*lines, cls="android.view.ViewGroup",
                             id=wid("cart_fragment_constraint_layout"), width=MATCH, height=0,
                             weight=1, bg=c["bg"]),
                      width=MATCH, height=MATCH)

    def _store_map(self, ctx: Context, c: dict, _: str) -> View:
        aisles = [frame(text(f"A{i + 1}", text_size=12, text_color=c["muted"],
                             gravity="center"), orientation="z", width=0, weight=1, height=MATCH,
                        bg=c["surface"], margin=(4, 4, 4, 4), corner=4) for i in range(6)]
        plan = column(row(*aisles, width=MATCH, height=0, weight=1),
                      row(*[frame(width=0, weight=1, height=MATCH, bg=c["surface"],
                                  margin=(4, 4, 4, 4), corner=4) for _ in range(3)],
                          width=MATCH, height=0, weight=1),
                      row(icon("location_on", 28, icon_color=BLUE),
                          text(ctx.t("wm.aisle"), text_size=14, text_color=c["text"]),
                          width=MATCH, height=40, padding=(16, 8, 16, 8)),
                      cls="android.webkit.WebView", width=MATCH, height=MATCH,
                      padding=(8, 8, 8, 8))
        return column(self._header(ctx, c, ctx.t("wm.store_map")),
                      frame(plan, cls="android.widget.FrameLayout",
                            id=wid("instoremaps_webview_container"), width=MATCH, height=0,
                            weight=1, bg=c["bg"]),
                      width=MATCH, height=MATCH)

    def _my_items(self, ctx: Context, c: dict) -> View:
        return column(self._header(ctx, c),
                      self._section(c, ctx.t("wm.reorder")),
                      text(ctx.t("wm.no_items"), text_size=14, text_color=c["muted"],
                           padding=(16, 0, 16, 16), width=MATCH),
                      self._list_row(c, ctx.t("wm.lists"), "list", None, "my_items_lists"),
                      width=MATCH, height=MATCH)

    def _search(self, ctx: Context, c: dict) -> View:
        rows = [self._list_row(c, term, "trending_up", None, "trending_search_item")
                for term in catalog.TRENDING]
        return column(self._header(ctx, c), self._section(c, ctx.t("wm.recent_searches")),
                      *rows, width=MATCH, height=MATCH)

    def _services(self, ctx: Context, c: dict) -> View:
        rows = [self._list_row(c, ctx.t("wm.store_map"), "map", lambda: self.push("map"),
                               "services_store_map"),
                self._list_row(c, ctx.t("wm.pharmacy"), "local_pharmacy", None,
                               "services_pharmacy"),
                self._list_row(c, ctx.t("wm.photo"), "photo_camera", None, "services_photo"),
                self._list_row(c, ctx.t("wm.auto_care"), "car_repair", None,
                               "services_auto_care")]
        return column(self._header(ctx, c), self._section(c, ctx.t("wm.in_store")), *rows,
                      width=MATCH, height=MATCH)

    def _account(self, ctx: Context, c: dict) -> View:
        return column(self._header(ctx, c),
                      self._list_row(c, ctx.t("wm.sign_in"), "account_circle", None,
                                     "account_sign_in"),
                      self._list_row(c, ctx.t("wm.purchase_history"), "receipt_long", None,
                                     "account_purchase_history"),
                      self._list_row(c, ctx.t("wm.settings"), "settings", None,
                                     "account_settings"),
                      width=MATCH, height=MATCH)


class WalmartApp(App):
    package = PACKAGE
    label_key = f"app.{PACKAGE}"
    uid = 10142
    activities = {SPLASH: SplashActivity, ROOT: RootActivity}

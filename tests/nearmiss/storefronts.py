"""Instagram and Walmart: tab and screen tasks. Near misses stop on the neighbouring tab or
screen, or go there and come back; right paths arrive by way of another tab, a second
visit, the search box, the app drawer or the shell."""

from __future__ import annotations

from nearmiss.common import fails, passes, seq, tap_id
from nearmiss.launches import by_shell, from_drawer, opener

IG = "com.instagram.android:id/"
W = "com.walmart.android:id/"
INSTAGRAM, WALMART = "com.instagram.android", "com.walmart.android"


def insta(*tabs: str):
    """Open Instagram and tap these tabs in order."""
    return seq(opener(INSTAGRAM), *[lambda d, t=t: tap_id(d, IG + f"{t}_tab") for t in tabs])


def mart(*ids: str):
    """Open Walmart and tap these ids in order (`name:index` picks a list row)."""
    def tap(d, name: str) -> None:
        rid, _, index = name.partition(":")
        tap_id(d, W + rid, int(index or 0))
    return seq(opener(WALMART), *[lambda d, n=n: tap(d, n) for n in ids])


def back(device) -> None:
    device.press("BACK")


def home(device) -> None:
    device.press("HOME")


def it(name: str) -> str:
    return f"instagram/{name}_in_Instagram" if name != "open" else "instagram/open_Instagram"


def wm(name: str) -> str:
    return f"walmart/{name}_in_Walmart" if name != "open" else "walmart/open_Walmart"


NAV = {"account": "navigation_account", "my_items": "navigation_my_items",
       "search": "navigation_search", "services": "navigation_services"}
NEIGHBOUR = {"account": "my_items", "my_items": "account", "search": "services",
             "services": "search"}

ROWS = [
    fails(it("open"), "left_on_the_profile_tab", insta("profile")),
    fails(it("open"), "opened_then_home", seq(insta(), home)),
    passes(it("open"), "from_the_app_drawer", from_drawer(INSTAGRAM)),
    passes(it("open"), "profile_then_back", seq(insta("profile"), back)),
    passes(it("open"), "am_start_from_the_shell", by_shell(INSTAGRAM)),
    fails(it("go_to_my_profile"), "reels_instead", insta("clips")),
    fails(it("go_to_my_profile"), "profile_then_back", seq(insta("profile"), back)),
    passes(it("go_to_my_profile"), "by_way_of_reels", insta("clips", "profile")),
    passes(it("go_to_my_profile"), "twice", insta("profile", "feed", "profile")),
    fails(it("go_to_reels_tab"), "search_instead", insta("search")),
    fails(it("go_to_reels_tab"), "reels_then_feed", insta("clips", "feed")),
    passes(it("go_to_reels_tab"), "by_way_of_the_profile", insta("profile", "clips")),
    passes(it("go_to_reels_tab"), "from_the_shell", seq(by_shell(INSTAGRAM),
                                                        lambda d: tap_id(d, IG + "clips_tab"))),
    fails(it("go_to_search_tab"), "there_and_back", insta("profile", "feed")),
    fails(it("go_to_search_tab"), "reels_instead", insta("clips")),
    passes(it("go_to_search_tab"), "by_way_of_reels", insta("clips", "search")),
    passes(it("go_to_search_tab"), "twice", insta("search", "feed", "search")),
    fails(wm("open"), "opened_then_home", seq(mart(), home)),
    fails(wm("open"), "neighbouring_app", opener(INSTAGRAM)),
    passes(wm("open"), "from_the_app_drawer", from_drawer(WALMART)),
    passes(wm("open"), "am_start_from_the_shell", by_shell(WALMART)),
    *[row for tab, nav in NAV.items() for row in (
        fails(wm(f"go_to_{tab}_tab"), f"{NEIGHBOUR[tab]}_instead", mart(NAV[NEIGHBOUR[tab]])),
        fails(wm(f"go_to_{tab}_tab"), "there_and_back_to_shop", mart(nav, "navigation_shop")),
        passes(wm(f"go_to_{tab}_tab"), f"by_way_of_{NEIGHBOUR[tab]}",
               mart(NAV[NEIGHBOUR[tab]], nav)),
        passes(wm(f"go_to_{tab}_tab"), "twice", mart(nav, "navigation_shop", nav)))],
    passes(wm("go_to_search_tab"), "the_search_box", mart("search_bar")),
    fails(wm("go_to_store_map"), "services_tab_only", mart("navigation_services")),
    fails(wm("go_to_store_map"), "map_then_back", seq(mart("navigation_services",
                                                            "services_store_map"), back)),
    passes(wm("go_to_store_map"), "by_way_of_the_account", mart(
        "navigation_account", "navigation_services", "services_store_map")),
    passes(wm("go_to_store_map"), "twice", seq(mart("navigation_services",
                                                     "services_store_map"), back,
                                                lambda d: tap_id(d, W + "services_store_map"))),
    fails(wm("go_to_my_cart"), "cart_then_back", seq(mart("cart_icon"), back)),
    fails(wm("go_to_my_cart"), "account_instead", mart("navigation_account")),
    passes(wm("go_to_my_cart"), "from_the_account_tab", mart("navigation_account",
                                                              "cart_icon")),
    passes(wm("go_to_my_cart"), "from_a_department", mart("department_item:2", "cart_icon")),
    fails(wm("go_to_grocery_category_and_show_subcategories"), "the_neighbouring_department",
          mart("department_item:1")),
    fails(wm("go_to_grocery_category_and_show_subcategories"), "a_subcategory_of_grocery",
          mart("department_item:0", "category_item:0")),
    passes(wm("go_to_grocery_category_and_show_subcategories"), "subcategory_then_back",
           seq(mart("department_item:0", "category_item:0"), back)),
    passes(wm("go_to_grocery_category_and_show_subcategories"), "after_another_department",
           seq(mart("department_item:1"), back, lambda d: tap_id(d, W + "department_item"))),
]

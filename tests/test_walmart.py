"""The Walmart app and its 8 tasks: screens and ids, strings in three scripts, light and
dark, right-to-left mirroring, launch log lines; each task not done at reset, its expert
passing, near misses failing and other right paths passing."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import bounds, launch, logcat, nodes, run_expert, tap_on

import bmoca
import bmoca.configs
import bmoca.device
from bmoca import tasks

W = "com.walmart.android:id/"
SPLASH = "com.walmart.android/com.walmart.glass.integration.splash.SplashActivity"
ALL_WALMART = [t.id for t in tasks.load_file("bmoca/tasks/data/walmart.yaml")]
TABS = ("shop", "my_items", "search", "services", "account")


def walmart(config: str = "test_env_100"):
    return launch(SPLASH, config)


def ids(device) -> set[str]:
    return {n.get("resource-id") for n in nodes(device.dump_hierarchy())}


def selected_tab(device) -> str:
    xml = device.dump_hierarchy()
    chosen = [t for t in TABS if nodes(xml, resource_id=W + f"navigation_{t}", selected="true")]
    assert len(chosen) == 1
    return chosen[0]


def tap(device, name: str, index: int = 0) -> None:
    tap_on(device, index, resource_id=W + name)


def department(device, name: str) -> None:
    xml = device.dump_hierarchy()
    rows = nodes(xml, resource_id=W + "department_item") + nodes(xml, resource_id=W + "category_item")
    for row in rows:
        if any(n.get("text") == name for n in row.iter("node")):
            left, top, right, bottom = bounds(row)
            device.tap((left + right) // 2, (top + bottom) // 2)
            return
    raise AssertionError(f"no row {name}")


def title(device) -> str | None:
    found = nodes(device.dump_hierarchy(), resource_id=W + "category_container_title")
    return found[0].get("text") if found else None


# -- the app --------------------------------------------------------------------------------

def test_the_task_file():
    assert len(ALL_WALMART) == 8
    suite = tasks.list(app="Walmart")
    assert {t.id for t in suite} == set(ALL_WALMART)
    limits = {t.id.split("/")[1]: t.step_limit for t in suite}
    assert limits["open_Walmart"] == 4 and limits["go_to_store_map_in_Walmart"] == 7
    assert limits["go_to_grocery_category_and_show_subcategories_in_Walmart"] == 7
    assert all(t.category == "Web/Shopping" and t.expert for t in suite)


def test_splash_hands_over_to_the_root_activity_with_shop_selected():
    device = walmart()
    assert selected_tab(device) == "shop"
    log = logcat(device, "ActivityTaskManager:I")
    assert "START u0 {flg=0x10000000 cmp=" + SPLASH + "}" in log
    assert "cmp=com.walmart.android/com.walmart.glass.integration.root.RootActivity}" in log
    assert "Start proc" in logcat(device, "ActivityManager:I") or "Start proc" in logcat(device)
    out, _ = device.shell("dumpsys activity activities")
    assert "RootActivity" in out


@pytest.mark.parametrize("tab", TABS)
def test_each_tab_selects_only_itself(tab):
    device = walmart()
    tap(device, f"navigation_{tab}")
    assert selected_tab(device) == tab


def test_holding_a_tab_shows_its_tooltip_and_selects_nothing():
    """Material's bottom navigation gives each item its title as a tooltip: a long press
    shows it and performs no click, and the item is not reported long-clickable."""
    device = walmart()
    node = nodes(device.dump_hierarchy(), resource_id=W + "navigation_account")[0]
    assert node.get("long-clickable") == "false"
    left, top, right, bottom = bounds(node)
    device.long_press((left + right) // 2, (top + bottom) // 2)
    assert selected_tab(device) == "shop"
    tap(device, "navigation_account")
    assert selected_tab(device) == "account"


def test_grocery_shows_its_subcategories_and_back_returns():
    device = walmart()
    department(device, "Grocery")
    assert title(device) == "Grocery"
    subs = nodes(device.dump_hierarchy(), resource_id=W + "category_item")
    assert len(subs) >= 4
    department(device, "Dairy & Eggs")
    assert title(device) == "Dairy & Eggs"
    device.press("back")
    assert title(device) == "Grocery"
    device.press("back")
    assert title(device) is None and selected_tab(device) == "shop"


def test_cart_counts_what_is_added():
    device = walmart()
    department(device, "Grocery")
    department(device, "Fresh Produce")
    tap(device, "add_to_cart")
    tap(device, "add_to_cart", 1)
    tap(device, "cart_icon")
    xml = device.dump_hierarchy()
    assert nodes(xml, resource_id=W + "cart_fragment_constraint_layout")
    assert nodes(xml, resource_id=W + "cart_subtotal")[0].get("text") == "Subtotal (2 items)"
    assert any(n.get("text") == "Bananas, each" for n in nodes(xml))


def test_store_map_from_services():
    device = walmart()
    tap(device, "navigation_services")
    tap(device, "services_store_map")
    assert W + "instoremaps_webview_container" in ids(device)
    device.press("back")
    assert W + "instoremaps_webview_container" not in ids(device)
    assert selected_tab(device) == "services"


@pytest.mark.parametrize("config, shop, account, cart", [
    ("test_env_100", "Shop", "Account", "Cart"),          # en-US
    ("train_env_022", "Comprar", "Cuenta", "Carrito"),    # es-US
    ("train_env_028", "Shop", "Account", "Cart"),          # ja-JP: the app has no Japanese
    ("train_env_025", "Shop", "Account", "Cart"),          # zh-Hans-CN: nor Chinese
    ("test_env_109", "Shop", "Account", "Cart"),           # ar-EG: English, right to left
])
def test_labels_in_english_or_spanish_only_and_rtl_mirroring(config, shop, account, cart):
    """The 2021 app ships English and Spanish resources only: every other language shows
    its English default, while an RTL locale still mirrors the layout."""
    device = walmart(config)
    xml = device.dump_hierarchy()
    assert nodes(xml, resource_id=W + "navigation_shop")[0].get("content-desc") == shop
    assert nodes(xml, resource_id=W + "navigation_account")[0].get("content-desc") == account
    assert nodes(xml, resource_id=W + "cart_icon")[0].get("content-desc") == cart
    assert nodes(xml, resource_id=W + "largeLabel")[0].get("text") == shop
    width, _ = device.screen_size()
    shop_x = bounds(nodes(xml, resource_id=W + "navigation_shop")[0])
    account_x = bounds(nodes(xml, resource_id=W + "navigation_account")[0])
    rtl = config == "test_env_109"
    assert (shop_x[0] > account_x[0]) is rtl
    assert (shop_x[2] == width) is rtl and (shop_x[0] == 0) is not rtl
    department(device, "Grocery")
    assert title(device) == "Grocery"  # store content stays English


@pytest.mark.parametrize("config", ["test_env_100", "train_env_028", "test_env_109"])
def test_dark_theme(config):
    """Light and dark whatever the configuration's own theme (train_env_028 starts dark)."""
    shots = []
    for mode in ("no", "yes"):
        device = bmoca.device.connect("sim", config=bmoca.configs.get(config))
        out, code = device.shell(f"cmd uimode night {mode}")
        assert code == 0, out
        device.shell(f"am start -n {SPLASH}")
        assert selected_tab(device) == "shop"
        shots.append(device.screenshot())
    light, dark = shots
    a, b = light.astype(int), dark.astype(int)
    # the list area: white in light mode, near black in dark mode
    h = a.shape[0]
    assert a[h // 2].mean() > 200 and b[h // 2].mean() < 80
    assert np.abs(a - b).mean() > 50


# -- the tasks ------------------------------------------------------------------------------

@pytest.mark.parametrize("task_id", ALL_WALMART)
@pytest.mark.parametrize("config", ["test_env_100", "test_env_109"])
def test_the_expert_passes_each_task(pool, task_id, config):
    """test_env_109 (ar-EG tablet) has no Walmart icon on its home screen: the app drawer."""
    info = run_expert(pool, task_id, config)
    assert info["success"], info.get("detector")


def wrong_action(name: str, device) -> None:
    """A near miss: the right app, one detail wrong."""
    device.shell(f"am start -n {SPLASH}")
    if name == "open_Walmart":
        device.press("home")  # opened, then left
    elif name == "go_to_account_tab_in_Walmart":
        tap(device, "navigation_my_items")
    elif name == "go_to_my_items_tab_in_Walmart":
        tap(device, "navigation_account")
    elif name == "go_to_search_tab_in_Walmart":
        tap(device, "navigation_services")
    elif name == "go_to_services_tab_in_Walmart":
        tap(device, "navigation_search")
    elif name == "go_to_store_map_in_Walmart":
        tap(device, "navigation_services")  # the tab, not the map
    elif name == "go_to_my_cart_in_Walmart":
        tap(device, "cart_icon")
        device.press("back")  # opened, then left
    elif name == "go_to_grocery_category_and_show_subcategories_in_Walmart":
        department(device, "Electronics")
    else:
        raise AssertionError(name)


@pytest.mark.parametrize("task_id", ALL_WALMART)
def test_each_task_is_not_done_at_reset_and_a_near_miss_fails_it(task_id):
    task = tasks.get(task_id)
    device = bmoca.device.connect("sim", config=bmoca.configs.get("test_env_100"))
    start = task.initialize(device)
    assert task.is_successful(device, start).ok is False
    wrong_action(task_id.split("/", 1)[1], device)
    verdict = task.is_successful(device, start)
    assert verdict.ok is False, verdict.trace


def test_a_grocery_subcategory_is_not_grocery_until_back():
    task = tasks.get("walmart/go_to_grocery_category_and_show_subcategories_in_Walmart")
    device = bmoca.device.connect("sim", config=bmoca.configs.get("test_env_100"))
    start = task.initialize(device)
    device.shell(f"am start -n {SPLASH}")
    department(device, "Grocery")
    department(device, "Snacks")
    assert task.is_successful(device, start).ok is False
    device.press("back")
    assert task.is_successful(device, start).ok is True


@pytest.mark.parametrize("route", ["from_account", "from_a_category", "from_the_store_map"])
def test_the_cart_from_other_screens(route):
    task = tasks.get("walmart/go_to_my_cart_in_Walmart")
    device = bmoca.device.connect("sim", config=bmoca.configs.get("test_env_100"))
    start = task.initialize(device)
    device.shell(f"am start -n {SPLASH}")
    if route == "from_account":
        tap(device, "navigation_account")
    elif route == "from_a_category":
        department(device, "Toys")
    else:
        tap(device, "navigation_services")
        tap(device, "services_store_map")
    tap(device, "cart_icon")
    verdict = task.is_successful(device, start)
    assert verdict.ok is True, verdict.trace


def test_the_search_tab_from_the_search_box_and_open_from_the_shell():
    search = tasks.get("walmart/go_to_search_tab_in_Walmart")
    opened = tasks.get("walmart/open_Walmart")
    device = bmoca.device.connect("sim", config=bmoca.configs.get("test_env_100"))
    start = search.initialize(device)
    device.shell("monkey -p com.walmart.android -c android.intent.category.LAUNCHER 1")
    assert opened.is_successful(device, start).ok is True
    tap(device, "search_bar")
    assert search.is_successful(device, start).ok is True


def test_each_product_tile_shows_a_picture_of_its_product():
    device = walmart()
    department(device, "Grocery")
    department(device, "Fresh Produce")
    image = device.screenshot()
    pictures = nodes(device.dump_hierarchy(), resource_id=W + "product_image")
    assert len(pictures) == 3
    hues = []
    for node in pictures:
        left, top, right, bottom = bounds(node)
        crop = image[top:bottom, left:right, :3].reshape(-1, 3).astype(int)
        coloured = crop[(crop.max(axis=1) - crop.min(axis=1)) > 80]
        assert len(coloured) > 0.1 * len(crop)  # a product, not a placeholder glyph
        hues.append(tuple(np.median(coloured, axis=0)))
    assert len(set(hues)) == 3  # bananas, apples and carrots differ

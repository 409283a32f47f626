"""Chrome: the four tasks' near misses (another app, the incognito tab, Recent tabs or
Bookmarks instead of History) and other right paths (from recents, the tab switcher)."""

from __future__ import annotations

from conftest import bounds, nodes, tap_on

from bmoca import tasks
from nearmiss.common import from_generators

C = "com.android.chrome:id/"


ALL_CHROME = [t.id for t in tasks.load_file("bmoca/tasks/data/chrome.yaml")]


def open_chrome(device) -> None:
    out, code = device.shell("monkey -p com.android.chrome -c "
                             "android.intent.category.LAUNCHER 1")
    assert code == 0, out


def menu(device, row: str | int) -> None:
    tap_on(device, resource_id=C + "menu_button")
    rows = nodes(device.dump_hierarchy(), resource_id=C + "menu_item_text")
    node = rows[row] if isinstance(row, int) else [n for n in rows if n.get("text") == row][0]
    left, top, right, bottom = bounds(node)
    device.tap((left + right) // 2, (top + bottom) // 2)


def type_in_omnibox(device, typed: str) -> None:
    tap_on(device, resource_id=C + "url_bar")
    device.input_text(typed)
    device.press("ENTER")


def near_misses(task_id: str):
    name = task_id.split("/", 1)[1]
    if name == "open_Chrome":
        yield lambda d: d.shell("am start -n com.android.settings/.Settings")
        yield lambda d: d.shell("monkey -p com.google.android.youtube 1")
    elif name == "activate_the_search_bar_in_chrome":
        yield open_chrome
        yield lambda d: (d.shell("monkey -p com.google.android.apps.messaging 1"),
                         tap_on(d, resource_id="com.google.android.apps.messaging:id/"
                                               "action_zero_state_search"))
        yield lambda d: (open_chrome(d), menu(d, "History"))
    elif name == "open_a_new_tab_in_Chrome":
        yield open_chrome
        yield lambda d: (open_chrome(d), menu(d, "New incognito tab"))
        yield lambda d: (open_chrome(d), type_in_omnibox(d, "example.com"))
        yield lambda d: (open_chrome(d), tap_on(d, resource_id=C + "tab_switcher_button"))
    else:
        yield open_chrome
        yield lambda d: (open_chrome(d), menu(d, "Recent tabs"))
        yield lambda d: (open_chrome(d), menu(d, "Bookmarks"))
        yield lambda d: (open_chrome(d), type_in_omnibox(d, "chrome://history"))


def right_paths(task_id: str):
    name = task_id.split("/", 1)[1]
    if name == "open_Chrome":
        yield open_chrome

        def from_recents(d):
            open_chrome(d)
            d.press("HOME")
            open_chrome(d)
        yield from_recents
    elif name == "activate_the_search_bar_in_chrome":
        yield lambda d: (open_chrome(d), tap_on(d, resource_id=C + "url_bar"))

        def twice(d):  # focus, leave with Back, focus again: still one attach logged each
            open_chrome(d)
            tap_on(d, resource_id=C + "url_bar")
            d.press("BACK")
            tap_on(d, resource_id=C + "url_bar")
        yield twice
    elif name == "open_a_new_tab_in_Chrome":
        yield lambda d: (open_chrome(d), menu(d, 0))

        def from_the_switcher(d):
            open_chrome(d)
            tap_on(d, resource_id=C + "tab_switcher_button")
            tap_on(d, resource_id=C + "new_tab_view_button")
        yield from_the_switcher
    else:
        yield lambda d: (open_chrome(d), menu(d, "History"))

        def after_browsing(d):
            open_chrome(d)
            type_in_omnibox(d, "example.com")
            menu(d, "History")
        yield after_browsing


ROWS = from_generators(ALL_CHROME, near_misses, right_paths, english=True)

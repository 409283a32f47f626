"""Wikipedia: the sixteen tasks' near misses (the neighbouring tab, text size or card, not
returning to the feed) and other right paths (the search icon, the seek bar's far end,
through Settings, a card toggled twice)."""

from __future__ import annotations

from conftest import nodes, tap_on

from bmoca import tasks
from nearmiss.common import from_generators, scroll_to_top, tap_nth
from nearmiss.launches import open_app_rows

W = "org.wikipedia:id/"


ALL_WIKI = [t.id for t in tasks.load_file("bmoca/tasks/data/wikipedia.yaml")]


def open_wikipedia(device) -> None:
    out, code = device.shell("monkey -p org.wikipedia -c android.intent.category.LAUNCHER 1")
    assert code == 0, out


def customize_from_card(device) -> None:
    tap_on(device, resource_id=W + "view_list_card_header_menu")
    tap_on(device, resource_id=W + "menu_feed_card_customize")


def settings(device) -> None:
    tap_on(device, resource_id=W + "nav_more_container")
    tap_on(device, resource_id=W + "main_drawer_settings_container")


def setting_row(device, index: int) -> None:
    tap_nth(device, "android:id/title", index)


def toggle(device, *indices: int) -> None:
    scroll_to_top(device, W + "feed_content_type_title")
    seen: list[str] = []  # rows in list order, so indices count from the list's top
    for index in indices:
        tap_nth(device, W + "feed_content_type_title", index, seen)


def back_to_feed(device) -> None:
    for _ in range(4):
        if nodes(device.dump_hierarchy(), resource_id=W + "nav_tab_explore"):
            return
        device.press("BACK")


def text_size(device, steps: int) -> None:
    button = "buttonIncreaseTextSize" if steps > 0 else "buttonDecreaseTextSize"
    for _ in range(abs(steps)):
        tap_on(device, resource_id=W + button)


DISABLE = {"top_1_and_'randomizer'": (0, 6), "top_2_and_'randomizer'": (0, 1, 6),
           "top_2_topics": (0, 1), "'history'": (3, 5), "'day'": (2, 5),
           "even-numbered": (1, 3, 5, 7), "odd-numbered": (0, 2, 4, 6),
           "prime-numbered": (1, 2, 4, 6)}


def _which(name: str) -> tuple[int, ...] | None:
    return next((v for k, v in DISABLE.items() if k in name), None)


def near_misses(task_id: str):
    name = task_id.split("/", 1)[1]
    if name == "open_Wikipedia":
        yield lambda d: d.shell("am start -n com.android.chrome/com.google.android.apps.chrome.Main")
    elif name.startswith("go_to_saved"):
        yield lambda d: (open_wikipedia(d), tap_on(d, resource_id=W + "nav_tab_search"))
    elif name.startswith("go_to_search"):
        yield lambda d: (open_wikipedia(d), tap_on(d, resource_id=W + "nav_tab_reading_lists"))
    elif "text_size" in name and "feed" not in name:
        target = -5 if "50%" in name else 8
        wrong = target + (1 if target < 0 else -1)  # 60 % / 170 %
        yield lambda d: (open_wikipedia(d), settings(d), setting_row(d, 2), text_size(d, wrong))
    elif "featured_article" in name:
        steps = -5 if "50%" in name else 8

        def without_returning(d):
            open_wikipedia(d)
            customize_from_card(d)
            toggle(d, 0)
            d.press("BACK")
            settings(d)
            setting_row(d, 2)
            text_size(d, steps)  # left on the theme sheet, not the feed
        yield without_returning

        def wrong_card(d):
            open_wikipedia(d)
            customize_from_card(d)
            toggle(d, 1)
            d.press("BACK")
            settings(d)
            setting_row(d, 2)
            text_size(d, steps)
            back_to_feed(d)
        yield wrong_card
    elif "link_previews" in name:
        yield lambda d: (open_wikipedia(d), customize_from_card(d), toggle(d, 1),
                         back_to_feed(d))  # previews left on
        yield lambda d: (open_wikipedia(d), settings(d), setting_row(d, 5), setting_row(d, 1),
                         toggle(d, 1))  # not back to the feed
    else:
        cards = _which(name)
        yield lambda d: (open_wikipedia(d), customize_from_card(d), toggle(d, *cards))
        yield lambda d: (open_wikipedia(d), customize_from_card(d), toggle(d, *cards[:-1]),
                         back_to_feed(d))
        yield lambda d: (open_wikipedia(d), customize_from_card(d), toggle(d, *cards),
                         back_to_feed(d), tap_on(d, resource_id=W + "nav_tab_search"))


def right_paths(task_id: str):
    name = task_id.split("/", 1)[1]
    if name == "open_Wikipedia":
        yield open_wikipedia
    elif name.startswith("go_to_saved"):
        yield lambda d: (open_wikipedia(d), tap_on(d, resource_id=W + "nav_tab_edits"),
                         tap_on(d, resource_id=W + "nav_tab_reading_lists"))
    elif name.startswith("go_to_search"):
        yield lambda d: (open_wikipedia(d), tap_on(d, resource_id=W + "menu_search"))
    elif "text_size" in name and "feed" not in name:
        steps = -5 if "50%" in name else 8
        yield lambda d: (open_wikipedia(d), settings(d), setting_row(d, 2),
                         text_size(d, steps - 2 if steps < 0 else steps + 3))
    elif "featured_article" in name:
        steps = -5 if "50%" in name else 8

        def through_settings(d):
            open_wikipedia(d)
            settings(d)
            setting_row(d, 1)
            toggle(d, 0)
            d.press("BACK")
            setting_row(d, 2)
            text_size(d, steps)
            back_to_feed(d)
        yield through_settings
    elif "link_previews" in name:
        yield lambda d: (open_wikipedia(d), customize_from_card(d), toggle(d, 1), d.press("BACK"),
                         settings(d), setting_row(d, 5), back_to_feed(d))
    else:
        cards = _which(name)
        yield lambda d: (open_wikipedia(d), customize_from_card(d), toggle(d, *cards),
                         back_to_feed(d))

        def twice_and_back(d):
            open_wikipedia(d)
            settings(d)
            setting_row(d, 1)
            toggle(d, 7, 7)  # on and off again: no change
            toggle(d, *cards)
            back_to_feed(d)
        yield twice_and_back


ROWS = from_generators(ALL_WIKI, near_misses, right_paths, english=False)


def named(name: str, play):
    """A row's play with a name of its own (rows from a second generator must not clash)."""
    play.__name__ = name
    return play


def tabs(*ids: str):
    def play(d) -> None:
        open_wikipedia(d)
        for rid in ids:
            tap_on(d, resource_id=W + rid)
    return play


def more_near_misses(task_id: str):
    name = task_id.split("/", 1)[1]
    if name.startswith("go_to_saved") or name.startswith("go_to_search"):
        yield named("the_edits_tab_instead", tabs("nav_tab_edits"))
    elif "text_size" in name and "feed" not in name:
        steps = 5 if "50%" in name else -5
        yield named("the_other_way", lambda d: (open_wikipedia(d), settings(d),
                                                setting_row(d, 2), text_size(d, steps)))


def more_right_paths(task_id: str):
    name = task_id.split("/", 1)[1]
    if name.startswith("go_to_saved"):
        yield named("after_the_search_tab", tabs("nav_tab_search", "nav_tab_reading_lists"))
    elif name.startswith("go_to_search"):
        yield named("after_the_saved_tab", tabs("nav_tab_reading_lists", "nav_tab_search"))
    elif "text_size" in name and "feed" not in name:
        steps = -5 if "50%" in name else 8

        def in_two_visits(d):
            open_wikipedia(d)
            settings(d)
            setting_row(d, 2)
            text_size(d, steps // 2)
            d.press("BACK")
            setting_row(d, 2)
            text_size(d, steps - steps // 2)
        yield named("in_two_visits", in_two_visits)
    elif "featured_article" in name:
        steps = -5 if "50%" in name else 8

        def size_first_then_card(d):
            open_wikipedia(d)
            settings(d)
            setting_row(d, 2)
            text_size(d, steps)
            back_to_feed(d)
            customize_from_card(d)
            toggle(d, 0)
            back_to_feed(d)
        yield named("the_size_first_then_the_card", size_first_then_card)
    elif "link_previews" in name:
        yield named("previews_first_then_the_card", lambda d: (
            open_wikipedia(d), settings(d), setting_row(d, 5), back_to_feed(d),
            customize_from_card(d), toggle(d, 1), back_to_feed(d)))


ROWS += from_generators(ALL_WIKI, more_near_misses, more_right_paths, english=False)
ROWS += open_app_rows("wikipedia/open_Wikipedia", "org.wikipedia", "com.android.chrome")

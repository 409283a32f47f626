"""Expert stages for Chrome: a new tab without the app menu, on a phone or a tablet.

A phone opens one from the tab switcher (the toolbar's `tab_switcher_button`, then the
switcher's `new_tab_view_button`). A tablet (sw600dp) has no switcher button: its tab
strip ends with the new-tab button, an id-less virtual view (`android.view.View`) of the
compositor, the last of the strip's views above the toolbar; its description ("New tab")
is translated, so it is found by place, not by text.
"""

from __future__ import annotations

from bmoca.tasks.experts.base import Action, Expert, ExpertStuck, Screen, click, long_press

PACKAGE = "com.android.chrome"


def new_tab_without_menu():
    """Open one new tab from the tab switcher (phone) or the tab strip's + (tablet)."""

    def stage(screen: Screen, expert: Expert) -> Action | None:
        button = screen.first(f"{PACKAGE}:id/new_tab_view_button")
        if button is not None:
            return expert.advance_after(click(button))
        switcher = screen.first(f"{PACKAGE}:id/tab_switcher_button")
        if switcher is not None:
            return click(switcher)
        return _strip_plus(screen, expert)

    return stage


def new_tab_from_the_tab_menu():
    """Open one new tab with New tab of the tab switcher button's long-press menu (phone);
    a tablet has neither, and opens it from the tab strip's + instead."""

    def stage(screen: Screen, expert: Expert) -> Action | None:
        if screen.has(f"{PACKAGE}:id/menu_list"):
            items = screen.all(f"{PACKAGE}:id/menu_item_text")
            return expert.advance_after(click(items[1]))
        switcher = screen.first(f"{PACKAGE}:id/tab_switcher_button")
        if switcher is not None:
            return long_press(switcher)
        return _strip_plus(screen, expert)

    return stage


def _strip_plus(screen: Screen, expert: Expert) -> Action:
    """Tap the tab strip's new-tab button: the last id-less virtual view above the toolbar."""
    toolbar = screen.first(f"{PACKAGE}:id/toolbar")
    strip = [n for n in screen.nodes if toolbar is not None and n.cls == "android.view.View"
             and not n.id and n.package == PACKAGE and n.bounds[3] <= toolbar.bounds[1]]
    if not strip:
        raise ExpertStuck(f"stage {expert.stage}: neither a tab switcher nor a tab strip")
    return expert.advance_after(click(strip[-1]))


STAGES = {"chrome_new_tab_without_menu": new_tab_without_menu,
          "chrome_new_tab_from_the_tab_menu": new_tab_from_the_tab_menu}

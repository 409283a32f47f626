"""Expert stages for Files: pick a root from the roots drawer, tap or long-press a row.

The drawer's roots are found by position in `roots_list` (Recent, Images, Videos, Audio,
Downloads, then the phone's storage), which is the same in every language; the drawer is
opened with the toolbar's navigation button, the first `ImageButton` of `toolbar`, whose
content-desc ("Show roots") is translated.
"""

from __future__ import annotations

from bmoca.tasks.experts.base import (
    Action,
    Expert,
    ExpertStuck,
    Screen,
    click,
    contains,
    long_press,
)

PACKAGE = "com.android.documentsui"
ROOT_ORDER = ("recent", "images", "videos", "audio", "downloads", "device")


def files_root(root: str):
    """Show one of the drawer's roots: open the drawer if needed, tap the root's title."""
    root = str(root).lower()
    if root not in ROOT_ORDER:
        raise ValueError(f"unknown root {root!r}; roots are {', '.join(ROOT_ORDER)}")
    index = ROOT_ORDER.index(root)

    def stage(screen: Screen, expert: Expert) -> Action | None:
        roots_list = screen.first(f"{PACKAGE}:id/roots_list")
        if roots_list is not None:
            after = screen.nodes[screen.nodes.index(roots_list) + 1:]  # the drawer's own rows
            titles = [n for n in after
                      if n.id == "android:id/title" and contains(roots_list.bounds, n.bounds)]
            if len(titles) <= index:
                raise ExpertStuck(f"stage {expert.stage}: the drawer shows {len(titles)} roots")
            return expert.advance_after(click(titles[index]))
        toolbar = screen.first(f"{PACKAGE}:id/toolbar")
        buttons = [n for n in screen.nodes if toolbar is not None
                   and n.cls == "android.widget.ImageButton" and contains(toolbar.bounds, n.bounds)]
        if not buttons:
            raise ExpertStuck(f"stage {expert.stage}: no roots button in the Files toolbar")
        opened = expert.scratch.get("opened", 0)
        if opened >= 2:
            raise ExpertStuck(f"stage {expert.stage}: the roots drawer did not open")
        expert.scratch["opened"] = opened + 1
        return click(buttons[0])

    return stage


def files_row(name: str, long: bool = False):
    """Tap (or, `long`, long-press) the listed file or folder called `name`, found by its
    title inside `dir_list` (a long press starts the selection, as TouchInputHandler's
    onLongPress does; a tap while rows are selected adds the row); scrolls down to it."""
    name = str(name)

    def stage(screen: Screen, expert: Expert) -> Action | None:
        listing = screen.first(f"{PACKAGE}:id/dir_list")
        if listing is not None:
            for node in screen.all("android:id/title"):
                if node.text == name and contains(listing.bounds, node.bounds):
                    return expert.advance_after(long_press(node) if long else click(node))
        return expert.scroll_or_fail(screen, f"no row {name!r} in the Files list",
                                     rows=f"{PACKAGE}:id/dir_list")

    return stage


STAGES = {"files_root": files_root, "files_row": files_row}

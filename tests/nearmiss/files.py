"""Files (DocumentsUI): the five tasks' near misses (the app left on Recent, the drawer
opened and closed, the neighbouring root, the storage's own folder of that kind) and other
right paths (the app drawer, a swipe from the edge after another root)."""

from __future__ import annotations

from conftest import bounds, nodes, tap_on

from bmoca import tasks
from nearmiss.common import from_generators

D = "com.android.documentsui:id/"
ALL_FILES = [t.id for t in tasks.load_file("bmoca/tasks/data/files.yaml")]


def open_files(device) -> None:
    out, code = device.shell("monkey -p com.android.documentsui -c "
                             "android.intent.category.LAUNCHER 1")
    assert code == 0, out


def open_drawer(device) -> None:
    toolbar = nodes(device.dump_hierarchy(), resource_id=D + "toolbar")[0]
    button = toolbar.find("node")
    assert button.get("class") == "android.widget.ImageButton"
    left, top, right, bottom = bounds(button)
    device.tap((left + right) // 2, (top + bottom) // 2)


def pick_root(device, title: str) -> None:
    open_drawer(device)
    xml = device.dump_hierarchy()
    roots_list = nodes(xml, resource_id=D + "roots_list")[0]
    node = [n for n in roots_list.iter("node") if n.get("text") == title][0]
    left, top, right, bottom = bounds(node)
    device.tap((left + right) // 2, (top + bottom) // 2)


ROOT_OF = {"audio": "Audio", "download": "Downloads", "image": "Images", "video": "Videos"}


def near_misses(task_id: str):
    """Ways to get one detail wrong: the app left on Recent, the drawer opened and closed,
    the neighbouring root, the storage's own folder of that kind (which holds only part
    of what the root lists; the Download folder holds all of it, so it is a right path)."""
    name = task_id.split("/", 1)[1]
    if name == "open_the_file_manager_app":
        yield lambda d: d.shell("am start -n com.android.settings/.Settings")
        yield lambda d: d.shell("am start -n com.google.android.apps.photos/.home.HomeActivity")
        return
    kind = name.split("_")[1]
    right = ROOT_OF[kind]
    wrong = {"Audio": "Videos", "Downloads": "Audio", "Images": "Videos", "Videos": "Images"}
    folder = {"Audio": "Music", "Downloads": "Download", "Images": "Pictures",
              "Videos": "Movies"}[right]
    yield open_files

    def drawer_only(d):
        open_files(d)
        open_drawer(d)
        d.press("BACK")
    yield drawer_only
    yield lambda d: (open_files(d), pick_root(d, wrong[right]))

    if right != "Downloads":
        yield lambda d: storage_folder(d, folder)


def storage_folder(device, folder: str) -> None:
    open_files(device)
    pick_root(device, "Pixel 3")
    tap_on(device, resource_id="android:id/title", text=folder)


def right_paths(task_id: str):
    name = task_id.split("/", 1)[1]
    if name == "open_the_file_manager_app":
        yield open_files

        def from_the_app_drawer(d):
            width, height = d.screen_size()
            d.swipe(width // 2, height * 3 // 4, width // 2, height // 4)
            tap_on(d, text="Files")
        yield from_the_app_drawer
        return
    right = ROOT_OF[name.split("_")[1]]
    yield lambda d: (open_files(d), pick_root(d, right))
    if right == "Downloads":
        yield lambda d: storage_folder(d, "Download")

    def by_swipe_after_another_root(d):
        open_files(d)
        pick_root(d, "Pixel 3")
        width, height = d.screen_size()
        d.swipe(3, height // 2, width * 2 // 3, height // 2)
        roots_list = nodes(d.dump_hierarchy(), resource_id=D + "roots_list")[0]
        node = [n for n in roots_list.iter("node") if n.get("text") == right][0]
        left, top, r, bottom = bounds(node)
        d.tap((left + r) // 2, (top + bottom) // 2)
    yield by_swipe_after_another_root


ROWS = from_generators(ALL_FILES, near_misses, right_paths)

"""The Instagram app and its 4 tasks: the logged-in tabs and their pages, labels in three
scripts, light and dark, right-to-left mirroring, the alias's START line; each task not
done at reset, its expert passing, near misses failing and other right paths passing."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import bounds, launch, logcat, nodes, run_expert, tap_on

import bmoca
import bmoca.configs
import bmoca.device
from bmoca import tasks

G = "com.instagram.android:id/"
ALIAS = "com.instagram.android/.activity.MainTabActivity"
ALL_INSTAGRAM = [t.id for t in tasks.load_file("bmoca/tasks/data/instagram.yaml")]
TABS = ("feed", "search", "creation", "clips", "profile")


def instagram(config: str = "test_env_100"):
    return launch(ALIAS, config)


def selected_tab(device) -> str:
    xml = device.dump_hierarchy()
    chosen = [t for t in TABS if nodes(xml, resource_id=G + f"{t}_tab", selected="true")]
    assert len(chosen) == 1
    return chosen[0]


def tap(device, name: str) -> None:
    tap_on(device, resource_id=G + name)


def test_the_task_file():
    assert len(ALL_INSTAGRAM) == 4
    suite = tasks.list(app="Instagram")
    assert {t.id for t in suite} == set(ALL_INSTAGRAM)
    assert {t.id.split("/")[1]: t.step_limit for t in suite}["open_Instagram"] == 4
    assert all(t.category == "Communication" and t.step_limit <= 5 and t.expert for t in suite)


def test_launch_shows_the_feed_and_logs_the_alias():
    device = instagram()
    assert selected_tab(device) == "feed"
    xml = device.dump_hierarchy()
    assert nodes(xml, resource_id=G + "row_feed_photo_profile_name")[0].get("text") == "lena.paints"
    assert nodes(xml, resource_id=G + "row_feed_textview_likes")[0].get("text") == "214 likes"
    assert "START u0 {flg=0x10000000 cmp=" + ALIAS + "}" in logcat(device, "ActivityTaskManager:I")
    out, code = device.shell("am start -n com.instagram.android/com.instagram.mainactivity.LauncherActivity")
    assert code == 0, out
    assert selected_tab(device) == "feed"


@pytest.mark.parametrize("tab, page_id", [
    ("search", "action_bar_search_edit_text"), ("clips", "clips_video_container"),
    ("profile", "profile_header_edit_profile_button"), ("feed", "row_feed_photo_imageview")])
def test_each_tab_shows_its_page(tab, page_id):
    device = instagram()
    tap(device, "profile_tab" if tab == "feed" else "feed_tab")
    tap(device, f"{tab}_tab")
    assert selected_tab(device) == tab
    assert nodes(device.dump_hierarchy(), resource_id=G + page_id)


def test_profile_shows_the_account_and_back_returns_to_the_feed():
    device = instagram()
    tap(device, "profile_tab")
    xml = device.dump_hierarchy()
    assert nodes(xml, resource_id=G + "action_bar_title")[0].get("text") == "bmoca.tester"
    assert nodes(xml, resource_id=G + "row_profile_header_textview_followers_count")[0].get(
        "text") == "128"
    device.press("back")
    assert selected_tab(device) == "feed"
    device.press("back")
    assert not nodes(device.dump_hierarchy(), resource_id=G + "tab_bar")  # left the app


def test_the_create_tab_does_not_take_the_selection():
    device = instagram()
    tap(device, "creation_tab")
    assert selected_tab(device) == "feed"


@pytest.mark.parametrize("config, home, profile, edit", [
    ("test_env_100", "Home", "Profile", "Edit profile"),           # en-US
    ("train_env_028", "ホーム", "プロフィール", "プロフィールを編集"),    # ja-JP
    ("test_env_105", "홈", "프로필", "프로필 편집"),                  # ko-KR
    ("test_env_109", "الرئيسية", "الملف الشخصي", "تعديل الملف الشخصي"),  # ar-EG, right to left
])
def test_labels_in_latin_cjk_and_arabic_and_rtl_mirroring(config, home, profile, edit):
    device = instagram(config)
    xml = device.dump_hierarchy()
    assert nodes(xml, resource_id=G + "feed_tab")[0].get("content-desc") == home
    assert nodes(xml, resource_id=G + "profile_tab")[0].get("content-desc") == profile
    assert nodes(xml, resource_id=G + "title_logo")[0].get("text") == "Instagram"  # brand
    width, _ = device.screen_size()
    feed = bounds(nodes(xml, resource_id=G + "feed_tab")[0])
    me = bounds(nodes(xml, resource_id=G + "profile_tab")[0])
    rtl = config == "test_env_109"
    assert (feed[0] > me[0]) is rtl
    assert (feed[2] == width) is rtl and (me[0] == 0) is rtl
    tap(device, "profile_tab")
    button = nodes(device.dump_hierarchy(), resource_id=G + "profile_header_edit_profile_button")
    assert button[0].get("text") == edit


@pytest.mark.parametrize("config", ["test_env_100", "train_env_025", "test_env_109"])
def test_light_and_dark(config):
    shots = []
    for mode in ("no", "yes"):
        device = bmoca.device.connect("sim", config=bmoca.configs.get(config))
        out, code = device.shell(f"cmd uimode night {mode}")
        assert code == 0, out
        device.shell(f"am start -n {ALIAS}")
        tap(device, "profile_tab")
        shots.append(device.screenshot().astype(int))
    light, dark = shots
    h = light.shape[0]
    row = int(h * 0.08)  # the profile's action bar: white in light mode, black in dark mode
    assert light[row].mean() > 200 and dark[row].mean() < 60
    assert np.abs(light - dark).mean() > 50


def test_reels_are_dark_in_the_light_theme():
    device = instagram()
    tap(device, "clips_tab")
    shot = device.screenshot().astype(int)
    tab_bar = bounds(nodes(device.dump_hierarchy(), resource_id=G + "tab_bar")[0])
    assert shot[(tab_bar[1] + tab_bar[3]) // 2, 5].mean() < 30


def test_an_overfull_reels_row_squeezes_its_last_view_at_700_dpi():
    """Urdu at 700 dpi: avatar, author and Follow are wider than the row; as Android's
    LinearLayout, the last view gets what the others left (its label wraps) instead of
    sticking out of the row."""
    from bmoca.sim.render.layout_check import check_device

    device = instagram("test_env_108")
    tap(device, "clips_tab")
    follow = nodes(device.dump_hierarchy(), text="فالو کریں")[0]
    row = follow.getparent()
    assert bounds(row)[0] <= bounds(follow)[0] and bounds(follow)[2] <= bounds(row)[2]
    assert check_device(device) == []



# -- the tasks ------------------------------------------------------------------------------

@pytest.mark.parametrize("task_id", ALL_INSTAGRAM)
@pytest.mark.parametrize("config", ["test_env_100", "test_env_108"])
def test_the_expert_passes_each_task(pool, task_id, config):
    """test_env_100 has Instagram on the home screen; test_env_108 (ur-PK) only in the drawer."""
    info = run_expert(pool, task_id, config)
    assert info["success"], info.get("detector")


NEAR_MISS = {
    "open_Instagram": ["profile_tab"],                  # opened, but left on another tab
    "go_to_my_profile_in_Instagram": ["clips_tab"],     # Reels instead of Profile
    "go_to_reels_tab_in_Instagram": ["search_tab"],     # Search instead of Reels
    "go_to_search_tab_in_Instagram": ["profile_tab", "feed_tab"],  # there and back
}


@pytest.mark.parametrize("task_id", ALL_INSTAGRAM)
def test_each_task_is_not_done_at_reset_and_a_near_miss_fails_it(task_id):
    task = tasks.get(task_id)
    device = bmoca.device.connect("sim", config=bmoca.configs.get("test_env_100"))
    start = task.initialize(device)
    assert task.is_successful(device, start).ok is False
    device.shell(f"am start -n {ALIAS}")
    for name in NEAR_MISS[task_id.split("/", 1)[1]]:
        tap(device, name)
    verdict = task.is_successful(device, start)
    assert verdict.ok is False, verdict.trace


def test_open_then_home_is_not_open():
    task = tasks.get("instagram/open_Instagram")
    device = bmoca.device.connect("sim", config=bmoca.configs.get("test_env_100"))
    start = task.initialize(device)
    device.shell(f"am start -n {ALIAS}")
    device.press("home")
    assert task.is_successful(device, start).ok is False


def test_other_right_paths():
    """Profile by way of Reels, back to the feed with BACK, and a launch from the shell's
    monkey (the launcher intent) all count."""
    profile = tasks.get("instagram/go_to_my_profile_in_Instagram")
    opened = tasks.get("instagram/open_Instagram")
    device = bmoca.device.connect("sim", config=bmoca.configs.get("test_env_100"))
    start = profile.initialize(device)
    device.shell("monkey -p com.instagram.android -c android.intent.category.LAUNCHER 1")
    assert opened.is_successful(device, start).ok is True
    tap(device, "clips_tab")
    tap(device, "profile_tab")
    assert profile.is_successful(device, start).ok is True
    device.press("back")
    assert opened.is_successful(device, start).ok is True


def test_a_story_avatar_cut_by_the_screen_edge_stays_round_in_a_gradient_ring():
    """The last story in the row runs off the screen's right edge: what shows of it is the
    clipped circle (white above its shoulder, not a square corner of avatar colour), and
    the unseen-story ring runs Instagram's gradient (orange at the bottom-left, purple at
    the top-right), not one colour."""
    device = launch(ALIAS, "train_env_002")
    xml = device.dump_hierarchy()
    image = device.screenshot().astype(int)
    width = image.shape[1]
    rings = [bounds(n) for n in nodes(xml, **{"class": "android.widget.ImageView"})
             if bounds(n)[3] - bounds(n)[1] == 198]  # 72 dp at 440 dpi: the ringed stories
    assert len(rings) >= 2
    left, top, right, bottom = rings[-1]
    assert right == width  # cut by the screen edge
    corner = image[top + 3, width - 3]
    assert corner.min() > 240, corner  # the row's white background
    middle = image[(top + bottom) // 2, left + 40]
    assert middle.max() - middle.min() > 60  # the avatar's colour further in
    left, top, right, bottom = rings[0]
    r = (right - left) / 2
    d = int(r * 0.7071) - 3  # on the ring, at 45 degrees
    cx, cy = (left + right) // 2, (top + bottom) // 2
    bottom_left, top_right = image[cy + d, cx - d], image[cy - d, cx + d]
    assert bottom_left[1] > top_right[1] + 40  # yellow-orange (more green) ...
    assert top_right[2] > bottom_left[2] + 60  # ... to purple (more blue)

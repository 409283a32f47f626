"""`bmoca ui` in a real browser: Chromium from Debian's packages, driven by Playwright.

The page is opened, settings/turn_on_airplane_mode is played by clicking the rendered
screen to success and recorded (twice, from one tab), the recording is found in the
demonstrations list, a stored run's episode is opened and stepped through, and bad
requests show their message in the page. One server and one browser serve the module.

Playwright never downloads a browser here: it launches the system Chromium
(`BMOCA_CHROMIUM`, else `chromium` or `chromium-browser` on PATH); without one the module
skips, saying so in one line.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import threading
import time

import pytest

pytest.importorskip("fastapi", reason="needs the ui extra: pip install 'bmoca[ui]'")
sync_api = pytest.importorskip("playwright.sync_api",
                               reason="needs playwright: pip install playwright")
CHROMIUM = os.environ.get("BMOCA_CHROMIUM") or shutil.which("chromium") or shutil.which(
    "chromium-browser")
if not CHROMIUM:
    pytest.skip("no Chromium found (apt-get install chromium, or set BMOCA_CHROMIUM)",
                allow_module_level=True)

import uvicorn  # noqa: E402
from ui_fixtures import CONFIG, TASK, expert_taps  # noqa: E402

from bmoca import tasks  # noqa: E402
from bmoca.ui.app import create_app  # noqa: E402

expect = sync_api.expect
SHOTS = os.environ.get("BMOCA_UI_SCREENSHOTS")
"""A directory to save one screenshot of each page into (how docs/ui-*.png are made)."""


WIDE = [f"train_env_{n:03d}" for n in range(40)]
"""Configurations of a run whose task x configuration table is wider than a window."""


def wide_run(run_dir):
    """A finished run of one task on 40 configurations (stored, not played: only its table
    matters)."""
    from bmoca.eval.store import FILENAME, Store

    run_dir.mkdir(parents=True)
    with Store(run_dir / FILENAME) as store:
        store.start_run("wide", "random", {"tasks": [TASK], "configs": WIDE, "repeats": 1})
        for n, config in enumerate(WIDE):
            episode = store.begin_episode("wide", "random", TASK, config, 0, n)
            store.finish_episode(episode, success=n % 2 == 0, steps=3, invalid_actions=0,
                                 reward=0.0, terminated=False, truncated=True,
                                 detector_trace=[], wall_s=0.1, reset_s=0.01)
    return run_dir


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from bmoca.eval.evaluate import evaluate
    from bmoca.eval.store import FILENAME, Store

    root = tmp_path_factory.mktemp("ui")
    run_dir = root / "runs" / "expert-airplane"
    run_dir.mkdir(parents=True)
    with Store(run_dir / FILENAME) as store:
        evaluate(store, "expert-airplane", "expert", [tasks.get(TASK)],
                 [CONFIG, "train_env_030"], 1, save_screens=True)
    wide_run(root / "runs" / "wide")
    (root / "runs" / "going").mkdir()
    with Store(root / "runs" / "going" / FILENAME) as store:  # a run still being played
        store.start_run("going", "random", {"tasks": [TASK], "configs": [CONFIG], "repeats": 2})
        store.begin_episode("going", "random", TASK, CONFIG, 0, 1)
    app = create_app(demos=root / "demos", runs=root / "runs")
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    instance = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=instance.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not instance.started:
        time.sleep(0.05)
    yield app, f"http://127.0.0.1:{sock.getsockname()[1]}/", root
    instance.should_exit = True
    thread.join(timeout=30)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM,
                                     args=["--no-sandbox", "--disable-gpu"])
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.set_default_timeout(20000)
    yield page
    context.close()


def shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"ui-{name}.png"))


def start(page, url: str, config: str = CONFIG) -> None:
    page.goto(url + "#play")
    expect(page.locator(f'#task option[value="{TASK}"]')).to_have_count(1)
    page.select_option("#task", TASK)
    page.fill("#config", config)
    page.click("#start")


def click_screen(page, x: int, y: int, width: int = 1080, height: int = 2160) -> None:
    """Click the rendered screen where the phone's pixel (x, y) is shown."""
    box = page.locator("#screen").bounding_box()
    page.mouse.click(box["x"] + (x + 0.5) * box["width"] / width,
                     box["y"] + (y + 0.5) * box["height"] / height)


def shown_screen_is_the_phones(page, app) -> bool:
    """Whether the screen the page shows is the phone's current frame: the mean grey of
    each of 16 horizontal bands of the displayed image against the server's PNG."""
    import io

    import numpy as np
    from PIL import Image

    img = page.locator("#screen")
    expect(img).to_have_js_property("complete", True)
    phone_id = re.search(r"/api/phones/(\w+)/", img.get_attribute("src")).group(1)
    with app.state.sessions.use(phone_id) as phone:
        png = phone.screens[-1]
    grey = np.asarray(Image.open(io.BytesIO(png)).convert("L"), dtype=float)
    edges = [k * grey.shape[0] // 16 for k in range(17)]
    expected = [grey[a:b].mean() for a, b in zip(edges[:-1], edges[1:], strict=True)]
    shown = img.evaluate("""i => {
        const c = document.createElement("canvas");
        c.width = i.naturalWidth; c.height = i.naturalHeight;
        const g = c.getContext("2d");
        g.drawImage(i, 0, 0);
        const d = g.getImageData(0, 0, c.width, c.height).data;
        const sums = new Array(16).fill(0), counts = new Array(16).fill(0);
        const edges = [...Array(17).keys()].map((k) => Math.floor(k * c.height / 16));
        for (let band = 0; band < 16; band++) {
          for (let y = edges[band]; y < edges[band + 1]; y++) {
            for (let x = 0; x < c.width; x++) {
              const o = (y * c.width + x) * 4;
              sums[band] += 0.299 * d[o] + 0.587 * d[o + 1] + 0.114 * d[o + 2];
              counts[band] += 1;
            }
          }
        }
        return sums.map((s, k) => s / counts[k]);
    }""")
    return max(abs(a - b) for a, b in zip(shown, expected, strict=True)) < 3


def test_play_by_clicks_to_success_record_and_find_it_in_the_demonstrations(server, page):
    _app, url, root = server
    start(page, url)
    expect(page.locator("#steps")).to_have_text("Step 0 / 6")
    box = page.locator("#screen").bounding_box()
    assert abs(box["height"] / box["width"] - 2160 / 1080) < 0.01  # the real aspect ratio
    taps = expert_taps()
    for recording in range(2):
        for n, tap in enumerate(taps, 1):
            click_screen(page, tap["x"], tap["y"])
            expect(page.locator("#steps")).to_have_text(f"Step {n} / 6")
        expect(page.locator("#outcome")).to_have_text("success")
        # the last action as the benchmark's action space has it
        expect(page.locator("#last-action")).to_contain_text('"action_type":"click"')
        expect(page.locator("#discrete-index")).to_have_text(re.compile(r"^\d+$"))
        page.mouse.move(box["x"] + box["width"] * 0.5, box["y"] + box["height"] * 0.404)  # over "Airplane mode"
        expect(page.locator("#inspector")).to_contain_text("android:id/title")
        if recording == 0:
            shot(page, "play")
        page.click("#record")
        expect(page.locator("#saved")).to_have_text(f"recorded as demonstration {recording}")
        page.click("#reset")
        expect(page.locator("#steps")).to_have_text("Step 0 / 6")
        assert shown_screen_is_the_phones(page, _app)
    page.click("#nav-demos")
    rows = page.locator("#demos-table tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.first).to_contain_text(TASK)
    expect(rows.first).to_contain_text("human")
    expect(rows.first.locator("img")).to_have_js_property("complete", True)
    shot(page, "demos")
    from bmoca import demos

    assert [d.human for d in demos.load(root / "demos").episodes] == [True, True]


def test_bad_requests_show_their_message_in_the_page(server, page):
    app, url, _root = server
    start(page, url, config="train_env_999")
    expect(page.locator("#error")).to_be_visible()
    expect(page.locator("#error-text")).to_contain_text("unknown configuration 'train_env_999'")
    page.click("#nav-runs")  # the message was about the play view: switching views clears it
    expect(page.locator("#error")).to_be_hidden()
    start(page, url)
    expect(page.locator("#steps")).to_have_text("Step 0 / 6")
    expect(page.locator("#error")).to_be_hidden()
    for phone_id in app.state.sessions.ids():  # as the idle sweep would
        app.state.sessions.close(phone_id, "released after 900 s idle")
    click_screen(page, 540, 1000)
    expect(page.locator("#error-text")).to_contain_text("released after 900 s idle; start a new one")
    expect(page.locator("#steps")).to_have_text("Step 0 / 6")


def test_a_run_in_progress_updates_live(server, page):
    from bmoca.eval.store import FILENAME, Store

    _app, url, root = server
    page.goto(url + "#runs")
    going = page.locator("#runs-table tbody tr", has_text="going")
    expect(going).to_contain_text("0 / 2 (1 running)")
    with Store(root / "runs" / "going" / FILENAME) as store:  # as the runner stores an episode
        episode_id = store.episodes()[0].episode_id
        store.finish_episode(episode_id, success=False, steps=6, invalid_actions=0, reward=0.0,
                             terminated=False, truncated=True, detector_trace=[], wall_s=0.1,
                             reset_s=0.01)
    expect(going).to_contain_text("1 / 2", timeout=10000)
    expect(going).not_to_contain_text("running")


def test_a_stored_runs_episode_is_opened_and_stepped_through(server, page):
    _app, url, _root = server
    page.goto(url + "#runs")
    run = page.locator("#runs-table tbody tr", has_text="expert-airplane")
    expect(run).to_contain_text("2 / 2")
    expect(run).to_contain_text("100%")
    shot(page, "runs")
    run.locator("a").click()
    episodes = page.locator("#episodes-table tbody tr")
    expect(episodes).to_have_count(2)
    expect(page.locator("#run-tables")).to_contain_text(TASK)
    page.select_option("#filter-config", "train_env_030")
    expect(episodes).to_have_count(1)
    page.select_option("#filter-status", "fail")
    expect(episodes).to_have_count(0)
    page.select_option("#filter-status", "success")
    expect(episodes).to_have_count(1)
    shot(page, "run")
    episodes.first.locator("a").click()
    expect(page.locator("#episode-title")).to_contain_text(TASK)
    expect(page.locator("#step-label")).to_contain_text("Step 0: click(")
    expect(page.locator("#episode-shot img")).to_have_js_property("complete", True)
    assert page.locator("#episode-shot img").evaluate("i => i.naturalWidth") > 0
    expect(page.locator("#episode-shot svg circle")).to_have_count(1)  # the tap, drawn
    expect(page.locator("#prev-step")).to_be_disabled()
    shot(page, "episode")
    page.click("#next-step")
    expect(page.locator("#step-label")).to_contain_text("Step 1: click(")
    page.click("#next-step")
    page.click("#next-step")
    expect(page.locator("#step-of")).to_have_text("final screen")
    expect(page.locator("#next-step")).to_be_disabled()
    with page.context.expect_page() as report_tab:
        page.click("#episode-report")
    report = report_tab.value
    expect(report.locator("h1")).to_contain_text(TASK)
    expect(report.locator(".shot img").first).to_have_js_property("complete", True)
    assert report.locator(".shot img").first.evaluate("i => i.naturalWidth") > 0


def test_after_a_reset_the_screen_shown_is_the_new_episodes(server, page):
    """Frame numbers restart at 0 on reset; the browser caches screens for an hour, so an
    episode's frame 1 must not be shown from the last episode's frame 1."""
    app, url, _root = server
    start(page, url)
    expect(page.locator("#steps")).to_have_text("Step 0 / 6")
    taps = expert_taps()
    for n, tap in enumerate(taps, 1):  # a recorded demonstration
        click_screen(page, tap["x"], tap["y"])
        expect(page.locator("#steps")).to_have_text(f"Step {n} / 6")
        assert shown_screen_is_the_phones(page, app)
    page.click("#record")
    expect(page.locator("#saved")).to_have_text(re.compile("recorded as demonstration"))
    page.click("#reset")
    expect(page.locator("#steps")).to_have_text("Step 0 / 6")
    assert shown_screen_is_the_phones(page, app)
    page.click("#key-home")  # this episode's frame 1 is the home screen, not Settings
    expect(page.locator("#steps")).to_have_text("Step 1 / 6")
    expect(page.locator("#last-action")).to_contain_text("navigate_home")
    assert shown_screen_is_the_phones(page, app)
    page.click("#key-back")
    expect(page.locator("#steps")).to_have_text("Step 2 / 6")
    assert shown_screen_is_the_phones(page, app)


def test_the_inspector_shows_a_switchs_state_after_the_step(server, page):
    _app, url, _root = server
    start(page, url)
    expect(page.locator("#steps")).to_have_text("Step 0 / 6")
    taps = expert_taps()
    for n, tap in enumerate(taps[:2], 1):
        click_screen(page, tap["x"], tap["y"])
        expect(page.locator("#steps")).to_have_text(f"Step {n} / 6")
    switch = taps[2]  # the airplane mode switch
    inspector = page.locator("#inspector")
    click_screen(page, switch["x"], switch["y"])  # the pointer rests on the switch
    expect(page.locator("#steps")).to_have_text("Step 3 / 6")
    expect(inspector).to_contain_text("android:id/switch_widget")
    expect(inspector.locator("tr", has_text="checked")).to_contain_text("true")
    expect(inspector.locator("tr", has_text="text")).to_contain_text("ON")
    page.click("#reset")  # the pointer is elsewhere: the last point is refreshed too
    expect(page.locator("#steps")).to_have_text("Step 0 / 6")
    expect(inspector).not_to_contain_text("android:id/switch_widget")


def test_the_task_picker_searches_ids_apps_and_instructions(server, page):
    _app, url, _root = server
    every = tasks.all_tasks()

    def matching(query: str) -> list[str]:
        words = query.lower().split()
        return [t.id for t in every
                if all(w in f"{t.id} {t.app} {t.goal}".lower() for w in words)]

    page.goto(url + "#play")
    options = page.locator("#task option")
    expect(options).to_have_count(len(every))
    expect(page.locator("#task-count")).to_have_text(f"{len(every)} tasks")
    search = page.get_by_label("Search tasks")
    for query in ["airplane", "CALCULATOR", "trash the", "alarm weekend"]:
        search.fill(query)
        wanted = matching(query)
        assert wanted, query
        expect(options).to_have_count(len(wanted))
        assert options.evaluate_all("os => os.map((o) => o.value)") == wanted
        expect(page.locator("#task-count")).to_have_text(
            f"{len(wanted)} of {len(every)} tasks match")
    assert "photos/go_to_trash_page_in_photo" in matching("trash the")  # 'the': its goal only
    search.fill("no such task zzz")
    expect(options).to_have_count(0)
    expect(page.locator("#start")).to_be_disabled()
    # by keyboard: type into the search, arrow down into the list, Enter starts the phone
    search.fill("")
    search.focus()
    page.keyboard.type("airplane mode on")
    first = matching("airplane mode on")[0]
    expect(page.locator("#task")).to_have_value(first)
    page.keyboard.press("ArrowDown")
    expect(page.locator("#task")).to_be_focused()
    search.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#goal")).to_contain_text(first)
    expect(page.locator("#steps")).to_have_text(re.compile(r"^Step 0 / \d+$"))


def test_a_wide_success_table_scrolls_in_its_box_not_the_window(server, browser):
    """The report's and the run view's task x configuration table of 40 configurations:
    the page stays within a 1280-px window; the table scrolls in its own box."""
    from bmoca.eval import report

    _app, url, root = server
    built = report.build(root / "runs" / "wide", root / "wide-report", with_plots=False)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        for target, box in [(built.html.as_uri(), "div.wide"), (url + "#runs/wide", "#run-tables .wide")]:
            page.goto(target)
            wide = page.locator(box).filter(has_text="train_env_039").first
            expect(wide).to_be_visible()
            assert page.evaluate("document.documentElement.scrollWidth") <= 1280, target
            assert wide.evaluate("d => d.scrollWidth > d.clientWidth"), target  # it scrolls
    finally:
        context.close()


HOSTILE = '"><img src=x onerror="window.__pwned=1;alert(1)">'
"""Markup a tampered store may hold where the page expects a number or a word."""


@pytest.mark.reliability
def test_a_tampered_stores_values_are_shown_as_text_never_run(server, page):
    """Stored values (a step's gesture and screen size) go into the page as text: a store
    edited to hold markup creates no element and runs nothing; markup where a number
    belongs (an episode's repeat) makes the store refuse the cell, and such a store and a
    damaged one are named, as text, under the runs."""
    import json
    import shutil
    import sqlite3

    from bmoca.eval.store import FILENAME

    _app, url, root = server
    tampered = root / "runs" / "tampered"
    shutil.copytree(root / "runs" / "expert-airplane", tampered)
    db = sqlite3.connect(tampered / FILENAME)
    with db:
        episode_id = db.execute("SELECT min(episode_id) FROM episodes").fetchone()[0]
        db.execute("UPDATE steps SET info=? WHERE episode_id=? AND step=0", (json.dumps(
            {"gesture": [{"tap": [HOSTILE, 5]}, {"swipe": [1, 2, 3, HOSTILE]}, HOSTILE],
             "screen_size": [f"1080{HOSTILE}", 2160]}), episode_id))
        db.execute("UPDATE steps SET info=? WHERE episode_id=? AND step=1", (json.dumps(
            {"gesture": HOSTILE, "screen_size": [1080, 2160]}), episode_id))
    db.close()
    # markup where a number belongs: the store refuses the cell, the run is listed damaged
    numbers = root / "runs" / "numbers"
    shutil.copytree(root / "runs" / "expert-airplane", numbers)
    with sqlite3.connect(numbers / FILENAME) as db:
        db.execute("UPDATE episodes SET repeat=?", (HOSTILE,))
    damaged = root / "runs" / f"damaged{HOSTILE[:14]}"  # a name with markup, too
    damaged.mkdir()
    (damaged / FILENAME).write_bytes(b"this is not a database")
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    try:
        page.goto(url + "#runs")
        listed = page.locator("#runs-damaged li")
        expect(listed.filter(has_text=f"damaged{HOSTILE[:14]}:")).to_contain_text(
            "damaged, not listed")
        expect(listed.filter(has_text="numbers:")).to_contain_text("should be an integer")
        page.goto(url + f"#runs/tampered/{episode_id}")
        expect(page.locator("#step-label")).to_contain_text("Step 0: click(")
        expect(page.locator("#episode-shot img")).to_have_count(1)  # the screenshot only
        page.click("#next-step")
        expect(page.locator("#step-label")).to_contain_text("Step 1: click(")
        page.wait_for_timeout(300)  # an injected image's error event would have fired
        assert page.locator("img[src=x]").count() == 0
        assert page.evaluate("window.__pwned") is None and dialogs == []
    finally:
        shutil.rmtree(tampered)
        shutil.rmtree(numbers)
        shutil.rmtree(damaged)

"""`bmoca ui` without a browser: the JSON API over a real app, real phones, a real run.

Gestures become the benchmark's JSON actions and are played to success; a recorded human
episode reads back with `bmoca.demos.load`; every bad request is one JSON line with a
fitting status; idle phones are released; the token guards a server beyond loopback; runs
are listed, tabulated, filtered and stepped through from their store. (The page itself is
driven in Chromium by test_ui_browser.py.)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

pytest.importorskip("fastapi", reason="needs the ui extra: pip install 'bmoca[ui]'")
pytest.importorskip("httpx", reason="fastapi's TestClient needs httpx")

from fastapi.testclient import TestClient  # noqa: E402
from ui_fixtures import CONFIG, TASK, expert_taps  # noqa: E402

from bmoca import demos, tasks  # noqa: E402
from bmoca.ui.app import create_app  # noqa: E402
from bmoca.ui.errors import UiError  # noqa: E402
from bmoca.ui.phone import to_action  # noqa: E402
from bmoca.ui.sessions import Sessions  # noqa: E402


@pytest.fixture(scope="module")
def run_root(tmp_path_factory):
    """A runs directory with one finished expert run (screens saved) and one in progress."""
    from bmoca.eval.evaluate import evaluate
    from bmoca.eval.store import FILENAME, Store

    root = tmp_path_factory.mktemp("runs")
    (root / "expert-air").mkdir()
    with Store(root / "expert-air" / FILENAME) as store:
        evaluate(store, "expert-air", "expert", [tasks.get(TASK)], [CONFIG, "train_env_001"], 1,
                 save_screens=True)
    (root / "going").mkdir()
    with Store(root / "going" / FILENAME) as store:
        store.start_run("going", "random", {"tasks": [TASK], "configs": [CONFIG], "repeats": 2})
        store.begin_episode("going", "random", TASK, CONFIG, 0, 1)
    return root


@pytest.fixture
def client(tmp_path, run_root):
    app = create_app(demos=tmp_path / "demos", runs=run_root)
    with TestClient(app, base_url="http://127.0.0.1") as c:
        yield c


def error_of(response, status: int) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and "\n" not in body["error"]
    assert "Traceback" not in body["error"]
    return body["error"]


def open_phone(client, **body) -> dict:
    response = client.post("/api/phones", json={"task": TASK, "config": CONFIG, **body})
    assert response.status_code == 200, response.text
    return response.json()


def test_gestures_map_to_the_benchmarks_json_actions():
    w, h = 1080, 2160
    assert to_action({"gesture": "tap", "x": 10, "y": 20}, w, h) == {
        "action_type": "click", "x": 10, "y": 20}
    assert to_action({"gesture": "long_press", "x": 5, "y": 6}, w, h)["action_type"] == "long_press"
    # content follows the finger: a drag up scrolls down, a drag left scrolls right
    assert to_action({"gesture": "drag", "x1": 540, "y1": 1500, "x2": 540, "y2": 600}, w, h) == {
        "action_type": "scroll", "direction": "down"}
    assert to_action({"gesture": "drag", "x1": 900, "y1": 900, "x2": 100, "y2": 950}, w, h) == {
        "action_type": "scroll", "direction": "right"}
    # from the status bar down: the notification shade's swipe; a tiny drag is a tap
    assert to_action({"gesture": "drag", "x1": 540, "y1": 10, "x2": 540, "y2": 900}, w, h) == {
        "action_type": "swipe", "direction": "down"}
    assert to_action({"gesture": "drag", "x1": 100, "y1": 100, "x2": 105, "y2": 103}, w, h) == {
        "action_type": "click", "x": 100, "y": 100}
    assert to_action({"gesture": "key", "key": "recents"}, w, h) == {
        "action_type": "navigate_recents"}
    assert to_action({"gesture": "text", "text": "hi"}, w, h) == {
        "action_type": "input_text", "text": "hi"}
    for bad, words in [({"gesture": "tap", "x": 1080, "y": 5}, "outside the screen (0 <= x < 1080"),
                       ({"gesture": "tap", "x": "1", "y": 5}, "must be a number"),
                       ({"gesture": "pinch"}, "valid: tap, long_press, drag, text, key"),
                       ({"gesture": "key", "key": "menu"}, "valid: back, home, recents, enter"),
                       ({"gesture": "text", "text": ""}, "non-empty")]:
        with pytest.raises(UiError, match=None) as info:
            to_action(bad, w, h)
        assert words in str(info.value)


def test_a_task_played_by_taps_to_success_is_recorded_as_a_human_demonstration(client, tmp_path):
    state = open_phone(client)
    assert (state["width"], state["height"], state["step"], state["step_limit"]) == (1080, 2160, 0, 6)
    assert state["success"] is False and any(n["resource_id"] for n in state["nodes"])
    assert state["episode"] == 0 and state["frame"] == 0
    png = client.get(f"/api/phones/{state['phone']}/screen/0/0.png")
    assert png.status_code == 200 and png.content.startswith(b"\x89PNG")
    # recording before success is refused, with the reason
    assert "nothing to record" in error_of(client.post(f"/api/phones/{state['phone']}/record"), 400)
    for record_round in range(2):  # a session records several episodes in a row
        for gesture in expert_taps():
            state = client.post(f"/api/phones/{state['phone']}/act", json=gesture).json()
            if state["step"] == 1:
                assert "only successful episodes" in error_of(
                    client.post(f"/api/phones/{state['phone']}/record"), 409)
            action = state["action"]
            assert action["json_action"] == {"action_type": "click", "x": gesture["x"],
                                              "y": gesture["y"]}
            assert isinstance(action["discrete"], int) and action["text_action"].startswith("tap(")
        assert state["success"] and state["ended"] == "terminated" and state["step"] == 3
        assert "episode has ended" in error_of(client.post(
            f"/api/phones/{state['phone']}/act", json=expert_taps()[0]), 409)
        saved = client.post(f"/api/phones/{state['phone']}/record").json()["saved"]
        assert saved == {"number": record_round, "repeat": record_round,
                         "dataset": str(tmp_path / "demos")}
        assert "already recorded" in error_of(client.post(f"/api/phones/{state['phone']}/record"), 409)
        state = client.post(f"/api/phones/{state['phone']}/reset").json()
        assert state["step"] == 0 and state["recorded"] is None
        # a new episode's screens have new URLs: the cached frames of the last one are not it
        assert (state["episode"], state["frame"]) == (record_round + 1, 0)
        assert "episode 0's screens are gone" in error_of(
            client.get(f"/api/phones/{state['phone']}/screen/0/0.png"), 404)
    data = demos.load(tmp_path / "demos")
    assert data.manifest["play"] == "human" and data.manifest["episodes"] == 2
    first = data.episodes[0]
    assert first.human and first.success and first.task_id == TASK and first.config_id == CONFIG
    assert [s.json_action for s in first.steps] == [
        {"action_type": "click", "x": g["x"], "y": g["y"]} for g in expert_taps()]
    assert first.steps[-1].terminated and first.steps[-1].reward == 1.0
    assert all(data.screenshot_path(s).is_file() for s in first.steps)
    assert (tmp_path / "demos" / first.final_screenshot).is_file()
    script = "import sys; sys.argv[0] = 'bmoca'; from bmoca.cli.main import main; main()"
    listing = subprocess.run([sys.executable, "-c", script, "demos", "list", "--data",
                              str(tmp_path / "demos"), "--json"], capture_output=True, text=True,
                             timeout=120)
    assert [(r["task"], r["steps"], r["played_by"]) for r in json.loads(listing.stdout)] == [
        (TASK, 3, "human")] * 2
    listed = client.get("/api/demos").json()["episodes"]
    assert [(e["number"], e["human"]) for e in listed] == [(1, True), (0, True)]
    assert client.get(f"/demos/files/{listed[0]['final_screenshot']}").content.startswith(b"\x89PNG")
    assert "have no file" in error_of(client.get("/demos/files/%2e%2e/%2e%2e/etc/passwd"), 404)


@pytest.mark.reliability
def test_bad_requests_are_one_json_line_never_a_traceback(client):
    assert "unknown task id 'nope'" in error_of(
        client.post("/api/phones", json={"task": "nope"}), 404)
    assert "unknown configuration 'train_env_999'" in error_of(
        client.post("/api/phones", json={"task": TASK, "config": "train_env_999"}), 404)
    assert "valid: task, config, seed, locale, dark" in error_of(
        client.post("/api/phones", json={"task": TASK, "colour": "red"}), 400)
    assert "locale" in error_of(client.post("/api/phones", json={"task": TASK, "locale": "xx"}), 400)
    state = open_phone(client)
    phone = state["phone"]
    assert "outside the screen" in error_of(
        client.post(f"/api/phones/{phone}/act", json={"gesture": "tap", "x": -1, "y": 5}), 400)
    assert client.get(f"/api/phones/{phone}").json()["step"] == 0  # a refused click is no step
    assert "JSON decode error" in error_of(client.post(
        f"/api/phones/{phone}/act", content=b"{", headers={"content-type": "application/json"}), 400)
    assert "no frame 9" in error_of(client.get(f"/api/phones/{phone}/screen/0/9.png"), 404)
    assert "no phone 'nope'" in error_of(client.get("/api/phones/nope"), 404)
    assert client.delete(f"/api/phones/{phone}").json() == {"phone": phone, "closed": True}
    assert "was closed; start a new one" in error_of(
        client.post(f"/api/phones/{phone}/act", json={"gesture": "key", "key": "home"}), 410)
    assert "no such page or API: /api/nothing" == error_of(client.get("/api/nothing"), 404)


def test_a_derived_configuration_names_its_change(client):
    state = open_phone(client, locale="de", dark=True)
    assert state["config"] == f"{CONFIG}+de-DE+dark"


def test_idle_phones_are_released_and_say_so():
    now = [0.0]
    sessions = Sessions(idle_s=60, max_phones=2, clock=lambda: now[0])
    first, _ = sessions.open(TASK, CONFIG)
    now[0] = 50
    second, _ = sessions.open(TASK, CONFIG)
    with pytest.raises(UiError, match="2 phones are open") as full:
        sessions.open(TASK, CONFIG)
    assert full.value.status == 429
    now[0] = 100  # the first has been idle 100 s, the second 50 s
    assert sessions.release_idle() == [first]
    with pytest.raises(UiError, match="released after 60 s idle; start a new one") as gone:
        with sessions.use(first):
            pass
    assert gone.value.status == 410
    with sessions.use(second) as phone:
        assert phone.state()["step"] == 0
    sessions.close_all()
    assert sessions.ids() == []


def test_the_server_releases_idle_phones_by_itself(tmp_path, run_root):
    import time

    app = create_app(demos=tmp_path / "demos", runs=run_root, idle_s=0.3, sweep_s=0.05)
    with TestClient(app, base_url="http://127.0.0.1") as c:
        phone = open_phone(c)["phone"]
        deadline = time.monotonic() + 20
        while app.state.sessions.ids() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert "released after 0.3 s idle; start a new one" in error_of(
            c.get(f"/api/phones/{phone}"), 410)


@pytest.mark.reliability
def test_a_damaged_store_is_listed_as_damaged_and_the_others_still_listed(tmp_path, run_root):
    import shutil

    from bmoca.eval.store import FILENAME

    shutil.copytree(run_root / "expert-air", tmp_path / "runs" / "expert-air")
    broken = tmp_path / "runs" / "broken"
    broken.mkdir(parents=True)
    (broken / FILENAME).write_bytes(b"this is not a database")
    with TestClient(create_app(demos=tmp_path / "demos", runs=tmp_path / "runs"),
                    base_url="http://127.0.0.1") as c:
        listing = c.get("/api/runs")
        assert listing.status_code == 200, listing.text
        assert [r["name"] for r in listing.json()["runs"]] == ["expert-air"]
        [damaged] = listing.json()["damaged"]
        assert damaged["name"] == "broken" and str(broken / FILENAME) in damaged["error"]
        assert "\n" not in damaged["error"]
        # the damaged run itself still answers with its one-line error
        assert str(broken / FILENAME) in error_of(c.get("/api/runs/broken"), 500)


@pytest.mark.reliability
def test_the_token_guards_a_server_beyond_loopback(tmp_path, run_root):
    app = create_app(demos=tmp_path / "demos", runs=run_root, token="s3cret")
    with TestClient(app, base_url="http://127.0.0.1") as c:
        assert "needs its token" in error_of(c.get("/api/tasks"), 401)
        assert "needs its token" in error_of(c.get("/api/tasks?token=wrong"), 401)
        page = c.get("/?token=s3cret")
        assert page.status_code == 200 and "bmoca ui" in page.text
        assert c.get("/api/tasks").status_code == 200  # the cookie the URL set
        c.cookies.clear()
        assert c.get("/api/tasks", headers={"X-Bmoca-Token": "s3cret"}).status_code == 200


def test_runs_are_listed_tabulated_filtered_and_stepped_through(client):
    runs = {r["name"]: r for r in client.get("/api/runs").json()["runs"]}
    assert runs["expert-air"]["finished"] == runs["expert-air"]["planned"] == 2
    assert runs["expert-air"]["success_rate"] == 1.0
    assert (runs["going"]["finished"], runs["going"]["planned"], runs["going"]["running"]) == (0, 2, 1)
    detail = client.get("/api/runs/expert-air").json()
    assert detail["tables"][0]["rows"] == [{"task": TASK, "rate": 1.0, "cells": [1.0, 1.0]}]
    assert len(detail["episodes"]) == 2
    only = client.get("/api/runs/expert-air", params={"config": "train_env_001"}).json()
    assert [e["config_id"] for e in only["episodes"]] == ["train_env_001"]
    assert client.get("/api/runs/expert-air", params={"status": "fail"}).json()["episodes"] == []
    assert "valid: success, fail, error, running" in error_of(
        client.get("/api/runs/expert-air", params={"status": "won"}), 400)
    episode_id = detail["episodes"][0]["episode_id"]
    episode = client.get(f"/api/runs/expert-air/episodes/{episode_id}").json()
    assert [s["label"] for s in episode["steps"]][0].startswith("click(")
    shot = episode["steps"][0]["screenshot"]
    assert client.get(f"/runs/expert-air/{shot}").content.startswith(b"\x89PNG")
    page = client.get(f"/runs/expert-air/report/episodes/{episode_id}.html")
    assert page.status_code == 200 and f'src="../../{shot}"' in page.text  # the report's page
    assert "no run 'nope'; runs: expert-air, going" in error_of(client.get("/api/runs/nope"), 404)
    assert "has no episode 999" in error_of(client.get("/api/runs/expert-air/episodes/999"), 404)
    assert "has no file" in error_of(client.get("/runs/expert-air/%2e%2e/%2e%2e/x"), 404)


def test_the_command_serves_on_loopback_and_refuses_bad_values(tmp_path):
    script = "import sys; sys.argv[0] = 'bmoca'; from bmoca.cli.main import main; main()"
    bad = subprocess.run([sys.executable, "-c", script, "ui", "--port", "70000"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "--port" in bad.stderr
    server = subprocess.Popen([sys.executable, "-c", script, "ui", "--port", "0", "--json",
                               "--demos", str(tmp_path / "d"), "--runs", str(tmp_path)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env={**os.environ})
    try:
        line = json.loads(server.stdout.readline())
        assert line["host"] == "127.0.0.1" and line["url"] == f"http://127.0.0.1:{line['port']}/"
        with urllib.request.urlopen(line["url"] + "api/runs", timeout=30) as response:
            assert json.load(response)["runs"] == []
        foreign = urllib.request.Request(line["url"] + "api/runs", headers={"Host": "evil.example"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(foreign, timeout=30)
        assert refused.value.code == 400 and "Host" in json.load(refused.value)["error"]
    finally:
        server.terminate()
        server.wait(timeout=30)


# -- hostile requests (issue 35) -----------------------------------------------------------

@pytest.mark.reliability
def test_a_foreign_host_header_is_refused_against_dns_rebinding(tmp_path, run_root):
    """A page of another site that rebinds its name to 127.0.0.1 sends its own name as
    `Host`; only loopback names (and an explicit `--host`) are served."""
    app = create_app(demos=tmp_path / "demos", runs=run_root)
    with TestClient(app, base_url="http://127.0.0.1") as c:
        for host in ("evil.example", "evil.example:8765", "127.0.0.1.evil.example",
                     "localhost.evil.example", "ui.lan", "[::1]evil.example",
                     "localhost:80:80", ""):
            assert "Host" in error_of(c.get("/api/tasks", headers={"Host": host}), 400)
            assert "Host" in error_of(c.post("/api/phones", json={"task": TASK},
                                             headers={"Host": host}), 400)
        assert app.state.sessions.ids() == []  # no phone was opened for the foreign page
        for host in ("localhost", "LOCALHOST:8765", "127.0.0.1:80", "[::1]", "[::1]:8765"):
            assert c.get("/api/tasks", headers={"Host": host}).status_code == 200, host
    listening = create_app(demos=tmp_path / "demos", runs=run_root, host="ui.lan")
    with TestClient(listening, base_url="http://ui.lan:8765") as c:
        assert c.get("/api/tasks").status_code == 200
        assert c.get("/api/tasks", headers={"Host": "localhost:8765"}).status_code == 200
        assert "Host" in error_of(c.get("/api/tasks", headers={"Host": "evil.example"}), 400)


@pytest.mark.reliability
def test_max_phones_holds_under_concurrent_opens(tmp_path, run_root):
    import threading

    app = create_app(demos=tmp_path / "demos", runs=run_root, max_phones=4)
    with TestClient(app, base_url="http://127.0.0.1") as c:
        go = threading.Barrier(12)
        statuses: list[int] = []

        def opener() -> None:
            go.wait()
            statuses.append(c.post("/api/phones", json={"task": TASK}).status_code)

        threads = [threading.Thread(target=opener) for _ in range(12)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        assert sorted(statuses) == [200] * 4 + [429] * 8
        assert len(app.state.sessions.ids()) == 4
    sessions = Sessions(max_phones=1)
    for _ in range(3):  # a phone that cannot be built gives its place back
        with pytest.raises(UiError, match="unknown task"):
            sessions.open("nope", CONFIG)
    sessions.open(TASK, CONFIG)
    sessions.close_all()


@pytest.mark.reliability
def test_a_lone_surrogate_typed_is_refused_and_the_phone_goes_on(client):
    phone = open_phone(client)["phone"]
    refused = client.post(f"/api/phones/{phone}/act", content=b'{"gesture": "text", "text": '
                          b'"a\\ud800b"}', headers={"content-type": "application/json"})
    assert "not valid Unicode" in error_of(refused, 400)
    state = client.get(f"/api/phones/{phone}").json()
    assert state["step"] == 0 and state["history"] == []  # nothing was typed
    state = client.post(f"/api/phones/{phone}/act", json=expert_taps()[0]).json()
    assert state["step"] == 1


@pytest.mark.reliability
def test_non_finite_or_huge_gesture_numbers_are_refused(client):
    phone = open_phone(client)["phone"]
    for number, words in [(b"Infinity", "finite"), (b"-Infinity", "finite"),
                          (b"NaN", "finite"), (b"1e400", "finite"),
                          (b"1e300", "outside the screen"),
                          (b"1" + b"0" * 400, "outside the screen"), (b"-1", "outside the screen")]:
        for gesture in (b'{"gesture": "tap", "x": %s, "y": 5}' % number,
                        b'{"gesture": "drag", "x1": 5, "y1": 5, "x2": 5, "y2": %s}' % number):
            refused = client.post(f"/api/phones/{phone}/act", content=gesture,
                                  headers={"content-type": "application/json"})
            assert words in error_of(refused, 400), gesture
    assert client.get(f"/api/phones/{phone}").json()["step"] == 0

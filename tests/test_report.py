"""`bmoca report`: numbers against the store, HTML that parses and links, escaping, plots,
screenshots saved by `bmoca eval --save-screens`, and reports without matplotlib."""

from __future__ import annotations

import json
import math
import os
import sqlite3
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from urllib.parse import urlparse

import pytest
from lxml import html as lxml_html
from PIL import Image

from bmoca import tasks
from bmoca.eval import evaluate, metrics, report
from bmoca.eval.store import SCHEMA_VERSION, Store

TASKS = [tasks.get("settings/turn_on_wifi"), tasks.get("calculator/open_Calculator")]
CONFIGS = ["test_env_100", "test_env_109"]
EVIL = '<script>alert("pwned")</script><img src=x onerror=alert(1)>'


def cli(*args: str, cwd: Path, prelude: str = "") -> subprocess.CompletedProcess:
    code = f"{prelude}\nfrom bmoca.cli.main import app\napp()"
    return subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, capture_output=True,
                          text=True, timeout=300, env={**os.environ, "COLUMNS": "200"})


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    """Expert and random runs in one store with screens, plus an errored episode and an
    episode whose model answer is hostile HTML."""
    path = tmp_path_factory.mktemp("run") / "r"
    path.mkdir()
    with Store(path) as store:
        evaluate.evaluate(store, "expert-run", "expert", TASKS, CONFIGS, 2, save_screens=True)
        evaluate.evaluate(store, "random-run", "random", TASKS, CONFIGS, 2, save_screens=True)
        broken = store.begin_episode("random-run", "random", TASKS[0].id, CONFIGS[0], 2, 5)
        store.fail_episode(broken, f"ProviderError: server kept failing {EVIL}")
        store.start_run("evil-run", "llm:fake", {})
        evil = store.begin_episode("evil-run", "llm:fake", TASKS[0].id, CONFIGS[0], 0, 1)
        shot = path / "screens" / str(evil) / "0.png"
        shot.parent.mkdir(parents=True)
        Image.new("RGB", (54, 108), "white").save(shot)
        store.add_step(evil, 0, action=f"Thought: {EVIL}\nAction: tap(1)", action_label="tap(1)",
                       valid=True, reward=0.0, success=False, step_s=0.01, agent_s=0.5,
                       info={"gesture": [{"swipe": [540, 1600, 540, 400]}],
                             "screen_size": [1080, 2160]},
                       screenshot=f"screens/{evil}/0.png")
        store.add_step(evil, 1, action=EVIL, action_label=None, valid=False,
                       error=f"InvalidAction: no action found in {EVIL}", reward=0.0,
                       success=False, step_s=0.01, agent_s=0.5)
        store.finish_episode(evil, success=False, steps=2, invalid_actions=1, reward=0.0,
                             terminated=False, truncated=True, detector_trace=[EVIL],
                             wall_s=1.0, reset_s=0.1)
    db = sqlite3.connect(path / "results.sqlite")
    columns = {r[1] for r in db.execute("PRAGMA table_info(steps)")}
    if "agent_output" in columns:  # the model-usage columns, when the store has them
        call = {"model": "fake", "provider": "openai", "prompt": f"Goal: {EVIL}",
                "response": f"Action: {EVIL}", "input_tokens": 100, "output_tokens": 7,
                "cost_usd": 0.001, "cached": False, "latency_s": 0.2}
        db.execute("UPDATE steps SET agent_output=? WHERE episode_id=?", (json.dumps(call), evil))
        db.execute("UPDATE episodes SET input_tokens=100, output_tokens=7, cost_usd=0.001 "
                   "WHERE episode_id=?", (evil,))
        db.commit()
    db.close()
    return path


@pytest.fixture(scope="module")
def built(run_dir) -> report.Report:
    return report.build(run_dir)


def _expected(db_path: Path, agent: str) -> tuple[str, int, int, str]:
    """(success cell text, done episodes, errors, mean steps) straight from SQL."""
    db = sqlite3.connect(db_path)
    rows = db.execute("SELECT run_id, repeat, status, success, steps FROM episodes "
                      "WHERE agent=?", (agent,)).fetchall()
    db.close()
    done = [r for r in rows if r[2] == "done"]
    errors = sum(1 for r in rows if r[2] == "error")
    per_repeat = defaultdict(list)
    for run_id, repeat, _status, success, _steps in done:
        per_repeat[(run_id, repeat)].append(success)
    rates = [sum(v) / len(v) for v in per_repeat.values()]
    mean = sum(r[3] for r in done) / len(done)
    se = 0.0 if len(rates) < 2 else math.sqrt(
        sum((x - sum(rates) / len(rates)) ** 2 for x in rates) / (len(rates) - 1) / len(rates))
    cell = f"{mean * 100:.0f}" if se == 0 else f"{mean * 100:.0f}±{se * 100:.0f}"
    steps = sum(r[4] for r in done) / len(done)
    return cell, len(done), errors, f"{steps:.1f}"


def test_summary_numbers_match_the_store(run_dir, built):
    md = built.markdown.read_text()
    for agent in ("expert", "random", "llm:fake"):
        cell, done, errors, steps = _expected(run_dir / "results.sqlite", agent)
        row = next(line for line in md.splitlines() if line.startswith(f"| {agent} |"))
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert cells[1:4] == [str(done), cell, steps], row
        assert cells[5] == str(errors)
    expert = next(s for s in built.sections if s.agent == "expert")
    assert expert.table.overall.mean == 1.0 and expert.table.overall.episodes == 8
    random_section = next(s for s in built.sections if s.agent == "random")
    assert random_section.table.overall.errors == 1  # counted, not in the rate
    assert random_section.table.overall.episodes == 8
    # categories: Settings is System, Calculator is Utility, each from metrics.summarize
    assert list(expert.categories) == ["System", "Utility"]
    assert "| System | 1 | 4 | 100 | 3.5 | 0 |" in md
    assert "| Utility | 1 | 4 | 100 | 1.5 | 0 |" in md
    assert expert.categories["System"] == metrics.summarize(
        e for e in expert.episodes if e.task_id.startswith("settings/"))
    assert "| llm:fake | 1 | 0 | 2.0 | 1 | 0 |" in md  # 1 invalid action, no error
    assert "Infrastructure errors" in md and "ProviderError: server kept failing" in md


def test_html_parses_links_resolve_and_every_episode_has_a_page(run_dir, built):
    with Store(run_dir) as store:
        ids = {e.episode_id for e in store.episodes()}
    pages = {int(p.stem) for p in (built.out / "episodes").glob("*.html")}
    assert pages == ids
    for page in [built.html, *(built.out / "episodes").glob("*.html")]:
        tree = lxml_html.fromstring(page.read_bytes())
        assert not tree.xpath("//script")
        for attr in ("href", "src"):
            for link in tree.xpath(f"//@{attr}"):
                target = urlparse(link)
                assert not target.scheme and not target.netloc, link  # no CDN, no web
                assert (page.parent / target.path).resolve().is_file(), (page, link)
    index = lxml_html.fromstring(built.html.read_bytes())
    linked = {int(Path(h).stem) for h in index.xpath("//a/@href") if h.startswith("episodes/")}
    assert linked == ids
    assert len(index.xpath("//img[@class='plot']")) == 3


def test_the_task_by_configuration_tables_scroll_in_their_own_box(built):
    """A run over many configurations makes a table wider than the window: it scrolls
    inside a box (overflow-x: auto) instead of widening the page.
    (test_ui_browser.py measures the page at a 1280-px viewport.)"""
    index = lxml_html.fromstring(built.html.read_bytes())
    style = " ".join(index.xpath("//style/text()")).replace(" ", "")
    assert ".wide{overflow-x:auto" in style
    headings = index.xpath("//h3[text()='Per task × configuration']")
    assert len(headings) == 3  # one per agent
    for heading in headings:
        box = heading.getnext()
        assert box.tag == "div" and box.get("class") == "wide"
        table = box.xpath("./table")
        assert table
        header = table[0].xpath(".//th/text()")
        assert (header[0], header[-1]) == ("task", "all") and set(header[1:-1]) <= set(CONFIGS)


def test_episode_pages_draw_the_actions_on_the_screenshots(run_dir, built):
    with Store(run_dir) as store:
        episode = next(e for e in store.episodes("expert-run"))
        steps = store.steps_of(episode.episode_id)
    page = lxml_html.fromstring((built.out / "episodes" / f"{episode.episode_id}.html").read_bytes())
    shots = page.xpath("//div[@class='shot']")
    assert len(shots) == len(steps) + 1  # every step, and the final screen
    for shot, step in zip(shots, steps, strict=False):
        assert shot.xpath("img/@src")[0].endswith(f"screens/{episode.episode_id}/{step.step}.png")
        x, y = step.info["gesture"][0]["tap"]
        circle = shot.xpath(".//circle")[0]
        assert (circle.get("cx"), circle.get("cy")) == (str(x), str(y))
    assert "settings/turn_on_wifi" in page.text_content() or "calculator" in page.text_content()
    assert page.xpath("//h2[text()='Success detector']")


def test_hostile_model_answers_are_escaped(run_dir, built):
    with Store(run_dir) as store:
        evil = next(e for e in store.episodes("evil-run"))
    path = built.out / "episodes" / f"{evil.episode_id}.html"
    raw = path.read_text()
    assert "<script>" not in raw and "<img src=x" not in raw
    assert "&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;" in raw
    page = lxml_html.fromstring(raw)
    assert not page.xpath("//script") and not page.xpath("//img[@onerror]")
    assert EVIL in page.text_content()  # shown as text, whole
    assert page.xpath("//line")  # the swipe arrow
    assert "<script>" not in built.html.read_text()
    if built.has_usage:  # with the model-usage columns: the answer and prompt are shown
        assert "Action: " + EVIL in page.text_content()
        assert "| llm:fake |" in built.markdown.read_text()


def test_report_command_and_its_errors(run_dir, tmp_path):
    done = cli("report", str(run_dir), "--out", str(tmp_path / "rep"), cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "rep" / "report.html").is_file()
    assert sorted(p.name for p in (tmp_path / "rep" / "plots").iterdir()) == [
        "success_by_category.png", "success_by_config.png", "success_by_task.png"]
    # links from a report outside the run directory still reach the screenshots
    page = next((tmp_path / "rep" / "episodes").glob("*.html"))
    for src in lxml_html.fromstring(page.read_bytes()).xpath("//img/@src"):
        assert (page.parent / src).resolve().is_file()
    missing = cli("report", str(tmp_path / "nothing"), cwd=tmp_path)
    assert missing.returncode == 2 and "no results store" in missing.stderr and missing.stdout == ""


def test_a_learning_curve_is_shown_beside_the_results(run_dir, tmp_path):
    curve = tmp_path / "ppo.curve.jsonl"
    curve.write_text(
        '{"iteration": 1, "timesteps": 100, "episodes": 20, "success_rate": 0.1, '
        '"mean_return": 0.25, "seconds": 4.0, "greedy_train": 0.1, "greedy_eval": 0.4}\n'
        '{"iteration": 2, "timesteps": 200, "episodes": 20, "success_rate": 0.35, '
        '"mean_return": 0.5, "seconds": 8.0}\n'
        '{"iteration": 3, "timesteps": 300, "episodes": 19, "success_rate": 0.5, '
        '"mean_return": 0.75, "seconds": 12.0, "greedy_train": 0.6, "greedy_eval": 0.3}\n')
    done = cli("report", str(run_dir), "--out", str(tmp_path / "rep"), "--curve", str(curve),
               cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    md = (tmp_path / "rep" / "report.md").read_text()
    assert ("3 iterations, 300 environment steps; greedy success on the training "
            "configurations 10% at 100 steps, 60% at 300; on the evaluation configurations "
            "40% → 30%") in md
    assert "| 2 | 200 | 20 | 35% | 0.50 |  |  | 8.00 |" in md
    page = lxml_html.fromstring((tmp_path / "rep" / "report.html").read_bytes())
    assert page.xpath("//h2[text()='Learning curves']")
    assert (tmp_path / "rep" / "plots" / "curve_ppo.png").is_file()

    curve.write_text('{"iteration": 1, "timesteps": 100}\n{"iteration": 2, "timest\n')
    broken = cli("report", str(run_dir), "--out", str(tmp_path / "rep2"), "--curve",
                 str(curve), cwd=tmp_path)
    assert broken.returncode == 2 and broken.stdout == ""
    assert f"{curve}:2: not JSON" in broken.stderr


def test_without_matplotlib_the_report_is_written_without_plots(run_dir, tmp_path):
    blocked = "import sys; sys.modules['matplotlib'] = None"  # import matplotlib -> ImportError
    done = cli("report", str(run_dir), "--out", str(tmp_path / "rep"), cwd=tmp_path,
               prelude=blocked)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Plots skipped" in done.stdout and "pip install 'bmoca[report]'" in done.stdout
    assert not (tmp_path / "rep" / "plots").exists()
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "Plots skipped: plots need matplotlib" in md and "## Summary" in md


def test_eval_saves_screens_only_when_asked(run_dir, tmp_path):
    with Store(run_dir) as store:
        episode = store.episodes("expert-run")[0]
        steps = store.steps_of(episode.episode_id)
    assert all(s.screenshot == f"screens/{episode.episode_id}/{s.step}.png" for s in steps)
    assert all((run_dir / s.screenshot).read_bytes().startswith(b"\x89PNG") for s in steps)
    assert (run_dir / "screens" / str(episode.episode_id) / "final.png").is_file()
    with Store(tmp_path) as store:
        evaluate.evaluate(store, "plain", "expert", TASKS[:1], CONFIGS[:1], 1)
        plain = store.steps_of(store.episodes("plain")[0].episode_id)
    assert all(s.screenshot is None and "gesture" not in s.info for s in plain)
    assert not (tmp_path / "screens").exists()


V1_COLUMNS = {
    "episodes": {"episode_id", "run_id", "agent", "task_id", "config_id", "repeat", "seed",
                 "status", "success", "steps", "invalid_actions", "reward", "terminated",
                 "truncated", "error", "detector_trace", "started", "finished", "wall_s",
                 "reset_s"},
    "steps": {"episode_id", "step", "action", "action_label", "valid", "error", "reward",
              "success", "step_s", "agent_s", "info"},
}


def test_a_store_from_before_screenshots_is_upgraded(tmp_path):
    with Store(tmp_path) as store:
        evaluate.evaluate(store, "old", "expert", TASKS[:1], CONFIGS[:1], 1)
    db = sqlite3.connect(tmp_path / "results.sqlite")
    for table, keep in V1_COLUMNS.items():  # make it what a version-1 file looks like
        for (name,) in db.execute(f"SELECT name FROM pragma_table_info('{table}')").fetchall():
            if name not in keep:
                db.execute(f"ALTER TABLE {table} DROP COLUMN {name}")
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()
    with Store(tmp_path) as store:
        steps = store.steps_of(store.episodes("old")[0].episode_id)
        assert steps and all(s.screenshot is None for s in steps)
    db = sqlite3.connect(tmp_path / "results.sqlite")
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    db.close()
    assert report.build(tmp_path).markdown.is_file()

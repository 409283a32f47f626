"""The validity certificate (issue 29): every task's near-miss rows, played through
`env.step` as an agent plays them, in a phone, a 700 dpi right-to-left phone and a tablet;
docs/validity.md is what `bmoca validate --near-misses --write` makes of them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bmoca import tasks
from bmoca.eval import near_misses as certify
from bmoca.tasks import near_misses
from bmoca.tasks.spec import TaskError

ROOT = Path(__file__).resolve().parent.parent
LONG_PRESSES = ("long_press_app", "long_press_id")


@pytest.fixture(scope="module")
def results():
    return certify.play_rows(near_misses.all_rows(), certify.CONFIGS, workers=2)


def test_the_configurations_are_a_phone_a_700_dpi_rtl_phone_and_a_tablet():
    from bmoca import configs

    chosen = [configs.get(c) for c in certify.CONFIGS]
    assert any(c.profile.width < c.profile.height and c.locale.startswith("en") for c in chosen)
    assert any(c.density == 700 and c.locale.startswith(("ar", "ur", "he", "fa"))
               for c in chosen)
    assert any(c.profile.width > c.profile.height for c in chosen)


def test_every_task_has_two_near_misses_one_a_long_press_and_two_right_paths():
    short = []
    for task in tasks.all_tasks():
        rows = near_misses.rows_for(task.id)
        fails = [r for r in rows if not r.must_pass]
        passes = [r for r in rows if r.must_pass]
        pressed = [r for r in fails if any(next(iter(s)) in LONG_PRESSES for s in r.play)]
        if len(fails) < 2 or len(passes) < 2 or not pressed:
            short.append(f"{task.id}: {len(fails)} must-fail ({len(pressed)} long presses), "
                         f"{len(passes)} must-pass")
    assert short == []


def test_every_row_judges_as_it_must_in_every_configuration(results):
    assert len(results) == len(near_misses.all_rows()) * len(certify.CONFIGS)
    found = [f"{r.row.id} @ {r.config_id}: {r.problem} (ended by {r.ended} after {r.steps} "
             f"steps; {' | '.join(r.trace[-2:])})" for r in certify.problems(results)]
    assert found == []


def test_the_checked_in_certificate_is_up_to_date(results):
    made = certify.certificate(results)
    checked_in = (ROOT / "docs" / "validity.md").read_text("utf-8")
    assert checked_in == made, ("docs/validity.md is stale: run `bmoca validate "
                                "--near-misses --write docs/validity.md`")
    assert "0 undocumented false accepts, 0 undocumented false rejects" in made


def test_a_row_that_claims_early_fails_and_the_expert_route_passes_through_env_step():
    """The rows are ordinary agents: `row:NAME` plays through `bmoca eval`'s runner."""
    from bmoca.env import DevicePool
    from bmoca.eval import runner

    task = tasks.get("settings/turn_on_wifi")
    pool = DevicePool()
    try:
        early = runner.play(runner.EpisodeSpec("row:claim_done_at_once", task, "test_env_100",
                                               0, 1), pool)
        drawer = runner.play(runner.EpisodeSpec("row:from_the_app_drawer", task,
                                                "test_env_100", 0, 1), pool)
    finally:
        pool.close()
    assert early.error is None and not early.success and early.terminated
    assert [s.action for s in early.steps] == [{"action_type": "status",
                                                "goal_status": "complete"}]
    assert drawer.error is None and drawer.success
    assert drawer.steps[0].action == {"action_type": "scroll", "direction": "down"}


def test_a_broken_row_file_names_the_file_the_task_and_the_row(tmp_path):
    suite = {t.id: t for t in tasks.all_tasks()}
    path = tmp_path / "broken.yaml"
    path.write_text("settings/turn_on_wifi:\n  - fail: tap_nowhere\n    play:\n"
                    "      - tap_idd: x\n", "utf-8")
    with pytest.raises(TaskError, match=r"broken.yaml: task settings/turn_on_wifi: row "
                                        r"tap_nowhere: play\[0\]: unknown stage 'tap_idd'"):
        near_misses.load_file(path, suite)
    path.write_text("settings/no_such_task:\n  - pass: x\n    play: [expert]\n", "utf-8")
    with pytest.raises(TaskError, match="task settings/no_such_task: no such task"):
        near_misses.load_file(path, suite)
    path.write_text("settings/turn_on_wifi:\n  - pass: x\n    fail: y\n    play: [expert]\n",
                    "utf-8")
    with pytest.raises(TaskError, match="exactly one of 'fail: NAME' or 'pass: NAME'"):
        near_misses.load_file(path, suite)
    path.write_text("settings/turn_on_wifi:\n  - pass: x\n    play: [expert]\n    whyy: a\n",
                    "utf-8")
    with pytest.raises(TaskError, match=r"unknown field\(s\) whyy"):
        near_misses.load_file(path, suite)


def test_a_deviation_flips_the_verdict_the_row_asserts():
    row = near_misses.Row("t", False, "n", ({"claim": "complete"},), deviation="because")
    assert row.expected is True
    result = certify.RowResult(row, "c", success=False, steps=1, ended="claim")
    assert "documented deviation no longer holds" in result.problem


def _bmoca(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bmoca.cli.main", *args], capture_output=True,
                          text=True, timeout=300, cwd=ROOT)


def test_validate_near_misses_from_the_command_line(tmp_path):
    out = tmp_path / "validity.md"
    done = _bmoca("validate", "--near-misses", "--tasks", "settings/turn_on_wifi", "--json",
                  "--write", str(out))
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["ok"] is True and report["configs"] == list(certify.CONFIGS)
    assert report["episodes"] == report["rows"] * 3 and report["rows"] >= 4
    assert "`settings/turn_on_wifi`" in out.read_text("utf-8")
    bad = _bmoca("validate", "--write", str(out))
    assert bad.returncode == 2
    assert bad.stderr.strip().splitlines()[-1].endswith("--write goes with --near-misses")


def test_every_deviation_is_in_the_one_table_of_docs_tasks_md():
    text = (ROOT / "docs" / "tasks.md").read_text("utf-8")
    table = text[text.index("## Where the simulator and the reference knowingly differ"):]
    listed = {line.split("`")[1] for line in table.splitlines()
              if line.startswith(("| task `", "| row `"))}
    wanted = {t.id for t in tasks.all_tasks() if t.reference.get("deviation")}
    wanted |= {r.id for r in near_misses.all_rows() if r.deviation}
    assert sorted(wanted - listed) == [], "deviations missing from docs/tasks.md's table"
    assert sorted(listed - wanted) == [], "the table lists deviations that are gone"

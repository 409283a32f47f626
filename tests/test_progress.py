"""Efficiency, progress and done-claim metrics on hand-built trajectories with known values,
and end to end through `bmoca eval --json` with the expert and the random agent."""

from __future__ import annotations

import json
import math

import pytest
from test_eval import bmoca_cli

from bmoca.env import commands as cmd
from bmoca.eval import progress, report
from bmoca.eval.store import EpisodeRow, StepRow

ROW = ('<node text="" resource-id="" class="android.widget.LinearLayout" package="{pkg}" '
       'clickable="true" bounds="[0,{y1}][1080,{y2}]">'
       '<node text="{title}" resource-id="android:id/title" class="android.widget.TextView" '
       'package="{pkg}" clickable="false" bounds="[40,{ty1}][600,{ty2}]"/>'
       '<node text="{state}" resource-id="android:id/summary" class="android.widget.TextView" '
       'package="{pkg}" clickable="false" bounds="[40,{sy1}][600,{sy2}]"/></node>')
SETTINGS = "com.android.settings"
LAUNCHER = "com.google.android.apps.nexuslauncher"


def _xml() -> str:
    rows = "".join(ROW.format(pkg=SETTINGS, y1=y, y2=y + 200, ty1=y + 20, ty2=y + 90,
                              sy1=y + 100, sy2=y + 180, title=title, state=state)
                   for y, title, state in ((200, "Display", "Dark theme"),
                                           (400, "Airplane mode", "ON")))
    icon = (f'<node text="Clock" resource-id="{LAUNCHER}:id/icon" class="android.widget.TextView"'
            f' package="{LAUNCHER}" clickable="true" bounds="[0,1800][270,2000]"/>')
    return (f'<hierarchy><node text="" resource-id="" class="android.widget.FrameLayout" '
            f'package="{SETTINGS}" bounds="[0,0][1080,2160]">{rows}{icon}</node></hierarchy>')


def test_a_target_names_the_element_acted_on_not_the_coordinates():
    xml = _xml()
    # anywhere in a row is the row; it is named by its first text, not its state
    assert progress.step_target([cmd.Tap(1000, 250)], xml) == "tap  'Display'"
    assert progress.step_target([cmd.Tap(100, 450)], xml) == progress.step_target(
        [cmd.Tap(900, 590)], xml) == "tap  'Airplane mode'"
    assert progress.step_target([cmd.Tap(100, 1900)], xml) == "open clock"  # launcher icon
    assert progress.step_target([cmd.OpenApp("Clock")], None) == "open clock"
    assert progress.step_target([cmd.Tap(500, 1200)], xml) == "tap ?"  # nothing identified
    assert progress.step_target([cmd.TypeText("hi"), cmd.PressKey("ENTER")], xml) == \
        "type 'hi' + key enter"
    assert progress.step_target([cmd.Status("complete")], xml) == "status complete"
    assert [progress.is_checkpoint(t) for t in
            ("tap  'Display'", "open clock", "type 'hi'", "tap ?", "swipe", "key back",
             "status complete")] == [True, True, True, False, False, False, False]


def _steps(targets: list[str | None], *, status: str | None = None) -> list[StepRow]:
    """A trajectory: None is an invalid action; `status` ends it with a claim."""
    rows = [StepRow(1, i, "a", None, t is not None, None if t else "InvalidAction", 0.0, None,
                    0.0, 0.0, {"target": t} if t else {}) for i, t in enumerate(targets)]
    if status is not None:
        rows.append(StepRow(1, len(rows), "s", None, True, None, 0.0, None, 0.0, 0.0,
                            {"target": f"status {status}", "status": status}))
    return rows


def _episode(success: bool, repeat: int = 0, task: str = "t") -> EpisodeRow:
    return EpisodeRow(1, "run", "agent", task, "cfg", repeat, 0, "done", success, 0, 0, 0.0,
                      True, False, None, None, None, None, None, None)


REF = progress.reference_of(_steps(["open settings", "swipe", "tap a", "tap b", "tap c"]))


def test_progress_and_completion_follow_the_expert_sub_goals_in_order():
    assert REF.checkpoints == ("open settings", "tap a", "tap b", "tap c") and REF.steps == 5
    # matched: open settings, tap b (in order); tap c came before tap b, so it does not count
    failed = _steps(["open settings", "tap c", "tap x", None, "tap b"])
    score = progress.score_episode(_episode(False), failed, REF)
    assert score.progress == pytest.approx(2 / 4)  # LCS of 2 sub-goals out of 4
    assert score.completion == pytest.approx(3 / 4)  # got as far as the third, "tap b"
    assert score.rrr is None and score.invalid == 1 and score.steps == 5
    assert not score.claimed_done
    # nothing of the path at all
    nothing = progress.score_episode(_episode(False), _steps(["swipe", "key back"]), REF)
    assert (nothing.progress, nothing.completion) == (0.0, 0.0)


def test_redundancy_is_expert_steps_over_agent_steps_on_successes():
    won = progress.score_episode(_episode(True), _steps(["tap x"] * 9 + ["tap c"]), REF)
    assert won.rrr == pytest.approx(5 / 10)
    assert (won.progress, won.completion) == (1.0, 1.0)  # the goal is the last sub-goal
    quick = progress.score_episode(_episode(True), _steps(["open settings", "tap c"]), REF)
    assert quick.rrr == pytest.approx(5 / 2)  # more direct than the expert
    assert progress.score_episode(_episode(True), _steps(["tap c"]), None).rrr is None


def test_done_claims_are_checked_against_the_state():
    false_claim = progress.score_episode(_episode(False), _steps(["tap a"], status="complete"),
                                         REF)
    true_claim = progress.score_episode(_episode(True), _steps(["tap a"], status="complete"),
                                        REF, judge_claims=True)
    unclaimed = progress.score_episode(_episode(True), _steps(["tap a", "tap b"]), REF,
                                       judge_claims=True)
    gave_up = progress.score_episode(_episode(False), _steps(["tap a"], status="infeasible"),
                                     REF, judge_claims=True)
    assert [s.claimed_done for s in (false_claim, true_claim, unclaimed, gave_up)] == \
        [True, True, False, False]
    rows = [(_episode(False, 0), false_claim), (_episode(True, 1), true_claim),
            (_episode(True, 2), unclaimed), (_episode(False, 3), gave_up)]
    agg = progress.aggregate(rows)
    assert (agg.claims, agg.false_done, agg.false_done_rate) == (2, 1, 0.5)
    assert (agg.claim_chances, agg.missed_done, agg.missed_done_rate) == (2, 1, 0.5)
    # without --judge-claims an episode ends on success: missed done is not measurable
    auto = progress.aggregate([(_episode(True), progress.score_episode(
        _episode(True), _steps(["tap a"]), REF))])
    assert auto.claim_chances == 0 and math.isnan(auto.missed_done_rate)
    assert progress.row_of("t", auto)[-2:] == ["–", "–"]


def test_aggregates_pool_episodes_and_take_standard_errors_over_repeats():
    # repeat 0: progress 1/4 and 3/4 (mean 0.5); repeat 1: 1/4 (mean 0.25)
    eps = [(_episode(False, 0, "t1"), ["open settings", None]),
           (_episode(False, 0, "t2"), ["open settings", "tap a", "tap b", None]),
           (_episode(False, 1, "t1"), ["tap a"])]
    scored = [(e, progress.score_episode(e, _steps(t), REF)) for e, t in eps]
    agg = progress.aggregate(scored)
    assert agg.progress.mean == pytest.approx((1 / 4 + 3 / 4 + 1 / 4) / 3)
    assert agg.progress.n == 2
    assert agg.progress.stderr == pytest.approx(abs(0.5 - 0.25) / 2)  # sd/sqrt(2) of 2 means
    assert agg.invalid_rate.mean == pytest.approx((1 / 2 + 1 / 4 + 0) / 3)
    assert agg.steps_to_success.n == 0 and agg.rrr.n == 0
    table = progress.efficiency_table("agent", scored)
    assert list(table.per_task) == ["t1", "t2"]
    assert table.per_task["t2"].progress.mean == pytest.approx(3 / 4)
    data = progress.table_json(table)
    assert data["tasks"]["t1"]["progress"] == {"mean": 0.25, "stderr": 0.0, "repeats": 2}
    assert data["overall"]["missed_done_rate"] is None  # NaN is null in JSON


def test_eval_json_scores_the_expert_fully_and_random_below_it(tmp_path):
    common = ["--task", "settings/turn_on_wifi", "--task", "settings/go_to_bluetooth_setting",
              "--configs", "test_env_100,test_env_109", "--repeats", "2", "--json"]
    expert = bmoca_cli("eval", "--agent", "expert", *common, "--out", "expert", cwd=tmp_path)
    assert expert.returncode == 0, expert.stderr
    eff = json.loads(expert.stdout)["efficiency"]["overall"]
    assert eff["progress"]["mean"] == 1.0 and eff["reversed_redundancy"]["mean"] == 1.0
    assert eff["invalid_rate"]["mean"] == 0.0 and eff["with_reference"] == 8
    assert not (tmp_path / "expert" / "reference").exists()  # the expert is its own reference

    rand = bmoca_cli("eval", "--agent", "random", *common, "--out", "rand", cwd=tmp_path)
    assert rand.returncode == 0, rand.stderr
    eff = json.loads(rand.stdout)["efficiency"]["overall"]
    assert eff["with_reference"] == 8 and eff["progress"]["mean"] < 1.0
    assert (tmp_path / "rand" / "reference" / "results.sqlite").exists()
    assert "progress %" in (tmp_path / "rand" / "results.md").read_text("utf-8")
    built = report.build(tmp_path / "rand", with_plots=False)
    html = built.html.read_text("utf-8")
    assert "Efficiency and done claims" in html and "missed done %" in html
    assert built.efficiency["random"].overall.with_reference == 8

    judged = bmoca_cli("eval", "--agent", "expert", *common, "--judge-claims", "--out", "judged",
                       cwd=tmp_path)
    assert judged.returncode == 0, judged.stderr
    data = json.loads(judged.stdout)
    eff = data["efficiency"]["overall"]
    # the expert ends every episode on "status complete", and it is always right
    assert data["overall"]["success"] == 1.0
    assert (eff["done_claims"], eff["false_done"]) == (8, 0)
    assert (eff["claim_chances"], eff["missed_done"]) == (8, 0)


def test_a_limited_run_plays_only_the_references_it_needs(tmp_path):
    from bmoca.eval.store import Store

    result = bmoca_cli("eval", "--agent", "random", "--tasks", "settings", "--configs",
                       "test_env_100", "--repeats", "2", "--limit", "3", "--json",
                       "--out", "r", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["efficiency"]["overall"]["with_reference"] == 3
    with Store(tmp_path / "r" / "reference") as store:  # 3 episodes span 2 task x config
        assert len(store.episodes()) == 2


def test_a_long_horizon_episode_reports_the_share_of_its_sub_goals_met(tmp_path):
    task = "clock/create_two_alarms_on_their_own_days@0"
    common = ["--task", task, "--configs", "test_env_100", "--repeats", "1", "--json"]
    half = bmoca_cli("eval", "--agent", "row:the_first_alarm_only", *common, "--out", "half",
                     cwd=tmp_path)
    assert half.returncode == 0, half.stderr
    data = json.loads(half.stdout)
    assert data["overall"]["success"] == 0.0
    assert data["efficiency"]["tasks"][task]["subgoals"]["mean"] == 0.5
    expert = bmoca_cli("eval", "--agent", "expert", *common, "--out", "expert", cwd=tmp_path)
    assert json.loads(expert.stdout)["efficiency"]["overall"]["subgoals"]["mean"] == 1.0
    assert "sub-goals %" in (tmp_path / "half" / "results.md").read_text("utf-8")
    fixed = bmoca_cli("eval", "--agent", "expert", "--task", "settings/turn_on_wifi",
                      "--configs", "test_env_100", "--json", "--out", "fixed", cwd=tmp_path)
    assert json.loads(fixed.stdout)["efficiency"]["overall"]["subgoals"]["repeats"] == 0

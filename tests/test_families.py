"""Task families (issue 30): typed parameters, `${...}` templates, instances `family@seed`
that work wherever a task id does, and their near-miss rows."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import bmoca
from bmoca import tasks
from bmoca.env import DevicePool
from bmoca.eval import runner
from bmoca.tasks import families, near_misses, params, templates
from bmoca.tasks.spec import TaskError

ROOT = Path(__file__).resolve().parent.parent
ALARM = "clock/create_alarm_at_time"
DAYS = "clock/create_alarm_on_days"


def test_an_instance_is_a_task_named_by_family_and_seed():
    task = tasks.get(f"{ALARM}@17")
    assert task.id == f"{ALARM}@17" and task.family == ALARM
    time = families.get(ALARM).values(17)["time"]
    assert task.instruction == f"create alarm at {time.text}"
    assert task.expert[3] == {"set_time": {"hour": time.hour, "minute": time.minute}}
    assert tasks.get(f"{ALARM}@17") is task  # instances are kept, not rebuilt


def test_instances_are_the_same_on_every_run_whatever_the_hash_seed():
    code = (f"from bmoca import tasks; print(tasks.get('{DAYS}@5').instruction)")
    outs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}, check=True).stdout
            for seed in ("1", "2")}
    assert outs == {tasks.get(f"{DAYS}@5").instruction + "\n"}


def test_seeds_draw_different_instances():
    instructions = {tasks.get(f"{DAYS}@{seed}").instruction for seed in range(30)}
    assert len(instructions) >= 28
    assert families.get(DAYS).instance_count == 288 * 127


def test_select_takes_families_ids_seeds_and_ranges_and_all_stays_the_fixed_suite():
    every = tasks.select("families")
    assert len(every) == families.DEFAULT_INSTANCES * len(families.all_families())
    assert [t.id for t in tasks.select(ALARM)] == [f"{ALARM}@{s}" for s in range(5)]
    assert [t.id for t in tasks.select(f"{DAYS}@3..5")] == [f"{DAYS}@{s}" for s in (3, 4, 5)]
    assert all(not t.family for t in tasks.select("all")) and len(tasks.select("all")) == 142
    with pytest.raises(TaskError, match="first <= last"):
        tasks.select(f"{DAYS}@5..3")
    with pytest.raises(TaskError, match="unknown task family 'clock/no_such'"):
        tasks.get("clock/no_such@1")


def test_an_instance_plays_through_env_step_expert_passes_and_doing_nothing_fails():
    pool = DevicePool()
    try:
        for config in ("test_env_100", "test_env_108"):
            task = tasks.get(f"{DAYS}@11")
            expert = runner.play(runner.EpisodeSpec("expert", task, config, 0, 3), pool)
            assert expert.error is None and expert.success, expert.detector_trace
            noop = runner.play(runner.EpisodeSpec("noop", task, config, 0, 3), pool)
            assert noop.error is None and not noop.success
            near = runner.play(runner.EpisodeSpec("row:the_time_only", task, config, 0, 3), pool)
            assert near.error is None and not near.success and near.terminated
    finally:
        pool.close()


def test_a_familys_rows_are_filled_per_instance_with_the_generic_ones():
    rows = near_misses.rows_for(f"{ALARM}@4")
    names = {r.name for r in rows}
    assert {"claim_done_at_once", "long_press_app_icon", "a_minute_off", "a_slip_corrected"} <= names
    time = families.get(ALARM).values(4)["time"]
    off = next(r for r in rows if r.name == "a_minute_off")
    assert {"set_time": {"hour": time.hour, "minute": (time.minute + 1) % 60}} in off.play


def test_bmoca_make_and_the_generic_gym_id_take_an_instance():
    import gymnasium

    env = bmoca.make(f"{ALARM}@2", config="test_env_100", observation="xml", action="json")
    _, info = env.reset(seed=0)
    assert info["goal"] == "Goal: " + tasks.get(f"{ALARM}@2").instruction
    env.close()
    gym_env = gymnasium.make("bmoca/Task-v0", task=f"{ALARM}@2", observation="xml",
                             action="json")
    _, info = gym_env.reset(seed=0)
    assert info["goal"].endswith(tasks.get(f"{ALARM}@2").instruction)
    gym_env.close()


def test_placeholders_keep_types_take_format_specs_and_refuse_what_is_not_allowed():
    values = {"time": params.Time(6, 5), "n": 3}
    assert templates.fill("${time.hour}", values) == 6
    assert templates.fill("at ${time.hour:02d}:${(time.minute + 55) % 60:02d}", values) == "at 06:00"
    assert templates.fill({"a": ["${n * 2}", "x"]}, values) == {"a": [6, "x"]}
    for bad, why in (("${__import__('os')}", "Call is not allowed"),
                     ("${time._private}", "Attribute is not allowed"),
                     ("${nope}", "no parameter 'nope'"), ("${(}", "is not an expression")):
        with pytest.raises(TaskError, match=why.replace("(", r"\(")):
            templates.fill(bad, values, "where")


def test_parameter_types_draw_within_their_space():
    rng = random.Random(0)
    days = params.DaySet(2, 3)
    assert days.size() == 21 + 35
    for _ in range(50):
        assert 2 <= days.draw(rng).count <= 3
        phone = params.PhoneNumber(("415",)).draw(rng)
        assert phone.digits.startswith("415") and len(phone.digits) == 10
        assert len(phone.keys) == 10 and phone.formatted.startswith("(415) ")
    assert params.Days(("sat", "sun")).mask == 96 and params.Days(("mon",)).text == "Monday"
    assert params.Time(0, 5).text == "12:05 am" and params.Time(13, 0).text == "1:00 pm"


def test_days_give_full_names_and_set_alarms_calendar_numbers():
    days = params.Days(("mon", "sat", "sun"))
    assert days.names == ("Monday", "Saturday", "Sunday") and days.other_name == "Tuesday"
    assert days.calendar == "2,7,1" and params.Days(params.WEEKDAYS).other_name == ""


def test_a_broken_family_file_names_the_file_the_family_and_the_field(tmp_path):
    path = tmp_path / "broken.yaml"
    base = ("- id: clock/x\n  app: Clock\n  category: Event\n  instruction: at ${t.text}\n"
            "  step_limit: 5\n  success: {logcat: {filter: 'A:I', regex: x}}\n")
    path.write_text(base + "  params: {t: {clock: 1}}\n", "utf-8")
    with pytest.raises(TaskError, match=r"broken.yaml: family clock/x: field params.t: "
                                        r"unknown parameter type 'clock'"):
        families.load_file(path)
    path.write_text(base.replace("${t.text}", "${u.text}") + "  params: {t: {time: null}}\n",
                    "utf-8")
    with pytest.raises(TaskError, match=r"family clock/x instance 0.*no parameter 'u'"):
        families.load_file(path)
    path.write_text(base + "  params: {t: {time: null}}\n  kind: magic\n", "utf-8")
    with pytest.raises(TaskError, match="field kind: 'magic' is not one of parameterized"):
        families.load_file(path)


def test_bmoca_tasks_families_lists_each_family_with_its_space():
    done = subprocess.run([sys.executable, "-m", "bmoca.cli.main", "tasks", "--families",
                           "--json"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    listed = {row["id"]: row for row in json.loads(done.stdout)}
    assert set(listed) == {f.id for f in families.all_families()}
    assert listed[ALARM]["instances"] == 1440 and listed[ALARM]["kind"] == "parameterized"


def test_answers_compare_as_text_number_set_and_time():
    from bmoca.tasks.answers import matches

    assert matches("The Eiffel Tower.", "the eiffel tower")
    assert not matches("Eiffel", "the eiffel tower")
    assert matches("There are 1,204 of them", 1204, "number")
    assert matches("3.14", "3.1416", "number", tolerance=0.01)
    assert not matches("no idea", 3, "number") and not matches(None, 3, "number")
    assert matches("sun, Mon and tue", ["Mon", "Tue", "Sun"], "set")
    assert not matches("mon, tue", ["mon", "tue", "sun"], "set")
    assert matches("at 6:05 pm", "18:05", "time") and matches("18h05", "6:05 PM", "time")
    assert not matches("6:05 am", "18:05", "time") and not matches("13:05 pm", "13:05", "time")


def _play(task_id: str, actions: list[dict]) -> tuple[bool, bool]:
    env = bmoca.make(task_id, config="test_env_100", observation="xml", action="json")
    env.reset(seed=0)
    for action in actions:
        _, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
    env.close()
    return bool(reward), bool(terminated)


def test_an_information_retrieval_instance_is_judged_on_the_agents_answer():
    task_id = "clock/count_the_alarms@3"
    count = families.get("clock/count_the_alarms").values(3)["extra"] + 1
    assert _play(task_id, [{"action_type": "answer", "text": f"I count {count} alarms"}]) == (
        True, True)
    assert _play(task_id, [{"action_type": "answer", "text": str(count + 1)},
                           {"action_type": "status", "goal_status": "complete"}]) == (False, True)
    # an earlier episode's answer is not carried into the next one
    assert _play(task_id, [{"action_type": "navigate_home"}]) == (False, False)


def test_an_infeasible_instance_passes_only_on_the_infeasible_claim_with_nothing_changed():
    task_id = "clock/delete_an_alarm_that_does_not_exist@2"
    assert _play(task_id, [{"action_type": "status", "goal_status": "infeasible"}]) == (True, True)
    assert _play(task_id, [{"action_type": "status", "goal_status": "complete"}]) == (False, True)


def test_docs_families_md_lists_every_family_with_its_kind_and_instances():
    text = (ROOT / "docs" / "families.md").read_text("utf-8")
    table = text[text.index("## The families"):]
    rows = {line.split("`")[1]: line for line in table.splitlines() if line.startswith("| `")}
    assert set(rows) == {f.id for f in families.all_families()}
    for family in families.all_families():
        cells = [c.strip() for c in rows[family.id].split("|")]
        assert cells[2] == family.kind and cells[4] == f"{family.instance_count:,}", family.id


def test_instance_splits_are_disjoint_in_their_parameters():
    from bmoca.tasks import splits

    test = tasks.select(DAYS, task_split="test-instance")
    assert [t.id for t in test] == [f"{DAYS}@{s}" for s in (4, 9, 14, 19, 24)]
    family = families.get(DAYS)
    train_values = {repr(family.values(s)) for s in range(300) if splits.seed_part(s) == "train"}
    test_values = {repr(family.values(s)) for s in range(300) if splits.seed_part(s) == "test"}
    assert len(test_values) >= 55 and not train_values & test_values


def test_family_and_app_splits_and_how_fixed_tasks_pass_the_instance_axis():
    from bmoca.tasks import splits

    held_out = tasks.select("all", task_split="test-app")
    assert {t.app for t in held_out} == set(splits.TEST_APPS)
    assert not {t.app for t in tasks.select("all", task_split="train-app")} & set(splits.TEST_APPS)
    assert len(tasks.select("all", task_split="test-instance")) == 142
    test_families = {t.family for t in tasks.select("families", task_split="test-family")}
    train_families = {t.family for t in tasks.select("families", task_split="train-family")}
    assert test_families and train_families and not test_families & train_families
    assert test_families | train_families == {f.id for f in families.all_families()}
    with pytest.raises(TaskError, match="valid: train-instance, test-instance"):
        tasks.select("families", task_split="test-planet")
    with pytest.raises(TaskError, match="names an axis twice"):
        tasks.select("families", task_split="test-app,train-app")


def test_eval_takes_a_task_split_and_refuses_an_unknown_one_in_one_line(tmp_path):
    done = subprocess.run([sys.executable, "-m", "bmoca.cli.main", "eval", "--agent", "expert",
                           "--tasks", ALARM, "--task-split", "test-instance", "--configs",
                           "test_env_100", "--repeats", "1", "--no-efficiency", "--json",
                           "--out", str(tmp_path / "run")], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    assert f"{ALARM}@4" in done.stdout and f"{ALARM}@0" not in done.stdout
    bad = subprocess.run([sys.executable, "-m", "bmoca.cli.main", "eval", "--tasks", ALARM,
                          "--task-split", "test-planet"], capture_output=True, text=True,
                         cwd=ROOT, timeout=120)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
    assert "valid: train-instance, test-instance" in bad.stderr


def test_every_family_instance_has_its_near_misses_a_long_press_among_them():
    for family in families.all_families():
        rows = near_misses.rows_for(f"{family.id}@1")
        fails = [r for r in rows if not r.must_pass]
        pressed = [r for r in fails if any(next(iter(s)) in ("long_press_app", "long_press_id")
                                           or (isinstance(s.get("tap_class"), dict)
                                               and s["tap_class"].get("long"))
                                           for s in r.play)]
        assert len(fails) >= 2 and pressed, family.id
        assert len([r for r in rows if r.must_pass]) >= 2, family.id


def test_a_rule_about_the_path_is_checked_over_the_episode_not_only_at_its_end():
    task_id = "settings/switch_without_the_shade@0"
    tile = families.get("settings/switch_without_the_shade").values(0)["switch"].tile
    env = bmoca.make(task_id, config="test_env_100", observation="xml", action="json")
    env.reset(seed=0)
    env.step({"action_type": "swipe", "direction": "down"})
    observation, *_ = env.step({"action_type": "swipe", "direction": "down"})
    from bmoca.tasks.experts import Screen

    tiles = [n for n in Screen(observation["xml"]).nodes
             if n.cls == "android.widget.Switch" and not n.id]
    x, y = tiles[tile].center
    _, reward, terminated, _, info = env.step({"action_type": "click", "x": x, "y": y})
    assert reward == 0 and not terminated  # the switch is right, the path was not
    assert any(line.startswith("never: first held at step 1") for line in info["detector"])
    env.step({"action_type": "navigate_back"})
    env.step({"action_type": "navigate_back"})
    assert env.evaluate() is False  # closing the shade afterwards does not undo the path
    env.close()


def test_before_holds_when_its_first_part_held_no_later_than_its_second():
    from bmoca.tasks.detectors import Before, History, Verdict

    class Flag:
        def __init__(self):
            self.now = False

        def check(self, probe):
            return Verdict(self.now, [])

    a, b = Flag(), Flag()
    before = Before(a, b)
    probe = type("P", (), {"history": History()})()
    probe.history.step, b.now = 1, True
    assert before.check(probe).ok is False  # b first, a not yet
    probe.history.step, a.now = 2, True
    assert before.check(probe).ok is False  # a came after b
    fresh, c, d = type("P", (), {"history": History()})(), Flag(), Flag()
    both = Before(c, d)
    fresh.history.step, c.now = 1, True
    assert both.check(fresh).ok is False
    fresh.history.step, d.now = 2, True
    assert both.check(fresh).ok is True


def test_every_familys_instances_judge_right_in_the_certificate_configurations():
    """Three instances of every family: the expert passes, doing nothing fails, and every
    near-miss row judges as it must, in the phone, 700 dpi RTL phone and tablet
    (`bmoca validate --tasks families` covers all 45 configurations)."""
    from bmoca.eval import near_misses as certify

    instances = [f.instance(seed) for f in families.all_families() for seed in (0, 1, 4)]
    rows = certify.selected_rows(instances)
    found = [f"{r.row.id} @ {r.config_id}: {r.problem} ({r.ended})"
             for r in certify.problems(certify.play_rows(rows, certify.CONFIGS, workers=2))]
    specs = [s for agent in ("expert", "noop")
             for s in runner.plan(agent, instances, list(certify.CONFIGS), 1)]
    for outcome in runner.execute(specs, 2, chunk=16, targets=False):
        wanted = outcome.spec.agent == "expert"
        if outcome.error or outcome.success != wanted:
            found.append(f"{outcome.spec.agent} {outcome.spec.task_id} @ "
                         f"{outcome.spec.config_id}: {outcome.error or outcome.success}")
    assert found == []


def test_a_familys_gym_id_draws_an_instance_at_every_reset_from_its_seed():
    import gymnasium

    import bmoca.env  # noqa: F401 - registers the ids
    from bmoca.tasks import splits

    env = gymnasium.make("bmoca/clock-create_alarm_on_days-v0", observation="xml",
                         action="json", task_split="test-instance")
    drawn = []
    for seed in (0, 1, 2, 0):
        task_id = env.reset(seed=seed)[1]["task_id"]
        assert task_id.startswith(DAYS + "@")
        assert splits.seed_part(int(task_id.rsplit("@", 1)[1])) == "test"
        assert env.unwrapped.step_limit == tasks.get(task_id).step_limit
        drawn.append(task_id)
    assert drawn[0] == drawn[3] and len(set(drawn)) == 3
    again = gymnasium.make(env.spec)
    assert again.reset(seed=1)[1]["task_id"] == drawn[1]
    env.close()
    again.close()
    with pytest.raises(ValueError, match="task_split goes with a task family"):
        bmoca.make("settings/turn_on_wifi", task_split="test-instance")


def test_a_ui_check_compares_a_number_a_placeholder_filled_in_as_the_text_it_reads_as():
    from bmoca.tasks.detectors import parse

    check = parse(templates.fill({"ui": {"by": "id", "value": "x", "contains": "${n * 7}"}},
                              {"n": 6}))
    assert check.contains == "42"


def test_a_set_answer_with_its_possible_items_is_judged_on_the_items_a_sentence_names():
    from bmoca.tasks.answers import matches

    days = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    assert matches("It repeats on Monday and Friday.", ["Friday", "Monday"], "set", among=days)
    assert not matches("Monday, Friday and Sunday", ["Friday", "Monday"], "set", among=days)
    assert not matches("It repeats on Monday and Friday.", ["Friday", "Monday"], "set")


def test_a_number_answer_that_writes_the_sum_out_is_judged_on_its_result():
    from bmoca.tasks.answers import matches

    assert matches("165 × 401 = 66,165", 66165, "number")
    assert not matches("165 × 401 = 66,166", 66165, "number")


def test_every_long_horizon_family_lists_its_sub_goals_in_a_top_level_all():
    from bmoca.tasks.detectors import All, Any_

    long = [f for f in families.all_families() if f.kind == "long-horizon"]
    assert long
    for family in long:
        success = family.instance(0).success
        assert isinstance(success, All) and not isinstance(success, Any_), family.id
        assert len(success.parts) >= 2, family.id


def test_every_long_horizon_experts_path_is_fifteen_steps_or_more():
    from bmoca.agents import ExpertAgent

    pool = DevicePool()
    for family in (f for f in families.all_families() if f.kind == "long-horizon"):
        task = family.instance(0)
        env = bmoca.make(task.id, config="test_env_100", observation="xml", action="json",
                         device=pool)
        observation, _ = env.reset(seed=0)
        expert = ExpertAgent(task)
        expert.reset(env.goal)
        done = False
        while not done:
            observation, reward, terminated, truncated, _ = env.step(expert.act(observation))
            done = terminated or truncated
        assert reward == 1.0 and env.steps >= 15, (family.id, env.steps)

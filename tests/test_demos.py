"""Demonstration datasets: generation, the on-disk format, replay in every action form,
few-shot selection from training configurations, and resuming a killed generation."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from PIL import Image

import bmoca
from bmoca import demos, tasks
from bmoca.demos.generate import generate
from bmoca.env import DevicePool

TASKS = [tasks.get("settings/turn_on_wifi"),
         tasks.get("settings/decrease_the_screen_brightness_in_setting"),  # slider: a gesture
         tasks.get("calculator/input_'3×5'_in_Calculator")]
TRAIN = ["train_env_000", "train_env_030"]  # English, and Arabic (right to left)


@pytest.fixture(scope="module")
def dataset(tmp_path_factory) -> demos.Dataset:
    out = tmp_path_factory.mktemp("demos") / "ds"
    summary = generate(out, TASKS, TRAIN, screen_width=270)
    assert (summary.kept, summary.failed, summary.skipped) == (6, 0, 0)
    return demos.load(out)


def test_manifest_and_episodes_follow_the_format(dataset):
    manifest = json.loads((dataset.path / "manifest.json").read_text())
    assert manifest["format"] == "bmoca-demos" and manifest["version"] == 2
    assert manifest["split"] == "train" and manifest["episodes"] == 6
    assert manifest["tasks"] == sorted(t.id for t in TASKS) and manifest["configs"] == TRAIN
    assert manifest["bmoca_version"]
    lines = (dataset.path / "episodes.jsonl").read_text().splitlines()
    assert len(lines) == 6
    raw = json.loads(lines[0])
    assert {"task_id", "config_id", "goal", "success", "steps", "final"} <= raw.keys()
    assert set(raw["steps"][0]) == {"step", "text_observation", "text_action", "json_action",
                                    "dual_gesture", "discrete", "screenshot", "reward",
                                    "terminated", "truncated"}
    assert raw["steps"][0]["text_observation"][0]["numeric_tag"] == 0  # JSON, not a repr
    keys = [(d.task_id, d.config_id) for d in dataset.episodes]
    assert sorted(keys) == sorted((t.id, c) for t in TASKS for c in TRAIN)
    for demo in dataset.episodes:
        assert demo.success and demo.goal == tasks.get(demo.task_id).goal
        assert [s.step for s in demo.steps] == list(range(len(demo.steps)))
        for step in demo.steps:
            path = dataset.screenshot_path(step)
            assert step.screenshot == f"screens/{path.parent.name}/{step.step}.png"
            with Image.open(path) as image:
                assert image.format == "PNG" and image.width == 270
            assert step.text_observation.startswith("[{'numeric_tag': 0")
        with Image.open(dataset.path / demo.final_screenshot) as image:
            assert image.width == 270
        assert demo.final_screenshot == f"screens/{path.parent.name}/{len(demo.steps)}.png"


def test_action_forms_agree(dataset):
    """Clicks on element centres are tap(i); the slider tap is a dual gesture; each form
    describes the same point."""
    forms = {}
    for demo in dataset.episodes:
        for step in demo.steps:
            kind = step.text_action.split("(")[0]
            forms[kind] = forms.get(kind, 0) + 1
            ty, tx, ly, lx = step.dual_gesture
            assert 0 <= step.discrete < 385
            if step.json_action["action_type"] == "click":
                assert (ty, tx) == (ly, lx)
                assert step.discrete < 378  # a grid tap
            if kind == "dual-gesture":
                parsed = [float(v) for v in step.text_action[13:-1].split(",")]
                assert parsed == pytest.approx([ty, tx, ly, lx], abs=5e-5)
    assert forms["tap"] > forms["dual-gesture"] >= 2  # one slider tap per brightness demo
    brightness = [d for d in dataset.episodes if "brightness" in d.task_id]
    assert all(d.steps[-1].text_action.startswith("dual-gesture(") for d in brightness)


@pytest.mark.parametrize("mode, field", [("text", "text_action"),
                                         ("dual_gesture", "dual_gesture"),
                                         ("discrete", "discrete")])
def test_replaying_each_form_solves_the_task(dataset, mode, field):
    pool = DevicePool("sim")
    try:
        for demo in dataset.episodes:
            env = bmoca.make(demo.task_id, demo.config_id, device=pool,
                             observation=("text",), action=mode)
            observation, _ = env.reset(seed=demo.seed)
            for step in demo.steps:
                if mode == "text":  # the recorded observation is what a text agent sees
                    assert observation["text"] == step.text_observation
                observation, _r, terminated, truncated, info = env.step(getattr(step, field))
                assert "action_error" not in info, info
            assert env.success, (mode, demo.task_id, demo.config_id)
            assert terminated and not truncated
    finally:
        pool.close()


def test_steps_carry_what_the_environment_returned(dataset):
    """Reward 1.0 and terminated on the successful last step, 0 and neither elsewhere;
    the final observation is the screen after the last action."""
    for demo in dataset.episodes:
        *middle, last = demo.steps
        assert (last.reward, last.terminated, last.truncated) == (1.0, True, False)
        assert all((s.reward, s.terminated, s.truncated) == (0.0, False, False) for s in middle)
        final = (dataset.path / demo.final_screenshot).read_bytes()
        assert final != dataset.screenshot_path(last).read_bytes()
        if "wifi" in demo.task_id:  # the switch's checked state shows in the text
            assert demo.final_elements != last.elements


def test_text_observation_is_json_and_renders_the_b_moca_prompt_form(dataset):
    from bmoca.env import observations as obs

    xml = ("<hierarchy><node bounds='[0,0][1080,2000]' class='android.widget.FrameLayout'>"
           "<node text='Wi-Fi' resource-id='android:id/title' checked='true' "
           "bounds='[0,100][1080,200]'/></node></hierarchy>")
    found = obs.translate(xml)
    for check, bbox in [(True, False), (False, True)]:
        elements = [e.to_dict(1080, 2000, check=check, bbox=bbox) for e in found]
        stored = json.loads(json.dumps(elements, sort_keys=True))  # key order is not kept
        assert list(stored[0]) != list(elements[0])
        assert demos.render_observation(stored) == obs.describe(found, 1080, 2000,
                                                                check=check, bbox=bbox)
    step = dataset.episodes[0].steps[0]
    assert json.loads(json.dumps(step.to_json()))["text_observation"] == step.elements
    assert demos.render_observation(step.elements) == step.text_observation


def test_version_1_datasets_still_load_with_the_new_fields_derived(dataset, tmp_path):
    """Version 1 stored the prompt form (a repr) and no reward or final observation."""
    manifest = json.loads((dataset.path / "manifest.json").read_text())
    (tmp_path / "manifest.json").write_text(json.dumps({**manifest, "version": 1}))
    lines = []
    for demo in dataset.episodes:
        raw = demo.to_json()
        del raw["final"]
        for step in raw["steps"]:
            step["text_observation"] = demos.render_observation(step["text_observation"])
            for key in ("reward", "terminated", "truncated"):
                del step[key]
        lines.append(json.dumps(raw))
    (tmp_path / "episodes.jsonl").write_text("\n".join(lines) + "\n")
    old = demos.load(tmp_path)
    assert [d.steps for d in old.episodes] == [d.steps for d in dataset.episodes]
    assert all(d.final_elements is None for d in old.episodes)
    with pytest.raises(demos.DemoError, match="is a version 1 dataset"):
        generate(tmp_path, TASKS[:1], TRAIN[:1], screen_width=64)
    bad = json.loads(lines[0])
    bad["steps"][1]["text_observation"] = "[{'a': __import__('os')}]"
    (tmp_path / "episodes.jsonl").write_text(json.dumps(bad) + "\n")
    with pytest.raises(demos.DemoError, match=r"episodes.jsonl:1, step 1: text_observation "
                                              "is not a list of elements"):
        demos.load(tmp_path)


LANGUAGE = "settings/go_to_the_'add_a_language'_page_in_setting"


def _replay_discrete(dataset: demos.Dataset) -> list[bool]:
    pool = DevicePool("sim")
    try:
        results = []
        for demo in dataset.episodes:
            env = bmoca.make(demo.task_id, demo.config_id, device=pool, action="discrete")
            env.reset(seed=demo.seed)
            for step in demo.steps:
                env.step(step.discrete)
            results.append(env.success)
        return results
    finally:
        pool.close()


def test_discrete_play_demonstrations_replay_in_the_discrete_space(tmp_path):
    """An exact demonstration's discrete labels (nearest grid cell, nearest swipe) may go
    astray when an expert's scroll is shorter than the discrete swipe: whether they do
    depends on where the rows fall (they did on train_env_004 before rows grew with their
    wrapped text). Played in discrete actions, every label replays, whatever the layout.
    (At 550 dpi the discrete swipe now moves the homepage past every row the expert saw,
    so the generator reports ExpertStuck and skips that episode: train_env_002 here.)"""
    task = [tasks.get(LANGUAGE)]
    summary = generate(tmp_path / "discrete", task, ["train_env_002", "train_env_030"],
                       screen_width=64, play="discrete")
    assert summary.kept == 2
    dataset = demos.load(tmp_path / "discrete")
    assert _replay_discrete(dataset) == [True, True]
    for demo in dataset.episodes:  # every form describes the executed action
        for step in demo.steps:
            if step.json_action["action_type"] == "click":
                assert step.discrete < 378 and step.dual_gesture[0] == step.dual_gesture[2]
    manifest = json.loads((tmp_path / "discrete" / "manifest.json").read_text())
    assert manifest["play"] == "discrete"
    with pytest.raises(demos.DemoError, match="generated with --play discrete"):
        generate(tmp_path / "discrete", task, ["train_env_005"], play="exact")
    with pytest.raises(demos.DemoError, match="play must be one of exact, discrete"):
        generate(tmp_path / "other", task, ["train_env_005"], play="grid")


def test_the_shade_route_opens_settings_from_the_gear_on_every_layout(tmp_path):
    """Played in discrete actions on an English and an Arabic layout, the shade-route
    experts start with the same two labels: the discrete swipe down (on the home screen it
    pulls the shade) and a tap on the gear; then they go on as the launcher route does."""
    task = [tasks.get("settings/turn_on_wifi")]
    summary = generate(tmp_path / "shade", task, TRAIN, screen_width=64, play="discrete",
                       route="shade")
    assert summary.kept == 2
    dataset = demos.load(tmp_path / "shade")
    assert _replay_discrete(dataset) == [True, True]
    for demo in dataset.episodes:
        first, second = demo.steps[0], demo.steps[1]
        assert first.discrete == 379                        # swipe down (finger direction)
        assert second.json_action["action_type"] == "click" and second.discrete < 378
    manifest = json.loads((tmp_path / "shade" / "manifest.json").read_text())
    assert manifest["route"] == "shade"
    with pytest.raises(demos.DemoError, match="generated with --route shade"):
        generate(tmp_path / "shade", task, ["train_env_005"], play="discrete")
    with pytest.raises(demos.DemoError, match="route must be one of launcher, shade"):
        generate(tmp_path / "other", task, ["train_env_005"], route="drawer")


def test_a_discrete_tap_label_stays_on_the_tapped_element():
    """The grid cell nearest the point (y = 650, the row below) is outside the tapped row
    [560, 640); the label is the nearest cell inside it, and taps on nothing take the
    nearest cell overall."""
    from bmoca.demos.convert import convert
    from bmoca.env import actions as act
    from bmoca.env import observations as obs

    xml = ("<hierarchy><node bounds='[0,0][1080,2000]'>"
           "<node text='row' bounds='[100,560][1000,640]'/></node></hierarchy>")
    screen = act.Screen(1080, 2000, tuple(obs.translate(xml)))
    grid = act.Discrete()
    on_row = convert({"action_type": "click", "x": 540, "y": 630}, screen).discrete
    tap = grid.convert(on_row, screen)[0]
    assert 560 <= tap.y < 640 and 100 <= tap.x < 1000
    elsewhere = convert({"action_type": "click", "x": 540, "y": 1990}, screen).discrete
    assert elsewhere == act.Discrete.index_of(1990.5 / 2000, 540.5 / 1080, 1990.5 / 2000,
                                              540.5 / 1080)


def test_few_shot_draws_only_training_configurations_deterministically(tmp_path):
    out = tmp_path / "ds"
    generate(out, TASKS[:2], ["train_env_000", "test_env_100", "train_env_030"], split="all",
             screen_width=64)
    dataset = demos.load(out)
    assert {d.config_id for d in dataset.episodes} >= {"test_env_100"}
    task = TASKS[0].id
    for seed in range(6):
        picked = demos.few_shot(dataset, task, k=2, seed=seed)
        assert {d.config_id for d in picked} == set(TRAIN) and {d.task_id for d in picked} == {task}
        assert picked == demos.few_shot(dataset, task, k=2, seed=seed)
        pairs = demos.few_shot(dataset, task, k=3, mode="pairs", seed=seed)
        assert len(pairs) == 3 and all(isinstance(p, demos.DemoStep) for p in pairs)
        same_task = [s for d in dataset.episodes if d.task_id == task
                     and d.config_id != "test_env_100" for s in d.steps]
        assert all(any(p == s for s in same_task) for p in pairs)
    # asking for more than exist gives each once; excluding a configuration removes it
    assert len(demos.few_shot(dataset, task, k=10, seed=0)) == 2
    only = demos.few_shot(dataset, task, k=5, seed=0, exclude_config="train_env_000")
    assert [d.config_id for d in only] == ["train_env_030"]
    # a task without demonstrations falls back to other tasks' trajectories (their own goals)
    other = demos.few_shot(dataset, "calculator/open_Calculator", k=4, seed=1)
    assert {d.task_id for d in other} <= {t.id for t in TASKS[:2]} and len(other) == 4
    assert all(d.config_id in TRAIN for d in other)
    orders = {tuple(d.key for d in demos.few_shot(dataset, "x", k=4, seed=s)) for s in range(8)}
    assert len(orders) > 1  # the seed matters
    with pytest.raises(ValueError, match="positive int"):
        demos.few_shot(dataset, task, k=0)
    with pytest.raises(ValueError, match="'trajectory' or 'pairs'"):
        demos.few_shot(dataset, task, k=1, mode="steps")


def test_few_shot_without_training_demonstrations_says_so(tmp_path):
    generate(tmp_path / "t", TASKS[:1], ["test_env_100"], split="test", screen_width=64)
    with pytest.raises(demos.DemoError, match="no successful demonstrations on training "
                                              "configurations.*test_env_100"):
        demos.few_shot(demos.load(tmp_path / "t"), TASKS[0].id, k=1)


def test_reader_names_file_and_line_of_bad_input(tmp_path):
    with pytest.raises(demos.DemoError, match="no manifest.json"):
        demos.load(tmp_path)
    (tmp_path / "manifest.json").write_text('{"format": "other"}')
    with pytest.raises(demos.DemoError, match="not a bmoca demonstration manifest"):
        demos.load(tmp_path)
    (tmp_path / "manifest.json").write_text('{"format": "bmoca-demos", "version": 9}')
    with pytest.raises(demos.DemoError, match="format version 9"):
        demos.load(tmp_path)
    (tmp_path / "manifest.json").write_text('{"format": "bmoca-demos", "version": 2}')
    (tmp_path / "episodes.jsonl").write_text('{"task_id": "a"}\n')
    with pytest.raises(demos.DemoError, match=r"episodes.jsonl:1: episode lacks field\(s\) "
                                              "config_id, goal, success, steps"):
        demos.load(tmp_path)
    (tmp_path / "episodes.jsonl").write_text('\n{oops\n')
    with pytest.raises(demos.DemoError, match=r"episodes.jsonl:2: not valid JSON"):
        demos.load(tmp_path)


def test_generate_refuses_a_foreign_directory_and_another_split(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(demos.DemoError, match="not empty and holds no manifest.json"):
        generate(tmp_path, TASKS[:1], TRAIN[:1])
    generate(tmp_path / "ds", TASKS[:1], TRAIN[:1], screen_width=64)
    with pytest.raises(demos.DemoError, match="holds a 'train' dataset"):
        generate(tmp_path / "ds", TASKS[:1], ["test_env_100"], split="test")


def test_a_killed_generation_keeps_its_episodes_and_resumes(tmp_path):
    out = tmp_path / "ds"
    args = [sys.executable, "-m", "bmoca.cli.main", "demos", "generate", "--tasks",
            "settings/turn_on_wifi,settings/turn_off_wifi,calculator/open_Calculator",
            "--configs", "train_env_000,train_env_001,train_env_002", "--out", str(out),
            "--screen-width", "64"]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    episodes = out / "episodes.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if episodes.exists() and episodes.read_bytes().count(b"\n") >= 2:
            break
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    before = episodes.read_bytes()
    complete = before[: before.rfind(b"\n") + 1]
    assert complete.count(b"\n") >= 2
    # what a kill in the middle of writing leaves: half a line and an unlisted screen folder
    with episodes.open("ab") as f:
        f.write(b'{"task_id": "settings/tur')
    orphan = out / "screens" / str(complete.count(b"\n"))
    orphan.mkdir(parents=True, exist_ok=True)
    (orphan / "0.png").write_bytes(b"junk")
    done = subprocess.run(args, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "already done" in done.stdout
    after = episodes.read_bytes()
    assert after.startswith(complete)  # episodes kept before the kill are untouched
    dataset = demos.load(out)
    keys = [d.key for d in dataset.episodes]
    assert len(keys) == len(set(keys)) == 9
    assert json.loads((out / "manifest.json").read_text())["episodes"] == 9
    for demo in dataset.episodes:
        for step in demo.steps:
            assert dataset.screenshot_path(step).read_bytes().startswith(b"\x89PNG")

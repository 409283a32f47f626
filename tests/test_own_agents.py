"""Agents of one's own: `bmoca eval --agent module:Class`, the `bmoca.agents` entry points,
the docs' example, and the AndroidWorld-style API."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bmoca import agents, tasks
from bmoca.env import actions as act
from bmoca.env.androidworld import AndroidWorldEnv, AndroidWorldTask
from bmoca.eval.store import Store

WIFI = tasks.get("settings/turn_on_wifi")
DOCS = Path(__file__).resolve().parent.parent / "docs" / "agents.md"

MY_AGENT = '''
class MyAgent:
    name = "mine"
    action_mode = "json"
    observation_modes = ("text",)

    def __init__(self, greeting="hello"):
        self.greeting = greeting

    def reset(self, goal, seed=None):
        assert goal.startswith("Goal: ")
        self.steps = 0

    def act(self, observation):
        assert "numeric_tag" in observation["text"]
        self.steps += 1
        if self.steps == 1:
            return {"action_type": "answer", "text": self.greeting}
        return {"action_type": "status", "goal_status": "complete"}


def with_task(task, greeting="hi"):
    agent = MyAgent(greeting + " " + task.id)
    return agent


class Broken:
    name = "broken"
    action_mode = "json"
'''


def cli(*args: str, cwd: Path, env: dict[str, str] | None = None,
        script: bool = False) -> subprocess.CompletedProcess:
    """`bmoca ...` as a user runs it: the console script (which does not put the current
    directory on sys.path) or `python -m bmoca.cli.main`."""
    command = [str(Path(sys.executable).parent / "bmoca")] if script else [
        sys.executable, "-m", "bmoca.cli.main"]
    return subprocess.run([*command, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300, env={**os.environ, "COLUMNS": "200", **(env or {})})


def test_eval_runs_an_agent_class_from_a_module_on_pythonpath_in_two_workers(tmp_path):
    code = tmp_path / "code"
    code.mkdir()
    (code / "mymod.py").write_text(MY_AGENT)
    result = cli("eval", "--agent", "mymod:MyAgent", "-o", "greeting=bonjour", "--tasks",
                 "settings/turn_on_wifi", "--configs", "test_env_100,test_env_101",
                 "--repeats", "1", "--workers", "2", "--run-dir", "run", cwd=tmp_path,
                 env={"PYTHONPATH": str(code)})
    assert result.returncode == 0, result.stderr
    with Store(tmp_path / "run") as store:
        episodes = store.episodes()
        assert [(e.agent, e.config_id, e.status, e.success, e.steps) for e in episodes] == [
            ("mymod:MyAgent", "test_env_100", "done", False, 2),
            ("mymod:MyAgent", "test_env_101", "done", False, 2)]
        first = store.steps_of(episodes[0].episode_id)
        assert "bonjour" in first[0].action and "complete" in first[1].action
    assert (tmp_path / "run" / "results.md").exists()


def test_the_docs_example_runs_from_the_current_directory(tmp_path):
    text = DOCS.read_text("utf-8")
    example = re.search(r"```python\n(# my_agent\.py.*?)```", text, re.S).group(1)
    assert len(example.strip().splitlines()) <= 24  # "a complete one, 20 lines"
    (tmp_path / "my_agent.py").write_text(example)
    result = cli("eval", "--agent", "my_agent:KeywordAgent", "-o", "app=Settings", "--tasks",
                 "settings/turn_on_wifi", "--configs", "test_env_100", "--repeats", "1",
                 "--run-dir", "run", cwd=tmp_path, script=True)
    assert result.returncode == 0, result.stderr
    with Store(tmp_path / "run") as store:
        [episode] = store.episodes()
        steps = store.steps_of(episode.episode_id)
    assert episode.status == "done" and episode.steps == WIFI.step_limit
    assert '"open_app"' in steps[0].action and all(s.valid for s in steps)


def test_a_factory_gets_the_task_and_options(monkeypatch, tmp_path):
    (tmp_path / "mymod.py").write_text(MY_AGENT)
    monkeypatch.syspath_prepend(str(tmp_path))
    agent = agents.build("mymod:with_task", WIFI, {"greeting": "hey"})
    assert agent.greeting == "hey settings/turn_on_wifi"


@pytest.mark.parametrize(("spec", "options", "message"), [
    ("nosuchmodule_xyz:Agent", {}, "no module named 'nosuchmodule_xyz'"),
    ("mymod:MyAgnt", {}, "'mymod' has no attribute 'MyAgnt'; it has: Broken, MyAgent"),
    ("mymod:Broken", {}, "not an agent: it lacks observation_modes, reset, act"),
    ("mymod:MyAgent", {"colour": "red"}, r"refuses options \['colour'\].*it takes: greeting"),
    ("mymod:MyAgent.greeting", {}, "'MyAgent' has no attribute 'greeting'"),
])
def test_a_bad_spec_is_one_clear_error(monkeypatch, tmp_path, spec, options, message):
    (tmp_path / "mymod.py").write_text(MY_AGENT)
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ValueError, match=message):
        agents.build(spec, WIFI, options)


def test_a_bad_spec_stops_the_cli_before_the_run(tmp_path):
    (tmp_path / "mymod.py").write_text(MY_AGENT)
    result = cli("eval", "--agent", "mymod:Broken", "--tasks", "settings/turn_on_wifi",
                 "--configs", "test_env_100", "--run-dir", "run", cwd=tmp_path)
    assert result.returncode == 2
    assert "not an agent: it lacks observation_modes, reset, act" in " ".join(result.stderr.split())
    assert not (tmp_path / "run").exists()


def test_an_installed_package_adds_agent_names(monkeypatch, tmp_path):
    """A distribution's metadata on sys.path, as pip would leave it (nothing installed)."""
    (tmp_path / "mymod.py").write_text(MY_AGENT)
    info = tmp_path / "my_agents-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: my-agents\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[bmoca.agents]\nmine = mymod:MyAgent\n"
                                           "gone = mymod:Missing\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    agent = agents.build("mine", WIFI, {"greeting": "yo"})
    assert agent.name == "mine" and agent.greeting == "yo"
    with pytest.raises(ValueError, match="agent 'gone': loading entry point 'mymod:Missing'"):
        agents.build("gone", WIFI)
    with pytest.raises(ValueError, match=r"unknown agent 'psychic'.*installed agent \(gone, mine\)"):
        agents.build("psychic", WIFI)
    result = cli("eval", "--agent", "mine", "--tasks", "settings/turn_on_wifi", "--configs",
                 "test_env_100", "--repeats", "1", "--run-dir", "run", cwd=tmp_path,
                 env={"PYTHONPATH": str(tmp_path)})
    assert result.returncode == 0, result.stderr
    with Store(tmp_path / "run") as store:
        assert [(e.agent, e.status) for e in store.episodes()] == [("mine", "done")]


def test_androidworld_style_api_runs_an_episode():
    with AndroidWorldEnv(config="test_env_100") as env:
        task = AndroidWorldTask("settings/turn_on_wifi")
        assert task.goal == "turn on wifi" and task.name == WIFI.id
        task.initialize_task(env)
        state = env.get_state()
        assert state.pixels.shape == (2160, 1080, 3) and state.pixels.dtype == np.uint8
        assert state.foreground_activity.startswith("com.google.android.apps.nexuslauncher/")
        assert task.is_successful(env) == 0.0
        env.execute_action({"action_type": "open_app", "app_name": "Settings"})
        state = env.get_state()
        assert state.foreground_activity == "com.android.settings/.Settings"
        [network] = [e for e in state.ui_elements if e.text == "Network & internet"]
        assert network.class_name == "android.widget.TextView" and not network.is_clickable
        assert network.bbox_pixels.x_max > network.bbox_pixels.x_min  # its row takes the tap
        assert sum(e.is_clickable for e in state.ui_elements) > 5
        env.execute_action(f'{{"action_type": "click", "index": {network.index}}}')
        state = env.get_state()
        [switch] = [e for e in state.ui_elements
                    if e.resource_name == "com.android.settings:id/switchWidget"]
        assert switch.is_checkable and not switch.is_checked
        env.execute_action({"action_type": "click", "index": switch.index})
        assert task.is_successful(env) == 1.0
        with pytest.raises(act.InvalidAction):
            env.execute_action({"action_type": "fly"})
        env.execute_action({"action_type": "answer", "text": "done"})
        env.execute_action({"action_type": "status", "goal_status": "complete"})
        assert env.interaction_cache == "done" and env.goal_status == "complete"
        task.initialize_task(env)  # a new episode starts from the snapshot and the set-up
        assert task.is_successful(env) == 0.0
        assert env.foreground_activity_name.startswith("com.google.android.apps.nexuslauncher/")

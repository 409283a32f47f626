"""Issue 33's command-line edges: a missing device, a resume on another device, split
case, `demos list DIR`, `python -m bmoca`, readable help, and the AVD doctor/dry run."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from bmoca import tasks
from bmoca.eval import evaluate
from bmoca.eval.store import Store

SCRIPT = "import sys; sys.argv[0] = 'bmoca'; from bmoca.cli.main import main; main()"
TASK = "settings/turn_on_wifi"


def bmoca(*args: str, cwd: Path, env: dict[str, str] | None = None
          ) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", SCRIPT, *args], cwd=cwd, capture_output=True,
                          text=True, timeout=300,
                          env={**os.environ, "COLUMNS": "80", **(env or {})})


def _closed_port() -> str:
    """A port nothing listens on: an adb server that is not there."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return str(s.getsockname()[1])


@pytest.mark.parametrize("args", [
    ["screenshot", "--out", "s.png"],
    ["dump"],
    ["shell", "true"],
    ["eval", "--agent", "expert", "--task", TASK, "--configs", "test_env_100"],
    ["validate", "--task", TASK, "--configs", "test_env_100"],
])
def test_a_device_that_is_not_attached_is_one_error_line(args, tmp_path):
    result = bmoca(*args, "--device", "adb:emulator-9999", cwd=tmp_path,
                   env={"ANDROID_ADB_SERVER_PORT": _closed_port(), "ADB_SERVER_SOCKET": ""})
    assert result.returncode == 1, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(lines) == 1 and "emulator-9999" in lines[0], result.stderr
    assert "Traceback" not in result.stderr and "╭" not in result.stderr
    assert not (tmp_path / "s.png").exists()


def test_a_run_of_a_real_device_is_not_resumed_on_the_simulator(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    with Store(run) as store:  # what `bmoca eval --device adb:emulator-5554 --out run` records
        evaluate.evaluate(store, "run", "expert", [tasks.get(TASK)], ["test_env_100"], 1,
                          spec={"split": "test"}, device="adb:emulator-5554", limit=0)
        assert store.runs()[0].spec["device"] == "adb:emulator-5554"
    result = bmoca("eval", "--agent", "expert", "--task", TASK, "--configs", "test_env_100",
                   "--repeats", "1", "--out", str(run), cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(lines) == 1, result.stderr
    assert 'device: "adb:emulator-5554" stored, "sim" now' in lines[0]
    with Store(run) as store:
        assert store.episodes() == []


def test_split_case_is_normalised_so_a_rerun_resumes_the_same_run(tmp_path):
    first = bmoca("eval", "--agent", "expert", "--task", TASK, "--split", "test", "--limit", "1",
                  "--json", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    again = bmoca("eval", "--agent", "expert", "--task", TASK, "--split", "Test", "--limit", "1",
                  "--json", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert sorted(p.name for p in (tmp_path / "runs").iterdir()) == [
        "expert-settings_turn_on_wifi-test"]
    with Store(tmp_path / "runs" / "expert-settings_turn_on_wifi-test") as store:
        assert [r.spec["split"] for r in store.runs()] == ["test"]
        assert len(store.episodes()) == 1
    listed = bmoca("configs", "--split", "TRAIN", cwd=tmp_path)
    assert listed.returncode == 0 and len(listed.stdout.splitlines()) == 36
    cased = bmoca("eval", "--agent", "expert", "--tasks", "settings", "--task-split",
                  "Train-App", "--split", "TEST", "--limit", "1", "--json", cwd=tmp_path)
    assert cased.returncode == 0, cased.stderr
    assert '"runs/expert-settings_train-app-test"' in cased.stdout


def test_demos_list_takes_the_directory_as_an_argument_or_data(tmp_path):
    made = bmoca("demos", "generate", "--task", TASK, "--configs", "train_env_000",
                 "--out", "d", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    positional = bmoca("demos", "list", "d", "--json", cwd=tmp_path)
    assert positional.returncode == 0, positional.stderr
    assert [row["task"] for row in json.loads(positional.stdout)] == [TASK]
    assert bmoca("demos", "list", "--data", "d", "--json", cwd=tmp_path).stdout == \
        positional.stdout
    neither = bmoca("demos", "list", cwd=tmp_path)
    assert neither.returncode == 2 and neither.stderr.count("\n") == 1
    assert "DIR" in neither.stderr
    (tmp_path / "other").mkdir()
    both = bmoca("demos", "list", "d", "--data", "other", cwd=tmp_path)
    assert both.returncode == 2 and "--data" in both.stderr


def test_python_dash_m_bmoca_is_the_command(tmp_path):
    result = subprocess.run([sys.executable, "-m", "bmoca", "--help"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=120,
                            env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])})
    assert result.returncode == 0, result.stderr
    assert "Usage: python -m bmoca [OPTIONS] COMMAND" in result.stdout
    assert "eval" in result.stdout and "demos" in result.stdout


def _helps(command, ctx=None):
    """(command path, help text at 80 columns, the command) for every command."""
    from bmoca.cli.help import HelpContext

    ctx = HelpContext(command, info_name=command.name or "bmoca", parent=ctx,
                      terminal_width=80)
    yield ctx.command_path, command.get_help(ctx), command
    for sub in getattr(command, "commands", {}).values():
        yield from _helps(sub, ctx)


def test_help_has_plain_metavars_and_never_cuts_a_word():
    from bmoca.cli.main import command

    helps = list(_helps(command()))
    assert len(helps) > 20
    for path, text, cmd in helps:
        options = text.partition("\nOptions:\n")[2]
        assert not re.search(r"<(list\[|int|float|str|path)", options), (path, options)
        words = set(text.split())
        for param in cmd.params:
            if getattr(param, "hidden", False):
                continue
            for word in (param.help or "").split():  # each word whole, on one line
                assert word in words, (path, param.name, word)
    by_path = {path: text for path, text, _ in helps}
    evaluate_help = by_path["bmoca eval"]
    for shown in ("--tasks SPEC", "--task ID", "--seed N", "--repeats N", "--out PATH",
                  "--device TARGET", "-o, --agent-option KEY=VALUE", "[default: settings]",
                  "[llm|mllm|t3a|m3a/]<provider>:<model>[@<base_url>]"):
        assert shown in evaluate_help
    assert "--gamma X" in by_path["bmoca train ppo"]
    assert "--data DIR" in by_path["bmoca demos list"]

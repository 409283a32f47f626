"""The `bmoca` command as a script sees it: run in a subprocess with stdout a pipe.

Full ids, never ellipsised; plain text when piped; `--json` for what a script reads; help
texts keep their [brackets]; a bad value is one line naming the valid choices, exit 2.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bmoca import tasks

COMMA_ID = "calculator/compute_the_geometric_mean_of_3,_4,_and_5_in_Calculator"
SCRIPT = "import sys; sys.argv[0] = 'bmoca'; from bmoca.cli.main import main; main()"


def bmoca(*args: str, cwd: Path | None = None, timeout: int = 300) -> subprocess.CompletedProcess:
    """The real command, stdout and stderr pipes, a narrow terminal width to tempt wrapping."""
    env = {**os.environ, "COLUMNS": "80"}
    return subprocess.run([sys.executable, "-c", SCRIPT, *args], cwd=cwd, env=env,
                          capture_output=True, text=True,
                          timeout=timeout)


def test_tasks_piped_prints_every_full_id_as_tab_separated_text():
    result = bmoca("tasks")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split("\t")[:4] == ["id", "app", "category", "steps"]
    ids = [line.split("\t")[0] for line in lines[1:]]
    assert ids == [t.id for t in tasks.all_tasks()]
    assert "…" not in result.stdout and "┃" not in result.stdout
    assert [i for i in ids if "wifi" in i] == ["settings/turn_on_wifi", "settings/turn_off_wifi"]


def test_tasks_and_configs_json():
    listed = json.loads(bmoca("tasks", "--app", "settings", "--json").stdout)
    assert {row["id"] for row in listed} == {t.id for t in tasks.list(app="Settings")}
    assert all(isinstance(row["steps"], int) for row in listed)
    configs = json.loads(bmoca("configs", "--split", "test", "--json").stdout)
    assert [c["id"] for c in configs] == [f"test_env_{n}" for n in range(100, 110)]
    assert {c["split"] for c in configs} == {"test"}
    piped = bmoca("configs").stdout.splitlines()
    assert piped[0].startswith("id\t") and len(piped) == 46


@pytest.mark.parametrize("args, where, names", [
    (["tasks", "--app", "nope"], "--app", ["Settings", "Clock"]),
    (["tasks", "--category", "Systm"], "did you mean System", ["Web/Shopping"]),
    (["configs", "--split", "val"], "--split", ["train, test, all"]),
    (["eval", "--split", "val"], "--split", ["train, test, all"]),
    (["validate", "--split", "val"], "--split", ["train, test, all"]),
    (["demos", "generate", "--out", "d", "--split", "val"], "--split", ["train, test, all"]),
    (["eval", "--tasks", "setings"], "did you mean Settings", ["representative"]),
    (["eval", "--task", "settings/turn_on_wify"], "did you mean settings/turn_on_wifi", []),
    (["eval", "--configs", "test_env_999"], "--configs", ["test_env_100..test_env_109"]),
    (["eval", "--agent", "psychic"], "--agent", ["unknown agent"]),
    (["eval", "--device", "usb"], "--device", ["adb:SERIAL"]),
    (["eval", "--repeats", "0"], "--repeats", []),
    (["eval", "--bogus"], "--bogus", []),
    (["screenshot", "--locale", "xx"], "--locale", ["de-DE", "zh-Hans-CN"]),
    (["screenshot", "--config", "test_env_1000"], "--config", ["test_env_100"]),
    (["demos", "generate", "--out", "d", "--play", "fast"], "--play", ["exact", "discrete"]),
])
def test_every_bad_value_is_one_line_naming_the_choices_exit_2(args, where, names, tmp_path):
    result = bmoca(*args, cwd=tmp_path)
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"bmoca {args[0]}") and "error:" in lines[0]
    for expected in [where, *names]:
        assert expected in lines[0]
    assert not (tmp_path / "runs").exists() and not (tmp_path / "d").exists()


@pytest.mark.parametrize("args, kept", [
    (["eval", "--help"], ["[llm|mllm|t3a|m3a/]<provider>:<model>[@<base_url>]"]),
    (["report", "--help"], ["'bmoca[report]'"]),
    (["screenshot", "--help"], ["id=RES[#N]"]),
    (["train", "--help"], ["'.[train]'"]),
])
def test_help_keeps_its_brackets_and_draws_no_boxes(args, kept):
    result = bmoca(*args)
    assert result.returncode == 0, result.stderr
    flat = "".join(result.stdout.split())  # click wraps long words: compare without spaces
    for text in kept:
        assert "".join(text.split()) in flat
    assert not any(c in result.stdout for c in "╭│┃━")


def test_version_and_completion():
    from bmoca import __version__

    assert bmoca("--version").stdout == f"bmoca {__version__}\n"
    # typer names the shell by looking for one among the process's ancestors: run the
    # command under bash, so that a suite started outside any shell finds one too
    result = subprocess.run(["bash", "-c", '"$@"; exit $?', "bash", sys.executable, "-c",
                             SCRIPT, "--show-completion"], capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0 and "_BMOCA_COMPLETE" in result.stdout, result.stderr


def test_ids_with_commas_globs_and_repeated_task_options_select_exactly(tmp_path):
    out = tmp_path / "r"
    result = bmoca("eval", "--tasks", f"{COMMA_ID},settings/turn_on_wifi",
                   "--task", "clock/open_the_clock_app", "--tasks", "clock/*stopwatch*",
                   "--configs", "test_env_100", "--repeats", "1", "--out", str(out), "--json",
                   cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    stopwatch = [t.id for t in tasks.all_tasks() if t.id.startswith("clock/")
                 and "stopwatch" in t.id]
    assert set(report["tasks"]) == {COMMA_ID, "settings/turn_on_wifi", "clock/open_the_clock_app",
                                    *stopwatch}
    assert report["overall"]["episodes"] == 3 + len(stopwatch)
    assert report["overall"]["success"] == 1.0
    assert report["run_dir"] == str(out) and (out / "results.sqlite").exists()
    category = bmoca("eval", "--tasks", "Web/Shopping", "--dry-run", "--json")
    assert category.returncode == 0, category.stderr
    assert json.loads(category.stdout)["tasks"] == len(tasks.list(category="Web/Shopping"))


def test_eval_limit_and_the_old_run_dir_spelling(tmp_path):
    run = tmp_path / "run"
    result = bmoca("eval", "--tasks", "settings", "--configs", "test_env_100", "--limit", "4",
                   "--run-dir", str(run), "--json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["overall"]["episodes"] == 4
    piped = bmoca("eval", "--tasks", "settings", "--configs", "test_env_100", "--limit", "6",
                  "--out", str(run), cwd=tmp_path)
    assert piped.returncode == 0, piped.stderr
    assert "| settings/turn_on_wifi |" in piped.stdout and "┃" not in piped.stdout
    assert "already stored" in piped.stderr


def test_dry_run_bounds_a_model_run_without_a_key_or_any_call(tmp_path):
    env_free = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT, "eval", "--agent", "openai:gpt-4o", "--tasks",
         "representative", "--split", "test", "--dry-run", "--json"],
        cwd=tmp_path, env=env_free, capture_output=True, text=True,
        timeout=300)
    assert result.returncode == 0, result.stderr
    plan = json.loads(result.stdout)
    steps = sum(t.step_limit for t in tasks.select("representative")) * 10 * 3
    assert plan["episodes"] == 6 * 10 * 3 and plan["max_steps"] == steps
    assert plan["model_calls_max"] == steps and plan["output_tokens_max"] == steps * 256
    assert plan["input_tokens_estimate"] > steps * 100
    assert plan["price_per_million"] == [2.5, 10.0]
    expected = (plan["input_tokens_estimate"] * 2.5 + plan["output_tokens_max"] * 10) / 1e6
    assert plan["cost_usd_max"] == pytest.approx(expected, abs=1e-3)
    assert not (tmp_path / "runs").exists()
    local = bmoca("eval", "--agent", "openai-compatible:llama@http://localhost:1/v1",
                  "--limit", "2", "--dry-run", cwd=tmp_path)
    assert local.returncode == 0, local.stderr
    assert "2 episodes" in local.stdout and "cost: unknown" in local.stdout


def test_validate_json_and_locale_resolution(tmp_path):
    result = bmoca("validate", "--task", "settings/turn_on_wifi", "--configs", "test_env_100",
                   "--json")
    assert result.returncode == 0, result.stderr
    outcome = json.loads(result.stdout)
    assert outcome["ok"] is True and outcome["problems"] == []
    assert (outcome["tasks"], outcome["configs"], outcome["episodes"]) == (1, 1, 2)
    xml = {}
    for tag in ("de", "de-DE", "en-US"):
        result = bmoca("screenshot", "--config", "test_env_100", "--locale", tag, "--open",
                       "com.android.settings/.Settings", "--xml", str(tmp_path / f"{tag}.xml"),
                       "--out", str(tmp_path / f"{tag}.png"))
        assert result.returncode == 0, result.stderr
        xml[tag] = (tmp_path / f"{tag}.xml").read_text()
    assert xml["de"] == xml["de-DE"] != xml["en-US"]
    assert "Netzwerk" in xml["de"]


def test_library_entry_points():
    code = ("import inspect, bmoca; import bmoca.env; print(bmoca.tasks.__name__); "
            "print(bmoca.make is bmoca.env.make); "
            "print(list(inspect.signature(bmoca.make).parameters)[:2]); "
            "from bmoca.device import connect; print(connect('sim', config='train_env_000')"
            ".screen_size())")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["bmoca.tasks", "True", "['task', 'config']",
                                          "(1080, 2160)"]


def test_a_refused_dataset_resume_is_one_error_line(tmp_path):
    """Long errors from the library are not wrapped at the terminal width."""
    args = ("demos", "generate", "--task", "settings/turn_on_wifi", "--configs",
            "random_train_0", "--out", str(tmp_path / "ds"), "--screen-width", "32")
    assert bmoca(*args, "--play", "discrete").returncode == 0
    result = bmoca(*args, "--play", "exact")
    assert result.returncode == 2 and result.stdout == ""
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert errors == [f"error: {tmp_path / 'ds'} was generated with --play discrete; resume "
                      "it with the same --play or use another directory"]

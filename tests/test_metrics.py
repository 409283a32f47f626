"""Success tables: hand-computed means and standard errors, errors kept out, rendering."""

from __future__ import annotations

import io
import math
import statistics

import pytest
from rich.console import Console

from bmoca.eval.metrics import Cell, format_cell, render, success_table, to_markdown
from bmoca.eval.store import EpisodeRow


def ep(task: str, config: str, repeat: int, success: bool | None, *, status: str = "done",
       steps: int = 4, agent: str = "random") -> EpisodeRow:
    return EpisodeRow(
        episode_id=0, run_id="r1", agent=agent, task_id=task, config_id=config, repeat=repeat,
        seed=repeat, status=status, success=success if status == "done" else None,
        steps=steps, invalid_actions=0, reward=0.0, terminated=True, truncated=False,
        error="adb died" if status == "error" else None, detector_trace=None,
        started=0.0, finished=1.0, wall_s=1.0, reset_s=0.1,
    )


def outcomes(task: str, config: str, successes: list[int], **kw) -> list[EpisodeRow]:
    return [ep(task, config, r, bool(s), **kw) for r, s in enumerate(successes)]


EPISODES = [
    *outcomes("alarm", "c0", [1, 0, 1]),
    *outcomes("alarm", "c1", [1, 1, 1], steps=2),
    *outcomes("wifi", "c0", [0, 0, 0]),
    ep("wifi", "c1", 0, True),
    ep("wifi", "c1", 1, None, status="error"),
    ep("wifi", "c1", 2, None, status="running"),
]


def close(cell: Cell, mean: float, stderr: float) -> bool:
    return math.isclose(cell.mean, mean) and math.isclose(cell.stderr, stderr, abs_tol=1e-12)


def test_cells_over_repeats():
    table = success_table(EPISODES)
    assert (table.tasks, table.configs) == (["alarm", "wifi"], ["c0", "c1"])

    c = table.cells[("alarm", "c0")]  # [1, 0, 1]: sd sqrt(1/3), se 1/3
    assert (c.n, c.successes, c.episodes, c.errors) == (3, 2, 3, 0)
    assert close(c, 2 / 3, 1 / 3) and c.mean_steps == 4
    assert close(table.cells[("alarm", "c1")], 1.0, 0.0)
    assert close(table.cells[("wifi", "c0")], 0.0, 0.0)

    single = table.cells[("wifi", "c1")]  # one done repeat, one errored, one running
    assert (single.n, single.episodes, single.errors) == (1, 1, 1)
    assert close(single, 1.0, 0.0)


def test_aggregates_use_per_repeat_rates():
    table = success_table(EPISODES)
    # alarm: per-repeat rates over configs [1, .5, 1]; 5 of 6 episodes succeed.
    alarm = table.per_task["alarm"]
    assert (alarm.n, alarm.episodes, alarm.successes) == (3, 6, 5)
    assert close(alarm, 5 / 6, statistics.stdev([1, 0.5, 1]) / math.sqrt(3))
    assert alarm.mean_steps == 3
    # wifi: rates [.5, 0, 0]; 1 of 4 done episodes succeeds, the errored one is apart.
    wifi = table.per_task["wifi"]
    assert close(wifi, 1 / 4, statistics.stdev([0.5, 0, 0]) / math.sqrt(3)) and wifi.errors == 1
    assert close(table.per_config["c0"], 2 / 6, statistics.stdev([0.5, 0, 0.5]) / math.sqrt(3))
    assert close(table.per_config["c1"], 1.0, 0.0) and table.per_config["c1"].errors == 1
    overall = table.overall  # repeat 0: 3/4, repeat 1: 1/3, repeat 2: 2/3
    assert (overall.episodes, overall.successes, overall.errors) == (10, 6, 1)
    assert close(overall, 0.6, statistics.stdev([3 / 4, 1 / 3, 2 / 3]) / math.sqrt(3))


def test_errored_episodes_do_not_count():
    table = success_table([*outcomes("alarm", "c0", [1]), ep("alarm", "c0", 1, None, status="error")])
    cell = table.cells[("alarm", "c0")]
    assert (cell.n, cell.mean, cell.errors) == (1, 1.0, 1)
    only_errors = success_table([ep("alarm", "c0", 0, None, status="error")]).overall
    assert only_errors.episodes == 0 and math.isnan(only_errors.mean)
    assert format_cell(only_errors) == "–"


def test_several_agents_are_refused():
    with pytest.raises(ValueError, match="several agents"):
        success_table([ep("alarm", "c0", 0, True), ep("alarm", "c0", 0, True, agent="gpt")])


def test_markdown_cells():
    md = to_markdown(success_table(EPISODES))
    lines = md.splitlines()
    assert lines[0] == "| task | c0 | c1 | all |"
    assert "| alarm | 67±33 | 100 | 83±17 |" in lines
    assert "| wifi | 0 | 100 | 25±17 |" in lines
    assert "| all tasks | 33±17 | 100 | 60±13 |" in lines
    assert "1 errored (excluded)" in md


def test_render_matrix():
    console = Console(record=True, width=200, force_terminal=True)
    render(success_table(EPISODES), console=console)
    text = console.export_text()
    assert "alarm" in text and "wifi" in text and "all tasks" in text
    assert "67±33" in text and "83±17" in text


def test_render_many_configs():
    configs = [f"cfg{i}" for i in range(15)]
    episodes = [e for c in configs for e in outcomes("alarm", c, [1, 0])]
    episodes += [e for c in configs for e in outcomes("wifi", c, [1, 1])]
    table = success_table(episodes)
    assert table.configs[:3] == ["cfg0", "cfg1", "cfg2"] and table.configs[-1] == "cfg14"

    wide = Console(record=True, width=200, force_terminal=True)
    render(table, console=wide)
    text = wide.export_text()
    assert "success % ± se" in text and "mean steps" in text
    assert "cfg14" in text  # the matrix fits

    narrow = Console(record=True, width=80, force_terminal=True)
    render(table, console=narrow)
    text = narrow.export_text()
    assert "alarm" in text and "wifi" in text and "cfg14" not in text
    md = to_markdown(table)
    assert "| task | configs | success % ± se | mean steps | errors |" in md
    assert "| alarm | 15 | 50±50 | 4.0 | 0 |" in md
    assert "| cfg14 | all |" in md


def test_render_into_a_pipe_is_plain_markdown_with_full_ids():
    long_id = "settings/increase_the_alarm_volume_in_setting_" + "x" * 60
    episodes = outcomes(long_id, "test_env_100", [1, 0]) + outcomes("wifi", "test_env_100", [1])
    out = io.StringIO()
    render(success_table(episodes), console=Console(file=out, width=40))
    text = out.getvalue()
    assert text == to_markdown(success_table(episodes))
    assert f"| {long_id} |" in text and "│" not in text

"""Exporting demonstrations: Parquet, Hugging Face `datasets` and Minari, each read back
with its own library from a small generated set; and the `bmoca demos export` command."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest
import yaml
from PIL import Image

from bmoca import demos, tasks
from bmoca.demos.export import MINARI_SIZE, export
from bmoca.demos.generate import generate

TASKS = [tasks.get("settings/turn_on_wifi"), tasks.get("calculator/input_'3×5'_in_Calculator")]
CONFIGS = ["train_env_000", "train_env_030"]
SCRIPT = "import sys; sys.argv[0] = 'bmoca'; from bmoca.cli.main import main; main()"
COLUMNS = {"episode", "task_id", "config_id", "goal", "repeat", "seed", "step",
           "text_observation", "text_action", "json_action", "dual_gesture", "discrete",
           "reward", "terminated", "truncated", "screenshot", "screenshot_path"}


@pytest.fixture(scope="module")
def dataset(tmp_path_factory) -> demos.Dataset:
    out = tmp_path_factory.mktemp("export") / "ds"
    summary = generate(out, TASKS, CONFIGS, screen_width=96)
    assert summary.kept == 4
    return demos.load(out)


def _steps(dataset: demos.Dataset) -> list[tuple[int, demos.DemoStep]]:
    return [(n, s) for n, d in enumerate(dataset.episodes) for s in d.steps]


def _check_rows(dataset: demos.Dataset, table: list[dict]) -> None:
    """Every step is one row, in order, with what the dataset holds."""
    expected = _steps(dataset)
    assert len(table) == len(expected) > len(dataset.episodes)
    assert set(table[0]) == COLUMNS
    for row, (number, step) in zip(table, expected, strict=True):
        demo = dataset.episodes[number]
        assert (row["episode"], row["task_id"], row["config_id"], row["step"]) == \
            (number, demo.task_id, demo.config_id, step.step)
        assert json.loads(row["text_observation"]) == step.elements
        assert json.loads(row["json_action"]) == step.json_action
        assert (row["text_action"], row["discrete"]) == (step.text_action, step.discrete)
        assert row["dual_gesture"] == pytest.approx(list(step.dual_gesture))
        assert (row["reward"], row["terminated"], row["truncated"]) == \
            (step.reward, step.terminated, step.truncated)
        assert row["screenshot_path"] == step.screenshot
    assert sum(r["reward"] for r in table) == len(dataset.episodes)
    assert [r["terminated"] for r in table].count(True) == len(dataset.episodes)


def test_parquet_has_one_row_per_step_with_the_png(dataset, tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    result = export(dataset, "parquet", tmp_path / "demos.parquet")
    assert (result.episodes, result.steps) == (4, len(_steps(dataset)))
    table = pq.read_table(tmp_path / "demos.parquet").to_pylist()
    _check_rows(dataset, table)
    assert table[0]["screenshot"] == dataset.screenshot_path(dataset.episodes[0].steps[0]).read_bytes()
    with Image.open(io.BytesIO(table[-1]["screenshot"])) as image:
        assert image.format == "PNG" and image.width == 96
    with pytest.raises(demos.DemoError, match="exists; choose a new path"):
        export(dataset, "parquet", tmp_path / "demos.parquet")


def test_hugging_face_dataset_loads_from_disk_with_images(dataset, tmp_path):
    datasets = pytest.importorskip("datasets")
    result = export(dataset.path, "hf", tmp_path / "hf")
    assert result.steps == len(_steps(dataset))
    loaded = datasets.load_from_disk(str(tmp_path / "hf"))
    assert isinstance(loaded.features["screenshot"], datasets.Image)
    image = loaded[0]["screenshot"]  # decoded by datasets into a PIL image
    first = dataset.episodes[0].steps[0]
    with Image.open(dataset.screenshot_path(first)) as png:
        assert np.array_equal(np.asarray(image.convert("RGB")), np.asarray(png.convert("RGB")))
    raw = loaded.cast_column("screenshot", datasets.Image(decode=False)).to_list()
    _check_rows(dataset, raw)
    assert [r["screenshot"]["bytes"] for r in raw] == \
        [dataset.screenshot_path(s).read_bytes() for _, s in _steps(dataset)]


def test_hugging_face_export_writes_a_dataset_card_the_hub_reads(dataset, tmp_path):
    """README.md: YAML front matter `huggingface_hub` parses (license, categories, tags,
    size, a `configs` entry `datasets.load_dataset` follows), and a body naming the
    fields, tasks, configurations, collection and citation."""
    datasets = pytest.importorskip("datasets")
    export(dataset, "hf", tmp_path / "hf")
    text = (tmp_path / "hf" / "README.md").read_text("utf-8")
    assert text.startswith("---\n")
    front = yaml.safe_load(text.split("---\n")[1])
    assert front["license"] == "apache-2.0" and front["size_categories"] == ["n<1K"]
    assert "reinforcement-learning" in front["task_categories"] and "android" in front["tags"]
    assert front["configs"] == [{"config_name": "default", "data_files": [
        {"split": "train", "path": "data-*.arrow"}]}]
    for column in COLUMNS:
        assert f"| `{column}` |" in text
    for demo in dataset.episodes:
        assert f"| `{demo.task_id}` | {demo.goal} |" in text and f"`{demo.config_id}`" in text
    assert "--play exact" in text and "arXiv:2404.16660" in text
    hub = pytest.importorskip("huggingface_hub")
    card = hub.DatasetCard.load(tmp_path / "hf" / "README.md")
    assert card.data.license == "apache-2.0" and card.data.tags == front["tags"]
    assert card.data.configs == front["configs"] and "## Citation" in card.text
    # the card's `configs` is how the Hub loads the uploaded files (`load_dataset` refuses
    # a local save_to_disk directory, so load a copy of the card and the data files)
    hub_copy = tmp_path / "hub"
    hub_copy.mkdir()
    for path in (tmp_path / "hf").iterdir():
        if path.name == "README.md" or path.suffix == ".arrow":
            shutil.copy(path, hub_copy / path.name)
    loaded = datasets.load_dataset(str(hub_copy), cache_dir=str(tmp_path / "cache"))
    assert list(loaded) == ["train"] and loaded["train"].num_rows == len(_steps(dataset))
    assert loaded["train"][0]["task_id"] == dataset.episodes[0].task_id


def test_minari_dataset_loads_and_matches_the_episodes(dataset, tmp_path, monkeypatch):
    minari = pytest.importorskip("minari")
    result = export(dataset, "minari", tmp_path / "minari", dataset_id="bmoca/test-v0")
    assert result.out == tmp_path / "minari" / "bmoca" / "test-v0" and not result.skipped
    monkeypatch.setenv("MINARI_DATASETS_PATH", str(tmp_path / "minari"))
    loaded = minari.load_dataset("bmoca/test-v0")
    assert loaded.total_episodes == 4 and loaded.total_steps == len(_steps(dataset))
    assert loaded.action_space.n == 385
    width, height = MINARI_SIZE
    assert loaded.observation_space.shape == (height, width, 3)
    metadata = list(loaded.storage.get_episode_metadata(range(4)))
    for episode, meta, demo in zip(loaded.iterate_episodes(), metadata, dataset.episodes,
                                   strict=True):
        n = len(demo.steps)
        assert meta["options"]["task_id"] == demo.task_id and meta["seed"] == demo.seed
        assert episode.observations.shape == (n + 1, height, width, 3)
        assert episode.observations.dtype == np.uint8 and episode.observations.std() > 0
        assert list(episode.actions) == [s.discrete for s in demo.steps]
        assert list(episode.rewards) == [s.reward for s in demo.steps]
        assert list(episode.terminations) == [s.terminated for s in demo.steps]
        assert not episode.truncations.any() and episode.terminations[-1]
        # the last observation is the screen after the last action, not a repeat
        assert not np.array_equal(episode.observations[-1], episode.observations[-2])
    with pytest.raises(demos.DemoError, match="exists; choose another --out"):
        export(dataset, "minari", tmp_path / "minari", dataset_id="bmoca/test-v0")


def test_minari_recovers_an_environment_that_replays_the_episodes(dataset, tmp_path,
                                                                   monkeypatch):
    """`recover_environment()` builds bmoca's env with the dataset's spaces; reset with an
    episode's seed and options it starts that episode, and its actions succeed again."""
    minari = pytest.importorskip("minari")
    export(dataset, "minari", tmp_path / "minari", dataset_id="bmoca/env-v0")
    monkeypatch.setenv("MINARI_DATASETS_PATH", str(tmp_path / "minari"))
    loaded = minari.load_dataset("bmoca/env-v0")
    assert loaded.env_spec.id == "bmoca/Offline-v0"
    assert loaded.env_spec.kwargs["tasks"] == [t.id for t in TASKS]
    assert loaded.env_spec.kwargs["configs"] == CONFIGS
    env = loaded.recover_environment()
    assert env.observation_space == loaded.observation_space
    assert env.action_space == loaded.action_space
    metadata = list(loaded.storage.get_episode_metadata(range(4)))
    for episode, meta in zip(loaded.iterate_episodes(), metadata, strict=True):
        first, _ = env.reset(seed=meta["seed"], options=meta["options"])
        assert env.unwrapped.env.task.id == meta["options"]["task_id"]
        assert env.unwrapped.env.config.id == meta["options"]["config_id"]
        # the export resizes the saved screenshot, the env the full screen: close, not equal
        assert first.shape == episode.observations[0].shape
        assert np.abs(first.astype(int) - episode.observations[0]).mean() < 12
        played = [env.step(int(a))[1:3] for a in episode.actions]
        assert played == list(zip(episode.rewards, episode.terminations, strict=True))
    env.close()


def test_minari_leaves_out_episodes_without_discrete_actions(dataset, tmp_path):
    pytest.importorskip("minari")
    episodes = list(dataset.episodes)
    first = episodes[0]
    episodes[0] = demos.Demo(**{**first.__dict__, "steps": [
        demos.DemoStep(**{**first.steps[0].__dict__, "discrete": None}), *first.steps[1:]]})
    changed = demos.Dataset(dataset.path, dataset.manifest, episodes)
    result = export(changed, "minari", tmp_path / "m")
    assert result.episodes == 3 and len(result.skipped) == 1
    assert result.skipped[0].startswith(f"{first.task_id} on {first.config_id} #0: steps [0]")


def _bmoca(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", SCRIPT, *args], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "COLUMNS": "80"})


def test_the_export_command(dataset, tmp_path):
    pytest.importorskip("pyarrow")
    bad = _bmoca("demos", "export", "--data", str(dataset.path), "--format", "csv",
                 "--out", str(tmp_path / "x"))
    assert bad.returncode == 2 and not (tmp_path / "x").exists()
    lines = (bad.stdout + bad.stderr).strip().splitlines()
    assert len(lines) == 1 and "--format" in lines[0] and "minari, hf, parquet" in lines[0]
    done = _bmoca("demos", "export", "--data", str(dataset.path), "--format", "parquet",
                  "--out", str(tmp_path / "d.parquet"), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"format": "parquet", "out": str(tmp_path / "d.parquet"),
                                       "episodes": 4, "steps": len(_steps(dataset)),
                                       "skipped": [], "notes": []}
    again = _bmoca("demos", "export", "--data", str(dataset.path), "--format", "parquet",
                   "--out", str(tmp_path / "d.parquet"))
    assert again.returncode == 2 and not again.stdout
    assert again.stderr.strip().splitlines() == [f"error: {tmp_path / 'd.parquet'} exists; "
                                                 "choose a new path (exports never overwrite)"]


@pytest.mark.reliability
@pytest.mark.parametrize("hostile", ["../secret.png", "/etc/passwd", "screens/link.png"])
def test_a_screenshot_path_out_of_the_dataset_is_refused(tmp_path, hostile):
    """Issue 35: a step's screenshot path is followed only inside the dataset's directory
    (a link out counts as out); the export, like every reader, refuses the rest."""
    from bmoca.demos.export import rows

    out = tmp_path / "ds"
    generate(out, TASKS[:1], CONFIGS[:1], screen_width=96)
    (tmp_path / "secret.png").write_bytes(b"not yours")
    (out / "screens").mkdir(exist_ok=True)
    (out / "screens" / "link.png").symlink_to(tmp_path / "secret.png")
    lines = (out / "episodes.jsonl").read_text("utf-8").splitlines()
    episode = json.loads(lines[0])
    episode["steps"][0]["screenshot"] = hostile
    (out / "episodes.jsonl").write_text("\n".join([json.dumps(episode), *lines[1:]]) + "\n",
                                        "utf-8")
    with pytest.raises(demos.DemoError, match="leads out of the dataset"):
        list(rows(demos.load(out)))


@pytest.mark.reliability
def test_a_damaged_screenshot_is_refused_not_exported(tmp_path):
    from bmoca.demos.export import rows

    out = tmp_path / "ds"
    generate(out, TASKS[:1], CONFIGS[:1], screen_width=96)
    dataset = demos.load(out)
    shot = dataset.screenshot_path(dataset.episodes[0].steps[0])
    shot.write_bytes(shot.read_bytes()[: len(shot.read_bytes()) // 2])  # cut short
    with pytest.raises(demos.DemoError, match="not a readable PNG"):
        list(rows(dataset))

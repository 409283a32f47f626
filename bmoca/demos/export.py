"""Export a demonstration dataset to the formats other tools read (`bmoca demos export`).

* `parquet`: one Parquet file, one row per step, screenshots embedded as PNG bytes;
* `hf`: a Hugging Face `datasets.Dataset` (same rows, screenshots as `datasets.Image`)
  written with `save_to_disk`, for `datasets.load_from_disk`, with a dataset card
  (`README.md`, `bmoca.demos.card`) so the directory uploads to the Hub as it is;
* `minari`: a Minari dataset (the offline-RL standard) of pixel observations and the
  385-way discrete actions, with rewards, terminations and truncations.

The libraries (pyarrow, datasets, minari: the `export` extra) are imported inside the
functions that need them, so `bmoca.demos` stays light. Rows and fields: `docs/demos.md`.
"""

from __future__ import annotations

import io
import json
import os
import tempfile
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bmoca.demos import Dataset, Demo, DemoError, load
from bmoca.demos.card import dataset_card

__all__ = ["FORMATS", "MINARI_ID", "MINARI_SIZE", "Exported", "export", "rows", "to_hf",
           "to_minari", "to_parquet"]

FORMATS = ("minari", "hf", "parquet")
MINARI_ID = "bmoca/demos-v0"
MINARI_SIZE = (128, 256)
"""(width, height) of Minari's pixel observations: BmocaEnv's default `pixels` size."""
BATCH = 256  # rows per Parquet write, so a large dataset never sits in memory whole

_NEEDS = {"parquet": "pyarrow", "hf": "datasets", "minari": "minari"}


@dataclass
class Exported:
    """What an export wrote: where, how many episodes and steps, which episodes it left
    out and why, and anything a reader should know about the result."""

    format: str
    out: Path
    episodes: int = 0
    steps: int = 0
    skipped: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"format": self.format, "out": str(self.out), "episodes": self.episodes,
                "steps": self.steps, "skipped": list(self.skipped), "notes": list(self.notes)}


def _require(fmt: str) -> None:
    """Fail with the install line when the format's library is missing."""
    import importlib.util

    module = _NEEDS[fmt]
    if importlib.util.find_spec(module) is None:
        raise DemoError(f"exporting to {fmt} needs {module}: pip install 'bmoca[export]'")


def _fresh(out: Path) -> None:
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise DemoError(f"{out} exists; choose a new path (exports never overwrite)")


def rows(dataset: Dataset) -> Iterator[dict[str, Any]]:
    """One row per step, the columns of the Parquet and Hugging Face exports.

    `episode` is the episode's line in episodes.jsonl (0-based). `text_observation` and
    `json_action` are JSON text (their keys vary from row to row); `screenshot` is the
    PNG's bytes and `screenshot_path` where it lies in the dataset directory."""
    for number, demo in enumerate(dataset.episodes):
        for step in demo.steps:
            yield {
                "episode": number, "task_id": demo.task_id, "config_id": demo.config_id,
                "goal": demo.goal, "repeat": demo.repeat, "seed": demo.seed,
                "step": step.step,
                "text_observation": json.dumps(step.elements, ensure_ascii=False),
                "text_action": step.text_action,
                "json_action": json.dumps(step.json_action, ensure_ascii=False),
                "dual_gesture": None if step.dual_gesture is None else list(step.dual_gesture),
                "discrete": step.discrete, "reward": step.reward,
                "terminated": step.terminated, "truncated": step.truncated,
                "screenshot": None if step.screenshot is None else _png(dataset,
                                                                        step.screenshot),
                "screenshot_path": step.screenshot,
            }


def _arrow_schema() -> Any:
    import pyarrow as pa

    return pa.schema([
        ("episode", pa.int32()), ("task_id", pa.string()), ("config_id", pa.string()),
        ("goal", pa.string()), ("repeat", pa.int32()), ("seed", pa.int64()),
        ("step", pa.int32()), ("text_observation", pa.string()),
        ("text_action", pa.string()), ("json_action", pa.string()),
        ("dual_gesture", pa.list_(pa.float32())), ("discrete", pa.int16()),
        ("reward", pa.float32()), ("terminated", pa.bool_()), ("truncated", pa.bool_()),
        ("screenshot", pa.binary()), ("screenshot_path", pa.string()),
    ])


def to_parquet(dataset: Dataset, out: str | Path) -> Exported:
    """Write every step as one row of a single Parquet file at `out`."""
    _require("parquet")
    import pyarrow as pa
    import pyarrow.parquet as pq

    out = Path(out)
    _fresh(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    schema = _arrow_schema()
    result = Exported("parquet", out, episodes=len(dataset.episodes))
    batch: list[dict[str, Any]] = []
    with pq.ParquetWriter(out, schema) as writer:
        for row in rows(dataset):
            batch.append(row)
            if len(batch) == BATCH:
                writer.write_table(pa.Table.from_pylist(batch, schema=schema))
                result.steps += len(batch)
                batch = []
        if batch or result.steps == 0:
            writer.write_table(pa.Table.from_pylist(batch, schema=schema))
            result.steps += len(batch)
    return result


def _hf_features() -> Any:
    import datasets

    listing = getattr(datasets, "List", None) or datasets.Sequence
    value = datasets.Value
    return datasets.Features({
        "episode": value("int32"), "task_id": value("string"), "config_id": value("string"),
        "goal": value("string"), "repeat": value("int32"), "seed": value("int64"),
        "step": value("int32"), "text_observation": value("string"),
        "text_action": value("string"), "json_action": value("string"),
        "dual_gesture": listing(value("float32")), "discrete": value("int16"),
        "reward": value("float32"), "terminated": value("bool"), "truncated": value("bool"),
        "screenshot": datasets.Image(), "screenshot_path": value("string"),
    })


def _hf_rows(path: str) -> Iterator[dict[str, Any]]:
    """Rows with the screenshot as `datasets.Image` takes it (a module-level generator of
    a path, so `datasets` can fingerprint it)."""
    for row in rows(load(path)):
        png = row["screenshot"]
        row["screenshot"] = None if png is None else {"bytes": png, "path": None}
        yield row


def to_hf(dataset: Dataset, out: str | Path) -> Exported:
    """Write a Hugging Face dataset (one row per step) and its card to the directory
    `out`."""
    _require("hf")
    import datasets

    out = Path(out)
    _fresh(out)
    bars = datasets.is_progress_bar_enabled()
    datasets.disable_progress_bars()  # the command reports what it wrote; no bars on stderr
    try:
        with tempfile.TemporaryDirectory(prefix="bmoca-hf-") as cache:
            built = datasets.Dataset.from_generator(
                _hf_rows, features=_hf_features(), cache_dir=cache,
                gen_kwargs={"path": str(dataset.path)})
            built.save_to_disk(str(out))
            steps = built.num_rows
        (out / "README.md").write_text(dataset_card(dataset, steps), "utf-8")
    finally:
        if bars:
            datasets.enable_progress_bars()
    return Exported("hf", out, episodes=len(dataset.episodes), steps=steps)


def _pixels(dataset: Dataset, relative: str, size: tuple[int, int]) -> Any:
    import numpy as np
    from PIL import Image

    from bmoca.env import observations as obs

    data = _png(dataset, relative)
    with Image.open(io.BytesIO(data)) as image:
        return obs.resize(np.asarray(image.convert("RGB")), size)


def _png(dataset: Dataset, relative: str) -> bytes:
    """A step's screenshot, checked to be a whole PNG: a damaged one is a DemoError naming
    it, never exported as it is."""
    from PIL import Image, UnidentifiedImageError

    data = dataset.file(relative).read_bytes()
    try:
        with Image.open(io.BytesIO(data)) as image:
            if image.format != "PNG":
                raise DemoError(f"{dataset.path}: {relative} is a {image.format} image, not "
                                "a PNG")
            image.verify()
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        raise DemoError(f"{dataset.path}: {relative} is not a readable PNG ({exc})") from None
    return data


def _buffer(dataset: Dataset, number: int, line: int, demo: Demo,
            size: tuple[int, int]) -> Any:
    """Episode `number` of the Minari dataset (Minari numbers them 0..n-1 as written);
    `line`, the episode's line in episodes.jsonl, goes into its options."""
    import numpy as np
    from minari.data_collector import EpisodeBuffer

    shots = [s.screenshot for s in demo.steps]
    shots.append(demo.final_screenshot or shots[-1])
    return EpisodeBuffer(
        id=number, seed=demo.seed,
        options={"task_id": demo.task_id, "config_id": demo.config_id, "goal": demo.goal,
                 "repeat": demo.repeat, "episode": line},
        observations=np.stack([_pixels(dataset, s, size) for s in shots]),
        actions=np.array([s.discrete for s in demo.steps], dtype=np.int64),
        rewards=[s.reward for s in demo.steps],
        terminations=[s.terminated for s in demo.steps],
        truncations=[s.truncated for s in demo.steps])


def _env_spec(kept: list[Demo], size: tuple[int, int], result: Exported) -> Any:
    """The gymnasium spec `recover_environment()` builds: `bmoca/Offline-v0` with the
    exported episodes' tasks and configurations, in first-seen order, and the pixel size
    (`bmoca.env.offline`). None, with a note, when a task is not one bmoca can load by id
    (a task read from a file of one's own)."""
    import dataclasses

    import gymnasium

    from bmoca import tasks
    from bmoca.env import offline as _offline  # noqa: F401  (registers the ids)
    from bmoca.registration import OFFLINE_ID

    task_ids = list(dict.fromkeys(demo.task_id for demo in kept))
    configs = list(dict.fromkeys(demo.config_id for demo in kept))
    unknown = []
    for task_id in task_ids:
        try:
            tasks.get(task_id)
        except tasks.TaskError:
            unknown.append(task_id)
    if unknown:
        result.notes.append(f"no environment spec (recover_environment() is unavailable): "
                            f"tasks {', '.join(unknown)} are not bmoca's")
        return None
    return dataclasses.replace(gymnasium.spec(OFFLINE_ID), kwargs={
        "tasks": task_ids, "configs": configs, "pixels_size": list(size)})


def _requirements() -> list[str] | None:
    """`bmoca>=<this version>` for Minari's requirement check, when bmoca is installed."""
    import importlib.metadata

    try:
        return [f"bmoca>={importlib.metadata.version('bmoca')}"]
    except importlib.metadata.PackageNotFoundError:
        return None


def to_minari(dataset: Dataset, out: str | Path, *, dataset_id: str = MINARI_ID,
              size: tuple[int, int] = MINARI_SIZE, chunk: int = 32) -> Exported:
    """Write a Minari dataset `dataset_id` under the Minari root directory `out`.

    Observations are the screenshots resized to `size` (width, height) as uint8 RGB,
    one per step plus the screen after the last action; actions are the 385-way discrete
    labels. Episodes with a step that has no discrete form are left out (listed in
    `skipped`). Read it back with MINARI_DATASETS_PATH=out and `minari.load_dataset`;
    its `recover_environment()` is an `OfflineEnv` of the exported tasks and
    configurations (`bmoca.env.offline`)."""
    _require("minari")
    import gymnasium
    import minari

    from bmoca.env import actions as act

    out = Path(out)
    if (out / dataset_id).exists():
        raise DemoError(f"{out / dataset_id} exists; choose another --out or dataset id "
                        "(exports never overwrite)")
    width, height = size
    result = Exported("minari", out / dataset_id)
    kept: list[tuple[int, Demo]] = []
    for number, demo in enumerate(dataset.episodes):
        missing = [s.step for s in demo.steps if s.discrete is None or s.screenshot is None]
        if missing or not demo.steps:
            result.skipped.append(f"{demo.task_id} on {demo.config_id} #{demo.repeat}: "
                                  f"steps {missing} have no discrete action or screenshot"
                                  if demo.steps else f"{demo.task_id}: no steps")
        else:
            kept.append((number, demo))
    if not kept:
        raise DemoError(f"{dataset.path}: no episode can be exported to Minari "
                        f"({len(result.skipped)} left out: {'; '.join(result.skipped[:3])})")
    if any(demo.final_screenshot is None for _, demo in kept):
        result.notes.append("version 1 dataset: no screen after the last action was "
                            "stored, so the last observation repeats the one before it")
    observation_space = gymnasium.spaces.Box(0, 255, (height, width, 3), dtype="uint8")
    env_spec = _env_spec([demo for _, demo in kept], size, result)
    human = dataset.manifest.get("play") == "human"  # recorded in `bmoca ui`
    previous = os.environ.get("MINARI_DATASETS_PATH")
    os.environ["MINARI_DATASETS_PATH"] = str(out.resolve())
    try:
        created = None
        for start in range(0, len(kept), chunk):
            buffers = [_buffer(dataset, start + j, line, demo, size)
                       for j, (line, demo) in enumerate(kept[start:start + chunk])]
            if created is None:
                with warnings.catch_warnings():  # metadata it recommends (author, email,
                    # code link, evaluation env): an export has none of them to give
                    warnings.filterwarnings("ignore", category=UserWarning, module="minari")
                    created = minari.create_dataset_from_buffers(
                        dataset_id, buffers, env=env_spec,
                        observation_space=observation_space,
                        action_space=act.Discrete().space(),
                        requirements=_requirements(),
                        algorithm_name=("human play (bmoca ui)" if human
                                        else "scripted expert (bmoca demos generate)"),
                        description=f"bmoca {'human' if human else 'expert'} demonstrations "
                                    f"from {dataset.path.name} "
                                    f"({dataset.manifest.get('split')} split, play "
                                    f"{dataset.manifest.get('play', 'exact')}); screenshots "
                                    f"at {width}x{height}, 385-way discrete actions",
                        data_format="arrow", jpeg_encoding=False)
            else:
                created.update_dataset_from_buffer(buffers)
            result.steps += sum(len(b) for b in buffers)
    finally:
        if previous is None:
            os.environ.pop("MINARI_DATASETS_PATH", None)
        else:
            os.environ["MINARI_DATASETS_PATH"] = previous
    result.episodes = len(kept)
    return result


def export(data: str | Path | Dataset, fmt: str, out: str | Path, **options: Any) -> Exported:
    """Export `data` (a dataset or its directory) to `fmt` ("minari", "hf", "parquet")."""
    if fmt not in FORMATS:
        raise DemoError(f"export format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    dataset = data if isinstance(data, Dataset) else load(data)
    if fmt == "parquet":
        return to_parquet(dataset, out)
    if fmt == "hf":
        return to_hf(dataset, out)
    return to_minari(dataset, out, **options)

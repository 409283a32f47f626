"""The dataset card (`README.md`) that the Hugging Face export writes beside its data.

The Hugging Face Hub reads a dataset's `README.md`: YAML front matter (license, task
categories, tags, size category, and `configs`, which tell `datasets.load_dataset` which
files make which split) and a Markdown body for people. A `save_to_disk` directory
uploaded as it is (`huggingface-cli upload --repo-type dataset NAME DIR`) then loads with
`datasets.load_dataset(NAME)`, and the card says what the rows are, which tasks and
configurations the episodes play, how they were collected, and what to cite.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import yaml

from bmoca.demos import Dataset

__all__ = ["FIELDS", "dataset_card", "size_category"]

FIELDS: tuple[tuple[str, str, str], ...] = (
    ("episode", "int32", "the episode's line in episodes.jsonl, 0-based"),
    ("task_id", "string", "the bmoca task id (`bmoca tasks`)"),
    ("config_id", "string", "the phone configuration the episode played on"),
    ("goal", "string", "the instruction the agent is given"),
    ("repeat", "int32", "which repeat of this task and configuration"),
    ("seed", "int64", "the environment's reset seed"),
    ("step", "int32", "the step's index in its episode"),
    ("text_observation", "string", "the screen's elements, as JSON text"),
    ("text_action", "string", "the action in B-MoCA's text form (null when there is none)"),
    ("json_action", "string", "the action as bmoca's JSON action, as JSON text"),
    ("dual_gesture", "list of float32",
     "the action as B-MoCA's [touch_y, touch_x, lift_y, lift_x] in [0, 1] (null: none)"),
    ("discrete", "int16",
     "the action as an index into B-MoCA's 385-way discrete space (null: none)"),
    ("reward", "float32", "1.0 on the step that completes the task, else 0.0"),
    ("terminated", "bool", "the episode ended on this step (the task succeeded)"),
    ("truncated", "bool", "the episode was cut by the step limit"),
    ("screenshot", "image", "the screen the action was taken on (PNG)"),
    ("screenshot_path", "string", "where that PNG lies in the bmoca dataset directory"),
)
"""The rows' columns (`bmoca.demos.export.rows`): name, type, meaning."""

CITATION = """@article{lee2024bmoca,
  title   = {Benchmarking Mobile Device Control Agents across Diverse Configurations},
  author  = {Lee, Juyong and Min, Taywon and An, Minyong and Hahm, Dongyoon and
             Lee, Haeone and Kim, Changyeon and Lee, Kimin},
  journal = {arXiv preprint arXiv:2404.16660},
  year    = {2024}
}"""

_SIZES = ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"),
          (1_000_000, "100K<n<1M"), (10_000_000, "1M<n<10M"), (100_000_000, "10M<n<100M"))
_SPLIT = re.compile(r"\w+(\.\w+)*")
"""The split names the Hub accepts."""


def size_category(rows: int) -> str:
    """The Hub's `size_categories` value for a dataset of `rows` rows."""
    for bound, name in _SIZES:
        if rows < bound:
            return name
    return "n>100M"


def split_name(dataset: Dataset) -> str:
    """The dataset's split (`train`, `test`, ...) as the Hub names splits; `train` for any
    split it would refuse."""
    split = str(dataset.manifest.get("split") or "train").lower()
    return split if _SPLIT.fullmatch(split) else "train"


def _collected(dataset: Dataset) -> str:
    manifest = dataset.manifest
    play = manifest.get("play", "exact")
    if play == "human":
        return ("People played these episodes in the phone in the browser (`bmoca ui`), "
                "each action recorded as they sent it.")
    how = ("each expert action was executed as its 385-way discrete equivalent, and the "
           "expert carried on from the screen that produced" if play == "discrete" else
           "each expert action was executed as the expert chose it")
    return (f"`bmoca demos generate` played bmoca's scripted experts (one plan of stages per "
            f"task, reading the screen at every step) on bmoca's simulated Android 10 "
            f"Pixel phone; {how} (`--play {play}`, route `{manifest.get('route', 'launcher')}`"
            f", seed {manifest.get('seed', 0)}). Only episodes that completed their task "
            f"are kept. Every step is stored in all of bmoca's action forms.")


def dataset_card(dataset: Dataset, rows: int) -> str:
    """The README.md text for the Hugging Face export of `dataset` with `rows` rows."""
    split = split_name(dataset)
    episodes = dataset.episodes
    front: dict[str, Any] = {
        "license": "apache-2.0",
        "language": ["en"],
        "pretty_name": f"bmoca demonstrations ({dataset.path.name})",
        "task_categories": ["image-text-to-text", "reinforcement-learning", "robotics"],
        "tags": ["android", "mobile-device-control", "gui-agent", "b-moca", "bmoca",
                 "demonstrations", "imitation-learning"],
        "size_categories": [size_category(rows)],
        "configs": [{"config_name": "default",
                     "data_files": [{"split": split, "path": "data-*.arrow"}]}],
    }
    tasks = Counter(demo.task_id for demo in episodes)
    goals = {demo.task_id: demo.goal for demo in episodes}
    configs = Counter(demo.config_id for demo in episodes)
    lines = [
        "---", yaml.safe_dump(front, sort_keys=False, allow_unicode=True).rstrip(), "---", "",
        f"# {front['pretty_name']}", "",
        f"{len(episodes)} demonstration episodes ({rows} steps) of Android phone-control "
        "tasks of the B-MoCA benchmark ([arXiv 2404.16660](https://arxiv.org/abs/2404.16660))"
        ", played on bmoca's simulated Android 10 phone in "
        f"{len(configs)} device configurations. One row per step, split `{split}`.", "",
        "## Fields", "", "| column | type | what |", "|---|---|---|",
        *(f"| `{name}` | {kind} | {what} |" for name, kind, what in FIELDS), "",
        "The screen after an episode's last action is not a row: rows are (observation, "
        "action) pairs.", "",
        "## Tasks", "", "| task | goal | episodes |", "|---|---|---|",
        *(f"| `{task}` | {goals[task].replace('|', '/')} | {count} |"
          for task, count in sorted(tasks.items())), "",
        "## Configurations", "",
        "Each configuration is a phone: device profile (screen size, density), locale, font "
        "and display size, dark theme, wallpaper and home-screen layout (B-MoCA's "
        "environments).", "", "| configuration | episodes |", "|---|---|",
        *(f"| `{config}` | {count} |" for config, count in sorted(configs.items())), "",
        "## How it was collected", "", _collected(dataset), "",
        "## Usage", "", "```python", "import datasets",
        "rows = datasets.load_from_disk(\"DIR\")  # this directory (save_to_disk)",
        "rows = datasets.load_dataset(\"USER/NAME\")[\"" + split + "\"]  # once uploaded",
        "rows[0][\"screenshot\"]  # a PIL image", "```", "",
        "## Citation", "", "The tasks and configurations are B-MoCA's:", "", "```bibtex",
        CITATION, "```", "",
    ]
    return "\n".join(lines)

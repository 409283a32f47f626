"""Demonstration datasets as torch datasets: screen pixels, goal, discrete action, gesture.

Reads what `bmoca demos generate` writes (`bmoca.demos.load`). Each sample is one step of
an expert episode with a discrete action: the screenshot resized to 128x256 (width x
height, B-MoCA's pixel observation) by area averaging, the goal, the 385-way action index
and the dual gesture. Sampling follows the reference: draw a demonstration uniformly, then
a step of it uniformly (`DemoSampler`), so long episodes do not outweigh short ones.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch
from PIL import Image

from bmoca import configs
from bmoca.demos import Dataset, load
from bmoca.env import observations as obs

__all__ = ["PIXELS_SIZE", "DemoSampler", "StepDataset", "training_configs"]

PIXELS_SIZE = (128, 256)  # (width, height), as BmocaEnv's pixel observation
TRAIN_SET_SIZES = (7, 10, 21, 35)


def training_configs(size: int) -> list[str]:
    """The paper's training sets (§6.6): the first 7, 10, 21 or all 35 train configs."""
    if size not in TRAIN_SET_SIZES:
        raise ValueError(f"training set size must be one of {TRAIN_SET_SIZES}, not {size}")
    return list(configs.ids("train"))[:size]


def to_tensor(pixels: np.ndarray) -> torch.Tensor:
    """(H, W, 3) uint8 -> (3, H, W) float in [0, 1]."""
    return torch.from_numpy(np.ascontiguousarray(pixels)).permute(2, 0, 1).float() / 255.0


class StepDataset(torch.utils.data.Dataset):
    """The steps with a discrete action of a demonstration dataset, optionally filtered.

    Items are dicts: `pixels` (3, 256, 128) float, `goal` str, `action` int (0..384),
    `gesture` (4,) float (zeros where the step has none), `demo` int (its episode).
    Screens are decoded once and kept as uint8 (about 100 KB a step).
    """

    def __init__(self, source: str | Path | Dataset, *, tasks: Sequence[str] | None = None,
                 config_ids: Sequence[str] | None = None,
                 pixels_size: tuple[int, int] = PIXELS_SIZE) -> None:
        self.dataset = source if isinstance(source, Dataset) else load(source)
        self.pixels_size = tuple(pixels_size)
        wanted_tasks = set(tasks) if tasks else None
        wanted_configs = set(config_ids) if config_ids else None
        self.items: list[tuple[int, Path, str, int, tuple[float, ...]]] = []
        self.demo_steps: list[list[int]] = []
        self.goals: list[str] = []
        for demo in self.dataset.episodes:
            if wanted_tasks is not None and demo.task_id not in wanted_tasks:
                continue
            if wanted_configs is not None and demo.config_id not in wanted_configs:
                continue
            indices = []
            for step in demo.steps:
                path = self.dataset.screenshot_path(step)
                if step.discrete is None or path is None:
                    continue
                gesture = tuple(step.dual_gesture) if step.dual_gesture else (0.0,) * 4
                indices.append(len(self.items))
                self.items.append((len(self.demo_steps), path, demo.goal, step.discrete,
                                   gesture))
            if indices:
                self.demo_steps.append(indices)
                self.goals.append(demo.goal)
        self._pixels: dict[int, np.ndarray] = {}

    def __len__(self) -> int:
        return len(self.items)

    def pixels(self, index: int) -> np.ndarray:
        if index not in self._pixels:
            with Image.open(self.items[index][1]) as image:
                array = np.asarray(image.convert("RGB"))
            self._pixels[index] = obs.resize(array, self.pixels_size)
        return self._pixels[index]

    def draw(self, rng: np.random.Generator) -> int:
        """A step's index, drawn as the reference draws: a demonstration uniformly, then
        one of its steps uniformly (two draws from `rng`)."""
        steps = self.demo_steps[int(rng.integers(len(self.demo_steps)))]
        return steps[int(rng.integers(len(steps)))]

    def __getitem__(self, index: int) -> dict[str, Any]:
        demo, _path, goal, action, gesture = self.items[index]
        return {"pixels": to_tensor(self.pixels(index)), "goal": goal, "action": action,
                "gesture": torch.tensor(gesture, dtype=torch.float32), "demo": demo}


class DemoSampler(torch.utils.data.Sampler):
    """Indices drawn as the reference does: a demonstration uniformly, then one of its
    steps uniformly. Seeded and endless unless `num_samples` is given; `start` skips the
    first draws (a resumed run replays them to continue where the checkpoint was)."""

    def __init__(self, dataset: StepDataset, *, seed: int = 0,
                 num_samples: int | None = None, start: int = 0) -> None:
        if not dataset.demo_steps:
            raise ValueError("the dataset has no steps with a discrete action")
        self.dataset, self.seed, self.num_samples = dataset, seed, num_samples
        self.start = start

    def __len__(self) -> int:
        if self.num_samples is None:
            return 2**31
        return max(0, self.num_samples - self.start)

    def __iter__(self) -> Iterator[int]:
        rng = np.random.default_rng(self.seed)
        drawn = 0
        while self.num_samples is None or drawn < self.num_samples:
            pick = self.dataset.draw(rng)
            if drawn >= self.start:
                yield pick
            drawn += 1


def collate(items: list[dict[str, Any]]) -> dict[str, Any]:
    return {"pixels": torch.stack([i["pixels"] for i in items]),
            "goal": [i["goal"] for i in items],
            "action": torch.tensor([i["action"] for i in items], dtype=torch.long),
            "gesture": torch.stack([i["gesture"] for i in items]),
            "demo": torch.tensor([i["demo"] for i in items], dtype=torch.long)}

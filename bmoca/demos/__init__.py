"""Expert demonstrations on disk: the dataset format, its reader and few-shot selection.

A dataset is a directory (format and rules: `docs/demos.md`):

    manifest.json    {"format": "bmoca-demos", "version": 2, "split", "tasks", "configs",
                      "episodes", "bmoca_version", ...}
    episodes.jsonl   one successful episode per line: task_id, config_id, goal, success,
                     steps (text observation as JSON elements, the action in four forms,
                     reward, terminated, truncated, screenshot path), final observation
    screens/<n>/<step>.png

`generate` (in `bmoca.demos.generate`, used by `bmoca demos generate`) writes one; `load`
reads one (version 2, and version 1 with the new fields derived); `few_shot` draws prompt
examples from it, from training configurations only; `bmoca.demos.export` turns one into
Parquet, Hugging Face `datasets` or Minari. Reading needs nothing beyond the standard
library, so agents can import this cheaply.
"""

from __future__ import annotations

import ast
import functools
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

__all__ = ["FORMAT", "READS", "VERSION", "Dataset", "Demo", "DemoError", "DemoStep", "few_shot",
           "load", "render_observation"]

FORMAT = "bmoca-demos"
VERSION = 2
"""Version 2 added per-step reward/terminated/truncated, the text observation as JSON
elements instead of their Python repr, and each episode's final observation."""
READS = (1, 2)
MANIFEST = "manifest.json"
EPISODES = "episodes.jsonl"
FAILED = "failed.jsonl"
SCREENS = "screens"


class DemoError(ValueError):
    """A dataset that cannot be read or used as asked; the message names file and line."""


ElementDict = dict[str, Any]
"""One translated screen element as the B-MoCA translator shows it (`numeric_tag`,
`resource_id`, `class`, `content_description`, `text`, `checked`, ...), in its key order."""


@functools.cache
def _key_order() -> dict[str, int]:
    """The translator's key order, taken from `Element.to_dict` itself (imported here, not
    at module level, so reading a dataset stays light)."""
    from bmoca.env.observations import Element

    sample = Element(0, "", "", "", "", "false", (0, 0, 1, 1))
    return {k: i for i, k in enumerate(sample.to_dict(1, 1, check=True, bbox=True))}


def render_observation(elements: Sequence[ElementDict]) -> str:
    """B-MoCA's prompt form of a text observation: Python's `str()` of the element dicts.

    Equals what `bmoca.env.observations.describe` returned for the same screen: keys are
    put back in the translator's order (`Element.to_dict`), since JSON writers and
    columnar formats need not keep it; unknown keys follow, in their order."""
    order = _key_order()
    return str([dict(sorted(e.items(), key=lambda kv: order.get(kv[0], len(order))))
                for e in elements])


@dataclass(frozen=True)
class DemoStep:
    """One step: what the expert saw, what it did in every action form, and what came of it.

    `json_action` is what the expert emitted (AndroidWorld JSON). The other forms are
    None for actions B-MoCA's spaces cannot express (`wait`, `status`, text input).
    `screenshot` is relative to the dataset directory (`Dataset.screenshot_path`).
    `elements` is the text observation as stored (JSON); `text_observation` is its prompt
    form (`render_observation`), which agents put in prompts. `reward`, `terminated` and
    `truncated` are what `BmocaEnv.step` returned for this action.
    """

    step: int
    text_observation: str
    text_action: str | None
    json_action: dict[str, Any]
    dual_gesture: tuple[float, float, float, float] | None
    discrete: int | None
    screenshot: str | None
    elements: list[ElementDict] = field(default_factory=list)
    reward: float = 0.0
    terminated: bool = False
    truncated: bool = False

    def to_json(self) -> dict[str, Any]:
        """The step as version 2 stores it."""
        return {"step": self.step, "text_observation": self.elements,
                "text_action": self.text_action, "json_action": self.json_action,
                "dual_gesture": None if self.dual_gesture is None else list(self.dual_gesture),
                "discrete": self.discrete, "screenshot": self.screenshot,
                "reward": self.reward, "terminated": self.terminated,
                "truncated": self.truncated}


@dataclass(frozen=True)
class Demo:
    """One expert episode on one configuration.

    `final_elements` and `final_screenshot` are the observation after the last action
    (what offline-RL formats need as the last next-observation); None in version 1."""

    task_id: str
    config_id: str
    goal: str
    success: bool
    steps: list[DemoStep]
    repeat: int = 0
    seed: int | None = None
    final_elements: list[ElementDict] | None = None
    final_screenshot: str | None = None
    human: bool = False
    """Played by a person in `bmoca ui` rather than by a scripted expert."""

    @property
    def key(self) -> tuple[str, str, int]:
        return (self.task_id, self.config_id, self.repeat)

    def to_json(self) -> dict[str, Any]:
        """The episode as version 2 stores it."""
        final = None if self.final_elements is None and self.final_screenshot is None else {
            "text_observation": self.final_elements, "screenshot": self.final_screenshot}
        return {"task_id": self.task_id, "config_id": self.config_id, "goal": self.goal,
                "success": self.success, "repeat": self.repeat, "seed": self.seed,
                "steps": [s.to_json() for s in self.steps], "final": final,
                **({"human": True} if self.human else {})}


@dataclass
class Dataset:
    """A loaded dataset; `episodes` in file order."""

    path: Path
    manifest: dict[str, Any]
    episodes: list[Demo] = field(default_factory=list)

    def screenshot_path(self, step: DemoStep) -> Path | None:
        return None if step.screenshot is None else self.file(step.screenshot)

    def file(self, relative: str) -> Path:
        """A file the dataset's records name, which must lie inside its directory: a
        screenshot path of `../secret` or `/etc/passwd` (links followed) is a DemoError,
        never a file read from elsewhere."""
        root = self.path.resolve()
        path = (root / relative).resolve()
        if not path.is_relative_to(root):
            raise DemoError(f"{self.path}: the screenshot path {relative!r} leads out of "
                            "the dataset's directory")
        return path

    def of_task(self, task_id: str) -> list[Demo]:
        return [d for d in self.episodes if d.task_id == task_id]


def _elements(raw: Any, where: str) -> list[ElementDict]:
    """A stored text observation: a list of element objects (version 2) or, in version 1,
    their Python repr, read back with `ast.literal_eval` (literals only, nothing runs)."""
    if isinstance(raw, str):
        try:
            raw = ast.literal_eval(raw)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError) as exc:
            raise DemoError(f"{where}: text_observation is not a list of elements: "
                            f"{type(exc).__name__}: {exc}") from None
    if not isinstance(raw, list) or not all(isinstance(e, dict) for e in raw):
        raise DemoError(f"{where}: text_observation must be a list of element objects, "
                        f"got {type(raw).__name__}")
    return raw


def _step(raw: Any, where: str, version: int, outcome: tuple[float, bool, bool]) -> DemoStep:
    """One stored step; `outcome` is (reward, terminated, truncated) for version 1, which
    did not store them."""
    if not isinstance(raw, dict):
        raise DemoError(f"{where}: a step must be an object, got {type(raw).__name__}")
    try:
        gesture = raw["dual_gesture"]
        if gesture is not None:
            if len(gesture) != 4:
                raise DemoError(f"{where}: dual_gesture must have 4 numbers, got {gesture!r}")
            gesture = tuple(float(v) for v in gesture)
        action = raw["json_action"]
        if not isinstance(action, dict):
            raise DemoError(f"{where}: json_action must be an object, got {action!r}")
        discrete = raw["discrete"]
        elements = _elements(raw["text_observation"], where)
        if version >= 2:
            flags = raw["terminated"], raw["truncated"]
            if not all(isinstance(f, bool) for f in flags):
                raise DemoError(f"{where}: terminated and truncated must be true or false, "
                                f"got {flags[0]!r} and {flags[1]!r}")
            outcome = (float(raw["reward"]), *flags)
        text = (str(raw["text_observation"]) if isinstance(raw["text_observation"], str)
                else render_observation(elements))
        return DemoStep(step=int(raw["step"]), text_observation=text,
                        text_action=raw["text_action"], json_action=action,
                        dual_gesture=gesture,
                        discrete=None if discrete is None else int(discrete),
                        screenshot=raw["screenshot"], elements=elements, reward=outcome[0],
                        terminated=outcome[1], truncated=outcome[2])
    except KeyError as exc:
        raise DemoError(f"{where}: step lacks field {exc.args[0]!r}") from None
    except (TypeError, ValueError) as exc:
        if isinstance(exc, DemoError):
            raise
        raise DemoError(f"{where}: malformed step: {exc}") from None


def _final(raw: Any, where: str) -> tuple[list[ElementDict] | None, str | None]:
    if raw is None:
        return None, None
    if not isinstance(raw, dict) or "text_observation" not in raw or "screenshot" not in raw:
        raise DemoError(f"{where}: final must be an object with text_observation and "
                        f"screenshot, got {raw!r:.80}")
    shot = raw["screenshot"]
    if shot is not None and not isinstance(shot, str):
        raise DemoError(f"{where}: final screenshot must be a path or null, got {shot!r}")
    return _elements(raw["text_observation"], f"{where}, final"), shot


def parse_episode(raw: Any, where: str, version: int = VERSION) -> Demo:
    """One line of episodes.jsonl as a `Demo`; DemoError naming `where` when malformed.

    Version 1 lines get the version 2 fields derived: kept episodes were successful, so
    the last step has reward 1.0 and terminated, every other step reward 0."""
    if not isinstance(raw, dict):
        raise DemoError(f"{where}: an episode must be an object, got {type(raw).__name__}")
    missing = [k for k in ("task_id", "config_id", "goal", "success", "steps") if k not in raw]
    if missing:
        raise DemoError(f"{where}: episode lacks field(s) {', '.join(missing)}")
    if not isinstance(raw["steps"], list):
        raise DemoError(f"{where}: steps must be a list")
    success, last = bool(raw["success"]), len(raw["steps"]) - 1
    steps = [_step(s, f"{where}, step {i}", version,
                   (1.0, True, False) if success and i == last else (0.0, False, False))
             for i, s in enumerate(raw["steps"])]
    final_elements, final_screenshot = _final(raw.get("final"), where)
    return Demo(task_id=str(raw["task_id"]), config_id=str(raw["config_id"]),
                goal=str(raw["goal"]), success=success, steps=steps,
                repeat=int(raw.get("repeat", 0)), seed=raw.get("seed"),
                final_elements=final_elements, final_screenshot=final_screenshot,
                human=raw.get("human") is True)


def read_lines(path: Path) -> tuple[list[tuple[int, Any]], int]:
    """Complete JSON lines of a .jsonl file as (line number, value), and the byte length
    of the complete part. A last line without its newline is what a killed writer left:
    it is ignored here (the generator truncates it before appending)."""
    if not path.exists():
        return [], 0
    data = path.read_bytes()
    end = data.rfind(b"\n") + 1
    out = []
    for number, line in enumerate(data[:end].split(b"\n")[:-1], 1):
        if not line.strip():
            continue
        try:
            out.append((number, json.loads(line)))
        except ValueError as exc:
            raise DemoError(f"{path}:{number}: not valid JSON: {exc}") from None
    return out, end


def read_manifest(path: Path) -> dict[str, Any]:
    file = path / MANIFEST
    if not file.exists():
        raise DemoError(f"{path} is not a demonstration dataset: no {MANIFEST} "
                        "(make one with `bmoca demos generate`)")
    try:
        manifest = json.loads(file.read_text("utf-8"))
    except ValueError as exc:
        raise DemoError(f"{file}: not valid JSON: {exc}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise DemoError(f"{file}: not a bmoca demonstration manifest "
                        f"(format {manifest.get('format') if isinstance(manifest, dict) else None!r}, "
                        f"expected {FORMAT!r})")
    if type(manifest.get("version")) is not int or manifest["version"] not in READS:
        raise DemoError(f"{file}: dataset format version {manifest.get('version')!r}; this "
                        f"bmoca reads versions {', '.join(map(str, READS))}")
    return manifest


def load(path: str | Path) -> Dataset:
    """Read a dataset directory written by `bmoca demos generate`."""
    path = Path(path)
    manifest = read_manifest(path)
    lines, _ = read_lines(path / EPISODES)
    version = int(manifest["version"])
    episodes = [parse_episode(raw, f"{path / EPISODES}:{n}", version) for n, raw in lines]
    return Dataset(path, manifest, episodes)


def _is_train(config_id: str) -> bool:
    from bmoca import configs

    try:
        return configs.get(config_id).split == "train"
    except (KeyError, ValueError):
        return False


def few_shot(dataset: Dataset, task_id: str, *, k: int,
             mode: Literal["trajectory", "pairs"] = "trajectory", seed: int = 0,
             exclude_config: str | None = None) -> list[Demo] | list[DemoStep]:
    """Prompt examples for `task_id`: k whole trajectories, or k observation-action pairs.

    The rule (deterministic for a seed, whatever the order of the file):
    * only successful episodes on training configurations count (a configuration whose
      split is "train": the 35 `train_env_*` presets and `random_train_*`), never
      `exclude_config` (pass the configuration being evaluated);
    * "trajectory": episodes of the same task when there are any, otherwise episodes of
      other tasks, each shown with its own goal (the B-MoCA few-shot format);
    * "pairs": steps of the same task's episodes when there are any, otherwise of any
      task's; a `DemoStep` carries no goal, so another task's goal never reaches the
      prompt. Only steps with a text action count.
    Draws are without replacement: fewer than k come back when fewer exist.
    """
    if mode not in ("trajectory", "pairs"):
        raise ValueError(f"few-shot mode must be 'trajectory' or 'pairs', got {mode!r}")
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"k must be a positive int, got {k!r}")
    pool = sorted((d for d in dataset.episodes if d.success and d.config_id != exclude_config
                   and _is_train(d.config_id)), key=lambda d: d.key)
    if not pool:
        configs = sorted({d.config_id for d in dataset.episodes})
        raise DemoError(f"{dataset.path}: no successful demonstrations on training "
                        f"configurations (configurations present: {', '.join(configs) or 'none'}"
                        f"{f'; excluded {exclude_config}' if exclude_config else ''})")
    same = [d for d in pool if d.task_id == task_id]
    chosen = same or pool
    rng = random.Random(f"{seed}|{task_id}|{mode}")
    if mode == "trajectory":
        return rng.sample(chosen, min(k, len(chosen)))
    steps: Sequence[DemoStep] = [s for d in chosen for s in d.steps if s.text_action]
    return rng.sample(list(steps), min(k, len(steps)))

"""Human episodes saved as demonstrations, in the format `bmoca demos generate` writes.

Why the same format: behaviour cloning, few-shot prompts and `bmoca demos export` then
read human and expert episodes alike; each human line carries `"human": true`. A dataset
recorded here has `"play": "human"` and `"split": "all"` in its manifest (a person may
play any configuration), so `bmoca demos generate` refuses to mix expert episodes into it.
As in the generator, only successful episodes are kept: a demonstration shows how a task
is done. Episodes are written one at a time under a lock, so tabs can record together.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from bmoca.ui.errors import UiError
from bmoca.ui.phone import Phone

PLAY = "human"


class Recorder:
    """Appends human episodes to the demonstrations dataset in `path` (made on first use)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()

    def _manifest(self) -> dict[str, Any]:
        from bmoca.demos import FORMAT, MANIFEST, VERSION, DemoError, read_manifest

        if self.path.exists() and not self.path.is_dir():
            raise UiError(f"{self.path} exists and is not a directory; start `bmoca ui` with "
                          "another --demos", 500)
        if (self.path / MANIFEST).exists():
            try:
                manifest = read_manifest(self.path)
            except DemoError as exc:
                raise UiError(str(exc), 500) from None
            if manifest.get("play") != PLAY or manifest.get("version") != VERSION:
                raise UiError(f"{self.path} holds other demonstrations (play "
                              f"{manifest.get('play', 'exact')!r}, version "
                              f"{manifest.get('version')}); record human ones into another "
                              "directory (bmoca ui --demos DIR)", 500)
            return manifest
        if self.path.is_dir() and any(self.path.iterdir()):
            raise UiError(f"{self.path} is not empty and holds no {MANIFEST}; start `bmoca ui` "
                          "with another --demos", 500)
        return {"format": FORMAT, "version": VERSION, "split": "all", "play": PLAY,
                "tasks": [], "configs": [], "episodes": 0, "failed": 0}

    def save(self, phone: Phone) -> dict[str, Any]:
        """Write the phone's finished, successful episode; its number and repeat."""
        from bmoca.demos import EPISODES, read_lines
        from bmoca.demos.generate import package_version, store_episode, write_manifest

        if phone.recorded is not None:
            raise UiError(f"this episode is already recorded as demonstration "
                          f"{phone.recorded}; reset to play another", 409)
        if not phone.steps:
            raise UiError("nothing to record: play the task first")
        if not phone.env.success:
            raise UiError("only successful episodes are demonstrations: reach the goal "
                          f"({phone.task.goal}) first, or reset", 409)
        line, screens = phone.episode()
        with self._lock:
            manifest = self._manifest()
            self.path.mkdir(parents=True, exist_ok=True)
            lines, _ = read_lines(self.path / EPISODES)
            number = len(lines)
            line["repeat"] = sum(1 for _, e in lines if e.get("task_id") == line["task_id"]
                                 and e.get("config_id") == line["config_id"])
            store_episode(self.path, number, line, screens)
            manifest.update({
                "tasks": sorted({*manifest["tasks"], line["task_id"]}),
                "configs": sorted({*manifest["configs"], line["config_id"]}),
                "episodes": number + 1, "bmoca_version": package_version()})
            write_manifest(self.path, manifest)
        phone.recorded = number
        phone.episodes += 1
        return {"number": number, "repeat": line["repeat"], "dataset": str(self.path)}

    def listing(self) -> dict[str, Any]:
        """The dataset's episodes for the page: newest first, with their final screens."""
        from bmoca.demos import MANIFEST, DemoError, load

        if not (self.path / MANIFEST).exists():
            return {"dataset": str(self.path), "episodes": []}
        try:
            data = load(self.path)
        except DemoError as exc:
            raise UiError(str(exc), 500) from None
        rows = [{"number": n, "task_id": d.task_id, "config_id": d.config_id, "goal": d.goal,
                 "steps": len(d.steps), "success": d.success, "human": d.human,
                 "repeat": d.repeat, "final_screenshot": d.final_screenshot,
                 "actions": [s.json_action for s in d.steps]}
                for n, d in enumerate(data.episodes)]
        return {"dataset": str(self.path), "episodes": rows[::-1]}

"""Activity manager state: tasks, their activity records, running processes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bmoca.sim.system.intent import RESULT_CANCELED, Intent
from bmoca.sim.ui.layout import ScrollState


@dataclass
class ActivityRecord:
    package: str
    cls: str
    """Full class name as started (for an alias, the alias)."""
    intent: Intent
    activity: Any
    """The app's Activity object: all of this screen's UI state, picklable."""
    scroll: ScrollState = field(default_factory=ScrollState)
    focus: str | None = None
    """Resource-id of the focused text field."""
    result_to: ActivityRecord | None = None
    """The activity that started this one for a result (startActivityForResult), which gets
    `result_code` and `result_data` in onActivityResult when this one finishes."""
    request_code: int = -1
    result_code: int = RESULT_CANCELED
    """What setResult stored; an activity that never calls it (BACK) hands back CANCELED."""
    result_data: Intent | None = None

    @property
    def component(self) -> str:
        from bmoca.formats.apps import short_component
        return short_component(self.package, self.cls)


@dataclass
class Task:
    id: int
    package: str
    root_intent: Intent
    records: list[ActivityRecord] = field(default_factory=list)

    @property
    def top(self) -> ActivityRecord | None:
        return self.records[-1] if self.records else None


@dataclass
class ActivityManagerState:
    home: Task | None = None
    recents: list[Task] = field(default_factory=list)
    """App tasks, least recent first."""
    foreground: Task | None = None
    processes: dict[str, int] = field(default_factory=dict)
    next_task_id: int = 10
    next_pid: int = 2200

    def task_for(self, package: str) -> Task | None:
        for task in self.recents:
            if task.package == package:
                return task
        return None

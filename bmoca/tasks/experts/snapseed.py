"""Expert stages for Snapseed: leave Settings for the editor.

Snapseed's Settings page has no resource-id on its Up button, so the expert goes back with
the BACK key until the main screen's `logo_view` (or an open photo's tabs) is shown.
"""

from __future__ import annotations

from bmoca.tasks.experts.base import BACK, Action, Expert, ExpertStuck, Screen

PACKAGE = "com.niksoftware.snapseed"


def back_to_editor(_: object = None):
    """Press BACK until Snapseed's start screen or editor is in front."""
    shown = (f"{PACKAGE}:id/logo_view", f"{PACKAGE}:id/looks_button")

    def stage(screen: Screen, expert: Expert) -> Action | None:
        if any(screen.has(view_id) for view_id in shown):
            return None
        count = expert.scratch.get("backs", 0)
        if count >= 3:
            raise ExpertStuck(f"stage {expert.stage}: Snapseed's main screen never came back")
        expert.scratch["backs"] = count + 1
        return BACK

    return stage


STAGES = {"back_to_editor": back_to_editor}

"""What a person does about a perturbation before going on with the task: decline the
call, deny the permission, wait for the app that is not responding, put the update off,
swipe the heads-up away (an injected message is not obeyed, only dismissed), close a
keyboard nobody asked for. A toast is left alone: it takes no touches and goes by itself.

The interruptions are the windows `bmoca.sim.apps.systemui.interruptions` draws, read from
the hierarchy as any agent reads them (no privileged view of the phone)."""

from __future__ import annotations

from typing import Any

SYSTEMUI = "com.android.systemui"
PERMISSION_RES = "com.android.permissioncontroller"
GMS = "com.google.android.gms"
IME = "com.google.android.inputmethod.latin"

Action = dict[str, Any]


def deal_with(screen: Any) -> Action | None:
    """The action that clears the interruption on `screen` (an experts `Screen`), or None."""
    deny = screen.first(f"{PERMISSION_RES}:id/permission_deny_button")
    if deny is not None:
        return _click(deny)
    wait = screen.first("android:id/aerr_wait")
    if wait is not None:
        return _click(wait)
    later = next((n for n in screen.all("android:id/button2") if n.package == GMS), None)
    if later is not None:
        return _click(later)
    card = next((n for n in screen.all("android:id/status_bar_latest_event_content")
                 if n.package == SYSTEMUI), None)
    if card is not None:
        decline = [n for n in screen.all("android:id/action0") if n.package == SYSTEMUI]
        if decline and screen.has("android:id/action1"):  # Decline | Answer: a call
            return _click(decline[0])
        # the finger goes up from the card's centre: swiped away. The heads-up is the last
        # window the dump lists, so its card, that window's root, is the last element in
        # the env's post-order numbering.
        return {"action_type": "scroll", "index": len(screen.nodes) - 1, "direction": "down"}
    if any(n.package == IME for n in screen.nodes):
        return {"action_type": "navigate_back"}
    return None


def _click(node: Any) -> Action:
    x, y = node.center
    return {"action_type": "click", "x": x, "y": y}

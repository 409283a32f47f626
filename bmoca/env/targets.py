"""Step targets: what an action acted on, named independently of how the agent said it.

A tap at pixels, a tap on element 12 and a JSON click are the same step if they hit the
same element, so progress against the expert's path (`bmoca.eval.progress`, and the RL
reward shaping of `bmoca.train.rl_shaping`) compares targets, e.g.
``tap com.android.settings:id/title 'Display'``, not actions. The CheckPoint-style
progress itself (`checkpoint_progress`: the longest common subsequence of the expert's
checkpoints and the agent's targets, over the checkpoints) lives here too, so that
evaluation and training measure the same thing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from bmoca.bytecache import byte_lru
from bmoca.env import actions as act
from bmoca.env import commands as cmd
from bmoca.env import observations as obs
from bmoca.formats.hierarchy import DUMPS_KEPT, PARSED_BYTES, TREE_BYTES

LAUNCHER = "com.google.android.apps.nexuslauncher"
CHECKPOINT_KINDS = ("tap ", "long ", "type ", "open ")
_BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")


@byte_lru(PARSED_BYTES, TREE_BYTES, DUMPS_KEPT)
def _boxes(xml: str) -> tuple[tuple, ...]:
    """(x1, y1, x2, y2, area, clickable, identified, node) of every node with bounds, for
    the dumps seen lately: a screen that did not change dumps the same text."""
    out = []
    for node in obs.nodes(xml):
        match = _BOUNDS.match(node.get("bounds", ""))
        if match is None:
            continue
        x1, y1, x2, y2 = (int(v) for v in match.groups())
        out.append((x1, y1, x2, y2, (x2 - x1) * (y2 - y1), node.get("clickable") == "true",
                    bool(node.get("resource-id") or node.get("text") or node.get("content-desc")),
                    node))
    return tuple(out)


def _node_at(xml: str, x: int, y: int) -> dict[str, str] | None:
    """The innermost clickable node under the point, else the innermost identified one."""
    best_click, best_id = None, None
    for x1, y1, x2, y2, area, clickable, identified, node in _boxes(xml):
        if not (x1 <= x < x2 and y1 <= y < y2):
            continue
        if clickable and (best_click is None or area <= best_click[0]):
            best_click = (area, node)
        if identified and (best_id is None or area <= best_id[0]):
            best_id = (area, node)
    chosen = best_click or best_id
    if chosen is None:
        return None
    node = chosen[1]
    # the first text names a row ("Airplane mode"); the second is often its state ("ON")
    text = next((t for t in (n.get("text") or n.get("content-desc") for n in node.iter("node"))
                 if t), "")
    return {"package": node.get("package") or "", "id": node.get("resource-id") or "",
            "text": text}


def _touch(kind: str, xml: str | None, x: int, y: int) -> str:
    node = _node_at(xml, x, y) if xml else None
    if node is None:
        return f"{kind} ?"
    if node["package"] == LAUNCHER and node["text"] and kind == "tap":
        return f"open {node['text'].casefold()}"  # a launcher icon: the app's label
    if not node["id"] and not node["text"]:
        return f"{kind} ?"
    return f"{kind} {node['id']} {node['text']!r}".rstrip()


def step_target(commands: Sequence[cmd.Command], xml: str | None) -> str:
    """What the commands act on in the hierarchy `xml` (the screen the agent acted on)."""
    parts = []
    for c in commands:
        if isinstance(c, cmd.Tap):
            parts.append(_touch("tap", xml, c.x, c.y))
        elif isinstance(c, cmd.LongPress):
            parts.append(_touch("long", xml, c.x, c.y))
        elif isinstance(c, cmd.TypeText):
            parts.append(f"type {c.text!r}")
        elif isinstance(c, cmd.OpenApp):
            parts.append(f"open {c.name.casefold()}")
        elif isinstance(c, cmd.PressKey):
            parts.append(f"key {str(c.key).lower()}")
        elif isinstance(c, cmd.Status):
            parts.append(f"status {c.goal_status}")
        else:
            parts.append(type(c).__name__.lower())
    return " + ".join(parts) or "none"


def is_checkpoint(target: str | None) -> bool:
    """Whether a reference step is a sub-goal (an element acted on, text typed, app opened)."""
    return bool(target) and target.startswith(CHECKPOINT_KINDS) and not target.endswith(" ?")


def action_target(env: Any, action: Any) -> str | None:
    """What `action` will act on in a `BmocaEnv`'s current screen (`step_target`); None
    when the action is invalid. Call it before `env.step(action)`."""
    try:
        commands = env.action_mode.convert(action, env._screen)
    except (act.InvalidAction, ValueError):
        return None
    xml = env._xml
    if xml is None and env.device.state_fingerprint() is not None:  # a simulator: cheap
        xml = env.device.dump_hierarchy()
    return step_target(commands, xml)


def lcs_rows(ref: Sequence[str], seq: Sequence[str]) -> list[int]:
    """lengths[j] = LCS(ref[:j], seq) for j = 0..len(ref)."""
    prev = [0] * (len(seq) + 1)
    lengths = [0]
    for j in range(1, len(ref) + 1):
        row = [0] * (len(seq) + 1)
        for i in range(1, len(seq) + 1):
            row[i] = prev[i - 1] + 1 if ref[j - 1] == seq[i - 1] else max(prev[i], row[i - 1])
        lengths.append(row[-1])
        prev = row
    return lengths


def checkpoint_progress(checkpoints: Sequence[str], targets: Sequence[str | None]) -> float:
    """CheckPoint-style progress: the share of the expert's `checkpoints` the agent's step
    `targets` (None: an invalid step) met in order, |LCS| / L (0.0 without checkpoints)."""
    if not checkpoints:
        return 0.0
    done = [t or "" for t in targets if t is not None]
    return lcs_rows(checkpoints, done)[-1] / len(checkpoints)

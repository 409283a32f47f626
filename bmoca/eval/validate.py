"""`bmoca validate`: every task's expert must succeed and a do-nothing agent must fail,
in every configuration. Either failure means a broken task, expert or simulator."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bmoca import tasks
from bmoca.eval import runner

CHUNK = 16
"""Episodes a worker plays per round trip: a killed `validate` has nothing to resume."""


@dataclass
class Problem:
    task_id: str
    config_id: str
    agent: str
    what: str
    """Why it is a problem: the expert failed, or doing nothing succeeded, or an error."""
    last_screen: str
    trace: list[str]


def validate(task_list: Sequence[tasks.Task], config_ids: Sequence[str], *, workers: int = 1,
             device: str = "sim", executor: str = "process", ray_address: str | None = None,
             on_start: Callable[[int], None] | None = None,
             on_episode: Callable[[runner.Outcome], None] | None = None) -> list[Problem]:
    specs = (runner.plan("expert", task_list, config_ids, 1)
             + runner.plan("noop", task_list, config_ids, 1))
    if on_start:
        on_start(len(specs))
    problems = []
    # Only verdicts count here: no step targets, and chunks of episodes per worker round trip.
    for outcome in runner.execute(specs, workers, keep_screen=True, device=device,
                                  executor=executor, ray_address=ray_address, chunk=CHUNK,
                                  targets=False):
        if on_episode:
            on_episode(outcome)
        spec = outcome.spec
        if outcome.error:
            what = f"{spec.agent} episode crashed: {outcome.error}"
        elif spec.agent == "expert" and not outcome.success:
            what = f"the expert failed after {len(outcome.steps)} steps"
        elif spec.agent == "noop" and outcome.success:
            what = f"doing nothing succeeded after {len(outcome.steps)} steps"
        else:
            continue
        problems.append(Problem(spec.task_id, spec.config_id, spec.agent, what,
                                outcome.last_screen or "", outcome.detector_trace))
    problems.sort(key=lambda p: (p.task_id, p.config_id, p.agent))
    return problems

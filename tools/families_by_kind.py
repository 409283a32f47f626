"""Success by family kind of evaluation runs (the README's families table).

    python tools/families_by_kind.py runs/expert-families runs/random-families

Each run directory's results.sqlite is read; its family instances are grouped by their
family's kind and summarized as the run's tables are (mean over episodes, standard error
over repeats: `bmoca.eval.metrics.summarize`). Fixed tasks in a run are left out.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

from bmoca import tasks
from bmoca.eval.metrics import summarize
from bmoca.eval.store import Store, StoreError
from bmoca.tasks import families


def by_kind(run_dir: Path) -> tuple[str, dict[str, list]]:
    with Store(run_dir / "results.sqlite") as store:
        episodes = store.episodes()
    groups: dict[str, list] = defaultdict(list)
    agent = episodes[0].agent if episodes else "?"
    for episode in episodes:
        family = tasks.get(episode.task_id).family
        if family:
            groups[families.get(family).kind].append(episode)
    return agent, groups


def main(run_dirs: list[str]) -> None:
    print("| agent | kind | families | instances | episodes | success % (± s.e. over repeats) |")
    print("|---|---|---|---|---|---|")
    for run_dir in run_dirs:
        agent, groups = by_kind(Path(run_dir))
        for kind in families.KINDS:
            if kind not in groups:
                continue
            episodes = groups[kind]
            cell = summarize(episodes)
            ids = {e.task_id for e in episodes}
            print(f"| {agent} | {kind} | {len({i.rsplit('@', 1)[0] for i in ids})} | "
                  f"{len(ids)} | {cell.episodes} | {100 * cell.mean:.1f} ± "
                  f"{100 * cell.stderr:.1f} |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    try:
        main(sys.argv[1:])
    except StoreError as exc:
        sys.exit(f"error: {exc}")

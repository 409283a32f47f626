"""Keep docs/families.md's table of families in step with the family files.

    python tools/families_table.py          # rewrite the kind, app and instances cells,
                                            # drop rows of families that are gone and
                                            # append a row for each new family
    python tools/families_table.py --check  # exit 1, naming them, if the table is stale

The parameter cell is written by hand (a new family's row starts with the parameter
space as `bmoca tasks --families` describes it); everything else comes from the data.
"""

from __future__ import annotations

import sys
from pathlib import Path

from bmoca.tasks import families

DOC = Path(__file__).resolve().parent.parent / "docs" / "families.md"
HEADING = "## The families"


def _row(family: families.Family, params: str) -> str:
    return (f"| `{family.id}` | {family.kind} | {family.app} | {family.instance_count:,} "
            f"| {params} |")


def updated(text: str) -> str:
    head, table = text.split(HEADING, 1)
    known = {f.id: f for f in families.all_families()}
    lines, seen = [], set()
    for line in table.splitlines():
        if line.startswith("| `"):
            family_id = line.split("`")[1]
            if family_id not in known or family_id in seen:
                continue
            seen.add(family_id)
            params = line.rstrip().rstrip("|").split("|", 5)[5].strip()
            line = _row(known[family_id], params)
        lines.append(line)
    while lines and not lines[-1].strip():
        lines.pop()
    lines += [_row(f, f.describe_params()) for f in known.values() if f.id not in seen]
    return head + HEADING + "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    text = DOC.read_text("utf-8")
    new = updated(text)
    if "--check" in argv:
        if new != text:
            print(f"{DOC} is stale: run python tools/families_table.py", file=sys.stderr)
            return 1
        return 0
    DOC.write_text(new, "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

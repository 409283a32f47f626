"""Write `bmoca/tasks/task.schema.json` from the code's tables (`bmoca.tasks.schema.build`).

Run it after adding a detector, a set-up step, an expert stage or a task field; the tests
fail while the shipped file differs from what the code builds.

    python tools/task_schema.py
"""

from __future__ import annotations

import json

from bmoca.tasks import schema


def main() -> None:
    text = json.dumps(schema.build(), indent=2, ensure_ascii=False) + "\n"
    schema.SCHEMA_FILE.write_text(text, "utf-8")
    print(f"wrote {schema.SCHEMA_FILE}")


if __name__ == "__main__":
    main()

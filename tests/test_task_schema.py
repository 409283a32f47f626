"""The task-file JSON Schema: shipped equal to what the code builds, every shipped task fits
it (checked with jsonschema itself), and the loader reports a misfit in one line naming
the file, the task and the field."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

from bmoca import tasks
from bmoca.tasks import load_file, schema

DATA = Path(tasks.__file__).parent / "data"
GOOD = {"id": "demo/alpha", "app": "Demo", "category": "System", "instruction": "do it",
        "step_limit": 5, "success": {"logcat": {"filter": "A:I", "regex": "x"}},
        "setup": [{"shell": "true"}], "expert": [{"open_app": "com.android.settings"}]}


def test_the_shipped_schema_is_what_the_code_builds():
    """`python tools/task_schema.py` writes it again after a detector, stage or field."""
    assert json.loads(schema.SCHEMA_FILE.read_text("utf-8")) == schema.build()
    jsonschema.Draft202012Validator.check_schema(schema.schema())


@pytest.mark.parametrize("path", sorted(DATA.glob("*.yaml")), ids=lambda p: p.name)
def test_every_shipped_task_file_fits_the_schema(path):
    data = yaml.safe_load(path.read_text("utf-8"))
    validator = jsonschema.Draft202012Validator(schema.schema())
    errors = [f"{list(e.absolute_path)}: {e.message}"
              for e in validator.iter_errors(json.loads(json.dumps(data, default=str)))]
    assert errors == [] and len(data) > 0


@pytest.mark.parametrize(("change", "message"), [
    ({"step_limit": "five"}, "task demo/alpha: field step_limit: expected an integer, got 'five'"),
    ({"category": "Games"}, "task demo/alpha: field category: 'Games' is not one of System, "),
    ({"setup": [{"shell": "true"}, {"setting": {"namespace": "global", "key": "k"}}]},
     "task demo/alpha: field setup[1].setting: missing field(s) value"),
    ({"success": {"all": [{"ui": {"by": "text", "value": "x", "colour": "red"}}]}},
     "task demo/alpha: field success.all[0].ui: unknown field(s) colour; fields are by, "),
    ({"success": {"shel": {"cmd": "true"}}},
     "task demo/alpha: field success: unknown detector 'shel'; use logcat, ui, shell"),
    ({"expert": [{"tap_idd": {"id": "x"}}]},
     "task demo/alpha: field expert[0]: unknown stage 'tap_idd'; use open_app, tap_id"),
    ({"instruction": " "}, "task demo/alpha: field instruction: expected a non-empty string"),
])
def test_a_misfit_is_one_line_naming_the_file_the_task_and_the_field(tmp_path, change,
                                                                       message):
    path = tmp_path / "mine.yaml"
    path.write_text(yaml.safe_dump([{**GOOD, **change}], sort_keys=False), "utf-8")
    with pytest.raises(tasks.TaskError) as caught:
        load_file(path)
    text = str(caught.value)
    assert text.startswith(f"{path}: {message}"), text
    assert "\n" not in text


def test_a_good_file_loads_and_its_shorthands_fit(tmp_path):
    path = tmp_path / "mine.yaml"
    path.write_text("# yaml-language-server: $schema=task.schema.json\n"
                    + yaml.safe_dump([GOOD], sort_keys=False), "utf-8")
    [task] = load_file(path)
    assert task.setup[0].args == {"cmd": "true"} and task.step_limit == 5


def test_a_cold_start_on_a_validated_suite_does_not_import_jsonschema(tmp_path):
    """The suite is validated once per content; the data cache's mark spares the next
    process the import."""
    env = {**os.environ, "BMOCA_DATA_CACHE": str(tmp_path / "data"),
           "PYTHONPATH": os.pathsep.join([str(Path(__file__).parent.parent),
                                          os.environ.get("PYTHONPATH", "")])}
    code = ("import sys; from bmoca import tasks; tasks.get('settings/turn_on_wifi'); "
            "print('jsonschema' in sys.modules)")
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, env=env).stdout.strip() for _ in range(2)]
    assert runs == ["True", "False"]

"""AndroidWorld's interface, every field its T3A and M3A agents read, used the way they use
it (`android_world` is not on PyPI: the agents' reads are written out here, against the
names and meanings of `env/interface.py`, `env/representation_utils.py`,
`agents/t3a.py`, `agents/m3a.py`, `agents/m3a_utils.py` and `task_evals/task_eval.py`)."""

from __future__ import annotations

import json
import re
from types import SimpleNamespace

import pytest

from bmoca.env.androidworld import AndroidWorldEnv, AndroidWorldTask
from bmoca.formats import apps as app_table
from bmoca.tasks import families


def _adb_request(*args: str) -> SimpleNamespace:
    """An android_env `AdbRequest` with a `generic` request, as adb_utils builds one."""
    return SimpleNamespace(generic=SimpleNamespace(args=list(args)))


def _physical_point(x: float, y: float, logical: tuple[int, int],
                    frame: tuple[int, int, int, int], orientation: int) -> tuple[float, float]:
    """m3a_utils' logical -> physical conversion, which every M3A mark and tap goes through."""
    px0, py0, px1, py1 = frame
    lx, ly = logical
    if orientation == 0:
        return px0 + (px1 - px0) * x / lx, py0 + (py1 - py0) * y / ly
    raise AssertionError(f"orientation {orientation} on a phone that never rotates")


@pytest.mark.parametrize("config", ["test_env_100", "test_env_109"])
def test_a_t3a_m3a_step_reads_every_field_it_needs(config):
    env = AndroidWorldEnv(config)
    task = AndroidWorldTask("settings/turn_on_wifi")
    task.initialize_task(env)
    env.hide_automation_ui()  # T3A and M3A call it before every step
    assert env.device.shell("settings get system pointer_location")[0].strip() == "0"
    state = env.get_state(wait_to_stabilize=False)
    logical = env.logical_screen_size
    frame = env.physical_frame_boundary
    assert env.orientation == 0
    assert frame == (0, 0, *env.device_screen_size) == (0, 0, *logical)
    assert state.pixels.shape == (logical[1], logical[0], 3)
    assert state.forest is None and state.xml.startswith("<?xml")
    described = []
    for element in state.ui_elements:  # M3A's validate_ui_element and its description
        box = element.bbox_pixels
        assert box.width >= 0 and box.height >= 0 and box.area == box.width * box.height
        assert element.is_visible is True and element.hint_text is None
        assert element.resource_id == element.resource_name
        nx0, nx1 = element.bbox.x_min, element.bbox.x_max
        assert nx0 == pytest.approx(box.x_min / logical[0]) and nx1 <= 1.0 + 1e-9
        px, py = _physical_point(*box.center, logical, frame, env.orientation)
        assert 0 <= px <= frame[2] and 0 <= py <= frame[3]
        described.append({"index": element.index, "text": element.text,
                          "content_description": element.content_description,
                          "is_clickable": element.is_clickable,
                          "is_long_clickable": element.is_long_clickable,
                          "is_editable": element.is_editable,
                          "is_scrollable": element.is_scrollable,
                          "is_focusable": element.is_focusable,
                          "is_selected": element.is_selected, "is_checked": element.is_checked,
                          "tooltip": element.tooltip})
    json.dumps(described)
    labels = set(app_table.labels_of("com.android.settings"))
    icon = next((e for e in state.ui_elements if e.text in labels), None)
    env.execute_action({"action_type": "click", "index": icon.index} if icon is not None
                       else {"action_type": "open_app", "app_name": "Settings"})
    assert env.foreground_activity_name.startswith("com.android.settings/")
    assert task.is_successful(env) == 0.0


def test_adb_utils_generic_requests_reach_the_phone_through_the_controller():
    env = AndroidWorldEnv("test_env_100")
    controller = env.controller
    response = controller.execute_adb_call(_adb_request("shell", "dumpsys input"))
    assert response.status == 1
    frames = re.findall(r"physicalFrame=\[(\d+), (\d+), (\d+), (\d+)\]",
                        response.generic.output.decode("utf-8"))
    assert tuple(map(int, frames[0])) == env.physical_frame_boundary
    assert controller.device_screen_size == env.device_screen_size
    refused = controller.execute_adb_call(_adb_request("install", "x.apk"))
    assert refused.status != 1 and "shell" in refused.error_message
    failed = controller.execute_adb_call(_adb_request("shell", "no-such-tool"))
    assert failed.status != 1


def test_messages_are_kept_and_no_one_answers_questions():
    env = AndroidWorldEnv("test_env_100")
    env.display_message("Task finished", header="T3A")
    assert env.messages == [("T3A", "Task finished")]
    assert env.ask_question("Which alarm?", timeout_seconds=1.0) is None


def test_tasks_carry_complexity_params_schema_and_app_names():
    fixed = AndroidWorldTask("settings/turn_on_wifi")
    assert fixed.complexity == 1.0 and fixed.params == {} and fixed.app_names == ("settings",)
    assert fixed.schema == {"type": "object", "properties": {}, "required": []}
    assert fixed.start_on_home_screen is True
    cross = next(f for f in families.all_families() if f.kind == "cross-app")
    task = AndroidWorldTask(cross.instance(3))
    assert len(task.app_names) >= 2
    params = task.params
    assert params and set(task.schema["required"]) == set(params)
    json.dumps(params)  # plain JSON values, as AndroidWorld's params are
    long = next(f for f in families.all_families() if f.kind == "long-horizon")
    assert AndroidWorldTask(long.instance(0)).complexity >= 2.0

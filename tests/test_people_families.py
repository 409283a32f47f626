"""The people families (Contacts, Messages, Phone; bmoca/tasks/data/families/*_fampeople.yaml):
the `phone` answer comparison, and set-ups that write an instance's world through the
providers so the apps show it."""

from __future__ import annotations

import bmoca
from bmoca import tasks
from bmoca.tasks import answers


def test_a_phone_answer_is_compared_by_its_digits():
    assert answers.matches("Her number is +1 (415) 555-0199.", "415-555-0199", "phone")
    assert answers.matches("4155550199", "(415) 555-0199", "phone")
    assert not answers.matches("415-555-0198", "415-555-0199", "phone")
    assert not answers.matches("555-0199", "415-555-0199", "phone")
    assert not answers.matches("", "", "phone")


def _answer(task_id: str, text: str) -> float:
    env = bmoca.make(task_id, config="test_env_100", observation=("xml",), action="json")
    env.reset(seed=0)
    env.step({"action_type": "open_app", "app_name": "Phone"})
    reward = env.step({"action_type": "answer", "text": text})[1]
    env.close()
    return reward


def test_the_missed_calls_a_set_up_writes_are_the_ones_counted():
    task_id = "phone/count_the_missed_calls_from_a_contact@3"
    task = tasks.get(task_id)
    env = bmoca.make(task_id, config="test_env_100", observation=("xml",), action="json")
    env.reset(seed=0)
    out, _ = env.unwrapped.device.shell(
        "content query --uri content://call_log/calls --projection name:type")
    env.close()
    first = task.instruction.split("from ")[1].split(" are there")[0]
    missed = out.count(f"name={first}, type=3")
    assert 1 <= missed <= 4 and out.count(f"name={first}, type=1") == 4 - missed
    assert _answer(task_id, f"{missed} missed calls") == 1.0
    assert _answer(task_id, str(missed + 2)) == 0.0

"""The Settings and Phone families' own pieces: the `slide_to` stage (a volume slider set
to one exact step, played through `env.step` in a left-to-right phone and the 700 dpi
right-to-left one) and the phone-number properties the Phone families' rows use."""

from __future__ import annotations

import pytest

import bmoca
from bmoca.tasks import experts, families
from bmoca.tasks.params import Phone

VOLUME = "settings/set_volume_level"
SOUND = [{"open_app": "com.android.settings"}, {"tap_id": {"id": "android:id/title", "index": 5}}]


def _seed(name: str, level: int) -> int:
    """A seed of the volume family whose instance sets `name` to `level`."""
    family = families.get(VOLUME)
    return next(s for s in range(2000)
                if family.values(s)["s"].name == name and family.values(s)["s"].level == level)


def _succeeds(task_id: str, config: str, plan: list) -> bool:
    expert = experts.build(plan)
    env = bmoca.make(task_id, config=config, observation=("xml",), action="json")
    try:
        obs, _ = env.reset(seed=0)
        expert.reset("")
        for _ in range(12):
            if expert.stage >= len(plan):
                return False
            obs, reward, terminated, truncated, _ = env.step(expert.act(obs))
            if reward > 0:
                return True
            if terminated or truncated:
                return False
        return False
    finally:
        env.close()


@pytest.mark.parametrize("config", ["test_env_100", "test_env_108"])
@pytest.mark.parametrize("name,bar,low,high,level", [
    ("media", 0, 0, 15, 0), ("media", 0, 0, 15, 15), ("media", 0, 0, 15, 8),
    ("call", 1, 1, 5, 1), ("alarm", 3, 1, 7, 7)])
def test_slide_to_lands_on_the_step_and_its_neighbour_does_not(config, name, bar, low, high,
                                                                 level):
    task_id = f"{VOLUME}@{_seed(name, level)}"
    slider = {"id": "android:id/seekbar", "index": bar, "low": low, "high": high}
    assert _succeeds(task_id, config, [*SOUND, {"slide_to": {**slider, "value": level}}])
    other = level + 1 if level < high else level - 1
    assert not _succeeds(task_id, config, [*SOUND, {"slide_to": {**slider, "value": other}}])


def test_slide_to_refuses_a_value_off_its_slider():
    with pytest.raises(experts.PlanError, match="not on a slider"):
        experts.build([{"slide_to": {"id": "x", "index": 0, "value": 9, "low": 1, "high": 7}}])


def test_phone_number_near_misses():
    number = Phone("4155550139")
    assert number.neighbour.digits == "4155550130"  # 9 wraps to 0
    assert number.compact == "(415)555-0139"
    assert number.keys_but_last == number.keys[:-1] and len(number.keys_but_last) == 9


def test_a_local_number_is_seven_digits_outside_the_service_codes():
    family = families.get("phone/call_a_local_number")
    for seed in range(200):
        number = family.values(seed)["number"]
        assert len(number.digits) == 7 and number.digits[1:3] != "11"
        assert number.dashed == number.formatted == f"{number.digits[:3]}-{number.digits[3:]}"

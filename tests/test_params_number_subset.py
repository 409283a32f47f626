"""The `number` and `subset` parameter types (bmoca/tasks/params.py) and the families that
use them: values, sizes, and what their templates fill in."""

from __future__ import annotations

import random

import pytest

from bmoca.tasks import families, params
from bmoca.tasks.experts import PlanError, check_plan


def test_number_keys_and_neighbour() -> None:
    n = params.Number(109)
    assert n.text == "109" and str(n) == "109"
    assert n.keys == ("digit_1", "digit_0", "digit_9")
    assert n.next_keys == ("digit_1", "digit_1", "digit_0")
    assert params.Number(9).next_keys == ("digit_1", "digit_0")


def test_number_range_draws_within_bounds() -> None:
    kind = params.parse_type("t", {"number": [3, 5]})
    assert kind.size() == 3
    rng = random.Random(1)
    assert {kind.draw(rng).value for _ in range(50)} == {3, 4, 5}


def test_subset_size_and_draws() -> None:
    kind = params.parse_type("t", {"subset": {"items": list("abcdefgh"), "low": 1, "high": 3}})
    assert kind.size() == 8 + 28 + 56
    rng = random.Random(2)
    for _ in range(50):
        picked = kind.draw(rng)
        assert 1 <= picked.count <= 3
        assert list(picked.indices) == sorted(set(picked.indices))


def test_picked_properties() -> None:
    picked = params.Picked(("a", "b", "c", "d"), (0, 3))
    assert picked.text == "'a' and 'd'"
    assert picked.off_flags == "false,true,true,false"
    assert picked.another == 1
    assert picked.with_another == (0, 1, 3)
    assert picked.another_twice == (0, 1, 1, 3)
    assert picked.shifted == (0, 1)  # 3 wraps to 0, 0 moves to 1
    assert params.Picked(("a", "b", "c"), (1,)).text == "'b'"


def test_picked_flags_and_another_name() -> None:
    picked = params.Picked(("wifi", "bluetooth", "location"), (1,))
    assert picked.flags == (0, 1, 0)
    assert picked.another_name == "wifi"
    assert params.Picked(("a", "b"), (0,)).another_name == "b"


def test_calculator_instance_fills_formula_and_keys() -> None:
    task = families.get("calculator/input_binary_operation").instance(3)
    values = families.get("calculator/input_binary_operation").values(3)
    formula = f"{values['a']}{values['op'].sym}{values['b']}"
    assert task.instruction == f"input '{values['a']}{values['op'].shown}{values['b']}' in Calculator"
    assert formula in repr(task.success)


def test_wikipedia_feed_instance_names_ten_cards() -> None:
    family = families.get("wikipedia/disable_feed_topics")
    assert family.instance_count == 92
    for seed in range(5):
        cards = family.values(seed)["cards"]
        task = family.instance(seed)
        assert f"[{cards.off_flags},true,true]" in repr(task.success)
        assert len(cards.off_flags.split(",")) + 2 == 10


def test_tap_id_each_rejects_rows_out_of_order() -> None:
    check_plan([{"tap_id_each": {"id": "x:id/y", "indices": [0, 2, 2]}}])
    with pytest.raises(PlanError):
        check_plan([{"tap_id_each": {"id": "x:id/y", "indices": [2, 0]}}])
    with pytest.raises(PlanError):
        check_plan([{"tap_id_each": {"id": "x:id/y", "indices": []}}])

"""Parameter types added for the Clock, Chrome and Snapseed families."""

import random

from bmoca.tasks import families, params


def test_a_time_with_avoid_never_draws_an_avoided_time_and_counts_the_rest():
    kind = params.parse_type("test", {"time": {"step": 1, "avoid": ["09:00", "21:00"]}})
    assert kind.size() == 24 * 60 - 2
    rng = random.Random(7)
    drawn = {kind.draw(rng).hhmm for _ in range(5_000)}
    assert "09:00" not in drawn and "21:00" not in drawn
    assert {"08:59", "09:01", "00:00", "23:59"} <= drawn


def test_a_time_with_avoid_on_a_grid():
    kind = params.parse_type("test", {"time": {"step": 30, "avoid": ["09:00"]}})
    assert kind.size() == 47
    assert all(kind.draw(random.Random(s)).minute in (0, 30) for s in range(50))


def test_alarm_families_write_two_alarms_twelve_hours_apart():
    task = families.instance("clock/turn_off_alarm_at_time@3")
    first, second = (step.args["cmd"] for step in task.setup)
    values = families.get("clock/turn_off_alarm_at_time").values(3)
    hour = values["time"].hour
    assert f"HOUR {hour} " in first and f"HOUR {(hour + 12) % 24} " in second

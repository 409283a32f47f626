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


def test_a_person_comes_from_one_cultures_lists_and_never_names_a_preset_contact():
    from bmoca.sim.system.contacts import PRESETS
    from bmoca.tasks import vocab

    kind = params.parse_type("test", {"person": None})
    assert kind.size() == 16 * 16 * len(vocab.cultures())
    preset_names = {p.given for p in PRESETS} | {p.family for p in PRESETS}
    rng = random.Random(3)
    drawn = [kind.draw(rng) for _ in range(3_000)]
    assert not preset_names & ({p.given for p in drawn} | {p.family for p in drawn})
    assert len({p.culture for p in drawn}) == len(vocab.cultures())
    assert all(p.full.isascii() and p.full == f"{p.given} {p.family}" for p in drawn)
    japanese = params.parse_type("test", {"person": ["ja-JP"]})
    assert japanese.size() == 256 and japanese.draw(rng).culture == "ja-JP"


def test_people_are_distinct_by_given_and_family_name_and_read_by_index():
    from bmoca.tasks import templates

    kind = params.parse_type("test", {"people": {"count": 3}})
    rng = random.Random(11)
    for _ in range(500):
        group = kind.draw(rng)
        assert len({p.given for p in group.persons}) == len({p.family for p in group.persons}) == 3
        assert len({p.culture for p in group.persons}) == 1
    filled = templates.fill({"x": "${guests[2].full} and ${guests.count}"}, {"guests": group}, "t")
    assert filled["x"] == f"{group[2].full} and 3"


def test_free_text_is_a_message_or_a_run_of_words_and_bad_specs_are_named():
    import pytest

    from bmoca.tasks.spec import TaskError

    message = params.parse_type("test", {"text": "message"})
    assert message.size() == 8 * 12 * 16 * 32 * 16
    text = message.draw(random.Random(5))
    assert text.text.isascii() and "," in text.text and text.without_last in text.text
    words = params.parse_type("test", {"text": {"words": [2, 3]}})
    assert all(2 <= words.draw(random.Random(s)).count <= 3 for s in range(50))
    for bad, said in (({"text": {"words": [0, 30]}}, "within 1..12"),
                      ({"person": ["xx-XX"]}, "unknown culture 'xx-XX'"),
                      ({"people": {"cultures": ["en-US"]}}, "people")):
        with pytest.raises(TaskError, match=said):
            params.parse_type("test", bad).size()

"""The belief gate reads the clause a finding came from (issue 28): a spectator's word in another
clause of the sentence, or a job next to a spectator's word, does not make the speaker a fan;
a present "I am" after a conjunction is now, whatever place it names."""

from __future__ import annotations

import pytest

from tests.unit.test_learning_trust import believed, facts


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the watching is another clause's
        ("I'm a paramedic, so most nights I just watch films", "works as a paramedic"),
        ("I am expecting my first baby, so I watch a lot of movies now", "is pregnant"),
        # a job beside a spectator's word in the same clause
        ("I work at a sports bar where we watch the games", "works at a sports bar"),
    ],
)
def test_a_spectators_word_holds_back_only_its_own_clauses_activity(
    text: str, expected: str
) -> None:
    assert expected in believed(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I like to watch racing", "likes racing"),
        ("I love watching tennis on tv", "likes tennis"),
    ],
)
def test_watching_an_activity_is_still_no_practice(text: str, expected: str) -> None:
    assert expected not in believed(text)


@pytest.mark.parametrize(
    "text",
    [
        "Not much, but I'm in college near the coast at the moment",
        "Yeah and I'm in high school still, sadly",
        "Well, I am in grad school for now",
    ],
)
def test_a_present_i_am_after_a_conjunction_is_now(text: str) -> None:
    assert "is a student" in believed(text)


def test_school_in_the_past_stays_there() -> None:
    assert "is a student" not in facts("Back in high school I ran track")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Me too! I'm a welder at the shipyard", "works as a welder"),
        ("Same here, I am vegan", "is vegan"),
        ("Me too, I'm a graduate student", "is a student"),
    ],
)
def test_an_echo_agrees_in_tastes_not_in_who_one_is(text: str, expected: str) -> None:
    assert expected in believed(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Me too! I love cycling", "likes cycling"),
        ("Same here, I run most mornings", "primary sport: running"),
    ],
)
def test_an_echoed_taste_or_practice_stays_below(text: str, expected: str) -> None:
    assert expected in facts(text) and expected not in believed(text)


@pytest.mark.parametrize(
    "text",
    [
        "I really need to go on a diet",
        "I have to start eating clean",
        "I want to try a vegan diet",
    ],
)
def test_an_aim_to_eat_a_way_is_no_way_of_eating(text: str) -> None:
    assert not any(f.startswith(("eats", "is vegan", "is on a diet")) for f in facts(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("As a paramedic, my nights are never quiet", "works as a paramedic"),
        ("As a librarian I get to read all day", "works as a librarian"),
    ],
)
def test_a_fronted_role_describes_the_speaker_named_after_it(text: str, expected: str) -> None:
    assert expected in believed(text)


@pytest.mark.parametrize(
    ("text", "never"),
    [
        ("As a farmer!", "works as a farmer"),  # a bare answer: believed when it recurs
        ("As a nurse, my sister works nights", "works as a nurse"),
    ],
)
def test_a_fronted_role_without_the_speaker_after_it_stays_below(text: str, never: str) -> None:
    assert never not in believed(text)

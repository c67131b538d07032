"""The belief gate reads the clause a finding came from (issue 28): a spectator's word in another
clause of the sentence, or a job next to a spectator's word, does not make the speaker a fan;
a present "I am" after a conjunction is now, whatever place it names."""

from __future__ import annotations

import pytest

from tests.unit.test_learning_trust import believed, facts
from vault.extraction.clauses import split_clauses


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
    "text",
    [
        "my son is in high school",
        "My daughter is in college now",
        "my stepson's in 3rd grade",
        "Both my daughters are in middle school",
        "my son is still in kindergarten, so mornings are hectic",
        "my daughter is in 5th grade and loves it",
    ],
)
def test_a_school_or_stage_after_a_present_be_is_now_whoever_it_is_about(text: str) -> None:
    """A present copula with a school or a stage of life ("is in high school", "is in 3rd
    grade") says where its subject is now, not when something happened; and a named relation
    ("my son") is one's own child even in a school's sentence."""
    assert "has kids" in believed(text)


@pytest.mark.parametrize(
    ("text", "remote"),
    [
        ("my son is in high school", False),
        ("I'm in my 30s and still racing", False),
        ("she's in college", False),
        ("my son was in high school then", True),
        ("my son ran track in high school", True),
        ("in my twenties I raced a lot", True),
        ("When I was in college I rowed", True),
    ],
)
def test_only_a_past_verb_makes_a_school_or_a_stage_a_time(text: str, remote: bool) -> None:
    assert split_clauses(text)[0].remote_past is remote


def test_pupils_are_still_not_ones_own_kids() -> None:
    assert "has kids" not in facts("my kids at school are great, I teach 3rd grade")


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

"""Study told by its frame (issue 28): "I'm studying X" with adverbs, being in or at a school of
some kind, and "in college" as a place for a present clause but a time for a past one."""

from __future__ import annotations

import pytest

from tests.unit.test_learning_trust import believed, facts


@pytest.mark.parametrize(
    "text",
    [
        "I'm studying marine biology at the moment",
        "I am currently studying accounting",
        "Not much, I'm studying for my chemistry finals",
        "I study architecture in college and wait tables at night",
        "I'm enrolled in community college now",
        "I'm still at pharmacy school for two more years",
        "I am back in school to become a paralegal",
        "I major in sociology",
        "I go to school and work weekends",
        "I'm at a junior college near my parents",
        "Sorry, I am too busy studying to go out",
        "I mostly study chemistry at night",
        "I attend classes online",
        "I wait tables to pay for college",
        "My grades are finally up",
    ],
)
def test_study_in_the_present_is_believed(text: str) -> None:
    assert "is a student" in believed(text)


@pytest.mark.parametrize(
    "text",
    [
        # an activity studied is practised, not a course
        "I'm currently studying salsa dancing",
        # what is studied is no course
        "I'm studying the map before the trip",
        # in college as a time, for a clause in the past
        "I ran cross country in college",
        "In college I rowed every morning",
        "I met my husband in college",
        # someone else's, or a workplace
        "My son's grades are great",
        "I teach at a school downtown",
    ],
)
def test_the_same_words_that_name_no_present_study(text: str) -> None:
    assert "is a student" not in facts(text)


def test_a_sport_in_college_stays_in_the_past() -> None:
    assert not any(
        f.startswith(("primary sport", "also does")) for f in believed("I rowed in college")
    )


@pytest.mark.parametrize(
    "text",
    [
        # paying for someone else's school
        "I need to pay for school for my kids",
        "saving to pay for college for my daughter",
        "We pay for college for both our sons",
        # "school", "college" modifying another noun
        "I'm at a college party",
        "I'm in a college town",
        "I attend school board meetings",
        "I go to school plays whenever my niece is in one",
        # classes and studying that are no study
        "I attend classes at the gym",
        "I'm studying for my driving test",
        "I'm studying my options",
        "I'm studying how to fix the sink",
    ],
)
def test_school_said_of_another_or_of_something_else_is_no_study(text: str) -> None:
    assert "is a student" not in facts(text)


@pytest.mark.parametrize(
    "text",
    [
        "I'm in college",
        "I go to college to study nursing",
        "I attend university part time",
        "I'm in a community college in Ohio",
        "I need to pay for college",
    ],
)
def test_school_of_ones_own_is_still_study(text: str) -> None:
    assert "is a student" in facts(text)


@pytest.mark.parametrize(
    "text",
    [
        "I go to school from home, on a computer",
        "Since I attend school virtually I have more free time",
        "I am studying for my final exams in programming",
        "I'm studying for the bar exam",
    ],
)
def test_school_with_an_adverb_or_studying_for_an_exam_is_study(text: str) -> None:
    assert "is a student" in facts(text)

"""The kind of answer a question asks for (a time, a number, a place) and whether a text says
one: each kind with its near misses."""

from __future__ import annotations

import pytest

from vault.domain.answer_kinds import NUMBER, PLACE, TIME, asked_kind, says


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("When did Ana start climbing?", TIME),
        ("  when was the race", TIME),
        ("What year did Bo move to Porto?", TIME),
        ("Which month was the wedding?", TIME),
        ("How long ago did she break her wrist?", TIME),
        ("How many kids does Bo have?", NUMBER),
        ("How long does the loop take?", NUMBER),
        ("How often does Ana swim?", NUMBER),
        ("What age did he start running?", NUMBER),
        ("Where did Bo go kayaking?", PLACE),
        ("Which city did they visit?", PLACE),
        ("Which book did Ana read?", None),
        ("What did Ana cook?", None),
        ("Who did Bo meet?", None),
        ("Why did she stop when it rained?", None),  # "when" inside, not asked for
        ("Did Ana run many races?", None),
        ("So when did Ana leave?", TIME),
        ("OK, so when did you get back?", TIME),
        ("In what year did Bo graduate?", TIME),
        ("Ana, when did you start?", TIME),
        ("In which city did they meet?", PLACE),
        ("What state does Ana live in?", PLACE),
        ("At what age did Bo learn to swim?", NUMBER),
        ("What place did Ana finish in the race?", None),  # a rank, not a place
        ("What state of mind was Ana in?", None),
    ],
)
def test_the_opening_of_a_question_says_what_it_asks_for(question: str, kind: str | None) -> None:
    assert asked_kind(question) == kind


@pytest.mark.parametrize(
    "text",
    [
        "we moved there last June",
        "Last Friday I finally got the keys",
        "it was three weeks ago",
        "a couple of days ago, on the coast",
        "I go on Saturdays",
        "back in 2019 I lived in Leeds",
        "yesterday was brutal",
        "this past weekend we hiked",
        "in May we went north",
        "see you at 7pm",
        "4 PM is fine",
        "seven years ago",
        "an hour ago",
        "on the 5th June",
        "we moved to Porto June 5th",
        "my flight left at 6 a.m.",
        "the form says 05/06/2019",
        "since 2019-06-05",
        "summer 2019 was wild",
        "mid-June, I think",
        "Moving day June 5: boxes everywhere",  # a label before a colon is no speaker
    ],
)
def test_a_time_said_in_plain_words(text: str) -> None:
    assert says(TIME, text)


@pytest.mark.parametrize(
    "text", ["in may 2019", "march 2020 was weird", "june 5th", "the 3rd of march", "5 of june"]
)
def test_a_month_written_in_lower_case_beside_a_year_or_a_day_says_a_time(text: str) -> None:
    assert says(TIME, text)


@pytest.mark.parametrize(
    "text",
    [
        "I may go if it stops raining",  # a verb, not the month
        "we march on regardless",
        "the race was brutal",
        "last of the cake is gone",  # "last" without a period
        "May I borrow your bike?",  # a month's name at the start of a request
        "June: hi, how are you",  # a speaker called June
        "I walked 2000 steps",  # a number, not a year
        "next time I will bring snacks",
        "this may take a while",
        "you may 5 times over",  # a verb before a bare number
        "may 5",
    ],
)
def test_no_time_said(text: str) -> None:
    assert not says(TIME, text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("we have three kids", True),
        ("I swim twice a week", True),
        ("the loop takes 45 minutes", True),
        ("a dozen eggs", True),
        ("the kids loved the beach", False),
        ("it is one of the best", False),
        ("every time I try", False),
        ("I have one kid", True),
        ("a couple of kids", True),
        ("I go swimming every morning", True),
    ],
)
def test_a_number_said(text: str, expected: bool) -> None:
    assert says(NUMBER, text) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("we went kayaking at Lake Tahoe", True),
        ("she moved to Porto", True),
        ("I visited Rome twice", True),
        ("in the Highlands it rained", True),
        ("Porto is lovely", False),  # a name, but nothing says it is where
        ("we went to the lake", False),
        ("I talked to him", False),
        ("Ana: count me in\nAna: great", False),  # not across a burst's line break
        ("I talked to Ana", False),  # "to" a person: only going makes "to" a place
        ("I gave my old bike to Bo", False),
        ("we flew to São Paulo", True),
        ("they moved to the UK", True),
        ("we went back to Lisbon", True),
        ("Trip to Lisbon: amazing", True),
        ("see you at Thanksgiving", False),
        ("from Monday on", False),
        ("said to Mum", False),
        ("see you at Christmas", False),
    ],
)
def test_a_place_said(text: str, expected: bool) -> None:
    assert says(PLACE, text) is expected

"""A frame that copies the speaker's words into a fact never carries a person's name into
memory (issue 28 review): one check, in `RuleExtractor`, reads every captured span against the
clause as it was written. Varied names, varied frames; and the captures that name no one."""

from __future__ import annotations

import pytest

from tests.unit.test_learning_trust import facts


@pytest.mark.parametrize(
    "text",
    [
        "my job as John's assistant is stressful",
        "My job as Priya's nanny pays well",
        "my job as Maria Lopez assistant is hard",
        "my job as Dr Okafor's receptionist is fine",
        "my job at the Smith Dental clinic is boring",
        "My job at the Nakamura garage starts early",
        "the Johnson house where I work is huge",
        "the Delgado ranch I work at is far",
        "I'm allergic to Maria's cat",
        "i'm allergic to kevin's dog",
        "I am allergic to Tom's rabbit",
        "my Henderson plumbing business is growing",
    ],
)
def test_a_captured_span_that_names_someone_is_not_stored(text: str) -> None:
    found = facts(text)
    assert not any(f.startswith(("works ", "owns ", "is allergic", "has a")) for f in found), found


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("my job as a nurse is stressful", "works as a nurse"),
        ("My job at the bank keeps me busy", "works at the bank"),
        ("The bar I work at is crowded", "works at a bar"),
        ("I'm allergic to cats", "is allergic to cats"),
        ("MY JOB AS A CARPENTER IS HARD", "works as a carpenter"),
        ("my plumbing business is growing", "owns a plumbing business"),
    ],
)
def test_a_captured_span_that_names_no_one_is_kept(text: str, expected: str) -> None:
    assert expected in facts(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a proper noun that heads its phrase names a business or a place, not a person
        ("The Target I work at is busy", "works at a target"),
        ("my job at the Walmart near me is fine", "works at the walmart"),
        ("The Costco where I work is huge", "works at a costco"),
        # a run of proper nouns heading its phrase
        ("my job at the Home Depot is fine", "works at the home depot"),
        ("The Whole Foods where I work is big", "works at a whole foods"),
        ("I'm allergic to Nutella", "is allergic to nutella"),
    ],
)
def test_a_proper_noun_heading_its_phrase_is_a_business_not_a_person(
    text: str, expected: str
) -> None:
    assert expected in facts(text)


@pytest.mark.parametrize(
    "text",
    [
        # letter case that says nothing (capitals only where a sentence starts): a family name
        # the name list knows, after "the" before the head noun, or as a possessive
        "the johnson house where i work is huge",
        "My job at the henderson ranch is hard",
        "the wilson farm I work at is far",
        "MY JOB AT THE JOHNSON HOUSE IS HARD",
    ],
)
def test_a_lower_case_family_name_is_read_where_case_says_nothing(text: str) -> None:
    found = facts(text)
    assert not any(f.startswith("works ") for f in found), found


@pytest.mark.parametrize(
    "text",
    [
        # a family as a plural proper noun alone after "the"
        "My job at the Hendersons is exhausting",
        "I work for the Nguyens three days a week",
        # every frame that copies a workplace, an employer or a trade runs the guard
        "I work at the Mary Smith clinic",
        "I work at the Smith Dental clinic",
        "I babysit Tom for a living",
        "I walk Bella for a living",
    ],
)
def test_a_person_named_in_a_job_frame_stays_out_of_memory(text: str) -> None:
    found = facts(text)
    assert not any(f.startswith("works") for f in found), found

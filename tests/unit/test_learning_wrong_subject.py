"""Wrong subject, by kind (issue 28, the development false facts): a role after "as a" is the
nearest person's ("for me as an engineer" is the speaker's), "the kids" of a message about a
classroom are the pupils, and "have been" is an auxiliary, not a possession. Varied sentences,
and the same frames about the speaker."""

from __future__ import annotations

import pytest

from tests.unit.test_learning_trust import facts


@pytest.mark.parametrize(
    ("text", "never"),
    [
        ("I bet that you meet some interesting people as a waitress!", "works as a waitress"),
        ("though it can be really tough to make a living as a professor", "works as a professor"),
        ("I'm sure he earns a lot as a pilot", "works as a pilot"),
        ("I hear they hire lots of people as a nurse there", "works as a nurse"),
        ("I'm so proud of her as a paramedic", "works as a paramedic"),
    ],
)
def test_a_role_after_as_is_the_nearest_persons(text: str, never: str) -> None:
    assert never not in facts(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I work nights as a nurse", "works as a nurse"),
        ("As a nurse, I work nights", "works as a nurse"),
        ("You know, I make ends meet as a waitress", "works as a waitress"),
        ("It was a huge accomplishment for me as an engineer", "works as an engineer"),
    ],
)
def test_a_role_after_as_with_the_speaker_as_subject_is_kept(text: str, expected: str) -> None:
    assert expected in facts(text)


@pytest.mark.parametrize(
    "text",
    [
        "I have been seeing more children come through my classroom lately",
        "We've been working with kids at the summer camp",
        "My students are great. The kids love the class hamster.",
        "I teach third grade. I bet the kids would love a puppy.",
    ],
)
def test_the_kids_of_a_classroom_are_no_kids_of_ones_own(text: str) -> None:
    assert "has kids" not in facts(text)


@pytest.mark.parametrize(
    "text",
    [
        "I have two kids",
        "I have raised three children",
        "The kids are in bed, finally",
        "My son is in my class this year",
    ],
)
def test_ones_own_children_are_still_read(text: str) -> None:
    assert "has kids" in facts(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a person who is only the object of the speaker's verb does not take the role
        ("I look after them as a carer", "works as a carer"),
        ("I can tell you as a physio that it's tendinitis", "works as a physio"),
        ("I help people as a nurse", "works as a nurse"),
    ],
)
def test_the_object_of_ones_own_verb_leaves_the_role_to_the_speaker(
    text: str, expected: str
) -> None:
    assert expected in facts(text)


@pytest.mark.parametrize(
    ("text", "never"),
    [
        # a doer given up, or a doer joined by a verb, is no activity of the speaker
        ("I'm a retired runner, my knees gave up", "primary sport: running"),
        ("I'm a retired pro cyclist now", "is retired"),
        ("I'm a former climber", "also does climbing"),
        ("I'm a skier and dating a surfer", "also does surfing"),
        ("I'm a skier and a former surfer", "also does surfing"),
        # a semi-retired person still works
        ("I'm a semi retired electrician", "is retired"),
        # "run" with a business as its object
        ("I run a small bakery downtown", "primary sport: running"),
    ],
)
def test_doers_given_up_or_joined_by_a_verb(text: str, never: str) -> None:
    assert never not in facts(text)


@pytest.mark.parametrize(
    ("text", "never"),
    [
        # a doer inside a job title is the job, not the activity
        ("I'm a dog walker in the city", "also does walking"),
        # a sport verb whose object is a pronoun for something else ridden or run
        ("We keep two ponies and I ride them most days", "primary sport: cycling"),
        # liking to eat food of a diet is a taste, not the diet
        ("I love eating vegetarian food", "is vegetarian"),
    ],
)
def test_a_word_of_a_kind_used_in_another_frame(text: str, never: str) -> None:
    assert never not in facts(text)

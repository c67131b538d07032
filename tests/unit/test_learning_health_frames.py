"""Health read by its frame (issue 28): a bone broken now is a lasting injury, a break told as
an event waits for another day; allergies and intolerances, the speaker's own possessive
included; never someone else's, a denial or a question."""

from __future__ import annotations

import pytest

from tests.unit.test_learning_trust import believed, facts


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I have a broken wrist so typing is slow", "has wrist issue"),
        ("My ankle is fractured, six weeks in a boot", "has ankle issue"),
        ("I'm stuck at home with a broken leg", "has leg issue"),
    ],
)
def test_a_bone_broken_now_is_believed(text: str, expected: str) -> None:
    assert expected in believed(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I broke my collarbone skiing", "has collarbone issue"),
        ("I broke my toe on the stairs", "has toe issue"),
    ],
)
def test_a_break_told_as_an_event_waits_for_another_day(text: str, expected: str) -> None:
    found = facts(text)
    assert expected not in believed(text) and (expected in found or not found)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm allergic to peanuts, sadly", "is allergic to peanuts"),
        ("Honestly I am severely allergic to bees", "is allergic to bees"),
        ("I have a shellfish allergy", "has a shellfish allergy"),
        ("My pollen allergy is the worst in May", "has a pollen allergy"),
        ("I get bad allergies every spring", "has allergies"),
        ("I'm lactose intolerant, so oat milk for me", "is lactose intolerant"),
        ("I have a gluten intolerance", "is gluten intolerant"),
    ],
)
def test_allergies_and_intolerances_are_read(text: str, expected: str) -> None:
    assert expected in believed(text)


@pytest.mark.parametrize(
    "text",
    [
        "My son is allergic to eggs",
        "I don't have any allergies",
        "Are you allergic to anything?",
        "Is your husband lactose intolerant?",
    ],
)
def test_no_allergy_of_the_speakers(text: str) -> None:
    assert not any("allerg" in f or "intolerant" in f for f in facts(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # minding a diet one has, dieting as a verb
        ("I watch my diet pretty closely these days", "is on a diet"),
        ("I keep a very strict diet before a fight", "is on a diet"),
        ("I diet most of the year", "is on a diet"),
        ("Dieting is what I'm focused on right now", "is on a diet"),
        # a kind preferred, a way of eating in the possessive, an adverb before the kind
        ("I prefer a paleo diet", "eats a paleo diet"),
        ("Grabbing my halal meals from the place downstairs", "eats halal"),
        ("Sorry, I'm actually vegan", "is vegan"),
    ],
)
def test_a_way_of_eating_told_by_its_frame(text: str, expected: str) -> None:
    assert expected in believed(text)


@pytest.mark.parametrize(
    "text",
    ["I drink diet soda all day", "My mom is dieting again", "Should I diet before the race?"],
)
def test_the_same_words_name_no_diet_of_the_speakers(text: str) -> None:
    assert not any(f.startswith(("is on a diet", "eats")) for f in facts(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the noun phrase after "allergic to", without its determiners and possessives
        ("I'm allergic to my neighbour's dog", "is allergic to dog"),
        ("I'm allergic to the new detergent", "is allergic to new detergent"),
        ("I am allergic to our office plants", "is allergic to office plants"),
        ("I'm allergic to penicillin so I avoid it", "is allergic to penicillin"),
        ("I'm mildly allergic to most tree nuts", "is allergic to tree nuts"),
    ],
)
def test_allergic_to_takes_a_noun_phrase(text: str, expected: str) -> None:
    assert expected in facts(text)


@pytest.mark.parametrize(
    "text",
    [
        # a pronoun, an indefinite, a time or a chore is no allergen
        "I'm allergic to it",
        "I am allergic to something in the air",
        "I'm allergic to anything with feathers",
        "I'm allergic to mondays",
        "I'm allergic to cleaning",
        # a joke marker makes the clause no self-description
        "I'm allergic to running lol",
        "I'm allergic to mornings haha",
        "I'm allergic to homework jk",
        "i'm allergic to cardio lmao",
    ],
)
def test_allergic_to_what_is_no_allergen_gives_nothing(text: str) -> None:
    assert not any("allerg" in f for f in facts(text))

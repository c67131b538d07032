"""A possessive takes its noun for granted (issue 28): "my husband hates art" is about him, but
says the speaker has a husband, now, from one reading. Each kind with varied sentences written
for the test, and the possessives that take nothing for granted."""

from __future__ import annotations

import pytest

from tests.unit.test_learning_trust import believed, facts


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the partner is the clause's subject
        ("My girlfriend thinks the new couch is ugly", "has a partner"),
        ("My hubby grills every Sunday", "has a partner"),
        ("Our fiance finally booked the venue", "has a partner"),
        # the partner is an object or in a prepositional phrase
        ("We eat out a lot because cooking bores my wife", "has a partner"),
        ("Just back from a trip with my boyfriend", "has a partner"),
        # a denial about the partner still takes the partner for granted
        ("My husband doesn't like museums", "has a partner"),
        # children, the same
        ("My daughter got a puppy for her birthday", "has kids"),
        ("Dinner is chaos with my three kids", "has kids"),
        ("My son doesn't like broccoli", "has kids"),
    ],
)
def test_the_speakers_own_possessive_is_believed_whoever_the_clause_is_about(
    text: str, expected: str
) -> None:
    assert expected in believed(text)


@pytest.mark.parametrize(
    ("text", "never"),
    [
        # a partner who is gone or not yet there
        ("My ex-wife took the dog", "has a partner"),
        ("My late husband loved sailing", "has a partner"),
        ("My future husband will need to love cats", "has a partner"),
        ("My wife and I divorced a while ago", "has a partner"),
        ("I still miss my girlfriend every day", "has a partner"),
        # set in the past or a hypothetical
        ("Back in college my boyfriend and I hiked a lot", "has a partner"),
        ("If I ever marry, my husband will have to cook", "has a partner"),
        # someone else's, or not the speaker's kind of possessive
        ("Your wife sounds lovely", "has a partner"),
        ("My neighbour's kids are loud", "has kids"),
        ("My students are like my kids", "has kids"),
        ("I coach under-tens and my kids won on Saturday", "has kids"),
    ],
)
def test_a_possessive_that_takes_nothing_for_granted_stays_out_of_the_block(
    text: str, never: str
) -> None:
    assert never not in believed(text)


def test_a_denial_of_being_married_is_no_partner() -> None:
    assert "has a partner" not in facts("I'm not married and never was")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a modal consequence is as hypothetical as its condition
        ("If my knee holds up, my coach will enter me in the relay", set()),
        ("If we ever move, my boyfriend would want a garden", set()),
        # a habit under a condition is still the speaker's habit
        ("If it rains, I swim at the leisure centre", {"primary sport: swimming"}),
    ],
)
def test_the_consequence_of_a_condition_takes_its_mood_from_its_modal(
    text: str, expected: set[str]
) -> None:
    assert believed(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a practice the speaker owns, whoever the clause is about
        ("My volleyball practice ran late again", "also does volleyball"),
        ("The coach moved my tennis lessons to Friday", "also does tennis"),
        ("Rain ruined my evening walks all week", "also does walking"),
        ("I bought a watch to time my hikes", "also does hiking"),
        ("My climbing club meets on Thursdays", "also does climbing"),
        ("Nothing beats music during my workouts", "works out regularly"),
    ],
)
def test_a_practice_in_the_speakers_possessive_is_believed(text: str, expected: str) -> None:
    assert expected in believed(text)


@pytest.mark.parametrize(
    ("text", "never"),
    [
        # a team one supports, someone else's practice, a class one teaches or takes in a subject
        ("My favourite hockey team lost again", "also does hockey"),
        ("My daughter's soccer practice is at six", "also does soccer"),
        ("I graded papers for my history class", "also does"),
        # the past
        ("Back in college my rowing club trained at dawn", "also does rowing"),
    ],
)
def test_a_possessive_that_owns_no_practice_names_none(text: str, never: str) -> None:
    assert not any(f.startswith(never) for f in believed(text))


def test_an_owned_endurance_practice_leaves_the_primary_sport_to_a_self_description() -> None:
    assert not any(
        f.startswith(("also does", "primary sport")) for f in facts("My runs are 40 min")
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the possessive reaches over a conjunction
        ("Movie night with my husband and the twins", "has a partner"),
        ("My wife and two daughters are at the beach", "has kids"),
        # grandchildren, in the possessive or had
        ("Baking cookies with my grandkids today", "has grandchildren"),
        ("My granddaughter starts school next week", "has grandchildren"),
        ("I have six grandchildren, all boys", "has grandchildren"),
    ],
)
def test_family_the_possessive_takes_for_granted(text: str, expected: str) -> None:
    assert expected in believed(text)


@pytest.mark.parametrize(
    ("text", "never"),
    [
        ("My grand kids are visiting", "has kids"),
        ("I don't have grandchildren yet", "has grandchildren"),
        ("I hope to have grandkids one day", "has grandchildren"),
        ("She treats the puppies like my grandkids", "has grandchildren"),
    ],
)
def test_grandchildren_are_not_children_nor_a_wish(text: str, never: str) -> None:
    assert never not in facts(text)


@pytest.mark.parametrize("text", ["They're my babies", "The dogs are my kids now"])
def test_a_kin_noun_as_the_predicate_of_be_compares(text: str) -> None:
    assert "has kids" not in facts(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a presupposition survives a modal, a wish, a thought or a benign condition
        ("Maybe when my fiance visits we can all go bowling", "has a partner"),
        ("I wish my sons would call more often", "has kids"),
        ("My husband thinks we should repaint the kitchen", "has a partner"),
        ("My wife is a nurse if you ever need advice", "has a partner"),
    ],
)
def test_a_presupposition_survives_a_modal(text: str, expected: str) -> None:
    assert expected in believed(text)


@pytest.mark.parametrize(
    ("text", "never"),
    [
        ("If I ever have kids, my kids will learn to swim early", "has kids"),
        ("I'm writing my own children's book", "has kids"),
    ],
)
def test_a_condition_or_a_classifying_genitive_takes_nothing_for_granted(
    text: str, never: str
) -> None:
    assert never not in believed(text)


def test_an_echoed_race_plan_is_ones_own() -> None:
    assert "goal: 5k" in believed("Me too! I'm training for a 5k")


@pytest.mark.parametrize(
    "text",
    [
        "My girlfriend ran off with my best friend",
        "I just had a breakup with my boyfriend",
        "My husband has custody of the dog",
    ],
)
def test_a_partner_who_left_is_no_partner(text: str) -> None:
    assert "has a partner" not in facts(text)


def test_a_pet_called_my_baby_is_no_child() -> None:
    assert "has kids" not in facts("She's my baby, that cat")


@pytest.mark.parametrize(
    "text",
    [
        # a kin word that qualifies a sibling
        "my baby brother turns 30",
        "My baby sister is getting married in June",
        "my little brother and my baby cousin came over",
        # a child's word said of friends or a partner, with nothing about a child
        "me and my girls went to brunch",
        "going out with my girls tonight",
        "My boys and I are watching the game at the pub",
        "my baby is coming home from deployment",
        "Can't wait to see my baby this weekend, he flies in Friday",
    ],
)
def test_a_child_word_said_of_a_sibling_friends_or_a_partner_is_no_child(text: str) -> None:
    assert "has kids" not in facts(text)


@pytest.mark.parametrize(
    "text",
    [
        "my girls are 5 and 7",
        "My baby is 6 months old and teething",
        "my two boys fight all the time",
        "I'm pregnant and eating better for my baby",
        "my kids love pizza",
    ],
)
def test_a_child_word_with_a_child_in_the_sentence_is_a_child(text: str) -> None:
    assert "has kids" in facts(text)


@pytest.mark.parametrize(
    "text",
    [
        # not yet
        "my wife to be is planning the wedding",
        "My husband-to-be hates dancing",
        "my wife, if I ever get one, will have to love dogs",
        "My future wife will have to love dogs, if I ever get married",
        # no longer
        "my wife is no longer with me",
        # not real, or not a partner
        "in my novel, my wife is a spy",
        "In the game my husband is a wizard",
        "he's my partner in crime",
        "Sam has been my partner in crime since school",
    ],
)
def test_a_partner_not_there_now_is_no_partner(text: str) -> None:
    assert "has a partner" not in facts(text)

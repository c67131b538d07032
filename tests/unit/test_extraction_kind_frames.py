"""Kinds of clause the word lists missed, one frame each, with sentences written for the test
(issue 28): work beyond the title list, study, eating plans, sleep, named conditions. Each frame also has its
near misses: the same words in a clause that is not a present self-description."""

from __future__ import annotations

import pytest

from tests.unit.test_learning_trust import believed, facts


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a workplace or an employer with words no list holds
        ("I work at a tiny pottery studio by the river", "works at a tiny pottery studio"),
        ("I also work at the county records office", "works at the county records office"),
        ("These days I work at Maple Street Deli", "works at maple street deli"),
        ("I work for a solar panel installer", "works for a solar panel installer"),
        ("I work for my uncle", "works for my uncle"),
        # a field after "I'm in"
        ("I'm actually in logistics, it pays the bills", "works in logistics"),
        ("I am in the coast guard", "works in the coast guard"),
        # teaching and coaching as what one does
        ("I teach chemistry at the local high school", "teaches chemistry"),
        ("I coach junior fencing on weekends", "coaches junior fencing"),
        # a business of one's own
        ("I own a small landscaping company", "owns a small landscaping company"),
        ("I run my own catering business", "runs a catering business"),
        # a role word with its workplace
        ("I'm a dispatcher at a taxi firm", "works as a dispatcher"),
        # an adverb between the subject and the title
        ("I'm also a paramedic", "works as a paramedic"),
    ],
)
def test_work_told_by_its_frame_is_believed(text: str, expected: str) -> None:
    assert expected in believed(text)


@pytest.mark.parametrize(
    "text",
    [
        "I work at a steady pace",
        "I work for a living like everyone else",
        "I work in a team of four",
        "I used to work at a bakery",
        "I quit my job at the warehouse",
        "I don't work for that company",
        "My brother works at a garage",
        "Do you work at a hospital?",
        "I teach my kids to ride bikes",
        "I am in it for the long haul",
        "I'm in law school",
        "I'm a big fan of the coffee at the corner shop",
    ],
)
def test_the_same_words_outside_the_frame_name_no_workplace(text: str) -> None:
    assert not {f for f in facts(text) if f.startswith(("works ", "teaches", "coaches", "owns"))}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I go to community college in the evenings", "is a student"),
        ("My statistics homework is taking forever", "is a student"),
        ("I'm swamped with exams right now", "is a student"),
        ("My thesis is about river ecology", "is a student"),
        ("I'm on a low-sodium diet these days", "eats a low sodium diet"),
        ("I eat a mostly raw diet", "eats a raw diet"),
        ("My diet is working, slowly", "is on a diet"),
        ("I've been eating strictly vegetarian", "is vegetarian"),
        ("I only cook halal food", "eats halal"),
        ("I have real trouble falling asleep", "has trouble sleeping"),
        ("I can't stay asleep most nights", "has trouble sleeping"),
        # a named condition as the speaker's own, by its verb or its possessive
        ("My migraines are worse in summer", "has migraines"),
        ("I cope with anxiety by walking", "has anxiety"),
        ("I'm being treated for high blood pressure", "has high blood pressure"),
    ],
)
def test_study_diet_sleep_and_conditions_told_by_their_frame(text: str, expected: str) -> None:
    assert expected in believed(text)


@pytest.mark.parametrize(
    ("text", "never"),
    [
        ("My daughter's homework is so hard", "is a student"),
        ("I used to go to college in Ohio", "is a student"),
        ("My husband is on a keto diet", "eats a keto diet"),
        ("Should I try a paleo diet?", "eats a paleo diet"),
        ("My son has trouble sleeping", "has trouble sleeping"),
        ("My sister struggles with depression", "has depression"),
        ("I had some anxiety about the test", "has anxiety"),
    ],
)
def test_study_diet_sleep_and_conditions_of_someone_else_are_not_mine(
    text: str, never: str
) -> None:
    assert never not in facts(text)


# "A ride" takes its sense from what is ridden: only a bike in the sentence makes it cycling.
@pytest.mark.parametrize(
    ("text", "cycling"),
    [
        ("I went for a ride on my new bike this morning.", True),
        ("I went for a long bike ride along the coast.", True),
        ("I went for a ride on my skateboard after school.", False),
        ("We went for a ride in the car to see the lights.", False),
        ("I went for a ride on my horse at the farm.", False),
    ],
)
def test_a_ride_is_cycling_only_on_a_bike(text: str, cycling: bool) -> None:
    assert ("also does cycling" in facts(text)) is cycling


@pytest.mark.parametrize(
    "text",
    [
        "I have no trouble sleeping",
        "I don't have trouble sleeping these days",
        "I rarely have trouble falling asleep",
        "I work for John Smith",
        "I work for Dr Patel",
        "I work at Sarah's bakery",
        "I'm a beginner at a climbing gym",
        "I'm a member at a local gym",
        "I'm a patient at a physio clinic",
        "I work for an hour before my run",
        "I teach twice a week",
        "I coach online",
    ],
)
def test_denials_people_and_what_is_no_job_give_no_such_fact(text: str) -> None:
    kept = facts(text)
    assert not any(f.startswith(("has trouble", "works ", "teaches", "coaches")) for f in kept), (
        kept
    )


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I might sign up for a marathon, been running for 10 years", "primary sport: running"),
        ("I could try cycling, but work as a nurse so shifts are hard", "works as a nurse"),
        ("Maybe I'll try yoga, love running though", "likes running"),
    ],
)
def test_a_contrast_or_its_own_tense_is_not_carried_into_a_maybe(text: str, fact: str) -> None:
    assert fact in believed(text)

"""Exercise read by its frame (issue 28): a habit said with a frequency of the week, a practice
after "try to" / "tend to" / "mostly", a liked outing ("go on walks", "go out for walks"), and
the speaker's own sport named ("my sport is ...")."""

from __future__ import annotations

import pytest

from tests.unit.test_learning_trust import believed, facts


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I work out a couple of times a week", "works out regularly"),
        ("When work is slow I exercise three days each week", "works out regularly"),
        ("I try to go climbing every weekend", "also does climbing"),
        ("I tend to play squash with colleagues", "also does squash"),
        ("I mostly do pilates these days", "also does pilates"),
        ("I love to go on hikes with my sister", "likes hiking"),
        ("I like to go out for walks after dinner", "likes walking"),
        ("I train alone because my sport is distance swimming", "primary sport: swimming"),
    ],
)
def test_exercise_told_by_its_frame(text: str, expected: str) -> None:
    assert expected in believed(text)


@pytest.mark.parametrize(
    ("text", "never"),
    [
        ("I'd like to go on walks with you some day", "likes walking"),
        ("I hit the gym twice a week", "works out regularly"),
        ("My favourite sport to watch is cycling", "primary sport: cycling"),
        ("I try to go to bed early", "also does"),
    ],
)
def test_the_same_words_outside_the_frame(text: str, never: str) -> None:
    assert not any(f.startswith(never) for f in believed(text))


def test_the_gym_habit_is_strength_training() -> None:
    assert "also does strength training" in facts("I hit the gym twice a week")


@pytest.mark.parametrize(
    "text",
    [
        # a team one supports
        "my football team lost again",
        "our football team lost again, so frustrating to watch",
        "My baseball team is in the playoffs",
        "my hockey team finally won the cup",
        "Our basketball team plays tonight on TV",
        # a practice given up or denied
        "I stopped going to my yoga class",
        "I never go to my yoga class anymore",
        "I quit my dance lessons",
        "I gave up my swimming lessons",
        "I don't go to my pilates class these days",
    ],
)
def test_a_team_one_supports_or_a_practice_given_up_is_no_practice(text: str) -> None:
    assert not any(f.startswith("also does") for f in facts(text)), facts(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I play on my softball team", "also does softball"),
        ("I scored twice for my hockey team", "also does hockey"),
        ("my softball game was cancelled", "also does softball"),
        ("My yoga class was great today", "also does yoga"),
    ],
)
def test_a_team_one_plays_in_and_a_practice_kept_are_read(text: str, expected: str) -> None:
    assert expected in facts(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # an adverb before the article of a doer of an activity
        ("I'm also a big skier", {"also does skiing"}),
        ("I'm really a keen climber these days", {"also does climbing"}),
        # doers joined in one phrase are each done
        ("I'm an avid surfer and skateboarder", {"also does surfing", "also does skateboarding"}),
    ],
)
def test_a_doer_named_of_oneself(text: str, expected: set[str]) -> None:
    assert expected <= believed(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # joined games share the verb of doing
        ("Most weeks I play squash and badminton", {"also does squash", "also does badminton"}),
        ("We do judo and boxing at the club", {"also does martial arts", "also does boxing"}),
        # a list that runs on past a comma keeps what each item names
        ("I enjoy knitting, going to the gym and baking", {"likes strength training"}),
        ("I like to sew, climb, and lift weights", {"likes climbing", "likes strength training"}),
    ],
)
def test_every_item_of_a_list_is_read(text: str, expected: set[str]) -> None:
    assert expected <= believed(text)


def test_a_game_liked_as_a_noun_is_still_not_played() -> None:
    assert not any("tennis" in f for f in believed("I love tennis and cricket on TV"))


def test_the_game_is_named_as_the_speaker_names_it() -> None:
    """A soccer player's fact says soccer: "football" alone is soccer to some, gridiron to others."""
    assert "also does soccer" in believed("I play soccer on Sunday mornings")
    assert "also does football" not in believed("I play soccer on Sunday mornings")
    assert "also does football" in believed("I play five-a-side football after work")

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

"""A sport word in another sense is no sport (issue 28): a training thing that is only the place
of something else, "watch" as a thing on the wrist, "run" as a verb of moving about. Each kind
with varied sentences written for the test, and the same words where they do mean training."""

from __future__ import annotations

import pytest

from tests.unit.test_learning_trust import believed, facts


@pytest.mark.parametrize(
    ("text", "never"),
    [
        # the object of a preposition of place that no training word leads to
        ("I really enjoy the view from the track at the speedway", "likes track sessions"),
        ("I love the smell of fuel at the track", "likes track sessions"),
        ("We love having a picnic in the hills", "likes hills"),
        ("I love sitting by the trails with a book", "likes trail running"),
        ("I enjoy reading in the rain", "likes rain"),
    ],
)
def test_a_training_word_that_is_only_a_place_is_no_taste(text: str, never: str) -> None:
    assert never not in facts(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a training verb or session word leads to the place: the taste stands
        ("I love doing intervals on the track", "likes track sessions"),
        ("I love running on the track", "likes track sessions"),
        ("I love the track", "likes track sessions"),
        ("I love cycling in the hills", "likes hills"),
        ("I enjoy running in the rain", "likes rain"),
        ("I like going to the gym", "likes strength training"),
    ],
)
def test_a_place_a_training_word_leads_to_is_still_liked(text: str, expected: str) -> None:
    assert expected in believed(text)


@pytest.mark.parametrize(
    "text",
    [
        "I work at a watch repair shop",
        "I'm a cashier at the watch store downtown",
        "I work at a discount watch dealer",
    ],
)
def test_watch_as_a_thing_watches_nothing(text: str) -> None:
    assert any(f.startswith("works ") for f in believed(text))


@pytest.mark.parametrize(
    ("text", "sport"),
    [
        ("In that game I always run around collecting coins", None),
        ("At work I run about all day", None),
        ("I jog around the park most evenings", "primary sport: running"),
        ("I usually run about 40 minutes", "primary sport: running"),
    ],
)
def test_run_around_with_no_route_or_measure_moves_about(text: str, sport: str | None) -> None:
    found = {f for f in facts(text) if f.startswith("primary sport")}
    assert found == ({sport} if sport else set())


@pytest.mark.parametrize(
    ("text", "hip"),
    [
        ("I love hip hop and break dancing", False),
        ("We blast hip-hop at the gym", False),
        ("My hip has been bad for years", True),
    ],
)
def test_hip_hop_is_music_not_a_hip(text: str, hip: bool) -> None:
    assert any(f.startswith("has") and "hip" in f for f in facts(text)) is hip


def test_a_student_without_a_job_is_a_student() -> None:
    assert "is a student" in believed("I'm still in college, so I don't have a job")


@pytest.mark.parametrize(
    ("text", "group"),
    [
        ("I love gaming and connecting with others who enjoy it", False),
        ("I love running with others", True),
        ("I like to ride in a group on Sundays", True),
    ],
)
def test_company_is_a_taste_only_when_a_training_word_leads_to_it(text: str, group: bool) -> None:
    assert ("likes group runs" in facts(text)) is group


@pytest.mark.parametrize("text", ["I'm a proud doggy mom", "As a cat dad I never sleep in"])
def test_a_pets_parent_has_no_kids(text: str) -> None:
    assert "has kids" not in facts(text)


@pytest.mark.parametrize(
    "text",
    [
        # a stated preference for another thing, with a time word near it
        "My favorite painting that I've created was a portrait of my late grandmother",
        "My favourite bakery opens early",
        "I heard it is best fresh so you gotta get it early!",
        "The soup is best late at night",
        # "late" after a possessive is the dead's
        "I love the garden my late husband planted",
    ],
)
def test_a_time_word_beside_a_preference_for_another_thing_is_no_time_preference(
    text: str,
) -> None:
    assert not any(f.startswith("prefers ") for f in facts(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("evenings work best for me", "prefers evening sessions"),
        ("My favourite runs are at night", "prefers evening sessions"),
        ("my favourite time to train is early morning", "prefers morning sessions"),
        ("My favorite is a morning run", "prefers morning sessions"),
        ("I prefer evenings", "prefers evening sessions"),
    ],
)
def test_a_preference_that_governs_the_time_or_the_training_is_kept(
    text: str, expected: str
) -> None:
    assert expected in facts(text)

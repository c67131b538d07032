"""Topics of chat as people write it: what nobody said as a word (links, vault's redaction
marks, an app's placeholders, numbers and codes) is no topic, and chat spellings count as the
words they spell (a letter held for emphasis, a contraction without its apostrophe, chat's
interjections and shorthand)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vault.domain.topics import topics

SAID = "pottery class moved to tuesdays"


@pytest.mark.parametrize(
    "noise",
    [
        "https://www.airbnb.com/rooms/c4xk29lmq8r?check_in=2025-06-12",
        "www.example.org/menu",
        "wa.me/447911123456",
        "[email]",
        "[address]",
        "<Media omitted>",
        "<attached: photo.jpg>",
        "6:55am",
        "5th",
        "10/10",
        "AB123456",
    ],
)
def test_what_nobody_said_as_a_word_is_no_topic(noise: str) -> None:
    assert topics(f"{SAID} {noise} lol") == topics(SAID)
    assert topics(noise) == []


@settings(max_examples=60, deadline=None)
@given(
    word=st.sampled_from(["so", "yes", "hey", "no", "omg", "lol", "cool", "good"]),
    held=st.integers(3, 6),
)
def test_a_letter_held_for_emphasis_spells_the_word(word: str, held: int) -> None:
    spelled = word + word[-1] * held
    assert topics(spelled) == []  # each is filler or a stopword once read as the word it is
    assert topics(f"{SAID} {spelled}") == topics(SAID)


@pytest.mark.parametrize(
    "contracted", ["ive", "thats", "dont", "im", "youre", "didnt", "its", "theyre", "cant"]
)
def test_a_contraction_without_its_apostrophe_is_no_topic(contracted: str) -> None:
    assert topics(contracted) == []
    assert topics(f"{SAID} {contracted}") == topics(SAID)


@pytest.mark.parametrize("shorthand", ["brb", "tbh", "wyd", "ugh", "lmaooo", "idk", "tho"])
def test_chat_shorthand_is_no_topic(shorthand: str) -> None:
    assert topics(shorthand) == []


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("i was ill all week", "ill"),
        ("we built a shed", "shed"),
        ("my legs are sore after the long run", "sore"),
        ("running form drills with Tom", "form"),
        ("we met Tom at the fort", "fort"),
        ("she likes the others", "others"),
        ("pizzaaa night", "pizza"),
        ("a loooong ride", "long"),
        ("i ran with my cat", "cat"),
        ("connect the dots", "dots"),
    ],
)
def test_words_that_look_like_chat_spellings_stay_topics(text: str, kept: str) -> None:
    assert kept in topics(text)

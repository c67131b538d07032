"""Every false-fact kind seen on real words, each from a sentence of the same shape (issue 20).

Shapes, not the reported sentences: a slot from a passing word, the other speaker's words,
other people's children, a polite echo, an ended job, a past injury, one session or someone
else's routine read as a trait, a figure of speech; then the phrasings the word lists missed,
and text in one voice.
"""

from __future__ import annotations

import pytest

from vault.domain.models import FactIn
from vault.domain.vocabulary import Source
from vault.extraction import RuleExtractor, extract_from_activity
from vault.extraction.activity import ActivityIn

PROMPT = 0.5


def facts(text: str) -> dict[str, float]:
    found = RuleExtractor().extract(text, source=Source.USER_MESSAGE)
    return {c.text: c.confidence for c in found if isinstance(c, FactIn)}


def believed(text: str) -> set[str]:
    """What one message would put in the MEMORY block (confidence >= 0.5)."""
    return {fact for fact, confidence in facts(text).items() if confidence >= PROMPT}


@pytest.mark.parametrize(
    ("text", "never"),
    [
        # a slot from one passing word
        ("I adore riding my horse on the weekend", "primary sport: cycling"),
        ("Just advanced to the final level, so happy!", "level: advanced"),
        ("Finally hit that 50 mile mark in 2 weeks!", "goal: ultra"),
        # the other speaker's words
        ("Love your evening rides!", "prefers evening sessions"),
        ("So great you found an intermediate group", "level: intermediate"),
        # other people's children
        ("I teach second grade and my kids this year are wonderful", "has kids"),
        ("My fur babies keep me on my toes", "has kids"),
        # the past
        ("Got laid off from my job as a nurse last week", "works as a nurse"),
        ("Last year, in the final race, I twisted my knee", "has knee issue"),
        # a word in another sense, a comparison (issue 28)
        ("But I always run out of patience quickly", "primary sport: running"),
        ("I help plan and run activities for the groups", "primary sport: running"),
        ("I consider my cats to be like my kids", "has kids"),
        # someone else's routine, a figure of speech
        ("We walk the dogs at the beach, usually for about two hours", "typical duration: 120 min"),
        ("Haha that is crazy", "busy schedule"),
        ("It's insane how fast you are", "busy schedule"),
    ],
)
def test_a_false_fact_kind_stays_out(text: str, never: str) -> None:
    assert never not in facts(text)


@pytest.mark.parametrize("text", ["Me too! I love swimming", "Same here, I love cycling too"])
def test_a_polite_echo_stays_below_the_prompt(text: str) -> None:
    assert facts(text) and not believed(text)


def test_too_later_in_a_message_adds_rather_than_echoes() -> None:
    assert "likes skiing" in believed("I mostly swim. I love skiing too!")
    assert "likes skiing" not in believed("I love skiing too!")


def test_one_session_note_stays_below_the_prompt() -> None:
    note = ActivityIn(id="a1", date="2026-03-02", description="Quads screaming after the hills")
    found = [c for c in extract_from_activity(note) if isinstance(c, FactIn)]
    assert found and all(c.confidence < PROMPT for c in found)


def test_a_milestone_is_not_a_race_and_a_date_alone_is_not_a_plan() -> None:
    assert not any(f.startswith("goal:") for f in facts("Finally crossed 200 miles this month!"))
    assert "goal: marathon" not in believed("My first marathon in 3 months?!")
    assert believed("I'm training for a marathon in 3 months") == {"goal: marathon"}


def test_a_slot_needs_a_self_description() -> None:
    assert believed("I'm a fairly advanced swimmer") >= {"level: advanced"}
    assert believed("Total beginner here") == {"level: beginner"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # no subject named: could be anyone's; read, kept below until another day says it
        ("A sprained wrist won't slow me down!", "has wrist issue"),
        ("Club runs are always the best!", "likes group runs"),
        ("Four more long runs before Boston!", "goal: marathon"),
        # an event, not a description: "just got", "started"
        ("I just got a job as a nurse", "works as a nurse"),
        # an ache without a word of lasting
        ("My knee hurts", "has knee issue"),
    ],
)
def test_one_reading_that_is_no_self_description_stays_below(text: str, expected: str) -> None:
    assert expected in facts(text) and expected not in believed(text)


def test_a_lasting_ache_said_in_the_first_person_is_believed() -> None:
    assert "has recurring left knee issue" in believed("my left knee has been bad for years")


def test_a_later_message_resolves_the_issue() -> None:
    found = RuleExtractor().extract("my wrist is fine now", source=Source.USER_MESSAGE)
    assert [(c.tags) for c in found if not isinstance(c, FactIn)] == [frozenset({"body:wrist"})]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I lift weights every day", "also does strength training"),
        ("I exercise every day", "works out regularly"),
        ("I play squash on Tuesdays", "also does squash"),
        ("I play pickleball with my neighbours", "also does pickleball"),
        ("I'm a dental hygienist", "works as a dental hygienist"),
        ("I'm a pilates instructor", "works as a pilates instructor"),
        ("I have a girl named Amy and a boy named Tom", "has kids"),
        ("I'm not working at the moment because of my health", "is not working"),
        ("I love to go for a run with friends", "likes group runs"),
        ("I'm studying to be a nurse", "is a student"),
        ("I'm a history major in college", "is a student"),
    ],
)
def test_phrasings_beyond_the_word_list(text: str, expected: str) -> None:
    assert expected in believed(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I work as a tech support", {"works in tech support"}),
        ("I'm a customer service agent", {"works in customer service"}),
        ("I do pilates. I love pilates.", {"likes pilates"}),
        ("I work out a lot", {"works out regularly"}),
    ],
)
def test_facts_read_in_one_voice(text: str, expected: set[str]) -> None:
    assert believed(text) == expected

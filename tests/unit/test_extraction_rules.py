"""The rule-based extractor: canonical facts, traps that must not become facts, retractions."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from vault.domain.models import Candidate, FactIn, Retraction
from vault.domain.vocabulary import Category, Source
from vault.extraction import Extractor, RuleExtractor
from vault.extraction.clauses import Subject, split_clauses

AT = datetime(2026, 3, 2, 7, 30, tzinfo=timezone.utc)


def extract(text: str) -> list[Candidate]:
    return RuleExtractor().extract(
        text, source=Source.USER_MESSAGE, source_ref="msg-1", observed_at=AT
    )


def fact_texts(text: str) -> list[str]:
    return sorted(c.text for c in extract(text) if isinstance(c, FactIn))


def test_issue_example_yields_exactly_what_a_coach_would_write_down() -> None:
    found = extract(
        "I run most mornings before work, usually 45 minutes, but my left knee has been sore"
        " since the half marathon"
    )
    facts = {c.text: c for c in found if isinstance(c, FactIn)}
    assert len(found) == len(facts) == 4
    assert set(facts) == {
        "primary sport: running",
        "prefers morning sessions",
        "typical duration: 45 min",
        "has left knee issue",
    }
    assert facts["primary sport: running"].conflict_key == "primary sport"
    assert facts["primary sport: running"].confidence == 0.8
    assert facts["prefers morning sessions"].conflict_key == "time preference"
    assert facts["prefers morning sessions"].confidence == 0.7
    assert facts["typical duration: 45 min"].conflict_key == "typical duration"
    assert facts["typical duration: 45 min"].confidence == 0.6
    knee = facts["has left knee issue"]
    assert (
        knee.category is Category.INJURY
        and knee.tags == frozenset({"body:knee"})
        and knee.confidence == 0.9
    )


def test_issue_follow_up_switches_sport_and_resolves_the_knee() -> None:
    found = extract("I've switched to cycling, the knee is fine now")
    assert len(found) == 2
    sport = next(c for c in found if isinstance(c, FactIn))
    assert sport.text == "primary sport: cycling" and sport.conflict_key == "primary sport"
    retraction = next(c for c in found if isinstance(c, Retraction))
    assert retraction.category is Category.INJURY and retraction.tags == frozenset({"body:knee"})
    assert retraction.conflict_key is None


def test_every_candidate_carries_its_provenance() -> None:
    for candidate in extract("I'm a nurse, my knee is fine now, I love intervals"):
        assert candidate.extractor is not None and candidate.extractor.startswith("rules:")
        assert candidate.observed_at == AT
        if isinstance(candidate, FactIn):
            assert candidate.source is Source.USER_MESSAGE and candidate.source_ref == "msg-1"


def test_rule_extractor_satisfies_the_protocol() -> None:
    assert isinstance(RuleExtractor(), Extractor)
    assert RuleExtractor().name == "rules"


@pytest.mark.parametrize(
    "text",
    [
        "I don't run on Mondays",
        "my knee is fine",
        "no injuries, all good",
        "never had knee trouble",
        "my coach prefers mornings",
        "my friend is training for a marathon",
        "he runs every morning",
        "Sarah has a dodgy ankle",
        "I used to swim",
        "I had a knee injury years ago",
        "back when I was at school I rowed",
        "should I try a marathon?",
        "what if my knee hurts?",
        "if I had more time I'd run mornings",
        "thinking about doing an ironman",
        "maybe I should do more strength work",
        "Do I need to run every day?",
        "this morning's run was 45 minutes",
        "tomorrow morning I'll ride",
        "back to running after a break",
        "Intervals on Tuesday, tempo Thursday",
        "I ran a marathon last year",
        "I did a 10k last weekend",
    ],
)
def test_traps_create_no_fact(text: str) -> None:
    assert fact_texts(text) == []


def test_another_persons_injury_is_theirs_but_my_wife_is_mine() -> None:
    # her knee is no injury of the speaker's; "my wife" says the speaker has a partner
    assert fact_texts("my wife has a bad knee") == ["has a partner"]


def test_past_injury_that_keeps_coming_back_is_still_a_fact() -> None:
    assert fact_texts("I have a history of knee problems") == ["has recurring knee issue"]
    assert fact_texts("old hamstring injury flaring up again") == ["has recurring hamstring issue"]
    assert fact_texts("I had a knee injury years ago") == []


def test_a_race_already_run_is_not_a_goal_but_one_ahead_is() -> None:
    assert fact_texts("my calf has been tight since the marathon") == ["has calf issue"]
    assert fact_texts("I ran my first marathon in April") == []
    assert fact_texts("Marathon in 12 weeks, getting nervous") == ["goal: marathon"]
    assert fact_texts("training for a half") == ["goal: half marathon"]


def test_sport_words_are_normalised() -> None:
    assert fact_texts("I jog three times a week") == ["primary sport: running"]
    assert fact_texts("i bike mostly") == ["primary sport: cycling"]
    assert fact_texts("I'm a triathlete") == ["primary sport: triathlon"]
    assert fact_texts("I swim 3x a week") == ["primary sport: swimming"]
    assert fact_texts("I cycle to work every day") == [
        "commutes by bike"
    ]  # commuting is not the sport
    assert fact_texts("I run a small business") == ["runs a small business"]  # work, no sport


def test_time_preference_buckets() -> None:
    assert fact_texts("I usually train before work") == ["prefers morning sessions"]
    assert fact_texts("I can only train at lunchtime") == ["prefers lunchtime sessions"]
    assert fact_texts("Afternoons suit me best") == ["prefers afternoon sessions"]
    assert fact_texts("I prefer to get out after work") == ["prefers evening sessions"]
    assert fact_texts("I always ride after 9pm") == [
        "prefers evening sessions",
        "primary sport: cycling",
    ]


def test_durations_are_minutes_and_ranges_take_the_midpoint() -> None:
    assert fact_texts("usually an hour") == ["typical duration: 60 min"]
    assert fact_texts("I normally train for an hour and a half") == ["typical duration: 90 min"]
    assert fact_texts("my sessions are normally 30-40 minutes") == ["typical duration: 35 min"]
    assert fact_texts("my long runs are usually 2 hours") == []
    assert fact_texts("I usually train 5 hours a week") == []


def test_side_stays_in_the_text_but_the_tag_is_the_body_part() -> None:
    [fact] = [c for c in extract("Right hip flexor is cranky") if isinstance(c, FactIn)]
    assert fact.text == "has right hip issue" and fact.tags == frozenset({"body:hip"})


def test_resolution_uses_the_part_named_earlier_in_the_sentence() -> None:
    [retraction] = extract("I used to have shin splints but they're gone")
    assert isinstance(retraction, Retraction) and retraction.tags == frozenset({"body:shin"})


def test_resolution_and_new_pain_in_one_message() -> None:
    found = extract("hamstring's healed but my glute is now sore")
    assert {c.text for c in found if isinstance(c, FactIn)} == {"has glute issue"}
    assert [c.tags for c in found if isinstance(c, Retraction)] == [{"body:hamstring"}]


def test_stopping_a_sport_retracts_the_primary_sport_slot() -> None:
    [retraction] = extract("I don't run anymore")
    assert isinstance(retraction, Retraction) and retraction.conflict_key == "primary sport"
    assert retraction.category is None


def test_stopping_one_sport_for_another_yields_only_the_new_sport() -> None:
    found = extract("I stopped swimming last year and mostly run now")
    assert [c.text for c in found if isinstance(c, FactIn)] == ["primary sport: running"]
    assert not any(isinstance(c, Retraction) for c in found)


def test_switch_beats_an_older_sport_in_the_same_message() -> None:
    assert fact_texts("I'm a cyclist but switching to triathlon this year") == [
        "primary sport: triathlon"
    ]


def test_context_facts_get_distinct_topic_tags() -> None:
    found = {
        c.text: c
        for c in extract("I work night shifts as a nurse and have two kids")
        if isinstance(c, FactIn)
    }
    assert found["works night shifts"].tags == frozenset({"context:shift work"})
    assert found["works as a nurse"].tags == frozenset({"context:job"})
    assert found["has kids"].tags == frozenset({"context:kids"})
    assert {c.category for c in found.values()} == {Category.CONTEXT}


def test_likes_and_dislikes_share_a_topic_tag_so_the_newer_opinion_wins() -> None:
    [like] = [c for c in extract("I love intervals") if isinstance(c, FactIn)]
    [dislike] = [c for c in extract("I don't really like intervals") if isinstance(c, FactIn)]
    assert (like.text, dislike.text) == ("likes intervals", "dislikes intervals")
    assert like.category is dislike.category is Category.PREFERENCE
    assert "topic:intervals" in (like.tags or set()) & (dislike.tags or set())


def test_recovery_and_training_response() -> None:
    assert fact_texts("I recover pretty quickly") == ["recovers quickly"]
    assert fact_texts("recovery takes me ages these days") == ["recovers slowly"]
    assert fact_texts("Long runs leave me exhausted") == ["long runs leave them exhausted"]
    assert fact_texts("I respond really well to high mileage") == ["responds well to high mileage"]


def test_empty_and_huge_inputs() -> None:
    assert extract("") == [] and extract("   \n ") == []
    assert fact_texts("I love intervals. " * 5000) == ["likes intervals"]


def test_clauses_know_their_subject_and_mood() -> None:
    clauses = split_clauses("My coach prefers mornings but I like evenings. Should I switch?")
    assert [c.subject for c in clauses] == [Subject.OTHER, Subject.SELF, Subject.SELF]
    assert [c.question for c in clauses] == [False, False, True]

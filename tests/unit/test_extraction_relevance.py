"""Relevance retrieval: seed 002's score, stop-words and stems, a strict tie-break."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from tests.model_builders import stored_fact, stored_item
from vault.domain.models import Fact, ListItem
from vault.domain.text import entity_tags
from vault.domain.vocabulary import Category, Kind, Source
from vault.extraction import rank_relevant, relevance_score
from vault.extraction.words import content_stems, stem

NOW = datetime(2026, 3, 16, 9, 0, tzinfo=timezone.utc)


def fact(
    fact_id: int, text: str, category: Category, *, confidence: float = 0.8, age_days: float = 60
) -> Fact:
    return stored_fact(
        fact_id,
        text,
        confidence,
        at=NOW - timedelta(days=age_days),
        athlete_id="ana",
        category=category,
        source=Source.MANUAL,
        tags=tuple(sorted(entity_tags(text, category))),
    )


def item(
    item_id: int,
    text: str,
    *,
    kind: Kind = Kind.PATTERN,
    confidence: float = 0.7,
    age_days: float = 60,
) -> ListItem:
    return stored_item(
        kind, item_id, text, confidence, at=NOW - timedelta(days=age_days), athlete_id="ana"
    )


def test_score_adds_overlap_tags_confidence_and_recency() -> None:
    knee = fact(1, "has recurring knee issue", Category.INJURY, confidence=0.9, age_days=3)
    # overlap {knee} x2 + tag body:knee +5 + high +3 + < 7 days +2
    assert relevance_score(knee, "my knee hurts on the stairs", NOW) == (12, True)
    stale = fact(2, "has recurring knee issue", Category.INJURY, confidence=0.6, age_days=20)
    assert relevance_score(stale, "my knee hurts", NOW) == (2 + 5 + 1 + 1, True)
    old_low = fact(3, "has knee issue", Category.INJURY, confidence=0.4, age_days=40)
    assert relevance_score(old_low, "knee", NOW) == (7, True)


def test_stop_words_do_not_count_and_stems_do() -> None:
    running = fact(1, "primary sport: running", Category.SPORT)
    assert relevance_score(running, "I will do it with the team", NOW)[1] is False
    assert relevance_score(running, "how far should I run", NOW)[1] is True
    assert stem("running") == stem("runs") == stem("run") == stem("ran")
    assert stem("knees") == stem("knee") and stem("injuries") == stem("injury")
    assert content_stems("The and I my") == frozenset()


def test_items_need_a_word_or_tag_match_to_be_returned() -> None:
    high_recent_unrelated = fact(
        1, "works as a nurse", Category.CONTEXT, confidence=1.0, age_days=0
    )
    knee = fact(2, "has knee issue", Category.INJURY, confidence=0.4, age_days=90)
    assert rank_relevant([high_recent_unrelated, knee], "sore knee after the long run", NOW) == [
        knee
    ]
    assert rank_relevant([high_recent_unrelated], "", NOW) == []


def test_ranking_is_by_score_then_confidence_recency_kind_and_id() -> None:
    items: list[Fact | ListItem] = [
        fact(5, "prefers morning sessions", Category.TIME_PREFERENCE, confidence=0.7, age_days=60),
        fact(3, "likes morning runs", Category.PREFERENCE, confidence=0.7, age_days=60),
        fact(4, "has knee issue", Category.INJURY, confidence=0.9, age_days=1),
        item(3, "skips morning sessions", confidence=0.7, age_days=60),
        fact(
            9,
            "prefers morning sessions outdoors",
            Category.PREFERENCE,
            confidence=0.75,
            age_days=60,
        ),
    ]
    ranked = rank_relevant(items, "morning sessions with a sore knee", NOW, limit=10)
    assert [(i.kind.value, i.id) for i in ranked] == [
        ("fact", 4),
        ("fact", 9),
        ("fact", 5),
        ("pattern", 3),
        ("fact", 3),
    ]
    assert rank_relevant(items, "morning sessions with a sore knee", NOW, limit=2) == ranked[:2]
    assert (
        rank_relevant(list(reversed(items)), "morning sessions with a sore knee", NOW, limit=10)
        == ranked
    )


def test_patterns_and_notes_get_tags_from_their_text() -> None:
    pattern = item(1, "recurring knee issues")
    score, matched = relevance_score(pattern, "knee", NOW)
    assert matched and score == 2 + 5 + 1


def test_recency_thresholds() -> None:
    scores = [
        relevance_score(
            fact(1, "likes hills", Category.PREFERENCE, confidence=0.3, age_days=d), "hills", NOW
        )[0]
        for d in (6.9, 7, 29.9, 30)
    ]
    assert scores[0] - scores[1] == 1 and scores[2] - scores[3] == 1


@pytest.mark.parametrize("limit", [0, -3])
def test_non_positive_limit_returns_nothing(limit: int) -> None:
    assert (
        rank_relevant([fact(1, "likes hills", Category.PREFERENCE)], "hills", NOW, limit=limit)
        == []
    )

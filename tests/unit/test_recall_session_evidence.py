"""The session part of the ranking (vault.domain.episode_rank.rank, `Weights.session`): a turn
holding a word of the question is lifted by the question's words that the other candidates of
its session hold and it does not."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone

import pytest

from vault.domain.episode_query import analyze
from vault.domain.episode_rank import DEFAULT_WEIGHTS, Candidate, rank

AT = datetime(2024, 5, 1, 12, 0, tzinfo=timezone.utc)
QUESTION = "what car did Dave work on during the workshop"


def pool(meta: bool = True) -> list[Candidate]:
    def said(id: int, text: str, session: str, day: int) -> Candidate:
        found = {"session": session} if meta else {}
        return Candidate(id, text, "conversation", AT - timedelta(days=20 - day), found)

    return [
        said(1, "Dave: I got picked for the mod workshop next week!", "s1", 0),
        said(2, "Dave: a classic muscle car, so fun", "s1", 0),
        said(3, "Calvin: nice, send pics", "s1", 0),
        said(4, "Dave: a rusty old car, so sad", "s2", 9),
    ]


def ranked(weights=DEFAULT_WEIGHTS, meta: bool = True) -> dict[int, tuple[int, float]]:
    """id -> (place, session part)."""
    found = rank(analyze(QUESTION, AT), pool(meta), AT, k=4, total=50, weights=weights)
    return {r.candidate.id: (place, r.parts.session) for place, r in enumerate(found)}


def test_the_turn_in_the_session_that_says_the_other_words_comes_first() -> None:
    found = ranked()
    assert found[2][0] < found[4][0]  # the workshop's car, not the newer one
    assert found[2][1] > 0 and found[4][1] == 0.0
    # the workshop turn holds "workshop"; its session adds the car
    assert 0 < found[1][1] < 1


def test_without_the_part_the_newer_shorter_turn_wins() -> None:
    found = ranked(replace(DEFAULT_WEIGHTS, session=0.0))
    assert found[4][0] < found[2][0]
    assert all(part == 0.0 for _, part in found.values())


def test_a_turn_holding_no_word_asked_about_gets_nothing_from_its_session() -> None:
    found = ranked()
    assert 3 not in found or found[3][1] == 0.0


def test_without_session_metadata_the_hour_around_it_is_the_session() -> None:
    assert ranked(meta=False)[2][1] == pytest.approx(ranked()[2][1])


def test_without_session_metadata_a_talk_goes_on_past_midnight() -> None:
    night = datetime(2024, 4, 20, 23, 50, tzinfo=timezone.utc)
    pool = [
        Candidate(1, "Dave: the mod workshop was long", "conversation", night),
        Candidate(2, "Dave: a classic muscle car", "conversation", night + timedelta(minutes=20)),
    ]
    found = rank(analyze(QUESTION, AT), pool, AT, k=2, total=50)
    assert {r.candidate.id: r.parts.session for r in found}[2] > 0


def test_a_word_held_by_as_many_candidates_as_the_pool_takes_counts_for_nothing() -> None:
    query = analyze(QUESTION, AT)
    capped = rank(query, pool(), AT, k=4, total=50, word_cap=2)  # "car" is held by two
    parts = {r.candidate.id: r.parts.session for r in capped}
    assert parts[2] == 0.0 and parts[4] == 0.0  # "car" alone is no word of a session
    assert parts[1] == 0.0  # and no word the session adds to the workshop
    uncapped = {r.candidate.id: r.parts.session for r in rank(query, pool(), AT, k=4, total=50)}
    assert uncapped[1] > 0 and uncapped[2] > 0


def test_the_part_is_the_idf_share_of_the_words_the_session_adds() -> None:
    found = rank(analyze("workshop car", AT), pool(), AT, k=4, total=50)
    parts = {r.candidate.id: r.parts.session for r in found}
    # turn 1 holds "workshop" and its session adds "car"; turn 2 the other way round: the
    # two shares make the whole question
    assert parts[1] + parts[2] == pytest.approx(1.0, abs=1e-5)
    assert parts[1] < parts[2]  # "workshop" is the rarer word: the larger share


def test_what_the_session_said_hours_away_does_not_count() -> None:
    morning = AT - timedelta(days=3, hours=10)
    pool = [
        Candidate(1, "Dave: the mod workshop was long", "conversation", morning),
        Candidate(2, "Dave: a classic muscle car", "conversation", morning + timedelta(hours=3)),
        Candidate(3, "Dave: ok, a car it is", "conversation", morning + timedelta(minutes=50)),
    ]
    found = rank(analyze(QUESTION, AT), pool, AT, k=3, total=50)
    parts = {r.candidate.id: r.parts.session for r in found}
    assert parts[3] > 0  # fifty minutes from the workshop: the same talk
    assert parts[2] == 0.0  # the same day, three hours later: another talk

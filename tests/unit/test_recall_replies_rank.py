"""The reply lift of the ranking (vault.domain.episode_rank.rank, `replies`): a candidate
that replies to a question is lifted by the question's match at `Weights.reply`, any other
session neighbour at `Weights.neighbour`."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timezone

import pytest

from vault.domain.episode_query import analyze
from vault.domain.episode_rank import DEFAULT_WEIGHTS, Candidate, asks, rank

AT = datetime(2024, 5, 1, 12, 0, tzinfo=timezone.utc)


def pool() -> list[Candidate]:
    return [
        Candidate(1, "Bo: What instruments do you play?", "conversation", AT),
        Candidate(2, "Ana: mostly violin, some clarinet", "conversation", AT),
        Candidate(3, "Bo: so how was the weekend", "conversation", AT),
    ]


NEIGHBOURS = {1: [2, 3], 2: [1], 3: [1]}


def parts(replies: dict[int, set[int]] | None) -> dict[int, float]:
    query = analyze("which instruments does Ana play", AT)
    ranked = rank(query, pool(), AT, k=3, neighbours=NEIGHBOURS, replies=replies)
    return {r.candidate.id: r.parts.neighbour for r in ranked}


def test_the_reply_counts_its_questions_match_at_the_reply_weight() -> None:
    lifted = parts({2: {1}})
    assert lifted[3] > 0
    ratio = DEFAULT_WEIGHTS.reply / DEFAULT_WEIGHTS.neighbour
    assert lifted[2] == pytest.approx(lifted[3] * ratio, abs=1e-6)


def test_without_replies_every_neighbour_is_lifted_alike() -> None:
    plain = parts(None)
    assert plain[2] == pytest.approx(plain[3])
    assert plain[2] == pytest.approx(parts({})[2])


def test_a_reply_lifts_only_the_turn_that_replies() -> None:
    # the question itself, a neighbour of the reply, is not lifted by being asked
    assert parts({2: {1}})[1] == parts(None)[1]


def lifts_with(weights, replies: dict[int, set[int]] | None) -> dict[int, float]:
    query = analyze("which instruments does Ana play", AT)
    ranked = rank(query, pool(), AT, k=3, weights=weights, neighbours=NEIGHBOURS, replies=replies)
    return {r.candidate.id: r.parts.neighbour for r in ranked}


def test_a_neighbour_weight_above_the_replys_never_lowers_a_reply_below_a_neighbour() -> None:
    heavy = replace(DEFAULT_WEIGHTS, neighbour=1.6)
    lifted = lifts_with(heavy, {2: {1}})
    assert lifted[2] == pytest.approx(lifted[3])


def test_a_neighbour_weight_of_zero_ranks_without_failing() -> None:
    lifts_with(replace(DEFAULT_WEIGHTS, neighbour=0.0), {2: {1}})


@pytest.mark.parametrize(
    ("text", "asking"),
    [
        ("What do you play?", True),
        ("What do you play?  ", True),
        ("seriously, what?!", True),
        ("what do you play\uff1f", True),
        ("what do you play? 😊", True),
        ("what do you play? 👍🏽", True),
        ("(or do you play nothing?)", True),
        ("\u201cwhat do you play?\u201d", True),
        ("I play the violin.", False),
        ("I play the violin!", False),
        ("is it? no, it's fine", False),
        ("so fun :)", False),
        ("", False),
    ],
)
def test_a_turn_asks_when_its_last_mark_is_a_question_mark(text: str, asking: bool) -> None:
    assert asks(text) is asking


@pytest.mark.parametrize(
    ("text", "asking"),
    [
        ("which concert", True),
        ("noooo. which concert", True),
        ("how early should we go", True),
        ("did u see it", True),
        ("are you coming tonight 😊", True),
        ("Ana: where u staying", True),
        ("so what time", True),
        ("lol ok. what about you", True),
        ("what a game", False),
        ("what a game!", False),
        ("which one was best!", False),
        ("where we ate was great.", False),
        ("i saw it", False),
        ("Ana: we did it", False),
        ("is it? no, it's fine", False),
    ],
)
def test_chat_asks_without_a_mark_when_its_last_sentence_opens_as_a_question(
    text: str, asking: bool
) -> None:
    assert asks(text) is asking

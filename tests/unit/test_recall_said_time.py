"""The time an episode's own words point at (vault.domain.episode_query.said_span) and the
time part it gives (vault.domain.episode_rank.rank): "yesterday" said on the 4th is the 3rd."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from vault.domain.episode_query import Window, analyze, said_span
from vault.domain.episode_rank import Candidate, rank

SAID = datetime(2023, 10, 4, 15, 0, tzinfo=timezone.utc)  # a Wednesday


def day_said(text: str) -> str | None:
    span = said_span(text, SAID)
    return None if span is None else f"{span.start.date()}/{(span.end - span.start).days}"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Yesterday I met some incredible artists in Boston", "2023-10-03/1"),
        ("two days ago I wanted to be alone with nature", "2023-10-02/1"),
        ("On Monday we went to the lake", "2023-10-02/1"),
        ("last weekend was wild", "2023-09-30/2"),
        ("my birthday was on September 28th", "2023-09-28/1"),
        ("the trip back in July 2023", "2023-07-01/31"),
    ],
)
def test_the_words_point_at_a_time_before_they_were_said(text: str, expected: str) -> None:
    assert day_said(text) == expected


@pytest.mark.parametrize(
    "text", ["we march on, June said", "I may be late", "nothing planned", "ok lol"]
)
def test_a_month_named_alone_or_no_time_word_points_at_nothing(text: str) -> None:
    assert said_span(text, SAID) is None


def candidate(id: int, text: str, at: datetime) -> Candidate:
    return Candidate(id, text, "conversation", at)


def test_the_episode_that_says_the_day_asked_about_is_in_the_time_asked_about() -> None:
    pool = [
        candidate(1, "Calvin: Yesterday I met some incredible artists in Boston", SAID),
        candidate(2, "Calvin: What a week, so many artists to meet", SAID),
        candidate(3, "Calvin: the artists I met last month were great", SAID),
    ]
    query = analyze("Which artists did Calvin meet on October 3, 2023?", SAID)
    assert query.window == Window(SAID.replace(day=3, hour=0), SAID.replace(hour=0))
    found = {r.candidate.id: r.parts.time for r in rank(query, pool, SAID, window=query.window)}
    assert found[1] == 1.0
    # said on the 4th: half a day away from the day asked about, as before
    assert 0 < found[2] < 1.0 and found[3] == found[2]


def test_this_month_is_no_day_of_it() -> None:
    said = SAID + timedelta(days=10)
    pool = [candidate(1, "so many artists this month", said)]
    query = analyze("Which artists did Calvin meet on October 3, 2023?", said)
    (found,) = rank(query, pool, said, window=query.window)
    assert found.parts.time < 1.0

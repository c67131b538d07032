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
        ("last night was wild", "2023-10-03/1"),
        ("the day before yesterday we hiked", "2023-10-02/1"),
        ("two days ago I wanted to be alone with nature", "2023-10-02/1"),
        ("this past Monday we went to the lake", "2023-10-02/1"),
        ("last weekend was wild", "2023-09-30/2"),
        ("last week was a blur", "2023-09-25/7"),
        ("LAST MONTH we moved", "2023-09-01/30"),
    ],
)
def test_the_words_point_at_a_time_before_they_were_said(text: str, expected: str) -> None:
    assert day_said(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "on Saturday I'll fly to Lisbon",  # a plan: "on <weekday>" may lie ahead
        "see you on May 5!",
        "the trip in July 2023",
        "today was long",
        "we march on, June said",
        "I may be late",
        "ok lol",
        "lol the cert expires 9999-12-31 apparently",
        "9999999 days ago",
        "1" * 5000 + " days ago",
    ],
)
def test_a_plan_a_date_or_no_time_that_exists_points_at_nothing(text: str) -> None:
    assert said_span(text, SAID) is None


def test_last_weekend_said_on_a_sunday_may_be_the_one_under_way() -> None:
    sunday = SAID + timedelta(days=4)
    assert said_span("last weekend was wild", sunday) is None
    assert said_span("yesterday was wild", sunday) is not None


def test_the_same_moment_in_another_zone_is_the_same_utc_day() -> None:
    berlin = timezone(timedelta(hours=2))
    late = datetime(2023, 10, 4, 22, 30, tzinfo=timezone.utc)
    assert said_span("yesterday was fun", late.astimezone(berlin)) == said_span(
        "yesterday was fun", late
    )
    assert said_span("yesterday!", late) == Window(
        datetime(2023, 10, 3, tzinfo=timezone.utc), datetime(2023, 10, 4, tzinfo=timezone.utc)
    )


@pytest.mark.parametrize(
    ("question", "day"),
    [
        ("what did we eat last night?", "2023-10-03"),
        ("where were we the day before yesterday?", "2023-10-02"),
    ],
)
def test_a_question_says_last_night_and_the_day_before_yesterday(question: str, day: str) -> None:
    window = analyze(question, SAID).window
    assert window is not None and window.start.date().isoformat() == day
    assert window.end - window.start == timedelta(days=1)


@pytest.mark.parametrize(
    "question", ["what happened 99999999 days ago?", "what expires on 9999-12-31?"]
)
def test_a_question_pointing_off_the_calendar_has_no_span(question: str) -> None:
    assert analyze(question, SAID).window is None


def candidate(id: int, text: str, at: datetime) -> Candidate:
    return Candidate(id, text, "conversation", at)


def test_the_episode_that_says_the_day_asked_about_is_in_the_time_asked_about() -> None:
    pool = [
        candidate(1, "Calvin: Yesterday I met some incredible artists in Boston", SAID),
        candidate(2, "Calvin: What a week, so many artists to meet", SAID),
        candidate(3, "Calvin: on Tuesday I'll meet more artists", SAID),
    ]
    query = analyze("Which artists did Calvin meet on October 3, 2023?", SAID)
    assert query.window == Window(SAID.replace(day=3, hour=0), SAID.replace(hour=0))
    found = {r.candidate.id: r.parts.time for r in rank(query, pool, SAID, window=query.window)}
    assert found[1] == 1.0
    # said on the 4th: half a day away from the day asked about, as before
    assert 0 < found[2] < 1.0 and found[3] == found[2]


def test_a_longer_time_than_the_span_asked_about_is_not_in_it() -> None:
    said = SAID + timedelta(days=5)  # Monday the 9th: "last week" is the 2nd to the 8th
    pool = [candidate(1, "so many artists last week", said)]
    day = analyze("Which artists did Calvin meet on October 3, 2023?", said)
    (found,) = rank(day, pool, said, window=day.window)
    assert found.parts.time < 1.0
    month = analyze("Which artists did Calvin meet in October 2023?", said)
    (found,) = rank(month, pool, said, window=month.window)
    assert found.parts.time == 1.0

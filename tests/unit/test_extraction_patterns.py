"""Pattern analysis over activity history: the 8-week windows run on a frozen clock."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime, timedelta, timezone
from itertools import count

import pytest
from freezegun import freeze_time
from freezegun.api import FrozenDateTimeFactory

from tests.model_builders import stored_fact
from vault.domain.models import Fact
from vault.domain.times import utc_now
from vault.domain.vocabulary import Category, Source
from vault.extraction import ActivityIn, analyze_patterns

NOW = datetime(2026, 3, 16, 9, 0, tzinfo=timezone.utc)  # a Monday
_ids = count(1)


@pytest.fixture
def frozen_clock() -> Iterator[FrozenDateTimeFactory]:
    with freeze_time(NOW, tick=False) as frozen:
        yield frozen  # type: ignore[misc]  # freeze_time's stubs return a union of factories


def session(day: date, *, completed: bool = True, **fields: object) -> ActivityIn:
    started = datetime.combine(day, datetime.min.time(), tzinfo=timezone.utc) + timedelta(hours=7)
    return ActivityIn.model_validate(
        {"id": f"act-{next(_ids)}", "started_at": started, "completed": completed, **fields}
    )


def injury_fact(part: str, occurrences: int, fact_id: int = 1) -> Fact:
    return stored_fact(
        fact_id,
        f"has {part} issue",
        0.9,
        at=NOW,
        athlete_id="ana",
        category=Category.INJURY,
        source=Source.USER_MESSAGE,
        extractor="rules:injury",
        occurrences=occurrences,
        tags=(f"body:{part.lower()}",),
    )


def texts(activities: list[ActivityIn], facts: list[Fact] | None = None) -> list[str]:
    return [p.text for p in analyze_patterns(activities, facts or [], utc_now())]


def mondays(weeks: int, before: datetime = NOW) -> list[date]:
    last = before.date() - timedelta(days=7)
    return [last - timedelta(weeks=w) for w in range(weeks)]


def test_half_of_four_planned_mondays_missed_is_a_skip_pattern(
    frozen_clock: FrozenDateTimeFactory,
) -> None:
    days = mondays(4)
    history = [session(d, completed=i % 2 == 0) for i, d in enumerate(days)]
    [pattern] = analyze_patterns(history, [], utc_now())
    assert pattern.text == "skips Mondays frequently"
    assert (
        pattern.source is Source.PATTERN_ANALYSIS
        and pattern.extractor == "patterns:skipped_weekday"
    )
    assert pattern.observed_at == NOW


def test_skip_pattern_needs_four_planned_and_half_missed(
    frozen_clock: FrozenDateTimeFactory,
) -> None:
    assert texts([session(d, completed=False) for d in mondays(3)]) == []
    eight = mondays(8)
    assert texts([session(d, completed=i >= 3) for i, d in enumerate(eight)]) == []  # 3 of 8 missed
    assert texts([session(d, completed=i >= 4) for i, d in enumerate(eight)]) == [
        "skips Mondays frequently"
    ]
    unplanned = [session(d, completed=False, planned=False) for d in mondays(4)]
    assert texts(unplanned) == []


def test_sessions_leave_the_window_as_the_clock_moves(frozen_clock: FrozenDateTimeFactory) -> None:
    history = [session(d, completed=False) for d in mondays(4)]
    assert texts(history) == ["skips Mondays frequently"]
    frozen_clock.tick(timedelta(weeks=5))
    assert texts(history) == []  # only the newest Monday is still inside the 8 weeks


def test_weekday_is_the_athletes_own_day() -> None:
    sydney = timezone(timedelta(hours=10))
    history = [
        ActivityIn(
            id=f"s{i}",
            started_at=datetime.combine(d, datetime.min.time(), tzinfo=sydney) + timedelta(hours=6),
            completed=False,
        )
        for i, d in enumerate(mondays(4))
    ]
    assert all(a.observed_at.weekday() == 6 for a in history)  # Sunday in UTC
    assert [p.text for p in analyze_patterns(history, [], NOW)] == ["skips Mondays frequently"]


def test_three_completed_rest_days_are_an_override_pattern(
    frozen_clock: FrozenDateTimeFactory,
) -> None:
    days = [NOW.date() - timedelta(days=n) for n in (3, 10, 20)]
    assert texts([session(d, rest_suggested=True) for d in days]) == ["overrides rest suggestions"]
    assert texts([session(d, rest_suggested=True) for d in days[:2]]) == []
    assert texts([session(d, rest_suggested=True, completed=False) for d in days]) == []
    old = [session(NOW.date() - timedelta(weeks=9, days=n), rest_suggested=True) for n in range(3)]
    assert texts(old) == []


def week_of(monday: date, load: float) -> list[ActivityIn]:
    return [
        session(monday + timedelta(days=1), load=load / 2),
        session(monday + timedelta(days=3), load=load / 2),
    ]


@pytest.mark.parametrize(
    ("previous", "current", "ramps"),
    [
        (400, 540, True),
        (400, 520, False),
        (400, 500, False),
        (100, 500, False),
        (300, 391, True),
        (299, 600, False),
    ],
)
def test_load_ramp_threshold(
    frozen_clock: FrozenDateTimeFactory, previous: float, current: float, ramps: bool
) -> None:
    monday = NOW.date() - timedelta(weeks=3)
    history = week_of(monday - timedelta(weeks=1), previous) + week_of(monday, current)
    assert texts(history) == (["ramps training load too fast"] if ramps else [])


def test_load_uses_minutes_times_rpe_and_ignores_missed_sessions(
    frozen_clock: FrozenDateTimeFactory,
) -> None:
    monday = NOW.date() - timedelta(weeks=2)
    base = [session(monday - timedelta(weeks=1), duration_min=60, rpe=5)]  # 300
    jump = [session(monday, duration_min=60, rpe=7)]  # 420 = +40 %
    skipped = [session(monday, duration_min=90, rpe=8, completed=False)]
    assert texts(base + jump) == ["ramps training load too fast"]
    assert texts(base + [session(monday, duration_min=60, rpe=6)] + skipped) == []  # 360 = +20 %


def test_recurring_injury_counts_fact_occurrences(frozen_clock: FrozenDateTimeFactory) -> None:
    [pattern] = analyze_patterns([], [injury_fact("knee", 3)], utc_now())
    assert pattern.text == "recurring knee issues" and pattern.confidence == 0.8
    assert texts([], [injury_fact("knee", 2)]) == []


def test_recurring_injury_counts_activity_notes_mentioning_pain(
    frozen_clock: FrozenDateTimeFactory,
) -> None:
    notes = [
        "Left knee sore after 5k",
        "knee niggle on the hills",
        "Knee pain again",
        "Knee is fine now",
    ]
    history = [
        session(NOW.date() - timedelta(days=n + 1), description=t) for n, t in enumerate(notes)
    ]
    assert texts(history) == ["recurring knee issues"]
    assert texts(history[:2]) == []


def test_facts_and_notes_are_not_added_together(frozen_clock: FrozenDateTimeFactory) -> None:
    history = [
        session(NOW.date() - timedelta(days=n + 1), description="knee sore") for n in range(2)
    ]
    assert (
        texts(history, [injury_fact("knee", 2)]) == []
    )  # max(2, 2): the notes are the fact's occurrences


def test_analysis_is_stable_so_repeats_reinforce(frozen_clock: FrozenDateTimeFactory) -> None:
    history = [session(d, completed=False) for d in mondays(4)] + [
        session(NOW.date() - timedelta(days=n), rest_suggested=True) for n in (1, 2, 3)
    ]
    first = analyze_patterns(history, [injury_fact("IT band", 4)], utc_now())
    again = analyze_patterns(list(reversed(history)), [injury_fact("IT band", 4)], utc_now())
    assert (
        [p.text for p in first]
        == [p.text for p in again]
        == [
            "recurring IT band issues",
            "overrides rest suggestions",
            "skips Mondays frequently",
        ]
    )


def test_naive_now_is_rejected() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        analyze_patterns([], [], datetime(2026, 3, 16))

"""The demo's script: one athlete talking to the coach over a few simulated weeks (the athlete-memory plan §3a).

Plain data, so the story can be read (and changed) without reading the code that replays it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any

ATHLETE = "demo-athlete"
START = datetime(2026, 3, 2, 7, 30, tzinfo=timezone.utc)  # a Monday


@dataclass(frozen=True)
class Session:
    """What happened on one day: messages, activity notes, coach notes, pattern analysis."""

    day: int
    title: str
    messages: tuple[str, ...] = ()
    activities: tuple[dict[str, Any], ...] = ()
    coach_notes: tuple[tuple[str, float], ...] = ()
    analyse_patterns: bool = False
    recall: str | None = None  # the coach prepares a session: what past experience says
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def at(self) -> datetime:
        return START + timedelta(days=self.day)


def _session_log(weeks: int) -> list[dict[str, Any]]:
    """Planned sessions Monday / Wednesday / Saturday; most Mondays are missed."""
    log = []
    for week in range(weeks):
        for weekday, minutes in ((0, 40), (2, 45), (5, 70)):
            day = START + timedelta(weeks=week, days=weekday)
            missed = weekday == 0 and week != 2
            log.append(
                {
                    "id": f"plan-{day:%Y%m%d}",
                    "started_at": day.isoformat(),
                    "name": "Planned run",
                    "planned": True,
                    "completed": not missed,
                    "rpe": 5,
                    "duration_min": minutes,
                }
            )
    return log


STORY: tuple[Session, ...] = (
    Session(
        0,
        "first chat",
        messages=(
            "Hi! I run most mornings before work, usually 45 minutes, but my left knee has been "
            "sore since the half marathon.",
            "I'm training for a marathon this autumn. I work night shifts twice a week and have two kids.",
        ),
        coach_notes=(("responds well to encouragement after hard sessions", 0.8),),
    ),
    Session(
        2,
        "an easy run",
        activities=(
            {
                "id": "act-0304",
                "started_at": "2026-03-04T06:45:00+01:00",
                "name": "Easy run",
                "private_note": "Knee a bit sore again after 8k, otherwise fine.",
                "rpe": 4,
                "duration_min": 45,
            },
        ),
    ),
    Session(
        9,
        "talking about workouts",
        messages=(
            "Intervals leave me exhausted, but I love hill repeats.",
            "Should I try an ultra next year?",
            "My wife has a bad knee too, haha.",
        ),
        coach_notes=(("prefers data-driven explanations", 0.7),),
    ),
    Session(
        12,
        "hill repeats two days before a 10k",
        activities=(
            {
                "id": "act-0314",
                "started_at": "2026-03-14T07:00:00+00:00",
                "name": "Hill repeats",
                "private_note": "Hill repeats on Parliament Hill two days before the 10k, legs felt flat "
                "in the race.",
                "rpe": 8,
                "duration_min": 50,
                "planned": True,
                "completed": True,
            },
        ),
    ),
    Session(
        16,
        "a new routine",
        messages=(
            "Honestly I prefer evening sessions now, mornings are too hard with the kids.",
            "My sessions are usually an hour these days.",
        ),
        coach_notes=(
            ("needs reassurance before long runs", 0.6),
            ("reacts badly to being told to rest", 0.55),
        ),
    ),
    Session(33, "planning hills again before the half", recall="hill repeats before the race"),
    Session(
        40,
        "the coach looks back at six weeks",
        analyse_patterns=True,
        coach_notes=(
            ("likes to know the why of a session", 0.65),
            ("motivated by race goals", 0.75),
        ),
    ),
    Session(54, "a big change", messages=("I've switched to cycling, the knee is fine now.",)),
    Session(120, "back after a long break", messages=("Still riding, loving it.",)),
)

ACTIVITY_LOG = _session_log(weeks=6)

QUESTION = "Give me a workout for tomorrow"

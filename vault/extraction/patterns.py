"""The M13 spec §5.4's pattern analysis over activity history and stored facts, as `PatternIn`s.

Four patterns, each with a stable canonical text so a repeated analysis reinforces the stored
pattern (merge by normalised text) instead of adding a near-duplicate:

- "recurring <part> issues": 3+ observations of one body part. Observations are counted two
  ways, the injury facts' occurrences tagged `body:<part>` and the activity notes that report
  pain there; the larger count is used, not the sum, because an ingested note is usually also
  one of the fact's occurrences and adding them would count it twice.
- "overrides rest suggestions": 3+ sessions completed on days the coach suggested rest, in
  the last 8 weeks.
- "skips <Weekday>s frequently": at least 4 sessions planned on that weekday in the last 8
  weeks, and at least half of them not completed.
- "ramps training load too fast": in the last 8 weeks, a calendar week (Monday-Sunday, the
  athlete's days) whose load is more than 30 % above the week before, when that previous week
  carried at least 300 load units (minutes x RPE, about an hour at RPE 5): below that a jump
  is a return from rest or noise, not a ramp. 30 % is above the common "10 % rule" on purpose:
  weekly load is noisy and a pattern should name a habit, not one busy week.
"""

from __future__ import annotations

import calendar
from collections import Counter, defaultdict
from collections.abc import Sequence
from datetime import date, datetime, timedelta

from vault.domain.models import Fact, FactIn, PatternIn
from vault.domain.times import require_aware
from vault.domain.vocabulary import Category, Source
from vault.extraction.activity import ActivityIn
from vault.extraction.rules import RuleExtractor

WINDOW = timedelta(weeks=8)
RECURRING_INJURY_MIN = 3
OVERRIDE_MIN = 3
SKIP_MIN_PLANNED = 4
SKIP_RATIO = 0.5
RAMP_RATIO = 1.3
RAMP_MIN_PREVIOUS_LOAD = 300.0

_DISPLAY = {"it band": "IT band"}


def _pattern(name: str, text: str, confidence: float, now: datetime) -> PatternIn:
    return PatternIn(
        text=text,
        confidence=confidence,
        source=Source.PATTERN_ANALYSIS,
        extractor=f"patterns:{name}",
        observed_at=now,
    )


def _body_parts(tags: Sequence[str] | frozenset[str]) -> list[str]:
    return [tag.split(":", 1)[1] for tag in tags if tag.startswith("body:")]


def recurring_injuries(
    activities: Sequence[ActivityIn], facts: Sequence[Fact], now: datetime
) -> list[PatternIn]:
    """Gives "recurring knee issues" once one body part has 3+ observations."""
    from_facts: Counter[str] = Counter()
    for fact in facts:
        if fact.category is Category.INJURY:
            for part in _body_parts(fact.tags):
                from_facts[part] += fact.occurrences
    from_notes: Counter[str] = Counter()
    reader = RuleExtractor()
    for activity in activities:
        if activity.observed_at > now or not activity.text.strip():
            continue
        found = reader.extract(activity.text, source=Source.ACTIVITY_NOTE)
        parts = {
            part
            for c in found
            if isinstance(c, FactIn) and c.category is Category.INJURY
            for part in _body_parts(c.tags or frozenset())
        }
        from_notes.update(parts)
    patterns = []
    for part in sorted(set(from_facts) | set(from_notes)):
        if max(from_facts[part], from_notes[part]) >= RECURRING_INJURY_MIN:
            name = _DISPLAY.get(part, part)
            patterns.append(_pattern("recurring_injury", f"recurring {name} issues", 0.8, now))
    return patterns


def _recent(activities: Sequence[ActivityIn], now: datetime) -> list[ActivityIn]:
    return [a for a in activities if now - WINDOW <= a.observed_at <= now]


def rest_overrides(activities: Sequence[ActivityIn], now: datetime) -> list[PatternIn]:
    """Gives "overrides rest suggestions" after 3+ sessions done on suggested rest days."""
    count = sum(1 for a in _recent(activities, now) if a.rest_suggested and a.completed)
    return (
        [_pattern("rest_override", "overrides rest suggestions", 0.7, now)]
        if count >= OVERRIDE_MIN
        else []
    )


def skipped_weekdays(activities: Sequence[ActivityIn], now: datetime) -> list[PatternIn]:
    """Gives "skips Mondays frequently": half of 4+ planned sessions on that weekday missed."""
    planned: Counter[int] = Counter()
    missed: Counter[int] = Counter()
    for activity in _recent(activities, now):
        if activity.planned:
            weekday = activity.local_date.weekday()
            planned[weekday] += 1
            missed[weekday] += not activity.completed
    return [
        _pattern("skipped_weekday", f"skips {calendar.day_name[day]}s frequently", 0.7, now)
        for day in sorted(planned)
        if planned[day] >= SKIP_MIN_PLANNED and missed[day] / planned[day] >= SKIP_RATIO
    ]


def _monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


def load_ramps(activities: Sequence[ActivityIn], now: datetime) -> list[PatternIn]:
    """Gives "ramps training load too fast": a week > 30 % over a previous week of >= 300 load."""
    first_week = _monday((now - WINDOW).date())
    loads: defaultdict[date, float] = defaultdict(float)
    for activity in activities:
        load = activity.effective_load
        week = _monday(activity.local_date)
        if (
            activity.completed
            and load
            and activity.observed_at <= now
            and week >= first_week - timedelta(weeks=1)
        ):
            loads[week] += load
    week = first_week
    while week <= _monday(now.date()):
        previous = loads[week - timedelta(weeks=1)]
        if previous >= RAMP_MIN_PREVIOUS_LOAD and loads[week] > previous * RAMP_RATIO:
            return [_pattern("load_ramp", "ramps training load too fast", 0.7, now)]
        week += timedelta(weeks=1)
    return []


def analyze_patterns(
    activities: Sequence[ActivityIn], facts: Sequence[Fact], now: datetime
) -> list[PatternIn]:
    """Every pattern the history shows as of `now` (timezone-aware), in a stable order."""
    now = require_aware(now, "now")
    return [
        *recurring_injuries(activities, facts, now),
        *rest_overrides(activities, now),
        *skipped_weekdays(activities, now),
        *load_ramps(activities, now),
    ]

"""Learning: turn what the athlete said or did into merge candidates. No database here.

Extraction runs before the merge's transaction (an LLM call must never hold the write lock);
whatever an extractor returns passes the privacy filter before it can reach the database.
The caller merges the candidates in one unit of work (`vault.services.memory.merge`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from vault.domain.models import Candidate, Fact, validated
from vault.domain.times import format_utc
from vault.domain.vocabulary import Source
from vault.extraction import (
    ActivityIn,
    Extractor,
    RuleExtractor,
    Turn,
    analyze_patterns,
    extract_from_activity,
    mine_conversation,
    scrub,
)


def from_message(
    text: str,
    moment: datetime,
    *,
    extractor: Extractor | None = None,
    source: Source = Source.USER_MESSAGE,
) -> list[Candidate]:
    """Candidates from one message the athlete wrote (source_ref = the message time)."""
    reader = extractor or RuleExtractor()
    found = reader.extract(text, source=source, source_ref=format_utc(moment), observed_at=moment)
    return list(scrub(found))


def from_activity(
    activity: ActivityIn | Mapping[str, Any], *, extractor: Extractor | None = None
) -> tuple[list[Candidate], datetime]:
    """Candidates from an activity's name, description and note, and when it happened."""
    checked = validated(ActivityIn, activity)
    return list(extract_from_activity(checked, extractor)), checked.observed_at


def from_conversation(
    turns: Sequence[Turn | Mapping[str, Any]], *, extractor: Extractor | None = None
) -> list[Candidate]:
    """Candidates from a whole conversation; only the athlete's turns are mined."""
    return list(mine_conversation(turns, extractor))


def patterns_from(
    activities: Sequence[ActivityIn | Mapping[str, Any]], facts: Sequence[Fact], moment: datetime
) -> list[Candidate]:
    """Patterns in the activity history and stored facts (they reinforce on the next run)."""
    checked = [validated(ActivityIn, a) for a in activities]
    return list(analyze_patterns(checked, list(facts), moment))

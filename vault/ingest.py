"""Ingestion: extract candidates from what the athlete said or did, then merge them.

Extraction is pure and runs first; the merge is the operation's one transaction. Whatever the
extractor returns passes the privacy filter before it can reach the database.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

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
from vault.schemas import MergeResult, validated
from vault.timeutil import utc_now
from vault.vocabulary import Source

if TYPE_CHECKING:
    from vault.api import Vault


def ingest_message(
    vault: Vault,
    athlete_id: str,
    text: str,
    *,
    at: datetime | None = None,
    extractor: Extractor | None = None,
    source: Source = Source.USER_MESSAGE,
) -> MergeResult:
    """Learn from one message the athlete wrote (source_ref = the message time)."""
    moment = at or utc_now()
    reader = extractor or RuleExtractor()
    found = reader.extract(text, source=source, source_ref=moment.isoformat(), observed_at=moment)
    return vault.merge(athlete_id, scrub(found), now=moment)


def ingest_activity(
    vault: Vault,
    athlete_id: str,
    activity: ActivityIn | Mapping[str, Any],
    *,
    extractor: Extractor | None = None,
    now: datetime | None = None,
) -> MergeResult:
    """Learn from an activity's name, description and private note (source_ref = its id)."""
    checked = validated(ActivityIn, activity)
    found = extract_from_activity(checked, extractor)  # scrubbed inside
    return vault.merge(athlete_id, found, now=now or checked.observed_at)


def ingest_conversation(
    vault: Vault,
    athlete_id: str,
    turns: Sequence[Turn | Mapping[str, Any]],
    *,
    extractor: Extractor | None = None,
    now: datetime | None = None,
) -> MergeResult:
    """Learn from a whole conversation; only the athlete's turns are mined."""
    found = mine_conversation(turns, extractor)  # scrubbed inside
    return vault.merge(athlete_id, found, now=now)


def learn_patterns(
    vault: Vault,
    athlete_id: str,
    activities: Sequence[ActivityIn | Mapping[str, Any]],
    *,
    now: datetime | None = None,
) -> MergeResult:
    """Run pattern analysis over the athlete's activity history and stored facts; merge the
    patterns it finds (they reinforce, rather than duplicate, on the next run)."""
    moment = now or utc_now()
    checked = [validated(ActivityIn, a) for a in activities]
    patterns = analyze_patterns(checked, vault.active_facts(athlete_id), moment)
    return vault.merge(athlete_id, patterns, now=moment)

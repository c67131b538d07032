"""Consolidation in the write transaction: sessions recorded as episodes become durable facts.

Idempotent: a candidate whose session is already evidence of the same fact is dropped, so a
second run over the same sessions changes nothing, and a new session adds exactly its own
evidence (one reinforcement).
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime

from vault.domain.limits import ACTIVE_FLOOR
from vault.domain.models import FactIn, MergeResult
from vault.domain.rules import DEFAULT_DECAY_POLICY, DecayPolicy, boosted, decayed
from vault.domain.text import normalize_text
from vault.extraction.consolidation import (
    COMPANY_MIN,
    ISSUE_MIN,
    PRIMARY_MIN,
    SIDE_MIN,
    Session,
    consolidate,
)
from vault.extraction.privacy import scrub
from vault.services.erasure import erased_items
from vault.services.memory import merge
from vault.storage.uow import UnitOfWork

# The newest sessions consolidation reads (about a year of daily training): it runs in every
# activity's write transaction, so its cost must not grow with the whole history.
SESSIONS_READ = 400


def run(
    uow: UnitOfWork, athlete_id: str, now: datetime, policy: DecayPolicy = DEFAULT_DECAY_POLICY
) -> MergeResult:
    """Consolidate the athlete's activity sessions and merge what is new (one transaction)."""
    sessions = [
        Session(ref=ref, at=at, sport=meta.get("sport"), text=text)
        for ref, at, text, meta in uow.episodes.activity_sessions(athlete_id, SESSIONS_READ)
    ]
    proposed = _after_erasure(uow, athlete_id, _alive(consolidate(sessions), now, policy))
    if not proposed:
        return MergeResult()
    cited = _cited(uow, athlete_id)
    fresh = [c for c in proposed if (normalize_text(c.text), c.source_ref) not in cited]
    if not fresh:
        return MergeResult()
    return merge(uow, athlete_id, scrub(fresh), now, policy)


def _alive(proposed: list[FactIn], now: datetime, policy: DecayPolicy) -> list[FactIn]:
    """The proposed facts that their own sessions still hold up as of `now`.

    A fact is worth what its sessions gave it, decayed from the newest of them: a race goal or
    an Achilles complaint whose sessions would have decayed below the floor by now is not
    rebuilt by an unrelated new session (the merge would date it from today).
    """
    by_text: dict[str, list[FactIn]] = defaultdict(list)
    for candidate in proposed:
        by_text[candidate.text].append(candidate)
    kept: list[FactIn] = []
    for cited in by_text.values():
        newest = max(c.observed_at or now for c in cited)
        worth = cited[0].confidence
        for occurrences in range(2, len(cited) + 1):
            worth = boosted(worth, occurrences)
        factor = policy.factor(cited[0].category)
        if decayed(worth, newest, now, factor) >= ACTIVE_FLOOR:
            kept.extend(cited)
    return kept


# How many sessions each consolidation rule needs (vault.extraction.consolidation).
_NEEDED = {
    "consolidate:sport": PRIMARY_MIN,
    "consolidate:activity": SIDE_MIN,
    "consolidate:issue": ISSUE_MIN,
    "consolidate:company": COMPANY_MIN,
    "consolidate:goal": 1,
}


def _after_erasure(uow: UnitOfWork, athlete_id: str, proposed: list[FactIn]) -> list[FactIn]:
    """The proposed facts with only the sessions after the fact was last erased (forgotten,
    deleted, "this is wrong"): a forgotten fact is learned again only from what came after,
    and only if that alone meets the rule's count of sessions."""
    erased = erased_items(uow, athlete_id, sorted({c.text for c in proposed}))
    if not erased:
        return proposed
    by_text: dict[str, list[FactIn]] = defaultdict(list)
    for candidate in proposed:
        when = erased.get(candidate.text)
        if when is None or (candidate.observed_at is not None and candidate.observed_at > when):
            by_text[candidate.text].append(candidate)
    return [
        c
        for text, cited in by_text.items()
        if text not in erased or len(cited) >= _NEEDED.get(cited[0].extractor or "", 1)
        for c in cited
    ]


def _cited(uow: UnitOfWork, athlete_id: str) -> set[tuple[str, str | None]]:
    """(fact text, source ref) of every piece of evidence of the athlete's active facts."""
    texts = {
        state.id: state.normalized_text
        for state in uow.memory.load_active(athlete_id)
        if state.id is not None
    }
    return {
        (texts[e.fact_id], e.source_ref)
        for e in uow.evidence.for_athlete(athlete_id)
        if e.fact_id in texts
    }


def combined(first: MergeResult, second: MergeResult) -> MergeResult:
    """Two merges of one transaction reported as one."""
    return MergeResult(
        added=first.added + second.added,
        updated=first.updated + second.updated,
        archived=first.archived + second.archived,
        ignored=first.ignored + second.ignored,
    )

"""Evidence before belief: every merge that states or reinforces a fact appends what it saw.

A fact that replaces a merged rival (same category, shared body part) keeps the rival's
evidence: the observations still stand, only the wording changed. A superseded slot value
("goal: marathon" after "goal: 10k") does not: its evidence was for the old value.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timezone
from typing import Any

from sqlalchemy import Connection

from vault.domain.errors import FactNotFound
from vault.domain.models import Candidate, Evidence, FactIn
from vault.domain.rules import FactState, Key, MergePlan
from vault.domain.text import activity_of, normalize_text
from vault.domain.vocabulary import ArchiveReason
from vault.storage.repositories.evidence import EvidenceRepository
from vault.storage.repositories.memory import MemoryRepository
from vault.storage.uow import UnitOfWork


def carried_over(uow: UnitOfWork, athlete_id: str, plan: MergePlan) -> dict[Key, list[Evidence]]:
    """Evidence of facts a merge folds into a new one, read before the old rows are deleted."""
    carried: dict[Key, list[Evidence]] = {}
    for removal in plan.removals:
        item = removal.item
        if (
            removal.reason is ArchiveReason.MERGED
            and removal.superseded_by is not None
            and isinstance(item, FactState)
            and item.id is not None
        ):
            carried.setdefault(removal.superseded_by, []).extend(
                uow.evidence.for_facts(athlete_id, [item.id])
            )
    return carried


def unseen(
    uow: UnitOfWork, athlete_id: str, active: Sequence[Any], candidates: Sequence[Candidate]
) -> list[Candidate]:
    """`candidates` without the fact observations the vault already holds: the same message or
    activity again (same `source_ref`; without one, the same time) states nothing new, so an
    app retrying a sync or a call adds no occurrence and no evidence. Duplicates within the
    call count once too. A message's reference is its time, so two different messages of one
    instant are told apart by their words; an activity's reference is its id, so a re-sent
    activity is the same observation whatever its words became."""
    facts = [c for c in candidates if isinstance(c, FactIn) and c.observed_at is not None]
    if not facts:
        return list(candidates)
    refs = sorted({c.source_ref for c in facts if c.source_ref})
    times = sorted({c.observed_at for c in facts if not c.source_ref and c.observed_at})
    texts = {s.id: s.normalized_text for s in active if isinstance(s, FactState) and s.id}
    seen = {
        (texts[fact_id], ref or _instant(at), _told_by(source, words))
        for fact_id, ref, at, source, words in uow.evidence.observations(athlete_id, refs, times)
        if fact_id in texts
    }
    kept: list[Candidate] = []
    for candidate in candidates:
        if isinstance(candidate, FactIn) and candidate.observed_at is not None:
            held = _holder_text(candidate.text)
            where = candidate.source_ref or _instant(candidate.observed_at)
            told = _told_by(str(candidate.source), candidate.evidence)
            keys = {(normalize_text(candidate.text), where, told), (held, where, told)}
            if keys & seen:
                continue
            seen.add((normalize_text(candidate.text), where, told))
        kept.append(candidate)
    return kept


_NAMED_REFS = frozenset({"activity_note", "pattern_analysis"})  # refs that name one activity


def _told_by(source: str, words: str | None) -> str | None:
    """What tells two observations with one reference apart: nothing for a named activity."""
    return None if source.split(".")[-1].lower() in _NAMED_REFS else (words or "")


def _instant(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).replace(tzinfo=None).isoformat()


def _holder_text(text: str) -> str:
    activity = activity_of(text)
    if activity is None or activity[0] != "also does":
        return ""
    return normalize_text(f"likes {activity[1]}")


def record(
    uow: UnitOfWork,
    athlete_id: str,
    plan: MergePlan,
    candidates: Sequence[Candidate],
    carried: dict[Key, list[Evidence]],
    now: datetime,
) -> None:
    """Append one evidence row per fact candidate that the merge kept, plus carried rows."""
    by_text = {
        state.normalized_text: state
        for state in plan.survivors()
        if isinstance(state, FactState) and state.id is not None
    }
    rows: list[dict[str, Any]] = []
    for candidate in candidates:
        if not isinstance(candidate, FactIn):
            continue
        fact = by_text.get(normalize_text(candidate.text)) or _holder(by_text, candidate.text)
        if fact is None or not fact.touched:
            continue
        rows.append(
            {
                "fact_id": fact.id,
                "source": candidate.source,
                "source_ref": candidate.source_ref,
                "extractor": candidate.extractor,
                "words": candidate.evidence,
                "observed_at": candidate.observed_at or now,
            }
        )
    for key, previous in carried.items():
        state = plan.active.get(key)
        if state is None or state.id is None:
            continue
        rows.extend(
            {
                "fact_id": state.id,
                "source": e.source,
                "source_ref": e.source_ref,
                "extractor": e.extractor,
                "words": e.words,
                "observed_at": e.observed_at,
            }
            for e in previous
        )
    uow.evidence.add(athlete_id, rows, now)


def _holder(by_text: dict[str, FactState], text: str) -> FactState | None:
    """The `likes X` an `also does X` was folded into (one fact per activity)."""
    activity = activity_of(text)
    if activity is None or activity[0] != "also does":
        return None
    return by_text.get(normalize_text(f"likes {activity[1]}"))


def why(connection: Connection, fact_ids: list[int]) -> dict[int, list[Evidence]]:
    """The evidence of each of `fact_ids` (oldest first); FactNotFound for an unknown id."""
    owners = MemoryRepository(connection).owners_of_facts(fact_ids)  # facts named by id alone
    for fact_id in fact_ids:
        if fact_id not in owners:
            raise FactNotFound(fact_id)
    found: dict[int, list[Evidence]] = {fact_id: [] for fact_id in fact_ids}
    by_athlete: dict[str, list[int]] = {}
    for fact_id, athlete in owners.items():
        by_athlete.setdefault(athlete, []).append(fact_id)
    evidence = EvidenceRepository(connection)
    for athlete, ids in by_athlete.items():  # then each athlete's evidence from its shard
        for row in evidence.for_facts(athlete, ids):
            found[row.fact_id].append(row)
    return found

"""Write an adoption `Resolution` into the vault's tables through a unit of work's connection."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import insert
from sqlalchemy import Connection

from vault.domain.adoption import Dropped, ProtoFact, Resolution
from vault.domain.vocabulary import Kind, Source
from vault.services.interchange.export import archive, fact_tags, facts, notes, patterns


@dataclass(frozen=True)
class ListDefaults:
    """What patterns and notes get when the foreign store kept only their text."""

    source: Source
    confidence: float


@dataclass(frozen=True)
class ArchivedExtra:
    """An archive row the foreign store already had (seed 002's `archived` list)."""

    text: str
    category: Any
    conflict_key: str | None
    source: Source
    confidence: float
    learned_at: datetime
    superseded_by: int | None  # index into Resolution.facts
    reason: Any
    archived_at: datetime


def write_resolution(
    connection: Connection,
    athlete: str,
    res: Resolution,
    *,
    now: datetime,
    extractor: str | None,
    lists: dict[Kind, ListDefaults],
    extra: list[ArchivedExtra] = (),  # type: ignore[assignment]
) -> list[int]:
    """Insert the resolution's facts, tags, patterns, notes and archive rows; return fact ids.

    Facts keep their learned and observed times; `now` starts their decay clock (like a merge,
    which reinforces at `now`) and stamps what the import itself archived.
    """
    fact_ids: list[int] = []
    for fact in res.facts:
        new_id = connection.execute(
            insert(facts)
            .returning(facts.c.id)
            .values(
                athlete_id=athlete,
                text=fact.text,
                normalized_text=fact.normalized_text,
                category=fact.category,
                conflict_key=fact.conflict_key,
                source=fact.source,
                source_ref=fact.source_ref,
                extractor=extractor,
                confidence=fact.confidence,
                base_confidence=fact.confidence,
                occurrences=fact.occurrences,
                learned_at=fact.learned_at,
                observed_at=fact.observed_at,
                last_reinforced_at=max(fact.observed_at, now),
                updated_at=now,
            )
        ).scalar_one()
        fact_ids.append(new_id)
        if fact.tags:
            connection.execute(
                insert(fact_tags), [{"fact_id": new_id, "tag": t} for t in sorted(fact.tags)]
            )
    for kind, table, items in (
        (Kind.PATTERN, patterns, res.patterns),
        (Kind.NOTE, notes, res.notes),
    ):
        defaults = lists[kind]
        for item in items:
            connection.execute(
                insert(table).values(
                    athlete_id=athlete,
                    text=item.text,
                    normalized_text=item.normalized_text,
                    source=defaults.source,
                    source_ref=None,
                    extractor=extractor,
                    confidence=defaults.confidence,
                    occurrences=item.occurrences,
                    learned_at=now,
                    last_reinforced_at=now,
                    updated_at=now,
                )
            )
    # the store's own history first: it is older than anything this import archives
    rows = [_extra(athlete, e, fact_ids) for e in extra]
    rows += [_dropped(athlete, d, fact_ids, now, lists) for d in res.archived]
    if rows:
        connection.execute(insert(archive), rows)
    return fact_ids


def _dropped(
    athlete: str,
    dropped: Dropped,
    fact_ids: list[int],
    now: datetime,
    lists: dict[Kind, ListDefaults],
) -> dict[str, Any]:
    item = dropped.item
    row: dict[str, Any] = {
        "athlete_id": athlete,
        "original_id": None,
        "original_text": item.text,
        "occurrences": item.occurrences,
        "reason": dropped.reason,
        "superseded_by": None if dropped.superseded_by is None else fact_ids[dropped.superseded_by],
        "archived_at": dropped.archived_at or now,
    }
    if isinstance(item, ProtoFact):
        return row | {
            "kind": Kind.FACT,
            "category": item.category,
            "conflict_key": item.conflict_key,
            "source": item.source,
            "confidence": item.confidence,
            "learned_at": item.learned_at,
        }
    defaults = lists[item.kind]
    return row | {
        "kind": item.kind,
        "category": None,
        "conflict_key": None,
        "source": defaults.source,
        "confidence": defaults.confidence,
        "learned_at": now,
    }


def _extra(athlete: str, extra: ArchivedExtra, fact_ids: list[int]) -> dict[str, Any]:
    return {
        "athlete_id": athlete,
        "kind": Kind.FACT,
        "original_id": None,
        "original_text": extra.text,
        "category": extra.category,
        "conflict_key": extra.conflict_key,
        "source": extra.source,
        "confidence": extra.confidence,
        "occurrences": 1,
        "learned_at": extra.learned_at,
        "superseded_by": None if extra.superseded_by is None else fact_ids[extra.superseded_by],
        "reason": extra.reason,
        "archived_at": extra.archived_at,
    }

"""An adoption `Resolution` as the rows of one athlete (a Snapshot the repository writes set-wise)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from vault.domain.adoption import Dropped, ProtoFact, Resolution
from vault.domain.vocabulary import Kind, Source
from vault.storage.repositories.snapshot import Row, Snapshot


@dataclass(frozen=True)
class ListDefaults:
    """What patterns and notes get when the foreign store kept only their text."""

    source: Source
    confidence: float


@dataclass(frozen=True)
class ArchivedExtra:
    """An archive row the foreign store already had (the M13 spec's `archived` list)."""

    text: str
    category: Any
    conflict_key: str | None
    source: Source
    confidence: float
    learned_at: datetime
    superseded_by: int | None  # index into Resolution.facts
    reason: Any
    archived_at: datetime


def resolution_snapshot(
    athlete: str,
    res: Resolution,
    *,
    created_at: datetime,
    now: datetime,
    extractor: str | None,
    lists: dict[Kind, ListDefaults],
    extra: tuple[ArchivedExtra, ...] | list[ArchivedExtra] = (),
) -> Snapshot:
    """The resolution's facts, patterns, notes and archive rows, labelled 1..n in list order.

    The label of `res.facts[i]` is `i + 1`, so the repository's id map turns a fact index into
    its new id. Facts keep their learned and observed times; `now` starts their decay clock
    (like a merge, which reinforces at `now`) and stamps what the import itself archived.
    """
    facts: list[Row] = [
        {
            "id": n,
            "text": fact.text,
            "normalized_text": fact.normalized_text,
            "category": fact.category,
            "conflict_key": fact.conflict_key,
            "source": fact.source,
            "source_ref": fact.source_ref,
            "extractor": extractor,
            "confidence": fact.confidence,
            "base_confidence": fact.confidence,
            "occurrences": fact.occurrences,
            "learned_at": fact.learned_at,
            "observed_at": fact.observed_at,
            "last_reinforced_at": max(fact.observed_at, now),
            "updated_at": now,
            "tags": sorted(fact.tags),
        }
        for n, fact in enumerate(res.facts, 1)
    ]
    items: dict[Kind, list[Row]] = {}
    for kind, found in ((Kind.PATTERN, res.patterns), (Kind.NOTE, res.notes)):
        defaults = lists[kind]
        items[kind] = [
            {
                "id": n,
                "text": item.text,
                "normalized_text": item.normalized_text,
                "source": defaults.source,
                "source_ref": None,
                "extractor": extractor,
                "confidence": defaults.confidence,
                "occurrences": item.occurrences,
                "learned_at": now,
                "last_reinforced_at": now,
                "updated_at": now,
            }
            for n, item in enumerate(found, 1)
        ]
    # the store's own history first: it is older than anything this import archives
    archive = [_extra(e) for e in extra] + [_dropped(d, now, lists) for d in res.archived]
    return Snapshot(
        athlete_id=athlete,
        athlete={"created_at": created_at, "updated_at": now},
        facts=facts,
        patterns=items[Kind.PATTERN],
        notes=items[Kind.NOTE],
        archive=[row | {"id": n} for n, row in enumerate(archive, 1)],
    )


def _label(index: int | None) -> int | None:
    return None if index is None else index + 1


def _dropped(dropped: Dropped, now: datetime, lists: dict[Kind, ListDefaults]) -> Row:
    item = dropped.item
    row: Row = {
        "original_id": None,
        "original_text": item.text,
        "occurrences": item.occurrences,
        "reason": dropped.reason,
        "superseded_by": _label(dropped.superseded_by),
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


def _extra(extra: ArchivedExtra) -> Row:
    return {
        "kind": Kind.FACT,
        "original_id": None,
        "original_text": extra.text,
        "category": extra.category,
        "conflict_key": extra.conflict_key,
        "source": extra.source,
        "confidence": extra.confidence,
        "occurrences": 1,
        "learned_at": extra.learned_at,
        "superseded_by": _label(extra.superseded_by),
        "reason": extra.reason,
        "archived_at": extra.archived_at,
    }

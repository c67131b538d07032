"""The archive: what left the active set, why, and what replaced it."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from enum import Enum
from typing import Any

from sqlalchemy import Connection, bindparam, delete, insert, literal_column, null, select, update

from vault.domain.models import Archived
from vault.domain.rules import FactState, Removal
from vault.domain.vocabulary import ArchiveReason, Kind
from vault.storage.hot_statements import HotStatement
from vault.storage.repositories._sql import rowcount
from vault.storage.scope import operation_scope
from vault.storage.tables import (
    archive_table,
    archive_tags_table,
    fact_tags_table,
    facts_table,
    forget_log_table,
)
from vault.storage.types import as_stored

# One multi-row INSERT through Core (SQLite's driver: one per row); SQLite does not promise the
# order of a multi-row RETURNING, so each id is matched to its row by what tells removals of
# one plan apart: kind, stored id (None for an item never stored), text, reason and what
# replaced it, all as stored. Rows alike in all of these (an item added and replaced twice in
# one call) are interchangeable; each still gets an id of its own.
_MATCHED = ("kind", "original_id", "original_text", "reason", "superseded_by")
_COLUMNS = (  # what an archive row is written with (the database assigns the id)
    "athlete_id",
    "kind",
    "original_id",
    "original_text",
    "category",
    "conflict_key",
    "source",
    "confidence",
    "occurrences",
    "learned_at",
    "superseded_by",
    "reason",
    "archived_at",
)
_INSERT = HotStatement(
    insert(archive_table).returning(
        archive_table.c.id, *(as_stored(archive_table.c[name]) for name in _MATCHED)
    ),
    columns=_COLUMNS,
)
_INSERT_TAGS = HotStatement(insert(archive_tags_table), columns=("athlete_id", "archive_id", "tag"))
_BY_ATHLETE = (
    select(archive_table)
    .where(archive_table.c.athlete_id == bindparam("athlete"))
    .order_by(archive_table.c.archived_at, archive_table.c.id)
)
_LEFT = select(
    archive_table.c.kind, archive_table.c.original_text, archive_table.c.archived_at
).where(archive_table.c.athlete_id == bindparam("athlete"))


def _archive_facts_statement() -> Any:
    facts = facts_table
    copied = select(
        facts.c.athlete_id,
        literal_column(f"'{Kind.FACT.value}'"),
        facts.c.id,
        facts.c.text,
        facts.c.category,
        facts.c.conflict_key,
        facts.c.source,
        facts.c.confidence,
        facts.c.occurrences,
        facts.c.learned_at,
        null(),
        bindparam("reason"),
        bindparam("now", type_=archive_table.c.archived_at.type),
    ).where(
        facts.c.athlete_id == bindparam("athlete"), facts.c.id.in_(bindparam("ids", expanding=True))
    )
    return insert(archive_table).from_select(list(_COLUMNS), copied)


_ARCHIVE_FACTS = _archive_facts_statement()


def _archive_fact_tags_statement() -> Any:
    """Copy the tags of facts just archived by `_ARCHIVE_FACTS` (before the facts are deleted)."""
    tags = fact_tags_table
    copied = (
        select(archive_table.c.athlete_id, archive_table.c.id, tags.c.tag)
        .join(
            tags,
            (tags.c.athlete_id == archive_table.c.athlete_id)
            & (tags.c.fact_id == archive_table.c.original_id),
        )
        .where(archive_table.c.athlete_id == bindparam("athlete"))
        .where(archive_table.c.kind == Kind.FACT.value)
        .where(archive_table.c.original_id.in_(bindparam("ids", expanding=True)))
        .where(archive_table.c.reason == bindparam("reason"))
        .where(
            archive_table.c.archived_at == bindparam("now", type_=archive_table.c.archived_at.type)
        )
    )
    return insert(archive_tags_table).from_select(["athlete_id", "archive_id", "tag"], copied)


_ARCHIVE_FACT_TAGS = _archive_fact_tags_statement()


def _detach_statement(one_athlete: bool) -> Any:
    """A link is dangling when no fact of the same athlete holds its target, active or
    archived: NOT EXISTS correlated on the athlete (a co-located join on every shard)."""
    facts = facts_table
    archived = archive_table.alias("archived")
    live_fact = select(facts.c.id).where(
        facts.c.athlete_id == archive_table.c.athlete_id,
        facts.c.id == archive_table.c.superseded_by,
    )
    live_archived = select(archived.c.id).where(
        archived.c.athlete_id == archive_table.c.athlete_id,
        archived.c.kind == Kind.FACT.value,
        archived.c.original_id == archive_table.c.superseded_by,
    )
    statement = update(archive_table).where(archive_table.c.superseded_by.is_not(None))
    if one_athlete:
        statement = statement.where(archive_table.c.athlete_id == bindparam("athlete"))
    return statement.where(~live_fact.exists(), ~live_archived.exists()).values(superseded_by=None)


_DETACH = _detach_statement(one_athlete=False)
_DETACH_ATHLETE = _detach_statement(one_athlete=True)


class ArchiveRepository:
    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    def add(
        self, removals: list[tuple[str, Removal]], ids: dict[Any, int], now: datetime
    ) -> list[Archived]:
        """Archive (athlete, removal) pairs; `ids` maps plan keys to the ids the database assigned."""
        if not removals:
            return []
        rows = [_archive_params(athlete_id, r, ids, now) for athlete_id, r in removals]
        assigned: dict[tuple[Any, ...], list[int]] = defaultdict(list)
        for archive_id, *key in _INSERT.returned(self.connection, rows):
            assigned[tuple(key)].append(archive_id)
        new_ids = [assigned[_matched_key(row)].pop() for row in rows]
        tag_rows = [
            {"athlete_id": athlete, "archive_id": archive_id, "tag": tag}
            for archive_id, (athlete, removal) in zip(new_ids, removals)
            if isinstance(removal.item, FactState)
            for tag in sorted(removal.item.tags)
        ]
        # the tags the fact had when it left: history by body part survives
        _INSERT_TAGS.run(self.connection, tag_rows)
        return [Archived.model_construct(id=i, **row) for i, row in zip(new_ids, rows)]

    def archive_facts(
        self, athlete_id: str, ids: list[int], reason: ArchiveReason, now: datetime
    ) -> int:
        """Copy the athlete's facts into the archive set-wise (INSERT ... SELECT); the caller
        deletes them."""
        if not ids:
            return 0
        params = {"athlete": athlete_id, "ids": ids, "reason": reason.value, "now": now}
        archived = rowcount(self.connection.execute(_ARCHIVE_FACTS, params))
        self.connection.execute(_ARCHIVE_FACT_TAGS, params)  # tags go with them
        return archived

    def for_athlete(self, athlete_id: str) -> list[Archived]:
        rows = self.connection.execute(_BY_ATHLETE, {"athlete": athlete_id})
        return [Archived.model_validate(row._mapping) for row in rows]

    def left(self, athlete_id: str) -> list[tuple[Kind, str, datetime]]:
        """Each archived item of the athlete as (kind, text, when it left): no model per row."""
        rows = self.connection.execute(_LEFT, {"athlete": athlete_id})
        return [(Kind(kind), text, archived_at) for kind, text, archived_at in rows]

    def superseded_fact(self, athlete_id: str, fact_id: int) -> list[Archived]:
        """The athlete's archived facts that `fact_id` replaced directly."""
        rows = self.connection.execute(
            select(archive_table)
            .where(archive_table.c.athlete_id == athlete_id)
            .where(archive_table.c.kind == Kind.FACT.value)
            .where(archive_table.c.superseded_by == fact_id)
            .order_by(archive_table.c.archived_at, archive_table.c.id)
        )
        return [Archived.model_validate(row._mapping) for row in rows]

    def archived_fact(self, athlete_id: str, fact_id: int) -> Archived | None:
        """The archive row of the athlete's fact that is no longer active, if any."""
        row = self.connection.execute(
            select(archive_table)
            .where(archive_table.c.athlete_id == athlete_id)
            .where(archive_table.c.kind == Kind.FACT.value)
            .where(archive_table.c.original_id == fact_id)
        ).first()
        return None if row is None else Archived.model_validate(row._mapping)

    def owner_of_fact(self, fact_id: int) -> str | None:
        """The athlete of an archived fact named by its former id alone (every shard, once)."""
        statement = select(archive_table.c.athlete_id).where(
            archive_table.c.kind == Kind.FACT.value, archive_table.c.original_id == fact_id
        )
        with operation_scope("all"):
            return self.connection.execute(statement.limit(1)).scalar()

    def delete_ids(self, athlete_id: str, ids: list[int]) -> int:
        if not ids:
            return 0
        statement = delete(archive_table).where(
            archive_table.c.athlete_id == athlete_id, archive_table.c.id.in_(ids)
        )
        return rowcount(self.connection.execute(statement))

    def delete_older_than(self, cutoff: datetime) -> int:
        """Every athlete's archive rows older than `cutoff`: one DELETE run on every shard."""
        statement = delete(archive_table).where(archive_table.c.archived_at < cutoff)
        with operation_scope("all"):
            return rowcount(self.connection.execute(statement))

    def detach_dangling(self, athlete_id: str | None = None) -> int:
        """Clear `superseded_by` links whose target was erased (forget, cleanup).

        A link is live while its target is an active fact or an archived fact's `original_id`;
        the erased text must not survive as a pointer to nothing (`history` would break).
        """
        if athlete_id is not None:
            return rowcount(self.connection.execute(_DETACH_ATHLETE, {"athlete": athlete_id}))
        with operation_scope("all"):  # every shard, each link checked within its athlete
            return rowcount(self.connection.execute(_DETACH))

    def log_forget(self, athlete_id: str, now: datetime, counts: dict[str, int]) -> None:
        self.connection.execute(
            insert(forget_log_table).values(athlete_id=athlete_id, forgotten_at=now, **counts)
        )


def _matched_key(row: dict[str, Any]) -> tuple[Any, ...]:
    """A row's `_MATCHED` values as RETURNING gives them back: stored (an enum as its value)."""
    return tuple(
        value.value if isinstance(value, Enum) else value
        for value in (row[name] for name in _MATCHED)
    )


def _archive_params(
    athlete_id: str, removal: Removal, ids: dict[Any, int], now: datetime
) -> dict[str, Any]:
    item = removal.item
    is_fact = isinstance(item, FactState)
    return {
        "athlete_id": athlete_id,
        "kind": item.kind,
        "original_id": item.id,
        "original_text": item.text,
        "category": item.category if is_fact else None,  # type: ignore[union-attr]
        "conflict_key": item.conflict_key if is_fact else None,  # type: ignore[union-attr]
        "source": item.source,
        "confidence": item.confidence,
        "occurrences": item.occurrences,
        "learned_at": item.learned_at,
        "superseded_by": None if removal.superseded_by is None else ids.get(removal.superseded_by),
        "reason": removal.reason,
        "archived_at": now,
    }

"""Athletes: make sure one exists, lock it for a merge, erase it entirely."""

from __future__ import annotations

import unicodedata
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Select, delete, func, select

from vault.storage.dialect import ensure_athlete
from vault.storage.evidence_tables import fact_evidence_table
from vault.storage.repositories._sql import rowcount
from vault.storage.scope import operation_scope
from vault.storage.tables import (
    archive_table,
    athletes_table,
    fact_tags_table,
    facts_table,
    forget_log_table,
    notes_table,
    patterns_table,
)

_athletes = athletes_table


class AthleteRepository:
    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    def ensure(self, athlete_id: str, now: datetime) -> None:
        """Create the athlete if new, mark it updated, and take its write lock."""
        ensure_athlete(self.connection, athlete_id, now)

    def exists(self, athlete_id: str) -> bool:
        found = self.connection.execute(
            select(athletes_table.c.id).where(athletes_table.c.id == athlete_id)
        )
        return found.first() is not None

    def unnormalized_twins(self, athlete_id: str) -> list[str]:
        """Stored ids that are `athlete_id` once NFC-normalized but spelled otherwise: two
        athletes that collided when revision 0008 normalized the ids (kept, never merged)."""
        with operation_scope("all"):  # NFC is not SQL: every id is read, on every shard
            stored = self.connection.execute(select(_athletes.c.id)).scalars().all()
        return [
            str(other)
            for other in stored
            if other != athlete_id and unicodedata.normalize("NFC", other) == athlete_id
        ]

    def touch(self, athlete_id: str, now: datetime) -> None:
        self.connection.execute(
            _athletes.update().where(_athletes.c.id == athlete_id).values(updated_at=now)
        )

    def erase(self, athlete_id: str) -> dict[str, int]:
        """Delete every row of the athlete in every table; return the count per table."""
        counts = {
            "fact_tags": self._count(
                select(func.count())
                .select_from(fact_tags_table)
                .where(fact_tags_table.c.athlete_id == athlete_id)
            )
        }
        result = self.connection.execute(
            delete(fact_evidence_table).where(fact_evidence_table.c.athlete_id == athlete_id)
        )
        counts[fact_evidence_table.name] = rowcount(result)
        for table in (facts_table, patterns_table, notes_table, archive_table, forget_log_table):
            result = self.connection.execute(delete(table).where(table.c.athlete_id == athlete_id))
            counts[table.name] = rowcount(result)
        result = self.connection.execute(delete(_athletes).where(_athletes.c.id == athlete_id))
        counts["athletes"] = rowcount(result)
        return counts

    def _count(self, statement: Select[Any]) -> int:
        return int(self.connection.execute(statement).scalar_one())

"""Athletes: make sure one exists, lock it for a merge, erase it entirely."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Select, delete, func, select

from vault.storage.dialect import ensure_athlete
from vault.storage.repositories._sql import rowcount, table_of
from vault.storage.tables import (
    ArchiveRow,
    AthleteRow,
    FactRow,
    FactTagRow,
    ForgetLogRow,
    NoteRow,
    PatternRow,
)

_athletes = table_of(AthleteRow)


class AthleteRepository:
    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    def ensure(self, athlete_id: str, now: datetime) -> None:
        """Create the athlete if new, mark it updated, and take its write lock."""
        ensure_athlete(self.connection, athlete_id, now)

    def exists(self, athlete_id: str) -> bool:
        found = self.connection.execute(select(AthleteRow.id).where(AthleteRow.id == athlete_id))
        return found.first() is not None

    def touch(self, athlete_id: str, now: datetime) -> None:
        self.connection.execute(
            _athletes.update().where(_athletes.c.id == athlete_id).values(updated_at=now)
        )

    def erase(self, athlete_id: str) -> dict[str, int]:
        """Delete every row of the athlete in every table; return the count per table."""
        counts = {
            "fact_tags": self._count(
                select(func.count())
                .select_from(FactTagRow)
                .join(FactRow, FactRow.id == FactTagRow.fact_id)
                .where(FactRow.athlete_id == athlete_id)
            )
        }
        for model in (FactRow, PatternRow, NoteRow, ArchiveRow, ForgetLogRow):
            table = table_of(model)
            result = self.connection.execute(delete(table).where(table.c.athlete_id == athlete_id))
            counts[table.name] = rowcount(result)
        result = self.connection.execute(delete(_athletes).where(_athletes.c.id == athlete_id))
        counts["athletes"] = rowcount(result)
        return counts

    def _count(self, statement: Select[Any]) -> int:
        return int(self.connection.execute(statement).scalar_one())

"""The evidence rows of facts: appended by merges, read by `facts --why`, erased with facts."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Connection, delete, insert, or_, select

from vault.domain.models import Evidence
from vault.domain.text import matches_query
from vault.storage.evidence_tables import fact_evidence_table
from vault.storage.hot_statements import HotStatement
from vault.storage.tables import facts_table

_OBSERVATION_COLUMNS = ("fact_id", "source", "source_ref", "extractor", "words", "observed_at")
_INSERT = HotStatement(
    insert(fact_evidence_table), columns=("athlete_id", "recorded_at", *_OBSERVATION_COLUMNS)
)
_COLUMNS = (
    fact_evidence_table.c.id,
    fact_evidence_table.c.fact_id,
    fact_evidence_table.c.source,
    fact_evidence_table.c.source_ref,
    fact_evidence_table.c.extractor,
    fact_evidence_table.c.words,
    fact_evidence_table.c.observed_at,
    fact_evidence_table.c.recorded_at,
)


class EvidenceRepository:
    """Evidence rows on the unit of work's connection; never commits."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    def add(self, athlete_id: str, rows: list[dict[str, Any]], now: datetime) -> None:
        """Append one row per observation (`fact_id`, `source`, `source_ref`, `extractor`,
        `words`, `observed_at`)."""
        _INSERT.run(
            self.connection, [{**row, "athlete_id": athlete_id, "recorded_at": now} for row in rows]
        )

    def for_facts(self, athlete_id: str, fact_ids: list[int]) -> list[Evidence]:
        """Evidence of the athlete's given facts, per fact oldest first."""
        if not fact_ids:
            return []
        statement = (
            select(*_COLUMNS)
            .where(
                fact_evidence_table.c.athlete_id == athlete_id,
                fact_evidence_table.c.fact_id.in_(fact_ids),
            )
            .order_by(
                fact_evidence_table.c.fact_id,
                fact_evidence_table.c.observed_at,
                fact_evidence_table.c.id,
            )
        )
        return [
            Evidence.model_validate(dict(row._mapping))
            for row in self.connection.execute(statement)
        ]

    def for_athlete(self, athlete_id: str) -> list[Evidence]:
        """Every active fact's evidence for one athlete."""
        ids = (
            self.connection.execute(
                select(facts_table.c.id).where(facts_table.c.athlete_id == athlete_id)
            )
            .scalars()
            .all()
        )
        return self.for_facts(athlete_id, list(ids))

    def observations(
        self, athlete_id: str, refs: list[str], times: list[datetime]
    ) -> set[tuple[int, str | None, datetime, str, str | None]]:
        """(fact id, source_ref, observed_at, source, words) of the athlete's evidence with one of `refs` or,
        without a reference, one of `times`: what a merge must not count twice."""
        if not refs and not times:
            return set()
        table = fact_evidence_table
        conditions: list[ColumnElement[bool]] = []
        if refs:
            conditions.append(table.c.source_ref.in_(refs))
        if times:
            conditions.append(table.c.source_ref.is_(None) & table.c.observed_at.in_(times))
        condition = or_(*conditions)
        rows = self.connection.execute(
            select(
                table.c.fact_id,
                table.c.source_ref,
                table.c.observed_at,
                table.c.source,
                table.c.words,
            ).where((table.c.athlete_id == athlete_id) & condition)
        )
        return {(row[0], row[1], row[2], str(row[3]), row[4]) for row in rows}

    def forget_matching(self, athlete_id: str, terms: list[str]) -> int:
        """Delete the athlete's evidence whose words match every term; return how many."""
        rows = self.connection.execute(
            select(fact_evidence_table.c.id, fact_evidence_table.c.words).where(
                fact_evidence_table.c.athlete_id == athlete_id
            )
        )
        doomed = [row_id for row_id, words in rows if words and matches_query(terms, words)]
        if doomed:
            self.connection.execute(
                delete(fact_evidence_table).where(
                    fact_evidence_table.c.athlete_id == athlete_id,
                    fact_evidence_table.c.id.in_(doomed),
                )
            )
        return len(doomed)

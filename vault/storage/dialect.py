"""The few statements that differ between SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Table, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy import Connection

from vault.storage.tables import AthleteRow


def upsert(connection: Connection, table: Table) -> Any:
    """`INSERT ... ON CONFLICT` for the connection's dialect (same API on both)."""
    if _dialect(connection) == "postgresql":
        return postgresql.insert(table)
    return sqlite.insert(table)


def lock_athlete(connection: Connection, athlete_id: str) -> None:
    """Serialize writers of one athlete.

    On SQLite the transaction already holds the database write lock (BEGIN IMMEDIATE);
    on PostgreSQL a row lock on the athlete lets different athletes merge in parallel.
    """
    if _dialect(connection) == "postgresql":
        connection.execute(
            select(AthleteRow.id).where(AthleteRow.id == athlete_id).with_for_update()
        )


def _dialect(connection: Connection) -> str:
    return connection.dialect.name

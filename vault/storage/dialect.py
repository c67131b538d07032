"""The statements that differ between SQLite and PostgreSQL, in one place."""

from __future__ import annotations

import functools
from typing import Any

from sqlalchemy import Connection, Table
from sqlalchemy.dialects import postgresql, sqlite

from vault.storage.tables import AthleteRow

_athletes: Table = AthleteRow.__table__  # type: ignore[assignment]


@functools.cache
def _ensure_athlete(dialect: str) -> Any:
    insert = postgresql.insert(_athletes) if dialect == "postgresql" else sqlite.insert(_athletes)
    return insert.on_conflict_do_update(
        index_elements=["id"], set_={"updated_at": insert.excluded.updated_at}
    )


def ensure_athlete(connection: Connection, athlete_id: str, now: Any) -> None:
    """Create the athlete or mark it updated, and hold its write lock until the transaction ends.

    SQLite: the transaction already holds the database write lock (BEGIN IMMEDIATE).
    PostgreSQL: INSERT ... ON CONFLICT DO UPDATE locks the athlete's row (a new row is locked
    by its uncommitted insert), so writers of one athlete serialize while different athletes
    proceed in parallel. A row lock rather than an advisory lock: it needs no key hashing,
    shows in pg_locks with the table, and dies with the transaction like every other lock.
    """
    connection.execute(
        _ensure_athlete(connection.dialect.name),
        {"id": athlete_id, "created_at": now, "updated_at": now},
    )

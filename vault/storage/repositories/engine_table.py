"""The engine's inbox behind the `athlete_memory` view (revisions 0007 and 0016, SQLite).

The engine writes rows with its own statements; the view's trigger queues each in
`engine_inbox` (vault.storage.engine_view). This repository reads the inbox, marks what it
applied or refused and erases rows; vault never writes the engine's row (the view computes it).
It never commits. On PostgreSQL none of this exists and `present` is False.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, TextClause, bindparam, text

from vault.domain.engine_document import canonical_key
from vault.storage import engine_view
from vault.storage.dialect import is_sqlite
from vault.storage.hot_statements import driver_error
from vault.storage.repositories._sql import rowcount
from vault.storage.scope import operation_scope

ADOPTION_TABLE = "legacy_adoption"

_PENDING = (
    "SELECT id, athlete_id, memory_json, previous_json, written_at, origin FROM engine_inbox "
    "WHERE refused IS NULL ORDER BY id LIMIT ?"
)
_PENDING_KEYS = text("SELECT id, athlete_id FROM engine_inbox WHERE refused IS NULL")
_PENDING_BY_ID = text(
    "SELECT id, athlete_id, memory_json, previous_json, written_at, origin FROM engine_inbox "
    "WHERE refused IS NULL AND id IN :ids ORDER BY id"
).bindparams(bindparam("ids", expanding=True))
_APPLIED = text("DELETE FROM engine_inbox WHERE id = :id")
# a row never retried needs no copy of what it replaced (which may be as large as itself)
_REFUSE = text("UPDATE engine_inbox SET refused = :reason, previous_json = NULL WHERE id = :id")
# the latest unreadable row of a key is the one that matters (the engine's next row replaces it)
_OLDER_REFUSED = text(
    "DELETE FROM engine_inbox WHERE refused IS NOT NULL AND id < :id "
    "AND athlete_id IS (SELECT athlete_id FROM engine_inbox WHERE id = :id)"
)
# a key naming no athlete (NULL, empty, invisible characters, too long) can never be applied
# nor erased by an id: its row keeps the reason only, and the engine's rows under it go
_KEYLESS = text(
    "UPDATE engine_inbox SET refused = :reason, memory_json = '', previous_json = NULL "
    "WHERE id = :id"
)
_REFUSED_KEYLESS = text(
    "SELECT athlete_id FROM engine_inbox WHERE refused IS NOT NULL AND memory_json = ''"
)
_REFUSED_WITH_TEXT = text(
    "SELECT id, athlete_id, refused FROM engine_inbox "
    "WHERE refused IS NOT NULL AND memory_json <> ''"
)
_IDS_PER_STATEMENT = 500  # far under SQLite's limit of bound values
_INBOX_KEYS = text("SELECT id, athlete_id FROM engine_inbox")
_REFUSED_KEYS = text("SELECT id, athlete_id FROM engine_inbox WHERE refused IS NOT NULL")
_DROP_INBOX_ROWS = text("DELETE FROM engine_inbox WHERE id IN :ids").bindparams(
    bindparam("ids", expanding=True)
)
_ADOPTED = text(
    "UPDATE legacy_adoption SET status = :status, reason = :reason, facts = :facts, "
    "patterns = :patterns, notes = :notes, archived = 0 "
    "WHERE athlete_id = :athlete AND status <> 'adopted'"
)
_ADOPTION_INSERT = text(
    "INSERT INTO legacy_adoption (athlete_id, status, reason, facts, patterns, notes, archived) "
    "VALUES (:athlete, :status, :reason, :facts, :patterns, :notes, 0)"
)
_TRIGGER_EXISTS = text(
    "SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND name = 'athlete_memory_engine_write'"
)
_HAS_ADOPTION = text(
    "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'legacy_adoption'"
)


@dataclass(frozen=True)
class InboxRow:
    """One row the engine wrote (or a legacy row queued for adoption), not applied yet."""

    id: int
    athlete_key: Any  # as the engine stored it: SQLite lets a TEXT key hold NULL or a number
    memory_json: Any
    previous_json: Any
    written_at: Any
    origin: str


class EngineTableRepository:
    def __init__(self, connection: Connection) -> None:
        self._connection = connection
        self.present = is_sqlite(connection)

    def pending_of(self, athlete_id: str) -> list[InboxRow]:
        """The rows waiting under any key naming the athlete, oldest first (keys are read
        and normalised here, then only those rows are read whole)."""
        ids = [
            row_id
            for row_id, key in self._connection.execute(_PENDING_KEYS)
            if canonical_key(key) == athlete_id
        ]
        rows: list[InboxRow] = []
        for start in range(0, len(ids), _IDS_PER_STATEMENT):
            chunk = ids[start : start + _IDS_PER_STATEMENT]
            found = self._connection.execute(_PENDING_BY_ID, {"ids": chunk})
            rows += [InboxRow(*row) for row in found.all()]
        return rows

    def pending(self, limit: int) -> list[InboxRow]:
        """The oldest `limit` rows waiting to be applied.

        Every write asks this right after BEGIN, and nearly always nothing waits: the question
        goes to the driver's connection, in the same transaction (SQLAlchemy's statement
        machinery costs three times the read itself, about 20 µs of every merge)."""
        driver: Any = self._connection.connection.driver_connection  # sqlite3's, on this file
        try:
            found = driver.execute(_PENDING, (limit,)).fetchall()
        except sqlite3.Error as error:  # as SQLAlchemy would raise it: callers map DBAPIError
            raise driver_error(_PENDING, (limit,), error) from error
        return [InboxRow(*row) for row in found]

    def applied(self, row_id: int) -> None:
        self._connection.execute(_APPLIED, {"id": row_id})

    def refuse(self, row_id: int, reason: str) -> None:
        """Keep a row vault cannot read at all, with the reason (doctor lists them)."""
        self._connection.execute(_REFUSE, {"id": row_id, "reason": reason})
        self._connection.execute(_OLDER_REFUSED, {"id": row_id})

    def refuse_keyless(self, row_id: int, reason: str) -> None:
        """A row under a key that names no athlete: its reason is kept, its text is not (no
        `vault delete` can name it), and the view no longer shows it to the engine."""
        self._connection.execute(_KEYLESS, {"id": row_id, "reason": reason})
        self._connection.execute(_OLDER_REFUSED, {"id": row_id})

    def take_down_keyless(self) -> int:
        """Rows kept unread, text and all, under a key naming no athlete (refused before vault
        took such rows down): taken down now; how many."""
        found = [
            (row_id, key, reason)
            for row_id, key, reason in self._connection.execute(_REFUSED_WITH_TEXT)
            if canonical_key(key) is None
        ]
        for row_id, _key, reason in found:
            self.refuse_keyless(row_id, reason)
        return len(found)

    def purge(self, athlete_id: str) -> int:
        """Delete every row the engine wrote for the athlete, under any key naming them (the
        view shows nothing of an athlete vault no longer holds)."""
        return self._drop(_INBOX_KEYS, _DROP_INBOX_ROWS, athlete_id)

    def purge_refused(self, athlete_id: str) -> int:
        """Delete the unreadable rows kept for the athlete, under any key naming them."""
        return self._drop(_REFUSED_KEYS, _DROP_INBOX_ROWS, athlete_id)

    def _drop(self, keys: TextClause, drop: TextClause, athlete_id: str) -> int:
        # keys are read and normalised here, not in SQL: SQLite has no Unicode NFC
        ids = [
            row_id
            for row_id, key in self._connection.execute(keys)
            if canonical_key(key) == athlete_id
        ]
        return sum(
            rowcount(self._connection.execute(drop, {"ids": ids[at : at + _IDS_PER_STATEMENT]}))
            for at in range(0, len(ids), _IDS_PER_STATEMENT)
        )

    def record_adoption(
        self, athlete_id: str | None, status: str, reason: str | None, counts: dict[str, int]
    ) -> None:
        """What became of one legacy row (`legacy_adoption`; a file without it is left alone)."""
        if self._connection.execute(_HAS_ADOPTION).first() is None:
            return
        params = {"athlete": athlete_id, "status": status, "reason": reason, **counts}
        if athlete_id is None or not rowcount(self._connection.execute(_ADOPTED, params)):
            self._connection.execute(_ADOPTION_INSERT, params)


def shadowed(connection: Connection) -> bool:
    """A plain `athlete_memory` table (or none) where vault's should be: the engine's writes
    would not reach vault. Only meaningful on a SQLite file at revision 0007 or later."""
    return is_sqlite(connection) and connection.execute(_TRIGGER_EXISTS).first() is None


def non_canonical_keys(connection: Connection) -> list[object]:
    """Keys of waiting engine rows that are not an athlete's id as vault spells it (a variant
    such as "ana\\n", or no valid id at all): the view shows them under that key until vault
    applies them to the athlete (or takes them down)."""
    return [
        key
        for _row, key in connection.execute(_PENDING_KEYS)
        if key is None or canonical_key(key) != key
    ]


def keyless_refused(connection: Connection) -> int:
    """Rows kept unread because their key names no athlete (their text is not kept)."""
    keys = connection.execute(_REFUSED_KEYLESS).scalars()
    return sum(canonical_key(key) is None for key in keys)


def waiting_counts(connection: Connection) -> tuple[int, int]:
    """Engine rows waiting to be applied, and rows kept unread (bad JSON, no athlete id)."""
    pending, unread = connection.execute(
        text("SELECT COUNT(*) - COUNT(refused), COUNT(refused) FROM engine_inbox")
    ).one()
    return int(pending), int(unread)


def repair(connection: Connection) -> int:
    """Queue a shadowing plain table's rows as engine writes and put vault's view back.

    Runs in the caller's transaction; returns the rows queued.
    """
    queued = 0
    if connection.execute(
        text("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'athlete_memory'")
    ).first():
        columns = {row[1] for row in connection.execute(text("PRAGMA table_info(athlete_memory)"))}
        written = "updated_at" if "updated_at" in columns else "NULL"
        queued = rowcount(
            connection.execute(
                text(
                    "INSERT INTO engine_inbox (athlete_id, memory_json, previous_json, written_at, origin) "
                    f"SELECT athlete_id, memory_json, NULL, {written}, 'engine' FROM athlete_memory "
                    "ORDER BY rowid"
                )
            )
        )
        connection.execute(text("DROP TABLE athlete_memory"))
    connection.execute(text(f"DROP VIEW IF EXISTS {engine_view.VIEW_NAME}"))
    connection.execute(
        text(engine_view.CREATE_INBOX_INDEX.replace("INDEX", "INDEX IF NOT EXISTS", 1))
    )
    connection.execute(text(engine_view.CREATE_VIEW))
    connection.execute(text(engine_view.CREATE_TRIGGER))
    return queued


def uncounted_items(connection: Connection) -> int:
    """Items stored without their token counts (revision 0016): the view leaves them out. Each
    table's partial index (`ix_<table>_uncounted`) holds only those, so this costs nothing
    when none are left."""
    with operation_scope("all"):
        return sum(
            int(connection.execute(_UNCOUNTED_IN[table]).scalar_one())
            for table in ("facts", "patterns", "notes")
        )


_UNCOUNTED_IN = {
    table: text(f"SELECT COUNT(*) FROM {table} WHERE inline_tokens IS NULL")
    for table in ("facts", "patterns", "notes")
}

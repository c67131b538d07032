"""The engine's `athlete_memory` table, its inbox and the dirty list (revision 0007, SQLite).

The engine writes rows with its own statements; a trigger copies each into `engine_inbox`.
Triggers on facts, patterns and notes list the athletes whose memory changed in
`engine_dirty`. This repository reads and empties both and writes vault's rows (written_by =
'vault', which the trigger ignores). It never commits. On PostgreSQL none of this exists and
`present` is False.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from sqlalchemy import Connection, TextClause, bindparam, text

from vault.domain.engine_document import canonical_key
from vault.storage.dialect import is_sqlite
from vault.storage.repositories._sql import rowcount

ENGINE_TABLE = "athlete_memory"
ADOPTION_TABLE = "legacy_adoption"

_PENDING = text(
    "SELECT id, athlete_id, memory_json, previous_json, written_at, origin FROM engine_inbox "
    "WHERE refused IS NULL ORDER BY id LIMIT :limit"
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
_DROP_KEYLESS = text("DELETE FROM athlete_memory WHERE athlete_id IS :key")
_REFUSED_KEYLESS = text(
    "SELECT athlete_id FROM engine_inbox WHERE refused IS NOT NULL AND memory_json = ''"
)
_REFUSED_WITH_TEXT = text(
    "SELECT id, athlete_id, refused FROM engine_inbox "
    "WHERE refused IS NOT NULL AND memory_json <> ''"
)
_IDS_PER_STATEMENT = 500  # far under SQLite's limit of bound values
_TAKE_DIRTY = text("DELETE FROM engine_dirty RETURNING athlete_id")
_MARK = text("INSERT OR IGNORE INTO engine_dirty (athlete_id) VALUES (:athlete)")
# An upsert, not INSERT OR REPLACE: the row is rewritten where it is (same rowid, same key
# entry) instead of deleted and inserted again (BENCHMARKS.md: 3.5 fewer WAL pages a merge)
_PUBLISH = text(
    "INSERT INTO athlete_memory (athlete_id, memory_json, updated_at, written_by) "
    "VALUES (:athlete, :document, :updated_at, 'vault') ON CONFLICT (athlete_id) DO UPDATE "
    "SET memory_json = excluded.memory_json, updated_at = excluded.updated_at, "
    "written_by = 'vault'"
)
_UNPUBLISH = text("DELETE FROM athlete_memory WHERE athlete_id = :athlete")
_CURRENT = text(
    "SELECT memory_json FROM athlete_memory WHERE athlete_id = :athlete AND written_by = 'vault'"
)
_ENGINE_KEYS = text("SELECT rowid, athlete_id FROM athlete_memory")
_INBOX_KEYS = text("SELECT id, athlete_id FROM engine_inbox")
_REFUSED_KEYS = text("SELECT id, athlete_id FROM engine_inbox WHERE refused IS NOT NULL")
_DROP_ENGINE_ROWS = text("DELETE FROM athlete_memory WHERE rowid IN :ids").bindparams(
    bindparam("ids", expanding=True)
)
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
# Revision 0007's table and trigger, spelled again for `repair` (a revision cannot be imported);
# tests/engine/test_engine_table.py checks that both give the same schema.
CREATE_ENGINE_TABLE = (
    "CREATE TABLE athlete_memory (athlete_id TEXT PRIMARY KEY, memory_json TEXT NOT NULL, "
    "updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, "
    "written_by TEXT NOT NULL DEFAULT 'engine' CHECK (written_by IN ('engine', 'vault')))"
)
ENGINE_WRITE_TRIGGER = (
    "CREATE TRIGGER athlete_memory_engine_write BEFORE INSERT ON athlete_memory "
    "WHEN NEW.written_by = 'engine' BEGIN "
    "INSERT INTO engine_inbox (athlete_id, memory_json, previous_json, written_at, origin) "
    "VALUES (NEW.athlete_id, NEW.memory_json, "
    "(SELECT memory_json FROM athlete_memory WHERE athlete_id = NEW.athlete_id), "
    "NEW.updated_at, 'engine'); END"
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
        """The oldest `limit` rows waiting to be applied."""
        found = self._connection.execute(_PENDING, {"limit": limit})
        return [InboxRow(*row) for row in found.all()]

    def applied(self, row_id: int) -> None:
        self._connection.execute(_APPLIED, {"id": row_id})

    def refuse(self, row_id: int, reason: str) -> None:
        """Keep a row vault cannot read at all, with the reason (doctor lists them)."""
        self._connection.execute(_REFUSE, {"id": row_id, "reason": reason})
        self._connection.execute(_OLDER_REFUSED, {"id": row_id})

    def refuse_keyless(self, row_id: int, key: object, reason: str) -> None:
        """A row under a key that names no athlete: its reason is kept, its text is not (no
        `vault delete` can name it), and the engine's rows under that key are taken down."""
        self._connection.execute(_KEYLESS, {"id": row_id, "reason": reason})
        self._connection.execute(_OLDER_REFUSED, {"id": row_id})
        self._connection.execute(_DROP_KEYLESS, {"key": key})

    def take_down_keyless(self) -> int:
        """Rows kept unread, text and all, under a key naming no athlete (refused before vault
        took such rows down): taken down now; how many."""
        found = [
            (row_id, key, reason)
            for row_id, key, reason in self._connection.execute(_REFUSED_WITH_TEXT)
            if canonical_key(key) is None
        ]
        for row_id, key, reason in found:
            self.refuse_keyless(row_id, key, reason)
        return len(found)

    def take_dirty(self) -> list[str]:
        """The athletes whose memory changed since the last publish; the list is emptied."""
        return list(self._connection.execute(_TAKE_DIRTY).scalars())

    def mark_dirty(self, athlete_id: str) -> None:
        self._connection.execute(_MARK, {"athlete": athlete_id})

    def publish(self, athlete_id: str, document: str, at: datetime) -> None:
        stamp = at.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%S")  # as CURRENT_TIMESTAMP
        self._connection.execute(
            _PUBLISH, {"athlete": athlete_id, "document": document, "updated_at": stamp}
        )

    def current(self, athlete_id: str) -> str | None:
        """The row vault wrote for the athlete and nobody replaced since (None: none)."""
        found = self._connection.execute(_CURRENT, {"athlete": athlete_id}).scalar()
        return None if found is None else str(found)

    def unpublish(self, athlete_id: str) -> None:
        self._connection.execute(_UNPUBLISH, {"athlete": athlete_id})

    def purge(self, athlete_id: str) -> int:
        """Delete the athlete's engine rows (under any key naming them) and every inbox row."""
        deleted = self._drop(_ENGINE_KEYS, _DROP_ENGINE_ROWS, athlete_id)
        return deleted + self._drop(_INBOX_KEYS, _DROP_INBOX_ROWS, athlete_id)

    def purge_refused(self, athlete_id: str) -> int:
        """Delete the unreadable rows kept for the athlete, under any key naming them."""
        return self._drop(_REFUSED_KEYS, _DROP_INBOX_ROWS, athlete_id)

    def drop_variants(self, athlete_id: str) -> int:
        """Delete the engine's rows under a key that names the athlete but is not its id
        (" ana", "ana\\n", a decomposed accent): vault publishes under the id only."""
        return self._drop(_ENGINE_KEYS, _DROP_ENGINE_ROWS, athlete_id, variants_only=True)

    def _drop(
        self, keys: TextClause, drop: TextClause, athlete_id: str, variants_only: bool = False
    ) -> int:
        # keys are read and normalised here, not in SQL: SQLite has no Unicode NFC
        ids = [
            row_id
            for row_id, key in self._connection.execute(keys)
            if canonical_key(key) == athlete_id and not (variants_only and key == athlete_id)
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
    """Keys of engine rows that are not an athlete's id as vault spells it (a variant such as
    "ana\\n", or no valid id at all): rows vault neither publishes nor erases by name."""
    return [
        key
        for _row, key in connection.execute(_ENGINE_KEYS)
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
    """Queue a shadowing plain table's rows as engine writes and put vault's table back.

    Runs in the caller's transaction; returns the rows queued. Every athlete is marked dirty,
    so the next write transaction publishes every row again.
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
    connection.execute(text(CREATE_ENGINE_TABLE))
    connection.execute(text(ENGINE_WRITE_TRIGGER))
    connection.execute(
        text("INSERT OR IGNORE INTO engine_dirty (athlete_id) SELECT id FROM athletes")
    )
    return queued

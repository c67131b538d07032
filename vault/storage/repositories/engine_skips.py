"""What vault left out of the engine's rows, item by item (`engine_skipped_items`, rev. 0015).

One row per item of an applied engine row that vault could not take: the athlete's id, the
engine's list and the item's position in it, the reason, when. Never the item's text (it may be
the personal data that was withheld). The latest `KEPT_PER_ATHLETE` rows of each athlete are
kept; `purge` erases an athlete's rows (`vault delete`). SQLite only; on a file without the
table (PostgreSQL, or before revision 0015) nothing is recorded and nothing is reported.
It never commits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import Connection, text

from vault.storage.dialect import is_sqlite
from vault.storage.repositories._sql import rowcount

KEPT_PER_ATHLETE = 20

_EXISTS = text("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'engine_skipped_items'")
_INSERT = text(
    "INSERT INTO engine_skipped_items (athlete_id, item, position, reason, skipped_at) "
    "VALUES (:athlete, :item, :position, :reason, :at)"
)
_TRIM = text(
    "DELETE FROM engine_skipped_items WHERE athlete_id = :athlete AND id NOT IN "
    "(SELECT id FROM engine_skipped_items WHERE athlete_id = :athlete ORDER BY id DESC "
    "LIMIT :kept)"
)
_PURGE = text("DELETE FROM engine_skipped_items WHERE athlete_id = :athlete")
_LATEST = text(
    "SELECT athlete_id, item, position, reason, skipped_at FROM engine_skipped_items "
    "ORDER BY id DESC LIMIT :limit"
)
_COUNT = text("SELECT COUNT(*) FROM engine_skipped_items")


@dataclass(frozen=True)
class SkippedItem:
    """One item of an engine row that vault left out (`position` None: the whole list)."""

    athlete_id: str
    item: str
    position: int | None
    reason: str
    skipped_at: str  # RFC 3339 UTC

    def line(self) -> str:
        where = self.item if self.position is None else f"{self.item}[{self.position}]"
        return f"{self.athlete_id}: {where} left out at {self.skipped_at}: {self.reason}"


def _present(connection: Connection) -> bool:
    return is_sqlite(connection) and connection.execute(_EXISTS).first() is not None


def record_skipped(connection: Connection, items: Sequence[SkippedItem]) -> int:
    """Add these rows and keep each athlete's latest `KEPT_PER_ATHLETE`; returns rows added."""
    if not items or not _present(connection):
        return 0
    connection.execute(
        _INSERT,
        [
            {
                "athlete": i.athlete_id,
                "item": i.item,
                "position": i.position,
                "reason": i.reason,
                "at": i.skipped_at,
            }
            for i in items
        ],
    )
    for athlete in {i.athlete_id for i in items}:
        connection.execute(_TRIM, {"athlete": athlete, "kept": KEPT_PER_ATHLETE})
    return len(items)


def purge_skipped(connection: Connection, athlete_id: str) -> int:
    """Erase the athlete's rows (their id is a plain athlete id)."""
    if not _present(connection):
        return 0
    return rowcount(connection.execute(_PURGE, {"athlete": athlete_id}))


def skipped_items(connection: Connection, limit: int = 10) -> tuple[int, list[SkippedItem]]:
    """How many rows the record holds, and the latest `limit` of them, newest first."""
    if not _present(connection):
        return 0, []
    total = int(connection.execute(_COUNT).scalar_one())
    latest = [SkippedItem(*row) for row in connection.execute(_LATEST, {"limit": limit})]
    return total, latest

"""The SQL behind `vault doctor` and verifiable erasure: SQLite's integrity and foreign-key
PRAGMAs, the WAL checkpoint, the views' smoke test, the memory invariants.

Each function runs statements and hands back what it found; `vault.services.health` decides
what counts as healthy, retries a busy checkpoint, and keeps the erasure marker.
"""

from __future__ import annotations

import sqlite3
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, Engine, exc, text

from vault.domain.limits import MAX_FACTS, MAX_NOTES, MAX_PATTERNS
from vault.storage.engine import BUSY_TIMEOUT_MS
from vault.storage.failures import is_busy
from vault.storage.views import CURRENT_VIEWS

# -- SQLite: file integrity


def integrity_check(connection: Connection) -> list[str]:
    """`PRAGMA integrity_check`: `["ok"]` for a sound file, else what is wrong."""
    return [str(r[0]) for r in connection.exec_driver_sql("PRAGMA integrity_check").fetchall()]


def foreign_key_violations(connection: Connection) -> list[tuple[Any, ...]]:
    """`PRAGMA foreign_key_check`: one (table, rowid, parent, fk index) per broken reference."""
    return [tuple(r) for r in connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()]


# -- SQLite: the write-ahead log


@contextmanager
def checkpoint_cursor(engine: Engine, busy_ms: int) -> Iterator[Any]:
    """A DBAPI cursor outside any transaction (or a checkpoint would wait for itself) whose busy
    handler waits `busy_ms` for readers; the usual busy timeout is restored afterwards."""
    raw = engine.raw_connection()
    try:
        cursor = raw.cursor()
        cursor.execute(f"PRAGMA busy_timeout={int(busy_ms)}")
        try:
            yield cursor
        finally:
            cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            cursor.close()
    finally:
        raw.close()


def checkpoint_once(cursor: Any) -> bool:
    """One `PRAGMA wal_checkpoint(TRUNCATE)`: True when every page was copied and the WAL
    truncated, False while a reader or writer kept it busy."""
    try:
        busy, _log, _done = cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    except sqlite3.OperationalError as error:
        if is_busy(error):
            return False
        raise
    return int(busy) == 0


# -- every backend


def unnormalized_athlete_ids(connection: Connection, limit: int = 20) -> list[str]:
    """Stored athlete ids not in Unicode NFC (ids that collided when revision 0008 normalized
    them; every id written since is NFC)."""
    found = []
    for (athlete,) in connection.exec_driver_sql("SELECT id FROM athletes"):
        if not unicodedata.is_normalized("NFC", str(athlete)):
            found.append(str(athlete))
            if len(found) >= limit:
                break
    return found


def failing_views(connection: Connection) -> list[str]:
    """`view: error` for each current view that does not answer a SELECT."""
    failing = []
    for view in CURRENT_VIEWS:
        try:
            connection.exec_driver_sql(f"SELECT * FROM {view.name} LIMIT 1").fetchall()
        except exc.DBAPIError as error:
            failing.append(f"{view.name}: {error.orig}")
    return failing


# Each invariant: (name, SQL returning one row per violation, how to describe a violation).
_INVARIANTS: tuple[tuple[str, str], ...] = (
    (
        "caps",
        f"SELECT 'athlete ' || athlete_id || ' has ' || n || ' facts (cap {MAX_FACTS})' "
        f"FROM (SELECT athlete_id, COUNT(*) AS n FROM facts GROUP BY athlete_id) AS per_athlete "
        f"WHERE n > {MAX_FACTS} "
        f"UNION ALL SELECT 'athlete ' || athlete_id || ' has ' || n || ' patterns (cap "
        f"{MAX_PATTERNS})' FROM (SELECT athlete_id, COUNT(*) AS n FROM patterns "
        f"GROUP BY athlete_id) AS per_athlete WHERE n > {MAX_PATTERNS} "
        f"UNION ALL SELECT 'athlete ' || athlete_id || ' has ' || n || ' notes (cap "
        f"{MAX_NOTES})' FROM (SELECT athlete_id, COUNT(*) AS n FROM notes "
        f"GROUP BY athlete_id) AS per_athlete WHERE n > {MAX_NOTES}",
    ),
    (
        "one active fact per text",
        "SELECT 'athlete ' || athlete_id || ': ' || COUNT(*) || ' facts share one normalized "
        "text' FROM facts GROUP BY athlete_id, normalized_text HAVING COUNT(*) > 1",
    ),
    (
        "one active fact per conflict key",
        "SELECT 'athlete ' || athlete_id || ': ' || COUNT(*) || ' facts share conflict key ' "
        "|| conflict_key FROM facts WHERE conflict_key IS NOT NULL "
        "GROUP BY athlete_id, conflict_key HAVING COUNT(*) > 1",
    ),
    (
        "confidences in 0..1",
        "SELECT 'fact ' || id || ' has confidence ' || confidence FROM facts "
        "WHERE NOT (confidence >= 0 AND confidence <= 1 AND base_confidence >= 0 "
        "AND base_confidence <= 1) "
        "UNION ALL SELECT 'pattern ' || id || ' has confidence ' || confidence FROM patterns "
        "WHERE NOT (confidence >= 0 AND confidence <= 1) "
        "UNION ALL SELECT 'note ' || id || ' has confidence ' || confidence FROM notes "
        "WHERE NOT (confidence >= 0 AND confidence <= 1) "
        "UNION ALL SELECT 'archive row ' || id || ' has confidence ' || confidence FROM archive "
        "WHERE NOT (confidence >= 0 AND confidence <= 1)",
    ),
    (
        "history points at real facts",
        "SELECT 'archive row ' || a.id || ' is superseded by ' || a.superseded_by "
        "|| ', which is neither an active fact nor an archived one' FROM archive AS a "
        "WHERE a.superseded_by IS NOT NULL "
        "AND NOT EXISTS (SELECT 1 FROM facts AS f WHERE f.athlete_id = a.athlete_id "
        "AND f.id = a.superseded_by) "
        "AND NOT EXISTS (SELECT 1 FROM archive AS b WHERE b.athlete_id = a.athlete_id "
        "AND b.kind = 'fact' AND b.original_id = a.superseded_by)",
    ),
)


def invariant_problems(connection: Connection, limit: int = 20) -> dict[str, list[str]]:
    """Each memory invariant's violations (at most `limit` each); empty lists when healthy."""
    return {
        name: [str(row[0]) for row in connection.execute(text(f"{sql} LIMIT {int(limit)}"))]
        for name, sql in _INVARIANTS
    }

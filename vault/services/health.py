"""Health checks (`vault doctor`) and verifiable erasure (`vault erase --wait`).

Erasure on SQLite: `secure_delete` overwrites deleted rows in the database file, but until a
checkpoint copies the new pages over the old ones and the write-ahead log is truncated, older
copies of the erased pages sit in `<file>-wal`. A TRUNCATE checkpoint cannot finish while a
reader still holds a snapshot older than the erasure, so `truncate_wal` retries for a bounded
time and says whether it finished. An erasure leaves a marker file (`<file>-erase-pending`,
empty, mode 0600) from before its transaction until a checkpoint finishes: a crash or a busy
reader in between is visible to `vault doctor` and finished by `vault erase --wait`.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, exc, inspect, text

from vault.domain.limits import MAX_FACTS, MAX_NOTES, MAX_PATTERNS
from vault.storage import migrations as migrate
from vault.storage.engine import BUSY_TIMEOUT_MS, NEW_FILE_MODE, sqlite_file
from vault.storage.uow import is_busy
from vault.storage.views import CURRENT_VIEWS

ERASE_WAIT = 2.0  # seconds forget / delete wait for readers before reporting erased_from_disk=False
_STEP_MS = 50  # each checkpoint attempt waits this long (busy handler) for readers to move on
MARKER_SUFFIX = "-erase-pending"


# -- erasure ----------------------------------------------------------------------------------


def marker_path(engine: Engine) -> Path | None:
    path = sqlite_file(engine.url)
    return None if path is None else Path(f"{path}{MARKER_SUFFIX}")


def mark_erasure(engine: Engine) -> None:
    """Record that erased text may be on disk until the next complete checkpoint."""
    marker = marker_path(engine)
    if marker is None or marker.exists():
        return
    try:
        os.close(os.open(marker, os.O_CREAT | os.O_WRONLY, NEW_FILE_MODE))
    except OSError:
        pass  # a read-only directory: the erasure itself will fail with a clear error


def clear_erasure(engine: Engine) -> None:
    marker = marker_path(engine)
    if marker is not None:
        marker.unlink(missing_ok=True)


def erasure_pending(engine: Engine) -> bool:
    """True when an erasure may still have copies of its pages in the WAL (or crashed)."""
    marker = marker_path(engine)
    return marker is not None and marker.exists()


def truncate_wal(
    engine: Engine,
    wait: float = ERASE_WAIT,
    *,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> bool:
    """Checkpoint every WAL page into the file and truncate the WAL to 0 bytes.

    Checks the checkpoint's busy flag: while a reader holds an old snapshot (or a writer holds
    the lock) it retries until `wait` seconds have passed, each attempt letting SQLite wait
    `_STEP_MS` for readers, so writers are never blocked for long. Returns True when the WAL
    is empty (the marker of a pending erasure is then removed), False when it is not.
    """
    if sqlite_file(engine.url) is None:
        return True
    deadline = clock() + max(0.0, float(wait))
    raw = engine.raw_connection()  # outside any transaction, or the checkpoint waits for itself
    try:
        cursor = raw.cursor()
        step = int(min(_STEP_MS, max(0.0, float(wait)) * 1000))
        cursor.execute(f"PRAGMA busy_timeout={step}")
        try:
            while True:
                if _checkpoint_once(cursor):
                    clear_erasure(engine)
                    return True
                if clock() >= deadline:
                    return False
                sleep(0.01)
        finally:
            cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            cursor.close()
    finally:
        raw.close()


def _checkpoint_once(cursor: Any) -> bool:
    try:
        busy, _log, _done = cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    except sqlite3.OperationalError as error:
        if is_busy(error):
            return False
        raise
    return int(busy) == 0


# -- doctor -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Check:
    """One health check: its name, whether it passed, and what was found."""

    name: str
    ok: bool
    detail: str


@dataclass(frozen=True)
class HealthReport:
    """Every check `vault doctor` ran; healthy when all passed."""

    checks: tuple[Check, ...] = field(default_factory=tuple)

    @property
    def healthy(self) -> bool:
        return all(check.ok for check in self.checks)

    def to_dict(self) -> dict[str, Any]:
        return {"healthy": self.healthy, "checks": [asdict(check) for check in self.checks]}


# Each invariant: (name, SQL returning one row per violation, how to describe a violation).
_INVARIANTS: tuple[tuple[str, str], ...] = (
    (
        "caps",
        f"SELECT 'athlete ' || athlete_id || ' has ' || n || ' facts (cap {MAX_FACTS})' "
        f"FROM (SELECT athlete_id, COUNT(*) AS n FROM facts GROUP BY athlete_id) "
        f"WHERE n > {MAX_FACTS} "
        f"UNION ALL SELECT 'athlete ' || athlete_id || ' has ' || n || ' patterns (cap "
        f"{MAX_PATTERNS})' FROM (SELECT athlete_id, COUNT(*) AS n FROM patterns "
        f"GROUP BY athlete_id) WHERE n > {MAX_PATTERNS} "
        f"UNION ALL SELECT 'athlete ' || athlete_id || ' has ' || n || ' notes (cap "
        f"{MAX_NOTES})' FROM (SELECT athlete_id, COUNT(*) AS n FROM notes "
        f"GROUP BY athlete_id) WHERE n > {MAX_NOTES}",
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
        "AND NOT EXISTS (SELECT 1 FROM facts AS f WHERE f.id = a.superseded_by) "
        "AND NOT EXISTS (SELECT 1 FROM archive AS b WHERE b.kind = 'fact' "
        "AND b.original_id = a.superseded_by)",
    ),
)


def invariant_problems(connection: Connection, limit: int = 20) -> dict[str, list[str]]:
    """Each memory invariant's violations (at most `limit` each); empty lists when healthy."""
    return {
        name: [str(row[0]) for row in connection.execute(text(f"{sql} LIMIT {int(limit)}"))]
        for name, sql in _INVARIANTS
    }


def diagnose(engine: Engine) -> HealthReport:
    """Run every check on the database behind `engine` (best opened read-only); never raises
    for a problem it finds, only reports it."""
    checks: list[Check] = []
    sqlite = engine.dialect.name == "sqlite"
    try:
        with engine.connect() as connection:
            if sqlite:
                checks.append(_integrity(connection))
                checks.append(_foreign_keys(connection))
            revision = _revision(connection)
            checks.append(revision)
            if revision.ok:
                checks.append(_views(connection))
                problems = invariant_problems(connection)
                for name, found in problems.items():
                    checks.append(
                        Check(name, not found, "; ".join(found) if found else "holds")
                    )
    except exc.DBAPIError as error:
        checks.append(Check("readable", False, f"the database cannot be read: {error.orig}"))
    if sqlite:
        checks.append(_erasure(engine))
    return HealthReport(tuple(checks))


def _integrity(connection: Connection) -> Check:
    rows = [str(r[0]) for r in connection.exec_driver_sql("PRAGMA integrity_check").fetchall()]
    ok = rows == ["ok"]
    return Check("integrity", ok, "ok" if ok else "; ".join(rows[:10]))


def _foreign_keys(connection: Connection) -> Check:
    rows = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
    if not rows:
        return Check("foreign keys", True, "every reference resolves")
    found = [f"{r[0]} row {r[1]} -> {r[2]}" for r in rows[:10]]
    return Check("foreign keys", False, f"{len(rows)} broken references: " + "; ".join(found))


def _revision(connection: Connection) -> Check:
    current = None
    if inspect(connection).has_table("alembic_version"):
        current = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    head = migrate.head_revision()
    if current == head:
        return Check("revision", True, f"at head ({head})")
    if current is None:
        return Check("revision", False, "not a vault (no schema revision); `vault upgrade`")
    if current not in migrate.known_revisions():
        return Check("revision", False, f"{current} is newer than this vault knows ({head})")
    return Check("revision", False, f"at {current}, head is {head}; run `vault upgrade`")


def _views(connection: Connection) -> Check:
    failing = []
    for view in CURRENT_VIEWS:
        try:
            connection.exec_driver_sql(f"SELECT * FROM {view.name} LIMIT 1").fetchall()
        except exc.DBAPIError as error:
            failing.append(f"{view.name}: {error.orig}")
    names = ", ".join(v.name for v in CURRENT_VIEWS)
    return Check("views", not failing, "; ".join(failing) if failing else f"all answer ({names})")


def _erasure(engine: Engine) -> Check:
    path = sqlite_file(engine.url)
    wal = Path(f"{path}-wal")
    size = wal.stat().st_size if wal.exists() else 0
    if erasure_pending(engine):
        return Check(
            "erasure",
            False,
            f"an erasure has not reached the disk yet: the write-ahead log ({size} bytes) may "
            "still hold forgotten text; run `vault erase --wait`",
        )
    return Check("erasure", True, f"no erased text pending (write-ahead log {size} bytes)")

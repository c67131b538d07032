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
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, exc

from vault.storage import health_checks as sql_checks
from vault.storage import migrations as migrate
from vault.storage.dialect import is_sqlite
from vault.storage.engine import NEW_FILE_MODE, sqlite_file
from vault.storage.health_checks import invariant_problems
from vault.storage.repositories.engine_skips import skipped_items
from vault.storage.repositories.engine_table import (
    keyless_refused,
    non_canonical_keys,
    shadowed,
    uncounted_items,
    waiting_counts,
)
from vault.storage.scope import operation_scope
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
    step = int(min(_STEP_MS, max(0.0, float(wait)) * 1000))
    with sql_checks.checkpoint_cursor(engine, step) as cursor:
        while True:
            if sql_checks.checkpoint_once(cursor):
                clear_erasure(engine)
                return True
            if clock() >= deadline:
                return False
            sleep(0.01)


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


@operation_scope("all")  # checks over every athlete, each a statement every shard runs
def diagnose(engine: Engine) -> HealthReport:
    """Run every check on the database behind `engine` (best opened read-only); never raises
    for a problem it finds, only reports it."""
    checks: list[Check] = []
    sqlite = is_sqlite(engine)
    try:
        with engine.connect() as connection:
            if sqlite:
                checks.append(_integrity(connection))
                checks.append(_foreign_keys(connection))
            revision = _revision(connection)
            checks.append(revision)
            if revision.ok:
                checks.append(_views(connection))
                checks.append(_athlete_ids(connection))
                if sqlite:
                    checks.append(_engine_table(connection))
                    checks.append(_engine_items_left_out(connection))
                problems = invariant_problems(connection)
                for name, found in problems.items():
                    checks.append(Check(name, not found, "; ".join(found) if found else "holds"))
    except exc.DBAPIError as error:
        checks.append(Check("readable", False, f"the database cannot be read: {error.orig}"))
    if sqlite:
        checks.append(_erasure(engine))
    return HealthReport(tuple(checks))


def _engine_table(connection: Connection) -> Check:
    if shadowed(connection):
        return Check(
            "engine table",
            False,
            "a plain athlete_memory table shadows vault's view: the engine's writes do not reach "
            "vault and it does not see what vault learns; run `vault upgrade` to adopt its rows",
        )
    pending, unread = waiting_counts(connection)
    keyless = keyless_refused(connection) if unread else 0
    unread -= keyless
    detail = f"vault's view; {pending} engine write(s) waiting"
    uncounted = uncounted_items(connection)
    if uncounted:
        detail += (
            f"; {uncounted} item(s) stored without their token counts, left out of the "
            "engine's row: run `vault upgrade`"
        )
    if keyless:
        detail += (
            f"; {keyless} row(s) the engine wrote under a key that names no athlete, taken "
            "down (their text is not kept: no id can name them to erase it; reasons in "
            "engine_inbox.refused, for the engine team)"
        )
    if unread:
        detail += (
            f"; {unread} row(s) the engine wrote kept unread, never retried (reasons in "
            "engine_inbox.refused; the engine's next row for that athlete replaces them, "
            "`vault delete` erases them)"
        )
    odd = non_canonical_keys(connection)
    if odd:
        shown = ", ".join(ascii(k) for k in odd[:5])
        detail += (
            f"; {len(odd)} engine row(s) under a key that is not an athlete id as vault spells "
            f"it ({shown}): the next vault write applies a variant's row to its athlete and "
            "removes it, and takes down a row under a key naming no athlete"
        )
    return Check("engine table", not unread and not odd and not uncounted, detail)


def _engine_items_left_out(connection: Connection) -> Check:
    """Items of applied engine rows vault could not take: reported, not a fault of the file
    (vault kept them out by its own rules, and the engine's next read no longer has them)."""
    total, latest = skipped_items(connection, limit=_LEFT_OUT_SHOWN)
    if not total:
        return Check("engine items left out", True, "none")
    shown = "; ".join(item.line() for item in latest)
    more = (
        f" (the latest {len(latest)} here; all in engine_skipped_items)"
        if total > len(latest)
        else ""
    )
    return Check(
        "engine items left out",
        True,
        f"{total} item(s) of the engine's rows vault could not take{more}: {shown}",
    )


_LEFT_OUT_SHOWN = 10


def _integrity(connection: Connection) -> Check:
    rows = sql_checks.integrity_check(connection)
    ok = rows == ["ok"]
    return Check("integrity", ok, "ok" if ok else "; ".join(rows[:10]))


def _foreign_keys(connection: Connection) -> Check:
    rows = sql_checks.foreign_key_violations(connection)
    if not rows:
        return Check("foreign keys", True, "every reference resolves")
    found = [f"{r[0]} row {r[1]} -> {r[2]}" for r in rows[:10]]
    return Check("foreign keys", False, f"{len(rows)} broken references: " + "; ".join(found))


def _revision(connection: Connection) -> Check:
    current = migrate.current_revision(connection)
    head = migrate.head_revision()
    if current == head:
        return Check("revision", True, f"at head ({head})")
    if current is None:
        return Check("revision", False, "not a vault (no schema revision); `vault upgrade`")
    if current not in migrate.known_revisions():
        return Check("revision", False, f"{current} is newer than this vault knows ({head})")
    return Check("revision", False, f"at {current}, head is {head}; run `vault upgrade`")


def _athlete_ids(connection: Connection) -> Check:
    odd = sql_checks.unnormalized_athlete_ids(connection)
    if not odd:
        return Check("athlete ids", True, "every id is in Unicode NFC")
    names = ", ".join(ascii(a) for a in odd)
    return Check(
        "athlete ids",
        False,
        f"{len(odd)} ids are not in Unicode NFC ({names}), left by revision 0008 because their "
        "NFC spelling names another athlete: merge each into that athlete by hand "
        "(vault delete of the NFC id erases both)",
    )


def _views(connection: Connection) -> Check:
    failing = sql_checks.failing_views(connection)
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

"""`copy_vault`: make one vault's rows exactly another's, across backends (SQLite <-> PostgreSQL).

Every table of the schema is copied (`vault.storage.repositories.copy` groups them: athletes,
the tables whose rows belong to an athlete, their child tables, shared tables; and runs the
SQL). Set-wise, in batches of athletes: per batch one SELECT per table on each side, then for
each athlete whose rows differ one DELETE per table and one executemany INSERT per table on the
destination. Ids are kept (an app that stored a fact id, `vault history ID`, every
`superseded_by` / `original_id` link stay valid), and the destination's sequences are moved past
every id the source ever handed out (`vault.storage.dialect.bump_sequences`). An athlete whose
rows are already equal is not touched, so a second run writes nothing.

The source is read in one snapshot (one read transaction; REPEATABLE READ on PostgreSQL), so a
vault that is being written is copied as it was at one moment and verified against that same
moment. The whole copy is one transaction on the destination: it arrives whole or not at all. Before
committing it is verified: the row counts of every athlete and a SHA-256 over every row of
every table (canonical text: times in UTC with microseconds, enums by value, floats by repr)
must be the same on both sides.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from enum import Enum
from typing import Any

from sqlalchemy import Connection, Engine

from vault.domain.errors import VaultError
from vault.domain.times import format_utc
from vault.storage.dialect import snapshot_options
from vault.storage.repositories import copy as rows
from vault.storage.repositories.copy import Layout, Row, layout
from vault.storage.scope import operation_scope

BATCH = 200  # athletes per round trip


class CopyError(VaultError):
    """The copy cannot start, or its verification failed (nothing was committed)."""


@dataclass
class CopyReport:
    athletes: int = 0
    changed: int = 0  # athletes whose rows were (re)written
    unchanged: int = 0
    shared_changed: list[str] = field(default_factory=list)
    rows: dict[str, int] = field(default_factory=dict)  # per table, equal on both sides
    checksum: str = ""


@operation_scope("all")  # batches of athletes: each statement reads or writes every shard
def copy_vault(
    source: Engine, destination: Engine, *, on_batch: Callable[[int], None] = lambda _n: None
) -> CopyReport:
    """Copy every athlete (and every shared table) of `source` into `destination`.

    Both must be at the newest schema. The destination must hold no athlete the source lacks.
    """
    plan = layout()
    # the source is read and verified in ONE snapshot, so a vault being written copies whole
    reader = source.connect().execution_options(**snapshot_options(source))
    with reader as src, destination.connect() as dest:
        ids = rows.athlete_ids(src)
        extra = set(rows.athlete_ids(dest)) - set(ids)
        if extra:
            shown = ", ".join(sorted(extra)[:5])
            raise CopyError(
                f"the destination holds {len(extra)} athlete(s) the source does not ({shown}); "
                "copy into an empty vault or into an earlier copy of this one"
            )
        report = CopyReport(athletes=len(ids))
        for table in plan.shared:
            source_rows = rows.all_rows(src, table)
            if _canonical_rows(source_rows) != _canonical_rows(rows.all_rows(dest, table)):
                rows.replace_table(dest, table, source_rows)
                report.shared_changed.append(table.name)
        for start in range(0, len(ids), BATCH):
            batch = ids[start : start + BATCH]
            wanted, have = rows.read_batch(src, plan, batch), rows.read_batch(dest, plan, batch)
            for athlete in batch:
                if all(
                    _canonical_rows(wanted[athlete][name]) == _canonical_rows(have[athlete][name])
                    for name in wanted[athlete]
                ):
                    report.unchanged += 1
                    continue
                rows.replace_athlete(
                    dest, plan, athlete, wanted[athlete], exists=bool(have[athlete]["athletes"])
                )
                report.changed += 1
            on_batch(len(batch))
        if report.changed or report.shared_changed:  # ids the source handed out never come back
            rows.bump_past(dest, src, plan)
        report.rows, report.checksum = verify(src, dest, plan)
        dest.commit()
    return report


def verify(src: Connection, dest: Connection, plan: Layout) -> tuple[dict[str, int], str]:
    """Totals per table and the checksum; CopyError unless both sides agree row for row."""
    mine, theirs = rows.athlete_counts(src, plan), rows.athlete_counts(dest, plan)
    if mine != theirs:
        differ = sorted(a for a in mine.keys() | theirs.keys() if mine.get(a) != theirs.get(a))
        raise CopyError(f"verification failed: row counts differ for {', '.join(differ[:5])}")
    checksum = vault_checksum(src, plan)
    if vault_checksum(dest, plan) != checksum:
        raise CopyError("verification failed: the destination's checksum differs from the source's")
    return rows.table_totals(src, plan), checksum


def vault_checksum(connection: Connection, plan: Layout) -> str:
    """SHA-256 over every row of every table, in primary-key order, in canonical text."""
    digest = hashlib.sha256()
    for table in plan.tables:
        digest.update(f"\n#{table.name}\n".encode())
        for row in rows.stream_rows(connection, table):
            digest.update(_canonical(row).encode() + b"\n")
    return digest.hexdigest()


def _canonical_rows(found: list[Row]) -> list[str]:
    return [_canonical(row) for row in found]


def _canonical(row: Any) -> str:
    return json.dumps([_text(value) for value in row], ensure_ascii=False, default=str)


def _text(value: Any) -> Any:
    if isinstance(value, datetime):
        # a driver may hand back naive UTC (SQLite text without offset): read it as UTC
        return format_utc(value if value.tzinfo is not None else value.replace(tzinfo=timezone.utc))
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, float):
        return repr(value)
    return value

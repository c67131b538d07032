"""`copy_vault`: make one vault's rows exactly another's, across backends (SQLite <-> PostgreSQL).

The tables come from the schema itself (`vault.storage.tables.Base.metadata`), so a table added
later is copied too: `athletes`; the tables whose rows belong to an athlete (a foreign key to
`athletes.id`: facts, patterns, notes, archive, forget log, ...); their child tables (a
foreign key to one of those: fact tags, ...); and shared tables that belong to no athlete.

Set-wise, in batches of athletes: per batch one SELECT per table on each side, then for each
athlete whose rows differ one DELETE per table and one executemany INSERT per table on the
destination. Ids are kept (an app that stored a fact id, `vault history ID`, every
`superseded_by` / `original_id` link stay valid), and the destination's sequences are moved past
every id the source ever handed out (`vault.storage.dialect.bump_sequences`). An athlete whose
rows are already equal is not touched, so a second run writes nothing.

The whole copy is one transaction on the destination: it arrives whole or not at all. Before
committing it is verified: the row counts of every athlete and a SHA-256 over every row of
every table (canonical text: times in UTC with microseconds, enums by value, floats by repr)
must be the same on both sides.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from enum import Enum
from typing import Any

from sqlalchemy import Column, Connection, Engine, Table, delete, func, insert, select

from vault.domain.errors import VaultError
from vault.storage.dialect import bump_sequences, last_ids
from vault.storage.tables import AthleteRow, Base

Row = tuple[Any, ...]
BATCH = 200  # athletes per round trip

athletes: Table = AthleteRow.__table__  # type: ignore[assignment]


class CopyError(VaultError):
    """The copy cannot start, or its verification failed (nothing was committed)."""


@dataclass(frozen=True)
class Layout:
    """How each table relates to athletes, in foreign-key order (parents first)."""

    tables: tuple[Table, ...]
    owner: dict[str, Column[Any]]  # owned table -> its column naming the athlete
    parent: dict[str, tuple[Column[Any], Table, Column[Any]]]  # child -> (fk, parent, parent key)
    shared: tuple[Table, ...]

    def per_athlete(self) -> list[Table]:
        return [t for t in self.tables if t.name in self.owner or t.name in self.parent]

    def owner_of(self, table: Table) -> Column[Any]:
        """The column holding the athlete, or (for a child) the parent's."""
        if table.name in self.owner:
            return self.owner[table.name]
        _fk, parent, _key = self.parent[table.name]
        return self.owner[parent.name]


def layout() -> Layout:
    owner: dict[str, Column[Any]] = {}
    parent: dict[str, tuple[Column[Any], Table, Column[Any]]] = {}
    tables = tuple(Base.metadata.sorted_tables)
    for table in tables:
        for fk in table.foreign_keys:
            if fk.column.table is athletes:
                owner[table.name] = fk.parent
    for table in tables:
        if table.name in owner or table is athletes:
            continue
        for fk in table.foreign_keys:
            if fk.column.table.name in owner:
                parent[table.name] = (fk.parent, fk.column.table, fk.column)
    shared = tuple(
        t for t in tables if t is not athletes and t.name not in owner and t.name not in parent
    )
    return Layout(tables, owner, parent, shared)


@dataclass
class CopyReport:
    athletes: int = 0
    changed: int = 0  # athletes whose rows were (re)written
    unchanged: int = 0
    shared_changed: list[str] = field(default_factory=list)
    rows: dict[str, int] = field(default_factory=dict)  # per table, equal on both sides
    checksum: str = ""


def copy_vault(
    source: Engine, destination: Engine, *, on_batch: Callable[[int], None] = lambda _n: None
) -> CopyReport:
    """Copy every athlete (and every shared table) of `source` into `destination`.

    Both must be at the newest schema. The destination must hold no athlete the source lacks.
    """
    plan = layout()
    with source.connect() as src, destination.connect() as dest:
        ids = list(src.execute(select(athletes.c.id).order_by(athletes.c.id)).scalars())
        extra = set(dest.execute(select(athletes.c.id)).scalars()) - set(ids)
        if extra:
            shown = ", ".join(sorted(extra)[:5])
            raise CopyError(
                f"the destination holds {len(extra)} athlete(s) the source does not ({shown}); "
                "copy into an empty vault or into an earlier copy of this one"
            )
        report = CopyReport(athletes=len(ids))
        for table in plan.shared:
            source_rows = _all_rows(src, table)
            if _canonical_rows(source_rows) != _canonical_rows(_all_rows(dest, table)):
                dest.execute(delete(table))
                _insert(dest, table, source_rows)
                report.shared_changed.append(table.name)
        for start in range(0, len(ids), BATCH):
            batch = ids[start : start + BATCH]
            wanted, have = _read(src, plan, batch), _read(dest, plan, batch)
            for athlete in batch:
                if all(
                    _canonical_rows(wanted[athlete][name]) == _canonical_rows(have[athlete][name])
                    for name in wanted[athlete]
                ):
                    report.unchanged += 1
                    continue
                _replace(dest, plan, athlete, wanted[athlete], exists=bool(have[athlete]["athletes"]))
                report.changed += 1
            on_batch(len(batch))
        if report.changed or report.shared_changed:  # ids the source handed out never come back
            bump_sequences(dest, last_ids(src, _with_ids(plan)))
        report.rows, report.checksum = verify(src, dest, plan)
        dest.commit()
    return report


def verify(src: Connection, dest: Connection, plan: Layout) -> tuple[dict[str, int], str]:
    """Totals per table and the checksum; CopyError unless both sides agree row for row."""
    mine, theirs = athlete_counts(src, plan), athlete_counts(dest, plan)
    if mine != theirs:
        differ = sorted(a for a in mine.keys() | theirs.keys() if mine.get(a) != theirs.get(a))
        raise CopyError(f"verification failed: row counts differ for {', '.join(differ[:5])}")
    checksum = vault_checksum(src, plan)
    if vault_checksum(dest, plan) != checksum:
        raise CopyError("verification failed: the destination's checksum differs from the source's")
    totals = {
        table.name: int(src.execute(select(func.count()).select_from(table)).scalar_one())
        for table in plan.tables
    }
    return totals, checksum


def athlete_counts(connection: Connection, plan: Layout) -> dict[str, dict[str, int]]:
    """athlete -> table -> rows (a child table's rows counted through their parents)."""
    counts: dict[str, dict[str, int]] = defaultdict(dict)
    for (athlete,) in connection.execute(select(athletes.c.id)):
        counts[athlete]["athletes"] = 1
    for table in plan.per_athlete():
        owner = plan.owner_of(table)
        statement = select(owner, func.count()).select_from(_joined(plan, table)).group_by(owner)
        for athlete, count in connection.execute(statement):
            counts[athlete][table.name] = int(count)
    return dict(counts)


def vault_checksum(connection: Connection, plan: Layout) -> str:
    """SHA-256 over every row of every table, in primary-key order, in canonical text."""
    digest = hashlib.sha256()
    for table in plan.tables:
        digest.update(f"\n#{table.name}\n".encode())
        ordered = select(table).order_by(*table.primary_key.columns)
        for row in connection.execution_options(yield_per=1000).execute(ordered):
            digest.update(_canonical(row).encode() + b"\n")
    return digest.hexdigest()


def _joined(plan: Layout, table: Table) -> Any:
    if table.name in plan.owner:
        return table
    fk, parent, key = plan.parent[table.name]
    return table.join(parent, key == fk)


def _read(connection: Connection, plan: Layout, batch: list[str]) -> dict[str, dict[str, list[Row]]]:
    """athlete -> table -> rows (every column, primary-key order) for a batch of athletes."""
    names = ["athletes", *(t.name for t in plan.per_athlete())]
    found: dict[str, dict[str, list[Row]]] = {a: {n: [] for n in names} for a in batch}
    for row in connection.execute(select(athletes).where(athletes.c.id.in_(batch))):
        found[row.id]["athletes"].append(tuple(row))
    for table in plan.per_athlete():
        owner = plan.owner_of(table)
        statement = (
            select(owner.label("vault_owner"), *table.c)
            .select_from(_joined(plan, table))
            .where(owner.in_(batch))
            .order_by(*table.primary_key.columns)
        )
        for athlete, *values in connection.execute(statement):
            found[athlete][table.name].append(tuple(values))
    return found


def _all_rows(connection: Connection, table: Table) -> list[Row]:
    return [tuple(r) for r in connection.execute(select(table).order_by(*table.primary_key.columns))]


def _replace(
    connection: Connection, plan: Layout, athlete: str, rows: dict[str, list[Row]], *, exists: bool
) -> None:
    """Make the athlete's destination rows exactly `rows` (ids included)."""
    for table in reversed(plan.per_athlete()):
        if table.name in plan.owner:
            connection.execute(delete(table).where(plan.owner[table.name] == athlete))
            continue
        fk, parent, key = plan.parent[table.name]
        owned = select(key).where(plan.owner[parent.name] == athlete)
        connection.execute(delete(table).where(fk.in_(owned)))
    [head] = rows["athletes"]
    values = dict(zip(athletes.c.keys(), head))
    if exists:
        changed = {k: v for k, v in values.items() if k != "id"}
        connection.execute(athletes.update().where(athletes.c.id == athlete).values(**changed))
    else:
        connection.execute(insert(athletes), [values])
    for table in plan.per_athlete():
        _insert(connection, table, rows[table.name])


def _insert(connection: Connection, table: Table, rows: list[Row]) -> None:
    if rows:
        connection.execute(insert(table), [dict(zip(table.c.keys(), row)) for row in rows])


def _with_ids(plan: Layout) -> list[Table]:
    """Tables whose integer `id` comes from a sequence."""
    return [
        t for t in plan.tables
        if "id" in t.c and t.c.id.primary_key and t.c.id.autoincrement in (True, "auto")
        and t.c.id.type.python_type is int
    ]  # fmt: skip


def _canonical_rows(rows: list[Row]) -> list[str]:
    return [_canonical(row) for row in rows]


def _canonical(row: Any) -> str:
    return json.dumps([_text(value) for value in row], ensure_ascii=False, default=str)


def _text(value: Any) -> Any:
    if isinstance(value, datetime):
        aware = value if value.tzinfo is not None else value.replace(tzinfo=timezone.utc)
        return aware.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, float):
        return repr(value)
    return value

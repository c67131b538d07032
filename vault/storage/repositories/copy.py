"""`vault copy`'s SQL: the schema's tables by how they relate to athletes, and the reads and
writes that move rows between two vaults (either backend), each on a Connection it is given.

The tables come from the schema itself (`vault.storage.tables.metadata`), so a table added
later is copied too: `athletes`; the tables whose rows belong to an athlete (a foreign key to
`athletes.id`: facts, patterns, notes, archive, forget log, ...); their child tables (a
foreign key to one of those: fact tags, ...); and shared tables that belong to no athlete.
Rows are plain tuples in the table's column order; ids are kept. What to copy, when, and how
the result is verified is decided by `vault.services.copy`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Column, Connection, Table, delete, func, insert, select

from vault.storage import erasure_tables  # noqa: F401 - its tables are copied too
from vault.storage.dialect import bump_sequences, last_ids
from vault.storage.tables import TENANT_COLUMNS, athletes_table, metadata

Row = tuple[Any, ...]

athletes = athletes_table


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
    tables = tuple(metadata.sorted_tables)
    for table in tables:
        for fk in table.foreign_keys:
            if fk.column.table is athletes:
                owner[table.name] = fk.parent
        tenant = next((table.c[c] for c in TENANT_COLUMNS if c in table.c), None)
        if table is not athletes and tenant is not None:
            owner[table.name] = tenant  # revision 0013: child tables carry the athlete too
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


# -- reads
def athlete_ids(connection: Connection) -> list[str]:
    """Every athlete id, in order."""
    return list(connection.execute(select(athletes.c.id).order_by(athletes.c.id)).scalars())


def all_rows(connection: Connection, table: Table) -> list[Row]:
    """Every row of `table`, in primary-key order."""
    return [
        tuple(r) for r in connection.execute(select(table).order_by(*table.primary_key.columns))
    ]


def stream_rows(connection: Connection, table: Table) -> Iterator[Any]:
    """Every row of `table` in primary-key order, fetched 1000 at a time."""
    ordered = select(table).order_by(*table.primary_key.columns)
    yield from connection.execution_options(yield_per=1000).execute(ordered)


def read_batch(
    connection: Connection, plan: Layout, batch: list[str]
) -> dict[str, dict[str, list[Row]]]:
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


def table_totals(connection: Connection, plan: Layout) -> dict[str, int]:
    """Rows per table."""
    return {
        table.name: int(connection.execute(select(func.count()).select_from(table)).scalar_one())
        for table in plan.tables
    }


def _joined(plan: Layout, table: Table) -> Any:
    if table.name in plan.owner:
        return table
    fk, parent, key = plan.parent[table.name]
    return table.join(parent, key == fk)


# -- writes
def replace_table(connection: Connection, table: Table, rows: list[Row]) -> None:
    """Make a shared table hold exactly `rows`."""
    connection.execute(delete(table))
    insert_rows(connection, table, rows)


def replace_athlete(
    connection: Connection, plan: Layout, athlete: str, rows: dict[str, list[Row]], *, exists: bool
) -> None:
    """Make the athlete's rows exactly `rows` (ids included)."""
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
        insert_rows(connection, table, rows[table.name])


def insert_rows(connection: Connection, table: Table, rows: list[Row]) -> None:
    if rows:
        connection.execute(insert(table), [dict(zip(table.c.keys(), row)) for row in rows])


def bump_past(destination: Connection, source: Connection, plan: Layout) -> None:
    """Move the destination's sequences past every id the source ever handed out."""
    bump_sequences(destination, last_ids(source, _with_ids(plan)))


def _with_ids(plan: Layout) -> list[Table]:
    """Tables whose integer `id` comes from a sequence."""
    return [
        t
        for t in plan.tables
        if "id" in t.c
        and t.c.id.primary_key
        and t.c.id.autoincrement in (True, "auto")
        and t.c.id.type.python_type is int
    ]

"""Everything that differs between SQLite and PostgreSQL, in one place.

| concern | SQLite | PostgreSQL |
|---|---|---|
| upsert | `INSERT ... ON CONFLICT DO UPDATE` (sqlite dialect) | the same (postgresql dialect) |
| write lock | `BEGIN IMMEDIATE`: one writer per file (engine.py) | the athlete's row lock (`ensure_athlete`, `lock_athlete`, `lock_due_athletes`) |
| timestamps | canonical UTC text (`vault.storage.types`) | `timestamptz` |
| sequence bumps | `sqlite_sequence` (`last_ids`, `bump_sequences`) | `setval` on the serial sequence (same functions) |
| secure deletion | `secure_delete` pragma (engine.py) + WAL checkpoint with busy retries (`vault.services.health.truncate_wal`) | nothing to do here: dead tuples go with (auto)vacuum |
| read-only sessions | `mode=ro` + `query_only` (engine.py); `vault sql`'s firewall is `vault.storage.sql_firewall` | `default_transaction_read_only` (below); the firewall module |

The SQLite connection pragmas themselves stay in `vault.storage.engine` (every SQLite connection
is configured there, once); frozen migration revisions keep their own checks (they import
nothing from vault).
"""

from __future__ import annotations

import functools
from typing import Any

from sqlalchemy import Connection, Engine, Table, bindparam, select
from sqlalchemy.dialects import sqlite

from vault.domain.errors import VaultError
from vault.storage.hot_statements import HotStatement
from vault.storage.tables import athletes_table

_athletes = athletes_table

SQLITE = "sqlite"
POSTGRESQL = "postgresql"
SUPPORTED = (SQLITE, POSTGRESQL)
# The driver each backend uses when a URL names none (`postgresql://` would mean psycopg2).
DRIVERS = {SQLITE: "pysqlite", POSTGRESQL: "psycopg"}
EXTRAS = {POSTGRESQL: "postgres"}  # pip install 'vault[postgres]'


def is_sqlite(bind: Connection | Engine) -> bool:
    """True for a SQLite database, False for PostgreSQL."""
    return bind.dialect.name == SQLITE


def has_fts5(bind: Connection | Engine) -> bool:
    """Full text through FTS5 (`episodes_fts`, revision 0005): SQLite. PostgreSQL searches the
    `search` tsvector instead."""
    return is_sqlite(bind)


def locks_rows(bind: Connection | Engine) -> bool:
    """True where writers of different athletes run at once and must lock rows (PostgreSQL).

    SQLite's write transactions begin with BEGIN IMMEDIATE: the whole file is locked already.
    """
    return not is_sqlite(bind)


# -- upsert and per-athlete locks
@functools.cache
def _ensure_athlete(dialect: str) -> Any:
    insert: Any
    if dialect == POSTGRESQL:  # imported here: a SQLite-only process never loads it (start-up)
        from sqlalchemy.dialects import postgresql

        insert = postgresql.insert(_athletes)
    else:
        insert = sqlite.insert(_athletes)
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
    params = {"id": athlete_id, "created_at": now, "updated_at": now}
    if is_sqlite(connection):
        _ENSURE_ON_SQLITE.run(connection, [params])
    else:
        connection.execute(_ensure_athlete(connection.dialect.name), params)


_ENSURE_ON_SQLITE = HotStatement(
    _ensure_athlete(SQLITE), columns=("id", "created_at", "updated_at")
)
_SELECT_ATHLETE = select(_athletes.c.id).where(_athletes.c.id == bindparam("athlete"))
_LOCK_ATHLETE = _SELECT_ATHLETE.with_for_update()


def lock_athlete(connection: Connection, athlete_id: str) -> bool:
    """Take an existing athlete's lock (SELECT ... FOR UPDATE); False when there is none.

    For writes that must not create the athlete (delete, forget): after this returns True,
    no other transaction changes the athlete's rows until ours ends.
    """
    statement = _LOCK_ATHLETE if locks_rows(connection) else _SELECT_ATHLETE
    return connection.execute(statement, {"athlete": athlete_id}).first() is not None


def snapshot_options(bind: Connection | Engine) -> dict[str, Any]:
    """Execution options of a read transaction that sees one snapshot from its first statement
    to its last. PostgreSQL's default READ COMMITTED sees each statement's own snapshot, so a
    reader of many statements (a copy, its verification) is given REPEATABLE READ, read-only.
    SQLite: every read already runs in one BEGIN ... transaction (engine.py), one snapshot."""
    if is_sqlite(bind):
        return {}
    return {"isolation_level": "REPEATABLE READ", "postgresql_readonly": True}


# -- sequences
def last_ids(connection: Connection, tables: list[Table]) -> dict[str, int]:
    """The last id each table's sequence handed out (0 when none): ids of deleted rows count,
    since the archive may still refer to them."""
    found: dict[str, int] = {}
    for table in tables:
        if connection.dialect.name == POSTGRESQL:
            row = connection.exec_driver_sql(
                f"SELECT last_value, is_called FROM {_sequence_of(connection, table)}"
            ).one()
            value = int(row[0]) if row[1] else int(row[0]) - 1
        else:
            value = (
                connection.exec_driver_sql(
                    "SELECT seq FROM sqlite_sequence WHERE name = ?", (table.name,)
                ).scalar()
                or 0
            )
        biggest = connection.exec_driver_sql(f"SELECT MAX(id) FROM {table.name}").scalar() or 0
        found[table.name] = max(int(value), int(biggest))
    return found


def bump_sequences(connection: Connection, at_least: dict[str, int]) -> None:
    """After rows were inserted with explicit ids: the next id of each table comes after both
    its largest id and `at_least[table]` (the source's last id, when copying a vault)."""
    for name, value in at_least.items():
        biggest = connection.exec_driver_sql(f"SELECT MAX(id) FROM {name}").scalar() or 0
        target = max(int(value), int(biggest))
        if target <= 0:
            continue
        if connection.dialect.name == POSTGRESQL:
            sequence = connection.exec_driver_sql(
                f"SELECT pg_get_serial_sequence('{name}', 'id')"
            ).scalar()
            connection.exec_driver_sql(f"SELECT setval('{sequence}', {target}, true)")
            continue
        updated = connection.exec_driver_sql(
            "UPDATE sqlite_sequence SET seq = MAX(seq, ?) WHERE name = ?", (target, name)
        )
        if not updated.rowcount:
            connection.exec_driver_sql(
                "INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", (name, target)
            )


def _sequence_of(connection: Connection, table: Table) -> str:
    return str(
        connection.exec_driver_sql(f"SELECT pg_get_serial_sequence('{table.name}', 'id')").scalar()
    )


# -- secure deletion
def engine_options(backend: str, *, read_only: bool) -> dict[str, Any]:
    """create_engine() keyword arguments of a non-SQLite backend."""
    if backend == POSTGRESQL and read_only:
        # every transaction of this engine is READ ONLY unless it says otherwise
        return {"connect_args": {"options": "-c default_transaction_read_only=on"}}
    return {}


def unsupported(backend: str) -> VaultError:
    return VaultError(
        f"vault cannot store memory in {backend!r} databases; "
        "use a SQLite file or a postgresql:// URL"
    )


def missing_driver(backend: str, module: str | None) -> VaultError:
    extra = EXTRAS.get(backend, backend)
    what = f" ({module})" if module else ""
    return VaultError(f"the {backend} driver{what} is not installed: pip install 'vault[{extra}]'")


def runs_rule_in_sql(connection: Connection) -> bool:
    """Whether bulk rules run inside SQL as Python functions (SQLite's in-process driver) rather
    than row batches through the client (PostgreSQL, where batches take row locks)."""
    return is_sqlite(connection)

"""Everything that differs between SQLite and PostgreSQL, in one place.

| concern | SQLite | PostgreSQL |
|---|---|---|
| upsert | `INSERT ... ON CONFLICT DO UPDATE` (sqlite dialect) | the same (postgresql dialect) |
| write lock | `BEGIN IMMEDIATE`: one writer per file (engine.py) | the athlete's row lock (`ensure_athlete`, `lock_athlete`, `lock_due_athletes`) |
| timestamps | canonical UTC text (`vault.storage.types`) | `timestamptz` |
| sequence bumps | `sqlite_sequence` (`last_ids`, `bump_sequences`) | `setval` on the serial sequence (same functions) |
| secure deletion | `secure_delete` pragma (engine.py) + WAL checkpoint with busy retries (`vault.services.health.truncate_wal`) | nothing to do here: dead tuples go with (auto)vacuum |
| read-only sessions | `mode=ro` + `query_only` (engine.py), authorizer, progress-handler deadline | `default_transaction_read_only`, `SET TRANSACTION READ ONLY`, `statement_timeout` |

The SQLite connection pragmas themselves stay in `vault.storage.engine` (every SQLite connection
is configured there, once); frozen migration revisions keep their own checks (they import
nothing from vault).
"""

from __future__ import annotations

import functools
import logging
import signal
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, Engine, Table, bindparam, select
from sqlalchemy.dialects import sqlite

from vault.domain.errors import VaultError
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
    connection.execute(
        _ensure_athlete(connection.dialect.name),
        {"id": athlete_id, "created_at": now, "updated_at": now},
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
            value = connection.exec_driver_sql(
                "SELECT seq FROM sqlite_sequence WHERE name = ?", (table.name,)
            ).scalar() or 0
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
    return str(connection.exec_driver_sql(
        f"SELECT pg_get_serial_sequence('{table.name}', 'id')"
    ).scalar())  # fmt: skip


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
    return VaultError(
        f"the {backend} driver{what} is not installed: pip install 'vault[{extra}]'"
    )


# -- read-only queries (`vault sql`)
class QueryRefused(VaultError):
    """`vault sql` accepts exactly one query (no writes, no DDL, no side effects)."""


class QueryTimeout(VaultError):
    """The query ran past its deadline and was cancelled."""


_LOG = logging.getLogger("sqlglot")
# Functions a query may not call: they change server state, reach outside the database, or run
# SQL given as text (which the check below could not see). A few read-only pg_ helpers stay.
_DENIED_PREFIXES = ("pg_", "lo_", "dblink", "binary_upgrade_")
_DENIED = frozenset({
    "set_config", "nextval", "setval", "currval", "lastval", "txid_current",
    "query_to_xml", "query_to_xmlschema", "query_to_xml_and_xmlschema",
    "cursor_to_xml", "cursor_to_xmlschema", "table_to_xml", "table_to_xmlschema",
    "table_to_xml_and_xmlschema", "schema_to_xml", "schema_to_xmlschema",
    "schema_to_xml_and_xmlschema", "database_to_xml", "database_to_xmlschema",
    "database_to_xml_and_xmlschema", "ts_stat", "ts_rewrite", "load_extension",
    "readfile", "writefile", "edit", "fts3_tokenizer", "fts5", "sqlite_compileoption_get",
})  # fmt: skip
_ALLOWED_PG = frozenset({
    "pg_typeof", "pg_size_pretty", "pg_column_size", "pg_relation_size", "pg_table_size",
    "pg_total_relation_size", "pg_indexes_size", "pg_get_viewdef",
})  # fmt: skip


def check_query(query: str, backend: str) -> bool:
    """Raise QueryRefused unless `query` is one statement that only reads; True for EXPLAIN.

    Decided by sqlglot's parse tree, not by patterns: exactly one statement; a SELECT (with or
    without WITH), a set operation, VALUES, or EXPLAIN of one of those; no data-modifying
    CTE, SELECT INTO or FOR UPDATE anywhere; no function with side effects.
    """
    import sqlglot
    from sqlglot import exp
    from sqlglot.errors import SqlglotError

    read = "postgres" if backend == POSTGRESQL else "sqlite"
    level = _LOG.level
    _LOG.setLevel(logging.ERROR)  # sqlglot warns on syntax it falls back on
    try:
        statements = [s for s in sqlglot.parse(query, read=read) if s is not None]
        explain = False
        if len(statements) == 1 and isinstance(statements[0], exp.Command):
            inner = _explained(statements[0], read)
            explain = inner is not None
            if inner is not None:
                statements = [s for s in sqlglot.parse(inner, read=read) if s is not None]
    except SqlglotError as error:
        first = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise QueryRefused(f"refused: cannot parse the query ({first})") from None
    finally:
        _LOG.setLevel(level)
    if not statements:
        raise QueryRefused("refused: no statement to run")
    if len(statements) > 1:
        raise QueryRefused(
            f"refused: {len(statements)} statements; `vault sql` runs exactly one query (readonly)"
        )
    root = statements[0]
    readable = (exp.Select, exp.SetOperation, exp.Values, exp.Subquery)
    if not isinstance(root, readable):
        raise QueryRefused(
            f"refused: {_verb(root)} is not a query; `vault sql` is readonly "
            "(SELECT, WITH ... SELECT, VALUES, EXPLAIN)"
        )
    forbidden = (
        exp.Insert, exp.Update, exp.Delete, exp.Merge, exp.Create, exp.Drop, exp.Alter,
        exp.Command, exp.Copy, exp.Into, exp.Lock, exp.Pragma, exp.Attach, exp.Detach,
        exp.Set, exp.Transaction, exp.Commit, exp.Rollback, exp.TruncateTable, exp.Grant,
    )  # fmt: skip
    for node in root.walk():
        if isinstance(node, forbidden):
            raise QueryRefused(
                f"refused: the query contains {_verb(node)}; `vault sql` is readonly"
            )
        if isinstance(node, exp.Func):
            name = (node.name if isinstance(node, exp.Anonymous) else node.sql_name()).lower()
            if _denied(name):
                raise QueryRefused(
                    f"refused: function {name}() may change the server or run other SQL; "
                    "`vault sql` is readonly"
                )
    return explain


def _denied(name: str) -> bool:
    if name in _ALLOWED_PG:
        return False
    return name in _DENIED or name.startswith(_DENIED_PREFIXES)


def _verb(node: Any) -> str:
    return str(getattr(node, "key", type(node).__name__)).upper()


def _explained(command: Any, read: str) -> str | None:
    """The statement after EXPLAIN and its options, or None when `command` is no EXPLAIN.

    sqlglot keeps EXPLAIN as a command holding the rest as text: tokenize that, skip the options
    (`ANALYZE`, `VERBOSE`, `( ... )` on PostgreSQL; `QUERY PLAN` on SQLite), parse what follows.
    """
    import sqlglot

    if str(command.this).upper() != "EXPLAIN" or command.expression is None:
        return None
    rest = str(command.expression.name)
    options = {"ANALYZE", "ANALYSE", "VERBOSE", "QUERY", "PLAN"}
    depth = 0
    for token in sqlglot.tokenize(rest, read=read):
        word = token.text.upper()
        if word == "(" and (depth or (read == "postgres" and token.start == _first_start(rest))):
            depth += 1
        elif word == ")" and depth:
            depth -= 1
        elif depth == 0 and word not in options:
            return rest[token.start :]
    return ""


def _first_start(text: str) -> int:
    return len(text) - len(text.lstrip())


_SQLITE_READS = frozenset({
    sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION,
    getattr(sqlite3, "SQLITE_RECURSIVE", 33),
})  # fmt: skip


def _sqlite_authorizer(action: int, arg1: Any, *_: Any) -> int:
    """Allow reading tables and calling functions; deny ATTACH, PRAGMA and every write."""
    if action == sqlite3.SQLITE_FUNCTION and str(arg1).lower() in _DENIED:
        return sqlite3.SQLITE_DENY
    return sqlite3.SQLITE_OK if action in _SQLITE_READS else sqlite3.SQLITE_DENY


@contextmanager
def read_only_query(connection: Connection, timeout: float, *, stream: bool = True) -> Iterator[Any]:
    """A DBAPI cursor in a read-only transaction that is cancelled after `timeout` seconds.

    PostgreSQL: `SET TRANSACTION READ ONLY` and a transaction-local `statement_timeout`
    (psycopg cancels the query on Ctrl-C); with `stream` the rows come through a server-side
    cursor, so a huge result never sits in memory (EXPLAIN cannot be declared as a cursor). SQLite: the file is already open `mode=ro`; an
    authorizer denies everything but reads, and a progress handler aborts the statement at the
    deadline or on Ctrl-C. The statement is run unparsed by SQLAlchemy (no `:name` binds).
    Raises QueryTimeout; the transaction is always rolled back.
    """
    raw = connection.connection.dbapi_connection
    assert raw is not None
    if connection.dialect.name == POSTGRESQL:
        connection.exec_driver_sql("SET TRANSACTION READ ONLY")
        connection.exec_driver_sql(f"SET LOCAL statement_timeout = {max(1, int(timeout * 1000))}")
        cursor = raw.cursor(name="vault_sql") if stream else raw.cursor()
        try:
            yield cursor
        except Exception as error:
            if type(error).__name__ == "QueryCanceled":
                raise QueryTimeout(f"the query ran past --timeout {timeout:g}s and was cancelled") from None
            raise
        finally:
            _close_quietly(cursor)
        return
    state = {"interrupted": False, "deadline": time.monotonic() + timeout}

    def progress() -> int:
        return int(state["interrupted"] or time.monotonic() > state["deadline"])

    def on_sigint(_signum: int, _frame: Any) -> None:
        state["interrupted"] = True

    previous = _install_sigint(on_sigint)
    raw.set_authorizer(_sqlite_authorizer)
    raw.set_progress_handler(progress, 10_000)
    cursor = raw.cursor()
    try:
        yield cursor
    except sqlite3.OperationalError as error:
        if state["interrupted"]:
            raise KeyboardInterrupt from None
        if "interrupted" in str(error):
            raise QueryTimeout(f"the query ran past --timeout {timeout:g}s and was cancelled") from None
        raise
    finally:
        _close_quietly(cursor)
        raw.set_progress_handler(None, 0)
        raw.set_authorizer(None)
        _restore_sigint(previous)


def _close_quietly(cursor: Any) -> None:
    try:
        cursor.close()
    except Exception:  # a cancelled named cursor may already be gone
        pass


def _install_sigint(handler: Any) -> Any:
    try:
        return signal.signal(signal.SIGINT, handler)
    except ValueError:  # not the main thread: Ctrl-C is not ours to handle
        return None


def _restore_sigint(previous: Any) -> None:
    if previous is not None:
        signal.signal(signal.SIGINT, previous)


def runs_rule_in_sql(connection: Connection) -> bool:
    """Whether bulk rules run inside SQL as Python functions (SQLite's in-process driver) rather
    than row batches through the client (PostgreSQL, where batches take row locks)."""
    return is_sqlite(connection)

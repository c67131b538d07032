"""`vault sql`'s firewall: one analyst query that only reads, bounded in time and in size.

Three walls, each enough on its own for what it covers:
1. `check_query` parses the query (sqlglot) and refuses anything but one read: writes, DDL,
   data-modifying CTEs, SELECT INTO, FOR UPDATE, and functions with side effects.
2. The connection itself only reads. SQLite: the file is open `mode=ro`, and an authorizer
   allows reads and function calls but denies every write, PRAGMA, ATTACH and the functions of
   the deny-list (SQLite passes a function's name in the authorizer's *second* argument).
   PostgreSQL: `SET TRANSACTION READ ONLY` (and the engine's `default_transaction_read_only`).
3. Limits over the whole run, fetching included. Time: SQLite's progress handler checks one
   deadline from the first step to the last row; on PostgreSQL every statement of the run (the
   query, then each FETCH of its server-side cursor) gets the time that is LEFT as its
   `statement_timeout`, and the transaction may sit idle no longer than that either, so a
   streamed query cannot outlive `--timeout` however its rows are fetched. Size: SQLite refuses
   any single value larger than `MAX_VALUE_BYTES` (`SQLITE_LIMIT_LENGTH`: `randomblob(1e9)`
   fails before it allocates), and on both backends the rows handed to the caller stop with
   QueryTooLarge once they hold more than `max_bytes`.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection

from vault.domain.errors import VaultError
from vault.storage.dialect import POSTGRESQL

FETCH_ROWS = 500  # rows per fetch (a server-side cursor on PostgreSQL)
MAX_VALUE_BYTES = 16 * 1024 * 1024  # the largest single value a query may build (SQLite)
MAX_RESULT_BYTES = 256 * 1024 * 1024  # default cap on the bytes of the rows returned


class QueryRefused(VaultError):
    """`vault sql` accepts exactly one query (no writes, no DDL, no side effects)."""


class QueryTimeout(VaultError):
    """The query ran past its deadline and was cancelled."""


class QueryTooLarge(VaultError):
    """The query built a value or a result larger than its size limit."""


_LOG = logging.getLogger("sqlglot")
# Functions a query may not call: they change server state, reach outside the database, or run
# SQL given as text (which the check below could not see). A few read-only pg_ helpers stay.
_DENIED_PREFIXES = ("pg_", "lo_", "dblink", "binary_upgrade_")
_DENIED = frozenset(
    {
        "set_config",
        "nextval",
        "setval",
        "currval",
        "lastval",
        "txid_current",
        "query_to_xml",
        "query_to_xmlschema",
        "query_to_xml_and_xmlschema",
        "cursor_to_xml",
        "cursor_to_xmlschema",
        "table_to_xml",
        "table_to_xmlschema",
        "table_to_xml_and_xmlschema",
        "schema_to_xml",
        "schema_to_xmlschema",
        "schema_to_xml_and_xmlschema",
        "database_to_xml",
        "database_to_xmlschema",
        "database_to_xml_and_xmlschema",
        "ts_stat",
        "ts_rewrite",
        "load_extension",
        "readfile",
        "writefile",
        "edit",
        "fts3_tokenizer",
        "fts5",
        "sqlite_compileoption_get",
    }
)
_ALLOWED_PG = frozenset(
    {
        "pg_typeof",
        "pg_size_pretty",
        "pg_column_size",
        "pg_relation_size",
        "pg_table_size",
        "pg_total_relation_size",
        "pg_indexes_size",
        "pg_get_viewdef",
    }
)


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
        exp.Insert,
        exp.Update,
        exp.Delete,
        exp.Merge,
        exp.Create,
        exp.Drop,
        exp.Alter,
        exp.Command,
        exp.Copy,
        exp.Into,
        exp.Lock,
        exp.Pragma,
        exp.Attach,
        exp.Detach,
        exp.Set,
        exp.Transaction,
        exp.Commit,
        exp.Rollback,
        exp.TruncateTable,
        exp.Grant,
    )
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


_SQLITE_READS = frozenset(
    {
        sqlite3.SQLITE_SELECT,
        sqlite3.SQLITE_READ,
        sqlite3.SQLITE_FUNCTION,
        getattr(sqlite3, "SQLITE_RECURSIVE", 33),
    }
)


def sqlite_authorizer(action: int, arg1: Any, arg2: Any, *_: Any) -> int:
    """Allow reading tables and calling functions outside the deny-list; deny the rest.

    For SQLITE_FUNCTION SQLite passes None as `arg1` and the function's name as `arg2`.
    """
    if action == sqlite3.SQLITE_FUNCTION:
        return sqlite3.SQLITE_DENY if _denied(str(arg2).lower()) else sqlite3.SQLITE_OK
    return sqlite3.SQLITE_OK if action in _SQLITE_READS else sqlite3.SQLITE_DENY


def _timeout_error(timeout: float) -> QueryTimeout:
    return QueryTimeout(f"the query ran past --timeout {timeout:g}s and was cancelled")


def _size_error(limit: int) -> QueryTooLarge:
    return QueryTooLarge(
        f"the result is larger than the {_megabytes(limit)} limit; select fewer rows or columns "
        "(--limit) or raise --max-mb"
    )


def _megabytes(size: int) -> str:
    return f"{size / 1024 / 1024:g} MB"


class GuardedCursor:
    """A DBAPI cursor whose rows are fetched within one deadline and one size budget."""

    def __init__(
        self, cursor: Any, *, timeout: float, max_bytes: int, before_fetch: Callable[[float], None]
    ) -> None:
        self._cursor = cursor
        self._timeout = timeout
        self._deadline = time.monotonic() + timeout
        self._max_bytes = max_bytes
        self._before_fetch = before_fetch

    @property
    def description(self) -> Any:
        return self._cursor.description

    def left(self) -> float:
        """Seconds left before the deadline; QueryTimeout when none are."""
        left = self._deadline - time.monotonic()
        if left <= 0:
            raise _timeout_error(self._timeout)
        return left

    def execute(self, query: str) -> None:
        self._before_fetch(self.left())
        self._cursor.execute(query)

    def rows(self, limit: int | None = None) -> Iterator[tuple[Any, ...]]:
        """The result's rows in fetches of FETCH_ROWS, up to `limit`; QueryTimeout past the
        deadline, QueryTooLarge past the size budget (counted over the whole result)."""
        left, used = limit, 0
        while left is None or left > 0:
            self._before_fetch(self.left())
            chunk = self._cursor.fetchmany(FETCH_ROWS if left is None else min(FETCH_ROWS, left))
            if not chunk:
                return
            if left is not None:
                left -= len(chunk)
            for row in chunk:
                used += _row_bytes(row)
                if used > self._max_bytes:
                    raise _size_error(self._max_bytes)
                yield tuple(row)


def _row_bytes(row: Any) -> int:
    size = 0
    for value in row:
        if isinstance(value, (str, bytes, bytearray, memoryview)):
            size += len(value)
        else:
            size += 8 if value is None or isinstance(value, (int, float)) else len(str(value))
    return size


@contextmanager
def read_only_query(
    connection: Connection,
    timeout: float,
    *,
    stream: bool = True,
    max_bytes: int = MAX_RESULT_BYTES,
) -> Iterator[GuardedCursor]:
    """A guarded cursor in a read-only transaction, bounded by `timeout` seconds over the whole
    run and by `max_bytes` of result (see the module's docstring for how, per backend).

    With `stream` (PostgreSQL) the rows come through a server-side cursor, so a huge result
    never sits in memory (EXPLAIN cannot be declared as a cursor). The statement is run
    unparsed by SQLAlchemy (no `:name` binds). Raises QueryTimeout or QueryTooLarge; the
    transaction is always rolled back by the caller's connection.
    """
    raw = connection.connection.dbapi_connection
    assert raw is not None
    if connection.dialect.name == POSTGRESQL:
        with _postgresql_cursor(connection, raw, timeout, stream, max_bytes) as guarded:
            yield guarded
        return
    with _sqlite_cursor(raw, timeout, max_bytes) as guarded:
        yield guarded


@contextmanager
def _postgresql_cursor(
    connection: Connection, raw: Any, timeout: float, stream: bool, max_bytes: int
) -> Iterator[GuardedCursor]:
    connection.exec_driver_sql("SET TRANSACTION READ ONLY")

    def budget(left: float) -> None:  # each statement of the run gets only the time left
        _set_timeouts(raw, max(_MIN_STATEMENT_MS, int(left * 1000)))

    cursor = raw.cursor(name="vault_sql") if stream else raw.cursor()
    try:
        yield GuardedCursor(cursor, timeout=timeout, max_bytes=max_bytes, before_fetch=budget)
    except Exception as error:
        if type(error).__name__ == "QueryCanceled" or "idle-in-transaction" in str(error):
            raise _timeout_error(timeout) from None
        raise
    finally:
        try:  # closing the cursor and rolling back must not inherit the last, tiny budget
            _set_timeouts(raw, 0)
        except Exception:  # an aborted transaction refuses SET; its ROLLBACK is instant
            pass
        _close_quietly(cursor)


_MIN_STATEMENT_MS = 20  # a statement started just before the deadline may overrun it by this much


def _set_timeouts(raw: Any, milliseconds: int) -> None:
    setting = raw.cursor()
    try:
        setting.execute(f"SET LOCAL statement_timeout = {int(milliseconds)}")
        setting.execute(f"SET LOCAL idle_in_transaction_session_timeout = {int(milliseconds)}")
    finally:
        setting.close()


@contextmanager
def _sqlite_cursor(raw: Any, timeout: float, max_bytes: int) -> Iterator[GuardedCursor]:
    # Ctrl-C stays the application's: its SIGINT handler runs inside this progress handler (the
    # Python code SQLite calls every 10,000 steps); when it raises, SQLite aborts the query
    # with "interrupted" and the sqlite3 module drops the exception, so an interruption before
    # the deadline is reported as the KeyboardInterrupt it was.
    deadline = time.monotonic() + timeout

    def progress() -> int:
        return int(time.monotonic() > deadline)

    raw.set_authorizer(sqlite_authorizer)
    raw.set_progress_handler(progress, 10_000)
    length = raw.getlimit(sqlite3.SQLITE_LIMIT_LENGTH)
    raw.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, min(length, MAX_VALUE_BYTES, max_bytes))
    cursor = raw.cursor()
    try:
        yield GuardedCursor(cursor, timeout=timeout, max_bytes=max_bytes, before_fetch=_no_op)
    except sqlite3.DataError as error:
        if "too big" in str(error):
            raise _size_error(min(MAX_VALUE_BYTES, max_bytes)) from None
        raise
    except sqlite3.OperationalError as error:
        if "interrupted" in str(error):
            if time.monotonic() <= deadline:
                raise KeyboardInterrupt from None
            raise _timeout_error(timeout) from None
        if "too big" in str(error):
            raise _size_error(min(MAX_VALUE_BYTES, max_bytes)) from None
        raise
    finally:
        _close_quietly(cursor)
        raw.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, length)
        raw.set_progress_handler(None, 0)
        raw.set_authorizer(None)


def _no_op(_left: float) -> None:
    """SQLite's deadline is the progress handler's, checked inside every step."""


def _close_quietly(cursor: Any) -> None:
    try:
        cursor.close()
    except Exception:  # a cancelled named cursor may already be gone
        pass

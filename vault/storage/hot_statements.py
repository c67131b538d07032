"""The statements every merge sends, run on SQLite's own connection.

A merge is a handful of small statements (the athlete's row, the active set, the new rows and
their evidence). SQLite runs each in 1-10 µs; SQLAlchemy Core spent 15-25 µs more on every one
of them (the compiled-cache lookup, parameter processing, event dispatch, the result object),
a large share of a merge's cost against a minimal `sqlite3` merge (BENCHMARKS.md, "the merge's
statements on the driver"). A `HotStatement` is still built with Core, the one spelling of its
SQL, and compiled once for SQLite. On SQLite (Python's `sqlite3`) it is sent to the driver's
connection with the parameters in the compiled order, each through the bind processor Core
itself uses for its column's type (a time as canonical text, an enum as its checked value);
a connection with no transaction begun begins one first, as Core's autobegin would. On
PostgreSQL it runs through Core like every other statement, so routing, row locks and types
are unchanged there.

Rows come back as the driver returns them, so a statement reads converted columns with
`as_stored` on both backends. An error is raised as SQLAlchemy raises it
(`DBAPIError.instance`: a busy file is an `OperationalError`, a constraint an `IntegrityError`,
a value a processor refuses a `StatementError`), so the unit of work maps it to the same
`VaultError`. What the driver path gives up: SQLAlchemy's `before_cursor_execute` events and
`echo` logging do not see these statements (sqlite3's trace callback does).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any, cast

from sqlalchemy import BindParameter, Connection, exc
from sqlalchemy.dialects import sqlite
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.expression import ClauseElement, Executable
from sqlalchemy.types import NullType

_SQLITE = sqlite.dialect()
_DRIVER = "pysqlite"  # Python's sqlite3, whose errors this module turns into SQLAlchemy's


class HotStatement:
    """One Core statement, compiled once for SQLite's driver.

    `columns` names the parameters of an INSERT (Core compiles an INSERT for the columns it is
    given). Every parameter set must hold exactly the statement's names: the driver would leave
    an extra one out where Core would insert it, so other names are a ValueError. A statement
    the driver cannot run as compiled (an expanding IN, a parameter without a type or with a
    value of its own) is refused when it is built.
    """

    def __init__(self, statement: ClauseElement, *, columns: Sequence[str] | None = None) -> None:
        keys = list(columns) if columns is not None else None
        compiled = cast(SQLCompiler, statement.compile(dialect=_SQLITE, column_keys=keys))
        self._core = cast(Executable, statement)
        self.sql: str = compiled.string
        self._names: tuple[str, ...] = tuple(compiled.positiontup or ())
        self._keys = frozenset(self._names)
        self._returns = bool(compiled.effective_returning)
        binds = [compiled.binds[name] for name in self._names]
        for bind in binds:
            _refuse_unbindable(bind, self.sql)
        # the positions whose values Core's processor for their type changes, and the processor
        self._processed = tuple(
            (position, process)
            for position, bind in enumerate(binds)
            if (process := bind.type.dialect_impl(_SQLITE).bind_processor(_SQLITE)) is not None
        )

    def rows(self, connection: Connection, params: Mapping[str, Any]) -> list[tuple[Any, ...]]:
        """The rows of a query (or of DML with RETURNING) for one parameter set."""
        self._check(params)
        driver = _driver(connection)
        if driver is None:
            return [tuple(row) for row in connection.execute(self._core, dict(params))]
        values = self._values(params)
        try:
            return cast(list[tuple[Any, ...]], driver.execute(self.sql, values).fetchall())
        except sqlite3.Error as error:
            raise driver_error(self.sql, tuple(values), error) from error

    def run(self, connection: Connection, params: Sequence[Mapping[str, Any]]) -> None:
        """DML without results, once per parameter set (one executemany)."""
        if self._returns:
            raise ValueError(f"a statement with RETURNING has rows: use rows(); {self.sql}")
        if not params:
            return
        for one in params:
            self._check(one)
        driver = _driver(connection)
        if driver is None:
            connection.execute(self._core, [dict(p) for p in params])
            return
        values = [tuple(self._values(p)) for p in params]
        try:
            driver.executemany(self.sql, values)
        except sqlite3.Error as error:
            raise driver_error(
                self.sql, values[0] if len(values) == 1 else values, error
            ) from error

    def returned(
        self, connection: Connection, params: Sequence[Mapping[str, Any]]
    ) -> list[tuple[Any, ...]]:
        """What an INSERT ... RETURNING returns, one row per parameter set. Core sends one
        multi-row INSERT, whose rows come in the backend's order (callers match each row by a
        returned key); the driver runs one INSERT per set, so a failure leaves the sets before
        it in the transaction, which the unit of work rolls back."""
        if not params:
            return []
        if _driver(connection) is None:
            for one in params:
                self._check(one)
            found = connection.execute(self._core, [dict(p) for p in params])
            return [tuple(row) for row in found]
        returned: list[tuple[Any, ...]] = []
        for one in params:
            returned.extend(self.rows(connection, one))
        return returned

    def _values(self, params: Mapping[str, Any]) -> list[Any]:
        values = [params[name] for name in self._names]
        try:
            for position, process in self._processed:
                values[position] = process(values[position])
        except Exception as error:  # a value the type refuses (a naive time, an unknown enum)
            raise driver_error(self.sql, tuple(values), error) from error
        return values

    def _check(self, params: Mapping[str, Any]) -> None:
        if params.keys() != self._keys:
            raise ValueError(
                f"parameters {sorted(params)} are not the statement's {sorted(self._keys)}"
            )


def _refuse_unbindable(bind: BindParameter[Any], sql: str) -> None:
    """A parameter the driver path cannot bind as Core would: an expanding IN (Core rewrites
    the SQL per call), a literal rendered into the SQL, a value or a callable of its own, or a
    parameter of no type (Core would pick a processor from each value)."""
    if bind.expanding or bind.literal_execute:
        raise ValueError(f"parameter {bind.key!r} is rendered per call: not a HotStatement; {sql}")
    if not bind.required:  # a bind with no value of its own is required at execution
        raise ValueError(f"parameter {bind.key!r} carries its own value: not a HotStatement; {sql}")
    if isinstance(bind.type, NullType):
        raise ValueError(f"parameter {bind.key!r} has no type: not a HotStatement; {sql}")


def _driver(connection: Connection) -> Any:
    """SQLite's own connection (None on another backend or driver), in a begun transaction: a
    statement sent around SQLAlchemy does not autobegin, so it is begun here as Core would."""
    if connection.dialect.driver != _DRIVER:
        return None
    if not connection.in_transaction():
        connection.begin()
    return connection.connection.driver_connection


def send(connection: Connection, sql: str) -> None:
    """One statement without parameters or rows straight to SQLite's driver: the BEGIN of every
    transaction, on the connection SQLAlchemy is beginning (`exec_driver_sql` cost several
    times the statement; its events and echo log do not see it, sqlite3's trace does)."""
    try:
        cast(Any, connection.connection.driver_connection).execute(sql)
    except sqlite3.Error as error:
        raise driver_error(sql, (), error) from error


def driver_error(sql: str, values: Any, error: Exception) -> exc.StatementError:
    """An error of the driver or of a bind processor as SQLAlchemy raises it (busy:
    `OperationalError`, a constraint: `IntegrityError`, another error: `StatementError`), for
    the unit of work's retry and error mapping."""
    return exc.DBAPIError.instance(sql, values, error, sqlite3.Error)

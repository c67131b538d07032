"""The statements every merge sends, run on SQLite's own connection.

A merge is a handful of small statements (the athlete's row, the active set, the new rows and
their evidence). SQLite runs each in 1-10 µs; SQLAlchemy Core spends about 20 µs more on every
one of them (the compiled-cache lookup, parameter processing, event dispatch, the result
object), which made most of a merge's cost against a minimal `sqlite3` merge (BENCHMARKS.md).
A `HotStatement` is still built with Core, the one spelling of its SQL; it is compiled once for
SQLite and, inside the unit of work's transaction, sent to the driver's connection with the
parameters in the compiled order. Everywhere else (PostgreSQL, or a SQLite connection with no
transaction begun) it runs through Core like every other statement, so routing, row locks and
PostgreSQL's types are unchanged.

On the driver a time is bound as its canonical text and an enum as its value, what
`UTCDateTime` and the enum columns bind through Core; rows come back as the driver returns
them, so a statement reads converted columns with `as_stored` on both paths. A driver error is
raised as SQLAlchemy would raise it (`DBAPIError.instance`), so the unit of work maps it to the
same `VaultError`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from enum import Enum
from typing import Any, cast

from sqlalchemy import BindParameter, Connection, exc
from sqlalchemy import Enum as SqlEnum
from sqlalchemy.dialects import sqlite
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.expression import ClauseElement, Executable
from sqlalchemy.types import NullType

from vault.domain.times import format_utc
from vault.storage.types import UTCDateTime

_SQLITE = sqlite.dialect()


class HotStatement:
    """One Core statement, compiled once for SQLite's driver.

    `columns` names the parameters of an INSERT (Core compiles an INSERT for the columns it is
    given). Every parameter set must hold exactly the statement's names: the driver would leave
    an extra one out where Core would insert it, so a set of another size is a ValueError.
    """

    def __init__(self, statement: ClauseElement, *, columns: Sequence[str] | None = None) -> None:
        keys = list(columns) if columns is not None else None
        compiled = cast(SQLCompiler, statement.compile(dialect=_SQLITE, column_keys=keys))
        self._core = cast(Executable, statement)
        self.sql: str = compiled.string
        self._names: tuple[str, ...] = tuple(compiled.positiontup or ())
        self._count = len(set(self._names))
        # the positions whose values the driver cannot take as they are, and what makes them so
        self._converted = tuple(
            (position, convert)
            for position, name in enumerate(self._names)
            if (convert := _converter(compiled.binds.get(name))) is not None
        )

    def rows(self, connection: Connection, params: Mapping[str, Any]) -> list[tuple[Any, ...]]:
        """The rows of a query (or of DML with RETURNING) for one parameter set."""
        driver = _driver(connection)
        if driver is None:
            self._check(params)
            return [tuple(row) for row in connection.execute(self._core, dict(params))]
        values = self._values(params)
        try:
            return cast(list[tuple[Any, ...]], driver.execute(self.sql, values).fetchall())
        except sqlite3.Error as error:
            raise driver_error(self.sql, values, error) from error

    def run(self, connection: Connection, params: Sequence[Mapping[str, Any]]) -> None:
        """DML without results, once per parameter set (one executemany)."""
        if not params:
            return
        driver = _driver(connection)
        if driver is None:
            connection.execute(self._core, [dict(self._check(p)) for p in params])
            return
        values = [self._values(p) for p in params]
        try:
            driver.executemany(self.sql, values)
        except sqlite3.Error as error:
            raise driver_error(self.sql, values, error) from error

    def returned(
        self, connection: Connection, params: Sequence[Mapping[str, Any]]
    ) -> list[tuple[Any, ...]]:
        """What an INSERT ... RETURNING returns, one row per parameter set. The driver runs one
        statement per set, so its rows come in the sets' order; Core sends one multi-row INSERT,
        whose rows come in the backend's order (callers match each row by a returned key)."""
        if not params:
            return []
        if _driver(connection) is None:
            found = connection.execute(self._core, [dict(self._check(p)) for p in params])
            return [tuple(row) for row in found]
        returned: list[tuple[Any, ...]] = []
        for one in params:
            returned.extend(self.rows(connection, one))
        return returned

    def _values(self, params: Mapping[str, Any]) -> list[Any]:
        self._check(params)
        values = [params[name] for name in self._names]
        for position, convert in self._converted:
            values[position] = convert(values[position])
        return values

    def _check(self, params: Mapping[str, Any]) -> Mapping[str, Any]:
        if len(params) != self._count:
            raise ValueError(
                f"parameters {sorted(params)} are not the statement's {sorted(set(self._names))}"
            )
        return params


def _driver(connection: Connection) -> Any:
    """SQLite's own connection when the statement may go there: a SQLite connection inside a
    begun transaction (a statement sent around SQLAlchemy does not begin one)."""
    if connection.dialect.name != "sqlite" or not connection.in_transaction():
        return None
    return connection.connection.driver_connection


def _converter(bind: BindParameter[Any] | None) -> Callable[[Any], Any] | None:
    """How a parameter reaches the driver as Core would bind it: a time column's as canonical
    text, an enum column's as its value; a parameter of no known type is looked at value by
    value (a time or an enum is never handed to sqlite3's own adapters)."""
    if bind is None or isinstance(bind.type, NullType):
        return _driver_value
    if isinstance(bind.type, UTCDateTime):
        return _canonical_time
    if isinstance(bind.type, SqlEnum):
        return _enum_value
    return None


def _canonical_time(value: datetime | None) -> str | None:
    return None if value is None else format_utc(value)


def _enum_value(value: Any) -> Any:
    return value.value if isinstance(value, Enum) else value


def _driver_value(value: Any) -> Any:
    if isinstance(value, datetime):
        return format_utc(value)
    return _enum_value(value)


def send(connection: Connection, sql: str) -> None:
    """One statement without parameters or rows straight to SQLite's driver (the BEGIN of every
    transaction, on the connection SQLAlchemy is beginning)."""
    try:
        cast(Any, connection.connection.driver_connection).execute(sql)
    except sqlite3.Error as error:
        raise driver_error(sql, (), error) from error


def driver_error(sql: str, values: Any, error: sqlite3.Error) -> exc.StatementError:
    """A sqlite3 error as SQLAlchemy raises it (busy: `OperationalError`, a constraint:
    `IntegrityError`), for the unit of work's retry and error mapping."""
    return exc.DBAPIError.instance(sql, values, error, sqlite3.Error)

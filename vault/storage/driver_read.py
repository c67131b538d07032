"""A Core SELECT compiled once per dialect and run on the driver's cursor, for hot reads.

SQLAlchemy's per-execution machinery (cache key, execution context, Row objects) costs about
15-25 µs a statement: more than SQLite spends on a small indexed read. The statement is still
built with Core (one definition, both dialects, bound parameters); only its execution skips the
wrapper. Use it for a single read that returns plain values; everything else goes through
`Connection.execute`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import Connection, Engine
from sqlalchemy.engine import Dialect
from sqlalchemy.sql.expression import ClauseElement


class DriverRead:
    """`rows(bind, params)` runs the statement on a DBAPI cursor: the Connection's, or for an
    Engine a pooled DBAPI connection taken for this one statement (no Connection wrapper and
    no BEGIN: SQLite runs a lone SELECT in its own snapshot; PostgreSQL's is rolled back when
    the pool takes the connection back)."""

    def __init__(self, statement: ClauseElement) -> None:
        self._statement = statement
        self._compiled: dict[str, tuple[str, tuple[str, ...] | None]] = {}

    def _sql(self, dialect: Dialect) -> tuple[str, tuple[str, ...] | None]:
        found = self._compiled.get(dialect.name)
        if found is None:
            compiled = self._statement.compile(dialect=dialect)
            order = getattr(compiled, "positiontup", None)  # positional paramstyle ("?"), else None
            found = (str(compiled), None if order is None else tuple(order))
            self._compiled[dialect.name] = found
        return found

    def rows(self, bind: Connection | Engine, params: Mapping[str, Any]) -> list[tuple[Any, ...]]:
        sql, order = self._sql(bind.dialect)
        arguments: Any = dict(params) if order is None else tuple(params[n] for n in order)
        if isinstance(bind, Connection):
            return _fetch(bind.connection.cursor(), sql, arguments)
        raw = bind.raw_connection()
        try:
            return _fetch(raw.cursor(), sql, arguments)
        finally:
            raw.close()


def _fetch(cursor: Any, sql: str, arguments: Any) -> list[tuple[Any, ...]]:
    try:
        cursor.execute(sql, arguments)
        return list(cursor.fetchall())
    finally:
        cursor.close()

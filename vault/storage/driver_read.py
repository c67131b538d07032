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

from sqlalchemy import Connection
from sqlalchemy.sql.expression import ClauseElement


class DriverRead:
    """`rows(connection, params)` runs the statement on the connection's DBAPI cursor."""

    def __init__(self, statement: ClauseElement) -> None:
        self._statement = statement
        self._compiled: dict[str, tuple[str, tuple[str, ...] | None]] = {}

    def _sql(self, connection: Connection) -> tuple[str, tuple[str, ...] | None]:
        name = connection.dialect.name
        found = self._compiled.get(name)
        if found is None:
            compiled = self._statement.compile(dialect=connection.dialect)
            order = getattr(compiled, "positiontup", None)  # positional paramstyle ("?"), else None
            found = (str(compiled), None if order is None else tuple(order))
            self._compiled[name] = found
        return found

    def rows(self, connection: Connection, params: Mapping[str, Any]) -> list[tuple[Any, ...]]:
        sql, order = self._sql(connection)
        arguments: Any = dict(params) if order is None else tuple(params[n] for n in order)
        cursor = connection.connection.cursor()
        try:
            cursor.execute(sql, arguments)
            return list(cursor.fetchall())
        finally:
            cursor.close()

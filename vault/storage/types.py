"""Column types shared by the models."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any, cast

from sqlalchemy import ColumnElement, DateTime, String, type_coerce
from sqlalchemy.dialects.sqlite import DATETIME as SQLITE_DATETIME
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator, TypeEngine

from vault.domain.times import format_utc, parse_utc, require_aware


class _CanonicalText(SQLITE_DATETIME):
    """SQLite's DATETIME in DDL (so the models match the migrations), values passed as text.

    SQLAlchemy's own DATETIME formats and regex-parses `YYYY-MM-DD HH:MM:SS.ffffff`; here the
    text is already canonical (UTCDateTime made it) and goes to the driver untouched.
    """

    def bind_processor(self, dialect: Dialect) -> None:
        return None

    def result_processor(self, dialect: Dialect, coltype: object) -> None:
        return None

    def literal_processor(self, dialect: Dialect) -> Callable[[Any], str]:
        return lambda value: f"'{value}'"  # canonical text holds no quote


_SQLITE_IMPL = _CanonicalText()  # type: ignore[no-untyped-call]  # SQLAlchemy leaves it untyped


def _bind_sqlite(value: datetime | None) -> str | None:
    return None if value is None else format_utc(value)


def _result_sqlite(value: str | None) -> datetime | None:
    return None if value is None else parse_utc(value)


class UTCDateTime(TypeDecorator[datetime]):
    """Timezone-aware UTC in Python; canonical UTC text on SQLite, timestamptz on PostgreSQL.

    SQLite stores `2026-03-02T07:30:00.000000Z` (vault.domain.times.format_utc: always `T`, six
    fraction digits, `Z`), so the text sorts and compares chronologically in SQL and reads the
    same as export documents. Naive datetimes are refused on the way in instead of being silently
    taken as local time. The SQLite bind/result processors are plain functions (no per-value
    dialect test, no SQLAlchemy regex parse): reading times is on the hot path.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        if dialect.name == "sqlite":
            return _SQLITE_IMPL
        return dialect.type_descriptor(DateTime(timezone=True))

    def bind_processor(self, dialect: Dialect) -> Callable[[Any], Any] | None:
        if dialect.name == "sqlite":
            return _bind_sqlite
        return super().bind_processor(dialect)

    def result_processor(self, dialect: Dialect, coltype: object) -> Callable[[Any], Any] | None:
        if dialect.name == "sqlite":
            return _result_sqlite
        return super().result_processor(dialect, coltype)

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> str | datetime | None:
        if value is None:
            return None
        if dialect.name == "sqlite":  # literal rendering (offline SQL) comes this way
            return format_utc(value)
        return require_aware(value)

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if isinstance(value, str):
            return parse_utc(value)
        moment = cast(datetime, value)
        if moment.tzinfo is None:
            return moment.replace(tzinfo=timezone.utc)
        return moment.astimezone(timezone.utc)


def utc_from_driver(value: datetime | str) -> datetime:
    """A time as a driver returns it outside SQLAlchemy's types: canonical text (SQLite) or an
    aware datetime (PostgreSQL)."""
    return parse_utc(value) if isinstance(value, str) else value.astimezone(timezone.utc)


def as_stored(column: ColumnElement[Any]) -> ColumnElement[Any]:
    """`column` read as the driver returns it, without the column type's conversion: canonical
    text for a time or an enum on SQLite (an aware datetime for a time on PostgreSQL). For hot
    reads that compare or look up values and convert only the few they keep
    (`utc_from_driver`)."""
    return type_coerce(column, String)

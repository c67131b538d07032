"""Typing helpers shared by the repositories."""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import CursorResult, Result, Table


def table_of(model: type[Any]) -> Table:
    """The Core table behind an ORM model (repositories write with Core statements)."""
    return cast(Table, model.__table__)


def rowcount(result: Result[Any]) -> int:
    """Rows matched by an UPDATE or DELETE."""
    return int(cast(CursorResult[Any], result).rowcount)

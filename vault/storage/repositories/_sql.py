"""Typing helpers shared by the repositories."""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import CursorResult, Result


def rowcount(result: Result[Any]) -> int:
    """Rows matched by an UPDATE or DELETE."""
    return int(cast(CursorResult[Any], result).rowcount)

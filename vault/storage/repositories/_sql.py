"""Typing helpers shared by the repositories."""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import CursorResult, Result

from vault.domain.pieces import PieceCounter


def rowcount(result: Result[Any]) -> int:
    """Rows matched by an UPDATE or DELETE."""
    return int(cast(CursorResult[Any], result).rowcount)


INLINE_COLUMNS = ("inline_text", "inline_tokens", "inline_tokens_last")
_UNCOUNTED = dict.fromkeys(INLINE_COLUMNS)


def inline_columns(text: str, pieces: PieceCounter | None) -> dict[str, Any]:
    """An item's inline text and token counts as stored (revision 0016); all NULL without a
    counter (the next `vault upgrade` counts them; until then the engine's row leaves it out)."""
    if pieces is None:
        return dict(_UNCOUNTED)
    return dict(zip(INLINE_COLUMNS, pieces(text), strict=True))

"""Typing helpers shared by the repositories."""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import CursorResult, Result

from vault.domain.pieces import PieceCounter


def rowcount(result: Result[Any]) -> int:
    """Rows matched by an UPDATE or DELETE."""
    return int(cast(CursorResult[Any], result).rowcount)


_UNCOUNTED = {"inline_text": None, "inline_tokens": None, "inline_tokens_last": None}


def inline_columns(text: str, pieces: PieceCounter | None) -> dict[str, Any]:
    """An item's inline text and token counts as stored (revision 0016); all NULL without a
    counter (the next `vault upgrade` counts them; until then the engine's row leaves it out)."""
    if pieces is None:
        return dict(_UNCOUNTED)
    shown, tokens, tokens_last = pieces(text)
    return {"inline_text": shown, "inline_tokens": tokens, "inline_tokens_last": tokens_last}

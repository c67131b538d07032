"""The `athlete_memory` JSON document: the one builder of that shape. Pure.

Two outputs have the engine's `AthleteMemory` shape, and both are built here:

- the engine's row in the `athlete_memory` table (`vault.prompt.engine_row.engine_document`);
- `vault export --contract` and `Vault.contract`
  (`vault.prompt.contract.to_contract`).

They differ only in what their callers pass (docs/engine.md, the section on the engine's row and
`export --contract`): which items (the MEMORY block's, or the top 15/5/5),
how a text is shown (the block's inline-safe text, or as stored) and whether `updated_at` is
there. Everything else (the keys, each fact's four fields, the three source words, the times
as RFC 3339 in UTC) is decided once, here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

from vault.domain.vocabulary import CONTRACT_SOURCE, Source
from vault.prompt.items import utc_text

# One key fact as the document needs it: text, source, confidence, learned_at.
FactFields = tuple[str, Source, float, datetime]


def _as_stored(text: str) -> str:
    return text


def athlete_memory_document(
    facts: Iterable[FactFields],
    patterns: Iterable[str],
    notes: Iterable[str],
    *,
    updated_at: datetime | None = None,
    shown: Callable[[str], str] = _as_stored,
) -> dict[str, Any]:
    """The document of these items, in the order given (plain JSON types).

    `shown` makes each text what the document shows (the engine's row passes `inline`);
    `updated_at`, when given, is the top-level time (the JSON-Schema contract has none)."""
    document: dict[str, Any] = {
        "key_facts": [
            {
                "fact": shown(text),
                "source": CONTRACT_SOURCE[source],
                "confidence": confidence,
                "learned_at": utc_text(learned_at),
            }
            for text, source, confidence, learned_at in facts
        ],
        "patterns": [shown(text) for text in patterns],
        "coaching_notes": [shown(text) for text in notes],
    }
    if updated_at is not None:
        document["updated_at"] = utc_text(updated_at)
    return document

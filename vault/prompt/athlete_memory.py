"""The `athlete_memory` JSON document, as `vault export --contract` builds it. Pure.

Two outputs have the engine's `AthleteMemory` shape:

- the engine's row, which the `athlete_memory` view builds in SQL when the engine reads it
  (vault.storage.engine_view; tests/engine/test_engine_view.py checks it against this builder
  and the MEMORY block);
- `vault export --contract` and `Vault.contract` (`vault.prompt.contract.to_contract`), built here.

They differ only in (docs/engine.md, the section on the engine's row and
`export --contract`): which items (the MEMORY block's, or the top 15/5/5), how a text is shown
(the block's inline-safe text, or as stored) and whether `updated_at` is there. The keys, each
fact's four fields, the three source words and the times as RFC 3339 in UTC are the same.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from vault.domain.vocabulary import CONTRACT_SOURCE, Source
from vault.prompt.items import utc_text

# One key fact as the document needs it: text, source, confidence, learned_at.
FactFields = tuple[str, Source, float, datetime]


def athlete_memory_document(
    facts: Iterable[FactFields],
    patterns: Iterable[str],
    notes: Iterable[str],
    *,
    updated_at: datetime | None = None,
) -> dict[str, Any]:
    """The document of these items, in the order given (plain JSON types); `updated_at`,
    when given, is the top-level time (the JSON-Schema contract has none)."""
    document: dict[str, Any] = {
        "key_facts": [
            {
                "fact": text,
                "source": CONTRACT_SOURCE[source],
                "confidence": confidence,
                "learned_at": utc_text(learned_at),
            }
            for text, source, confidence, learned_at in facts
        ],
        "patterns": list(patterns),
        "coaching_notes": list(notes),
    }
    if updated_at is not None:
        document["updated_at"] = utc_text(updated_at)
    return document

"""The JSON document vault writes to the engine's `athlete_memory` table. Pure.

It holds exactly the items of the athlete's MEMORY block (`render_memory_block`): the facts,
patterns and notes that pass the 0.5 floor, the 15/5/5 caps and the token budget, in the
block's priority order, with the block's inline-safe text ("|" made "/"). The engine's prompt
builder joins what it reads with " | " after dropping facts under 0.5, so it prints the same
block, byte for byte, as `vault prompt` did when vault wrote the row.

Shape: the engine's structs (`AthleteMemory`, `MemoryFact`), built by
`vault.prompt.athlete_memory`, the builder of `vault export --contract` (and `Vault.contract`)
too: the row is that document for the block's items, with the block's texts and
`updated_at` (docs/engine.md says how and why the two differ).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from vault.domain.models import PromptRow
from vault.domain.vocabulary import Kind, Source
from vault.prompt.athlete_memory import athlete_memory_document
from vault.prompt.items import inline
from vault.prompt.memory_block import MemoryBlock


def engine_document(
    rows: Mapping[Kind, Sequence[PromptRow]],
    block: MemoryBlock,
    fact_origins: Mapping[int, tuple[Source, datetime]],
    written_at: datetime,
) -> dict[str, Any]:
    """The row's document: the block's items (`block` rendered from `rows`), each with what the
    engine's structs require; `fact_origins` gives each shown fact's source and learned_at."""
    by_id = {
        kind: {row.id: row for row in rows[kind]} for kind in (Kind.FACT, Kind.PATTERN, Kind.NOTE)
    }
    facts = []
    for fact_id in block.included.facts:
        row = by_id[Kind.FACT][fact_id]
        source, learned_at = fact_origins[fact_id]
        facts.append((row.text, source, row.confidence, learned_at))
    return athlete_memory_document(
        facts,
        (by_id[Kind.PATTERN][i].text for i in block.included.patterns),
        (by_id[Kind.NOTE][i].text for i in block.included.notes),
        updated_at=written_at,
        shown=inline,
    )


def engine_json(document: dict[str, Any]) -> str:
    """Compact JSON, as serde writes it."""
    return json.dumps(document, ensure_ascii=False, separators=(",", ":"))

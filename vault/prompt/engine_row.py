"""The JSON document vault writes to the engine's `athlete_memory` table. Pure.

It holds exactly the items of the athlete's MEMORY block (`render_memory_block`): the facts,
patterns and notes that pass the 0.5 floor, the 15/5/5 caps and the token budget, in the
block's priority order, with the block's inline-safe text ("|" made "/"). The engine's prompt
builder joins what it reads with " | " after dropping facts under 0.5, so it prints the same
block, byte for byte, as `vault prompt` did when vault wrote the row.

Shape: the engine's structs (`AthleteMemory`, `MemoryFact`): every fact has `fact`, `source`
(folded onto conversation / behavior / profile_change), `confidence` and `learned_at`; times
are RFC 3339 in UTC.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from vault.domain.models import PromptRow
from vault.domain.vocabulary import CONTRACT_SOURCE, Kind, Source
from vault.prompt.items import inline, utc_text
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
        facts.append(
            {
                "fact": inline(row.text),
                "source": CONTRACT_SOURCE[source],
                "confidence": row.confidence,
                "learned_at": utc_text(learned_at),
            }
        )
    return {
        "key_facts": facts,
        "patterns": [inline(by_id[Kind.PATTERN][i].text) for i in block.included.patterns],
        "coaching_notes": [inline(by_id[Kind.NOTE][i].text) for i in block.included.notes],
        "updated_at": utc_text(written_at),
    }


def engine_json(document: dict[str, Any]) -> str:
    """Compact JSON, as serde writes it."""
    return json.dumps(document, ensure_ascii=False, separators=(",", ":"))

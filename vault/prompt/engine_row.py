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
from datetime import datetime
from typing import Any

from vault.domain.models import AthleteMemory
from vault.domain.vocabulary import CONTRACT_SOURCE
from vault.prompt.items import inline, utc_text
from vault.prompt.memory_block import MemoryBlock


def engine_document(memory: AthleteMemory, block: MemoryBlock, written_at: datetime) -> dict[str, Any]:
    """The row's document: the block's items, each with what the engine's structs require."""
    facts = {fact.id: fact for fact in memory.facts}
    patterns = {item.id: item for item in memory.patterns}
    notes = {item.id: item for item in memory.notes}
    return {
        "key_facts": [
            {
                "fact": inline(facts[i].text),
                "source": CONTRACT_SOURCE[facts[i].source],
                "confidence": facts[i].confidence,
                "learned_at": utc_text(facts[i].learned_at),
            }
            for i in block.included.facts
        ],
        "patterns": [inline(patterns[i].text) for i in block.included.patterns],
        "coaching_notes": [inline(notes[i].text) for i in block.included.notes],
        "updated_at": utc_text(written_at),
    }


def engine_json(document: dict[str, Any]) -> str:
    """Compact JSON, as serde writes it."""
    return json.dumps(document, ensure_ascii=False, separators=(",", ":"))

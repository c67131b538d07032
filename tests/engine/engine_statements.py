"""The engine's own SQL and prompt code, as its Rust source prints them, for the tests.

The three statements are copied character for character from the engine's `ensure_tables`,
`write_memory` and `read_memory`; they run through Python's `sqlite3` with the engine's
positional parameters. `engine_block` is the engine's MEMORY-block builder transcribed line by
line (facts with confidence >= 0.5 joined with " | ", then patterns, then notes).
`check_structs` checks a document the way serde would read it into the engine's structs.
"""

from __future__ import annotations

import json
import re
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

ENSURE_TABLE = """CREATE TABLE IF NOT EXISTS athlete_memory (
    athlete_id TEXT PRIMARY KEY,
    memory_json TEXT NOT NULL,
    updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP
);"""
WRITE_MEMORY = """INSERT OR REPLACE INTO athlete_memory (athlete_id, memory_json, updated_at)
         VALUES (?1, ?2, CURRENT_TIMESTAMP)"""
READ_MEMORY = "SELECT memory_json FROM athlete_memory WHERE athlete_id = ?1"

_RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$")


def ensure_tables(path: Path) -> None:
    with closing(sqlite3.connect(path)) as connection:
        connection.execute(ENSURE_TABLE)
        connection.commit()


def write_memory(path: Path, athlete_id: str, memory: dict[str, Any]) -> None:
    with closing(sqlite3.connect(path, timeout=5)) as connection:
        connection.execute(WRITE_MEMORY, (athlete_id, json.dumps(memory, separators=(",", ":"))))
        connection.commit()


def read_memory(path: Path, athlete_id: str) -> dict[str, Any] | None:
    with closing(sqlite3.connect(path)) as connection:
        row = connection.execute(READ_MEMORY, (athlete_id,)).fetchone()
    if row is None:
        return None
    memory = json.loads(row[0])
    check_structs(memory)
    return memory


def check_structs(memory: Any) -> None:
    """What serde requires of `AthleteMemory` / `MemoryFact` (fields present, types, times)."""
    assert isinstance(memory, dict)
    for key in ("key_facts", "patterns", "coaching_notes"):
        assert isinstance(memory[key], list), key
    for fact in memory["key_facts"]:
        assert isinstance(fact["fact"], str) and isinstance(fact["source"], str)
        assert isinstance(fact["confidence"], (int, float)) and not isinstance(
            fact["confidence"], bool
        )
        assert _RFC3339.match(fact["learned_at"]), fact["learned_at"]
    assert all(isinstance(p, str) for p in memory["patterns"] + memory["coaching_notes"])
    updated = memory.get("updated_at")
    assert updated is None or _RFC3339.match(updated)


def engine_block(memory: dict[str, Any] | None) -> str:
    """The engine's prompt builder: '' when there is no memory or nothing to show."""
    if memory is None:
        return ""
    memory_lines = []
    facts = [f["fact"] for f in memory["key_facts"] if f["confidence"] >= 0.5]
    if facts:
        memory_lines.append(f"- Facts: {' | '.join(facts)}")
    if memory["patterns"]:
        memory_lines.append(f"- Patterns: {' | '.join(memory['patterns'])}")
    if memory["coaching_notes"]:
        memory_lines.append(f"- Notes: {' | '.join(memory['coaching_notes'])}")
    if not memory_lines:
        return ""
    return "\nMEMORY:\n" + "".join(line + "\n" for line in memory_lines)

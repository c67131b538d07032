"""The views are a stable interface: these column lists may grow, never shrink or change."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from vault import open_vault

FACT_COLUMNS = [
    "id",
    "athlete_id",
    "text",
    "category",
    "conflict_key",
    "source",
    "source_ref",
    "extractor",
    "confidence",
    "level",
    "occurrences",
    "learned_at",
    "observed_at",
    "last_reinforced_at",
    "updated_at",
]
LIST_COLUMNS = [
    "id",
    "athlete_id",
    "text",
    "source",
    "source_ref",
    "extractor",
    "confidence",
    "occurrences",
    "learned_at",
    "last_reinforced_at",
    "updated_at",
    "rank",
]
VIEW_COLUMNS = {
    "active_facts": FACT_COLUMNS,
    "prompt_facts": FACT_COLUMNS,
    "top_facts": [*FACT_COLUMNS, "rank"],
    "active_patterns": LIST_COLUMNS,
    "active_notes": LIST_COLUMNS,
    "athlete_summary": [
        "athlete_id",
        "fact_count",
        "prompt_fact_count",
        "pattern_count",
        "note_count",
        "archived_count",
        "created_at",
        "last_updated",
    ],
}


def test_every_view_keeps_its_documented_columns(db_path: Path) -> None:
    open_vault(db_path, upgrade=True).close()
    with sqlite3.connect(db_path) as raw:
        for view, columns in VIEW_COLUMNS.items():
            actual = [row[1] for row in raw.execute(f"PRAGMA table_info({view})")]
            assert actual[: len(columns)] == columns, view

"""Revision 0004 on a file written at 0003: every fact gets a due time no later than the true one."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from tests.migrations.test_canonical_times import migrate, rows

FACT = (
    "INSERT INTO facts (athlete_id, text, normalized_text, category, source, confidence, "
    "base_confidence, occurrences, learned_at, observed_at, last_reinforced_at, updated_at) "
    "VALUES ('ana', :text, :text, 'general', 'manual', 0.9, 0.9, 1, :t, :t, :t, :t)"
)


def test_0004_fills_due_times_a_week_after_the_last_reinforcement_and_drops_them_on_downgrade(
    tmp_path: Path,
) -> None:
    path = tmp_path / "vault.db"
    migrate(path, "0003")
    with closing(sqlite3.connect(path)) as raw, raw:
        raw.execute(
            "INSERT INTO athletes VALUES ('ana', :t, :t)", {"t": "2026-03-01T00:00:00.000000Z"}
        )
        for text, moment in (
            ("a", "2026-03-02T07:30:00.123456Z"),
            ("b", "2025-12-31T23:59:59.999999Z"),
        ):
            raw.execute(FACT, {"text": text, "t": moment})
    migrate(path, "0004")
    assert rows(path, "SELECT text, decay_due_at FROM facts ORDER BY id") == [
        ("a", "2026-03-09T07:30:00.000000Z"),  # the fraction is dropped: never later than true
        ("b", "2026-01-07T23:59:59.000000Z"),
    ]
    assert (
        rows(path, "SELECT name FROM sqlite_master WHERE name LIKE 'ix_facts_%' ORDER BY name")
        == []
    )  # per-athlete reads use the unique keys; decay scans the table
    migrate(path, "0003", down=True)
    columns = [c[1] for c in rows(path, "PRAGMA table_info(facts)")]
    assert "decay_due_at" not in columns and len(rows(path, "SELECT * FROM facts")) == 2
    names = rows(path, "SELECT name FROM sqlite_master")
    assert ("ix_facts_last_reinforced_at",) in names and (
        "ix_facts_athlete_id_confidence",
    ) in names

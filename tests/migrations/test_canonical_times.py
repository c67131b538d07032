"""Revision 0003 on files written at 0002: every time becomes canonical UTC text, and back.

Rows are written with raw SQL and bound parameters in the pre-0003 form, the way SQLAlchemy's
DATETIME wrote them (`YYYY-MM-DD HH:MM:SS.ffffff`, six digits even when the microsecond is 0),
plus the bare `YYYY-MM-DD HH:MM:SS` a hand-made file may hold.
"""

from __future__ import annotations

import hashlib
import sqlite3
from contextlib import closing
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from vault import open_vault
from vault.storage.engine import create_vault_engine, sqlite_url
from vault.storage.migrations import downgrade, head_revision, upgrade

UTC = timezone.utc
TIME_COLUMNS = {
    "athletes": ("created_at", "updated_at"),
    "facts": ("learned_at", "observed_at", "last_reinforced_at", "updated_at"),
    "patterns": ("learned_at", "last_reinforced_at", "updated_at"),
    "notes": ("learned_at", "last_reinforced_at", "updated_at"),
    "archive": ("learned_at", "archived_at"),
    "forget_log": ("forgotten_at",),
}
# old text -> canonical text; the first three come back byte-identical on downgrade
OLD_TO_CANONICAL = {
    "2026-03-02 07:30:00.000000": "2026-03-02T07:30:00.000000Z",  # microsecond 0
    "2026-03-02 07:30:00.123456": "2026-03-02T07:30:00.123456Z",
    "2025-12-31 23:59:59.999999": "2025-12-31T23:59:59.999999Z",
    "2026-01-05 20:00:00": "2026-01-05T20:00:00.000000Z",  # no fraction at all
}
A, B, C, BARE = OLD_TO_CANONICAL


def rows(path: Path, sql: str, *params: object) -> list[tuple[Any, ...]]:
    with closing(sqlite3.connect(path)) as raw:
        return raw.execute(sql, params).fetchall()


def times(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    return {
        table: rows(path, f"SELECT {', '.join(columns)} FROM {table} ORDER BY id")
        for table, columns in TIME_COLUMNS.items()
    }


def migrate(path: Path, revision: str, *, down: bool = False) -> None:
    engine = create_vault_engine(sqlite_url(path))
    try:
        (downgrade if down else upgrade)(engine, revision)
    finally:
        engine.dispose()


def file_at_0002(path: Path, *, bare: bool = True) -> Path:
    """A vault file at revision 0002 holding old-form times in every time column."""
    migrate(path, "0002")
    last = BARE if bare else C
    with closing(sqlite3.connect(path)) as raw:
        raw.executemany(
            "INSERT INTO athletes (id, created_at, updated_at) VALUES (?, ?, ?)",
            [("ana", A, B), ("ben", C, last)],
        )
        fact = (
            "INSERT INTO facts (athlete_id, text, normalized_text, category, source, confidence, "
            "base_confidence, occurrences, learned_at, observed_at, last_reinforced_at, updated_at) "
            "VALUES (?, ?, ?, 'goal', 'manual', 0.8, 0.8, 1, ?, ?, ?, ?)"
        )
        raw.executemany(
            fact,
            [
                ("ana", "goal: 10k", "goal 10k", A, B, C, last),
                ("ben", "goal: 5k", "goal 5k", last, A, B, C),
            ],
        )
        raw.execute("INSERT INTO fact_tags (fact_id, tag) VALUES (1, 'time:morning')")
        for table in ("patterns", "notes"):
            raw.execute(
                f"INSERT INTO {table} (athlete_id, text, normalized_text, source, confidence, "
                "occurrences, learned_at, last_reinforced_at, updated_at) "
                "VALUES (?, ?, ?, 'manual', 0.7, 1, ?, ?, ?)",
                ("ana", f"{table} item", f"{table} item", A, B, last),
            )
        raw.execute(
            "INSERT INTO archive (athlete_id, kind, original_id, original_text, category, source, "
            "confidence, occurrences, learned_at, superseded_by, reason, archived_at) "
            "VALUES (?, 'fact', 7, 'goal: 3k', 'goal', 'manual', 0.6, 1, ?, 1, 'superseded', ?)",
            ("ana", C, last),
        )
        raw.execute(
            "INSERT INTO forget_log (athlete_id, forgotten_at, facts, patterns, notes, "
            "archived) VALUES (?, ?, 1, 0, 0, 0)",
            ("ana", B),
        )
        raw.commit()
    return path


def canonical(old: dict[str, list[tuple[Any, ...]]]) -> dict[str, list[tuple[Any, ...]]]:
    return {t: [tuple(OLD_TO_CANONICAL[v] for v in row) for row in r] for t, r in old.items()}


def test_upgrade_rewrites_every_time_column_to_canonical_text_and_downgrade_restores_it(
    db_path: Path,
) -> None:
    file_at_0002(db_path, bare=False)
    before = times(db_path)
    assert all(len(r) for r in before.values()), "every table holds a row"
    migrate(db_path, "head")
    assert rows(db_path, "SELECT version_num FROM alembic_version") == [(head_revision(),)]
    assert times(db_path) == canonical(before)
    assert rows(db_path, "SELECT DISTINCT typeof(created_at) FROM athletes") == [("text",)]
    migrate(db_path, "0002", down=True)
    assert times(db_path) == before, "the old text comes back byte-identical"
    assert rows(db_path, "PRAGMA integrity_check") == [("ok",)]


def test_a_value_without_fraction_gains_six_zero_digits(db_path: Path) -> None:
    file_at_0002(db_path)
    migrate(db_path, "head")
    assert rows(db_path, "SELECT updated_at FROM athletes WHERE id = 'ben'") == [
        ("2026-01-05T20:00:00.000000Z",)
    ]
    migrate(db_path, "0002", down=True)  # the same time, in the form SQLAlchemy writes
    assert rows(db_path, "SELECT updated_at FROM athletes WHERE id = 'ben'") == [
        ("2026-01-05 20:00:00.000000",)
    ]


def test_upgraded_times_read_back_through_the_library_and_sort_in_sql(db_path: Path) -> None:
    file_at_0002(db_path)
    with open_vault(db_path, upgrade=True) as vault:
        memory = vault.memory("ana")
        (archived,), active = vault.history(1)  # the archive row says fact 1 replaced it
    (fact,) = memory.facts
    assert fact.learned_at == datetime(2026, 3, 2, 7, 30, tzinfo=UTC)
    assert fact.observed_at == datetime(2026, 3, 2, 7, 30, 0, 123456, tzinfo=UTC)
    assert fact.last_reinforced_at.tzinfo is UTC
    assert active == 1 and archived.archived_at == datetime(2026, 1, 5, 20, 0, tzinfo=UTC)
    # text order is time order, and a canonical bound parameter compares correctly
    assert rows(db_path, "SELECT id FROM athletes ORDER BY created_at") == [("ben",), ("ana",)]
    assert rows(
        db_path, "SELECT id FROM athletes WHERE created_at >= ?", "2026-01-01T00:00:00.000000Z"
    ) == [("ana",)]


def test_new_writes_are_canonical(db_path: Path) -> None:
    with open_vault(db_path, upgrade=True) as vault:
        vault.remember("ana", "goal: 10k", now=datetime(2026, 3, 2, 8, 0, 0, 5, tzinfo=UTC))
    assert rows(db_path, "SELECT learned_at, updated_at FROM facts") == [
        ("2026-03-02T08:00:00.000005Z", "2026-03-02T08:00:00.000005Z")
    ]


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("bad", ["2026-03-02T07:30:00+01:00", "yesterday", "2026-3-2 7:30:00"])
def test_text_the_revision_cannot_read_stops_the_upgrade_and_changes_nothing(
    db_path: Path, bad: str
) -> None:
    file_at_0002(db_path)
    with closing(sqlite3.connect(db_path)) as raw:
        raw.execute("UPDATE archive SET archived_at = ?", (bad,))
        raw.commit()
    before = times(db_path)
    with pytest.raises(RuntimeError, match=r"archive\.archived_at: row id 1 holds"):
        migrate(db_path, "head")
    assert times(db_path) == before
    assert rows(db_path, "SELECT version_num FROM alembic_version") == [("0002",)]


def test_indexes_serve_the_history_walk_and_the_unread_tag_index_is_gone(db_path: Path) -> None:
    file_at_0002(db_path)

    def indexes() -> set[str]:
        return {
            r[0]
            for r in rows(
                db_path, "SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'ix_%'"
            )
        }

    assert "ix_fact_tags_tag" in indexes()
    migrate(db_path, "head")
    assert "ix_archive_kind_original_id" in indexes() and "ix_fact_tags_tag" not in indexes()
    plan = rows(
        db_path,
        "EXPLAIN QUERY PLAN SELECT * FROM archive WHERE kind = 'fact' AND original_id = ?",
        7,
    )
    assert "ix_archive_kind_original_id" in plan[0][-1]
    migrate(db_path, "0002", down=True)
    assert "ix_fact_tags_tag" in indexes() and "ix_archive_kind_original_id" not in indexes()

"""Revision 0013 (tenant keys) moves a file in place, from every earlier revision, losing nothing.

Rows are written with raw SQL at the starting revision (each table that exists there), the
file is upgraded to head, and every row is checked: still there, children given their parent's
athlete, ids unchanged, the rowid still the id (full-text search still finds episodes), and the
AUTOINCREMENT counters kept (an id of a deleted row is never handed out again).
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from freezegun import freeze_time

from vault import open_vault
from vault.storage.engine import create_vault_engine, sqlite_url
from vault.storage.migrations import REVISIONS, downgrade, upgrade

T = "2026-03-02T08:00:00.000000Z"
TENANT_KEYS, BEFORE = "0013", "0012"
STARTS = [r for r in REVISIONS if "0004" <= r < TENANT_KEYS]
FACT = (
    "INSERT INTO facts (id, athlete_id, text, normalized_text, category, source, confidence, "
    "base_confidence, occurrences, learned_at, observed_at, last_reinforced_at, updated_at) "
    "VALUES (?, ?, ?, ?, 'injury', 'conversation', 0.9, 0.9, 1, ?, ?, ?, ?)"
)
ARCHIVED = (
    "INSERT INTO archive (id, athlete_id, kind, original_id, original_text, category, source, "
    "confidence, occurrences, learned_at, superseded_by, reason, archived_at) "
    "VALUES (?, ?, 'fact', ?, ?, 'injury', 'conversation', 0.5, 1, ?, ?, 'superseded', ?)"
)
EPISODE = (
    "INSERT INTO episodes (id, owner_id, owner_key, ref, type, text, occurred_at, metadata, "
    "created_at) VALUES (?, ?, ?, ?, 'session', ?, ?, '{}', ?)"
)


def _write(raw: sqlite3.Connection, revision: str) -> None:
    """Two athletes' rows in every table revision `revision` has; a deleted fact (id 9) and a
    deleted evidence row (id 7) leave their ids behind in sqlite_sequence."""
    for athlete in ("ana", "bo"):
        raw.execute("INSERT INTO athletes VALUES (?, ?, ?)", (athlete, T, T))
    rows = [(1, "ana", "knee pain"), (2, "ana", "runs"), (3, "bo", "swims"), (9, "bo", "gone")]
    for fact_id, athlete, text in rows:
        raw.execute(FACT, (fact_id, athlete, text, text, T, T, T, T))
    raw.executemany(
        "INSERT INTO fact_tags (fact_id, tag) VALUES (?, ?)",
        [(1, "body:knee"), (1, "time:morning"), (3, "context:pool")],
    )
    raw.execute(ARCHIVED, (1, "ana", 5, "ankle pain", T, 1, T))
    raw.execute(ARCHIVED, (2, "bo", 6, "cycles", T, None, T))
    raw.execute(
        "INSERT INTO patterns (athlete_id, text, normalized_text, source, confidence, "
        "occurrences, learned_at, last_reinforced_at, updated_at) "
        "VALUES ('bo', 'skips mondays', 'skips mondays', 'behavior', 0.6, 2, ?, ?, ?)",
        (T, T, T),
    )
    raw.execute(
        "INSERT INTO forget_log (athlete_id, forgotten_at, facts, patterns, notes, archived) "
        "VALUES ('ana', ?, 1, 0, 0, 0)",
        (T,),
    )
    if revision >= "0005":
        raw.execute(EPISODE, (1, "ana", "kana", "a1", "easy run by the river", T, T))
        raw.execute(EPISODE, (2, "bo", "kbo", "b1", "long swim in the lake", T, T))
        raw.execute(
            "INSERT INTO episode_vectors (episode_id, model, dim, vector) VALUES (2, 'm', 1, ?)",
            (b"\x00\x00\x80\x3f",),
        )
    if revision >= "0006":
        raw.execute("INSERT INTO archive_tags (archive_id, tag) VALUES (1, 'body:ankle')")
    if revision >= "0009":
        for evidence_id, fact_id, athlete in ((1, 1, "ana"), (2, 3, "bo"), (7, 3, "bo")):
            raw.execute(
                "INSERT INTO fact_evidence (id, fact_id, athlete_id, source, words, "
                "observed_at, recorded_at) VALUES (?, ?, ?, 'conversation', 'my knee', ?, ?)",
                (evidence_id, fact_id, athlete, T, T),
            )
        raw.execute("DELETE FROM fact_evidence WHERE id = 7")
    raw.execute("DELETE FROM facts WHERE id = 9")
    raw.commit()


def _all(raw: sqlite3.Connection, sql: str) -> list[tuple[object, ...]]:
    return raw.execute(sql).fetchall()


@pytest.mark.parametrize("start", STARTS)
def test_a_file_at_an_earlier_revision_moves_to_tenant_keys_losing_nothing(
    start: str, tmp_path: Path
) -> None:
    path = tmp_path / "device.db"
    engine = create_vault_engine(sqlite_url(path))
    try:
        upgrade(engine, start)
        with closing(sqlite3.connect(path)) as raw:
            _write(raw, start)
        upgrade(engine, "head")
    finally:
        engine.dispose()
    with closing(sqlite3.connect(path)) as raw:
        raw.execute("PRAGMA foreign_keys = ON")
        assert _all(raw, "PRAGMA foreign_key_check") == []
        assert _all(raw, "SELECT athlete_id, fact_id, tag FROM fact_tags ORDER BY 2, 3") == [
            ("ana", 1, "body:knee"),
            ("ana", 1, "time:morning"),
            ("bo", 3, "context:pool"),
        ]
        assert _all(raw, "SELECT id, athlete_id FROM facts ORDER BY id") == [
            (1, "ana"),
            (2, "ana"),
            (3, "bo"),
        ]
        assert _all(raw, "SELECT id, athlete_id, superseded_by FROM archive ORDER BY id") == [
            (1, "ana", 1),
            (2, "bo", None),
        ]
        assert _all(raw, "SELECT COUNT(*) FROM patterns") == [(1,)]
        assert _all(raw, "SELECT COUNT(*) FROM forget_log") == [(1,)]
        if start >= "0005":
            assert _all(raw, "SELECT owner_id, episode_id, model FROM episode_vectors") == [
                ("bo", 2, "m")
            ]
            found = "SELECT rowid FROM episodes_fts WHERE episodes_fts MATCH 'swim'"
            assert _all(raw, found) == [(2,)]
        if start >= "0006":
            assert _all(raw, "SELECT athlete_id, archive_id, tag FROM archive_tags") == [
                ("ana", 1, "body:ankle")
            ]
        if start >= "0009":
            assert _all(raw, "SELECT id, athlete_id, fact_id FROM fact_evidence ORDER BY id") == [
                (1, "ana", 1),
                (2, "bo", 3),
            ]
            assert _all(raw, "SELECT seq FROM sqlite_sequence WHERE name = 'fact_evidence'") == [
                (7,)
            ]
        assert _all(raw, "SELECT seq FROM sqlite_sequence WHERE name = 'facts'") == [(9,)]
        # a child row must name its parent's athlete: a tag of ana's fact filed under bo fails
        with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
            raw.execute("INSERT INTO fact_tags (athlete_id, fact_id, tag) VALUES ('bo', 1, 'x')")
    with freeze_time(T), open_vault(path) as vault:  # the library reads the migrated rows
        assert [f.text for f in vault.facts("ana")] == ["knee pain", "runs"]
        assert sorted(next(f for f in vault.facts("ana") if f.id == 1).tags) == [
            "body:knee",
            "time:morning",
        ]


def test_downgrade_from_tenant_keys_keeps_every_row(tmp_path: Path) -> None:
    path = tmp_path / "device.db"
    engine = create_vault_engine(sqlite_url(path))
    try:
        upgrade(engine, BEFORE)
        with closing(sqlite3.connect(path)) as raw:
            _write(raw, BEFORE)
        upgrade(engine, TENANT_KEYS)
        downgrade(engine, BEFORE)
    finally:
        engine.dispose()
    with closing(sqlite3.connect(path)) as raw:
        assert _all(raw, "SELECT fact_id, tag FROM fact_tags ORDER BY 1, 2") == [
            (1, "body:knee"),
            (1, "time:morning"),
            (3, "context:pool"),
        ]
        assert _all(raw, "SELECT archive_id, tag FROM archive_tags") == [(1, "body:ankle")]
        assert _all(raw, "SELECT episode_id, model FROM episode_vectors") == [(2, "m")]
        assert _all(raw, "SELECT id FROM fact_evidence ORDER BY id") == [(1,), (2,)]
        assert _all(raw, "SELECT seq FROM sqlite_sequence WHERE name = 'fact_evidence'") == [(7,)]

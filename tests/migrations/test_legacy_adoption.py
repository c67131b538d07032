"""Revision 0002 on legacy files built with raw SQL, the way seed 000's engine wrote them."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.pool import NullPool

from alembic import command
from vault import LegacyImportError, open_vault
from vault.services.interchange import purge_legacy_copy
from vault.storage.engine import create_vault_engine, sqlite_url, writer
from vault.storage.migrations import alembic_config, downgrade, head_revision, upgrade

REPO = Path(__file__).resolve().parents[2]
ENGINE_SQL = REPO / "tests" / "data" / "legacy_engine.sql"
ENGINE_TABLES = ("profiles", "profile_history", "activities", "biometrics", "viterbi_state")
# seed 000 §Step 2, verbatim
LEGACY_DDL = """CREATE TABLE IF NOT EXISTS athlete_memory (
    athlete_id TEXT PRIMARY KEY,
    memory_json TEXT NOT NULL,
    updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP
)"""
Row = tuple[Any, Any, Any]


def fact(text: str, confidence: float = 0.8, learned_at: str = "2026-02-16T08:00:00Z",
         source: str = "conversation") -> dict[str, Any]:  # fmt: skip
    return {"fact": text, "source": source, "confidence": confidence, "learned_at": learned_at}


def memory_json(facts: list[dict[str, Any]] | None = None, **rest: Any) -> str:
    """serde_json::to_string of an AthleteMemory: compact, UTF-8, fields in struct order."""
    document: dict[str, Any] = {"key_facts": facts or []}
    document.update(rest)
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False)


def legacy_file(path: Path, rows: list[Row], *, engine: bool = False, wal: bool = True) -> Path:
    with closing(sqlite3.connect(path)) as raw:
        if wal:
            raw.execute("PRAGMA journal_mode=WAL")
        if engine:
            raw.executescript(ENGINE_SQL.read_text(encoding="utf-8"))
        raw.execute(LEGACY_DDL)
        raw.executemany(
            "INSERT INTO athlete_memory (athlete_id, memory_json, updated_at) VALUES (?, ?, ?)",
            rows,
        )
        raw.commit()
    return path


def rows(path: Path, sql: str, *params: object) -> list[tuple[Any, ...]]:
    with closing(sqlite3.connect(path)) as raw:
        return raw.execute(sql, params).fetchall()


def run_upgrade(path: Path) -> None:
    engine = create_vault_engine(sqlite_url(path))
    try:
        upgrade(engine)
    finally:
        engine.dispose()


def run_upgrade_with(path: Path, **attributes: Any) -> dict[str, Any]:
    """Like vault.storage.migrations.upgrade, with Alembic config attributes (the --skip plumbing)."""
    engine = create_vault_engine(sqlite_url(path), foreign_keys=False, poolclass=NullPool)
    try:
        with writer(engine).begin() as connection:
            config = alembic_config(connection)
            config.attributes.update(attributes)
            command.upgrade(config, "head")
    finally:
        engine.dispose()
    return dict(config.attributes)


def run_downgrade(path: Path, revision: str) -> None:
    engine = create_vault_engine(sqlite_url(path))
    try:
        downgrade(engine, revision)
    finally:
        engine.dispose()


def table_dump(path: Path, tables: tuple[str, ...]) -> dict[str, Any]:
    """Schema entries (tables, indexes, triggers) and every row of `tables`."""
    with closing(sqlite3.connect(path)) as raw:
        return {
            name: (
                sorted(
                    raw.execute(
                        "SELECT type, name, sql FROM sqlite_master WHERE tbl_name = ?", (name,)
                    ).fetchall(),
                    key=repr,
                ),  # fmt: skip
                sorted(raw.execute(f"SELECT * FROM {name}").fetchall(), key=repr),
            )
            for name in tables
        }


def memory_snapshot(path: Path) -> dict[str, list[Any]]:
    """Every vault row with ids replaced by what they point at (ids may change on re-adoption)."""
    text_of = {i: (a, t) for i, a, t in rows(path, "SELECT id, athlete_id, text FROM facts")}
    facts = rows(path, "SELECT * FROM facts")
    tags = rows(path, "SELECT fact_id, tag FROM fact_tags")
    return {
        "athletes": sorted(rows(path, "SELECT * FROM athletes")),
        "facts": sorted(r[1:] for r in facts),
        "tags": sorted((text_of[f], t) for f, t in tags),
        "patterns": sorted(r[1:] for r in rows(path, "SELECT * FROM patterns")),
        "notes": sorted(r[1:] for r in rows(path, "SELECT * FROM notes")),
        "archive": sorted(
            (*r[1:11], text_of.get(r[11]), *r[12:]) for r in rows(path, "SELECT * FROM archive")
        ),
    }


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def names(path: Path) -> set[str]:
    return {r[0] for r in rows(path, "SELECT name FROM sqlite_master WHERE type = 'table'")}


# ---- no legacy table / empty legacy table ------------------------------------------------------


def test_a_file_without_the_legacy_table_gets_nothing_from_0002(db_path: Path) -> None:
    run_upgrade(db_path)
    assert rows(db_path, "SELECT version_num FROM alembic_version") == [(head_revision(),)]
    assert not {"athlete_memory", "legacy_athlete_memory", "legacy_adoption"} & names(db_path)


def test_an_empty_legacy_table_is_renamed_and_nothing_is_adopted(db_path: Path) -> None:
    legacy_file(db_path, [])
    run_upgrade(db_path)
    assert {"legacy_athlete_memory", "legacy_adoption"} <= names(db_path)
    assert "athlete_memory" not in names(db_path)
    assert rows(db_path, "SELECT COUNT(*) FROM athletes") == [(0,)]
    assert rows(db_path, "SELECT COUNT(*) FROM legacy_adoption") == [(0,)]


# ---- every field shape --------------------------------------------------------------------------

SHAPES: list[Row] = [
    ("ana", memory_json(
        [fact("primary sport: running", 0.8, "2026-02-16T08:00:00Z"),
         fact("prefers morning sessions", 0.7, "2026-02-16T08:00:00.123Z", "behavior"),
         fact("läuft gern früh 🏃 | Knie ok", 0.55, "2026-02-16T08:00:00.123456Z", "profile_change"),
         fact("goal: half marathon", 1, "2026-02-16T08:00:00.123456789Z"),
         fact("has recurring knee issue", 0.9, "2026-02-16T09:00:00+01:00")],
        patterns=["skips Mondays frequently", "ramps too fast | week 2"],
        coaching_notes=["responds well to data-driven framing"],
        updated_at="2026-02-18T10:00:00.5Z"), "2026-02-18 10:00:01"),
    ("ben", memory_json([fact("level: beginner", 0.6, "2026-02-10T07:00:00.000000001Z")],
                        patterns=[], coaching_notes=[], updated_at=None), "2026-02-17 06:00:00"),
    ("cleo", memory_json([fact("works night shifts", 0.7, "2026-01-05T20:00:00Z"),
                          fact("typical duration: 45 min", 0.6, "2026-01-09T20:00:00Z")]), None),
]  # fmt: skip


def test_every_legacy_field_shape_is_adopted_exactly(db_path: Path) -> None:
    legacy_file(db_path, SHAPES)
    run_upgrade(db_path)
    assert rows(db_path, "SELECT text, category, conflict_key, source, confidence, base_confidence, "
                "occurrences, learned_at, observed_at FROM facts WHERE athlete_id = 'ana' "
                "ORDER BY id") == [  # fmt: skip
        ("primary sport: running", "sport", "primary sport", "conversation", 0.8, 0.8, 1,
         "2026-02-16T08:00:00.000000Z", "2026-02-16T08:00:00.000000Z"),
        ("prefers morning sessions", "time_preference", "time preference", "behavior", 0.7, 0.7, 1,
         "2026-02-16T08:00:00.123000Z", "2026-02-16T08:00:00.123000Z"),
        ("läuft gern früh 🏃 | Knie ok", "general", None, "profile_change", 0.55, 0.55, 1,
         "2026-02-16T08:00:00.123456Z", "2026-02-16T08:00:00.123456Z"),
        ("goal: half marathon", "goal", "goal", "conversation", 1.0, 1.0, 1,
         "2026-02-16T08:00:00.123456Z", "2026-02-16T08:00:00.123456Z"),
        ("has recurring knee issue", "injury", None, "conversation", 0.9, 0.9, 1,
         "2026-02-16T08:00:00.000000Z", "2026-02-16T08:00:00.000000Z"),
    ]  # fmt: skip
    # the document's updated_at wins over the column; the column when the document has none;
    # the newest learned_at when neither has a time
    assert rows(db_path, "SELECT id, created_at, updated_at FROM athletes ORDER BY id") == [
        ("ana", "2026-02-16T08:00:00.000000Z", "2026-02-18T10:00:00.500000Z"),
        ("ben", "2026-02-10T07:00:00.000000Z", "2026-02-17T06:00:00.000000Z"),
        ("cleo", "2026-01-05T20:00:00.000000Z", "2026-01-09T20:00:00.000000Z"),
    ]
    # confidence is "as of" the document: its decay clock starts at the athlete's updated_at
    assert rows(db_path, "SELECT DISTINCT f.last_reinforced_at = a.updated_at, f.extractor "
                "FROM facts f JOIN athletes a ON a.id = f.athlete_id") == [(1, "legacy:athlete_memory")]  # fmt: skip
    assert rows(db_path, "SELECT f.text, t.tag FROM fact_tags t JOIN facts f ON f.id = t.fact_id "
                "ORDER BY t.tag") == [("has recurring knee issue", "body:knee"),
                                      ("prefers morning sessions", "time:morning")]  # fmt: skip
    assert rows(
        db_path, "SELECT athlete_id, text, source, confidence, learned_at FROM patterns ORDER BY id"
    ) == [
        ("ana", "skips Mondays frequently", "behavior", 0.7, "2026-02-18T10:00:00.500000Z"),
        ("ana", "ramps too fast | week 2", "behavior", 0.7, "2026-02-18T10:00:00.500000Z"),
    ]
    assert rows(db_path, "SELECT athlete_id, text, source FROM notes") == [
        ("ana", "responds well to data-driven framing", "conversation")
    ]
    assert rows(db_path, "SELECT COUNT(*) FROM archive") == [(0,)]
    assert rows(
        db_path,
        "SELECT athlete_id, status, reason, facts, patterns, notes, archived "
        "FROM legacy_adoption ORDER BY athlete_id",
    ) == [  # fmt: skip
        ("ana", "adopted", None, 5, 2, 1, 0),
        ("ben", "adopted", None, 1, 0, 0, 0),
        ("cleo", "adopted", None, 2, 0, 0, 0),
    ]


def test_adopted_memory_reads_back_through_the_library(db_path: Path) -> None:
    legacy_file(db_path, SHAPES)
    with open_vault(db_path, upgrade=True) as vault:  # no alembic_version: runs 0001 then 0002
        memory = vault.memory("ana", now=datetime(2026, 2, 18, 10, tzinfo=timezone.utc))
    assert rows(db_path, "SELECT version_num FROM alembic_version") == [(head_revision(),)]
    assert [f.text for f in memory.facts][:2] == ["goal: half marathon", "has recurring knee issue"]
    assert [p.text for p in memory.patterns] == [
        "skips Mondays frequently",
        "ramps too fast | week 2",
    ]
    assert (
        memory.updated_at is not None
        and memory.updated_at.isoformat() == "2026-02-18T10:00:00.500000+00:00"
    )


def test_an_empty_document_still_creates_the_athlete(db_path: Path) -> None:
    legacy_file(db_path, [("dan", memory_json(patterns=[], coaching_notes=[], updated_at=None), None),
                          ("eve", "{}", "2026-02-01 00:00:00")])  # fmt: skip
    run_upgrade(db_path)
    assert rows(db_path, "SELECT id FROM athletes ORDER BY id") == [("dan",), ("eve",)]
    assert rows(db_path, "SELECT updated_at FROM athletes WHERE id = 'eve'") == [
        ("2026-02-01T00:00:00.000000Z",)
    ]


# ---- duplicates, floor and caps -----------------------------------------------------------------


def test_duplicates_inside_one_document_keep_the_unique_constraints(db_path: Path) -> None:
    legacy_file(db_path, [("ana", memory_json([
        fact("Prefers morning runs", 0.6, "2026-02-01T08:00:00Z"),
        fact("goal: 10k", 0.9, "2026-02-02T08:00:00Z"),
        fact("prefers morning runs!", 0.8, "2026-02-05T08:00:00Z", "behavior"),
        fact("goal: marathon", 0.7, "2026-02-09T08:00:00Z"),
        fact("prefers  MORNING runs", 0.5, "2026-02-03T08:00:00Z"),
        fact("likes hills", 0.2, "2026-02-04T08:00:00Z"),
    ], patterns=["skips Mondays", "Skips mondays.", "late night runs"],
        updated_at="2026-02-10T00:00:00Z"), None)])  # fmt: skip
    run_upgrade(db_path)
    facts = rows(db_path, "SELECT id, text, source, confidence, occurrences, learned_at, observed_at "
                 "FROM facts ORDER BY id")  # fmt: skip
    # one fact for the three copies: the most confident text, highest confidence, first learned,
    # last observed, every occurrence counted
    assert [f[1:] for f in facts] == [
        ("prefers morning runs!", "behavior", 0.8, 3, "2026-02-01T08:00:00.000000Z",
         "2026-02-05T08:00:00.000000Z"),
        ("goal: marathon", "conversation", 0.7, 1, "2026-02-09T08:00:00.000000Z",
         "2026-02-09T08:00:00.000000Z"),
    ]  # fmt: skip
    marathon = facts[1][0]
    assert rows(
        db_path,
        "SELECT original_text, reason, superseded_by, confidence, archived_at "
        "FROM archive WHERE kind = 'fact' ORDER BY id",
    ) == [  # fmt: skip
        ("goal: 10k", "superseded", marathon, 0.9, "2026-02-09T08:00:00.000000Z"),
        ("likes hills", "decayed", None, 0.2, "2026-02-10T00:00:00.000000Z"),
    ]
    assert rows(db_path, "SELECT text, occurrences FROM patterns ORDER BY id") == [
        ("skips Mondays", 2),
        ("late night runs", 1),
    ]


def test_more_than_the_caps_keeps_the_best_and_archives_the_rest_as_capped(db_path: Path) -> None:
    many = [fact(f"fact number {n}", round(0.4 + n * 0.03, 2), f"2026-02-{n + 1:02d}T08:00:00Z")
            for n in range(18)]  # fmt: skip
    legacy_file(db_path, [("ana", memory_json(many, patterns=[f"pattern {n}" for n in range(7)],
                                              coaching_notes=[f"note {n}" for n in range(6)]), None)])  # fmt: skip
    run_upgrade(db_path)
    kept = [r[0] for r in rows(db_path, "SELECT text FROM facts ORDER BY id")]
    assert kept == [f"fact number {n}" for n in range(3, 18)]
    capped = rows(
        db_path, "SELECT kind, original_text FROM archive WHERE reason = 'capped' ORDER BY id"
    )
    assert capped == [("fact", "fact number 2"), ("fact", "fact number 1"), ("fact", "fact number 0"),
                      ("pattern", "pattern 5"), ("pattern", "pattern 6"), ("note", "note 5")]  # fmt: skip
    assert rows(db_path, "SELECT COUNT(*) FROM patterns") == [(5,)]
    assert rows(db_path, "SELECT COUNT(*) FROM notes") == [(5,)]


# ---- malformed rows -------------------------------------------------------------------------------

BAD_ROWS = {
    "bad JSON": '{"key_facts": [',
    "not an object": "[]",
    "key_facts not a list": memory_json(None, patterns=[]).replace('"key_facts":[]', '"key_facts":{}'),
    "fact without learned_at": json.dumps({"key_facts": [{"fact": "x y", "source": "behavior", "confidence": 0.5}]}),
    "confidence out of range": memory_json([fact("goal: 10k", 1.5)]),
    "confidence as text": memory_json([fact("goal: 10k", "high")]),  # type: ignore[arg-type]
    "confidence NaN": '{"key_facts":[{"fact":"goal: 10k","source":"behavior","confidence":NaN,"learned_at":"2026-02-16T08:00:00Z"}]}',
    "naive time": memory_json([fact("goal: 10k", 0.8, "2026-02-16T08:00:00")]),
    "invalid time": memory_json([fact("goal: 10k", 0.8, "yesterday")]),
    "naive updated_at": memory_json([], updated_at="2026-02-16 08:00:00"),
    "unknown source": memory_json([fact("goal: 10k", 0.8, source="telepathy")]),
    "pattern not a string": memory_json([], patterns=[{"text": "skips"}]),
    "empty fact text": memory_json([fact("   ")]),
    "fact too long": memory_json([fact("x" * 201)]),
}  # fmt: skip
MESSAGES = {
    "bad JSON": "not valid JSON", "not an object": "must be a JSON object",
    "key_facts not a list": "key_facts must be a list", "fact without learned_at": "has no learned_at",
    "confidence out of range": "from 0 to 1, got 1.5", "confidence as text": "must be a number",
    "confidence NaN": "NaN", "naive time": "timezone-aware", "invalid time": "not an ISO-8601 time",
    "naive updated_at": "timezone-aware", "unknown source": "source", "pattern not a string": "must be a string",
    "empty fact text": "must not be empty", "fact too long": "limit is 200",
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(BAD_ROWS))
def test_a_malformed_row_stops_the_upgrade_naming_the_athlete(db_path: Path, case: str) -> None:
    legacy_file(db_path, [("ana", memory_json([fact("goal: 10k")]), None),
                          ("zoë", BAD_ROWS[case], "2026-02-16 08:00:00")], engine=True)  # fmt: skip
    before = digest(db_path)
    with pytest.raises(LegacyImportError) as failure:
        run_upgrade(db_path)
    message = str(failure.value)
    assert "athlete 'zoë'" in message and MESSAGES[case] in message and "'ana'" not in message
    assert "\n" not in message and "--skip-bad-legacy-rows" in message
    assert digest(db_path) == before, "nothing may be half-applied"
    assert not Path(f"{db_path}-wal").exists() or Path(f"{db_path}-wal").stat().st_size == 0


def test_a_null_athlete_id_is_a_bad_row_too(db_path: Path) -> None:
    legacy_file(db_path, [(None, memory_json([fact("goal: 10k")]), None)])
    with pytest.raises(LegacyImportError, match="athlete NULL: the athlete_id is NULL"):
        run_upgrade(db_path)


def test_a_failed_upgrade_of_a_rollback_journal_file_keeps_its_content(db_path: Path) -> None:
    # db.py switches every connection to WAL, which rewrites the header's journal-mode bytes
    # even when the upgrade rolls back; the content itself must be exactly as before.
    legacy_file(db_path, [("ana", "{oops", None)], engine=True, wal=False)
    before = table_dump(db_path, (*ENGINE_TABLES, "athlete_memory"))
    schema = rows(db_path, "SELECT * FROM sqlite_master ORDER BY name")
    with pytest.raises(LegacyImportError, match="athlete 'ana'"):
        run_upgrade(db_path)
    assert table_dump(db_path, (*ENGINE_TABLES, "athlete_memory")) == before
    assert rows(db_path, "SELECT * FROM sqlite_master ORDER BY name") == schema


# ---- skipping bad rows -----------------------------------------------------------------------------


def test_skipping_bad_rows_reports_each_one_and_adopts_the_rest(
    db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    legacy_file(db_path, [("ana", memory_json([fact("goal: 10k")]), None),
                          ("bob", memory_json([fact("goal: 5k", 7)]), None),
                          ("cy", "not json", None)])  # fmt: skip
    attributes = run_upgrade_with(db_path, skip_bad_legacy_rows=True)
    skipped = attributes["legacy_skipped"]
    assert [(p.athlete_id, p.reason.split(":")[0]) for p in skipped] == [
        ("bob", "key_facts[0].confidence must be a number from 0 to 1, got 7"),
        ("cy", "memory_json is not valid JSON (Expecting value at character 0)"),
    ]
    assert attributes["legacy_adopted"] == ["ana"]
    assert "skipped legacy athlete_memory row: athlete 'bob'" in caplog.text
    assert rows(db_path, "SELECT id FROM athletes") == [("ana",)]
    assert rows(
        db_path,
        "SELECT athlete_id, status, reason IS NOT NULL FROM legacy_adoption ORDER BY athlete_id",
    ) == [("ana", "adopted", 0), ("bob", "skipped", 1), ("cy", "skipped", 1)]
    # the skipped rows wait, unchanged, in the renamed table
    assert rows(
        db_path, "SELECT memory_json FROM legacy_athlete_memory WHERE athlete_id = 'cy'"
    ) == [("not json",)]


def test_an_athlete_already_in_the_vault_is_not_adopted_over(db_path: Path) -> None:
    run_upgrade_to_0001 = create_vault_engine(sqlite_url(db_path))
    upgrade(run_upgrade_to_0001, "0001")
    run_upgrade_to_0001.dispose()
    with closing(sqlite3.connect(db_path)) as raw:
        raw.execute(
            "INSERT INTO athletes VALUES ('ana', '2026-03-01 00:00:00.000000', '2026-03-01 00:00:00.000000')"
        )
        raw.execute(LEGACY_DDL)
        raw.execute("INSERT INTO athlete_memory (athlete_id, memory_json) VALUES ('ana', ?)",
                    (memory_json([fact("goal: 10k")]),))  # fmt: skip
        raw.commit()
    with pytest.raises(LegacyImportError, match="athlete 'ana': the athlete already has memory"):
        run_upgrade(db_path)
    run_upgrade_with(db_path, skip_bad_legacy_rows="true")
    assert rows(db_path, "SELECT COUNT(*) FROM facts") == [(0,)]
    assert rows(db_path, "SELECT status FROM legacy_adoption") == [("skipped",)]


def test_alembic_command_line_takes_the_skip_option_as_an_x_argument(tmp_path: Path) -> None:
    target = legacy_file(tmp_path / "device.db", [("ana", memory_json([fact("goal: 10k")]), None),
                                                  ("bob", "[1, 2]", None)])  # fmt: skip
    env = {**os.environ, "VAULT_DB_URL": sqlite_url(target)}
    alembic = [sys.executable, "-m", "alembic"]
    refused = subprocess.run(
        [*alembic, "upgrade", "head"], cwd=REPO, env=env, capture_output=True, text=True
    )
    assert refused.returncode != 0 and "athlete 'bob'" in refused.stderr
    assert "alembic_version" not in names(target)
    done = subprocess.run([*alembic, "-x", "skip_bad_legacy_rows=true", "upgrade", "head"],
                          cwd=REPO, env=env, capture_output=True, text=True)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (
        "skipped legacy athlete_memory row: athlete 'bob': memory_json must be a JSON object"
        in done.stderr
    )
    assert rows(target, "SELECT id FROM athletes") == [("ana",)]


# ---- the engine's tables, downgrade and upgrade again -------------------------------------------


def test_the_engines_other_tables_are_left_untouched(db_path: Path) -> None:
    legacy_file(db_path, SHAPES, engine=True)
    before = table_dump(db_path, ENGINE_TABLES)
    legacy_rows = rows(db_path, "SELECT * FROM athlete_memory ORDER BY athlete_id")
    run_upgrade(db_path)
    assert table_dump(db_path, ENGINE_TABLES) == before
    assert rows(db_path, "SELECT * FROM legacy_athlete_memory ORDER BY athlete_id") == legacy_rows
    assert rows(db_path, "PRAGMA integrity_check") == [("ok",)]


def test_downgrade_then_upgrade_loses_nothing(db_path: Path) -> None:
    legacy_file(db_path, [*SHAPES, ("bad", "{", None)], engine=True)
    engine_before = table_dump(db_path, ENGINE_TABLES)
    legacy_before = table_dump(db_path, ("athlete_memory",))[("athlete_memory")][1]
    run_upgrade_with(db_path, skip_bad_legacy_rows=True)
    adopted = memory_snapshot(db_path)
    with open_vault(db_path) as vault:  # an athlete the vault learned about after the upgrade
        vault.remember("newcomer", "goal: 5k")
    run_downgrade(db_path, "0001")
    assert "legacy_adoption" not in names(db_path) and "legacy_athlete_memory" not in names(db_path)
    assert table_dump(db_path, ("athlete_memory",))["athlete_memory"][1] == legacy_before
    assert rows(db_path, "SELECT id FROM athletes") == [("newcomer",)]
    run_upgrade_with(db_path, skip_bad_legacy_rows=True)
    again = memory_snapshot(db_path)
    newcomer = [r for r in again["athletes"] if r[0] == "newcomer"]
    assert {k: [r for r in v if "newcomer" not in r] for k, v in again.items()} == adopted
    assert len(newcomer) == 1
    assert table_dump(db_path, ENGINE_TABLES) == engine_before


def test_a_purged_legacy_copy_keeps_the_athletes_vault_rows_on_downgrade(db_path: Path) -> None:
    legacy_file(db_path, SHAPES[:2])
    run_upgrade(db_path)
    with open_vault(db_path) as vault, vault.unit_of_work() as uow:
        assert purge_legacy_copy(uow.connection, "ana") == 2  # the JSON copy and its adoption record
        assert purge_legacy_copy(uow.connection, "nobody") == 0
        uow.commit()
    assert rows(db_path, "SELECT athlete_id FROM legacy_athlete_memory") == [("ben",)]
    run_downgrade(db_path, "0001")
    assert rows(db_path, "SELECT athlete_id FROM athlete_memory") == [("ben",)]
    assert rows(db_path, "SELECT DISTINCT athlete_id FROM facts") == [("ana",)]
    run_upgrade(db_path)
    assert rows(db_path, "SELECT id FROM athletes ORDER BY id") == [("ana",), ("ben",)]


def test_purging_a_file_without_a_legacy_copy_does_nothing(db_path: Path) -> None:
    with open_vault(db_path, upgrade=True) as vault, vault.unit_of_work() as uow:
        assert purge_legacy_copy(uow.connection, "ana") == 0

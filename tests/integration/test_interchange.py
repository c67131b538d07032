"""Import and export on real SQLite files: seed 002's memories.yaml and the vault-export format."""

from __future__ import annotations

import copy
import sqlite3
from contextlib import closing
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import T0
from tests.integration.test_postgres import pg_vault  # noqa: F401 - fixture
from vault import FactIn, InvalidInput, NoteIn, PatternIn, Retraction, Vault, open_vault
from vault.domain.errors import AthleteNotFound
from vault.services.interchange import (
    export_athlete,
    import_document,
    import_memories_yaml,
    parse_text,
    render,
)

DATA = Path(__file__).resolve().parents[1] / "data"
SEED_YAML = DATA / "memories.yaml"
IMPORTED_AT = datetime(2026, 3, 1, tzinfo=timezone.utc)


def rows(path: Path, sql: str, *params: object) -> list[tuple[Any, ...]]:
    with closing(sqlite3.connect(path)) as raw:
        return raw.execute(sql, params).fetchall()


def whole_file(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, sqlite_sequence included."""
    with closing(sqlite3.connect(path)) as raw:
        tables = [r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {t: sorted(raw.execute(f"SELECT * FROM {t}").fetchall(), key=repr) for t in tables}


def rich_memory(vault: Vault, athlete: str = "ana") -> None:
    """A few weeks of merges: replacement, entity merge, retraction, decay, caps, lists."""
    vault.merge(athlete, [
        FactIn(text="primary sport: running", confidence=0.8, source="conversation"),
        FactIn(text="goal: 10k", confidence=0.7, source_ref="msg-1", extractor="rules:goal"),
        FactIn(text="has recurring knee issue", category="injury", confidence=0.9),
        FactIn(text="likes hills", confidence=0.35),
        FactIn(text="works night shifts | weekends off", category="lifestyle", source="behavior"),
        FactIn(text="läuft gern früh 🏃", confidence=0.6),
        FactIn(text="has kids", category="context", confidence=0.7),
        PatternIn(text="tends to skip after rest days"),
        NoteIn(text="responds well to encouragement"),
    ], now=T0)  # fmt: skip
    vault.merge(athlete, [
        FactIn(text="goal: marathon", confidence=0.8),
        FactIn(text="knee pain after long runs", category="injury", confidence=0.8),
        FactIn(text="primary sport: running"),
        PatternIn(text="tends to skip after rest days"),
    ], now=T0 + timedelta(days=3, microseconds=123457))  # fmt: skip
    vault.decay(now=T0 + timedelta(weeks=4))
    vault.merge(athlete, [Retraction(category="injury", tags={"body:knee"}),
                          *[FactIn(text=f"weekly hours: {n}", confidence=0.5) for n in range(2)],
                          *[PatternIn(text=f"pattern {n}") for n in range(6)]],
                now=T0 + timedelta(weeks=5))  # fmt: skip


# ---- seed 002's memories.yaml ----------------------------------------------------------------------


def test_seed_002_example_imports_with_types_levels_and_the_archive(
    vault: Vault, db_path: Path
) -> None:
    report = import_memories_yaml(vault, SEED_YAML, "ana", now=IMPORTED_AT)
    knee, morning, climbing = (
        report.ids[k] for k in ("mem_a1b2c3d4", "mem_e5f6g7h8", "mem_i9j0k1l2")
    )
    assert (report.facts, report.archived, report.changed) == (3, 1, True)
    assert rows(db_path, "SELECT id, text, category, source, source_ref, confidence, occurrences, "
                "learned_at, observed_at, last_reinforced_at FROM facts ORDER BY id") == [  # fmt: skip
        (knee, "Left knee pain after long runs over 18km", "injury", "activity_note", "act_12345",
         0.9, 4, "2025-02-15 10:30:00.000000", "2025-03-10 08:45:00.000000", "2026-03-01 00:00:00.000000"),
        (morning, "Prefers morning runs before work", "preference", "user_message",
         "2025-03-01T09:00:00Z", 0.6, 1, "2025-03-01 09:00:00.000000", "2025-03-01 09:00:00.000000",
         "2026-03-01 00:00:00.000000"),
        (climbing, "Climbs 2-3 times per week, primary sport", "context", "pattern_analysis", None,
         0.9, 12, "2025-02-01 00:00:00.000000", "2025-03-15 12:00:00.000000", "2026-03-01 00:00:00.000000"),
    ]  # fmt: skip
    assert rows(db_path, "SELECT fact_id, tag FROM fact_tags ORDER BY fact_id") == [
        (knee, "body:knee"),
        (morning, "time:morning"),
        (climbing, "context:climbing"),
    ]
    assert rows(
        db_path,
        "SELECT kind, original_text, category, reason, superseded_by, archived_at FROM archive",
    ) == [  # fmt: skip
        (
            "fact",
            "Occasional knee soreness",
            "injury",
            "superseded",
            knee,
            "2025-02-20 15:00:00.000000",
        )
    ]
    assert rows(db_path, "SELECT created_at, updated_at FROM athletes") == [
        ("2025-02-01 00:00:00.000000", "2026-03-01 00:00:00.000000")
    ]
    chain, current = vault.history(knee)
    assert [a.original_text for a in chain] == ["Occasional knee soreness"] and current == knee


def test_conflicts_and_repeats_inside_a_yaml_file_are_resolved(vault: Vault, db_path: Path) -> None:
    text = """memories:
  - {id: m1, type: preference, content: "goal: 10k", source: manual, created_at: "2025-01-01T00:00:00Z",
     updated_at: "2025-01-02T00:00:00Z", confidence: high}
  - {id: m2, type: preference, content: "goal: marathon", source: user_message,
     created_at: 2025-02-01T00:00:00Z, updated_at: 2025-02-01T00:00:00Z, confidence: low, occurrences: 2}
  - {id: m3, type: context, content: "Goal: Marathon!", source: activity_note, created_at: "2025-03-01T00:00:00Z",
     updated_at: "2025-03-01T00:00:00Z", confidence: medium}
archived:
  - {id: m0, original_content: "goal: 5k", superseded_by: m1, archived_at: "2024-12-01T00:00:00Z", reason: x}
  - {id: m9, original_content: "old note", superseded_by: gone, archived_at: "2024-12-02T00:00:00Z"}
"""
    report = import_memories_yaml(vault, text, "ana", now=IMPORTED_AT)
    marathon = report.ids["m2"]
    assert report.ids == {"m1": marathon, "m2": marathon, "m3": marathon}
    assert rows(db_path, "SELECT text, confidence, occurrences, learned_at FROM facts") == [
        ("Goal: Marathon!", 0.6, 3, "2025-02-01 00:00:00.000000")
    ]
    # an archived memory takes its successor's type when it has one, else a derived category
    assert rows(
        db_path,
        "SELECT original_text, category, source, reason, superseded_by FROM archive ORDER BY id",
    ) == [  # fmt: skip
        ("goal: 5k", "context", "activity_note", "superseded", marathon),
        ("old note", "general", "manual", "superseded", None),
        ("goal: 10k", "preference", "manual", "superseded", marathon),
    ]
    assert any("not an imported memory" in m for m in report.messages)


YAML_MISTAKES = {
    "not yaml": ("memories: [unclosed", "not valid YAML"),
    "not a mapping": ("- just\n- a list\n", "not a memories.yaml mapping"),
    "unknown type": ("memories:\n  - {id: a, type: astrology, content: x, source: manual, "
                     "created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z', confidence: high}\n",
                     "unknown category 'astrology'"),
    "bad level": ("memories:\n  - {id: a, type: context, content: x, source: manual, "
                  "created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z', confidence: sure}\n",
                  "memories.0.confidence"),
    "naive time": ("memories:\n  - {id: a, type: context, content: x, source: manual, "
                   "created_at: '2025-01-01T00:00:00', updated_at: '2025-01-01T00:00:00Z', confidence: high}\n",
                   "timezone-aware"),
    "duplicate id": ("memories:\n" + "  - {id: a, type: context, content: x, source: manual, "
                     "created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z', confidence: high}\n" * 2,
                     "memory id 'a' appears twice"),
    "unknown key": ("memories:\n  - {id: a, type: context, content: x, source: manual, mood: happy, "
                    "created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z', confidence: high}\n",
                    "memories.0.mood"),
    "content too long": ("memories:\n  - {id: a, type: context, content: " + "y" * 201 + ", source: manual, "
                         "created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z', confidence: high}\n",
                         "limit is 200"),
    "other schema": ("_schema: {schema_type: activities}\nmemories: []\n", "not 'memories'"),
    "empty": ("memories: []\narchived: []\n", "holds no memories"),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(YAML_MISTAKES))
def test_a_bad_yaml_file_is_one_clear_error_and_writes_nothing(
    vault: Vault, db_path: Path, case: str
) -> None:
    text, message = YAML_MISTAKES[case]
    before = whole_file(db_path)
    with pytest.raises(InvalidInput, match=message) as error:
        import_memories_yaml(vault, text, "ana")
    assert "\n" not in str(error.value)
    assert whole_file(db_path) == before


def test_an_athlete_with_memory_is_replaced_only_on_request(vault: Vault, db_path: Path) -> None:
    vault.remember("ana", "goal: 5k", now=T0)
    with pytest.raises(InvalidInput, match="already has memory"):
        import_memories_yaml(vault, SEED_YAML, "ana")
    assert rows(db_path, "SELECT text FROM facts") == [("goal: 5k",)]
    import_memories_yaml(vault, SEED_YAML, "ana", replace=True, now=IMPORTED_AT)
    assert len(rows(db_path, "SELECT text FROM facts WHERE text = 'goal: 5k'")) == 0
    assert rows(db_path, "SELECT COUNT(*) FROM facts") == [(3,)]


# ---- vault-export: round trips --------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_export_import_export_is_identical(vault: Vault, tmp_path: Path, fmt: str) -> None:
    rich_memory(vault)
    first = render(export_athlete(vault, "ana"), fmt)
    with open_vault(tmp_path / "fresh.db", upgrade=True) as fresh:
        report = import_document(fresh, parse_text(first))
        second = render(export_athlete(fresh, "ana"), fmt)
    assert report.changed and not report.renumbered
    assert second == first
    document = parse_text(first).canonical()
    assert len(document["archive"]) >= 5 and {a["reason"] for a in document["archive"]} >= {
        "superseded", "merged", "resolved", "decayed", "capped"}  # fmt: skip
    assert any(f["tags"] for f in document["facts"]) and document["patterns"] and document["notes"]


def test_importing_the_same_document_twice_changes_nothing(
    vault: Vault, db_path: Path, tmp_path: Path
) -> None:
    rich_memory(vault)
    document = export_athlete(vault, "ana")
    other = tmp_path / "other.db"
    with open_vault(other, upgrade=True) as target:
        assert import_document(target, document).changed
        after_first = whole_file(other)
        assert not import_document(target, copy.deepcopy(document)).changed
    assert whole_file(other) == after_first
    # and into the file it came from: nothing to do either
    before = whole_file(db_path)
    assert not import_document(vault, document).changed
    assert whole_file(db_path) == before


def test_import_restores_the_document_over_later_changes(vault: Vault) -> None:
    rich_memory(vault)
    document = export_athlete(vault, "ana")
    vault.merge("ana", [FactIn(text="goal: ultra"), NoteIn(text="hates treadmills")],
                now=T0 + timedelta(weeks=8))  # fmt: skip
    vault.forget("ana", "night shifts", now=T0 + timedelta(weeks=8))
    assert export_athlete(vault, "ana") != document
    assert import_document(vault, document).changed
    assert export_athlete(vault, "ana") == document


def test_ids_taken_by_another_athlete_are_renumbered_consistently(
    vault: Vault, tmp_path: Path
) -> None:
    rich_memory(vault)
    document = export_athlete(vault, "ana")
    with open_vault(tmp_path / "busy.db", upgrade=True) as busy:
        rich_memory(busy, "bob")  # same ids, another athlete
        bob_before = export_athlete(busy, "bob")
        report = import_document(busy, document)
        assert set(report.renumbered) == {"fact", "pattern", "note", "archive"}
        restored = export_athlete(busy, "ana")
        assert not import_document(busy, document).changed, (
            "a renumbered import is still idempotent"
        )
        assert export_athlete(busy, "bob") == bob_before
        marathon = next(f["id"] for f in restored["facts"] if f["text"] == "goal: marathon")
        chain, current = busy.history(marathon)
    assert [a.original_text for a in chain] == ["goal: 10k"] and current == marathon
    old_ids = {f["id"] for f in document["facts"]}
    assert not old_ids & {f["id"] for f in restored["facts"]}
    strip = lambda d: [{k: v for k, v in f.items() if k != "id"} for f in d["facts"]]  # noqa: E731
    assert strip(restored) == strip(document)


def test_new_facts_never_reuse_an_id_the_imported_archive_refers_to(vault: Vault) -> None:
    document = {
        "format": "vault-export", "version": 1,
        "athlete": {"id": "ana", "created_at": "2026-03-01T00:00:00Z", "updated_at": "2026-03-01T00:00:00Z"},
        "archive": [{"id": 3, "kind": "fact", "original_id": 40, "original_text": "goal: 10k",
                     "category": "goal", "conflict_key": "goal", "source": "manual", "confidence": 0.7,
                     "occurrences": 1, "learned_at": "2026-02-01T00:00:00Z", "superseded_by": 41,
                     "reason": "superseded", "archived_at": "2026-02-02T00:00:00Z"}],
    }  # fmt: skip
    import_document(vault, document)
    added = vault.remember("ana", "goal: marathon", now=T0).added[0]
    assert added.id > 41


# ---- vault-export: validation ---------------------------------------------------------------------


def _broken(change: str) -> dict[str, Any]:
    document: dict[str, Any] = {
        "format": "vault-export", "version": 1,
        "athlete": {"id": "ana", "created_at": "2026-03-01T00:00:00Z", "updated_at": "2026-03-01T00:00:00Z"},
        "facts": [{"id": 1, "text": "goal: 10k", "category": "goal", "conflict_key": "goal",
                   "source": "manual", "source_ref": None, "extractor": None, "confidence": 0.8,
                   "base_confidence": 0.8, "occurrences": 1, "tags": [],
                   "learned_at": "2026-03-01T00:00:00Z", "observed_at": "2026-03-01T00:00:00Z",
                   "last_reinforced_at": "2026-03-01T00:00:00Z", "updated_at": "2026-03-01T00:00:00Z"}],
    }  # fmt: skip
    fact = document["facts"][0]
    if change == "format":
        document["format"] = "something-else"
    elif change == "version":
        document["version"] = 2
    elif change == "confidence":
        fact["confidence"] = 1.2
    elif change == "naive time":
        fact["learned_at"] = "2026-03-01T00:00:00"
    elif change == "unknown key":
        fact["mood"] = "happy"
    elif change == "same id":
        document["facts"].append({**fact, "text": "goal: 5k", "conflict_key": "goal 2"})
    elif change == "same conflict key":
        document["facts"].append({**fact, "id": 2, "text": "goal: 5k"})
    elif change == "over the cap":
        document["facts"] = [{**fact, "id": n, "text": f"fact {n}", "conflict_key": None}
                             for n in range(1, 17)]  # fmt: skip
    elif change == "bad tag":
        fact["tags"] = ["knee"]
    elif change == "id as text":
        fact["id"] = "1"
    return document


@pytest.mark.parametrize(("change", "message"), [
    ("format", "not a vault-export document"), ("version", "unsupported vault-export version 2"),
    ("confidence", "confidence must be a number from 0 to 1"), ("naive time", "timezone-aware"),
    ("unknown key", "facts.0.mood"), ("same id", "share the id 1"),
    ("same conflict key", "share the conflict key 'goal'"), ("over the cap", "at most 15"),
    ("bad tag", "'kind:entity'"), ("id as text", "facts.0.id"),
])  # fmt: skip
def test_an_invalid_document_is_refused_before_anything_is_written(
    vault: Vault, db_path: Path, change: str, message: str
) -> None:
    before = whole_file(db_path)
    with pytest.raises(InvalidInput, match=message) as error:
        import_document(vault, _broken(change))
    assert "\n" not in str(error.value)
    assert whole_file(db_path) == before


def test_the_unbroken_document_imports(vault: Vault) -> None:
    assert import_document(vault, _broken("nothing")).facts == 1


def test_exporting_an_unknown_athlete_is_an_error(vault: Vault) -> None:
    with pytest.raises(AthleteNotFound):
        export_athlete(vault, "nobody")


def test_export_takes_out_whatever_is_stored_and_import_says_what_it_refuses(
    vault: Vault, db_path: Path, tmp_path: Path
) -> None:
    vault.merge("ana", [FactIn(text=f"fact {n}") for n in range(15)], now=T0)
    with closing(sqlite3.connect(db_path)) as raw:  # a 16th fact written behind the vault's back
        raw.execute(
            "INSERT INTO facts (athlete_id, text, normalized_text, category, source, confidence, "
            "base_confidence, occurrences, learned_at, observed_at, last_reinforced_at, updated_at) "
            "SELECT athlete_id, 'fact 15', 'fact 15', category, source, confidence, base_confidence, "
            "occurrences, learned_at, observed_at, last_reinforced_at, updated_at FROM facts LIMIT 1"
        )
        raw.commit()
    document = export_athlete(vault, "ana")
    assert len(document["facts"]) == 16
    with open_vault(tmp_path / "other.db", upgrade=True) as other:
        with pytest.raises(InvalidInput, match="facts: 16 items; the vault keeps at most 15"):
            import_document(other, document)


@pytest.mark.postgres
def test_the_same_document_round_trips_through_postgresql(vault: Vault, pg_vault: Vault) -> None:
    rich_memory(vault)
    document = export_athlete(vault, "ana")
    rich_memory(pg_vault, "bob")  # takes the same ids first: the import renumbers
    report = import_document(pg_vault, document)
    assert set(report.renumbered) == {"fact", "pattern", "note", "archive"}
    assert not import_document(pg_vault, document).changed
    restored = export_athlete(pg_vault, "ana")
    strip = lambda d: [{k: v for k, v in f.items() if k != "id"} for f in d["facts"]]  # noqa: E731
    assert strip(restored) == strip(document)
    added = pg_vault.remember("ana", "goal: ultra", now=T0 + timedelta(weeks=9)).added[0]
    assert added.id > max(f["id"] for f in restored["facts"])

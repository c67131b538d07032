"""One time rule (1900-2500 UTC) on every input path, and deep nesting refused by the library."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from tests.conftest import T0, Db
from vault import InvalidInput, Vault

MEMORY = """
memories:
  - id: "mem_1"
    type: "injury_history"
    content: "Left knee pain after long runs"
    source: "activity_note"
    created_at: "{created}"
    updated_at: "2025-03-10T08:45:00Z"
    confidence: "high"
"""
FAR_PAST = datetime(1, 1, 1, tzinfo=timezone.utc)
FAR_FUTURE = datetime(9999, 12, 31, tzinfo=timezone.utc)


def _nothing_stored(db: Db) -> None:
    assert db.rows("SELECT COUNT(*) FROM facts") == [(0,)]
    assert db.rows("SELECT COUNT(*) FROM episodes") == [(0,)]


@pytest.mark.parametrize(
    "created", ["0001-01-01T00:00:00Z", "9999-12-31T00:00:00Z", "1899-12-31T23:59:59Z"]
)
def test_memories_yaml_times_outside_the_range_are_refused(
    vault: Vault, db: Db, created: str
) -> None:
    with pytest.raises(InvalidInput, match="out of range"):
        vault.transfer.import_memories_yaml(MEMORY.format(created=created), "ana", now=T0)
    _nothing_stored(db)


def test_memories_yaml_inside_the_range_is_imported(vault: Vault, db: Db) -> None:
    vault.transfer.import_memories_yaml(
        MEMORY.format(created="2025-02-15T10:30:00Z"), "ana", now=T0
    )
    assert db.rows("SELECT COUNT(*) FROM facts") == [(1,)]


@pytest.mark.parametrize("at", [FAR_PAST, FAR_FUTURE])
def test_episode_times_outside_the_range_are_refused(vault: Vault, db: Db, at: datetime) -> None:
    with pytest.raises(InvalidInput, match="out of range"):
        vault.episodes.add_one("ana", "long run felt easy", at=at, now=T0)
    with pytest.raises(InvalidInput, match="out of range"):
        vault.episodes.import_stream("ana", [{"text": "tempo run", "at": at.isoformat()}], now=T0)
    _nothing_stored(db)


def test_activity_times_outside_the_range_are_refused(vault: Vault, db: Db) -> None:
    with pytest.raises(InvalidInput, match="out of range"):
        vault.ingest_activity(
            "ana",
            {"id": "a1", "started_at": "9999-12-31T00:00:00Z", "description": "knee pain again"},
        )
    _nothing_stored(db)


def test_export_documents_with_times_outside_the_range_are_refused(vault: Vault, db: Db) -> None:
    from vault import FactIn

    vault.merge("ana", [FactIn(text="goal: 10k")], now=T0)
    document = vault.transfer.export("ana")
    vault.delete_athlete("ana")
    document["facts"][0]["learned_at"] = "0001-01-01T00:00:00.000000Z"
    with pytest.raises(InvalidInput, match="out of range"):
        vault.transfer.import_document(document)
    _nothing_stored(db)


def test_deeply_nested_yaml_is_invalid_input_in_the_library(vault: Vault, db: Db) -> None:
    deep = "memories: " + "[" * 5000 + "]" * 5000 + "\n"
    with pytest.raises(InvalidInput, match="nested too deeply"):
        vault.transfer.import_memories_yaml(deep, "ana", now=T0)
    deep_doc = "{" + '"a": {' * 5000 + "}" * 5001
    with pytest.raises(InvalidInput, match="nested too deeply"):
        vault.transfer.import_memories_yaml(deep_doc, "ana", now=T0)
    _nothing_stored(db)


def test_athlete_ids_are_nfc_normalized_on_the_way_in(vault: Vault, db: Db) -> None:
    from vault import FactIn

    vault.merge("Jose\u0301", [FactIn(text="goal: 10k")], now=T0)
    vault.merge("Jos\u00e9", [FactIn(text="primary sport: running")], now=T0)
    assert db.rows("SELECT id FROM athletes") == [("Jos\u00e9",)]
    assert len(vault.facts("Jose\u0301", now=T0)) == 2
    vault.delete_athlete("Jos\u00e9")  # typed normally: nothing of either spelling is left
    assert db.rows("SELECT COUNT(*) FROM facts") == [(0,)]

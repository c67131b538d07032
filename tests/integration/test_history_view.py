"""`fact_history` follows superseded_by chains to what holds the place today (or the last
archived one); `tagged_facts` keeps tags after a fact is archived (merge, decay, export/import)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from sqlalchemy import inspect, text

from vault import FactIn, Retraction, Vault, open_vault

T0 = datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc)
HISTORY_COLUMNS = [
    "archive_id",
    "athlete_id",
    "fact_id",
    "text",
    "category",
    "conflict_key",
    "reason",
    "confidence",
    "learned_at",
    "archived_at",
    "replaced_by",
    "current_fact_id",
    "current_text",
    "last_text",
    "is_current",
    "last_archive_id",
    "last_reason",
    "last_archived_at",
    "steps",
]
TAG_COLUMNS = [
    "status",
    "athlete_id",
    "fact_id",
    "archive_id",
    "tag",
    "text",
    "category",
    "confidence",
    "reason",
    "learned_at",
    "archived_at",
]


def rows(vault: Vault, sql: str) -> list[dict[str, Any]]:
    with vault.engine.connect() as connection:
        return [dict(r._mapping) for r in connection.execute(text(sql))]


def test_the_views_have_their_documented_columns(vault: Vault) -> None:
    inspector = inspect(vault.engine)
    assert [c["name"] for c in inspector.get_columns("fact_history")] == HISTORY_COLUMNS
    assert [c["name"] for c in inspector.get_columns("tagged_facts")] == TAG_COLUMNS


def test_a_chain_of_replacements_ends_at_the_fact_that_holds_the_place(
    vault: Vault, db_path: Path
) -> None:
    for day, sport in enumerate(("running", "cycling", "swimming")):
        vault.merge("ana", [FactIn(text=f"primary sport: {sport}")], now=T0 + timedelta(days=day))
    history = rows(vault, "SELECT * FROM fact_history ORDER BY archive_id")
    assert [(h["text"], h["current_text"], h["is_current"], h["steps"]) for h in history] == [
        ("primary sport: running", "primary sport: swimming", 1, 1),
        ("primary sport: cycling", "primary sport: swimming", 1, 0),
    ]
    assert history[0]["replaced_by"] == 2 and history[0]["current_fact_id"] == 3


def test_a_chain_whose_replacement_was_archived_later_ends_at_the_last_archived_one(
    vault: Vault, db_path: Path
) -> None:
    vault.merge("ana", [FactIn(text="has sore knee", category="injury")], now=T0)
    vault.merge(
        "ana",
        [FactIn(text="has recurring knee issue", category="injury")],
        now=T0 + timedelta(days=1),
    )  # merged: same category and body tag
    vault.merge(
        "ana", [Retraction(category="injury", tags={"body:knee"})], now=T0 + timedelta(days=2)
    )
    history = {h["text"]: h for h in rows(vault, "SELECT * FROM fact_history")}
    first = history["has sore knee"]
    assert first["reason"] == "merged" and first["is_current"] == 0
    assert first["current_text"] is None
    assert (first["last_text"], first["last_reason"], first["steps"]) == (
        "has recurring knee issue",
        "resolved",
        1,
    )  # the README's "what replaced it" no longer answers NULL


def test_tags_are_kept_when_a_fact_is_archived_by_merge(vault: Vault, db_path: Path) -> None:
    vault.merge("ana", [FactIn(text="has recurring knee issue", category="injury")], now=T0)
    vault.merge(
        "ana", [Retraction(category="injury", tags={"body:knee"})], now=T0 + timedelta(days=1)
    )
    tags = rows(vault, "SELECT athlete_id, tag, status, reason FROM tagged_facts")
    assert tags == [
        {"athlete_id": "ana", "tag": "body:knee", "status": "archived", "reason": "resolved"},
    ]


def test_tags_are_kept_when_a_fact_is_archived_by_decay(vault: Vault, db_path: Path) -> None:
    vault.merge("bob", [FactIn(text="has sore hip", category="injury", confidence=0.31)], now=T0)
    vault.decay(now=T0 + timedelta(days=30))
    tags = rows(vault, "SELECT athlete_id, tag, status, reason FROM tagged_facts")
    assert tags == [
        {"athlete_id": "bob", "tag": "body:hip", "status": "archived", "reason": "decayed"},
    ]


def test_archived_tags_survive_export_and_import(vault: Vault, tmp_path: Path) -> None:
    vault.merge("ana", [FactIn(text="has recurring knee issue", category="injury")], now=T0)
    vault.merge(
        "ana", [Retraction(category="injury", tags={"body:knee"})], now=T0 + timedelta(days=1)
    )
    document = vault.transfer.export("ana")
    assert document["archive"][0]["tags"] == ["body:knee"]
    other = tmp_path / "other.db"
    with open_vault(other, upgrade=True) as copy:
        assert copy.transfer.import_document(document).changed
        assert copy.transfer.export("ana") == document
        assert not copy.transfer.import_document(document).changed  # tags compared too: idempotent
    old_style = {
        **document,
        "archive": [{k: v for k, v in a.items() if k != "tags"} for a in document["archive"]],
    }  # before 0006
    with open_vault(tmp_path / "third.db", upgrade=True) as third:
        assert third.transfer.import_document(old_style).changed
        assert third.transfer.export("ana")["archive"][0]["tags"] == []


def test_forget_erases_archived_tags_with_their_rows(vault: Vault, db_path: Path) -> None:
    vault.merge("ana", [FactIn(text="has recurring knee issue", category="injury")], now=T0)
    vault.merge(
        "ana", [Retraction(category="injury", tags={"body:knee"})], now=T0 + timedelta(days=1)
    )
    vault.forget("ana", "knee")
    assert rows(vault, "SELECT * FROM archive_tags") == []

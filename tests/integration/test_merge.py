"""Merge on a real SQLite file: seed 000's checklist and seed 002 §8, checked with raw SQL."""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest

from tests.conftest import T0
from vault import FactIn, InvalidInput, NoteIn, PatternIn, Retraction, Vault


def rows(db_path: Path, sql: str, *params: object) -> list[tuple[object, ...]]:
    with sqlite3.connect(db_path) as raw:
        return raw.execute(sql, params).fetchall()


def test_round_trip_preserves_every_field(vault: Vault, db_path: Path) -> None:
    fact = FactIn(
        text="works night shifts | weekends off",
        category="lifestyle",
        source="behavior",
        source_ref="act_42",
        extractor="rules:lifestyle",
        confidence=0.7,
        observed_at=T0,
    )
    vault.merge("ana", [fact], now=T0)
    [stored] = vault.facts("ana", now=T0)
    assert (stored.text, stored.category.value, stored.source.value) == (
        "works night shifts | weekends off",
        "context",
        "behavior",
    )
    assert (stored.source_ref, stored.extractor, stored.confidence) == (
        "act_42",
        "rules:lifestyle",
        0.7,
    )
    assert stored.learned_at == T0 and stored.learned_at.tzinfo is not None
    assert rows(db_path, "SELECT learned_at FROM facts") == [("2026-03-02T08:00:00.000000Z",)]


def test_exact_match_increments_occurrences_and_boosts(vault: Vault, db_path: Path) -> None:
    vault.merge("ana", [FactIn(text="Knee pain after long runs", confidence=0.5)], now=T0)
    result = vault.merge(
        "ana",
        [FactIn(text="knee pain, after LONG runs!", confidence=0.5)],
        now=T0 + timedelta(days=1),
    )
    assert [u.occurrences for u in result.updated] == [2]
    assert rows(db_path, "SELECT occurrences, confidence, last_reinforced_at FROM facts") == [
        (2, 0.6, "2026-03-03T08:00:00.000000Z")
    ]
    vault.merge("ana", [FactIn(text="knee pain after long runs", confidence=0.5)], now=T0)
    assert rows(db_path, "SELECT occurrences, confidence FROM facts") == [(3, 0.8)]


def test_same_type_and_entity_supersedes_with_an_archive_record(
    vault: Vault, db_path: Path
) -> None:
    old = vault.merge(
        "ana", [FactIn(text="Occasional knee soreness", category="injury", confidence=0.4)], now=T0
    ).added[0]
    result = vault.merge(
        "ana",
        [FactIn(text="Chronic knee pain after runs over 15km", category="injury", confidence=0.9)],
        now=T0 + timedelta(days=30),
    )
    new = result.added[0]
    assert new.occurrences == 2 and new.tags == ("body:knee",)
    assert rows(db_path, "SELECT original_id, superseded_by, reason FROM archive") == [
        (old.id, new.id, "merged")
    ]
    assert rows(db_path, "SELECT text FROM facts") == [("Chronic knee pain after runs over 15km",)]


def test_newer_fact_replaces_same_conflict_key(vault: Vault, db_path: Path) -> None:
    vault.merge("ana", [FactIn(text="primary sport: running")], now=T0)
    result = vault.merge("ana", [FactIn(text="primary sport: cycling")], now=T0 + timedelta(days=2))
    assert rows(db_path, "SELECT text FROM facts") == [("primary sport: cycling",)]
    assert rows(db_path, "SELECT original_text, reason, superseded_by FROM archive") == [
        ("primary sport: running", "superseded", result.added[0].id)
    ]


def test_replaying_an_older_observation_never_overwrites_a_newer_fact(
    vault: Vault, db_path: Path
) -> None:
    vault.merge(
        "ana",
        [FactIn(text="goal: marathon", observed_at=T0 + timedelta(days=10))],
        now=T0 + timedelta(days=10),
    )
    result = vault.merge(
        "ana", [FactIn(text="goal: 10k", observed_at=T0)], now=T0 + timedelta(days=11)
    )
    assert result.added == () and len(result.ignored) == 1
    assert rows(db_path, "SELECT text FROM facts") == [("goal: marathon",)]


def test_candidates_in_one_batch_apply_in_observation_order(vault: Vault, db_path: Path) -> None:
    vault.merge(
        "ana",
        [
            FactIn(text="level: advanced", observed_at=T0 + timedelta(days=2)),
            FactIn(text="level: beginner", observed_at=T0),
        ],
        now=T0 + timedelta(days=3),
    )
    assert rows(db_path, "SELECT text FROM facts") == [("level: advanced",)]
    assert rows(db_path, "SELECT original_text, original_id FROM archive") == [
        ("level: beginner", None)
    ]


def test_facts_below_floor_are_archived_as_decayed(vault: Vault, db_path: Path) -> None:
    result = vault.merge("ana", [FactIn(text="maybe likes hills", confidence=0.2)], now=T0)
    assert [a.reason.value for a in result.archived] == ["decayed"]
    assert rows(db_path, "SELECT COUNT(*) FROM facts") == [(0,)]


def test_caps_keep_the_fifteen_most_confident_facts(vault: Vault, db_path: Path) -> None:
    facts = [FactIn(text=f"fact number {i}", confidence=0.31 + i * 0.03) for i in range(20)]
    result = vault.merge("ana", facts, now=T0)
    assert len([a for a in result.archived if a.reason.value == "capped"]) == 5
    kept = [f.confidence for f in vault.top_facts("ana", now=T0)]
    assert len(kept) == 15 and kept == sorted(kept, reverse=True)
    assert min(kept) == pytest.approx(0.31 + 5 * 0.03)
    assert rows(db_path, "SELECT COUNT(*) FROM facts") == [(15,)]


def test_patterns_and_notes_are_capped_at_five_and_merge_by_text(
    vault: Vault, db_path: Path
) -> None:
    vault.merge(
        "ana",
        [PatternIn(text=f"pattern {i}", confidence=0.5 + i / 100) for i in range(7)]
        + [NoteIn(text=f"note {i}") for i in range(6)],
        now=T0,
    )
    vault.merge("ana", [PatternIn(text="Pattern 6!")], now=T0 + timedelta(hours=1))
    assert rows(db_path, "SELECT COUNT(*) FROM patterns") == [(5,)]
    assert rows(db_path, "SELECT COUNT(*) FROM notes") == [(5,)]
    assert rows(db_path, "SELECT occurrences FROM patterns WHERE text = 'pattern 6'") == [(2,)]


def test_a_retraction_archives_the_matching_fact_as_resolved(vault: Vault, db_path: Path) -> None:
    vault.merge("ana", [FactIn(text="has recurring knee issue", category="injury")], now=T0)
    vault.merge(
        "ana", [Retraction(category="injury", tags={"body:knee"})], now=T0 + timedelta(days=5)
    )
    assert rows(db_path, "SELECT reason FROM archive") == [("resolved",)]
    assert rows(db_path, "SELECT COUNT(*) FROM facts") == [(0,)]


@pytest.mark.parametrize(
    "candidate",
    [
        {"text": "   "},
        {"text": "x" * 201},
        {"text": "ok", "confidence": 1.5},
        {"text": "ok", "confidence": float("nan")},
        {"text": "ok", "source": "gossip"},
        {"text": "ok", "category": "astrology"},
        {"text": "ok", "observed_at": "2026-03-02T08:00:00"},
        {"text": "ok", "kind": "secret"},
    ],
)
def test_invalid_input_raises_and_writes_nothing(
    vault: Vault, db_path: Path, candidate: dict
) -> None:
    with pytest.raises(InvalidInput):
        vault.merge("ana", [{"text": "valid first"}, candidate], now=T0)
    assert rows(db_path, "SELECT COUNT(*) FROM athletes") == [(0,)]
    assert rows(db_path, "SELECT COUNT(*) FROM facts") == [(0,)]


def test_naive_now_is_rejected(vault: Vault) -> None:
    with pytest.raises(InvalidInput, match="timezone-aware"):
        vault.merge("ana", [FactIn(text="ok")], now=T0.replace(tzinfo=None))


def test_facts_by_category_accepts_seed_aliases_and_refuses_unknown_ones(vault: Vault) -> None:
    vault.merge(
        "ana",
        [FactIn(text="works night shifts", category="context"), FactIn(text="goal: 10k")],
        now=T0,
    )
    assert [f.text for f in vault.facts("ana", category="lifestyle")] == ["works night shifts"]
    with pytest.raises(InvalidInput, match="unknown category"):
        vault.facts("ana", category="astrology")


def test_a_value_going_back_and_forth_in_one_call_archives_each_replacement(
    vault: Vault, db_path: Path
) -> None:
    """An item added and replaced twice in one merge gives two archive rows alike in kind,
    text and reason: each keeps an id of its own, and so do its tags."""
    texts = ["weighs 70 kg", "weighs 72 kg", "weighs 70 kg", "weighs 72 kg"]
    result = vault.merge(
        "ana",
        [FactIn(text=t, conflict_key="weight", tags=frozenset({"body:weight"})) for t in texts],
        now=T0,
    )
    ids = [a.id for a in result.archived]
    assert len(ids) == 3 and len(set(ids)) == 3
    with sqlite3.connect(db_path) as db:
        stored = db.execute("SELECT id FROM archive ORDER BY id").fetchall()
        tagged = db.execute("SELECT archive_id FROM archive_tags ORDER BY archive_id").fetchall()
    assert sorted(ids) == [i for (i,) in stored] == [i for (i,) in tagged]
    assert [f.text for f in vault.facts("ana", T0)] == ["weighs 72 kg"]

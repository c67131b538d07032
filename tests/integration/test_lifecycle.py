"""Decay, forget, delete and archive retention, with the clock frozen by freezegun."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from freezegun import freeze_time

from tests.conftest import T0
from tests.integration.test_merge import rows
from vault import AthleteNotFound, FactIn, InvalidInput, NoteIn, PatternIn, Vault
from vault.domain.rules import DecayPolicy

SEED_RATE = DecayPolicy()  # seed 004's x0.95 for every category


def test_decay_is_a_function_of_elapsed_time(vault: Vault, db_path: Path) -> None:
    vault.decay_policy = SEED_RATE
    with freeze_time(T0, tick=False) as clock:
        vault.merge("ana", [FactIn(text="primary sport: running", confidence=0.8)])
        clock.tick(timedelta(days=6, hours=23))
        assert vault.decay().lowered == 0
        for _ in range(15):  # daily runs for two more weeks
            clock.tick(timedelta(days=1))
            vault.decay()
    daily = rows(db_path, "SELECT confidence FROM facts")[0][0]
    assert daily == pytest.approx(0.8 * 0.95**3)  # 21 days 23 h = 3 full weeks


def test_decay_run_once_equals_decay_run_weekly(tmp_path: Path) -> None:
    from vault import open_vault

    results = []
    for name, steps in (("once", [21]), ("weekly", [7, 14, 21]), ("twice", [21, 21])):
        with open_vault(tmp_path / f"{name}.db", upgrade=True, decay_policy=SEED_RATE) as v:
            v.merge("ana", [FactIn(text="goal: marathon", confidence=0.9)], now=T0)
            for day in steps:
                v.decay(now=T0 + timedelta(days=day))
            results.append(v.facts("ana", now=T0 + timedelta(days=21))[0].confidence)
    assert results[0] == results[1] == results[2] == pytest.approx(0.9 * 0.95**3)


def test_decay_archives_facts_that_fall_below_the_floor(vault: Vault, db_path: Path) -> None:
    vault.merge(
        "ana",
        [
            FactIn(text="likes hills", confidence=0.35),
            FactIn(text="goal: marathon", confidence=0.9),
        ],
        now=T0,
    )
    result = vault.decay(now=T0 + timedelta(weeks=4))
    assert (result.lowered, result.archived) == (1, 1)
    assert rows(db_path, "SELECT reason, original_text FROM archive") == [
        ("decayed", "likes hills")
    ]


def test_reinforcement_resets_the_decay_clock(vault: Vault) -> None:
    vault.decay_policy = SEED_RATE
    vault.merge("ana", [FactIn(text="goal: marathon", confidence=0.8)], now=T0)
    vault.merge("ana", [FactIn(text="goal: marathon")], now=T0 + timedelta(weeks=2))
    # decayed to 0.8 * 0.95^2 = 0.722 before the boost, then +0.1
    [fact] = vault.facts("ana", now=T0 + timedelta(weeks=2))
    assert fact.confidence == pytest.approx(0.722 + 0.1)
    vault.decay(now=T0 + timedelta(weeks=2, days=6))
    assert vault.facts("ana", now=T0 + timedelta(weeks=2, days=6))[0].confidence == (
        pytest.approx(0.822)
    )


def test_forget_erases_matching_items_everywhere_and_keeps_only_counts(
    vault: Vault, db_path: Path
) -> None:
    vault.merge(
        "ana",
        [
            FactIn(text="Occasional knee soreness", category="injury"),
            PatternIn(text="knee flares after hills"),
            NoteIn(text="ask about the knee gently"),
            FactIn(text="goal: marathon"),
        ],
        now=T0,
    )
    vault.merge(
        "ana",
        [FactIn(text="Zqxknee-marker pain in the knee", category="injury")],
        now=T0 + timedelta(days=1),
    )  # supersedes the first: its text moves to the archive
    result = vault.forget("ana", "my knee", now=T0 + timedelta(days=2))
    assert (result.facts, result.patterns, result.notes, result.archived) == (1, 1, 1, 1)
    assert rows(db_path, "SELECT text FROM facts") == [("goal: marathon",)]
    assert rows(db_path, "SELECT facts, patterns, notes, archived FROM forget_log") == [
        (1, 1, 1, 1)
    ]
    on_disk = db_path.read_bytes() + (
        db_path.with_name("vault.db-wal").read_bytes()
        if db_path.with_name("vault.db-wal").exists()
        else b""
    )
    assert b"Zqxknee-marker" not in on_disk and b"soreness" not in on_disk


def test_forget_needs_words_and_a_known_athlete(vault: Vault) -> None:
    vault.merge("ana", [FactIn(text="goal: marathon")], now=T0)
    with pytest.raises(InvalidInput):
        vault.forget("ana", "  the  ")
    with pytest.raises(AthleteNotFound):
        vault.forget("bob", "marathon")


def test_delete_athlete_erases_every_row_and_only_theirs(vault: Vault, db_path: Path) -> None:
    for athlete in ("ana", "bob"):
        vault.merge(
            athlete,
            [
                FactIn(text="has recurring knee issue", category="injury"),
                PatternIn(text="skips Mondays"),
                NoteIn(text="likes data"),
            ],
            now=T0,
        )
        vault.merge(
            athlete, [FactIn(text="knee pain again", category="injury")], now=T0 + timedelta(days=1)
        )
    counts = vault.delete_athlete("ana")
    # the merged knee fact kept the first message's evidence beside the second's
    assert counts == {
        "fact_tags": 1,
        "fact_evidence": 2,
        "facts": 1,
        "patterns": 1,
        "notes": 1,
        "archive": 1,
        "forget_log": 0,
        "athletes": 1,
        "episodes": 0,
        "episode_vectors": 0,
        "episode_archive": 0,
    }
    for table in ("facts", "patterns", "notes", "archive", "athletes"):
        assert rows(
            db_path,
            f"SELECT COUNT(*) FROM {table} WHERE "
            + ("id" if table == "athletes" else "athlete_id")
            + " = 'ana'",
        ) == [(0,)]
    assert rows(db_path, "SELECT COUNT(*) FROM facts WHERE athlete_id = 'bob'") == [(1,)]
    with pytest.raises(AthleteNotFound):
        vault.delete_athlete("ana")


def test_cleanup_archive_keeps_ninety_days(vault: Vault, db_path: Path) -> None:
    vault.merge("ana", [FactIn(text="goal: 5k")], now=T0)
    vault.merge("ana", [FactIn(text="goal: 10k")], now=T0 + timedelta(days=1))
    vault.merge("ana", [FactIn(text="goal: half marathon")], now=T0 + timedelta(days=60))
    with freeze_time(T0 + timedelta(days=92), tick=False):
        assert vault.cleanup_archive() == 1
    assert rows(db_path, "SELECT original_text FROM archive") == [("goal: 10k",)]
    with pytest.raises(InvalidInput):
        vault.cleanup_archive(retention_days=-1)


def test_history_follows_what_replaced_what(vault: Vault) -> None:
    first = vault.merge("ana", [FactIn(text="goal: 5k")], now=T0).added[0]
    vault.merge("ana", [FactIn(text="goal: 10k")], now=T0 + timedelta(days=1))
    last = vault.merge("ana", [FactIn(text="goal: marathon")], now=T0 + timedelta(days=2)).added[0]
    for start in (first.id, last.id):
        chain, current = vault.history(start)
        assert [a.original_text for a in chain] == ["goal: 5k", "goal: 10k"]
        assert current == last.id


def test_forgetting_the_replacement_leaves_no_link_to_nothing(vault: Vault, db_path: Path) -> None:
    first = vault.merge("ana", [FactIn(text="primary sport: cycling")], now=T0).added[0]
    vault.merge("ana", [FactIn(text="primary sport: running")], now=T0 + timedelta(days=1))
    vault.forget("ana", "running", now=T0 + timedelta(days=2))
    assert rows(db_path, "SELECT original_text, superseded_by FROM archive") == [
        ("primary sport: cycling", None)
    ]
    chain, current = vault.history(first.id)
    assert [a.original_text for a in chain] == ["primary sport: cycling"] and current is None

"""Evidence before belief: every fact keeps what it was read from, and loses it with the fact."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from tests.conftest import T0
from tests.integration.test_merge import rows
from vault import FactIn, FactNotFound, InvalidInput, Vault


def _fact(text: str, ref: str, words: str, **extra: object) -> FactIn:
    return FactIn(
        text=text,
        source="user_message",
        source_ref=ref,
        extractor="rules:test",
        evidence=words,
        observed_at=extra.pop("at", T0),
        **extra,
    )  # type: ignore[arg-type]


def test_a_fact_shows_each_observation_it_rests_on(vault: Vault) -> None:
    vault.merge("ana", [_fact("prefers morning sessions", "m1", "I run most mornings")], now=T0)
    later = T0 + timedelta(days=3)
    vault.merge(
        "ana", [_fact("prefers morning sessions", "m2", "mornings suit me", at=later)], now=later
    )
    (fact,) = vault.facts("ana", later)
    evidence = vault.why([fact.id])[fact.id]
    assert [(e.source_ref, e.words) for e in evidence] == [
        ("m1", "I run most mornings"),
        ("m2", "mornings suit me"),
    ]
    assert evidence[0].observed_at == T0 and evidence[1].observed_at == later
    assert fact.occurrences == 2


def test_a_merged_fact_keeps_the_evidence_of_the_fact_it_folds_in(vault: Vault) -> None:
    vault.merge("ana", [_fact("has knee issue", "m1", "knee sore", category="injury")], now=T0)
    later = T0 + timedelta(days=1)
    vault.merge(
        "ana",
        [_fact("has recurring knee issue", "m2", "knee again", category="injury", at=later)],
        now=later,
    )
    (fact,) = vault.facts("ana", later)
    assert fact.text == "has recurring knee issue"
    assert [e.source_ref for e in vault.why([fact.id])[fact.id]] == ["m1", "m2"]


def test_a_superseded_slot_value_does_not_inherit_the_old_values_evidence(vault: Vault) -> None:
    vault.merge("ana", [_fact("goal: 10k", "m1", "training for a 10k")], now=T0)
    later = T0 + timedelta(days=1)
    vault.merge(
        "ana", [_fact("goal: marathon", "m2", "signed up for a marathon", at=later)], now=later
    )
    (fact,) = vault.facts("ana", later)
    assert [e.words for e in vault.why([fact.id])[fact.id]] == ["signed up for a marathon"]


def test_the_view_lists_evidence_beside_the_fact(vault: Vault, db_path: Path) -> None:
    vault.merge("ana", [_fact("likes hill repeats", "m1", "I love hill repeats")], now=T0)
    assert rows(
        db_path, "SELECT athlete_id, text, source, source_ref, words FROM fact_evidence_list"
    ) == [("ana", "likes hill repeats", "user_message", "m1", "I love hill repeats")]


def test_forget_and_delete_erase_the_evidence(vault: Vault, db_path: Path) -> None:
    for athlete in ("ana", "bob"):
        vault.merge(
            athlete,
            [_fact("has recurring calf issue", "n1", "calf tight again", category="injury")],
            now=T0,
        )
    vault.forget("ana", "calf")
    assert rows(db_path, "SELECT athlete_id FROM fact_evidence") == [("bob",)]
    vault.delete_athlete("bob")
    assert rows(db_path, "SELECT COUNT(*) FROM fact_evidence") == [(0,)]


def test_forget_erases_words_that_match_behind_a_fact_that_stays(
    vault: Vault, db_path: Path
) -> None:
    vault.merge(
        "ana",
        [
            _fact("primary sport: running", "m1", "I run despite my sore knee"),
            _fact("likes hill repeats", "m2", "hill repeats are my thing"),
        ],
        now=T0,
    )
    vault.forget("ana", "knee")
    assert rows(db_path, "SELECT text FROM facts ORDER BY text") == [
        ("likes hill repeats",),
        ("primary sport: running",),
    ]
    assert rows(db_path, "SELECT words FROM fact_evidence") == [("hill repeats are my thing",)]


def test_evidence_words_are_speech_personal_data_redacted_in_place(
    vault: Vault, db_path: Path
) -> None:
    vault.merge("ana", [_fact("likes swimming", "m1", "call me on +44 7700 900123")], now=T0)
    assert rows(db_path, "SELECT words FROM fact_evidence") == [("call me on [phone]",)]


def test_learned_words_are_kept_whole_names_and_races_included(vault: Vault) -> None:
    vault.ingest_message("ana", "I swim every Tuesday with Jonathan Meyers", now=T0)
    (fact,) = vault.facts("ana", T0)
    (evidence,) = vault.why([fact.id])[fact.id]
    assert fact.text == "primary sport: swimming"
    assert evidence.words == "I swim every Tuesday with Jonathan Meyers"
    assert evidence.source.value == "user_message" and evidence.extractor == "rules:sport"


def test_why_names_what_it_cannot_explain(vault: Vault) -> None:
    with pytest.raises(FactNotFound):
        vault.why([12345])
    with pytest.raises(InvalidInput):
        vault.why(["1"])  # type: ignore[list-item]


@pytest.mark.parametrize(
    "first, second", [("likes yoga", "also does yoga"), ("also does yoga", "likes yoga")]
)
def test_liking_and_doing_an_activity_are_one_fact(vault: Vault, first: str, second: str) -> None:
    vault.merge("ana", [_fact(first, "m1", "first words")], now=T0)
    later = T0 + timedelta(days=1)
    vault.merge("ana", [_fact(second, "m2", "second words", at=later)], now=later)
    (fact,) = vault.facts("ana", later)
    assert (fact.text, fact.occurrences) == ("likes yoga", 2)
    assert [e.words for e in vault.why([fact.id])[fact.id]] == ["first words", "second words"]

"""The athlete corrects one item by id (v.items): edits are kept in history, and what was
removed as wrong (or deleted) is not learned again from the same evidence."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.conftest import T0, Db
from vault import FactIn, InvalidInput, NoteIn, PatternIn, Vault
from vault.domain.errors import AthleteNotFound, PrivacyRefused

LATER = T0 + timedelta(hours=2)
NEXT_SESSION = T0 + timedelta(days=3)
MESSAGE = "I have a recurring knee issue and I usually run in the morning"


def _fact(vault: Vault, text: str, at=T0) -> int:
    [found] = [f for f in vault.facts("ana", at) if f.text == text]
    return found.id


def _learn(vault: Vault, at=T0) -> set[str]:
    vault.ingest_message("ana", MESSAGE, now=at)
    return {f.text for f in vault.facts("ana", at)}


def test_an_edit_is_a_manual_observation_and_the_old_text_stays_in_history(
    vault: Vault, db: Db
) -> None:
    vault.merge("ana", [FactIn(text="primary sport: running", confidence=0.6)], now=T0)
    old = _fact(vault, "primary sport: running")
    edited = vault.items.edit("ana", "fact", old, "primary sport: trail running", now=LATER)
    assert edited.item.text == "primary sport: trail running"
    assert edited.item.source.value == "manual" and edited.item.confidence >= 0.8
    assert edited.item.category.value == "sport"  # type: ignore[union-attr]
    assert (edited.archived.reason.value, edited.archived.superseded_by) == (
        "edited",
        edited.item.id,
    )
    replaced, active = vault.history(edited.item.id)
    assert [(a.original_text, a.reason.value) for a in replaced] == [
        ("primary sport: running", "edited")
    ]
    assert active == edited.item.id
    assert [f.text for f in vault.facts("ana", LATER)] == ["primary sport: trail running"]
    assert db.rows("SELECT reason FROM erasures WHERE item_key IS NOT NULL") == [("edited",)]


def test_patterns_and_notes_are_edited_in_place_of_the_old(vault: Vault) -> None:
    vault.merge(
        "ana",
        [PatternIn(text="skips Mondays"), NoteIn(text="likes blunt feedback")],
        now=T0,
    )
    [pattern] = vault.patterns("ana")
    edited = vault.items.edit("ana", "pattern", pattern.id, "skips Mondays after races", now=LATER)
    assert [p.text for p in vault.patterns("ana")] == ["skips Mondays after races"]
    assert edited.archived.kind.value == "pattern"
    assert edited.archived.superseded_by == edited.item.id


def test_wrong_removes_the_item_and_keeps_only_a_keyed_hash(vault: Vault, db: Db) -> None:
    vault.merge("ana", [FactIn(text="has a sore knee", category="injury")], now=T0)
    removed = vault.items.reject("ana", "fact", _fact(vault, "has a sore knee"), now=LATER)
    assert removed.reason == "wrong"
    assert vault.facts("ana", LATER) == []
    assert db.rows("SELECT COUNT(*) FROM archive") == [(0,)]  # no copy of the text anywhere
    [(reason, key)] = db.rows("SELECT reason, item_key FROM erasures")
    assert reason == "wrong" and len(key) == 64 and "knee" not in key


def test_a_rejected_fact_is_not_learned_again_from_the_same_messages(vault: Vault) -> None:
    learned = _learn(vault)
    assert "has recurring knee issue" in learned
    vault.items.reject("ana", "fact", _fact(vault, "has recurring knee issue"), now=LATER)
    relearned = _learn(vault)  # the same messages, ingested again (a replay, a re-import)
    assert "has recurring knee issue" not in relearned
    assert relearned == learned - {"has recurring knee issue"}  # the rest is untouched


def test_a_new_statement_in_a_later_session_is_learned_again(vault: Vault) -> None:
    _learn(vault)
    vault.items.delete("ana", "fact", _fact(vault, "has recurring knee issue"), now=LATER)
    assert "has recurring knee issue" in _learn(vault, NEXT_SESSION)


def test_an_edited_fact_does_not_come_back_from_its_old_evidence(vault: Vault) -> None:
    _learn(vault)
    old = _fact(vault, "has recurring knee issue")
    vault.items.edit("ana", "fact", old, "had a knee issue last year, fine now", now=LATER)
    texts = _learn(vault)
    assert "has recurring knee issue" not in texts
    assert "had a knee issue last year, fine now" in {f.text for f in vault.facts("ana", LATER)}


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda v, i: v.items.edit("ana", "fact", i, "call me on +1 555 123 4567"), PrivacyRefused),
        (lambda v, i: v.items.edit("ana", "fact", i, "goal: sub-50 10k."), InvalidInput),  # same
        (lambda v, i: v.items.edit("ana", "fact", i, "   "), InvalidInput),
        (lambda v, i: v.items.edit("ana", "fact", i + 100, "goal: marathon"), InvalidInput),
        (lambda v, i: v.items.edit("ana", "habit", i, "goal: marathon"), InvalidInput),
        (lambda v, i: v.items.reject("ana", "pattern", i), InvalidInput),  # a fact's id
        (lambda v, i: v.items.delete("ana", "fact", 0), InvalidInput),
        (lambda v, i: v.items.delete("ana", "fact", True), InvalidInput),
        (lambda v, i: v.items.delete("bob", "fact", i), AthleteNotFound),
    ],
)
def test_bad_input_is_one_clear_error_and_changes_nothing(
    vault: Vault, db: Db, call, error: type[Exception]
) -> None:
    vault.merge("ana", [FactIn(text="goal: sub-50 10k")], now=T0)
    before = db.rows("SELECT id, text, confidence FROM facts"), db.rows("SELECT * FROM archive")
    with pytest.raises(error):
        call(vault, _fact(vault, "goal: sub-50 10k"))
    after = db.rows("SELECT id, text, confidence FROM facts"), db.rows("SELECT * FROM archive")
    assert after == before
    assert db.rows("SELECT COUNT(*) FROM erasures") == [(0,)]


def test_another_athletes_item_reads_like_a_missing_one(vault: Vault) -> None:
    vault.merge("ana", [FactIn(text="goal: sub-50 10k")], now=T0)
    vault.merge("bob", [FactIn(text="goal: marathon")], now=T0)
    bobs = vault.facts("bob", T0)[0].id
    with pytest.raises(InvalidInput, match="no active fact with id"):
        vault.items.reject("ana", "fact", bobs)
    assert [f.text for f in vault.facts("bob", T0)] == ["goal: marathon"]

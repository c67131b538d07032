"""Activity notes are episodes first; durable facts need repeated evidence across sessions."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

from tests.conftest import T0
from tests.integration.test_merge import rows
from vault import Vault


def _session(n: int, note: str | None = None, sport: str = "Run", **extra: Any) -> dict[str, Any]:
    return {
        "id": f"a{n}",
        "started_at": T0 + timedelta(days=2 * n),
        "name": "Morning Run",
        "sport": sport,
        "description": note,
        **extra,
    }


def _prompt(vault: Vault, days: int = 60) -> dict[str, float]:
    return {
        f.text: f.confidence
        for f in vault.facts("ana", T0 + timedelta(days=days), min_confidence=0.5)
    }


def test_one_note_is_an_episode_and_a_fact_below_the_prompt(vault: Vault) -> None:
    vault.ingest_activity("ana", _session(1, "Calves on fire after the hills"))
    facts = vault.facts("ana", T0 + timedelta(days=3))
    assert facts and all(f.confidence < 0.5 for f in facts)
    assert _prompt(vault, 3) == {}
    recalled = vault.episodes.recall("ana", "calves hills", now=T0 + timedelta(days=3))
    assert "activity:a1" in {e.ref for e in recalled}  # the session, with its note, is an episode


def test_a_body_part_hurting_in_three_sessions_becomes_a_recurring_issue(vault: Vault) -> None:
    notes = [
        "Left calf tight from the start",
        "easy miles",
        "Calf sore again on the hills",
        "felt great",
        "calf niggle, cut it short",
    ]
    for n, note in enumerate(notes, 1):
        vault.ingest_activity("ana", _session(n, note))
    prompt = _prompt(vault, 11)
    assert prompt.get("has recurring calf issue", 0) >= 0.8
    (fact,) = [
        f
        for f in vault.facts("ana", T0 + timedelta(days=11))
        if f.text == "has recurring calf issue"
    ]
    cited = {
        e.source_ref for e in vault.why([fact.id])[fact.id] if e.source.value == "pattern_analysis"
    }
    assert cited == {"a1", "a3", "a5"}


def test_two_sore_sessions_are_not_a_trait(vault: Vault) -> None:
    for n, note in enumerate(["hamstring tight", "easy", "hamstring sore"], 1):
        vault.ingest_activity("ana", _session(n, note))
    assert not any("hamstring" in text for text in _prompt(vault, 7))


def test_a_resolved_issue_is_not_consolidated(vault: Vault) -> None:
    notes = ["knee sore", "knee sore again", "knee niggle", "knee is fine now, no pain"]
    for n, note in enumerate(notes, 1):
        vault.ingest_activity("ana", _session(n, note))
    assert not any("knee" in text for text in _prompt(vault, 9))


def test_logged_types_make_the_primary_sport_and_side_activities(vault: Vault) -> None:
    for n in range(1, 7):
        vault.ingest_activity("ana", _session(n))
    for n in range(7, 12):
        vault.ingest_activity("ana", _session(n, sport="Weight Training"))
    vault.ingest_activity("ana", _session(12, sport="Ride"))
    prompt = _prompt(vault, 25)
    assert prompt.get("primary sport: running", 0) >= 0.8
    assert prompt.get("also does strength training", 0) >= 0.8
    assert "primary sport: cycling" not in prompt


def test_a_race_named_ahead_is_a_goal_and_a_finished_one_is_not(vault: Vault) -> None:
    vault.ingest_activity("ana", _session(1, "Official time 3:10, marathon done!"))
    assert not any(t.startswith("goal:") for t in _prompt(vault, 3))
    vault.ingest_activity("ana", _session(2, "Six weeks until the Chicago half, legs good"))
    assert "goal: half marathon" in _prompt(vault, 5)


def test_runs_with_others_become_a_preference(vault: Vault) -> None:
    notes = ["long run with the club", "solo tempo", "easy w/ Sam", "track night, big group"]
    for n, note in enumerate(notes, 1):
        vault.ingest_activity("ana", _session(n, note))
    assert "likes group runs" in _prompt(vault, 9)


def test_the_company_fact_names_the_sessions_shared(vault: Vault) -> None:
    """A cyclist's club rides are group rides, not group runs; a mix says only a group."""
    rides = ["club ride to the coast", "social ride w/ Ben", "chain gang with the club"]
    for n, note in enumerate(rides, 1):
        vault.ingest_activity("ana", _session(n, note, sport="Ride"))
    prompt = _prompt(vault, 9)
    assert "likes group rides" in prompt and "likes group runs" not in prompt
    for n, (note, sport) in enumerate(
        [
            ("walk with the walking club", "Walk"),
            ("hike w/ Pete", "Hike"),
            ("group walk", "Walk"),
            ("club hike", "Hike"),
        ],
        4,
    ):
        vault.ingest_activity("bo", _session(n, note, sport=sport))
    mixed = {f.text for f in vault.facts("bo", T0 + timedelta(days=20), min_confidence=0.5)}
    assert "trains with a group" in mixed and not mixed & {"likes group runs", "likes group rides"}


def test_consolidation_is_idempotent(vault: Vault, db_path: Path) -> None:
    for n in range(1, 7):
        vault.ingest_activity("ana", _session(n, "with the club" if n % 2 else None))
    before = rows(db_path, "SELECT id, text, occurrences, confidence FROM facts ORDER BY id")
    evidence = rows(db_path, "SELECT COUNT(*) FROM fact_evidence")
    result = vault.consolidate("ana", now=T0 + timedelta(days=13))
    assert result.added == () and result.updated == ()
    assert (
        rows(db_path, "SELECT id, text, occurrences, confidence FROM facts ORDER BY id") == before
    )
    assert rows(db_path, "SELECT COUNT(*) FROM fact_evidence") == evidence

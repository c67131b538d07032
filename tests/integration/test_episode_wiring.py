"""Episodes ride along the fact paths: activities record them, forget and delete erase them."""

from __future__ import annotations

from datetime import datetime, timezone

from vault import Vault

T0 = datetime(2026, 5, 1, 7, tzinfo=timezone.utc)
HILLS = {
    "id": "act_9",
    "started_at": "2026-05-01T07:00:00Z",
    "name": "Hill repeats",
    "private_note": "calf tight after the hills, legs felt flat",
    "planned": True,
    "completed": True,
    "rpe": 8,
    "duration_min": 50,
}


def test_an_ingested_activity_records_its_episode_in_the_same_transaction(vault: Vault) -> None:
    vault.ingest_activity("ana", HILLS)
    recalled = vault.episodes.recall("ana", "hill repeats", now=T0)
    assert recalled and recalled[0].ref.startswith("activity:act_9")
    vault.ingest_activity("ana", HILLS)  # the same activity again rewrites, never duplicates
    assert len({e.ref for e in vault.episodes.recall("ana", "hill repeats", k=10, now=T0)}) == len(
        recalled
    )


def test_forget_and_delete_cover_episodes(vault: Vault) -> None:
    vault.ingest_activity("ana", HILLS)
    assert vault.forget("ana", "hill repeats", now=T0).episodes >= 1
    assert vault.episodes.recall("ana", "hill repeats", now=T0) == []
    vault.ingest_activity("ana", HILLS)
    assert vault.delete_athlete("ana")["episodes"] >= 1

"""A job change said in passing is learned when it is said again on another day (issue 28
review): one passing reading waits beside the believed job, below the block, and a second
day's reading takes its place; one promise, or repeats within a day, never do."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from freezegun import freeze_time

from vault import Vault

T0 = datetime(2026, 3, 2, 8, tzinfo=timezone.utc)


@pytest.mark.parametrize(
    ("believed", "change", "old", "new"),
    [
        (
            "I work at the bank",
            "I just got a new job as a teacher",
            "works at the bank",
            "works as a teacher",
        ),
        (
            "I work as a nurse",
            "I started a new job as a paramedic last week",
            "works as a nurse",
            "works as a paramedic",
        ),
    ],
)
def test_a_job_change_said_on_several_days_replaces_the_believed_job(
    vault: Vault, believed: str, change: str, old: str, new: str
) -> None:
    with freeze_time(T0):
        vault.ingest_message("ana", believed)
    assert old in vault.memory_block("ana", now=T0).text
    for day in range(1, 5):
        with freeze_time(T0 + timedelta(days=day)):
            vault.ingest_message("ana", change)
    block = vault.memory_block("ana", now=T0 + timedelta(days=4)).text
    assert new in block
    assert old not in block


def test_a_job_change_said_once_waits_below_the_block(vault: Vault) -> None:
    with freeze_time(T0):
        vault.ingest_message("ana", "I work at the bank")
    for hours in (1, 2, 5):  # the same day, however often
        with freeze_time(T0 + timedelta(days=1, hours=hours)):
            vault.ingest_message("ana", "I just got a new job as a teacher")
    block = vault.memory_block("ana", now=T0 + timedelta(days=1, hours=6)).text
    assert "works at the bank" in block
    assert "teacher" not in block


@pytest.mark.parametrize(
    ("job", "study"),
    [
        ("I work as a nurse", "I'm a student"),
        ("I'm a mechanic at a garage", "I'm majoring in history"),
        ("I work at the bank", "I'm in grad school"),
    ],
)
def test_study_and_a_job_are_two_slots_neither_replaces_the_other(
    vault: Vault, job: str, study: str
) -> None:
    """Being a student is not a job (a person studies and works at once): a believed study does
    not archive a believed job, nor the job the study, in either order."""
    for first, second in ((job, study), (study, job)):
        athlete = f"ana-{first[:12]}"
        with freeze_time(T0):
            vault.ingest_message(athlete, first)
        with freeze_time(T0 + timedelta(days=1)):
            vault.ingest_message(athlete, second)
        block = vault.memory_block(athlete, now=T0 + timedelta(days=1)).text
        assert "is a student" in block
        assert "works " in block


def test_a_new_job_still_replaces_the_old_one_beside_a_study(vault: Vault) -> None:
    with freeze_time(T0):
        vault.ingest_message("ana", "I'm a student. I work as a nurse.")
    with freeze_time(T0 + timedelta(days=1)):
        vault.ingest_message("ana", "I work as a paramedic")
    block = vault.memory_block("ana", now=T0 + timedelta(days=1)).text
    assert "works as a paramedic" in block
    assert "works as a nurse" not in block
    assert "is a student" in block


@pytest.mark.parametrize(
    "leaving",
    [
        "I graduated last month and now I work as a nurse",
        "I'm not a student anymore, I work as a nurse now",
    ],
)
def test_leaving_study_ends_the_study(vault: Vault, leaving: str) -> None:
    """Study has a slot of its own, so a job does not end it; saying one left study does."""
    for day in range(2):
        with freeze_time(T0 + timedelta(days=day)):
            vault.ingest_message("ana", "I'm a college student")
    later = T0 + timedelta(days=5)
    assert "is a student" in vault.memory_block("ana", now=later).text
    with freeze_time(later):
        vault.ingest_message("ana", leaving)
    block = vault.memory_block("ana", now=later + timedelta(hours=1)).text
    assert "is a student" not in block and "works as a nurse" in block

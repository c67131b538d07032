"""Whole-vault decay is set-wise: same numbers as the per-athlete rule, writes only changes."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from pathlib import Path

from sqlalchemy import event

from tests.integration.test_lifecycle import rows
from vault import FactIn, Vault
from vault.domain.rules import decayed
from vault.services import memory as memory_service

T0 = datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc)


def fill(vault: Vault, athletes: int, seed: int = 7) -> None:
    chance = random.Random(seed)
    for a in range(athletes):
        start = T0 + timedelta(hours=chance.randrange(0, 24 * 60))
        vault.merge(
            f"athlete-{a}",
            [
                FactIn(text=f"fact {i} of {a}", confidence=round(chance.uniform(0.3, 1.0), 6))
                for i in range(6)
            ],
            now=start,
        )


def writes_during(vault: Vault, action: object) -> list[str]:
    """The INSERT / UPDATE / DELETE statements that changed at least one row."""
    seen: list[str] = []

    def record(conn, cursor, statement, params, context, many):  # type: ignore[no-untyped-def]
        verb = statement.lstrip().split(None, 1)[0].upper()
        if verb in {"INSERT", "UPDATE", "DELETE"} and cursor.rowcount > 0:
            seen.append(statement)

    event.listen(vault.engine, "after_cursor_execute", record)
    try:
        action()  # type: ignore[operator]
    finally:
        event.remove(vault.engine, "after_cursor_execute", record)
    return seen


def test_decay_gives_every_fact_the_rules_value_and_archives_below_the_floor(
    vault: Vault, db_path: Path
) -> None:
    fill(vault, 12)
    before = rows(db_path, "SELECT id, base_confidence, last_reinforced_at, confidence FROM facts")
    later = T0 + timedelta(weeks=8)
    result = vault.decay(now=later)
    after = dict(rows(db_path, "SELECT id, confidence FROM facts"))
    archived = {
        i for (i,) in rows(db_path, "SELECT original_id FROM archive WHERE reason='decayed'")
    }
    changed = 0
    for fact_id, base, last, stored in before:
        moment = datetime.fromisoformat(str(last).replace("Z", "+00:00"))
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=timezone.utc)
        expected = decayed(base, moment, later)
        if expected < 0.3:
            assert fact_id in archived and fact_id not in after
        else:
            assert after[fact_id] == expected
            changed += expected != stored
    assert result.archived == len(archived) > 0
    assert result.lowered == changed > 0


def test_a_second_run_with_nothing_to_change_writes_nothing(vault: Vault) -> None:
    fill(vault, 5)
    later = T0 + timedelta(weeks=10)
    vault.decay(now=later)
    assert writes_during(vault, lambda: vault.decay(now=later)) == []
    assert vault.decay(now=later).lowered == 0


def test_decay_statements_do_not_grow_with_rows(vault: Vault, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(memory_service, "DECAY_ATHLETES", 10)  # pages of athletes (PostgreSQL)
    fill(vault, 2)  # 12 facts
    small = len(writes_during(vault, lambda: vault.decay(now=T0 + timedelta(weeks=12))))
    fill(vault, 8, seed=8)  # 48 more facts, all unreinforced
    large = len(writes_during(vault, lambda: vault.decay(now=T0 + timedelta(weeks=40))))
    batches = 48 // 10 + 1
    assert small > 0 and large <= small * batches  # at most one UPDATE + archive + DELETE a batch


def test_decay_reads_only_facts_whose_week_has_ended(vault: Vault, db_path: Path) -> None:
    vault.merge("ana", [FactIn(text="goal: marathon", confidence=0.9)], now=T0)
    assert rows(db_path, "SELECT decay_due_at FROM facts") == [("2026-03-09T08:00:00.000000Z",)]
    just_before = T0 + timedelta(days=7) - timedelta(microseconds=1)
    assert writes_during(vault, lambda: vault.decay(now=just_before)) == []
    assert vault.decay(now=T0 + timedelta(days=7)).lowered == 1
    assert rows(db_path, "SELECT confidence, decay_due_at FROM facts") == [
        (0.882, "2026-03-16T08:00:00.000000Z")  # goals decay x0.98 a week (DecayPolicy)
    ]


def test_a_fact_written_without_a_due_time_is_recomputed_by_the_next_decay(
    vault: Vault, db_path: Path
) -> None:
    vault.merge("ana", [FactIn(text="goal: marathon", confidence=0.9)], now=T0)
    import sqlite3

    with sqlite3.connect(db_path) as raw:  # what a restore or a hand-made row leaves: the default
        raw.execute("UPDATE facts SET decay_due_at = '1970-01-01T00:00:00.000000Z'")
    assert vault.decay(now=T0 + timedelta(days=15)).lowered == 1
    assert rows(db_path, "SELECT confidence, decay_due_at FROM facts") == [
        (0.86436, "2026-03-23T08:00:00.000000Z")  # 0.9 x 0.98^2
    ]


def test_the_sql_path_and_the_row_batch_path_store_the_same_rows(
    tmp_path: Path, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    from vault import open_vault

    states = []
    for in_sql in (True, False):
        monkeypatch.setattr(memory_service, "runs_rule_in_sql", lambda connection: in_sql)
        path = tmp_path / f"decay-{in_sql}.db"
        with open_vault(path, upgrade=True) as v:
            fill(v, 10, seed=3)
            first = v.decay(now=T0 + timedelta(weeks=9))
            second = v.decay(now=T0 + timedelta(weeks=13, days=2))
        states.append(
            (
                first.archived,
                second.archived,
                rows(path, "SELECT id, confidence, decay_due_at FROM facts ORDER BY id"),
                rows(
                    path,
                    "SELECT original_id, confidence, reason, archived_at FROM archive ORDER BY id",
                ),
            )
        )
    assert states[0] == states[1]
    assert states[0][2] and states[0][3]


def test_decay_reports_progress_up_to_the_number_of_facts_due(vault: Vault, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from vault.storage import decay_sql

    monkeypatch.setattr(decay_sql, "PROGRESS_EVERY", 7)
    monkeypatch.setattr(memory_service, "DECAY_ATHLETES", 7)
    fill(vault, 6)
    later = T0 + timedelta(weeks=9)
    due = vault.admin.facts_due_count(now=later)
    reported: list[int] = []
    vault.decay(now=later, progress=reported.append)
    assert due > 7 and sum(reported) == due and len(reported) >= 2

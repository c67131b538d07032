"""Transactions, locking and the database's own guarantees."""

from __future__ import annotations

import hashlib
import multiprocessing
import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import exc, text

from tests.conftest import T0
from tests.integration.test_merge import rows
from vault import FactIn, Vault, open_vault
from vault.domain.errors import VaultError
from vault.storage.engine import create_vault_engine, sqlite_url
from vault.storage.repositories.archive import ArchiveRepository


def test_an_exception_mid_merge_leaves_the_file_unchanged(
    vault: Vault, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    vault.merge("ana", [FactIn(text="primary sport: running")], now=T0)
    before = rows(db_path, "SELECT * FROM facts") + rows(db_path, "SELECT * FROM athletes")

    def explode(*_: object, **__: object) -> None:
        raise RuntimeError("disk on fire")

    # the facts are already deleted/inserted when archiving fails
    monkeypatch.setattr(ArchiveRepository, "add", explode)
    with pytest.raises(RuntimeError, match="disk on fire"):
        vault.merge(
            "ana",
            [FactIn(text="primary sport: cycling"), FactIn(text="goal: 10k")],
            now=T0 + timedelta(days=1),
        )
    after = rows(db_path, "SELECT * FROM facts") + rows(db_path, "SELECT * FROM athletes")
    assert after == before
    assert rows(db_path, "SELECT COUNT(*) FROM archive") == [(0,)]


def test_unit_of_work_rolls_back_unless_committed(vault: Vault, db_path: Path) -> None:
    with vault.unit_of_work() as uow:
        uow.athletes.ensure("ana", T0)
    assert rows(db_path, "SELECT COUNT(*) FROM athletes") == [(0,)]
    with vault.unit_of_work() as uow:
        uow.athletes.ensure("ana", T0)
        uow.commit()
    assert rows(db_path, "SELECT COUNT(*) FROM athletes") == [(1,)]


@pytest.mark.parametrize(
    "statement",
    [
        "INSERT INTO facts (athlete_id, text, normalized_text, category, conflict_key, source,"
        " confidence, base_confidence, occurrences, learned_at, observed_at, last_reinforced_at,"
        " updated_at) VALUES ('ana', 'goal: 5k', 'goal 5k', 'goal', 'other key', 'manual', 0.5,"
        " 0.5, 1, '2026-01-01', '2026-01-01', '2026-01-01', '2026-01-01')",
        "INSERT INTO facts (athlete_id, text, normalized_text, category, conflict_key, source,"
        " confidence, base_confidence, occurrences, learned_at, observed_at, last_reinforced_at,"
        " updated_at) VALUES ('ana', 'goal: ultra', 'goal ultra', 'goal', 'goal', 'manual', 0.5,"
        " 0.5, 1, '2026-01-01', '2026-01-01', '2026-01-01', '2026-01-01')",
        "UPDATE facts SET confidence = 1.5",
        "UPDATE facts SET occurrences = 0",
        "UPDATE facts SET category = 'astrology'",
        "INSERT INTO facts (athlete_id, text, normalized_text, category, source, confidence,"
        " base_confidence, occurrences, learned_at, observed_at, last_reinforced_at, updated_at)"
        " VALUES ('nobody', 'x', 'x', 'general', 'manual', 0.5, 0.5, 1, '2026-01-01',"
        " '2026-01-01', '2026-01-01', '2026-01-01')",
    ],
)
def test_the_database_itself_refuses_broken_rows(
    vault: Vault, db_path: Path, statement: str
) -> None:
    vault.merge("ana", [FactIn(text="goal: 5k")], now=T0)
    engine = create_vault_engine(sqlite_url(db_path))  # foreign keys on, like the library
    with pytest.raises(exc.IntegrityError):
        with engine.begin() as connection:
            connection.execute(text(statement))
    engine.dispose()


def test_every_connection_gets_the_vault_pragmas(vault: Vault) -> None:
    with vault.engine.connect() as connection:
        pragmas = {
            name: connection.exec_driver_sql(f"PRAGMA {name}").scalar()
            for name in (
                "journal_mode",
                "foreign_keys",
                "synchronous",
                "busy_timeout",
                "secure_delete",
            )
        }
    assert pragmas == {
        "journal_mode": "wal",
        "foreign_keys": 1,
        "synchronous": 1,
        "busy_timeout": 5000,
        "secure_delete": 1,
    }


def test_a_read_only_vault_cannot_write(vault: Vault, db_path: Path) -> None:
    vault.merge("ana", [FactIn(text="goal: 5k")], now=T0)
    before = hashlib.sha256(db_path.read_bytes()).hexdigest()
    with open_vault(db_path, read_only=True) as reader:
        assert [f.text for f in reader.facts("ana")] == ["goal: 5k"]
        with pytest.raises(Exception, match="readonly|read-only|query_only"):
            reader.merge("ana", [FactIn(text="goal: 10k")], now=T0)
    assert hashlib.sha256(db_path.read_bytes()).hexdigest() == before


def _merge_many(path: str, worker: int, count: int) -> None:
    with open_vault(path) as v:
        for i in range(count):
            v.merge(
                "ana",
                [
                    FactIn(text="primary sport: running", confidence=0.5),
                    FactIn(text=f"worker {worker} step {i}", confidence=0.3),
                ],
            )


def test_two_processes_merging_one_athlete_lose_no_update(vault: Vault, db_path: Path) -> None:
    vault.merge("ana", [FactIn(text="primary sport: running", confidence=0.5)])
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_merge_many, args=(str(db_path), w, 40)) for w in range(2)]
    for process in workers:
        process.start()
    for process in workers:
        process.join(timeout=120)
        assert process.exitcode == 0
    assert rows(db_path, "SELECT occurrences FROM facts WHERE text = 'primary sport: running'") == [
        (81,)
    ]


def test_top_facts_for_one_athlete_is_an_index_search(vault: Vault, db_path: Path) -> None:
    vault.merge("ana", [FactIn(text="goal: 5k")], now=T0)
    with sqlite3.connect(db_path) as raw:
        plan = " ".join(
            row[3]
            for row in raw.execute(
                "EXPLAIN QUERY PLAN SELECT * FROM top_facts WHERE athlete_id = ?", ("ana",)
            )
        )
    assert "SEARCH f USING" in plan and "(athlete_id=?)" in plan  # the unique key's prefix
    assert "SCAN f" not in plan


def test_a_write_unit_of_work_holds_the_write_lock_from_its_first_read(
    vault: Vault, db_path: Path
) -> None:
    with vault.unit_of_work() as uow:
        assert uow.athletes.exists("ana") is False  # a read: BEGIN IMMEDIATE already locked
        other = sqlite3.connect(db_path, timeout=0)
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            other.execute("BEGIN IMMEDIATE")
        other.close()


def test_a_rollback_that_fails_is_still_one_vault_error(vault: Vault) -> None:
    """The composition path maps a driver error raised while it rolls back, too."""

    def failing_rollback() -> None:
        raise exc.OperationalError("ROLLBACK", {}, Exception("disk I/O error"))

    with pytest.raises(VaultError) as caught:
        with vault.unit_of_work() as uow:
            uow.connection.rollback = failing_rollback  # type: ignore[method-assign]
            raise exc.OperationalError("SELECT 1", {}, Exception("disk I/O error"))
    assert not isinstance(caught.value, exc.SQLAlchemyError)

"""Per-athlete serialization on PostgreSQL: two connections, interleaved deterministically.

SQLite needs none of this (BEGIN IMMEDIATE: one writer per file; see test_transactions.py).
On the server, every write that reads then writes an athlete's state holds that athlete's row
lock: merge and forget through `ensure_athlete`, restore through `read(lock=True)`, decay
through `athlete_facts_due` (each athlete locked before its facts are read).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import exc

from tests.conftest import T0
from tests.integration.test_postgres import pg_vault  # noqa: F401 - fixture
from vault import FactIn, Vault
from vault.domain.errors import VaultError
from vault.services import memory as services
from vault.storage.repositories import memory as memory_repository
from vault.storage.uow import UnitOfWork

pytestmark = pytest.mark.postgres

WAIT = 30  # seconds a step may take before the test gives up (never asserted as a duration)
TEXT = "prefers long easy runs"


def _fact(vault: Vault) -> tuple[int, float]:
    [fact] = vault.facts("ana", now=T0 + timedelta(days=14))  # as of the decay run
    return fact.occurrences, fact.confidence


def _waiting_on_a_lock(vault: Vault) -> bool:
    with vault.engine.connect() as connection:
        return bool(
            connection.exec_driver_sql(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE datname = current_database() AND wait_event_type = 'Lock'"
            ).scalar()
        )


def _until(condition: Callable[[], bool]) -> None:
    stop = threading.Event()
    for _ in range(WAIT * 20):
        if condition():
            return
        stop.wait(0.05)
    raise AssertionError("the other transaction never got there")


@pytest.fixture
def paused_decay(
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[tuple[threading.Event, threading.Event]]:
    """Decay stops right after it has read its batch, until `resume` is set."""
    read, resume = threading.Event(), threading.Event()
    original = memory_repository.MemoryRepository.athlete_facts_due

    def pausing(self: Any, *args: Any, **kwargs: Any) -> Any:
        rows = original(self, *args, **kwargs)
        if rows and not read.is_set():
            read.set()
            assert resume.wait(WAIT)
        return rows

    monkeypatch.setattr(memory_repository.MemoryRepository, "athlete_facts_due", pausing)
    yield read, resume
    resume.set()


def _in_thread(target: Callable[[], Any]) -> tuple[threading.Thread, list[Any]]:
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(target())
        except BaseException as error:  # reported by the test
            outcome.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, outcome


def test_a_merge_during_decay_waits_and_nothing_is_lost(
    pg_vault: Vault, paused_decay: tuple[threading.Event, threading.Event]
) -> None:
    read, resume = paused_decay
    pg_vault.merge("ana", [FactIn(text=TEXT, confidence=0.6)], now=T0)
    later = T0 + timedelta(days=14)  # two full weeks: 0.6 x 0.95^2 = 0.5415

    decay, decayed = _in_thread(lambda: pg_vault.decay(now=later))
    assert read.wait(WAIT)  # decay holds the athlete and has read the fact
    merge, merged = _in_thread(lambda: pg_vault.merge("ana", [FactIn(text=TEXT)], now=later))
    _until(lambda: _waiting_on_a_lock(pg_vault))  # the merge waits for decay's athlete lock
    assert merge.is_alive() and not merged
    resume.set()
    decay.join(WAIT)
    merge.join(WAIT)

    assert decayed[0].lowered == 1, decayed
    assert not isinstance(merged[0], BaseException), merged
    occurrences, confidence = _fact(pg_vault)
    assert occurrences == 2  # the merge's reinforcement stays
    assert confidence == pytest.approx(0.6 * 0.95**2 + 0.1)  # merged on top of decay: 0.6415


def test_without_the_athlete_lock_the_same_interleaving_loses_the_merge(
    pg_vault: Vault,
    paused_decay: tuple[threading.Event, threading.Event],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The harness really interleaves: with decay's lock switched off, the issue's lost update."""
    monkeypatch.setattr(memory_repository, "locks_rows", lambda _connection: False)
    read, resume = paused_decay
    pg_vault.merge("ana", [FactIn(text=TEXT, confidence=0.6)], now=T0)
    later = T0 + timedelta(days=14)

    decay, _ = _in_thread(lambda: pg_vault.decay(now=later))
    assert read.wait(WAIT)
    pg_vault.merge("ana", [FactIn(text=TEXT)], now=later)  # commits while decay is paused
    resume.set()
    decay.join(WAIT)
    occurrences, confidence = _fact(pg_vault)
    assert occurrences == 2 and confidence == pytest.approx(0.6 * 0.95**2)  # the +0.1 is gone


def _open_merge(vault: Vault, athlete: str) -> UnitOfWork:
    """A merge of `athlete` left uncommitted: its transaction holds the athlete's lock."""
    uow = vault.unit_of_work()
    uow.__enter__()
    services.merge(uow, athlete, [FactIn(text=f"{athlete} likes hills")], T0)
    return uow


def _with_lock_timeout(vault: Vault, action: Callable[[UnitOfWork], Any]) -> Any:
    with vault.unit_of_work() as uow:
        uow.connection.exec_driver_sql("SET LOCAL lock_timeout = '300ms'")
        result = action(uow)
        uow.commit()
        return result


def test_merges_of_different_athletes_do_not_wait_for_each_other(pg_vault: Vault) -> None:
    first = _open_merge(pg_vault, "ana")
    try:
        result = _with_lock_timeout(
            pg_vault, lambda uow: services.merge(uow, "bob", [FactIn(text="likes hills")], T0)
        )
        assert [f.text for f in result.added] == ["likes hills"]
    finally:
        first.__exit__(None, None, None)
    assert pg_vault.facts("ana", now=T0) == []  # the open transaction was rolled back


@pytest.mark.parametrize(
    "operation",
    [
        pytest.param(
            lambda uow: services.merge(uow, "ana", [FactIn(text="goal: 10k")], T0), id="merge"
        ),
        pytest.param(lambda uow: services.forget(uow, "ana", "hills", T0), id="forget"),
        pytest.param(lambda uow: services.decay(uow, T0 + timedelta(weeks=3)), id="decay"),
        pytest.param(lambda uow: _restore(uow), id="restore"),
    ],
)
def test_writers_of_one_athlete_serialize(
    pg_vault: Vault, operation: Callable[[UnitOfWork], Any]
) -> None:
    pg_vault.merge("ana", [FactIn(text="ana likes hills", confidence=0.9)], now=T0)
    pg_vault.merge("ana", [FactIn(text="prefers morning sessions", confidence=0.9)], now=T0)
    first = _open_merge(pg_vault, "ana")
    try:
        # the composition path raises one VaultError, as every facade write does
        with pytest.raises(VaultError, match="lock timeout") as caught:
            _with_lock_timeout(pg_vault, operation)
        assert not isinstance(caught.value, exc.SQLAlchemyError)
    finally:
        first.__exit__(None, None, None)
    _with_lock_timeout(pg_vault, operation)  # once the first transaction ended, it proceeds


def _restore(uow: UnitOfWork) -> Any:
    from vault.services.interchange import export_athlete, restore

    document = export_athlete(uow, "ana")
    document["facts"] = document["facts"][:1]
    return restore(uow, document)

"""Many processes writing one SQLite file: no lock error reaches the caller, no update is lost,
the rules hold, and readers never see half a merge (issue 9, item 1)."""

from __future__ import annotations

import os
import sqlite3
import threading
from contextlib import closing
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import exc

from tests.conftest import T0
from tests.reliability.conftest import fork_child, integrity, read_all, report, rows
from vault import FactIn, open_vault
from vault.domain.errors import BusyError, ConflictError
from vault.services.health import invariant_problems
from vault.storage import engine as engine_module
from vault.storage.uow import RetryPolicy, UnitOfWork

WRITERS = 4
MERGES = 220  # per writer
SHARED = "shared"


def _writer(path: Path, worker: int, fd: int) -> None:
    """Even steps merge into the shared athlete, odd steps into the writer's own one. Every
    merge writes a pair (`pair a: N`, `pair b: N`, the same N) plus the counter fact and a filler
    that pushes the 15-fact cap."""
    errors = 0
    with open_vault(path) as vault:
        for step in range(MERGES):
            athlete = SHARED if step % 2 == 0 else f"own-{worker}"
            value = worker * 10_000 + step
            batch = [
                FactIn(text="counter fact", confidence=0.9),
                FactIn(text=f"pair a: {value}", confidence=0.95),
                FactIn(text=f"pair b: {value}", confidence=0.95),
                FactIn(text=f"filler {worker} {step}", confidence=0.35),
            ]
            try:
                result = vault.merge(athlete, batch, now=T0 + timedelta(seconds=step))
            except Exception as error:  # noqa: BLE001 - counted, the test wants none
                errors += 1
                report(fd, f"error {type(error).__name__}: {error}")
                continue
            # an observation older than the stored value is ignored ("newer wins"), not lost
            ignored = {i.text for i in result.ignored}
            if f"pair a: {value}" not in ignored:
                report(fd, f"applied {athlete} {value}")
    report(fd, f"done {errors}")


def _reader(path: Path, stop_file: Path, fd: int) -> None:
    """Reads every athlete's memory in one snapshot, again and again, checking the pairs."""
    reads = torn = 0
    with open_vault(path, read_only=True) as vault:
        while not stop_file.exists() or reads == 0:
            for athlete in (SHARED, *(f"own-{w}" for w in range(WRITERS))):
                memory = vault.memory(athlete)
                texts = {f.text.split(": ")[0]: f.text.split(": ")[-1] for f in memory.facts}
                if ("pair a" in texts) != ("pair b" in texts) or texts.get("pair a") != texts.get(
                    "pair b"
                ):
                    torn += 1
                    report(fd, f"torn {athlete}: {sorted(texts.items())}")
                if len(memory.facts) > 15:
                    torn += 1
                    report(fd, f"over cap {athlete}: {len(memory.facts)}")
                reads += 1
    report(fd, f"reads {reads} torn {torn}")


def _wait(pid: int) -> int:
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def test_four_processes_merging_lose_nothing_and_never_show_half_a_merge(
    vault_file: Path, tmp_path: Path
) -> None:
    stop = tmp_path / "stop"
    reader_pid, reader_fd = fork_child(lambda fd: _reader(vault_file, stop, fd))
    writers = [fork_child(lambda fd, w=w: _writer(vault_file, w, fd)) for w in range(WRITERS)]
    outputs = []
    for pid, fd in writers:
        outputs.append(read_all(fd))
        assert _wait(pid) == 0
    stop.touch()
    reader_out = read_all(reader_fd)
    assert _wait(reader_pid) == 0

    applied: dict[str, set[str]] = {}
    for out in outputs:  # not one "database is locked" (or anything else) reached a caller
        assert out[-1] == "done 0", [line for line in out if not line.startswith("applied")][:5]
        for line in out[:-1]:
            _, athlete, value = line.split()
            applied.setdefault(athlete, set()).add(f"pair a: {value}")
    reads, torn = reader_out[-1].split()[1], reader_out[-1].split()[3]
    assert torn == "0", reader_out[:5]
    assert int(reads) > 0

    # no lost update: the shared counter was reinforced by every merge into that athlete
    shared_merges = WRITERS * ((MERGES + 1) // 2)
    assert rows(
        vault_file,
        "SELECT occurrences FROM facts WHERE athlete_id = ? AND text = ?",
        SHARED,
        "counter fact",
    ) == [(shared_merges,)]
    for worker in range(WRITERS):
        own = rows(
            vault_file,
            "SELECT occurrences FROM facts WHERE athlete_id = ? AND text = ?",
            f"own-{worker}",
            "counter fact",
        )
        assert own == [(MERGES // 2,)]
    # every applied merge is accounted for: its pair value is active or archived, exactly once
    for athlete in (SHARED, *(f"own-{w}" for w in range(WRITERS))):
        stored = rows(
            vault_file,
            "SELECT text FROM facts WHERE athlete_id = ? AND conflict_key = "
            "'pair a' UNION ALL SELECT original_text FROM archive WHERE athlete_id = ? "
            "AND conflict_key = 'pair a'",
            athlete,
            athlete,
        )
        texts = [t for (t,) in stored]
        assert len(texts) == len(set(texts)) and set(texts) == applied[athlete]
    assert integrity(vault_file) == "ok"
    with open_vault(vault_file, read_only=True) as vault, vault.engine.connect() as connection:
        assert all(not found for found in invariant_problems(connection).values())


# -- the retry on a busy lock, counted rather than timed


def _hold_write_lock(path: Path) -> sqlite3.Connection:
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    return holder


def test_begin_is_retried_while_the_lock_is_busy_then_succeeds(
    vault_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(engine_module, "BUSY_TIMEOUT_MS", 1)  # make SQLite give up at once
    holder = _hold_write_lock(vault_file)
    sleeps: list[float] = []

    def sleep(seconds: float) -> None:  # the other process finishes during our 2nd back-off
        sleeps.append(seconds)
        if len(sleeps) == 2:
            holder.execute("COMMIT")

    with open_vault(vault_file) as vault:
        uow = UnitOfWork(
            vault.engine.execution_options(vault_write=True),
            retry=RetryPolicy(attempts=5, base_delay=0.001, max_delay=0.002),
            sleep=sleep,
        )
        with uow:
            uow.athletes.ensure("ana", T0)
            uow.commit()
    holder.close()
    assert uow.begin_attempts == 3 and len(sleeps) == 2
    assert all(0 <= s <= 0.002 for s in sleeps)  # jittered, bounded back-off
    assert rows(vault_file, "SELECT id FROM athletes") == [("ana",)]


def test_a_lock_held_past_every_retry_is_one_clear_error_and_nothing_is_written(
    vault_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(engine_module, "BUSY_TIMEOUT_MS", 1)
    holder = _hold_write_lock(vault_file)
    try:
        with open_vault(
            vault_file, busy_retry=RetryPolicy(attempts=3, base_delay=0.0, max_delay=0.0)
        ) as vault:
            with pytest.raises(BusyError, match="busy") as caught:
                vault.merge("ana", [FactIn(text="goal: 10k")], now=T0)
            assert not isinstance(caught.value, exc.SQLAlchemyError)
    finally:
        holder.close()
    assert rows(vault_file, "SELECT COUNT(*) FROM facts") == [(0,)]


def test_the_composition_path_retries_and_maps_errors_as_every_facade_write(
    vault_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`Vault.unit_of_work()` begins with the vault's retry policy and raises one VaultError
    (BusyError, ConflictError), never the driver's error."""
    monkeypatch.setattr(engine_module, "BUSY_TIMEOUT_MS", 1)
    policy = RetryPolicy(attempts=3, base_delay=0.0, max_delay=0.0)
    used: list[RetryPolicy] = []
    delays = RetryPolicy.delays

    def recorded(self: RetryPolicy, rng: object = None) -> object:
        used.append(self)
        return delays(self)

    monkeypatch.setattr(RetryPolicy, "delays", recorded)
    holder = _hold_write_lock(vault_file)
    try:
        with open_vault(vault_file, busy_retry=policy) as vault:
            with pytest.raises(BusyError, match="busy") as caught:
                with vault.unit_of_work() as uow:
                    uow.athletes.ensure("ana", T0)
                    uow.commit()
            assert not isinstance(caught.value, exc.SQLAlchemyError)
            assert used == [policy]  # the vault's policy, not the environment's default
    finally:
        holder.close()
    assert rows(vault_file, "SELECT COUNT(*) FROM athletes") == [(0,)]
    with open_vault(vault_file) as vault:
        with pytest.raises(ConflictError, match="integrity") as conflict:
            with vault.unit_of_work() as uow:
                insert = "INSERT INTO athletes (id, created_at, updated_at) VALUES ('bo', 'x', 'x')"
                uow.connection.exec_driver_sql(insert)
                uow.connection.exec_driver_sql(insert)
        assert not isinstance(conflict.value, exc.SQLAlchemyError)
    assert rows(vault_file, "SELECT COUNT(*) FROM athletes") == [(0,)]


def test_a_failure_after_begin_is_never_retried(
    vault_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only BEGIN is retried: an error inside the transaction reaches the caller once."""
    calls = []
    with open_vault(vault_file) as vault:

        def failing(*_: object, **__: object) -> None:
            calls.append(1)
            raise sqlite3.OperationalError("database is locked")

        from vault.services import memory as services

        monkeypatch.setattr(services, "merge", failing)
        with pytest.raises(sqlite3.OperationalError):
            vault.merge("ana", [FactIn(text="goal: 10k")], now=T0)
    assert calls == [1]


def test_the_retry_policy_is_configurable_and_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    policy = RetryPolicy(attempts=4, base_delay=0.01, max_delay=0.02)
    delays = list(policy.delays())
    assert len(delays) == 3 and all(0 <= d <= 0.02 for d in delays)
    with pytest.raises(ValueError):
        RetryPolicy(attempts=0)
    monkeypatch.setenv("VAULT_BUSY_RETRIES", "9")
    assert RetryPolicy.from_env().attempts == 9


def test_a_reader_thread_and_a_writer_share_a_file_without_lock_errors(vault_file: Path) -> None:
    """Readers (deferred, WAL) never block a writer and never get `database is locked`."""
    failures: list[BaseException] = []
    done = threading.Event()

    def read_forever() -> None:
        with open_vault(vault_file, read_only=True) as reader:
            while not done.is_set():
                try:
                    reader.memory("ana")
                except BaseException as error:  # noqa: BLE001
                    failures.append(error)
                    return

    thread = threading.Thread(target=read_forever)
    thread.start()
    try:
        with open_vault(vault_file) as vault:
            for step in range(50):
                vault.merge("ana", [FactIn(text="counter fact")], now=T0 + timedelta(seconds=step))
    finally:
        done.set()
        thread.join()
    assert failures == []
    with closing(sqlite3.connect(vault_file)) as raw:
        assert raw.execute("SELECT occurrences FROM facts").fetchall() == [(50,)]

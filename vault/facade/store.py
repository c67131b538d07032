"""`Store`: the engine behind a `Vault` and the one way each operation gets its transaction."""

from __future__ import annotations

import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import Connection, Engine, exc, text

from vault.domain.errors import BusyError, ConflictError, InvalidInput, StorageError
from vault.domain.models import aware_in_range
from vault.domain.rules import DEFAULT_DECAY_POLICY, DecayPolicy
from vault.domain.times import utc_now
from vault.prompt.memory_block import item_pieces
from vault.storage.dialect import is_sqlite
from vault.storage.engine import one_statement, writer, writer_if_free
from vault.storage.failures import is_read_only, storage_failure
from vault.storage.uow import RetryPolicy, UnitOfWork

if TYPE_CHECKING:  # imported where writes and erasures need them (start-up of reads)
    from vault.services.engine_sync import EngineSyncHooks, EngineSyncReport


def vault_error(error: exc.DBAPIError) -> Exception:
    """A driver error as one VaultError: ConflictError for a broken integrity rule, else
    BusyError, StorageError (read-only, disk full) or VaultError."""
    if isinstance(error, exc.IntegrityError):
        return ConflictError(f"the change breaks an integrity rule: {error.orig}")
    return storage_failure(error)


class EngineWritesNotApplied(UserWarning):
    """A read, export, copy or backup of a vault it could not write leaves out the engine's
    waiting rows (docs/engine.md)."""


TURN_BETWEEN_BATCHES = 0.15  # seconds the write lock is left free between batches of rows
_ONCE = RetryPolicy(attempts=1)  # the read's own try: a busy lock is not waited for
_ANY_WAITING = text("SELECT EXISTS (SELECT 1 FROM engine_inbox WHERE refused IS NULL)")
_INBOX_EXISTS = text("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'engine_inbox'")


class Store:
    """Shared by `Vault` and its resources: writes are one unit of work each (BEGIN
    IMMEDIATE, retried while the lock is busy), reads one connection each."""

    def __init__(self, engine: Engine, decay_policy: DecayPolicy | None = None) -> None:
        self.engine = engine
        self.decay_policy = checked_decay_policy(decay_policy)
        self.busy_retry: RetryPolicy | None = None  # None: the default ($VAULT_BUSY_RETRIES)
        self._writer = writer(engine)
        self._one_statement = one_statement(engine)
        self._reader: Connection | None = None
        self._reader_lock = threading.Lock()
        self._has_engine_inbox: bool | None = None  # known at the first read of memory
        self._cannot_write: str | None = None  # why, once a write of the engine's rows failed
        self._writer_if_free = writer_if_free(engine)

    def unit_of_work(self) -> UnitOfWork:
        """A write unit of work for callers composing steps: the same retry, engine upkeep and
        errors as every write of the facade."""
        return UnitOfWork(
            self._writer,
            retry=self.busy_retry,
            hooks=self.hooks(None),
            map_error=vault_error,
            pieces=item_pieces,
        )

    def hooks(self, now: datetime | None, athlete_id: str | None = None) -> EngineSyncHooks:
        """Every write transaction applies the engine's writes (the oldest batch, and all of
        `athlete_id`'s)."""
        from vault.services.engine_sync import EngineSyncHooks

        return EngineSyncHooks(policy=self.decay_policy, now=now, athlete_id=athlete_id)

    @contextmanager
    def write(
        self, now: datetime | None = None, *, hooked: bool = True, athlete_id: str | None = None
    ) -> Iterator[UnitOfWork]:
        """One write transaction as of `now` (None: the clock); a database failure becomes one
        VaultError: BusyError, StorageError (read-only, disk full), ConflictError or VaultError.
        `hooked=False` leaves out the engine table upkeep (for the call that does it itself);
        `athlete_id`, the athlete the write is about, has all their engine rows applied first."""
        hooks = self.hooks(now, athlete_id) if hooked else None
        unit = UnitOfWork(
            self._writer,
            retry=self.busy_retry,
            hooks=hooks,
            map_error=vault_error,
            pieces=item_pieces,
        )
        with unit as uow:
            yield uow
            uow.commit()

    def settle_engine(self, doing: str, *, wait: bool = True) -> int:
        """Before a whole-vault read (export, copy, backup): apply the engine's waiting rows,
        so what it wrote is in what leaves the vault. A vault that cannot be written (opened
        read-only) is read as it is, with an EngineWritesNotApplied warning saying so. With
        `wait=False` (a read of memory on the way) the rows are applied only when the write
        lock is free at once: a read never waits for a writer, nor for the caller's own unit of
        work; it says what it leaves out instead."""
        if not is_sqlite(self.engine):
            return 0
        from vault.storage.repositories.engine_table import waiting_counts

        with self.read() as connection:
            pending = waiting_counts(connection)[0]
        if not pending:
            return 0
        left_out = f"{doing} leaves out {pending} row(s) the engine wrote that vault has not "
        if self._cannot_write is not None:  # tried before: this vault is not writable
            self._warn(left_out, self._cannot_write)
            return 0

        try:
            return self.sync_engine(wait=wait).applied
        except BusyError:
            if wait:
                raise
            self._warn(
                left_out,
                "the vault's write lock is taken (another write, or this thread's own unit of "
                "work); the next write applies them",
            )
        except StorageError as error:
            why = (
                f"the vault cannot be written here ({error}); open it writable "
                "(or run `vault upgrade`) first"
            )
            if is_read_only(error):
                self._cannot_write = why  # it stays read-only: not tried again
            self._warn(left_out, why)
        return 0

    def sync_engine(self, now: datetime | None = None, *, wait: bool = True) -> EngineSyncReport:
        """Apply the engine rows waiting now, a batch per transaction (the write lock is free
        between batches: other writes, and the engine's own, are not held up by a flood).
        Each batch is applied as of its own time unless `now` is given; rows the engine writes
        meanwhile are left to the next write (an engine writing without pause cannot keep a
        sync going)."""
        from vault.services import engine_sync
        from vault.storage.repositories.engine_table import waiting_counts

        waiting = 0
        if self.has_engine_inbox:  # PostgreSQL and files before revision 0007 have none
            with self.read() as connection:
                waiting = waiting_counts(connection)[0]
        total = engine_sync.EngineSyncReport()
        while True:
            at = now if now is not None else utc_now()
            with self._settling(at, wait) as uow:
                batch = engine_sync.sync(uow, at, self.decay_policy)
            total.add(batch)
            if not batch.more or total.applied + total.refused >= waiting:
                return total
            # another writer (the engine's INSERT, another vault process) waits in SQLite's busy
            # handler, which retries after sleeps of up to 100 ms: a free lock this long is its
            # turn, where taking it back at once would starve it for the whole flood
            time.sleep(TURN_BETWEEN_BATCHES)

    @contextmanager
    def _settling(self, now: datetime, wait: bool) -> Iterator[UnitOfWork]:
        if wait:
            with self.write(now, hooked=False) as uow:
                yield uow
            return
        unit = UnitOfWork(
            self._writer_if_free, retry=_ONCE, map_error=vault_error, pieces=item_pieces
        )
        with unit as uow:
            yield uow
            uow.commit()

    @staticmethod
    def _warn(left_out: str, why: str) -> None:
        warnings.warn(f"{left_out}applied yet: {why}", EngineWritesNotApplied, stacklevel=4)

    def settle_before_reading(self) -> None:
        """Before a read of memory (facts, a summary, the contract, ...): the engine's waiting
        rows are applied first when the write lock is free at once, so the reader sees what the
        engine wrote (docs/engine.md). One read of the inbox when nothing waits; otherwise the
        read goes on as it is, with an EngineWritesNotApplied warning saying why. (The MEMORY
        block's read asks in its own statement: `has_engine_inbox`, then `settle_engine`.)"""
        if not self.has_engine_inbox:
            return
        with self.read_one() as connection:
            waiting = connection.execute(_ANY_WAITING).scalar()
        if waiting:
            self.settle_engine("reading memory", wait=False)

    @property
    def has_engine_inbox(self) -> bool:
        """A SQLite file at revision 0007 or later (an analyst may open an older one)."""
        if self._has_engine_inbox is None:
            with self.read_one() as connection:
                found = (
                    connection.execute(_INBOX_EXISTS).first() if is_sqlite(self.engine) else None
                )
            self._has_engine_inbox = found is not None
        return self._has_engine_inbox

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """One read transaction (one snapshot)."""
        with self.engine.connect() as connection:
            yield connection

    @contextmanager
    def read_one(self) -> Iterator[Connection]:
        """A connection for a read of exactly ONE statement (its own snapshot; no BEGIN).

        The store keeps one such connection for these reads, as datasette keeps its read
        connections: checking a connection out of the pool and back costs more than the read.
        It holds no transaction between reads (each is ended at once), so it never pins a
        snapshot. A second thread reading meanwhile takes a pooled connection as usual."""
        if not self._reader_lock.acquire(blocking=False):
            with self._one_statement.connect() as connection:
                yield connection
            return
        try:
            if self._reader is None or self._reader.closed or self._reader.invalidated:
                self._reader = self._one_statement.connect()
            try:
                yield self._reader
            finally:
                self._reader.rollback()
        finally:
            self._reader_lock.release()

    def close(self) -> None:
        with self._reader_lock:
            if self._reader is not None:
                self._reader.close()
                self._reader = None
        self.engine.dispose()

    @contextmanager
    def read_units(self) -> Iterator[UnitOfWork]:
        """One read transaction with the repositories (never committed)."""
        with UnitOfWork(self.engine) as uow:
            yield uow

    def checkpoint(self, wait: float | None = None) -> bool:
        """Move WAL pages into the main file and truncate the WAL, so erased text leaves disk.

        Retries (at most `wait` seconds, default ERASE_WAIT) while readers hold old
        snapshots. True when the WAL is empty; otherwise the erasure stays marked pending.
        """
        from vault.services import health

        done = health.truncate_wal(self.engine, health.ERASE_WAIT if wait is None else wait)
        if not done:
            health.mark_erasure(self.engine)  # may have been cleared by another process
        return done

    @contextmanager
    def erasing(self) -> Iterator[None]:
        """Mark an erasure as pending before its transaction (a crash after the commit stays
        visible to `doctor`); unmark if the transaction did not commit and nothing else was."""
        from vault.services import health

        already = health.erasure_pending(self.engine)
        health.mark_erasure(self.engine)
        try:
            yield
        except BaseException:
            if not already:
                health.clear_erasure(self.engine)
            raise


def checked_decay_policy(policy: DecayPolicy | None) -> DecayPolicy:
    if policy is None:
        return DEFAULT_DECAY_POLICY
    if not isinstance(policy, DecayPolicy):
        raise InvalidInput(f"decay_policy must be a DecayPolicy, got {policy!r}")
    return policy


def moment(now: datetime | None) -> datetime:
    """`now`, checked (aware, 1900..2500 UTC), or the clock."""
    if now is None:
        return utc_now()
    try:
        return aware_in_range(now, "now")
    except (ValueError, AttributeError) as error:
        raise InvalidInput(str(error)) from None

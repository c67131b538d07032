"""The unit of work: one transaction per operation, owned here and nowhere else."""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import TracebackType
from typing import TYPE_CHECKING, Protocol

from sqlalchemy import Connection, Engine, exc

from vault.domain.pieces import PieceCounter
from vault.storage.failures import is_busy
from vault.storage.repositories import ArchiveRepository, AthleteRepository, MemoryRepository
from vault.storage.repositories.evidence import EvidenceRepository
from vault.storage.repositories.snapshot import SnapshotRepository

if TYPE_CHECKING:
    from vault.storage.repositories.episodes import EpisodeRepository


@dataclass(frozen=True)
class RetryPolicy:
    """How often a write retries BEGIN when SQLite reports the database busy.

    On top of the connection's busy timeout (SQLite waits up to 5 s for the lock itself), a
    BEGIN that still gets SQLITE_BUSY (a timeout, or the cases where SQLite does not wait at
    all, e.g. while another connection recovers or checkpoints the WAL) is retried up to
    `attempts` times in all, sleeping a random ("full jitter") time up to
    `base_delay x 2^attempt`, at most `max_delay`, in between. Only BEGIN is retried: nothing
    was read or written yet, so a retry can never re-run half a transaction.
    `$VAULT_BUSY_RETRIES` sets `attempts` for the default policy.
    """

    attempts: int = 6
    base_delay: float = 0.005
    max_delay: float = 0.25

    def __post_init__(self) -> None:
        if (
            isinstance(self.attempts, bool)
            or not isinstance(self.attempts, int)
            or self.attempts < 1
        ):
            raise ValueError(f"attempts must be a whole number >= 1, got {self.attempts!r}")
        if not 0 <= self.base_delay <= self.max_delay:
            raise ValueError("delays must satisfy 0 <= base_delay <= max_delay")

    def delays(self, rng: random.Random | None = None) -> Iterator[float]:
        """The sleeps between attempts (attempts - 1 of them), jittered."""
        draw = (rng or random).uniform
        for attempt in range(self.attempts - 1):
            yield draw(0, min(self.max_delay, self.base_delay * 2**attempt))

    @classmethod
    def from_env(cls) -> RetryPolicy:
        """The default policy, with `$VAULT_BUSY_RETRIES` attempts when that is set; read when
        a unit of work is made without a policy (never cached at import)."""
        raw = os.environ.get("VAULT_BUSY_RETRIES", "").strip()
        return cls(attempts=int(raw)) if raw.isdigit() and int(raw) >= 1 else cls()


class WriteHooks(Protocol):
    """Work that belongs to every write transaction, right after BEGIN."""

    def after_begin(self, uow: UnitOfWork) -> None: ...


class UnitOfWork:
    """`with uow:` opens a connection and begins; leaving without `commit()` rolls back.

    Repositories receive the connection and never commit. They use SQLAlchemy Core on the
    Connection (no ORM Session): statements are built once, their compiled form is cached, and
    no per-row objects are made. A write unit of work comes from the writer engine, so its
    transaction begins with BEGIN IMMEDIATE on SQLite; when the lock stays busy past the busy
    timeout, BEGIN is retried as `retry` says (see RetryPolicy), then BusyError.
    `map_error` turns a driver error (at BEGIN, in the block or at commit) into the caller's
    error (the facade's: one `VaultError`); without it the driver's error is raised.
    """

    athletes: AthleteRepository
    memory: MemoryRepository
    archive: ArchiveRepository
    snapshots: SnapshotRepository  # one athlete's whole rows: export, restore, yaml import
    evidence: EvidenceRepository  # what each fact rests on (revision 0009)

    def __init__(
        self,
        engine: Engine,
        *,
        retry: RetryPolicy | None = None,
        sleep: Callable[[float], None] = time.sleep,
        hooks: WriteHooks | None = None,
        map_error: Callable[[exc.DBAPIError], Exception] | None = None,
        pieces: PieceCounter | None = None,
    ) -> None:
        self._engine = engine
        self._hooks = hooks
        self._map_error = map_error
        self._connection: Connection | None = None
        self._episodes: EpisodeRepository | None = None
        self._retry = retry or RetryPolicy.from_env()
        self._sleep = sleep
        self.begin_attempts = 0  # how many BEGINs this unit of work needed (tests count them)
        self._pieces = pieces

    @property
    def connection(self) -> Connection:
        if self._connection is None:
            raise RuntimeError("the unit of work is not open; use it in a `with` block")
        return self._connection

    @property
    def episodes(self) -> EpisodeRepository:
        """Episodes: recall candidates, caps, forget (revision 0005). Made on first use: its
        module brings the episode tables and their text tools, which a memory-only operation
        (a merge, the MEMORY block) never needs to import."""
        if self._episodes is None:
            from vault.storage.repositories.episodes import EpisodeRepository

            self._episodes = EpisodeRepository(self.connection)
        return self._episodes

    def __enter__(self) -> UnitOfWork:
        try:
            return self._enter()
        except exc.DBAPIError as error:
            if self._map_error is None:
                raise
            raise self._map_error(error) from None

    def _enter(self) -> UnitOfWork:
        connection = self._begin()
        self._connection = connection
        self.athletes = AthleteRepository(connection)
        self.memory = MemoryRepository(connection, self._pieces)
        self.archive = ArchiveRepository(connection)
        self.snapshots = SnapshotRepository(connection, self._pieces)
        self.evidence = EvidenceRepository(connection)
        if self._hooks is not None:
            try:
                self._hooks.after_begin(self)
            except BaseException:
                self.__exit__(None, None, None)
                raise
        return self

    def _begin(self) -> Connection:
        """Connect and BEGIN, retrying only while SQLite answers busy; nothing ran yet."""
        delays = self._retry.delays()
        while True:
            self.begin_attempts += 1
            connection: Connection | None = None
            try:
                connection = self._engine.connect()
                connection.begin()
                return connection
            except exc.OperationalError as error:
                if connection is not None:
                    connection.close()
                pause = next(delays, None) if is_busy(error) else None
                if pause is None:
                    raise
                self._sleep(pause)
            except BaseException:
                if connection is not None:
                    connection.close()
                raise

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        connection = self.connection
        try:
            try:
                if connection.in_transaction():
                    connection.rollback()
            finally:
                connection.close()
                self._connection = None
                self._episodes = None
        except exc.DBAPIError as failure:  # the rollback itself failed (disk, lost file)
            if self._map_error is None:
                raise
            first = error if isinstance(error, exc.DBAPIError) else failure
            raise self._map_error(first) from None
        if self._map_error is not None and isinstance(error, exc.DBAPIError):
            raise self._map_error(error) from None

    def commit(self) -> None:
        self.connection.commit()

    def rollback(self) -> None:
        self.connection.rollback()

"""The unit of work: one transaction per operation, owned here and nowhere else."""

from __future__ import annotations

from types import TracebackType

from sqlalchemy import Connection, Engine

from vault.storage.repositories import ArchiveRepository, AthleteRepository, MemoryRepository
from vault.storage.repositories.snapshot import SnapshotRepository


class UnitOfWork:
    """`with uow:` opens a connection and begins; leaving without `commit()` rolls back.

    Repositories receive the connection and never commit. They use SQLAlchemy Core on the
    Connection (no ORM Session): statements are built once, their compiled form is cached, and
    no per-row objects are made. A write unit of work comes from the writer engine, so its
    transaction begins with BEGIN IMMEDIATE on SQLite.
    """

    athletes: AthleteRepository
    memory: MemoryRepository
    archive: ArchiveRepository
    snapshots: SnapshotRepository  # one athlete's whole rows: export, restore, yaml import

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._connection: Connection | None = None

    @property
    def connection(self) -> Connection:
        if self._connection is None:
            raise RuntimeError("the unit of work is not open; use it in a `with` block")
        return self._connection

    def __enter__(self) -> "UnitOfWork":
        connection = self._engine.connect()
        try:
            connection.begin()
        except BaseException:
            connection.close()
            raise
        self._connection = connection
        self.athletes = AthleteRepository(connection)
        self.memory = MemoryRepository(connection)
        self.archive = ArchiveRepository(connection)
        self.snapshots = SnapshotRepository(connection)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        connection = self.connection
        try:
            if connection.in_transaction():
                connection.rollback()
        finally:
            connection.close()
            self._connection = None

    def commit(self) -> None:
        self.connection.commit()

    def rollback(self) -> None:
        self.connection.rollback()

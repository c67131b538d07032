"""The unit of work: one transaction per operation, owned here and nowhere else."""

from __future__ import annotations

from types import TracebackType

from sqlalchemy.orm import Session, sessionmaker

from vault.repositories import AthleteRepository, ArchiveRepository, MemoryRepository


class UnitOfWork:
    """`with uow:` opens a session; leaving without `commit()` (or by an exception) rolls back.

    Repositories receive the session and never commit. A write unit of work comes from a
    session factory bound to the writer engine, so its transaction begins with BEGIN IMMEDIATE.
    """

    athletes: AthleteRepository
    memory: MemoryRepository
    archive: ArchiveRepository

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self._sessions = sessions
        self._session: Session | None = None

    @property
    def session(self) -> Session:
        if self._session is None:
            raise RuntimeError("the unit of work is not open; use it in a `with` block")
        return self._session

    def __enter__(self) -> "UnitOfWork":
        self._session = self._sessions()
        self.athletes = AthleteRepository(self._session)
        self.memory = MemoryRepository(self._session)
        self.archive = ArchiveRepository(self._session)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        session = self.session
        try:
            session.rollback()  # a no-op after commit()
        finally:
            session.close()
            self._session = None

    def commit(self) -> None:
        self.session.commit()

    def rollback(self) -> None:
        self.session.rollback()

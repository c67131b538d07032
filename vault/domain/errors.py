"""The vault's exceptions: callers never need to import SQLAlchemy or pydantic to handle them."""

from __future__ import annotations


class VaultError(Exception):
    """Base class of every error the vault raises on purpose."""


class InvalidInput(VaultError, ValueError):
    """Input failed validation; nothing was written.

    Also a ValueError, so raised inside a pydantic validator it is reported like any other
    validation problem (with its location) instead of escaping as a bare exception.
    """


class PrivacyRefused(InvalidInput):
    """The privacy gate refused a field; nothing was written.

    `how_to_vouch(spelling)` words the way out for the caller: `trusted=True` in the library,
    `--trusted` on the command line; `plain` leaves it out, for a caller with no such switch
    (an agent through `vault mcp`)."""

    def __init__(self, problem: str, spelling: str = "trusted=True") -> None:
        self.problem = problem
        self.plain = f"{problem} (nothing was written)"
        super().__init__(self.how_to_vouch(spelling))

    def how_to_vouch(self, spelling: str) -> str:
        return f"{self.problem} (nothing was written; pass {spelling} for an entry you vouch for)"


class BusyError(VaultError):
    """Another process held the database's write lock past every retry; nothing was written."""


class StorageError(VaultError):
    """The file cannot be read or written as asked: a read-only file or directory, a full disk,
    a missing directory. Nothing was written."""


class AthleteNotFound(VaultError):
    """The athlete has no memory in this vault."""

    def __init__(self, athlete_id: str) -> None:
        super().__init__(f"no memory stored for athlete {athlete_id!r}")
        self.athlete_id = athlete_id


class FactNotFound(VaultError):
    """No active or archived fact has that id."""

    def __init__(self, fact_id: int) -> None:
        super().__init__(f"no fact with id {fact_id}")
        self.fact_id = fact_id


class ConflictError(VaultError):
    """A write broke one of the database's uniqueness or integrity rules."""


class SchemaOutOfDate(VaultError):
    """The file's schema is older than this version of vault."""


class SchemaTooNew(VaultError):
    """The file was written by a newer vault than the one installed; it is left untouched."""


class NotAVaultFile(VaultError):
    """The path does not hold a SQLite database vault can open."""


class LegacyImportError(VaultError):
    """A legacy memory document could not be adopted."""


class ExtractionError(VaultError):
    """An extractor's output could not be parsed; nothing was stored."""


class BudgetExceeded(VaultError):
    """Even an empty MEMORY block does not fit the token window."""

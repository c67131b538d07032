"""Which vault error a database failure is: busy, read-only, full disk, unreadable, other.

Kept apart from the unit of work so that opening a vault (which must name why a file cannot be
opened) does not load the repositories.
"""

from __future__ import annotations

from sqlalchemy import exc

from vault.domain.errors import BusyError, StorageError, VaultError

SQLITE_BUSY = 5
SQLITE_LOCKED = 6
_BUSY_WORDS = ("database is locked", "database table is locked", "database is busy")


def is_busy(error: BaseException) -> bool:
    """SQLITE_BUSY / SQLITE_LOCKED (any extended code), as the driver reports it."""
    orig = getattr(error, "orig", error)
    code = getattr(orig, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF in (SQLITE_BUSY, SQLITE_LOCKED)
    return any(word in str(orig).lower() for word in _BUSY_WORDS)


def is_database_failure(error: BaseException) -> bool:
    """The database itself failed (busy, full disk, read-only, I/O), not the data given to it."""
    return isinstance(error, exc.OperationalError)


READ_ONLY = "the vault file cannot be written (read-only file, directory or mount)"


def is_read_only(error: Exception) -> bool:
    """The failure of a write to a vault opened read-only or on a read-only file: it stays so."""
    return isinstance(error, StorageError) and str(error).startswith(READ_ONLY)


def storage_failure(error: exc.DBAPIError, doing: str = "the write") -> VaultError:
    """The vault's own error for a database failure: busy, read-only, full disk, I/O, other."""
    message = str(error.orig)
    lowered = message.lower()
    if is_busy(error):
        return BusyError(
            f"the database is busy: another process held its write lock past every retry; "
            f"{doing} did not happen, nothing was written ({message})"
        )
    if "readonly" in lowered or "read-only" in lowered or "read only" in lowered:
        return StorageError(f"{READ_ONLY}; nothing was written ({message})")
    if "disk is full" in lowered or "disk full" in lowered:
        return StorageError(f"the disk is full; nothing was written ({message})")
    if "unable to open" in lowered or "disk i/o" in lowered or "cannot open" in lowered:
        return StorageError(f"the vault file cannot be opened or read: {message}")
    return VaultError(f"database error: {message}")

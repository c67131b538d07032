"""Opening a vault file: which file an open would create, and why an open failed."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from sqlalchemy import exc

from vault.domain.errors import BusyError, NotAVaultFile, StorageError, VaultError
from vault.storage.engine import display_url, sqlite_file
from vault.storage.failures import is_busy, storage_failure


def would_create(url: str, read_only: bool) -> Path | None:
    """The SQLite file opening `url` would create, if it does not exist yet."""
    path = None if read_only else sqlite_file(url)
    return None if path is None or path.exists() else path


def remove_unwritten(created: Path | None) -> None:
    """Remove a file this open created when nothing was committed to it (no 0-byte leftovers
    that later read as "schema out of date")."""
    if created is None or not created.exists():
        return
    if created.stat().st_size > 0:
        try:
            with closing(sqlite3.connect(f"file:{created}?mode=ro", uri=True)) as raw:
                if raw.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0]:
                    return  # it holds a schema after all (another process created it)
        except sqlite3.Error:
            pass  # unreadable (e.g. a torn header): nothing of value, remove it
    for leftover in ("", "-wal", "-shm", "-journal"):
        Path(f"{created}{leftover}").unlink(missing_ok=True)


def open_failure(url: str, error: exc.DBAPIError) -> VaultError:
    """Why a file could not be opened, as the right VaultError (never "not a vault" for a
    lock or a read-only directory)."""
    if is_busy(error):
        return BusyError(
            f"cannot open {display_url(url)}: another process holds the database's write lock "
            f"(an upgrade waited for it and gave up); try again when it is done ({error.orig})"
        )
    failure = storage_failure(error, "opening")
    if isinstance(failure, StorageError):
        return failure
    return NotAVaultFile(f"cannot open {display_url(url)}: {error.orig}")

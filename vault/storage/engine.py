"""Engines and sessions: every SQLite connection is configured here, once.

SQLite's Python driver starts transactions on its own terms (not before SELECT or DDL); we
switch that off and emit BEGIN ourselves (SQLAlchemy's documented pysqlite recipe). Write units
of work ask for BEGIN IMMEDIATE so the write lock is taken up front: a deferred transaction
that reads and then writes gets SQLITE_BUSY at once when another process holds the lock, and
the busy timeout does not help in that case.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any, cast

from sqlalchemy import Engine, create_engine, event, exc
from sqlalchemy.engine import URL, make_url

from vault.domain.errors import InvalidInput, StorageError, VaultError
from vault.storage.hot_statements import send

BUSY_TIMEOUT_MS = 5000
WRITE = "vault_write"
NO_WAIT = "vault_no_wait"  # a write that takes the lock only when it is free at once
ONE_STATEMENT = "vault_one_statement"
DEFAULT_DB = "vault.db"


def default_url() -> str:
    """`$VAULT_DB_URL`, else `$VAULT_DB` as a path, else ./vault.db."""
    if os.environ.get("VAULT_DB_URL"):
        return os.environ["VAULT_DB_URL"]
    return sqlite_url(os.environ.get("VAULT_DB") or DEFAULT_DB)


def sqlite_url(path: str | os.PathLike[str]) -> str:
    """The SQLAlchemy URL of a SQLite file."""
    return f"sqlite:///{Path(path)}"


def as_url(target: str | os.PathLike[str]) -> str:
    """Accept a database URL or a plain file path."""
    text = str(target)
    return text if "://" in text else sqlite_url(text)


MEMORY = ":memory:"


def sqlite_file(url: str | URL) -> Path | None:
    """The file a SQLite URL names, or None: another backend, or an in-memory database.

    The one parser of SQLite URLs: `sqlite:///path`, and SQLite `file:` URIs
    (`sqlite:///file:path?mode=ro&uri=true`: the path without the URI's own query).
    """
    parsed = _parsed(url)
    if parsed is None or parsed.get_backend_name() != "sqlite" or in_memory(parsed):
        return None
    database = str(parsed.database)
    if database.startswith("file:"):
        database = database[len("file:") :].split("?", 1)[0]
    return Path(database)


def in_memory(url: str | URL) -> bool:
    """Whether `url` is a SQLite database that lives in memory (gone with its connection)."""
    parsed = _parsed(url)
    if parsed is None or parsed.get_backend_name() != "sqlite":
        return False
    database = parsed.database or ""
    if database.startswith("file:"):
        path, _, query = database[len("file:") :].partition("?")
        return (
            path in ("", MEMORY) or "mode=memory" in query or parsed.query.get("mode") == "memory"
        )
    return database in ("", MEMORY)


def _parsed(url: str | URL) -> URL | None:
    """`url` parsed, or None when it is not a URL (opening it says so: create_vault_engine)."""
    if isinstance(url, URL):
        return url
    try:
        return make_url(url)
    except exc.ArgumentError:
        return None


def create_vault_engine(
    url: str,
    *,
    read_only: bool = False,
    foreign_keys: bool = True,
    synchronous: str | None = None,
    **kwargs: Any,
) -> Engine:
    """An engine with the vault's connection discipline.

    `read_only` opens SQLite files with `mode=ro` (writes fail, the file is never created);
    `foreign_keys=False` is for migrations, which rebuild tables (see alembic/env.py).
    `synchronous` (SQLite): "NORMAL" (default, or `$VAULT_SYNCHRONOUS`) or "FULL".
    """
    try:
        parsed = make_url(url)
    except exc.ArgumentError:
        raise VaultError(f"not a database URL or file path: {display_url(url)}") from None
    backend = parsed.get_backend_name()
    if backend != "sqlite":
        return _server_engine(parsed, backend, read_only=read_only, **kwargs)
    sync = sqlite_synchronous(synchronous)
    path = sqlite_file(parsed)
    uri = str(parsed.database).startswith("file:")  # the caller's own SQLite URI: kept as given
    if read_only and path is not None and not uri:
        query = {**parsed.query, "mode": "ro", "uri": "true"}
        if _needs_immutable(path):
            query["immutable"] = "1"
        parsed = parsed.set(database=f"file:{path}", query=query)
    engine = create_engine(parsed, **kwargs)
    _configure_sqlite(
        engine,
        read_only=read_only,
        foreign_keys=foreign_keys,
        synchronous=sync,
        path=None if read_only or uri else path,
    )
    return engine


def _server_engine(parsed: URL, backend: str, *, read_only: bool, **kwargs: Any) -> Engine:
    """PostgreSQL: psycopg unless the URL names a driver; a read-only engine's transactions
    are READ ONLY (`vault.storage.dialect.engine_options`). Anything else is one clear error."""
    from vault.storage import dialect

    if backend not in dialect.SUPPORTED:
        raise dialect.unsupported(backend)
    if "+" not in parsed.drivername:
        parsed = parsed.set(drivername=f"{backend}+{dialect.DRIVERS[backend]}")
    options = {**dialect.engine_options(backend, read_only=read_only), **kwargs}
    try:
        return create_engine(parsed, **options)
    except (ImportError, exc.NoSuchModuleError) as error:
        module = getattr(error, "name", None)
        raise dialect.missing_driver(backend, module) from None


def display_url(url: str | URL) -> str:
    """A URL as it may be printed: the password hidden (`***`); a plain path unchanged."""
    if isinstance(url, str) and "://" not in url:
        return url
    try:
        return make_url(url).render_as_string(hide_password=True)
    except exc.ArgumentError:
        return "<unreadable database URL>"


# -- SQLite: files, pragmas, durability

SYNCHRONOUS_MODES = ("NORMAL", "FULL")
NEW_FILE_MODE = 0o600  # a new vault file (and its -wal / -shm) is readable by its owner only
_WAL_PENDING = "vault_wal_pending"


def sqlite_synchronous(value: str | None = None) -> str:
    """The `PRAGMA synchronous` level: the argument, else `$VAULT_SYNCHRONOUS`, else NORMAL.

    WAL + NORMAL never corrupts the file on a crash or power loss, but a power loss may roll
    back the last transactions that had committed; FULL syncs the WAL at every commit so a
    committed transaction survives power loss too (measured: ~170 us a commit instead of ~7).
    """
    chosen = (value or os.environ.get("VAULT_SYNCHRONOUS") or "NORMAL").strip().upper()
    if chosen not in SYNCHRONOUS_MODES:
        raise InvalidInput(
            f"synchronous must be one of {', '.join(SYNCHRONOUS_MODES)}, got {value or chosen!r}"
        )
    return chosen


def _needs_immutable(path: Path) -> bool:
    """A read-only open of a WAL file in a directory we cannot write needs `immutable=1`.

    SQLite reads a WAL-mode file only through its `-shm` index, which it must be able to
    create. When the directory is not writable and no `-wal` exists, nobody can be writing the
    file (a writer needs that `-wal`), so reading it as immutable is exact.
    """
    directory = path.parent if str(path.parent) else Path(".")
    if not _exists(path) or os.access(directory, os.W_OK):
        return False
    wal = Path(f"{path}-wal")
    return not wal.exists() or wal.stat().st_size == 0


def _configure_sqlite(
    engine: Engine, *, read_only: bool, foreign_keys: bool, synchronous: str, path: Path | None
) -> None:
    """Per-connection pragmas. Nothing here writes to the file: opening another application's
    SQLite file (or a 0-byte one) to read it leaves it exactly as it was. The switch to WAL is
    made by the first write transaction (`on_begin`), i.e. only on a vault being written or
    created by `upgrade`."""

    @event.listens_for(engine, "do_connect")
    def before_connect(_dialect: Any, _record: Any, _cargs: Any, _cparams: Any) -> None:
        if path is not None and not _exists(path):
            _create_private_file(path)

    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection: Any, record: Any) -> None:
        dbapi_connection.isolation_level = None  # we emit BEGIN ourselves
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cursor.execute(f"PRAGMA foreign_keys={'ON' if foreign_keys else 'OFF'}")
        if read_only:
            cursor.execute("PRAGMA query_only=ON")
        else:
            cursor.execute(f"PRAGMA synchronous={synchronous}")
            # forgotten and deleted memories are overwritten, not left in free pages
            cursor.execute("PRAGMA secure_delete=ON")
            record.info[_WAL_PENDING] = True  # checked (and switched) by the first write
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(connection: Any) -> None:
        options = connection.get_execution_options()
        if options.get(ONE_STATEMENT):
            return  # SQLite runs a lone SELECT in its own snapshot: no BEGIN round trip
        if options.get(WRITE):
            if options.get(NO_WAIT):
                _begin_if_free(connection)  # the switch to WAL waits for readers: left to a write
                return
            if connection.connection.info.pop(_WAL_PENDING, False):
                _ensure_wal(connection)
            send(connection, "BEGIN IMMEDIATE")
        else:
            send(connection, "BEGIN")


def _begin_if_free(connection: Any) -> None:
    """BEGIN IMMEDIATE that fails at once (busy) when the write lock is taken."""
    connection.exec_driver_sql("PRAGMA busy_timeout=0")
    try:
        connection.exec_driver_sql("BEGIN IMMEDIATE")
    finally:
        connection.exec_driver_sql(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")


def _ensure_wal(connection: Any) -> None:
    """Switch the file to WAL (persistent) unless it already is; outside any transaction."""
    mode = connection.exec_driver_sql("PRAGMA journal_mode").scalar()
    if str(mode).lower() != "wal":
        connection.exec_driver_sql("PRAGMA journal_mode=WAL")


def _exists(path: Path) -> bool:
    """Whether `path` exists; a path we may not even look at is a clear StorageError."""
    try:
        return path.exists()
    except OSError as error:
        raise StorageError(f"cannot access {path}: {error.strerror or error}") from None


def _create_private_file(path: Path) -> None:
    """Create a missing vault file with mode 0600 before SQLite opens it (SQLite gives its
    -wal and -shm the same mode). A missing directory is a clear StorageError, not SQLite's
    "unable to open database file"."""
    if not path.parent.is_dir():
        raise StorageError(f"cannot create {path}: the directory {path.parent} does not exist")
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, NEW_FILE_MODE))
    except FileExistsError:
        return  # created meanwhile by another process: SQLite opens theirs
    except OSError as error:
        raise StorageError(f"cannot create {path}: {error.strerror or error}") from None


def one_statement(engine: Engine) -> Engine:
    """The same engine (and pool), for reads of exactly one statement: on SQLite no BEGIN is
    sent (the statement is its own snapshot); elsewhere nothing changes."""
    return engine.execution_options(**{ONE_STATEMENT: True})


def writer(engine: Engine) -> Engine:
    """The same engine (and pool) whose transactions take the write lock when they begin."""
    return engine.execution_options(**{WRITE: True})


def writer_if_free(engine: Engine) -> Engine:
    """`writer`, but a transaction that finds the write lock taken fails at once (busy) instead
    of waiting for it: for the work a read does on the way (nothing must wait for it)."""
    return engine.execution_options(**{WRITE: True, NO_WAIT: True})


def backup_sqlite(engine: Engine, target: Path) -> Path:
    """Copy the live SQLite file behind `engine` to `target` with SQLite's online backup API.

    Every page is copied in one read snapshot (writers elsewhere are not blocked). The copy is
    written beside `target` (mode NEW_FILE_MODE, journal mode DELETE: one self-contained file)
    and renamed into place, so a crash never leaves half a backup. A SQLite failure (disk
    full, a directory we may not write) is a StorageError.
    """
    partial = target.with_name(f".{target.name}.partial")
    raw = engine.raw_connection()
    try:
        live = cast(sqlite3.Connection, raw.driver_connection)
        partial.unlink(missing_ok=True)  # a crashed backup's leftover
        _create_private_file(partial)
        copy = sqlite3.connect(partial)
        try:
            live.backup(copy)
            copy.execute("PRAGMA journal_mode=DELETE")
        finally:
            copy.close()
        os.replace(partial, target)
    except sqlite3.Error as error:
        partial.unlink(missing_ok=True)
        raise StorageError(f"cannot back up to {target}: {error}") from None
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    finally:
        raw.close()
    return target

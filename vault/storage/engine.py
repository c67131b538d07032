"""Engines and sessions: every SQLite connection is configured here, once.

SQLite's Python driver starts transactions on its own terms (not before SELECT or DDL); we
switch that off and emit BEGIN ourselves (SQLAlchemy's documented pysqlite recipe). Write units
of work ask for BEGIN IMMEDIATE so the write lock is taken up front: a deferred transaction
that reads and then writes gets SQLITE_BUSY at once when another process holds the lock, and
the busy timeout does not help in that case.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url

BUSY_TIMEOUT_MS = 5000
WRITE = "vault_write"
SINGLE_READ = "vault_single_read"
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


def create_vault_engine(
    url: str, *, read_only: bool = False, foreign_keys: bool = True, **kwargs: Any
) -> Engine:
    """An engine with the vault's connection discipline.

    `read_only` opens SQLite files with `mode=ro` (writes fail, the file is never created);
    `foreign_keys=False` is for migrations, which rebuild tables (see alembic/env.py).
    """
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return create_engine(url, **kwargs)
    if read_only and parsed.database and parsed.database != ":memory:":
        parsed = parsed.set(
            database=f"file:{parsed.database}", query={**parsed.query, "mode": "ro", "uri": "true"}
        )
    engine = create_engine(parsed, **kwargs)
    _configure_sqlite(engine, read_only=read_only, foreign_keys=foreign_keys)
    return engine


def _configure_sqlite(engine: Engine, *, read_only: bool, foreign_keys: bool) -> None:
    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we emit BEGIN ourselves
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cursor.execute(f"PRAGMA foreign_keys={'ON' if foreign_keys else 'OFF'}")
        if read_only:
            cursor.execute("PRAGMA query_only=ON")
        else:
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            # forgotten and deleted memories are overwritten, not left in free pages
            cursor.execute("PRAGMA secure_delete=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(connection: Any) -> None:
        options = connection.get_execution_options()
        if options.get(WRITE):
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        elif not options.get(SINGLE_READ):
            connection.exec_driver_sql("BEGIN")


def writer(engine: Engine) -> Engine:
    """The same engine (and pool) whose transactions take the write lock when they begin."""
    return engine.execution_options(**{WRITE: True})


def single_reader(engine: Engine) -> Engine:
    """The same engine for reads made of ONE statement: no BEGIN/ROLLBACK round trips.

    SQLite runs a lone SELECT in its own implicit transaction, so it still sees one consistent
    snapshot; a read of several statements must use the plain engine (explicit BEGIN).
    """
    return engine.execution_options(**{SINGLE_READ: True})

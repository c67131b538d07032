"""Programmatic Alembic: find the scripts, read a file's revision, upgrade, refuse what is newer."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, Engine, inspect, text
from sqlalchemy.pool import NullPool

from vault.domain.errors import SchemaOutOfDate, SchemaTooNew
from vault.storage.engine import create_vault_engine, writer
from vault.storage.scope import operation_scope

if TYPE_CHECKING:  # Alembic is imported only when a file is upgraded (CLI start-up time)
    from alembic.config import Config

# Every revision this installation ships, oldest first. Opening a file compares its stamp with
# this tuple instead of loading the scripts; tests/migrations/test_schema_lifecycle.py checks
# it against Alembic's own view of alembic/versions.
REVISIONS = (
    "0001",
    "0002",
    "0003",
    "0004",
    "0005",
    "0006",
    "0007",
    "0008",
    "0009",
    "0010",
    "0011",
    "0012",
    "0013",
    "0014",
    "0015",
    "0016",
)
HEAD = REVISIONS[-1]

_PACKAGE = Path(__file__).resolve().parents[1]  # the `vault` package


def script_location() -> Path:
    """The migration scripts: shipped as vault/_alembic in a wheel, alembic/ in a checkout."""
    for candidate in (_PACKAGE / "_alembic", _PACKAGE.parent / "alembic"):
        if (candidate / "env.py").is_file():
            return candidate
    raise FileNotFoundError("vault's migration scripts are missing from this installation")


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic config pointing at our scripts, optionally bound to a live connection."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(script_location()))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    """The newest revision this installation knows."""
    return HEAD


def current_revision(bind: Engine | Connection) -> str | None:
    """The revision stamped in the database, or None for a file Alembic never touched.

    Given a Connection (`vault doctor`), it reads on that connection; an Engine opens one.
    """
    if isinstance(bind, Engine):
        with bind.connect() as connection:
            return current_revision(connection)
    if not inspect(bind).has_table("alembic_version"):
        return None
    return bind.execute(text("SELECT version_num FROM alembic_version")).scalar()


def known_revisions() -> set[str]:
    return set(REVISIONS)


def ensure_not_newer(engine: Engine) -> str | None:
    """Refuse a file written by a newer vault; return its current revision."""
    current = current_revision(engine)
    if current is not None and current not in known_revisions():
        raise SchemaTooNew(
            f"this database is at schema revision {current}, which is newer than this "
            f"installation of vault knows (head {head_revision()}); upgrade the vault package. "
            "The file was not modified."
        )
    return current


def check_schema(engine: Engine) -> None:
    """Raise unless the database is exactly at head."""
    current = ensure_not_newer(engine)
    if current != head_revision():
        where = "an empty or pre-vault file" if current is None else f"revision {current}"
        raise SchemaOutOfDate(
            f"the database schema is out of date ({where}, head is {head_revision()}); "
            "run `vault upgrade` (or `alembic upgrade head`), or open it with upgrade=True"
        )


def upgrade(
    engine: Engine,
    revision: str = "head",
    *,
    count_items: Callable[[Connection], int] | None = None,
) -> int:
    """Upgrade in one transaction that holds the write lock; a failure leaves the file as it was.

    Upgrading to head, `count_items` counts the tokens of items stored without them (revision
    0016: the engine's view needs them; a revision imports no tokenizer) in that transaction,
    also on a file at head holding such items. Returns how many it counted."""
    from alembic import command

    if ensure_not_newer(engine) == HEAD and revision in ("head", HEAD):
        counting = count_items is not None and uncounted_items(engine)
        shadowed = engine_table_shadowed(engine)
        if not counting and not shadowed:
            return 0  # nothing to upgrade: never take the write lock for it
        with writer(engine).begin() as connection:
            if shadowed:
                repair_engine_table(connection)
            return count_items(connection) if counting and count_items is not None else 0
    with _migration_connection(engine) as connection:
        command.upgrade(alembic_config(connection), revision)
        at_head = current_revision(connection) == HEAD
        return count_items(connection) if count_items is not None and at_head else 0


def create_partitioned(engine: Engine, partitions: int) -> list[str]:
    """A new PostgreSQL database at head, every athlete-owned table hash-partitioned by the
    athlete id into `partitions` (one transaction); refuses a database holding vault tables."""
    from alembic import command
    from vault.storage import episode_tables, evidence_tables  # noqa: F401 - on the metadata
    from vault.storage.partitioning import partition_by_athlete, refuse_unless_new
    from vault.storage.tables import metadata

    with engine.connect() as connection:
        present = set(inspect(connection).get_table_names())
        refuse_unless_new(
            connection, sorted(present & {*metadata.tables, "alembic_version"}), partitions
        )
    with _migration_connection(engine) as connection:
        command.upgrade(alembic_config(connection), "head")
        return partition_by_athlete(connection, partitions)


def engine_table_shadowed(engine: Engine) -> bool:
    """Whether a plain `athlete_memory` table stands where vault's should (SQLite at head)."""
    from vault.storage.repositories.engine_table import shadowed

    if engine.dialect.name != "sqlite":
        return False
    with engine.connect() as connection:
        return shadowed(connection)


def repair_engine_table(connection: Connection) -> int:
    """`vault upgrade` on a file at head whose engine table is shadowed: adopt and restore."""
    from vault.storage.repositories.engine_table import repair

    return repair(connection)


def downgrade(engine: Engine, revision: str) -> None:
    """Downgrade in one transaction (used by tests and by people rolling back an upgrade)."""
    from alembic import command

    with _migration_connection(engine) as connection:
        command.downgrade(alembic_config(connection), revision)


@contextmanager
def _migration_connection(engine: Engine) -> Iterator[Connection]:
    """A fresh connection with foreign keys off (they cannot change inside a transaction)."""
    url = engine.url.render_as_string(hide_password=False)
    migration_engine = create_vault_engine(url, foreign_keys=False, poolclass=NullPool)
    try:
        with operation_scope("maintenance"), writer(migration_engine).begin() as connection:
            yield connection
    finally:
        migration_engine.dispose()


# -- what `vault upgrade` reports: what the file was, and whether the engine left work for vault


def is_empty(engine: Engine) -> bool:
    """Whether the database holds no table at all (a new file)."""
    with engine.connect() as connection:
        return not inspect(connection).get_table_names()


def legacy_row_count(engine: Engine) -> int:
    """Rows in the legacy athlete_memory table (0 when there is none)."""
    from vault.domain.legacy import (
        LEGACY_TABLE,  # here: opening a vault never loads the legacy parser
    )

    with engine.connect() as connection:
        if not inspect(connection).has_table(LEGACY_TABLE):
            return 0
        return int(connection.execute(text(f"SELECT COUNT(*) FROM {LEGACY_TABLE}")).scalar_one())


def engine_sync_pending(engine: Engine) -> bool:
    """Whether engine writes wait for vault (revision 0007, SQLite only)."""
    if engine.dialect.name != "sqlite":
        return False
    with engine.connect() as connection:
        waiting = connection.execute(
            text("SELECT EXISTS (SELECT 1 FROM engine_inbox WHERE refused IS NULL)")
        ).scalar_one()
    return bool(waiting)


def uncounted_items(engine: Engine) -> bool:
    """Whether items wait for their token counts (revision 0016: stored before it, or by
    another program)."""
    from vault.storage.repositories.engine_table import uncounted_items as counted_out

    with engine.connect() as connection:
        return counted_out(connection) > 0

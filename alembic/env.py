"""Alembic environment for vault.

Migrations run in ONE transaction (transactional DDL): Alembic's SQLite default is
non-transactional, which would leave a half-migrated file after a failure. Foreign keys are
off while migrating because batch mode rebuilds tables (DROP TABLE would cascade into child
rows); `PRAGMA foreign_key_check` runs before commit instead. Views are not in the models'
metadata, so autogenerate never sees them; each revision creates and replaces them with the SQL
it shipped with.

Revisions are frozen: they import nothing from `vault` (tests/migrations/test_frozen_revisions.py).
This file is today's code and may: it maps a revision's error that names a vault error (its
`vault_error` attribute, e.g. 0002's LegacyAdoptionError) to that vault exception, so callers
keep catching vault.domain.errors.LegacyImportError.

Run with a config file (the alembic command line), the file's [loggers] apply: alembic at INFO
says which revisions ran. Programmatic configs (vault.storage.migrations, which have no file,
or any config with `attributes["configure_logger"] = False`) leave logging alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from logging.config import fileConfig
from typing import Any

from sqlalchemy import Connection, Engine, text

from alembic import context
from vault.domain import errors
from vault.storage import (
    episode_tables,  # noqa: F401 - registers the episode tables on the metadata
    erasure_tables,  # noqa: F401 - registers the erasure record on the metadata
    evidence_tables,  # noqa: F401 - registers the evidence table on the metadata
)
from vault.storage.engine import create_vault_engine, default_url, writer
from vault.storage.tables import metadata

config = context.config
if config.config_file_name is not None and config.attributes.get("configure_logger", True):
    # keep loggers that exist already (vault's own, e.g. the skipped legacy rows' warnings)
    fileConfig(config.config_file_name, disable_existing_loggers=False)


def _url() -> str:
    return context.get_x_argument(as_dictionary=True).get("db_url") or default_url()


def _include_object(
    obj: Any, name: str | None, type_: str, reflected: bool, compare_to: Any
) -> bool:
    # Tables vault does not own (the mobile engine's, the legacy copy kept by revision 0002) and
    # their indexes are never compared, so autogenerate never proposes dropping them.
    if reflected and compare_to is None:
        table = obj if type_ == "table" else getattr(obj, "table", None)
        if table is not None and table.name not in metadata.tables:
            return False
    return not obj.info.get("is_view", False) if hasattr(obj, "info") else True


# what a revision's error may name in its `vault_error` attribute
_REVISION_ERRORS: dict[object, type[errors.VaultError]] = {
    "LegacyImportError": errors.LegacyImportError,
}


@contextmanager
def _vault_errors() -> Iterator[None]:
    """Re-raise a revision's error as the vault exception it names (revisions cannot import it)."""
    try:
        yield
    except Exception as error:
        mapped = _REVISION_ERRORS.get(getattr(error, "vault_error", None))
        if mapped is None:
            raise
        raise mapped(str(error)) from error


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=True,
        compare_type=True,
        include_object=_include_object,
        transactional_ddl=True,
    )
    with _vault_errors(), context.begin_transaction():
        context.run_migrations()
        if connection.dialect.name == "sqlite":
            problems = connection.execute(text("PRAGMA foreign_key_check")).fetchall()
            if problems:
                raise RuntimeError(f"migration left broken foreign keys: {problems[:5]}")


def run_migrations_online() -> None:
    given = config.attributes.get("connection")
    if isinstance(given, Connection):  # vault.storage.migrations: the caller owns the transaction
        _run(given)
        return
    engine = given if isinstance(given, Engine) else create_vault_engine(_url(), foreign_keys=False)
    try:
        with writer(engine).connect() as connection:
            _run(connection)
            connection.commit()
    finally:
        if given is None:
            engine.dispose()


def run_migrations_offline() -> None:
    context.configure(
        url=_url(),
        target_metadata=metadata,
        render_as_batch=True,
        literal_binds=True,
        transactional_ddl=True,
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()

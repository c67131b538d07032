"""Alembic environment for vault.

Migrations run in ONE transaction (transactional DDL): Alembic's SQLite default is
non-transactional, which would leave a half-migrated file after a failure. Foreign keys are
off while migrating because batch mode rebuilds tables (DROP TABLE would cascade into child
rows); `PRAGMA foreign_key_check` runs before commit instead. Views are not in the models'
metadata, so autogenerate never sees them; revisions create and replace them from vault.storage.views.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, Engine, text

from alembic import context
from vault.storage.engine import create_vault_engine, default_url, writer
from vault.storage.tables import Base

config = context.config


def _url() -> str:
    return context.get_x_argument(as_dictionary=True).get("db_url") or default_url()


def _include_object(obj: Any, name: str | None, type_: str, reflected: bool, compare_to: Any) -> bool:
    # Tables vault does not own (the mobile engine's, the legacy copy kept by revision 0002) and
    # their indexes are never compared, so autogenerate never proposes dropping them.
    if reflected and compare_to is None:
        table = obj if type_ == "table" else getattr(obj, "table", None)
        if table is not None and table.name not in Base.metadata.tables:
            return False
    return not obj.info.get("is_view", False) if hasattr(obj, "info") else True


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=True,
        compare_type=True,
        include_object=_include_object,
        transactional_ddl=True,
    )
    with context.begin_transaction():
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
        target_metadata=Base.metadata,
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

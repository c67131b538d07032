"""Revision 0013 (tenant keys) on a PostgreSQL database holding rows: keys, types and sequences move in place."""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from vault.storage.engine import create_vault_engine
from vault.storage.migrations import downgrade, upgrade

pytestmark = pytest.mark.postgres
T = "2026-03-02T08:00:00Z"


@pytest.fixture
def server_db(pg_admin_url: str) -> Iterator[str]:
    """A throwaway empty database on the test server."""
    parsed = make_url(pg_admin_url)
    if "+" not in parsed.drivername:
        parsed = parsed.set(drivername="postgresql+psycopg")
    admin = create_engine(parsed, isolation_level="AUTOCOMMIT")
    name = f"vault_mig_{secrets.token_hex(4)}"
    with admin.connect() as connection:
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
    try:
        yield parsed.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()


def _fill(url: str) -> None:
    engine = create_engine(url)
    with engine.begin() as c:
        c.execute(text("INSERT INTO athletes VALUES ('ana', :t, :t), ('bo', :t, :t)"), {"t": T})
        for athlete, words in (("ana", "knee pain"), ("bo", "swims"), ("bo", "gone")):
            c.execute(
                text(
                    "INSERT INTO facts (athlete_id, text, normalized_text, category, source, "
                    "confidence, base_confidence, occurrences, learned_at, observed_at, "
                    "last_reinforced_at, updated_at) VALUES (:a, :w, :w, 'injury', "
                    "'conversation', 0.9, 0.9, 1, :t, :t, :t, :t)"
                ),
                {"a": athlete, "w": words, "t": T},
            )
        c.execute(text("INSERT INTO fact_tags VALUES (1, 'body:knee'), (2, 'context:pool')"))
        c.execute(
            text(
                "INSERT INTO fact_evidence (fact_id, athlete_id, source, observed_at, "
                "recorded_at) VALUES (2, 'bo', 'conversation', :t, :t)"
            ),
            {"t": T},
        )
        c.execute(
            text(
                "INSERT INTO episodes (owner_id, owner_key, type, text, occurred_at, metadata, "
                "created_at) VALUES ('bo', 'kbo', 'session', 'long swim', :t, '{}', :t)"
            ),
            {"t": T},
        )
        c.execute(text("INSERT INTO episode_vectors VALUES (1, 'm', 1, '\\x0000803f')"))
        c.execute(text("DELETE FROM facts WHERE id = 3"))  # its id must never come back
    engine.dispose()


def test_a_server_database_with_rows_moves_to_tenant_keys(server_db: str) -> None:
    engine = create_vault_engine(server_db)
    try:
        upgrade(engine, "0012")
        _fill(server_db)
        upgrade(engine, "head")
        with engine.begin() as c:
            assert c.execute(
                text("SELECT athlete_id, fact_id, tag FROM fact_tags ORDER BY fact_id")
            ).all() == [("ana", 1, "body:knee"), ("bo", 2, "context:pool")]
            assert c.execute(text("SELECT owner_id, episode_id FROM episode_vectors")).all() == [
                ("bo", 1)
            ]
            keys = dict(
                c.execute(
                    text(
                        "SELECT conrelid::regclass::text, pg_get_constraintdef(oid) "
                        "FROM pg_constraint WHERE contype = 'p' AND conrelid::regclass::text "
                        "IN ('facts', 'fact_tags', 'episodes', 'episode_vectors')"
                    )
                ).all()
            )
            assert keys == {
                "facts": "PRIMARY KEY (athlete_id, id)",
                "fact_tags": "PRIMARY KEY (athlete_id, fact_id, tag)",
                "episodes": "PRIMARY KEY (owner_id, id)",
                "episode_vectors": "PRIMARY KEY (owner_id, episode_id)",
            }
            types = c.execute(
                text(
                    "SELECT DISTINCT data_type FROM information_schema.columns "
                    "WHERE column_name IN ('id', 'fact_id', 'episode_id', 'archive_id', "
                    "'original_id', 'superseded_by', 'knowledge_id') "
                    "AND table_name NOT IN ('alembic_version', 'athletes') "
                    "AND table_schema = 'public' "
                    "AND table_name IN (SELECT tablename FROM pg_tables)"
                )
            ).scalars()
            assert set(types) == {"bigint"}
            new_id = c.execute(
                text(
                    "INSERT INTO facts (athlete_id, text, normalized_text, category, source, "
                    "confidence, base_confidence, occurrences, learned_at, observed_at, "
                    "last_reinforced_at, updated_at) VALUES ('ana', 'runs', 'runs', 'sport', "
                    "'conversation', 0.9, 0.9, 1, :t, :t, :t, :t) RETURNING id"
                ),
                {"t": T},
            ).scalar_one()
            assert new_id == 4  # after the deleted 3: the identity continues the old sequence
            comment = c.execute(text("SELECT obj_description('fact_history'::regclass)"))
            assert "superseded_by" in comment.scalar_one()  # revision 0006's words survive
        downgrade(engine, "0012")
        with engine.connect() as c:
            assert c.execute(text("SELECT fact_id, tag FROM fact_tags ORDER BY 1")).all() == [
                (1, "body:knee"),
                (2, "context:pool"),
            ]
    finally:
        engine.dispose()

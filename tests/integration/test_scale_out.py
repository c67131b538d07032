"""Ready to shard by athlete: Citus's rules on what `vault upgrade` creates (plain and with
`--partitions N`), and `--partitions` only on a new PostgreSQL database."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import create_engine
from sqlalchemy.engine import make_url

from vault.cli.app import main
from vault.storage.citus_rules import check, summary
from vault.storage.engine import create_vault_engine
from vault.storage.migrations import upgrade


@pytest.fixture
def new_database(pg_admin_url: str) -> Iterator[str]:
    """A throwaway empty database on the test server."""
    parsed = make_url(pg_admin_url)
    if "+" not in parsed.drivername:
        parsed = parsed.set(drivername="postgresql+psycopg")
    admin = create_engine(parsed, isolation_level="AUTOCOMMIT")
    name = f"vault_scale_{secrets.token_hex(4)}"
    with admin.connect() as connection:
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
    try:
        yield parsed.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()


def _verdicts(url: str) -> dict[str, list[str]]:
    engine = create_vault_engine(url)
    try:
        with engine.connect() as connection:
            return {v.name: v.problems for v in check(connection)}
    finally:
        engine.dispose()


@pytest.mark.postgres
def test_every_table_and_view_vault_creates_passes_citus_rules(new_database: str) -> None:
    result = CliRunner().invoke(main, ["--db", new_database, "upgrade"])
    assert result.exit_code == 0, result.output
    verdicts = _verdicts(new_database)
    assert {name: why for name, why in verdicts.items() if why} == {}
    assert {"facts", "fact_tags", "episode_vectors", "knowledge", "fact_history"} <= set(verdicts)


@pytest.mark.postgres
def test_the_rule_check_fails_the_schema_before_tenant_keys(new_database: str) -> None:
    engine = create_vault_engine(new_database)
    try:
        upgrade(engine, "0009")
        with engine.connect() as connection:
            verdicts = check(connection)
    finally:
        engine.dispose()
    assert summary(verdicts).startswith("4 of 15 tables")  # the count
    problems = {v.name: v.problems for v in verdicts}
    assert "primary key pk_facts (id) lacks athlete_id" in problems["facts"]
    assert any("no tenant column" in p for p in problems["fact_tags"])
    assert problems["fact_history"]  # joins archive to facts on ids alone


@pytest.mark.postgres
def test_partitions_make_every_athlete_table_hash_partitioned(new_database: str) -> None:
    result = CliRunner().invoke(main, ["--db", new_database, "upgrade", "--partitions", "3"])
    assert result.exit_code == 0, result.output
    assert "in 3 partitions" in result.output
    engine = create_engine(new_database)
    with engine.connect() as connection:
        parents = dict(
            connection.exec_driver_sql(
                "SELECT c.relname, pg_get_partkeydef(c.oid) FROM pg_class AS c "
                "WHERE c.relkind = 'p' ORDER BY 1"
            ).all()
        )
        counts = dict(
            connection.exec_driver_sql(
                "SELECT inhparent::regclass::text, COUNT(*) FROM pg_inherits GROUP BY 1"
            ).all()
        )
        plain = connection.exec_driver_sql(
            "SELECT c.relname FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace "
            "WHERE c.relkind = 'r' AND NOT c.relispartition AND n.nspname = 'public' ORDER BY 1"
        ).scalars()
        plain_tables = list(plain)
    engine.dispose()
    assert parents["facts"] == "HASH (athlete_id)"
    assert parents["episodes"] == "HASH (owner_id)"
    assert parents["athletes"] == "HASH (id)"
    assert parents["fact_tags"] == "HASH (athlete_id)"
    assert set(counts.values()) == {3}
    assert plain_tables == ["alembic_version", "knowledge", "knowledge_names", "vault_secrets"]
    verdicts = _verdicts(new_database)
    assert {name: why for name, why in verdicts.items() if why} == {}


@pytest.mark.postgres
def test_partitions_refuse_a_database_holding_vault_tables(new_database: str) -> None:
    CliRunner().invoke(main, ["--db", new_database, "upgrade"])
    result = CliRunner().invoke(main, ["--db", new_database, "upgrade", "--partitions", "4"])
    assert result.exit_code != 0
    line = result.output.strip()
    assert "\n" not in line and "holds vault tables already" in line
    assert "Traceback" not in result.output


def test_partitions_refuse_a_sqlite_file(tmp_path: Path) -> None:
    path = tmp_path / "device.db"
    result = CliRunner().invoke(main, ["--db", str(path), "upgrade", "--partitions", "4"])
    assert result.exit_code != 0
    assert "--partitions is for PostgreSQL" in result.output

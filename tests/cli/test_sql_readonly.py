"""`vault sql` is read-only on every backend: the issue's write attempts fail cleanly, nothing changes.

Each test runs on SQLite and on PostgreSQL (the `vault_url` fixture, tests/conftest.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tests.conftest import T0, Db
from vault import FactIn, Vault
from vault.cli import main


@pytest.fixture
def sql(vault_url: str):  # type: ignore[no-untyped-def]
    def invoke(query: str, *options: str) -> Result:
        return CliRunner().invoke(main, ["--db", vault_url, "sql", query, *options])

    return invoke


@pytest.fixture
def stored(vault: Vault, db: Db) -> list[tuple[object, ...]]:
    vault.merge("ana", [FactIn(text="primary sport: running"), FactIn(text="goal: 10k")], now=T0)
    return db.rows("SELECT id, text FROM facts ORDER BY id")


def _unchanged(db: Db, stored: list[tuple[object, ...]]) -> None:
    assert db.rows("SELECT id, text FROM facts ORDER BY id") == stored
    assert db.rows("SELECT athlete_id, fact_count FROM athlete_summary") == [("ana", 2)]


@pytest.mark.parametrize(
    "query",
    [
        "select 1; commit; delete from facts",
        "DELETE FROM facts",
        "drop view athlete_summary",
        "with gone as (delete from facts returning *) select * from gone",
        "select * into stolen from facts",
        "select * from facts for update",
        "select pg_terminate_backend(1)",
        "select pg_catalog.pg_terminate_backend(pg_backend_pid())",
        "select set_config('default_transaction_read_only', 'off', false)",
        "select nextval('facts_id_seq')",
        "select query_to_xml('delete from facts', true, true, '')",
        "select lo_import('/etc/passwd')",
        "select * from dblink('dbname=test', 'delete from facts') as t(x int)",
        "ATTACH DATABASE 'other.db' AS other",
        "PRAGMA writable_schema = ON",
        "explain analyze delete from facts",
        "/* nothing */",
    ],
)
def test_writes_and_side_effects_are_refused_and_nothing_changes(
    sql,
    db: Db,
    stored: list[tuple[object, ...]],
    query: str,  # type: ignore[no-untyped-def]
) -> None:
    result = sql(query)
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    assert len(result.output.strip().splitlines()) == 1
    _unchanged(db, stored)


def test_copy_to_program_runs_nothing(sql, db: Db, stored, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / "pwned.txt"
    result = sql(f"COPY (SELECT 'x') TO PROGRAM 'touch {target}'")
    assert result.exit_code == 1 and "readonly" in result.output
    assert not target.exists()
    _unchanged(db, stored)


def test_a_query_that_never_ends_is_cancelled_at_the_timeout(sql, db: Db, stored) -> None:  # type: ignore[no-untyped-def]
    endless = (
        "with recursive n(i) as (select 1 union all select i + 1 from n) select count(*) from n"
    )
    result = sql(endless, "--timeout", "0.3")
    assert result.exit_code == 1 and "timeout" in result.output
    _unchanged(db, stored)
    assert (
        sql("select count(*) as n from facts", "--json").exit_code == 0
    )  # the vault still answers


def test_queries_read_views_with_colons_and_percents_untouched(sql, stored) -> None:  # type: ignore[no-untyped-def]
    result = sql(
        "SELECT text, ':x' AS colon, '100%' AS pct FROM active_facts ORDER BY id", "--json"
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == [
        {"text": "primary sport: running", "colon": ":x", "pct": "100%"},
        {"text": "goal: 10k", "colon": ":x", "pct": "100%"},
    ]
    assert (
        sql("WITH t AS (SELECT text FROM facts) SELECT count(*) AS n FROM t", "--csv").output
        == "n\n2\n"
    )
    assert sql("VALUES (1)").exit_code == 0
    assert sql("EXPLAIN SELECT * FROM top_facts").exit_code == 0


def test_rows_stream_and_limit(sql, backend: str) -> None:  # type: ignore[no-untyped-def]
    many = "with recursive n(i) as (select 1 union all select i + 1 from n where i < 50000) select i from n"
    result = sql(many, "--csv", "--timeout", "60")
    assert result.exit_code == 0 and result.output.count("\n") == 50_001
    rows = json.loads(sql(many, "--json", "--limit", "3").output)
    assert rows == [{"i": 1}, {"i": 2}, {"i": 3}]


@pytest.mark.postgres_only
def test_a_function_with_side_effects_the_parser_cannot_know_hits_the_read_only_transaction(
    sql,
    db: Db,
    stored,  # type: ignore[no-untyped-def]
) -> None:
    db.execute(
        "CREATE OR REPLACE FUNCTION vault_test_wipe() RETURNS int LANGUAGE sql AS "
        "'DELETE FROM fact_tags; DELETE FROM facts; SELECT 1'"
    )
    try:
        result = sql("select vault_test_wipe()")
        assert result.exit_code == 1 and "read-only transaction" in result.output
        _unchanged(db, stored)
    finally:
        db.execute("DROP FUNCTION vault_test_wipe()")


@pytest.mark.sqlite_only
def test_the_sqlite_authorizer_denies_what_is_not_a_read(vault: Vault) -> None:
    """Beneath the parser: the connection itself refuses pragmas, ATTACH and writes."""
    import sqlite3

    from vault.storage.sql_firewall import read_only_query

    with vault.engine.connect() as connection:
        for statement in (
            "PRAGMA journal_mode = DELETE",
            "ATTACH ':memory:' AS x",
            "DELETE FROM facts",
            "CREATE TABLE t (x)",
        ):
            with read_only_query(connection, 5) as cursor, pytest.raises(sqlite3.DatabaseError):
                cursor.execute(statement)
        with read_only_query(connection, 5) as cursor:
            cursor.execute("SELECT count(*) FROM top_facts")
            assert list(cursor.rows()) == [(0,)]

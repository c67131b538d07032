"""`vault sql`'s firewall wall by wall, on both backends: the connection-level guard (SQLite's
authorizer branch by branch, PostgreSQL's read-only transaction), the whole-run timeout and the
size limits. The parser wall is tested in test_sql_readonly.py."""

from __future__ import annotations

import sqlite3

import pytest
from click.testing import CliRunner, Result

from tests.conftest import T0, Db
from vault import FactIn, Vault
from vault.cli import main
from vault.storage.sql_firewall import (
    QueryTimeout,
    QueryTooLarge,
    read_only_query,
    sqlite_authorizer,
)

ENDLESS_STREAM = "with recursive n(i) as (select 1 union all select i + 1 from n) select i from n"


@pytest.fixture
def sql(vault_url: str):  # type: ignore[no-untyped-def]
    def invoke(query: str, *options: str) -> Result:
        return CliRunner().invoke(main, ["--db", vault_url, "sql", query, *options])

    return invoke


# -- SQLite's authorizer, one branch at a time (SQLite passes a function's name in arg2)


@pytest.mark.parametrize(
    ("action", "arg1", "arg2", "expected"),
    [
        (sqlite3.SQLITE_SELECT, None, None, sqlite3.SQLITE_OK),
        (sqlite3.SQLITE_READ, "facts", "text", sqlite3.SQLITE_OK),
        (sqlite3.SQLITE_RECURSIVE, None, None, sqlite3.SQLITE_OK),
        (sqlite3.SQLITE_FUNCTION, None, "count", sqlite3.SQLITE_OK),
        (sqlite3.SQLITE_FUNCTION, None, "load_extension", sqlite3.SQLITE_DENY),
        (sqlite3.SQLITE_FUNCTION, None, "FTS3_TOKENIZER", sqlite3.SQLITE_DENY),
        (sqlite3.SQLITE_FUNCTION, None, "pg_sleep", sqlite3.SQLITE_DENY),
        (
            sqlite3.SQLITE_FUNCTION,
            "load_extension",
            None,
            sqlite3.SQLITE_OK,
        ),  # arg1 is not the name
        (sqlite3.SQLITE_PRAGMA, "journal_mode", None, sqlite3.SQLITE_DENY),
        (sqlite3.SQLITE_ATTACH, "x.db", None, sqlite3.SQLITE_DENY),
        (sqlite3.SQLITE_INSERT, "facts", None, sqlite3.SQLITE_DENY),
        (sqlite3.SQLITE_UPDATE, "facts", "text", sqlite3.SQLITE_DENY),
        (sqlite3.SQLITE_DELETE, "facts", None, sqlite3.SQLITE_DENY),
        (sqlite3.SQLITE_CREATE_TABLE, "t", None, sqlite3.SQLITE_DENY),
        (sqlite3.SQLITE_TRANSACTION, "BEGIN", None, sqlite3.SQLITE_DENY),
    ],
)
def test_the_sqlite_authorizer_decides_each_action(
    action: int, arg1: object, arg2: object, expected: int
) -> None:
    assert sqlite_authorizer(action, arg1, arg2, None, None) == expected


@pytest.mark.sqlite_only
def test_a_denied_function_is_refused_by_the_connection_beneath_the_parser(vault: Vault) -> None:
    with vault.engine.connect() as connection:
        with (
            read_only_query(connection, 5) as cursor,
            pytest.raises(sqlite3.DatabaseError, match="not authorized"),
        ):
            cursor.execute("SELECT sqlite_compileoption_get(0)")
        with read_only_query(connection, 5) as cursor:
            cursor.execute("SELECT upper('ok'), count(*) FROM facts")
            assert list(cursor.rows()) == [("OK", 0)]


def test_the_connection_refuses_writes_beneath_the_parser(vault: Vault, db: Db) -> None:
    vault.merge("ana", [FactIn(text="goal: 10k")], now=T0)
    errors = vault.engine.dialect.loaded_dbapi.Error
    for statement in ("DELETE FROM facts", "UPDATE facts SET text = 'x'", "CREATE TABLE t (x int)"):
        with vault.engine.connect() as connection:
            with read_only_query(connection, 5, stream=False) as cursor, pytest.raises(errors):
                cursor.execute(statement)
    assert db.rows("SELECT text FROM facts") == [("goal: 10k",)]


# -- time: one deadline for the whole run, fetching included


def test_a_streamed_query_is_stopped_at_the_timeout_however_its_rows_are_fetched(
    vault: Vault,
) -> None:
    """Every fetch is quick; only the run as a whole is long (the PostgreSQL failure: a
    per-statement timeout let a streamed recursive CTE run for minutes)."""
    with pytest.raises(QueryTimeout, match="--timeout 0.5s"):
        with vault.admin.sql(ENDLESS_STREAM, timeout=0.5) as (_headers, rows):
            for _row in rows:
                pass


def test_the_cli_stops_an_endless_stream_with_one_line(sql, db: Db) -> None:  # type: ignore[no-untyped-def]
    result = sql(ENDLESS_STREAM, "--csv", "--timeout", "0.5")
    assert result.exit_code == 1
    assert result.stderr.strip().splitlines() == [
        "Error: the query ran past --timeout 0.5s and was cancelled"
    ]


# -- size: a value or a result that would allocate without bound


@pytest.mark.sqlite_only
def test_a_huge_value_fails_before_it_is_allocated(vault: Vault) -> None:
    with pytest.raises(QueryTooLarge, match="limit"):
        with vault.admin.sql("SELECT length(randomblob(1000000000))", timeout=30) as (_h, rows):
            list(rows)


def test_a_result_past_its_size_budget_stops_with_one_line(sql) -> None:  # type: ignore[no-untyped-def]
    many = (
        "with recursive n(i) as (select 1 union all select i + 1 from n where i < 100000) "
        "select i, 'some padding text to make each row large enough' as pad from n"
    )
    result = sql(many, "--csv", "--max-mb", "1", "--timeout", "60")
    assert result.exit_code == 1
    assert (
        result.stderr.strip()
        .splitlines()[-1]
        .startswith("Error: the result is larger than the 1 MB limit")
    )
    assert sql(many, "--csv", "--max-mb", "50", "--timeout", "60").exit_code == 0


@pytest.mark.sqlite_only
def test_ctrl_c_during_a_query_stays_the_applications_and_stops_the_query(vault: Vault) -> None:
    """The library never replaces the SIGINT handler: the application's runs (inside SQLite's
    progress handler), and the query stops with the KeyboardInterrupt it raised."""
    import signal
    import threading

    seen: list[object] = []

    def handler(_signum: int, _frame: object) -> None:
        seen.append(signal.getsignal(signal.SIGINT))
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, handler)
    timer = threading.Timer(0.2, signal.raise_signal, (signal.SIGINT,))
    try:
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            with vault.admin.sql(ENDLESS_STREAM, timeout=300) as (_headers, rows):
                for _row in rows:
                    pass
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    assert seen == [handler]

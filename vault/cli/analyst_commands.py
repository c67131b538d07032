"""Analyst commands: read-only SQL against the vault, and counts per table and category."""

from __future__ import annotations

import csv
import io
import itertools
import json
from collections.abc import Iterator
from typing import Any

import click
from sqlalchemy import Engine, exc, func, select

from vault.cli.app import database_url, echo_json, main, sqlite_path
from vault.cli.output import table
from vault.storage.dialect import check_query, read_only_query
from vault.storage.engine import create_vault_engine
from vault.storage.tables import Base, FactRow

STATS_TABLES = ("athletes", "facts", "fact_tags", "patterns", "notes", "archive", "forget_log")


TABLE_ROWS = 10_000  # the text table is aligned, so it holds its rows; --csv/--json stream
FETCH = 500


@main.command()
@click.argument("query")
@click.option("--csv", "as_csv", is_flag=True, help="Print CSV (streamed).")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of rows (streamed).")
@click.option(
    "--timeout",
    type=click.FloatRange(min=0.001, max=86_400),
    default=5.0,
    show_default=True,
    help="Cancel the query after this many seconds.",
)
@click.option("--limit", type=click.IntRange(min=1), help="Print at most this many rows.")
@click.pass_context
def sql(
    ctx: click.Context, query: str, as_csv: bool, as_json: bool, timeout: float, limit: int | None
) -> None:
    """Run one read-only query (SELECT, WITH ... SELECT, VALUES, EXPLAIN) and print the rows.

    The query is checked by a SQL parser (one statement, no writes, no functions with side
    effects), then run in a read-only transaction with a statement timeout. Use a database
    role without superuser rights for analysts on PostgreSQL (see the README).
    """
    if as_csv and as_json:
        raise click.UsageError("choose one of --csv and --json")
    if not query.strip():
        raise click.UsageError("QUERY is empty")
    engine = _read_only_engine(ctx)
    try:
        explain = check_query(query, engine.dialect.name)
        errors = engine.dialect.loaded_dbapi.Error
        with engine.connect() as connection:
            try:
                with read_only_query(connection, timeout, stream=not explain) as cursor:
                    cursor.execute(query)
                    if cursor.description is None:
                        raise click.ClickException(
                            "the statement returns no rows; `vault sql` only reads"
                        )
                    headers = [column[0] for column in cursor.description]
                    _emit(headers, _rows(cursor, limit), as_csv=as_csv, as_json=as_json)
            except errors as error:
                raise click.ClickException(f"query failed: {_first_line(error)}") from None
    finally:
        engine.dispose()


def _rows(cursor: Any, limit: int | None) -> Iterator[tuple[Any, ...]]:
    """The result in chunks of FETCH rows (a server-side cursor on PostgreSQL), up to `limit`."""
    left = limit
    while left is None or left > 0:
        chunk = cursor.fetchmany(FETCH if left is None else min(FETCH, left))
        if not chunk:
            return
        if left is not None:
            left -= len(chunk)
        yield from (tuple(row) for row in chunk)


def _emit(headers: list[str], rows: Iterator[tuple[Any, ...]], *, as_csv: bool, as_json: bool) -> None:
    if as_csv:
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(headers)
        for row in rows:
            writer.writerow(row)
            if buffer.tell() > 64_000:
                click.echo(buffer.getvalue(), nl=False)
                buffer.seek(0)
                buffer.truncate()
        click.echo(buffer.getvalue(), nl=False)
    elif as_json:
        click.echo("[", nl=False)
        for n, row in enumerate(rows):
            item = json.dumps(dict(zip(headers, row)), ensure_ascii=False, default=str)
            click.echo(f"{',' if n else ''}\n  {item}", nl=False)
        click.echo("\n]")
    else:
        shown = list(itertools.islice(rows, TABLE_ROWS))
        click.echo(table(headers, shown))
        if next(rows, None) is not None:
            click.echo(
                f"(only the first {TABLE_ROWS} rows are shown; --csv and --json print every row)",
                err=True,
            )


def _first_line(error: BaseException) -> str:
    return (str(error).strip().splitlines() or [type(error).__name__])[0]


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def stats(ctx: click.Context, as_json: bool) -> None:
    """Count the rows of every vault table and the active facts per category."""
    engine = _read_only_engine(ctx)
    tables = Base.metadata.tables
    try:
        with engine.connect() as connection:
            counts = {
                name: connection.execute(select(func.count()).select_from(tables[name])).scalar_one()
                for name in STATS_TABLES
            }
            by_category = dict(
                connection.execute(
                    select(FactRow.category, func.count())
                    .group_by(FactRow.category)
                    .order_by(FactRow.category)
                ).all()
            )
    except exc.DBAPIError as error:
        raise click.ClickException(f"cannot read the vault: {error.orig}") from None
    finally:
        engine.dispose()
    categories = {category.value: count for category, count in by_category.items()}
    if as_json:
        echo_json({"tables": counts, "facts_by_category": categories})
        return
    click.echo(table(["table", "rows"], list(counts.items())))
    click.echo()
    click.echo(table(["category", "facts"], list(categories.items())))


def _read_only_engine(ctx: click.Context) -> Engine:
    url = database_url(ctx)
    path = sqlite_path(url)
    if path is not None and not path.exists():
        raise click.ClickException(f"no vault at {path}; `vault upgrade` creates one")
    return create_vault_engine(url, read_only=True)

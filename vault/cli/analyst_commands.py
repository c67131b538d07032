"""Analyst commands: read-only SQL against the file, and counts per table and category."""

from __future__ import annotations

import csv
import io

import click
from sqlalchemy import exc, func, select, text

from vault.cli.app import database_url, echo_json, main, sqlite_path
from vault.cli.output import table
from vault.storage.engine import create_vault_engine
from vault.storage.tables import Base, FactRow

STATS_TABLES = ("athletes", "facts", "fact_tags", "patterns", "notes", "archive", "forget_log")


@main.command()
@click.argument("query")
@click.option("--csv", "as_csv", is_flag=True, help="Print CSV.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of rows.")
@click.pass_context
def sql(ctx: click.Context, query: str, as_csv: bool, as_json: bool) -> None:
    """Run one read-only SQL statement against the vault file and print the rows."""
    if as_csv and as_json:
        raise click.UsageError("choose one of --csv and --json")
    if not query.strip():
        raise click.UsageError("QUERY is empty")
    engine = _read_only_engine(ctx)
    try:
        with engine.connect() as connection:
            result = connection.execute(text(query))
            if not result.returns_rows:
                raise click.ClickException("the statement returns no rows; `vault sql` only reads")
            headers = list(result.keys())
            rows = [tuple(r) for r in result]
    except exc.DBAPIError as error:
        raise click.ClickException(f"query failed: {error.orig}") from None
    except exc.ArgumentError as error:
        raise click.ClickException(f"query failed: {error}") from None
    finally:
        engine.dispose()
    if as_json:
        echo_json([dict(zip(headers, row)) for row in rows])
    elif as_csv:
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(headers)
        writer.writerows(rows)
        click.echo(buffer.getvalue(), nl=False)
    else:
        click.echo(table(headers, rows))


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


def _read_only_engine(ctx: click.Context):  # type: ignore[no-untyped-def]
    url = database_url(ctx)
    path = sqlite_path(url)
    if path is not None and not path.exists():
        raise click.ClickException(f"no vault at {path}; `vault upgrade` creates one")
    return create_vault_engine(url, read_only=True)

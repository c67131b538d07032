"""Analyst commands: read-only SQL against the vault, and counts per table and category."""

from __future__ import annotations

import csv
import io
import itertools
import json
from collections.abc import Iterator
from typing import Any

import click

from vault.api import Vault
from vault.cli.app import FloatRange, apply_engine_writes, database_url, echo_json, main
from vault.cli.output import table
from vault.storage.engine import create_vault_engine, sqlite_file
from vault.storage.sql_firewall import MAX_RESULT_BYTES

TABLE_ROWS = 10_000  # the text table is aligned, so it holds its rows; --csv/--json stream


@main.command()
@click.argument("query")
@click.option("--csv", "as_csv", is_flag=True, help="Print CSV (streamed).")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of rows (streamed).")
@click.option(
    "--timeout",
    type=FloatRange(min=0.001, max=86_400),
    default=5.0,
    show_default=True,
    help="Cancel the query after this many seconds (the whole run, fetching included).",
)
@click.option("--limit", type=click.IntRange(min=1), help="Print at most this many rows.")
@click.option(
    "--max-mb",
    type=FloatRange(min=0.001, max=65_536),
    default=MAX_RESULT_BYTES / 1024 / 1024,
    show_default=True,
    help="Stop when the rows returned hold more than this many megabytes.",
)
@click.pass_context
def sql(
    ctx: click.Context,
    query: str,
    as_csv: bool,
    as_json: bool,
    timeout: float,
    limit: int | None,
    max_mb: float,
) -> None:
    """Run one read-only query (SELECT, WITH ... SELECT, VALUES, EXPLAIN) and print the rows.

    The query is checked by a SQL parser (one statement, no writes, no functions with side
    effects), then run in a read-only transaction bounded by --timeout and --max-mb. Use a database
    role without superuser rights for analysts on PostgreSQL (see docs/postgresql.md).
    """
    if as_csv and as_json:
        raise click.UsageError("choose one of --csv and --json")
    if not query.strip():
        raise click.UsageError("QUERY is empty")
    with (
        _read_only_vault(ctx) as vault,
        vault.admin.sql(
            query, timeout=timeout, limit=limit, max_bytes=int(max_mb * 1024 * 1024)
        ) as (
            headers,
            rows,
        ),
    ):
        _emit(headers, rows, as_csv=as_csv, as_json=as_json)


def _emit(
    headers: list[str], rows: Iterator[tuple[Any, ...]], *, as_csv: bool, as_json: bool
) -> None:
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


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def stats(ctx: click.Context, as_json: bool) -> None:
    """Count the rows of every vault table and the stored facts per category."""
    with _read_only_vault(ctx) as vault:
        counts = vault.admin.stats()
    if as_json:
        echo_json(counts)
        return
    click.echo(table(["table", "rows"], list(counts["tables"].items())))
    click.echo()
    click.echo(table(["category", "facts"], list(counts["facts_by_category"].items())))


def _read_only_vault(ctx: click.Context) -> Vault:
    """The file opened read-only as it is (no schema check: an analyst may read any revision),
    after the engine's waiting rows are applied, as every reading command does (a file vault
    cannot write, or at another revision, is read as it is, with a warning saying so)."""
    url = database_url(ctx)
    path = sqlite_file(url)
    if path is not None and not path.exists():
        raise click.ClickException(f"no vault at {path}; `vault upgrade` creates one")
    vault = Vault(create_vault_engine(url, read_only=True))
    waiting = vault.admin.engine_writes_waiting()
    if waiting:
        vault.close()
        apply_engine_writes(url, waiting)
        vault = Vault(create_vault_engine(url, read_only=True))
    return vault

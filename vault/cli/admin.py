"""`vault upgrade`: bring a file to the newest schema (creating it if needed), with counts."""

from __future__ import annotations

import click

from vault.api import open_vault, upgrade_schema
from vault.cli.app import (
    committing,
    database_url,
    db_option,
    echo_json,
    json_option,
    main,
    verbose_option,
    warn,
    write_guard,
)
from vault.cli.output import counted, on_terminal
from vault.domain.times import utc_now
from vault.prompt.items import utc_text
from vault.storage import migrations as migrate
from vault.storage.engine import create_vault_engine

EARLIER_SHOWN = 10  # items left out of engine rows applied before, printed by `upgrade`


@main.command()
@click.option(
    "--partitions",
    type=click.IntRange(min=2),
    default=None,
    metavar="N",
    help="New PostgreSQL database only: hash-partition every athlete-owned table by the "
    "athlete id into N partitions (docs/scale-out.md).",
)
@verbose_option
@json_option("Print the revisions and the adoption counts as JSON.")
@db_option
@click.pass_context
def upgrade(ctx: click.Context, partitions: int | None, verbose: bool, as_json: bool) -> None:
    """Create the vault file or upgrade it to the newest schema, in one transaction.

    That transaction also counts the tokens of items stored without them (the engine's
    `athlete_memory` view needs them). Then vault applies what waits in the engine's inbox
    (legacy rows to adopt, writes the engine made). Ends with one line: the revision before
    and after, and how many engine rows were applied; each item left out of an engine row is a
    warning on stderr, those of rows earlier writes applied too (the latest 10, from the record
    `vault doctor` reads).
    """
    engine = create_vault_engine(database_url(ctx))
    try:
        before = migrate.ensure_not_newer(engine)
        legacy_rows = migrate.legacy_row_count(engine) if before is None or before < "0002" else 0
        empty = before is None and migrate.is_empty(engine)
        if legacy_rows and on_terminal():
            click.echo(f"adopting {legacy_rows} legacy athlete_memory rows...", err=True)
        guard = write_guard(ctx)
        guard.attach(engine)
        with committing(ctx, "the upgrade (one transaction)"):
            counted_items = 0  # a new partitioned database holds no items
            if partitions is None:
                counted_items = upgrade_schema(engine)
            else:
                migrate.create_partitioned(engine, partitions)
        after = migrate.current_revision(engine)
    finally:
        engine.dispose()
    at = utc_now()
    with open_vault(database_url(ctx)) as vault, committing(ctx, "applying the engine's rows"):
        report = vault.admin.sync_engine(now=at)
        left_out, latest = vault.admin.engine_items_left_out(limit=EARLIER_SHOWN)
    for line in report.lines:
        warn(line)
    # rows applied by earlier writes: their items left out are in the record, never re-read
    earlier = [item.line() for item in latest if item.skipped_at != utc_text(at)]
    for line in earlier:
        warn(f"earlier engine row for {line}")
    if left_out > len(latest):
        warn(f"{left_out} items left out of engine rows in all: `vault doctor`")
    counts = {"applied": report.applied, "refused": report.refused, "counted": counted_items}
    if as_json:
        echo_json(
            {
                "before": before,
                "after": after,
                **counts,
                "lines": report.lines,
                "left_out": left_out,
                "earlier_left_out": earlier,
            }
        )
        return
    engine_rows = (
        f"; {counted(report.applied, 'engine row')} applied, {report.refused} kept unread"
        if report.applied or report.refused
        else ""
    )
    if counted_items:
        engine_rows += f"; {counted(counted_items, 'item')} counted for the engine's view"
    if before == after:
        click.echo(f"already at the newest schema ({after}){engine_rows}")
        return
    if before:
        origin = f"revision {before}"
    elif empty:
        origin = "empty file"
    else:
        origin = "a database without vault tables"
    split = f", athlete-owned tables in {partitions} partitions" if partitions else ""
    click.echo(f"upgraded {origin} -> {after}{split}{engine_rows}")
    if verbose and legacy_rows:
        click.echo(
            f"{legacy_rows} legacy rows read; the original table is kept as legacy_athlete_memory"
        )

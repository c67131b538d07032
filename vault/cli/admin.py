"""`vault upgrade`: bring a file to the newest schema (creating it if needed), with counts."""

from __future__ import annotations

import click

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
from vault.storage import migrations as migrate
from vault.storage.engine import create_vault_engine


@main.command()
@click.option(
    "--skip-bad-legacy-rows",
    is_flag=True,
    help="Adopt the legacy athlete_memory rows that parse; skip and list the others "
    "(they stay in legacy_athlete_memory).",
)
@verbose_option
@json_option("Print the revisions and the adoption counts as JSON.")
@db_option
@click.pass_context
def upgrade(ctx: click.Context, skip_bad_legacy_rows: bool, verbose: bool, as_json: bool) -> None:
    """Create the vault file or upgrade it to the newest schema, in one transaction.

    Ends with one line: the revision before and after, and how many legacy athlete_memory rows
    were adopted or skipped (each skipped row is a warning on stderr).
    """
    engine = create_vault_engine(database_url(ctx))
    try:
        before = migrate.ensure_not_newer(engine)
        legacy_rows = migrate.legacy_row_count(engine) if before is None or before < "0002" else 0
        empty = before is None and migrate.is_empty(engine)
        if legacy_rows and on_terminal():
            click.echo(f"adopting {legacy_rows} legacy athlete_memory rows "
                       "(one transaction; this can take a while)...", err=True)
        guard = write_guard(ctx)
        guard.attach(engine)
        with committing(ctx, "the upgrade (one transaction)"):
            skipped = migrate.upgrade(engine, skip_bad_legacy_rows=skip_bad_legacy_rows)
        after = migrate.current_revision(engine)
        adopted = migrate.adopted_count(engine) if legacy_rows else 0
    finally:
        engine.dispose()
    for problem in skipped:
        warn(f"skipped legacy row: {problem}")
    counts = {"adopted": adopted, "skipped": len(skipped)}
    if as_json:
        echo_json({"before": before, "after": after, **counts,
                   "skipped_rows": [str(p) for p in skipped]})
        return
    if before == after:
        click.echo(f"already at the newest schema ({after})")
        return
    if before:
        origin = f"revision {before}"
    elif empty:
        origin = "empty file"
    else:
        origin = "a database without vault tables"
    adoption = (f"; legacy athlete_memory: {counted(adopted, 'athlete')} adopted, {len(skipped)} skipped"
                if legacy_rows else "")
    click.echo(f"upgraded {origin} -> {after}{adoption}")
    if verbose and legacy_rows:
        click.echo(f"{legacy_rows} legacy rows read; skipped rows stay in legacy_athlete_memory")


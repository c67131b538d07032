"""`vault upgrade`: bring a file to the newest schema (creating it if needed)."""

from __future__ import annotations

import click

from vault.cli.app import database_url, echo_json, main
from vault.storage import migrations as migrate
from vault.storage.engine import create_vault_engine


@main.command()
@click.option(
    "--skip-bad-legacy-rows",
    is_flag=True,
    help="Adopt the legacy athlete_memory rows that parse; skip and list the others "
    "(they stay in legacy_athlete_memory).",
)
@click.option("--json", "as_json", is_flag=True, help="Print revisions and skipped rows as JSON.")
@click.pass_context
def upgrade(ctx: click.Context, skip_bad_legacy_rows: bool, as_json: bool) -> None:
    """Create the vault file or upgrade it to the newest schema, in one transaction."""
    engine = create_vault_engine(database_url(ctx))
    try:
        before = migrate.ensure_not_newer(engine)
        skipped = migrate.upgrade(engine, skip_bad_legacy_rows=skip_bad_legacy_rows)
        after = migrate.current_revision(engine)
    finally:
        engine.dispose()
    if as_json:
        echo_json({"before": before, "after": after, "skipped": [str(p) for p in skipped]})
        return
    if before == after:
        click.echo(f"already at the newest schema ({after})")
    else:
        click.echo(f"upgraded {before or 'empty file'} -> {after}")
    for problem in skipped:
        click.echo(f"skipped legacy row: {problem}")

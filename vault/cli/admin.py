"""`vault upgrade`: bring a file to the newest schema (creating it if needed)."""

from __future__ import annotations

import click

from vault import migrate
from vault.cli.app import database_url, main
from vault.db import create_vault_engine


@main.command()
@click.pass_context
def upgrade(ctx: click.Context) -> None:
    """Create the vault file or upgrade it to the newest schema, in one transaction."""
    engine = create_vault_engine(database_url(ctx))
    try:
        before = migrate.ensure_not_newer(engine)
        migrate.upgrade(engine)
        after = migrate.current_revision(engine)
    finally:
        engine.dispose()
    if before == after:
        click.echo(f"already at the newest schema ({after})")
    else:
        click.echo(f"upgraded {before or 'empty file'} -> {after}")

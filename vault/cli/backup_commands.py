"""`vault backup DEST`: a consistent copy of a live vault file (SQLite's online backup API)."""

from __future__ import annotations

import click

from vault.cli.app import db_option, echo_json, json_option, main, open_from_cli
from vault.cli.output import counted


@main.command()
@click.argument("destination", type=click.Path(dir_okay=False, writable=True))
@click.option("--force", is_flag=True, help="Overwrite DESTINATION if it exists.")
@json_option("Print the copy's path and counts as JSON.")
@db_option
@click.pass_context
def backup(ctx: click.Context, destination: str, force: bool, as_json: bool) -> None:
    """Copy the whole vault to DESTINATION while it is in use (a consistent snapshot).

    Uses SQLite's online backup API: writers are not stopped, and the copy is one self-contained
    file (no -wal) that `vault --db DESTINATION ...` opens as it is. An existing DESTINATION is
    refused unless --force. The copy is written beside DESTINATION and renamed into place, so an
    interrupted backup leaves no partial file behind.
    """
    vault = open_from_cli(ctx, read_only=False)
    target = vault.transfer.backup(destination, overwrite=force)
    size = target.stat().st_size
    athletes = vault.admin.athlete_count()
    if as_json:
        echo_json({"destination": str(target), "bytes": size, "athletes": athletes})
        return
    click.echo(f"backed up {counted(athletes, 'athlete')} to {target} ({size:,} bytes)")

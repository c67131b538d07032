"""`vault copy SRC DEST`: move a whole vault between a SQLite file and PostgreSQL (either way)."""

from __future__ import annotations

import click

from vault.api import open_vault
from vault.cli.app import CliError, apply_engine_writes, echo_json, json_option, main
from vault.cli.output import counted, progress, table
from vault.storage.engine import as_url, display_url, sqlite_file


@main.command()
@click.argument("source", metavar="SRC_URL")
@click.argument("destination", metavar="DEST_URL")
@json_option("Print the counts and the checksum as JSON.")
def copy(source: str, destination: str, as_json: bool) -> None:
    """Copy every athlete of SRC_URL into DEST_URL (a file path or a database URL).

    Ids, history links, the archive and the forget log are kept; DEST is created or upgraded
    to the newest schema, written in one transaction, then verified (rows per athlete and a
    checksum of every row). Running it again changes nothing. SRC may be in use: it is read,
    and verified, in one snapshot (what writers commit meanwhile is left for the next copy).
    """
    src_url, dest_url = as_url(source), as_url(destination)
    path = sqlite_file(src_url)
    if path is not None and not path.exists():
        raise CliError(f"no vault at {path}")
    if src_url == dest_url:
        raise CliError("SRC_URL and DEST_URL are the same vault")
    with open_vault(src_url, read_only=True) as src:
        waiting = src.admin.engine_writes_waiting()
    if waiting:  # what the on-device engine wrote goes too (its own table is not copied)
        apply_engine_writes(src_url, waiting)
    with open_vault(src_url, read_only=True) as src, open_vault(dest_url, upgrade=True) as dest:
        with progress(src.admin.athlete_count(), "copying athletes") as advance:
            report = src.transfer.copy_to(dest, on_batch=advance)
    if as_json:
        echo_json(
            {
                "source": display_url(src_url),
                "destination": display_url(dest_url),
                "athletes": report.athletes,
                "changed": report.changed,
                "unchanged": report.unchanged,
                "rows": report.rows,
                "checksum": report.checksum,
            }
        )
        return
    click.echo(f"copied {display_url(src_url)} -> {display_url(dest_url)}")
    click.echo(table(["table", "rows"], list(report.rows.items())))
    click.echo(
        f"{counted(report.athletes, 'athlete')}: {report.changed} written, {report.unchanged} already equal; "
        "rows per athlete match"
    )
    click.echo(f"checksum sha256:{report.checksum} (source and destination agree)")

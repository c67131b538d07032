"""`vault doctor` (is this vault healthy?) and `vault erase --wait` (finish a pending erasure)."""

from __future__ import annotations

import click

from vault.api import Vault
from vault.cli.app import FloatRange, database_url, echo_json, main, open_from_cli
from vault.storage.engine import create_vault_engine, sqlite_file

HEALTHY, UNHEALTHY = 0, 1


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
def doctor(ctx: click.Context, as_json: bool) -> None:
    """Check the vault: integrity, foreign keys, schema revision, that every view answers, the
    memory invariants (caps, one active fact per text and per conflict key, confidences in 0..1,
    history links) and erased text still pending in the write-ahead log.

    Opens the file read-only and changes nothing. Exit code 0 when healthy, 1 when not.
    """
    url = database_url(ctx)
    path = sqlite_file(url)
    if path is not None and not path.exists():
        raise click.ClickException(f"no vault at {path}; `vault upgrade` creates one")
    with Vault(create_vault_engine(url, read_only=True)) as vault:  # any revision: no check
        report = vault.admin.doctor()
    if as_json:
        echo_json(report.to_dict())
    else:
        for check in report.checks:
            click.echo(f"{'ok  ' if check.ok else 'FAIL'}  {check.name}: {check.detail}")
        click.echo("healthy" if report.healthy else "NOT healthy")
    ctx.exit(HEALTHY if report.healthy else UNHEALTHY)


@main.command()
@click.option(
    "--wait",
    "wait",
    type=FloatRange(0, 86400),
    is_flag=False,
    flag_value=30.0,
    default=0.0,
    show_default=True,
    metavar="[SECONDS]",
    help="Wait up to this long (30 s when given alone) for readers holding old snapshots.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the outcome as JSON.")
@click.pass_context
def erase(ctx: click.Context, wait: float, as_json: bool) -> None:
    """Finish erasing forgotten and deleted memories from disk.

    Checkpoints the write-ahead log into the vault file and truncates it, so no older copy of
    an erased page remains. A reader that holds an old snapshot keeps that from finishing:
    `--wait` retries until it lets go. Exit code 0 when nothing erased remains on disk, 1 when
    the log could not be emptied.
    """
    vault = open_from_cli(ctx)
    done = vault.admin.erase(wait)
    if as_json:
        echo_json({"erased_from_disk": done})
    if not done:
        raise click.ClickException(
            "the write-ahead log could not be emptied: another connection still reads an old "
            "snapshot; close it, or run `vault erase --wait SECONDS` with a longer wait"
        )
    if not as_json:
        click.echo("erased: the write-ahead log is empty; no erased text remains on disk")

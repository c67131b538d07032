"""`vault mcp`: serve the vault to an agent over the Model Context Protocol (stdio or HTTP)."""

from __future__ import annotations

import click

from vault.cli.app import CliError, db_option, main, open_from_cli
from vault.mcp import INSTALL_HINT, sdk_available


@main.command("mcp")
@click.option(
    "--athlete",
    "athletes",
    multiple=True,
    metavar="ID",
    required=True,
    help="An athlete the server may read (and, if allowed, write); repeat it for an "
    "allow-list. No other athlete is ever listed or read.",
)
@click.option(
    "--allow-writes",
    is_flag=True,
    help="Offer vault_remember, vault_learn and vault_record_episode (off: the server only reads).",
)
@click.option(
    "--allow-forget",
    is_flag=True,
    help="Also offer vault_forget, which erases for good (needs --allow-writes).",
)
@click.option(
    "--http",
    "http",
    metavar="HOST:PORT",
    help="Serve streamable HTTP on a loopback address instead of stdio.",
)
@db_option
@click.pass_context
def mcp_command(
    ctx: click.Context,
    athletes: tuple[str, ...],
    allow_writes: bool,
    allow_forget: bool,
    http: str | None,
) -> None:
    """Serve the vault to an MCP client (stdio by default), bound to the --athlete ids."""
    if not sdk_available():
        raise CliError(INSTALL_HINT)
    if allow_forget and not allow_writes:
        raise click.UsageError("--allow-forget needs --allow-writes")
    from vault.mcp.scope import Scope
    from vault.mcp.server import build_server, loopback, serve

    address = None
    if http is not None:
        try:
            address = loopback(http)
        except ValueError as error:
            raise click.BadParameter(str(error), param_hint="--http") from None
    scope = Scope(athletes, allow_writes=allow_writes, allow_forget=allow_forget)
    vault = open_from_cli(ctx, create=allow_writes, read_only=not allow_writes)
    serve(build_server(vault, scope), address)

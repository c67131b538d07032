"""`vault ui`: serve the memory page, where the athlete sees and corrects what the coach knows."""

from __future__ import annotations

import click

from vault.api import open_vault
from vault.cli.app import CliError, database_url, db_option, main, open_from_cli
from vault.ui import INSTALL_HINT, stack_available


@main.command("ui")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on; any non-loopback address needs --token.",
)
@click.option("--port", type=click.IntRange(1, 65535), default=8765, show_default=True)
@click.option(
    "--athlete",
    "athletes",
    multiple=True,
    metavar="ID",
    help="Serve only this athlete (repeatable), as an app's settings screen would.",
)
@click.option(
    "--read-only",
    is_flag=True,
    help="Open the file read-only: nothing can change, and the coaching app's waiting writes "
    "are shown as waiting.",
)
@click.option(
    "--token",
    is_flag=True,
    help="Require a random token, printed once in the page's address and then kept in a "
    "cookie (needed for any address other than loopback).",
)
@db_option
@click.pass_context
def ui_command(
    ctx: click.Context,
    host: str,
    port: int,
    athletes: tuple[str, ...],
    read_only: bool,
    token: bool,
) -> None:
    """Serve the memory page: what the coach sees about each athlete, and corrections."""
    if not stack_available():
        raise CliError(INSTALL_HINT)
    from vault.ui.server import is_loopback, new_token, serve

    if not token and not is_loopback(host):
        raise click.BadParameter(
            f"{host} is not a loopback address; add --token so only you can open the page",
            param_hint="--host",
        )
    if read_only:  # as it is on disk: the engine's waiting writes stay waiting
        vault = open_vault(database_url(ctx), read_only=True)
        ctx.call_on_close(vault.close)
    else:
        vault = open_from_cli(ctx)
    serve(
        vault,
        host=host,
        port=port,
        served=athletes or None,
        read_only=read_only,
        token=new_token() if token else None,
        announce=click.echo,
    )

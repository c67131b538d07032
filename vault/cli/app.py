"""The root command, shared options and the one place user errors become one-line messages."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import click
from sqlalchemy import exc
from sqlalchemy.engine import make_url

from vault.api import Vault, open_vault
from vault.domain.errors import VaultError
from vault.domain.times import parse_iso_time
from vault.storage.engine import as_url, default_url


class VaultGroup(click.Group):
    """Turns the vault's own errors into `Error: ...` and exit code 1 (never a traceback)."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except VaultError as error:
            raise click.ClickException(str(error)) from None
        except exc.DatabaseError as error:  # e.g. --db points at a file that is not SQLite
            raise click.ClickException(f"database error: {error.orig}") from None


@click.group(cls=VaultGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--db",
    "db",
    metavar="PATH",
    help="Vault file or database URL (default: $VAULT_DB_URL, $VAULT_DB, or ./vault.db).",
)
@click.pass_context
def main(ctx: click.Context, db: str | None) -> None:
    """vault: the memory an LLM coach keeps about each athlete, in a local SQLite file."""
    ctx.obj = {"url": as_url(db) if db else default_url()}


def database_url(ctx: click.Context) -> str:
    return str(ctx.find_root().obj["url"])


def open_from_cli(ctx: click.Context, *, create: bool = False, read_only: bool = False) -> Vault:
    """Open the vault named by --db. A missing file is created only by commands that write."""
    url = database_url(ctx)
    path = sqlite_path(url)
    if path is not None and not path.exists():
        if not create:
            raise click.ClickException(f"no vault at {path}; `vault upgrade` creates one")
        vault = open_vault(url, upgrade=True)
    else:
        vault = open_vault(url, read_only=read_only)
    ctx.call_on_close(vault.close)
    return vault


def sqlite_path(url: str) -> Path | None:
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:":
        return None
    return Path(parsed.database)


def parse_at(value: str | None) -> datetime | None:
    """`--at ISO-TIME` (timezone required) or None for now."""
    if value is None:
        return None
    try:
        return parse_iso_time(value, "--at")
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--at") from None


def echo_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False, default=str))


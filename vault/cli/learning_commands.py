"""`vault ingest` (learn from a message, an activity or a conversation) and `vault relevant`."""

from __future__ import annotations

import json
import sys
from datetime import datetime
from typing import Any

import click

from vault.api import Vault
from vault.cli.app import (
    CliError,
    at_option,
    committing,
    db_option,
    echo_json,
    json_option,
    main,
    open_from_cli,
)
from vault.cli.output import dump, echo_merge_result, progress, table
from vault.domain.models import Candidate, MergeResult
from vault.domain.times import utc_now

KINDS = ("message", "activity", "conversation")


@main.command()
@click.argument("athlete")
@click.option("--text", "text", help="The text to learn from.")
@click.option(
    "--file",
    "file",
    type=click.Path(exists=True, dir_okay=False, allow_dash=True),
    help="Read the input from a file (UTF-8).",
)
@click.option(
    "--kind",
    type=click.Choice(KINDS),
    default="message",
    show_default=True,
    help="message: free text; activity: JSON (id, started_at/date, name, description, "
    "private_note, planned, completed, rpe, ...) or plain note text; "
    "conversation: JSON list of {role, text, at}.",
)
@at_option("When it was said or done (default: now).")
@json_option("Print the merge result as JSON.")
@db_option
@click.argument("stdin", required=False, metavar="[-]")
@click.pass_context
def ingest(
    ctx: click.Context,
    athlete: str,
    text: str | None,
    file: str | None,
    kind: str,
    at: datetime | None,
    as_json: bool,
    stdin: str | None,
) -> None:
    """Extract what ATHLETE said or did into memory (`-` reads standard input).

    Extraction runs first (a progress bar on a terminal for a large message), then ONE merge
    transaction. Input is UTF-8 text of at most 16 MB.
    """
    sources = [s for s in (text is not None, file is not None, stdin == "-") if s]
    if stdin not in (None, "-"):
        raise click.UsageError(f"unexpected argument {stdin!r}; use --text, --file or -")
    if len(sources) != 1:
        raise click.UsageError("give exactly one of --text, --file or - (standard input)")
    if text is not None:
        raw = text
    else:
        raw = _read_text(file if file is not None else "-")
    when = at
    vault = open_from_cli(ctx, create=True)
    if kind == "message" and len(raw) >= CHUNKED:
        moment = when or utc_now()
        candidates = _extract_message(raw, moment)
        with committing(ctx, "the merge"):
            result = vault.merge(athlete, candidates, now=moment)
    elif kind == "message":
        with committing(ctx, "the merge"):
            result = vault.ingest_message(athlete, raw, now=when)
    elif kind == "activity":
        activity = _activity(raw, when)
        with committing(ctx, "the merge"):
            result = vault.ingest_activity(athlete, activity, now=when)
    else:
        turns = _json(raw, "a JSON list of turns")
        with committing(ctx, "the merge"):
            result = vault.ingest_conversation(athlete, turns, now=when)
    _report(result, as_json)


MAX_INPUT_BYTES = 16 * 1024 * 1024
CHUNKED = 256 * 1024  # a message this long is extracted line by line, with a progress bar


def _read_text(path: str) -> str:
    """A file (or `-`, standard input) as UTF-8 text, refusing what is too long or not UTF-8."""
    where = "standard input" if path == "-" else path
    if path == "-":
        raw = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
    else:
        try:
            with open(path, "rb") as stream:
                raw = stream.read(MAX_INPUT_BYTES + 1)
        except OSError as error:
            raise click.ClickException(f"cannot read {path}: {error.strerror or error}") from None
    if len(raw) > MAX_INPUT_BYTES:
        raise click.ClickException(f"{where} holds more than {MAX_INPUT_BYTES >> 20} MB")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise click.ClickException(
            f"{where} is not valid UTF-8 (byte {error.start}); nothing was stored"
        ) from None


def _extract_message(raw: str, moment: datetime) -> list[Candidate]:
    """A long message, extracted line by line (pure, no lock held) with a progress bar."""
    lines = raw.splitlines()
    found: list[Candidate] = []
    with progress(len(lines), "extracting") as advance:
        for line in lines:
            if line.strip():
                found.extend(Vault.extract_message(line, moment))
            advance(1)
    return found


@main.command()
@click.argument("athlete")
@click.argument("context")
@click.option("--limit", type=click.IntRange(min=1), default=5, show_default=True)
@at_option("Score recency as of this time (default: now).")
@json_option()
@db_option
@click.pass_context
def relevant(
    ctx: click.Context, athlete: str, context: str, limit: int, at: datetime | None, as_json: bool
) -> None:
    """List ATHLETE's memories most relevant to CONTEXT (shared words, tags, confidence, recency)."""
    vault = open_from_cli(ctx, read_only=True)
    if vault.summary(athlete) is None:  # as `vault facts`: an unknown athlete is an error (1)
        raise CliError(f"no memory stored for athlete {athlete!r}")
    items = vault.relevant(athlete, context, limit=limit, now=at)
    if as_json:
        echo_json(dump(items))
        return
    click.echo(
        table(
            ["kind", "id", "conf", "text"],
            [(i.kind.value, i.id, f"{i.confidence:.2f}", i.text) for i in items],
        )
    )


@main.command()
@click.argument("athlete")
@at_option("Consolidate as of this time (default: now).")
@json_option("Print the merge result as JSON.")
@db_option
@click.pass_context
def consolidate(ctx: click.Context, athlete: str, at: datetime | None, as_json: bool) -> None:
    """Turn ATHLETE's recorded activity sessions into durable facts (safe to repeat)."""
    vault = open_from_cli(ctx)
    with committing(ctx, "the consolidation"):
        result = vault.consolidate(athlete, now=at)
    _report(result, as_json)


def _json(raw: str, what: str) -> Any:
    try:
        return json.loads(raw)
    except json.JSONDecodeError as error:
        raise click.ClickException(f"expected {what}: {error}") from None


def _activity(raw: str, when: datetime | None) -> dict[str, Any]:
    stripped = raw.strip()
    if stripped.startswith("{"):
        data = _json(stripped, "a JSON activity")
        if not isinstance(data, dict):
            raise click.ClickException("expected a JSON object for the activity")
        return data
    moment = when or utc_now()
    return {
        "id": f"note-{moment.strftime('%Y%m%dT%H%M%SZ')}",
        "started_at": moment,
        "private_note": stripped,
    }


def _report(result: MergeResult, as_json: bool) -> None:
    if as_json:
        echo_json(result.model_dump(mode="json"))
    else:
        echo_merge_result(result)

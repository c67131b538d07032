"""`vault ingest` (learn from a message, an activity or a conversation) and `vault relevant`."""

from __future__ import annotations

import json
import sys
from datetime import datetime
from typing import Any

import click

from vault.cli.app import echo_json, main, open_from_cli, parse_at
from vault.cli.output import dump, echo_merge_result, table
from vault.domain.models import MergeResult
from vault.domain.times import utc_now

KINDS = ("message", "activity", "conversation")


@main.command()
@click.argument("athlete")
@click.option("--text", "text", help="The text to learn from.")
@click.option("--file", "file", type=click.File("r", encoding="utf-8"), help="Read the input from a file.")
@click.option("--kind", type=click.Choice(KINDS), default="message", show_default=True,
              help="message: free text; activity: JSON (id, started_at/date, name, description, "
                   "private_note, planned, completed, rpe, ...) or plain note text; "
                   "conversation: JSON list of {role, text, at}.")
@click.option("--at", "at", metavar="ISO-TIME", help="When it was said or done (default: now).")
@click.option("--json", "as_json", is_flag=True, help="Print the merge result as JSON.")
@click.argument("stdin", required=False, metavar="[-]")
@click.pass_context
def ingest(ctx: click.Context, athlete: str, text: str | None, file: Any, kind: str,
           at: str | None, as_json: bool, stdin: str | None) -> None:
    """Extract what ATHLETE said or did into memory (`-` reads standard input)."""
    sources = [s for s in (text is not None, file is not None, stdin == "-") if s]
    if stdin not in (None, "-"):
        raise click.UsageError(f"unexpected argument {stdin!r}; use --text, --file or -")
    if len(sources) != 1:
        raise click.UsageError("give exactly one of --text, --file or - (standard input)")
    raw = text if text is not None else (file.read() if file is not None else sys.stdin.read())
    when = parse_at(at)
    vault = open_from_cli(ctx, create=True)
    if kind == "message":
        result = vault.ingest_message(athlete, raw, now=when)
    elif kind == "activity":
        result = vault.ingest_activity(athlete, _activity(raw, when))
    else:
        result = vault.ingest_conversation(athlete, _json(raw, "a JSON list of turns"))
    _report(result, as_json)


@main.command()
@click.argument("athlete")
@click.argument("context")
@click.option("--limit", type=click.IntRange(min=1), default=5, show_default=True)
@click.option("--at", "at", metavar="ISO-TIME", help="Score recency as of this time (default: now).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def relevant(ctx: click.Context, athlete: str, context: str, limit: int, at: str | None,
             as_json: bool) -> None:
    """List ATHLETE's memories most relevant to CONTEXT (seed 002 scoring)."""
    items = open_from_cli(ctx).relevant(athlete, context, limit=limit, now=parse_at(at))
    if as_json:
        echo_json(dump(items))
        return
    click.echo(table(["kind", "id", "conf", "text"],
                     [(i.kind.value, i.id, f"{i.confidence:.2f}", i.text) for i in items]))


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
    return {"id": f"note-{moment.strftime('%Y%m%dT%H%M%SZ')}", "started_at": moment,
            "private_note": stripped}


def _report(result: MergeResult, as_json: bool) -> None:
    if as_json:
        echo_json(result.model_dump(mode="json"))
    else:
        echo_merge_result(result)

"""Episodes and knowledge: `vault episode add|import`, `vault recall`, `vault knowledge load`."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import IO, Any

import click

from vault.facade.knowledge import KnowledgeBase
from vault.cli.app import (
    at_option,
    committing,
    db_option,
    echo_json,
    json_option,
    main,
    open_from_cli,
)
from vault.cli.output import counted, progress
from vault.cli.streams import decode, open_binary, read_line, stream_size
from vault.domain.episodes import EpisodeIn
from vault.domain.errors import InvalidInput
from vault.domain.models import validated, validated_athlete

IMPORT_BATCH = 2000


def _meta(pairs: tuple[str, ...]) -> dict[str, Any]:
    meta: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"expected KEY=VALUE, got {pair!r}", param_hint="--meta")
        meta[key.strip()] = value
    return meta


@main.group()
def episode() -> None:
    """Record what happened (episodic memory)."""


@episode.command("add")
@click.argument("owner")
@click.argument("text")
@click.option("--ref", help="The app's own id for the episode (re-adding it rewrites it).")
@click.option("--type", "type_", default="note", show_default=True, help="Episode type.")
@click.option("--outcome", help="How it turned out (e.g. positive, negative, failed).")
@click.option("--meta", multiple=True, metavar="KEY=VALUE", help="Metadata (location, person, item, day...).")
@at_option("When it happened (default: now).")
@json_option("Print the result as JSON.")
@db_option
@click.pass_context
def add(
    ctx: click.Context, owner: str, text: str, ref: str | None, type_: str, outcome: str | None,
    meta: tuple[str, ...], at: datetime | None, as_json: bool,
) -> None:  # fmt: skip
    """Record one episode of OWNER."""
    fields: dict[str, Any] = {"text": text, "type": type_, "ref": ref, "meta": _meta(meta)}
    if outcome is not None:
        fields["outcome"] = outcome
    if at is not None:
        fields["at"] = at
    vault = open_from_cli(ctx, create=True)
    with committing(ctx, "the episode"):
        result = vault.episodes.add(owner, [fields])
    if as_json:
        echo_json(result.model_dump(mode="json"))
    elif result.updated:
        click.echo(f"updated episode {result.updated[0]}")
    else:
        click.echo(f"added episode {result.added[0]}")


def _episode_lines(stream: IO[bytes], path: str, advance: Callable[[int], None]) -> Iterator[EpisodeIn]:
    """The stream's JSON Lines as episodes, read one line at a time (each at most
    MAX_DOCUMENT_BYTES); a line that is not a valid episode is InvalidInput naming it."""
    number = 1
    while line := read_line(stream, path, number):
        advance(len(line))
        if line.strip():
            where = f"{path}:{number}"
            try:
                data = json.loads(decode(line, where))
            except json.JSONDecodeError as error:
                raise InvalidInput(f"{where}: not JSON ({error.msg})") from None
            if not isinstance(data, dict):
                raise InvalidInput(f"{where}: expected a JSON object, got {type(data).__name__}")
            try:
                yield validated(EpisodeIn, data)
            except InvalidInput as error:
                raise InvalidInput(f"{where}: {error}") from None
        number += 1


@episode.command("import")
@click.argument("owner")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, allow_dash=True, path_type=str))
@json_option("Print the counts as JSON.")
@db_option
@click.pass_context
def import_(ctx: click.Context, owner: str, path: str, as_json: bool) -> None:
    """Import OWNER's episodes from a JSON Lines file, `-` for stdin (text, ref, at, type,
    outcome, meta).

    The file is read a line at a time and written in one transaction: a bad line writes
    nothing. A line may hold at most 16 MB.
    """
    validated_athlete(owner)
    with open_binary(path) as stream:
        vault = open_from_cli(ctx, create=True)
        with committing(ctx, "the import"), progress(stream_size(stream), "importing") as advance:
            counts = vault.episodes.import_stream(owner, _episode_lines(stream, path, advance),
                                           batch=IMPORT_BATCH)
    if as_json:
        echo_json({name: counts[name] for name in ("added", "updated", "archived")})
    else:
        click.echo(f"imported {counted(counts['episodes'], 'episode')}: {counts['added']} added, "
                   f"{counts['updated']} updated, {counts['archived']} archived")


@main.command()
@click.argument("owner")
@click.argument("query")
@click.option("--k", "k", type=click.IntRange(1, 100), default=3, show_default=True)
@at_option("Recall as of this time (default: now).")
@json_option("Print the episodes, scores and score parts as JSON.")
@db_option
@click.pass_context
def recall(ctx: click.Context, owner: str, query: str, k: int, at: datetime | None, as_json: bool) -> None:
    """OWNER's K episodes most relevant to QUERY, best first."""
    vault = open_from_cli(ctx, read_only=True)
    found = vault.episodes.recall(owner, query, k=k, now=at)
    if as_json:
        echo_json([e.model_dump(mode="json") for e in found])
        return
    if not found:
        click.echo("(nothing recalled)")
    for item in found:
        day = item.occurred_at.strftime("%Y-%m-%d %H:%M")
        ref = f" [{item.ref}]" if item.ref else ""
        click.echo(f"{item.score:.3f}  {day}  {item.type}{ref}  {item.text}")


@main.group()
def knowledge() -> None:
    """Static reference knowledge about named things (NPCs, courses, shoes...)."""


@knowledge.command("load")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@json_option("Print the counts as JSON.")
@db_option
@click.pass_context
def load(ctx: click.Context, paths: tuple[Path, ...], as_json: bool) -> None:
    """Load knowledge from JSON files (or directories of them); known (kind, name) are replaced."""
    items = KnowledgeBase.read_files(paths)
    vault = open_from_cli(ctx, create=True)
    with committing(ctx, "the knowledge load"):
        added, updated = vault.knowledge.load(items)
    if as_json:
        echo_json({"added": added, "updated": updated})
    else:
        click.echo(f"knowledge: {added} added, {updated} updated")

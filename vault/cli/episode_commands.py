"""Episodes and knowledge: `vault episode add|import`, `vault recall`, `vault knowledge load`."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import click

from vault.cli.app import (
    at_option,
    committing,
    db_option,
    echo_json,
    json_option,
    main,
    open_from_cli,
)
from vault.cli.output import progress
from vault.domain.episodes import EpisodeIn
from vault.domain.errors import InvalidInput
from vault.domain.models import validated, validated_athlete
from vault.domain.times import utc_now
from vault.services import episodes as episode_services

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
    """Record what happened (seed 003's episodic memory)."""


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
        result = vault.add_episodes(owner, [fields])
    if as_json:
        echo_json(result.model_dump(mode="json"))
    elif result.updated:
        click.echo(f"updated episode {result.updated[0]}")
    else:
        click.echo(f"added episode {result.added[0]}")


def _read_lines(path: Path) -> list[EpisodeIn]:
    items: list[EpisodeIn] = []
    try:
        handle = path.open(encoding="utf-8")
    except OSError as error:
        raise InvalidInput(f"cannot read {path}: {error.strerror}") from None
    with handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except json.JSONDecodeError as error:
                raise InvalidInput(f"{path}:{number}: not JSON ({error.msg})") from None
            try:
                items.append(validated(EpisodeIn, data))
            except InvalidInput as error:
                raise InvalidInput(f"{path}:{number}: {error}") from None
    return items


@episode.command("import")
@click.argument("owner")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@json_option("Print the counts as JSON.")
@db_option
@click.pass_context
def import_(ctx: click.Context, owner: str, path: Path, as_json: bool) -> None:
    """Import OWNER's episodes from a JSON Lines file (text, ref, at, type, outcome, meta).

    The whole file is checked first and written in one transaction: a bad line writes nothing.
    """
    athlete = validated_athlete(owner)
    items = _read_lines(path)
    vault = open_from_cli(ctx, create=True)
    added = updated = archived = 0
    now = utc_now()
    with committing(ctx, "the import"), progress(len(items), "episodes") as advance:
        with vault.unit_of_work() as uow:
            for start in range(0, len(items), IMPORT_BATCH):
                batch = items[start : start + IMPORT_BATCH]
                result = episode_services.add_episodes(uow, athlete, batch, now)
                added += len(result.added)
                updated += len(result.updated)
                archived += result.archived
                advance(len(batch))
            uow.commit()
    counts = {"added": added, "updated": updated, "archived": archived}
    if as_json:
        echo_json(counts)
    else:
        click.echo(f"imported {len(items)} episodes: {added} added, {updated} updated, {archived} archived")


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
    found = vault.recall(owner, query, k=k, now=at)
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
    items = episode_services.load_knowledge_files(list(paths))
    vault = open_from_cli(ctx, create=True)
    with committing(ctx, "the knowledge load"):
        added, updated = vault.load_knowledge(items)
    if as_json:
        echo_json({"added": added, "updated": updated})
    else:
        click.echo(f"knowledge: {added} added, {updated} updated")

"""Episodes and knowledge: `vault episode add|import`, `vault recall`, `vault knowledge load`."""

from __future__ import annotations

import importlib
import json
import os
import sys
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import IO, Any

import click

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
from vault.cli.output import counted, progress
from vault.cli.streams import decode, open_binary, read_line, stream_size
from vault.domain.episodes import EpisodeIn
from vault.domain.errors import InvalidInput
from vault.domain.models import validated, validated_athlete
from vault.facade.knowledge import KnowledgeBase

IMPORT_BATCH = 2000
EMBEDDER_HELP = (
    "An app's embedder, MODULE:NAME (a vault.Embedder object, or a class or function that "
    "makes one, importable from the current directory or the environment)."
)


def _load_embedder(spec: str | None) -> Any:
    """The object MODULE:NAME names (called first when it is a class or a factory)."""
    if spec is None:
        return None
    module_name, sep, attribute = spec.partition(":")
    if not sep or not module_name or not attribute:
        raise click.BadParameter(f"expected MODULE:NAME, got {spec!r}", param_hint="--embedder")
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # the app's own module, as `python -m` would find it
    try:
        found = getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError) as error:
        raise click.BadParameter(f"cannot load {spec}: {error}", param_hint="--embedder") from None
    if callable(found) and not hasattr(found, "embed") or isinstance(found, type):
        found = found()
    return found


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


TRUSTED_HELP = (
    "What you vouch for: skip the privacy gate (contact data, card numbers, "
    "credentials, ...) that every other write passes."
)


@episode.command("add")
@click.argument("owner")
@click.argument("text")
@click.option("--ref", help="The app's own id for the episode (re-adding it rewrites it).")
@click.option("--type", "type_", default="note", show_default=True, help="Episode type.")
@click.option("--outcome", help="How it turned out (e.g. positive, negative, failed).")
@click.option(
    "--meta", multiple=True, metavar="KEY=VALUE", help="Metadata (location, person, item, day...)."
)
@click.option("--trusted", is_flag=True, help=TRUSTED_HELP)
@at_option("When it happened (default: now).")
@json_option("Print the result as JSON.")
@db_option
@click.pass_context
def add(
    ctx: click.Context,
    owner: str,
    text: str,
    ref: str | None,
    type_: str,
    outcome: str | None,
    meta: tuple[str, ...],
    trusted: bool,
    at: datetime | None,
    as_json: bool,
) -> None:
    """Record one episode of OWNER."""
    fields: dict[str, Any] = {"text": text, "type": type_, "ref": ref, "meta": _meta(meta)}
    if outcome is not None:
        fields["outcome"] = outcome
    if at is not None:
        fields["at"] = at
    vault = open_from_cli(ctx, create=True)
    with committing(ctx, "the episode"):
        result = vault.episodes.add(owner, [fields], trusted=trusted)
    if as_json:
        echo_json(result.model_dump(mode="json"))
    elif result.updated:
        click.echo(f"updated episode {result.updated[0]}")
    else:
        click.echo(f"added episode {result.added[0]}")


class _Lines:
    """The stream's JSON Lines as episodes, read one line at a time (each at most
    MAX_DOCUMENT_BYTES). A line that is not a valid episode is InvalidInput naming it when
    `strict`, else skipped and reported (`bad` counts them); `numbers` holds the line of each
    episode yielded, so a refusal reported by position names its line."""

    def __init__(self, path: str, strict: bool) -> None:
        self.path, self.strict = path, strict
        self.numbers: list[int] = []
        self.bad = 0

    def read(self, stream: IO[bytes], advance: Callable[[int], None]) -> Iterator[EpisodeIn]:
        number = 1
        while line := read_line(stream, self.path, number):
            advance(len(line))
            if line.strip():
                try:
                    episode = self._episode(line, f"{self.path}:{number}")
                except InvalidInput as error:
                    if self.strict:
                        raise
                    self.bad += 1
                    click.echo(f"skipped {error}", err=True)
                else:
                    self.numbers.append(number)
                    yield episode
            number += 1

    def refused(self, position: int, reason: str) -> None:
        click.echo(f"skipped {self.path}:{self.numbers[position - 1]}: {reason}", err=True)

    @staticmethod
    def _episode(line: bytes, where: str) -> EpisodeIn:
        try:
            data = json.loads(decode(line, where))
        except json.JSONDecodeError as error:
            raise InvalidInput(f"{where}: not JSON ({error.msg})") from None
        if not isinstance(data, dict):
            raise InvalidInput(f"{where}: expected a JSON object, got {type(data).__name__}")
        try:
            return validated(EpisodeIn, data)
        except InvalidInput as error:
            raise InvalidInput(f"{where}: {error}") from None


@episode.command("import")
@click.argument("owner")
@click.argument(
    "path", type=click.Path(exists=True, dir_okay=False, allow_dash=True, path_type=str)
)
@click.option("--trusted", is_flag=True, help=TRUSTED_HELP)
@click.option(
    "--strict",
    is_flag=True,
    help="All or nothing: a line that is not a valid episode, or one the privacy gate "
    "refuses, writes nothing and exits 1 (default: it is skipped and reported).",
)
@json_option("Print the counts as JSON.")
@db_option
@click.pass_context
@click.option("--embedder", "embedder_spec", metavar="MODULE:NAME", help=EMBEDDER_HELP)
def import_(
    ctx: click.Context,
    owner: str,
    path: str,
    trusted: bool,
    strict: bool,
    as_json: bool,
    embedder_spec: str | None,
) -> None:
    """Import OWNER's episodes from a JSON Lines file, `-` for stdin (text, ref, at, type,
    outcome, meta).

    The file is read a line at a time and written in one transaction. Personal data in an
    episode is redacted in place ([phone], [email], ...); a line that is not a valid episode or
    that the privacy gate refuses (an e-mail or card number in its ref) is skipped and reported
    on stderr with its line number, the rest is written, and the summary says how many were
    written, redacted and refused (exit 0). With --strict such a line writes nothing (exit 1).
    A line may hold at most 16 MB. With --embedder each episode's vector is stored too.
    """
    validated_athlete(owner)
    embedder = _load_embedder(embedder_spec)
    lines = _Lines(path, strict)
    with open_binary(path) as stream:
        vault = open_from_cli(ctx, create=True)
        with committing(ctx, "the import"), progress(stream_size(stream), "importing") as advance:
            counts = vault.episodes.import_stream(
                owner,
                lines.read(stream, advance),
                batch=IMPORT_BATCH,
                embedder=embedder,
                trusted=trusted,
                strict=strict,
                on_refused=lines.refused,
            )
    refused = counts["refused"] + lines.bad
    written = counts["added"] + counts["updated"]
    if as_json:
        echo_json(
            {name: counts[name] for name in ("added", "updated", "archived", "redacted")}
            | {"written": written, "refused": refused}
        )
    else:
        click.echo(
            f"imported {counted(written, 'episode')}: {counts['added']} added, "
            f"{counts['updated']} updated, {counts['archived']} archived; "
            f"{counts['redacted']} redacted, {refused} refused"
        )


@episode.command("reembed")
@click.argument("owner", required=False)
@click.option(
    "--embedder", "embedder_spec", metavar="MODULE:NAME", required=True, help=EMBEDDER_HELP
)
@json_option("Print the counts as JSON.")
@db_option
@click.pass_context
def reembed(ctx: click.Context, owner: str | None, embedder_spec: str, as_json: bool) -> None:
    """Rewrite the vector of every episode (of OWNER, or of everyone) with an embedder.

    One transaction; vectors of another model or dimension are replaced, so recall never
    compares vectors of two models.
    """
    embedder = _load_embedder(embedder_spec)
    vault = open_from_cli(ctx)
    with committing(ctx, "the re-embedding"):
        done = vault.episodes.reembed(embedder, owner)
    if as_json:
        echo_json({"episodes": done, "model": embedder.model, "dim": embedder.dim})
    else:
        click.echo(f"embedded {done} episodes with {embedder.model} ({embedder.dim} dimensions)")


@main.command()
@click.argument("owner")
@click.argument("query")
@click.option("--k", "k", type=click.IntRange(1, 100), default=3, show_default=True)
@at_option("Recall as of this time (default: now).")
@click.option("--explain", is_flag=True, help="Show why each episode ranked: its score parts.")
@click.option("--embedder", "embedder_spec", metavar="MODULE:NAME", help=EMBEDDER_HELP)
@json_option("Print the episodes, scores and score parts as JSON.")
@db_option
@click.pass_context
def recall(
    ctx: click.Context,
    owner: str,
    query: str,
    k: int,
    at: datetime | None,
    explain: bool,
    embedder_spec: str | None,
    as_json: bool,
) -> None:
    """OWNER's K episodes most relevant to QUERY, best first."""
    embedder = _load_embedder(embedder_spec)
    vault = open_from_cli(ctx, read_only=True)
    if vault.summary(owner) is None:  # as `vault facts`: an unknown athlete is an error (1)
        raise CliError(f"no memory stored for athlete {owner!r}")
    found = vault.episodes.recall(owner, query, k=k, now=at, embedder=embedder)
    if as_json:
        echo_json([e.model_dump(mode="json") for e in found])
        return
    if not found:
        click.echo("(nothing recalled)")
    for item in found:
        day = item.occurred_at.strftime("%Y-%m-%d %H:%M")
        ref = f" [{item.ref}]" if item.ref else ""
        click.echo(f"{item.score:.3f}  {day}  {item.type}{ref}  {item.text}")
        if explain:
            click.echo(f"       {explain_parts(item.parts.model_dump())}")
    if explain:
        touched = vault.episodes.topics(owner, limit=5, about=query)
        if touched:  # the question's topics across the owner's history (spread over days)
            click.echo(
                "topics: "
                + "; ".join(
                    f"{t.topic} ({t.mention_count}x, {t.first_mentioned:%Y-%m-%d}"
                    f" .. {t.last_mentioned:%Y-%m-%d})"
                    for t in touched
                )
            )


def explain_parts(parts: dict[str, float]) -> str:
    """`words 0.82 (x1.00) + time 1.00 (x0.60) ...`: each non-zero part and its weight."""
    shown = []
    for name, label in EXPLAINED:
        value = parts.get(name, 0.0)
        if value:
            shown.append(f"{label} {value:.2f}")
    return "why: " + (", ".join(shown) if shown else "recency only")


EXPLAINED = (
    ("text", "words"),
    ("entity", "names"),
    ("time", "in the time asked about"),
    ("neighbour", "session neighbour (or question replied to) matched"),
    ("session", "its session says the other words"),
    ("speaker", "said by the person asked about"),
    ("answer", "says the kind of answer asked for"),
    ("vector", "vector"),
    ("type", "type"),
    ("recency", "recency"),
)


@main.group()
def knowledge() -> None:
    """Static reference knowledge about named things (routes, courses, shoes...)."""


@knowledge.command("load")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--trusted", is_flag=True, help=TRUSTED_HELP)
@json_option("Print the counts as JSON.")
@db_option
@click.pass_context
def load(ctx: click.Context, paths: tuple[Path, ...], trusted: bool, as_json: bool) -> None:
    """Load knowledge from JSON files (or directories of them); known (kind, name) are replaced."""
    items = KnowledgeBase.read_files(paths)
    vault = open_from_cli(ctx, create=True)
    with committing(ctx, "the knowledge load"):
        added, updated = vault.knowledge.load(items, trusted=trusted)
    if as_json:
        echo_json({"added": added, "updated": updated})
    else:
        click.echo(f"knowledge: {added} added, {updated} updated")

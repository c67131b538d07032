"""Everyday commands: remember, facts, forget, decay, delete, history, cleanup."""

from __future__ import annotations

from typing import cast

import click
from pydantic import BaseModel

from vault.cli.app import echo_json, main, open_from_cli, parse_at
from vault.cli.output import dump, echo_merge_result, section, table
from vault.domain.models import Candidate, FactIn, NoteIn, PatternIn, validated
from vault.domain.vocabulary import Source

KINDS: dict[str, type[BaseModel]] = {"fact": FactIn, "pattern": PatternIn, "note": NoteIn}


@main.command()
@click.argument("athlete")
@click.argument("text")
@click.option("--kind", type=click.Choice(list(KINDS)), default="fact", show_default=True)
@click.option("--category", help="Fact category (derived from the text when omitted).")
@click.option("--source", type=click.Choice([s.value for s in Source]), help="Where it came from.")
@click.option("--confidence", type=float, help="0..1 (default 0.8 for facts, 0.7 otherwise).")
@click.option("--at", "at", metavar="ISO-TIME", help="When it was observed (default: now).")
@click.option("--json", "as_json", is_flag=True, help="Print the merge result as JSON.")
@click.pass_context
def remember(
    ctx: click.Context,
    athlete: str,
    text: str,
    kind: str,
    category: str | None,
    source: str | None,
    confidence: float | None,
    at: str | None,
    as_json: bool,
) -> None:
    """Merge one fact, pattern or note into ATHLETE's memory."""
    when = parse_at(at)
    fields: dict[str, object] = {"text": text, "observed_at": when}
    if category is not None:
        if kind != "fact":
            raise click.UsageError("--category applies to facts only")
        fields["category"] = category
    if source is not None:
        fields["source"] = source
    if confidence is not None:
        fields["confidence"] = confidence
    candidate = cast(Candidate, validated(KINDS[kind], fields))
    result = open_from_cli(ctx, create=True).merge(athlete, [candidate], now=when)
    if as_json:
        echo_json(result.model_dump(mode="json"))
        return
    echo_merge_result(result)


@main.command()
@click.argument("athlete")
@click.option("--all", "show_all", is_flag=True, help="Also list the archive.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of tables.")
@click.pass_context
def facts(ctx: click.Context, athlete: str, show_all: bool, as_json: bool) -> None:
    """List ATHLETE's active facts, patterns and notes."""
    vault = open_from_cli(ctx)
    memory = vault.memory(athlete)
    archive = vault.archive(athlete) if show_all else []
    if vault.summary(athlete) is None:
        raise click.ClickException(f"no memory stored for athlete {athlete!r}")
    if as_json:
        data = memory.model_dump(mode="json")
        if show_all:
            data["archive"] = dump(archive)
        echo_json(data)
        return
    section(
        "FACTS",
        table(
            ["id", "conf", "level", "category", "seen", "text"],
            [
                (f.id, f"{f.confidence:.2f}", f.level.value, f.category.value, f.occurrences, f.text)
                for f in memory.facts
            ],
        ),
    )
    for title, items in (("PATTERNS", memory.patterns), ("NOTES", memory.notes)):
        section(
            title,
            table(
                ["id", "conf", "seen", "text"],
                [(i.id, f"{i.confidence:.2f}", i.occurrences, i.text) for i in items],
            ),
        )
    if show_all:
        section(
            "ARCHIVE",
            table(
                ["id", "kind", "reason", "by", "archived", "text"],
                [
                    (a.id, a.kind.value, a.reason.value, a.superseded_by,
                     a.archived_at.isoformat(timespec="seconds"), a.original_text)
                    for a in archive
                ],
            ),
        )


@main.command()
@click.argument("athlete")
@click.argument("query")
@click.option("--json", "as_json", is_flag=True, help="Print the counts as JSON.")
@click.pass_context
def forget(ctx: click.Context, athlete: str, query: str, as_json: bool) -> None:
    """Erase everything about ATHLETE that matches QUERY (archive included, no copy kept)."""
    result = open_from_cli(ctx).forget(athlete, query)
    if as_json:
        echo_json(result.model_dump(mode="json"))
        return
    click.echo(
        f"forgot {result.facts} facts, {result.patterns} patterns, {result.notes} notes "
        f"and {result.archived} archived items"
    )


@main.command()
@click.option("--at", "at", metavar="ISO-TIME", help="Decay as of this time (default: now).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def decay(ctx: click.Context, at: str | None, as_json: bool) -> None:
    """Lower facts unreinforced for 7+ days (x0.95 per week); archive those below 0.3."""
    result = open_from_cli(ctx).decay(now=parse_at(at))
    if as_json:
        echo_json(result.model_dump(mode="json"))
        return
    click.echo(f"lowered {result.lowered} facts, archived {result.archived} below 0.3")


@main.command()
@click.argument("athlete")
@click.option("--json", "as_json", is_flag=True, help="Print the counts as JSON.")
@click.pass_context
def delete(ctx: click.Context, athlete: str, as_json: bool) -> None:
    """Erase ATHLETE from every table, archive included."""
    counts = open_from_cli(ctx).delete_athlete(athlete)
    if as_json:
        echo_json(counts)
        return
    click.echo(", ".join(f"{table}: {count}" for table, count in counts.items()))


@main.command()
@click.argument("fact_id", type=int)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def history(ctx: click.Context, fact_id: int, as_json: bool) -> None:
    """Show what FACT_ID replaced, and which fact holds its place today."""
    chain, current = open_from_cli(ctx).history(fact_id)
    if as_json:
        echo_json({"history": dump(chain), "current": current})
        return
    for item in chain:
        by = f" -> {item.superseded_by}" if item.superseded_by else ""
        click.echo(
            f"{item.archived_at.isoformat(timespec='seconds')}  {item.original_id}{by}  "
            f"{item.reason.value}: {item.original_text}"
        )
    click.echo(f"active now: {current if current is not None else 'none'}")


@main.command()
@click.option("--days", default=90, show_default=True, type=click.IntRange(min=0), help="Retention.")
@click.option("--at", "at", metavar="ISO-TIME", help="As of this time (default: now).")
@click.option("--json", "as_json", is_flag=True, help="Print the count as JSON.")
@click.pass_context
def cleanup(ctx: click.Context, days: int, at: str | None, as_json: bool) -> None:
    """Delete archive rows older than the retention period."""
    removed = open_from_cli(ctx).cleanup_archive(now=parse_at(at), retention_days=days)
    if as_json:
        echo_json({"deleted": removed, "retention_days": days})
        return
    click.echo(f"deleted {removed} archived items older than {days} days")


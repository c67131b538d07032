"""Everyday commands: remember, facts, forget, decay, delete, history, cleanup."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import cast

import click
from pydantic import BaseModel

from vault.cli.app import (
    CliError,
    FloatRange,
    at_option,
    committing,
    db_option,
    echo_json,
    json_option,
    main,
    open_from_cli,
)
from vault.cli.output import counted, dump, echo_merge_result, progress, section, table
from vault.domain.limits import ARCHIVE_RETENTION_DAYS
from vault.domain.models import Candidate, Evidence, Fact, FactIn, NoteIn, PatternIn, validated
from vault.domain.vocabulary import Category, Source, parse_category

MAX_ID = 2**63 - 1  # the largest id SQLite and PostgreSQL can hold
MAX_DAYS = 36_500  # a retention of a hundred years keeps everything
KINDS: dict[str, type[BaseModel]] = {"fact": FactIn, "pattern": PatternIn, "note": NoteIn}


def _category(_ctx: click.Context, param: click.Parameter, value: str | None) -> Category | None:
    """`--category`: a category's name or one of its aliases; anything else is a usage mistake
    (exit 2), like a value outside any other option's choices."""
    if value is None:
        return None
    try:
        return parse_category(value)
    except ValueError as error:
        raise click.BadParameter(str(error), param=param) from None


@main.command()
@click.argument("athlete")
@click.argument("text")
@click.option("--kind", type=click.Choice(list(KINDS)), default="fact", show_default=True)
@click.option(
    "--category",
    callback=_category,
    metavar="CATEGORY",
    help="Fact category: " + ", ".join(c.value for c in Category) + " (derived from the text "
    "when omitted).",
)
@click.option("--source", type=click.Choice([s.value for s in Source]), help="Where it came from.")
@click.option(
    "--confidence",
    type=FloatRange(0, 1),
    help="0..1 (default 0.8 for facts, 0.7 otherwise).",
)
@click.option(
    "--trusted",
    is_flag=True,
    help="A manual entry you vouch for: skip the privacy filter (contact data, card "
    "numbers, ...) that every other write passes.",
)
@at_option("When it was observed (default: now).")
@json_option("Print the merge result as JSON.")
@db_option
@click.pass_context
def remember(
    ctx: click.Context,
    athlete: str,
    text: str,
    kind: str,
    category: Category | None,
    source: str | None,
    confidence: float | None,
    trusted: bool,
    at: datetime | None,
    as_json: bool,
) -> None:
    """Merge one fact, pattern or note into ATHLETE's memory."""
    when = at
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
    vault = open_from_cli(ctx, create=True)
    with committing(ctx, "the merge"):
        result = vault.merge(athlete, [candidate], now=when, trusted=trusted)
    if as_json:
        echo_json(result.model_dump(mode="json"))
        return
    echo_merge_result(result)


@main.command()
@click.argument("athlete")
@click.option("--all", "show_all", is_flag=True, help="Also list the archive.")
@click.option("--why", is_flag=True, help="Show the evidence each fact rests on.")
@at_option("As of this time: confidences decay with time (default: now).")
@json_option("Print JSON instead of tables.")
@db_option
@click.pass_context
def facts(
    ctx: click.Context, athlete: str, show_all: bool, why: bool, at: datetime | None, as_json: bool
) -> None:
    """List ATHLETE's active facts, patterns and notes (confidence as of --at)."""
    vault = open_from_cli(ctx, read_only=True)
    memory = vault.memory(athlete, at)
    archive = vault.archive(athlete) if show_all else []
    if vault.summary(athlete) is None:
        raise click.ClickException(f"no memory stored for athlete {athlete!r}")
    evidence = vault.why([f.id for f in memory.facts]) if why else {}
    if as_json:
        data = memory.model_dump(mode="json")
        if why:
            for fact in data["facts"]:
                fact["evidence"] = dump(evidence[fact["id"]])
        if show_all:
            data["archive"] = dump(archive)
        echo_json(data)
        return
    if why:
        _echo_why(memory.facts, evidence)
        return
    section(
        "FACTS",
        table(
            ["id", "conf", "level", "category", "seen", "text"],
            [
                (
                    f.id,
                    f"{f.confidence:.2f}",
                    f.level.value,
                    f.category.value,
                    f.occurrences,
                    f.text,
                )
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
                    (
                        a.id,
                        a.kind.value,
                        a.reason.value,
                        a.superseded_by,
                        a.archived_at.isoformat(timespec="seconds"),
                        a.original_text,
                    )
                    for a in archive
                ],
            ),
        )


def _echo_why(facts: Sequence[Fact], evidence: dict[int, list[Evidence]]) -> None:
    """Each fact, then one line per observation: when, source and reference, the words."""
    for fact in facts:
        click.echo(f"{fact.id}  {fact.confidence:.2f}  {fact.text}  (seen {fact.occurrences}x)")
        rows = evidence.get(fact.id, [])
        if not rows:
            click.echo("    (no evidence recorded: learned before evidence was kept)")
        for row in rows:
            ref = f" {row.source_ref}" if row.source_ref else ""
            words = f'  "{row.words}"' if row.words else ""
            click.echo(
                f"    {row.observed_at.isoformat(timespec='seconds')}  "
                f"{row.source.value}{ref}{words}"
            )


@main.command()
@click.argument("athlete")
@click.argument("query")
@json_option("Print the counts as JSON.")
@db_option
@click.pass_context
def forget(ctx: click.Context, athlete: str, query: str, as_json: bool) -> None:
    """Erase everything about ATHLETE that matches QUERY (archive included, no copy kept)."""
    vault = open_from_cli(ctx)
    with committing(ctx, "the erasure"):
        result = vault.forget(athlete, query)
    if as_json:
        echo_json(result.model_dump(mode="json"))
    else:
        click.echo(
            f"forgot {counted(result.facts, 'fact')}, {counted(result.patterns, 'pattern')}, "
            f"{counted(result.notes, 'note')}, {counted(result.archived, 'archived item')} and "
            f"{counted(result.episodes, 'episode')}"
        )
    _require_erased(result.erased_from_disk)


@main.command()
@at_option("Decay as of this time (default: now).")
@json_option("Print the counts as JSON.")
@db_option
@click.pass_context
def decay(ctx: click.Context, at: datetime | None, as_json: bool) -> None:
    """Lower facts unreinforced for 7+ days by their category's weekly factor; archive those
    below 0.3.

    One transaction for the whole vault; a progress bar on a terminal, then one line of counts.
    """
    vault = open_from_cli(ctx)
    with progress(vault.admin.facts_due_count(now=at), "decaying") as advance:
        with committing(ctx, "the decay (one transaction)"):
            result = vault.decay(now=at, progress=advance)
    if as_json:
        echo_json(result.model_dump(mode="json"))
        return
    click.echo(f"lowered {counted(result.lowered, 'fact')}, archived {result.archived} below 0.3")


@main.command()
@click.argument("athlete")
@json_option("Print the counts as JSON.")
@db_option
@click.pass_context
def delete(ctx: click.Context, athlete: str, as_json: bool) -> None:
    """Erase ATHLETE from every table, archive included."""
    vault = open_from_cli(ctx)
    with committing(ctx, "the deletion"):
        counts = vault.delete_athlete(athlete)
    if as_json:
        echo_json(counts)
    else:
        click.echo(", ".join(f"{table}: {count}" for table, count in counts.items()))
    _require_erased(not vault.admin.erasure_pending())


@main.command()
@click.argument("fact_id", type=click.IntRange(min=1, max=MAX_ID))
@json_option()
@db_option
@click.pass_context
def history(ctx: click.Context, fact_id: int, as_json: bool) -> None:
    """Show what FACT_ID replaced, and which fact holds its place today."""
    chain, current = open_from_cli(ctx, read_only=True).history(fact_id)
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
@click.option(
    "--days",
    default=ARCHIVE_RETENTION_DAYS,
    show_default=True,
    type=click.IntRange(min=0, max=MAX_DAYS),
    help="Retention in days.",
)
@at_option()
@json_option("Print the count as JSON.")
@db_option
@click.pass_context
def cleanup(ctx: click.Context, days: int, at: datetime | None, as_json: bool) -> None:
    """Delete archive rows older than the retention period."""
    vault = open_from_cli(ctx)
    with committing(ctx, "the cleanup"):
        removed = vault.cleanup_archive(now=at, retention_days=days)
    if as_json:
        echo_json({"deleted": removed, "retention_days": days})
        return
    click.echo(f"deleted {counted(removed, 'archived item')} older than {counted(days, 'day')}")


def _require_erased(erased: bool) -> None:
    """Exit 1, truthfully, when the rows are gone but old copies may remain in the WAL."""
    if not erased:
        raise CliError(
            "the rows are deleted, but a reader still holds an old snapshot, so copies may "
            "remain in the write-ahead log; run `vault erase --wait` to finish the erasure"
        )

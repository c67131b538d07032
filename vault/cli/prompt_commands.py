"""`vault prompt` (what the model would receive) and `vault bootstrap` (day-one facts)."""

from __future__ import annotations

from datetime import datetime

import click

from vault.cli.app import (
    FloatRange,
    at_option,
    committing,
    db_option,
    echo_json,
    json_option,
    main,
    open_from_cli,
    warn,
)
from vault.prompt import DEFAULT_BUDGET, render_markdown

FORMATS = ("memory", "markdown")


@main.command()
@click.argument("athlete")
@click.option(
    "--budget",
    type=click.IntRange(min=1),
    default=DEFAULT_BUDGET,
    show_default=True,
    help="Token budget of the MEMORY block, header included.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="memory",
    show_default=True,
    help="memory: the MEMORY block; markdown: the 'What you know about the user' section "
    "(the engine's athlete_memory JSON object is `vault export ATHLETE --contract`).",
)
@click.option(
    "--context",
    "context",
    metavar="TEXT",
    help="Print the KNOWLEDGE (reference knowledge named in TEXT) and PAST "
    "EXPERIENCE (the episodes recalled for TEXT) sections instead.",
)
@at_option("As of this time: confidences decay with time (default: now).")
@json_option("Print the MEMORY block as JSON: its text, its tokens and what was dropped and why.")
@db_option
@click.pass_context
def prompt(
    ctx: click.Context,
    athlete: str,
    budget: int,
    fmt: str,
    context: str | None,
    at: datetime | None,
    as_json: bool,
) -> None:
    """Print exactly what the coach model would receive about ATHLETE.

    An athlete the vault knows nothing about gets what the library gives: an empty MEMORY block
    (exit 0, with a warning on stderr). The engine's athlete_memory JSON object is
    `vault export ATHLETE --contract`.
    """
    if as_json and (fmt != "memory" or context is not None):
        raise click.UsageError("--json prints the MEMORY block; drop --format / --context")
    vault = open_from_cli(ctx, read_only=True)
    if context is not None or fmt == "markdown":
        _warn_when_unknown(vault.summary(athlete) is None, athlete)
    if context is not None:
        click.echo(vault.episodes.sections(athlete, context, now=at).text, nl=False)
    elif fmt == "markdown":
        click.echo(render_markdown(vault.memory(athlete, at)), nl=False)
    else:
        block = vault.memory_block(athlete, budget=budget, now=at)
        # the block accounts for every stored item, shown or dropped: a second read only when
        # it holds none (an athlete with episodes alone is known)
        shown = block.included.facts + block.included.patterns + block.included.notes
        if not shown and not block.dropped:
            _warn_when_unknown(vault.summary(athlete) is None, athlete)
        if as_json:
            click.echo(block.model_dump_json(indent=2))
        else:
            click.echo(block.text, nl=False)


def _warn_when_unknown(unknown: bool, athlete: str) -> None:
    if unknown:
        warn(f"no memory stored for athlete {athlete!r}; the block is empty")


@main.command()
@click.argument("athlete")
@click.option("--sport", help="e.g. running, cycling, swimming, triathlon")
@click.option("--level", help="e.g. beginner, intermediate, advanced")
@click.option("--goal", help="e.g. half marathon")
@click.option(
    "--weekly-hours", type=FloatRange(0, 168, min_open=True), help="Training hours per week."
)
@click.option("--preferred-time", help="e.g. morning, evening")
@at_option("When the profile was set (default: now).")
@json_option("Print the merge result as JSON.")
@db_option
@click.pass_context
def bootstrap(
    ctx: click.Context,
    athlete: str,
    sport: str | None,
    level: str | None,
    goal: str | None,
    weekly_hours: float | None,
    preferred_time: str | None,
    at: datetime | None,
    as_json: bool,
) -> None:
    """Seed ATHLETE's memory from their profile (source profile_change)."""
    profile = {
        k: v
        for k, v in {
            "sport": sport,
            "level": level,
            "goal": goal,
            "weekly_hours": weekly_hours,
            "preferred_time": preferred_time,
        }.items()
        if v is not None
    }
    if not profile:
        raise click.UsageError(
            "give at least one of --sport, --level, --goal, --weekly-hours, --preferred-time"
        )
    vault = open_from_cli(ctx, create=True)
    with committing(ctx, "the bootstrap"):
        result = vault.bootstrap(athlete, profile, now=at)
    if as_json:
        echo_json(result.model_dump(mode="json"))
        return
    for item in result.added + result.updated:
        click.echo(f"{item.text} ({item.confidence:.2f})")

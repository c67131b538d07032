"""`vault demo`: a few simulated weeks of one athlete, merged, decayed and listed."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import click

from vault.api import Vault
from vault.cli.app import main, open_from_cli
from vault.errors import AthleteNotFound
from vault.schemas import Candidate, FactIn, NoteIn, PatternIn, Retraction

ATHLETE = "demo-athlete"
START = datetime(2026, 3, 2, 7, 30, tzinfo=timezone.utc)

# (day offset, what the coach learned that day)
STORY: list[tuple[int, str, list[Candidate]]] = [
    (0, "first chat", [
        FactIn(text="primary sport: running", confidence=0.8, source="conversation"),
        FactIn(text="prefers morning sessions", confidence=0.7, source="conversation"),
        FactIn(text="typical duration: 45 min", confidence=0.6, source="conversation"),
        FactIn(text="has recurring knee issue", category="injury", confidence=0.9,
               source="conversation"),
        FactIn(text="goal: half marathon", confidence=0.8, source="conversation"),
    ]),
    (3, "after a long run", [
        FactIn(text="primary sport: running", confidence=0.8, source="activity_note"),
        FactIn(text="works night shifts", category="context", confidence=0.7,
               source="conversation"),
        NoteIn(text="responds well to encouragement after hard sessions"),
    ]),
    (10, "week two", [
        FactIn(text="typical duration: 60 min", confidence=0.6, source="conversation"),
        PatternIn(text="tends to skip after rest days"),
        PatternIn(text="ramps intensity too fast in week 2"),
    ]),
    (24, "a new goal", [
        FactIn(text="goal: marathon", confidence=0.8, source="conversation"),
        FactIn(text="has recurring knee issue", category="injury", confidence=0.9,
               source="activity_note"),
    ]),
    (38, "knee feels fine", [
        Retraction(category="injury", tags={"body:knee"}),
        FactIn(text="primary sport: running", confidence=0.8, source="conversation"),
    ]),
]


@main.command()
@click.pass_context
def demo(ctx: click.Context) -> None:
    """Replay a few weeks of one athlete's coaching chats into the vault and show the memory."""
    vault = open_from_cli(ctx, create=True)
    _reset(vault)
    click.echo("before: no memory, so the coach would have to ask what sport you do.\n")
    for day, title, candidates in STORY:
        now = START + timedelta(days=day)
        decayed = vault.decay(now=now)
        result = vault.merge(ATHLETE, [_at(c, now) for c in candidates], now=now)
        click.echo(f"== day {day}: {title} ({now:%Y-%m-%d}) ==")
        if decayed.lowered or decayed.archived:
            click.echo(f"decay: lowered {decayed.lowered}, archived {len(decayed.archived)}")
        click.echo(
            f"merge: {len(result.added)} added, {len(result.updated)} updated, "
            f"{len(result.archived)} archived"
            + "".join(f"\n  archived {a.original_text!r} ({a.reason.value})" for a in result.archived)
        )
        block = vault.memory_block(ATHLETE)
        click.echo(f"what the coach model now sees ({block.tokens} of {block.budget} tokens):")
        click.echo(block.text or "(nothing yet)\n")
    click.echo(f"vault file: {ctx.find_root().obj['url']}  (try: vault facts {ATHLETE} --all)")


def _reset(vault: Vault) -> None:
    try:
        vault.delete_athlete(ATHLETE)
    except AthleteNotFound:
        pass


def _at(candidate: Candidate, now: datetime) -> Candidate:
    return candidate.model_copy(update={"observed_at": now})

"""`vault demo`: the design documents' story. An athlete talks to the coach over simulated weeks; the
vault learns, replaces, decays and caps, and each session prints the MEMORY block the model
would now receive (the "before / after memory" of the athlete-memory plan §3a)."""

from __future__ import annotations

import click

from vault.api import Vault
from vault.cli.app import database_url, db_option, main, open_from_cli
from vault.cli.demo_story import ACTIVITY_LOG, ATHLETE, QUESTION, STORY, Session
from vault.domain.errors import AthleteNotFound
from vault.domain.limits import PROMPT_FLOOR
from vault.domain.models import MergeResult, NoteIn
from vault.storage.engine import display_url


@main.command()
@db_option
@click.pass_context
def demo(ctx: click.Context) -> None:
    """Replay a few weeks of one athlete's chats and activities into the vault (a local file)."""
    vault = open_from_cli(ctx, create=True)
    _reset(vault)
    click.echo(f'athlete: "{QUESTION}"')
    click.echo("before: no MEMORY block, so the coach has to ask which sport you do.\n")
    for session in STORY:
        _replay(vault, session)
    last = STORY[-1].at
    facts = {
        f.conflict_key: f.text
        for f in vault.facts(ATHLETE, last, min_confidence=PROMPT_FLOOR)
        if f.conflict_key
    }
    click.echo(f'athlete: "{QUESTION}"')
    click.echo(
        f"after: MEMORY says {facts.get('primary sport', 'nothing about sport')!r}, "
        "so the coach plans it without asking."
    )
    at = last.isoformat()  # the story's last day: today, decay would show a different block
    click.echo(
        f"\nvault file: {display_url(database_url(ctx))}  "
        f"(try: vault prompt {ATHLETE} --at {at} for the block above, "
        f"vault facts {ATHLETE} --all --at {at})"
    )


def _replay(vault: Vault, session: Session) -> None:
    now = session.at
    click.echo(f"== day {session.day} ({now:%a %Y-%m-%d}): {session.title} ==")
    before = {a.id for a in vault.archive(ATHLETE)}
    vault.decay(now=now)
    for archived in vault.archive(ATHLETE):
        if archived.id not in before:
            click.echo(f"  decayed below 0.3: {archived.original_text}")
    results: list[MergeResult] = []
    for message in session.messages:
        click.echo(f'  athlete: "{message}"')
        results.append(vault.ingest_message(ATHLETE, message, now=now))
    for activity in session.activities:
        click.echo(f'  activity note: "{activity["private_note"]}"')
        results.append(vault.ingest_activity(ATHLETE, activity))
    if session.coach_notes:
        notes = [NoteIn(text=t, confidence=c, observed_at=now) for t, c in session.coach_notes]
        results.append(vault.merge(ATHLETE, notes, now=now))
    if session.analyse_patterns:
        history = [a for a in ACTIVITY_LOG if a["started_at"] <= now.isoformat()]
        click.echo(f"  pattern analysis over {len(history)} planned sessions")
        results.append(vault.learn_patterns(ATHLETE, history, now=now))
    for result in results:
        _describe(result)
    if session.recall:
        sections = vault.episodes.sections(ATHLETE, session.recall, now=now)
        click.echo(f'  coach, before planning "{session.recall}":')
        click.echo("".join(f"    {line}\n" for line in sections.text.splitlines()))
    block = vault.memory_block(ATHLETE, now=now)
    click.echo(f"  what the coach model now sees ({block.tokens} of {block.budget} tokens):")
    click.echo("".join(f"    {line}\n" for line in block.text.splitlines()) or "    (nothing)\n")


def _describe(result: MergeResult) -> None:
    for item in result.added:
        click.echo(f"  + learned {item.kind.value}: {item.text}")
    for item in result.updated:
        click.echo(f"  ^ reinforced: {item.text} (seen {item.occurrences}x)")
    for archived in result.archived:
        click.echo(f"  - {archived.reason.value}: {archived.original_text}")


def _reset(vault: Vault) -> None:
    try:
        vault.delete_athlete(ATHLETE)
    except AthleteNotFound:
        pass

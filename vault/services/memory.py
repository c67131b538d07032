"""Operations, each run inside one unit of work by the caller (see vault.api.Vault)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

from vault.domain.erasure import ErasureReason
from vault.domain.errors import AthleteNotFound, FactNotFound, InvalidInput
from vault.domain.limits import ACTIVE_FLOOR, ARCHIVE_RETENTION_DAYS
from vault.domain.models import (
    Archived,
    Candidate,
    DecayResult,
    ForgetResult,
    Ignored,
    MergeResult,
    NoteIn,
    PatternIn,
    Retraction,
)
from vault.domain.rules import (
    DEFAULT_DECAY_POLICY,
    DecayPolicy,
    FactState,
    decay_due,
    decayed,
    plan_merge,
)
from vault.domain.text import matches_query, query_terms
from vault.domain.times import utc_now
from vault.domain.vocabulary import ArchiveReason, Kind
from vault.services import evidence, privacy_gate
from vault.services.erasure import (
    athlete_erased_at,
    erased_items,
    record_athlete_erasure,
    record_erasure,
)
from vault.storage.decay_sql import decay_all
from vault.storage.dialect import lock_athlete, runs_rule_in_sql
from vault.storage.repositories.engine_skips import purge_skipped
from vault.storage.repositories.engine_table import EngineTableRepository
from vault.storage.repositories.legacy_copy import purge_legacy_copy
from vault.storage.repositories.memory import to_output
from vault.storage.search_index import purge_erased_terms
from vault.storage.uow import UnitOfWork


def merge(
    uow: UnitOfWork,
    athlete_id: str,
    candidates: Sequence[Candidate],
    now: datetime,
    policy: DecayPolicy = DEFAULT_DECAY_POLICY,
    *,
    trusted: bool = False,
) -> MergeResult:
    """Merge candidates into one athlete's memory: boost, replace, resolve, prune, cap.

    Every candidate passes the privacy gate first (PrivacyRefused names the first refused
    one, and nothing is written) unless `trusted` (vault.services.privacy_gate). A candidate
    learned from evidence observed no later than an erasure of its text (forget, delete, "this
    is wrong", an edit's old text) is left out: the same evidence does not bring it back; a
    statement made after the erasure is new and is merged."""
    candidates = privacy_gate.screen_candidates(candidates, trusted=trusted)
    uow.athletes.ensure(athlete_id, now)
    candidates, refused = _not_erased(uow, athlete_id, candidates, now)
    facts_only = not any(isinstance(c, (PatternIn, NoteIn)) for c in candidates)
    active = uow.memory.load_active(athlete_id, facts_only=facts_only)
    candidates = evidence.unseen(uow, athlete_id, active, candidates)
    plan = plan_merge(active, list(candidates), now, policy)
    plan.ignored.extend(refused)
    carried = evidence.carried_over(uow, athlete_id, plan)
    written = uow.memory.write(athlete_id, plan)
    evidence.record(uow, athlete_id, plan, candidates, carried, now)
    archived = uow.archive.add([(athlete_id, r) for r in plan.removals], written.ids, now)
    added_keys = set(plan.added_keys)
    survivors = plan.survivors()
    return MergeResult(
        added=tuple(to_output(athlete_id, s) for s in survivors if s.key in added_keys),
        updated=tuple(
            to_output(athlete_id, s) for s in survivors if s.touched and s.key not in added_keys
        ),
        archived=tuple(archived),
        ignored=tuple(Ignored(text=text, reason=reason) for text, reason in plan.ignored),
    )


def _not_erased(
    uow: UnitOfWork, athlete_id: str, candidates: Sequence[Candidate], now: datetime
) -> tuple[list[Candidate], list[tuple[str, str]]]:
    """Split off the candidates learned from evidence (an `observed_at`) that is no newer than
    an erasure of their text (not the whole athlete's delete); a candidate without one is
    stated now, and is new."""
    dated = [c for c in candidates if not isinstance(c, Retraction) and c.observed_at is not None]
    erased = erased_items(uow, athlete_id, [c.text for c in dated]) if dated else {}
    if not erased:
        return list(candidates), []
    # what `vault delete` erased may be learned again: a deleted athlete starts over (the demo
    # replays the same messages); corrections and forget are what must stick
    deleted = athlete_erased_at(uow, athlete_id)
    erased = {text: when for text, when in erased.items() if when != deleted}
    kept: list[Candidate] = []
    refused: list[tuple[str, str]] = []
    for candidate in candidates:
        observed = None if isinstance(candidate, Retraction) else candidate.observed_at
        when = None if observed is None else erased.get(candidate.text)  # type: ignore[union-attr]
        if when is not None and observed is not None and when >= observed:
            refused.append((candidate.text, ERASED))  # type: ignore[union-attr]
        else:
            kept.append(candidate)
    return kept, refused


ERASED = "erased: removed by the athlete or a forget after it was observed"
DECAY_ATHLETES = 500  # athletes with facts due, per page of the all-shard read


def decay(
    uow: UnitOfWork,
    now: datetime,
    progress: Callable[[int], None] | None = None,
    policy: DecayPolicy = DEFAULT_DECAY_POLICY,
) -> DecayResult:
    """Lower every fact unreinforced for 7+ days to base x 0.95^weeks; archive those below 0.3.

    Athlete by athlete: the athletes with facts due (`decay_due_at <= now`) are read a page
    at a time, then each athlete's due facts (after its lock), the pure rule
    (`vault.domain.rules.decayed`) decides, and they are written with one executemany UPDATE,
    one INSERT ... SELECT into the archive and one DELETE, all by that athlete. On SQLite the
    same rule runs inside one UPDATE as SQL functions (`vault.storage.decay_sql`). A run with
    nothing due reads nothing but the due times and writes nothing. `progress(n)` is told as
    facts are recomputed (a bar's length: `vault.storage.queries.facts_due_count`).
    """
    if runs_rule_in_sql(uow.connection):
        recomputed, archived = decay_all(uow.connection, now, policy, progress)
        return DecayResult(lowered=recomputed - archived, archived=archived)
    lowered = archived = 0
    after = ""
    # athlete by athlete (each one's statements read and write one shard), in id order: two
    # decays lock athletes in the same order and never deadlock on each other
    while athletes := uow.memory.athletes_due_for_decay(now, after, DECAY_ATHLETES):
        for athlete in athletes:
            batch = uow.memory.athlete_facts_due(athlete, now)
            if progress is not None:
                progress(len(batch))
            changes, gone = [], []
            for fact in batch:
                factor = policy.factor(fact.category)
                current = decayed(fact.base_confidence, fact.last_reinforced_at, now, factor)
                # below-floor facts too: the archive keeps the confidence they left with
                changes.append((fact.id, current, decay_due(fact.last_reinforced_at, now)))
                if current < ACTIVE_FLOOR:
                    gone.append(fact.id)
                else:
                    lowered += current != fact.confidence
            uow.memory.set_decayed(athlete, changes)
            uow.archive.archive_facts(athlete, gone, ArchiveReason.DECAYED, now)
            uow.memory.delete_ids(Kind.FACT, athlete, gone)
            archived += len(gone)
        after = athletes[-1]
    return DecayResult(lowered=lowered, archived=archived)


def forget(uow: UnitOfWork, athlete_id: str, query: str, now: datetime) -> ForgetResult:
    """Erase every active item and archive row matching the query; keep only a count."""
    terms = query_terms(query)
    if not terms:
        raise InvalidInput(f"nothing to forget: {query!r} has no words to match")
    _require_athlete(uow, athlete_id)
    uow.athletes.touch(athlete_id, now)  # locked and existing: only mark it updated
    doomed: dict[Kind, list[int]] = {Kind.FACT: [], Kind.PATTERN: [], Kind.NOTE: []}
    erased: list[str] = []
    for state in uow.memory.load_active(athlete_id):
        tags = state.tags if isinstance(state, FactState) else frozenset()
        if state.id is not None and matches_query(terms, state.text, tags):
            doomed[state.kind].append(state.id)
            erased.append(state.text)
    # the words behind a fact that stays ("I run despite my knee") go too; their fact keeps
    # its other evidence
    uow.evidence.forget_matching(athlete_id, terms)
    counts = {
        "facts": uow.memory.delete_ids(Kind.FACT, athlete_id, doomed[Kind.FACT]),
        "patterns": uow.memory.delete_ids(Kind.PATTERN, athlete_id, doomed[Kind.PATTERN]),
        "notes": uow.memory.delete_ids(Kind.NOTE, athlete_id, doomed[Kind.NOTE]),
    }
    archived = [
        a for a in uow.archive.for_athlete(athlete_id) if matches_query(terms, a.original_text)
    ]
    archived_ids = [a.id for a in archived]
    erased += [a.original_text for a in archived]
    counts["archived"] = uow.archive.delete_ids(athlete_id, archived_ids)
    uow.archive.detach_dangling(athlete_id)
    episodes = uow.episodes.forget_matching(
        athlete_id, terms
    )  # what happened, too (the episodic-memory design)
    purge_legacy_copy(uow.connection, athlete_id)  # the pre-vault JSON copy holds the text too
    engine_table = EngineTableRepository(uow.connection)
    if engine_table.present:
        engine_table.purge_refused(athlete_id)  # the engine's view shows the rest at once
    if episodes["episodes"]:
        purge_erased_terms(uow.connection)  # and the full-text index, until its segments merge
    uow.archive.log_forget(athlete_id, now, counts)
    record_erasure(uow, athlete_id, erased, ErasureReason.FORGET, now)
    return ForgetResult(
        facts=counts["facts"],
        patterns=counts["patterns"],
        notes=counts["notes"],
        archived=counts["archived"],
        episodes=episodes["episodes"] + episodes["episode_archive"],
    )


def delete_athlete(uow: UnitOfWork, athlete_id: str, now: datetime | None = None) -> dict[str, int]:
    """Erase the athlete from every table, archive included; counts per table.

    The erasure record keeps a keyed hash of each erased item and of the athlete (never the
    text), so a stale copy written back later does not bring them back. An athlete vault
    never held, of whom the engine left rows (unreadable ones, or ones that brought nothing
    vault could keep) or a record of items left out, has those erased; with none of them
    either, AthleteNotFound."""
    if not lock_athlete(uow.connection, athlete_id):
        traces = _erase_engine_traces(uow, athlete_id)
        if not traces:
            raise AthleteNotFound(athlete_id)
        # the engine held memory of them that vault never took: its facts learned before now
        # stay erased, as a delete of an athlete vault held would have it
        record_athlete_erasure(uow, athlete_id, [], now or utc_now())
        return traces
    counts: dict[str, int] = {}
    # an id that collided with this one when ids were normalized is the same name: erase it too
    twins = [athlete_id, *uow.athletes.unnormalized_twins(athlete_id)]
    erased = [
        text
        for athlete in twins
        for text in [
            *(state.text for state in uow.memory.load_active(athlete)),
            *(a.original_text for a in uow.archive.for_athlete(athlete)),
        ]
    ]
    record_athlete_erasure(uow, athlete_id, erased, now or utc_now())
    for athlete in twins:
        for table, count in [
            *uow.episodes.delete_owner(athlete).items(),
            *uow.athletes.erase(athlete).items(),
        ]:
            counts[table] = counts.get(table, 0) + count
    counts.update(_erase_engine_traces(uow, athlete_id))
    if counts.get("episodes"):
        purge_erased_terms(uow.connection)
    return counts


def _erase_engine_traces(uow: UnitOfWork, athlete_id: str) -> dict[str, int]:
    """The legacy copy, the engine's waiting rows under every key naming the athlete (the
    `athlete_memory` view shows nothing of an athlete vault no longer holds), and the record
    of items left out (keyed by the plain athlete id): counts per table, those found only."""
    engine_table = EngineTableRepository(uow.connection)
    counts = {
        "legacy_athlete_memory": purge_legacy_copy(uow.connection, athlete_id),
        "engine_inbox": engine_table.purge(athlete_id) if engine_table.present else 0,
        "engine_skipped_items": purge_skipped(uow.connection, athlete_id),
    }
    return {table: count for table, count in counts.items() if count}


def cleanup_archive(
    uow: UnitOfWork, now: datetime, retention_days: int = ARCHIVE_RETENTION_DAYS
) -> int:
    """Delete archive rows older than the retention period (the M13 spec: 90 days)."""
    if (
        isinstance(retention_days, bool)
        or not isinstance(retention_days, int)
        or retention_days < 0
    ):
        raise InvalidInput(f"retention_days must be a whole number >= 0, got {retention_days!r}")
    deleted = uow.archive.delete_older_than(now - timedelta(days=retention_days))
    if deleted:
        uow.archive.detach_dangling()
    return deleted


def fact_history(uow: UnitOfWork, fact_id: int) -> tuple[list[Archived], int | None]:
    """The archived facts that led to `fact_id` (oldest first) and the id active today, if any.

    Follows `superseded_by` forward to the latest successor, then collects every predecessor.
    The fact is named by its id alone: its athlete is found first (one read of every shard),
    then every other statement reads that athlete's rows.
    """
    athlete = uow.memory.owners_of_facts([fact_id]).get(fact_id) or uow.archive.owner_of_fact(
        fact_id
    )
    if athlete is None:
        raise FactNotFound(fact_id)
    own = uow.archive.archived_fact(athlete, fact_id)
    latest, visited = fact_id, {fact_id}
    while own is not None and own.superseded_by is not None and own.superseded_by not in visited:
        latest = own.superseded_by
        visited.add(latest)
        own = uow.archive.archived_fact(athlete, latest)
    chain: list[Archived] = [] if own is None else [own]  # the latest left without a successor
    frontier, expanded = [latest], set()
    while frontier:
        current = frontier.pop()
        if current in expanded:
            continue
        expanded.add(current)
        for previous in uow.archive.superseded_fact(athlete, current):
            chain.append(previous)
            if previous.original_id is not None:
                frontier.append(previous.original_id)
    chain.sort(key=lambda a: (a.archived_at, a.id))
    return chain, latest if own is None and uow.memory.fact_exists(athlete, latest) else None


def _require_athlete(uow: UnitOfWork, athlete_id: str) -> None:
    """The athlete must exist; take its lock (PostgreSQL) before reading its rows."""
    if not lock_athlete(uow.connection, athlete_id):
        raise AthleteNotFound(athlete_id)

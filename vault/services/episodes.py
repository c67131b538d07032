"""Episodes and knowledge: record (triggers, caps), recall (rank), forget, retention, load.

Each write function runs inside the caller's unit of work (vault.api.Vault opens it); `recall`
and `lookup_knowledge` only read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from vault.domain.embedding import Embedder, FunctionEmbedder, cosines, embed_all, pack
from vault.domain.embedding import checked as checked_embedder
from vault.domain.episode_query import RELATED_SURFACE, Query, Window, analyze, stem
from vault.domain.episode_rank import (
    DEFAULT_WEIGHTS,
    Candidate,
    Ranked,
    Weights,
    covers,
    expand,
    matches,
    rank,
)
from vault.domain.episodes import (
    AddEpisodesResult,
    Episode,
    EpisodeIn,
    Knowledge,
    KnowledgeIn,
    StorePolicy,
    meta_json,
    name_key,
)
from vault.domain.errors import InvalidInput
from vault.domain.limits import EPISODE_CAP
from vault.domain.models import validated
from vault.domain.text import query_terms
from vault.extraction import ActivityIn
from vault.storage.dialect import has_fts5
from vault.storage.repositories.episodes import (
    EpisodeRepository,
    KnowledgeRepository,
    fts_any,
    fts_match,
    owner_key,
)
from vault.storage.search_index import purge_erased_terms
from vault.storage.uow import UnitOfWork

Embed = Callable[[str], Sequence[float]]
"""An app's embedding function: text -> vector (any fixed length)."""

NEIGHBOUR_WEIGHT = 0.4
VECTOR_SCAN = 2000  # the owner's newest episodes whose vectors a query is compared with
VECTOR_TOP = 2  # per place of k: episodes the vectors alone bring in
SECOND_HOP_SHARE = 0.2  # of the k places, what the second hop may fill
SECOND_HOP_SEEDS = 2  # the first hop's best episodes whose words widen the query
NEIGHBOUR_SEEDS = 20  # at most this many best matches have their session neighbours fetched
SESSION_GAP = timedelta(hours=1)  # episodes this close without `session` metadata: one session
GROUP_CAP = 64  # candidates per query word (newest first) and for all words together
WINDOW_CAP = 64  # candidates from the query's time span
FILTER_KEYS = frozenset({"type", "outcome", "since", "until", "location", "person", "item"})


@dataclass(frozen=True)
class RecallOptions:
    """Which structural parts recall uses (all on by default; tools/eval_recall.py turns them
    on one at a time to measure each).

    - `dates`: a calendar date in the question ("on May 2nd", "April 27th") is that day.
    - `neighbours`: a turn's score lifted by this share of its best session neighbour's text
      score (the answer often sits one turn after the words the question repeats).
    - `second_hop`: when the best episode does not hold every word asked about, the query is
      widened with the most specific words of the first hop's two best episodes and what the
      wider query finds may take the last fifth of the k places (answers spread over several
      sessions). Off by default: no gain on real dialogue, a loss on the generated corpus.
    """

    dates: bool = True
    neighbours: float = NEIGHBOUR_WEIGHT
    second_hop: bool = False  # opt-in: measured no gain on real dialogue (docs/recall.md)

    @classmethod
    def plain(cls) -> RecallOptions:
        """Every structural part off: the ranking of names, synonyms, time words and recency."""
        return cls(dates=False, neighbours=0.0, second_hop=False)

    @staticmethod
    def steps() -> list[tuple[str, dict[str, Any]]]:
        """(label, change) in the order tools/eval_recall.py adds the parts."""
        return [
            ("+ calendar dates in the question resolved to that day", {"dates": True}),
            ("+ session neighbours", {"neighbours": NEIGHBOUR_WEIGHT}),
            ("+ second hop (opt-in, off by default)", {"second_hop": True}),
        ]


DEFAULT_OPTIONS = RecallOptions()


def add_episodes(
    uow: UnitOfWork,
    owner_id: str,
    items: Sequence[EpisodeIn],
    now: datetime,
    *,
    policy: StorePolicy | None = None,
    cap: int = EPISODE_CAP,
    embed: Embed | None = None,
    model: str = "app",
    embedder: Embedder | None = None,
) -> AddEpisodesResult:
    """Record episodes set-wise; an existing `ref` of the owner is rewritten, not duplicated.

    With a `policy`, events it does not keep are skipped (reported with their input index).
    Past `cap` episodes the owner's oldest are archived as `capped`.
    """
    skipped: list[tuple[int, str]] = []
    kept: list[tuple[int, EpisodeIn]] = []
    for index, item in enumerate(items):
        if policy is not None and policy.decide(item) is None:
            skipped.append((index, "not_notable"))
        else:
            kept.append((index, item))
    if not kept:
        return AddEpisodesResult(skipped=tuple(skipped))
    uow.athletes.ensure(owner_id, now)
    last_by_ref: dict[str, int] = {}
    for position, (_index, item) in enumerate(kept):
        if item.ref is not None:
            last_by_ref[item.ref] = position  # the last copy of a ref in one batch wins
    existing = uow.episodes.existing_refs(owner_id, sorted(last_by_ref))
    key = owner_key(owner_id)
    inserts: list[dict[str, Any]] = []
    updates: list[dict[str, Any]] = []
    for position, (index, item) in enumerate(kept):
        if item.ref is not None and last_by_ref[item.ref] != position:
            skipped.append((index, "duplicate_ref"))
            continue
        row = {
            "type": item.type,
            "outcome": item.outcome_value(),
            "text": item.text,
            "occurred_at": item.occurred_at or now,
            "meta": meta_json(item.meta),
        }
        if item.ref is not None and item.ref in existing:
            updates.append({**row, "target": existing[item.ref]})
        else:
            inserts.append(
                {
                    **row,
                    "metadata": row.pop("meta"),
                    "owner_id": owner_id,
                    "owner_key": key,
                    "ref": item.ref,
                    "created_at": now,
                }
            )
    new_ids = uow.episodes.insert(inserts)
    uow.episodes.update(owner_id, updates)
    chosen = _embedder(embedder, embed, model)
    if chosen is not None:
        # in the episodes' own transaction: an embedder that fails writes no episode either
        texts = [r["text"] for r in inserts] + [r["text"] for r in updates]
        targets = list(new_ids) + [r["target"] for r in updates]
        blobs = embed_all(chosen, texts)
        uow.episodes.put_vectors(
            owner_id,
            [
                {"episode_id": i, "model": chosen.model, "dim": chosen.dim, "vector": b}
                for i, b in zip(targets, blobs)
            ],
        )
    archived = uow.episodes.enforce_cap(owner_id, cap, now) if cap > 0 else 0
    return AddEpisodesResult(
        added=tuple(new_ids),
        updated=tuple(r["target"] for r in updates),
        skipped=tuple(sorted(skipped)),
        archived=archived,
    )


def _embedder(embedder: Embedder | None, embed: Embed | None, model: str) -> Embedder | None:
    """The embedder to use: `embedder`, else the one-text function `embed` named `model`."""
    if embedder is not None:
        return checked_embedder(embedder)
    if embed is not None:
        return checked_embedder(FunctionEmbedder(embed, model))
    return None


def reembed(
    uow: UnitOfWork, embedder: Embedder, owner_id: str | None = None, *, batch: int = 256
) -> int:
    """(Re)write the vector of every episode (of `owner_id`, or of everyone) with `embedder`:
    vectors of another model or dimension are replaced, so one file never mixes models."""
    chosen = checked_embedder(embedder)
    owners = [owner_id] if owner_id is not None else uow.episodes.owners()
    done = 0
    for owner in owners:  # owner by owner: every statement reads and writes one athlete's rows
        after = 0
        while rows := uow.episodes.texts_after(after, batch, owner):
            blobs = embed_all(chosen, [text for _id, text in rows])
            uow.episodes.put_vectors(
                owner,
                [
                    {"episode_id": i, "model": chosen.model, "dim": chosen.dim, "vector": b}
                    for (i, _text), b in zip(rows, blobs)
                ],
            )
            done += len(rows)
            after = rows[-1][0]
    return done


def recall(
    episodes: EpisodeRepository,
    owner_id: str,
    query: str,
    now: datetime,
    *,
    k: int = 3,
    filters: Mapping[str, Any] | None = None,
    embed: Embed | None = None,
    model: str = "app",
    embedder: Embedder | None = None,
    weights: Weights = DEFAULT_WEIGHTS,
    total: int | None = None,
    options: RecallOptions = DEFAULT_OPTIONS,
) -> list[Episode]:
    """The owner's `k` episodes most relevant to `query` as of `now` (see episode_rank)."""
    checked = _filters(filters)
    analyzed = analyze(query, now, dates=options.dates)
    window, analyzed = _resolve_time(episodes, owner_id, analyzed, now)
    chosen = _embedder(embedder, embed, model)
    recent = WINDOW_CAP if not analyzed.groups or chosen is not None else 0
    pool = _pool(episodes, owner_id, analyzed, window, recent)
    pool = [c for c in pool if _passes(c, checked)]
    estimate = total if total is not None else max(len(pool), GROUP_CAP) * 4
    neighbours: dict[int, list[int]] | None = None
    if options.neighbours > 0 and pool:
        weights = replace(weights, neighbour=options.neighbours)
        neighbours = _add_neighbours(
            episodes, owner_id, analyzed, pool, checked, k, estimate, weights
        )
    if chosen is not None:
        _score_vectors(episodes, owner_id, query, chosen, pool, checked, k)
    ranked = rank(
        analyzed,
        pool,
        now,
        window=window,
        k=k,
        total=estimate,
        weights=weights,
        neighbours=neighbours,
    )
    if options.second_hop and analyzed.groups and ranked and k > 1:
        ranked = _second_hop(
            episodes,
            owner_id,
            analyzed,
            pool,
            ranked,
            checked,
            now,
            window,
            k,
            estimate,
            weights,
            neighbours,
        )
    return [
        Episode(
            id=r.candidate.id,
            owner_id=owner_id,
            ref=r.candidate.row[1],
            type=r.candidate.type,
            outcome=r.candidate.row[3],
            text=r.candidate.text,
            occurred_at=r.candidate.occurred_at,
            meta=r.candidate.meta,
            score=r.score,
            parts=r.parts,
        )
        for r in ranked
    ]


def _second_hop(
    episodes: EpisodeRepository,
    owner_id: str,
    query: Query,
    pool: list[Candidate],
    ranked: list[Ranked],
    filters: dict[str, Any],
    now: datetime,
    window: Window | None,
    k: int,
    total: int,
    weights: Weights,
    neighbours: dict[int, list[int]] | None,
) -> list[Ranked]:
    """Widen the query with the words of the first hop's best episodes and let what the wider
    query finds take the last SECOND_HOP_SHARE of the k places (the first hop keeps the rest:
    the widened query never pushes a first-hop find out of the first places)."""
    if covers(query, ranked[0].candidate):
        return ranked  # the best episode holds every word asked about: nothing spread out
    widened = expand(query, [r.candidate for r in ranked[:SECOND_HOP_SEEDS]], pool)
    extra = widened.groups[len(query.groups) :]
    if not extra:
        return ranked
    known = {c.id for c in pool}
    found = _pool(episodes, owner_id, replace(widened, groups=extra), None, 0)
    pool.extend(c for c in found if c.id not in known and _passes(c, filters))
    second = rank(
        widened, pool, now, window=window, k=k, total=total, weights=weights, neighbours=neighbours
    )
    keep = max(1, k - max(1, int(k * SECOND_HOP_SHARE)))
    merged = ranked[:keep]
    chosen = {r.candidate.id for r in merged}
    for item in (*second, *ranked[keep:]):
        if len(merged) == k:
            break
        if item.candidate.id not in chosen:
            chosen.add(item.candidate.id)
            merged.append(item)
    return merged


def _score_vectors(
    episodes: EpisodeRepository,
    owner_id: str,
    query: str,
    embedder: Embedder,
    pool: list[Candidate],
    filters: dict[str, Any],
    k: int,
) -> None:
    """Set each candidate's vector part; add the owner's episodes nearest the query that the
    words missed (from the newest VECTOR_SCAN with a vector of this model and dimension).

    The part is the cosine rescaled between the (lower) median and the best of the scanned
    episodes (0 at or below the median, 1 for the best; the cosine itself when they are all
    alike): models differ in their cosine ranges, and a vector near the median tells nothing
    apart, so it must not lift a turn over a word match.
    """
    wanted = [float(v) for v in embedder.embed([query])[0]]
    pack(wanted, embedder.dim, embedder.model)  # checks length and values
    scanned = episodes.owner_vectors(owner_id, embedder.model, embedder.dim, VECTOR_SCAN)
    known = {c.id for c in pool}
    missing = [c.id for c in pool if c.id not in scanned]
    if missing:
        scanned.update(episodes.vectors(owner_id, missing, embedder.model, embedder.dim))
    if not scanned:
        return
    ids = list(scanned)
    similarity = dict(zip(ids, cosines(wanted, [scanned[i] for i in ids])))
    ordered = sorted(similarity.values())
    median, best = ordered[(len(ordered) - 1) // 2], ordered[-1]
    span = best - median

    def part(value: float) -> float:
        return max(0.0, (value - median) / span) if span > 0 else max(0.0, value)

    nearest = sorted((i for i in ids if i not in known), key=lambda i: (-similarity[i], -i))
    added = [_candidate(row) for row in episodes.rows(owner_id, nearest[: VECTOR_TOP * max(1, k)])]
    pool.extend(c for c in added if _passes(c, filters))
    for candidate in pool:
        if candidate.id in similarity:
            candidate.vector = part(similarity[candidate.id])


def _pool(
    episodes: EpisodeRepository, owner_id: str, query: Query, window: Window | None, recent: int
) -> list[Candidate]:
    if not has_fts5(episodes.connection):
        return _pg_pool(episodes, owner_id, query, window, recent)
    hits = episodes.candidate_rows(
        owner_id,
        _fts_expressions(owner_id, query),
        GROUP_CAP,
        window=(window.start, window.end) if window is not None else None,
        recent=recent,
    )
    return [Candidate(h[0], h[4], h[2], h[5], h[6], row=h) for h in hits]


def _add_neighbours(
    episodes: EpisodeRepository,
    owner_id: str,
    query: Query,
    pool: list[Candidate],
    filters: dict[str, Any],
    k: int,
    total: int,
    weights: Weights,
) -> dict[int, list[int]]:
    """Fetch the session neighbours of the best-matching candidates into `pool` (in place);
    return who neighbours whom (both ways), by id."""
    scores = matches(query, pool, total, weights)
    seeds = sorted(
        (i for i, s in enumerate(scores) if s > 0), key=lambda i: (-scores[i], -pool[i].id)
    )[: min(NEIGHBOUR_SEEDS, 2 * k)]
    known = {c.id: c for c in pool}
    neighbours: dict[int, list[int]] = {}
    for index in seeds:
        seed = pool[index]
        before, after = episodes.adjacent(owner_id, seed.id, seed.occurred_at)
        for row in (*before, *after):
            other = known.get(row.id) or _candidate(row)
            if not _same_session(seed, other):
                continue
            if row.id not in known:
                if not _passes(other, filters):
                    continue
                known[row.id] = other
                pool.append(other)
            neighbours.setdefault(seed.id, []).append(other.id)
            neighbours.setdefault(other.id, []).append(seed.id)
    return neighbours


def _candidate(row: Any) -> Candidate:
    return Candidate(
        row.id,
        row.text,
        row.type,
        row.occurred_at,
        row.meta,
        row=(row.id, row.ref, row.type, row.outcome, row.text, row.occurred_at, row.meta),
    )


def _same_session(a: Candidate, b: Candidate) -> bool:
    """Both carry the same `session` metadata, or (without it) occurred within SESSION_GAP."""
    first, second = a.meta.get("session"), b.meta.get("session")
    if first is not None and second is not None:
        return bool(first == second)
    return abs(a.occurred_at - b.occurred_at) <= SESSION_GAP


def _fts_expressions(owner_id: str, query: Query) -> list[str]:
    """SQLite: one FTS5 expression per query word group (any of its words) and, with several
    groups, one for all of them together; each gives its newest GROUP_CAP matches."""
    groups = [g.surface for g in query.groups if g.surface]
    key = owner_key(owner_id)
    found = [fts_any(key, group) for group in groups]
    if len(groups) > 1:
        found.append(fts_match(key, groups))
    return found


def _pg_pool(
    episodes: EpisodeRepository, owner_id: str, query: Query, window: Window | None, recent: int
) -> list[Candidate]:
    """PostgreSQL: the text candidates (best ts_rank first), the time span's and the newest."""
    groups = [g.surface for g in query.groups if g.surface]
    ids: list[int] = []
    if groups:
        words = [w for g in groups for w in g]
        ids = episodes.pg_candidates(owner_id, words, GROUP_CAP * len(groups))
    rows = {row.id: row for row in episodes.rows(owner_id, ids)}
    if window is not None:
        spanned = episodes.window(owner_id, window.start, window.end, WINDOW_CAP)
        rows.update({row.id: row for row in spanned})
    if recent:
        rows.update({row.id: row for row in episodes.recent(owner_id, recent)})
    return [_candidate(row) for row in rows.values()]


def _text_candidate_ids(episodes: EpisodeRepository, owner_id: str, query: Query) -> set[int]:
    """The ids of the text candidates alone (tools/bench_episodes.py reports the pool size)."""
    if not has_fts5(episodes.connection):
        words = [w for g in query.groups for w in g.surface]
        return set(episodes.pg_candidates(owner_id, words, GROUP_CAP * len(query.groups)))
    hits = episodes.candidate_rows(owner_id, _fts_expressions(owner_id, query), GROUP_CAP)
    return {hit[0] for hit in hits}


def _resolve_time(
    episodes: EpisodeRepository, owner_id: str, query: Query, now: datetime
) -> tuple[Window | None, Query]:
    """The query's time span; "before / after the race" is found among the episodes."""
    if query.wants_first:
        oldest = episodes.oldest(owner_id)
        if oldest is None:
            return query.window, query
        start = oldest.replace(hour=0, minute=0, second=0, microsecond=0)
        return Window(start, start + timedelta(days=1)), query
    anchor = query.anchor
    if anchor is None:
        return query.window, query
    surface: list[str] = []
    for word in anchor.event:
        surface.extend([word, *RELATED_SURFACE.get(stem(word), ())])
    limit = query.window.end if query.window is not None else now
    if has_fts5(episodes.connection):
        match = fts_any(owner_key(owner_id), surface)
        found = [h[5] for h in episodes.candidate_rows(owner_id, [match], GROUP_CAP)]
    else:
        ids = episodes.pg_candidates(owner_id, surface, GROUP_CAP)
        found = [row.occurred_at for row in episodes.rows(owner_id, ids)]
    times = [moment for moment in found if moment <= limit]
    if not times:
        return query.window, query
    moment = max(times)
    window = (
        Window(moment - anchor.span, moment)
        if anchor.direction == "before"
        else Window(moment + timedelta(seconds=1), moment + anchor.span)
    )
    event_stems = {stem(w) for w in anchor.event}
    remaining = tuple(g for g in query.groups if g.stem not in event_stems)
    types = query.types - {"race"} if "race" in {stem(w) for w in anchor.event} else query.types
    trimmed = Query(query.text, remaining, query.names, types, window, None, query.wants_recent)
    return window, trimmed


def _filters(filters: Mapping[str, Any] | None) -> dict[str, Any]:
    if not filters:
        return {}
    unknown = set(filters) - FILTER_KEYS
    if unknown:
        raise InvalidInput(f"unknown recall filter(s) {sorted(unknown)}; use {sorted(FILTER_KEYS)}")
    checked: dict[str, Any] = {}
    for key, value in filters.items():
        if key in ("since", "until"):
            if not isinstance(value, datetime) or value.tzinfo is None:
                raise InvalidInput(f"filter {key} must be a timezone-aware datetime")
            checked[key] = value
        elif isinstance(value, (list, tuple, set, frozenset)):
            checked[key] = {str(v).lower() for v in value}
        else:
            checked[key] = {str(value).lower()}
    return checked


def _passes(candidate: Candidate, filters: dict[str, Any]) -> bool:
    for key, wanted in filters.items():
        if key == "since" and candidate.occurred_at < wanted:
            return False
        if key == "until" and candidate.occurred_at >= wanted:
            return False
        if key == "type" and candidate.type not in wanted:
            return False
        if key == "outcome" and (candidate.row[3] or "") not in wanted:
            return False
        if key in ("location", "item") and str(candidate.meta.get(key, "")).lower() not in wanted:
            return False
        if key == "person":
            people = {str(candidate.meta.get(k, "")).lower() for k in ("person", "npc")}
            if not people & wanted:
                return False
    return True


def forget_episodes(uow: UnitOfWork, owner_id: str, query: str) -> dict[str, int]:
    """Erase the owner's episodes (and archived ones) matching every word of `query`."""
    terms = query_terms(query)
    if not terms:
        raise InvalidInput(f"nothing to forget: {query!r} has no words to match")
    counts = uow.episodes.forget_matching(owner_id, terms)
    if counts["episodes"]:
        purge_erased_terms(uow.connection)  # erased words leave the FTS5 segments too
    return counts


def expire_episodes(uow: UnitOfWork, now: datetime, max_age_days: int) -> int:
    """Archive (`expired`) episodes that occurred more than `max_age_days` before `now`."""
    if isinstance(max_age_days, bool) or not isinstance(max_age_days, int) or max_age_days < 0:
        raise InvalidInput(f"max_age_days must be a whole number >= 0, got {max_age_days!r}")
    return uow.episodes.expire_before(now - timedelta(days=max_age_days), now)


def cleanup_episode_archive(uow: UnitOfWork, now: datetime, retention_days: int) -> int:
    """Delete archived episodes older than the retention period."""
    if (
        isinstance(retention_days, bool)
        or not isinstance(retention_days, int)
        or retention_days < 0
    ):
        raise InvalidInput(f"retention_days must be a whole number >= 0, got {retention_days!r}")
    deleted = uow.episodes.cleanup_archive(now - timedelta(days=retention_days))
    if deleted:  # the archived episodes' words may still sit in old segments of the index
        purge_erased_terms(uow.connection)
    return deleted


# -- ingest: activities become episodes --------------------------------------------------------

_INJURY = re.compile(
    r"\b(injur\w*|pain\w*|sore|hurt\w*|strain\w*|tweak\w*|pulled|twinge|sprain\w*|niggle)\b", re.I
)
_RACE = re.compile(r"\b(race|marathon|half|10k|5k|parkrun|ultra|triathlon|competition)\b", re.I)


def episodes_from_activity(
    activity: ActivityIn | Mapping[str, Any], *, policy: StorePolicy | None = None
) -> list[EpisodeIn]:
    """The episodes an activity is worth: a race, an injury, a session with its outcome.

    Types: `race` when the name says so, `injury` when a note mentions pain or an injury (its
    own episode, so it can be recalled alone), `session` otherwise; outcome `completed`,
    `missed`, or `hard` for RPE 8+. `ref` is `activity:<id>` (`:injury` for the injury), so
    re-ingesting the same activity rewrites its episodes. With a `policy` (default the episodic-memory design's
    triggers plus the coach's types), episodes it would not keep are left out.
    """
    checked = validated(ActivityIn, activity)
    when = checked.observed_at
    name = checked.name or (checked.sport or "session")
    notes = " ".join(p for p in (checked.description, checked.private_note) if p)
    outcome = (
        "missed" if not checked.completed else ("hard" if (checked.rpe or 0) >= 8 else "completed")
    )
    meta: dict[str, Any] = {"day": checked.local_date.isoformat(), "outcome": outcome}
    if checked.sport:
        meta["sport"] = checked.sport
    if checked.rpe is not None:
        meta["rpe"] = checked.rpe
    if checked.duration_min is not None:
        meta["minutes"] = checked.duration_min
    kind = "race" if _RACE.search(name) else "session"
    summary = f"{name}: {notes}" if notes else name
    if not checked.completed:
        summary = f"missed {summary}"
    found = [
        EpisodeIn(
            text=summary[:2000],
            type=kind,
            outcome=outcome,
            at=when,
            ref=f"activity:{checked.id}",
            meta=meta,
        )
    ]
    injury = _INJURY.search(notes)
    if injury:
        found.append(
            EpisodeIn(
                text=f"{notes}"[:2000],
                type="injury",
                outcome="negative",
                at=when,
                ref=f"activity:{checked.id}:injury",
                meta=meta,
            )
        )
    chosen = policy or StorePolicy(extra=frozenset({"session"}))
    return [e for e in found if chosen.decide(e) is not None]


# -- knowledge ---------------------------------------------------------------------------------


def parse_knowledge(document: Any, where: str = "input") -> list[KnowledgeIn]:
    """Knowledge rows from a JSON document.

    Accepted shapes: a list of `{"kind", "name", "attributes"?, "aliases"?}` objects (other keys
    become attributes), or an object mapping a kind to a list of such objects (without `kind`)
    or to an object mapping names to attributes.
    """
    items: list[KnowledgeIn] = []
    if isinstance(document, list):
        entries = [(None, entry) for entry in document]
    elif isinstance(document, dict):
        entries = []
        for kind, value in document.items():
            if isinstance(value, list):
                entries.extend((kind, entry) for entry in value)
            elif isinstance(value, dict):
                entries.extend((kind, {"name": n, "attributes": a}) for n, a in value.items())
            else:
                raise InvalidInput(f"{where}: {kind!r} must hold a list or an object")
    else:
        raise InvalidInput(f"{where}: expected a JSON list or object")
    for number, (kind, entry) in enumerate(entries, start=1):
        if not isinstance(entry, dict):
            raise InvalidInput(f"{where}: entry {number} is not an object")
        data = dict(entry)
        data.setdefault("kind", kind)
        attributes = data.pop("attributes", None)
        extra = {k: data.pop(k) for k in list(data) if k not in ("kind", "name", "aliases")}
        if attributes is None:
            attributes = extra
        elif not isinstance(attributes, dict):
            raise InvalidInput(f"{where}: entry {number}: attributes must be an object")
        else:
            attributes = {**extra, **attributes}
        data["attributes"] = attributes
        data["aliases"] = tuple(data.get("aliases") or ())
        try:
            items.append(validated(KnowledgeIn, data))
        except InvalidInput as error:
            raise InvalidInput(f"{where}: entry {number}: {error}") from None
    return items


def load_knowledge_files(paths: Sequence[Path]) -> list[KnowledgeIn]:
    """Parse JSON knowledge files (a directory means every *.json in it, sorted)."""
    files: list[Path] = []
    for path in paths:
        files.extend(sorted(path.glob("*.json")) if path.is_dir() else [path])
    items: list[KnowledgeIn] = []
    for file in files:
        try:
            document = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as error:
            raise InvalidInput(f"cannot read {file}: {error}") from None
        except json.JSONDecodeError as error:
            raise InvalidInput(f"{file}: not JSON ({error.msg}, line {error.lineno})") from None
        items.extend(parse_knowledge(document, str(file)))
    return items


def store_knowledge(
    uow: UnitOfWork, items: Sequence[KnowledgeIn], now: datetime
) -> tuple[int, int]:
    """Insert or replace knowledge rows; (added, updated)."""
    return KnowledgeRepository(uow.connection).upsert(items, now)


def context_keys(context: str, longest: int = 4) -> list[str]:
    """Every run of 1..`longest` words of `context`, lower-cased: the names it may hold."""
    tokens = re.findall(r"[^\W_][\w'&.-]*", context.lower())
    tokens = [t.rstrip(".").removesuffix("'s") for t in tokens]
    keys = {
        name_key(" ".join(tokens[i : i + n]))
        for n in range(1, longest + 1)
        for i in range(len(tokens) - n + 1)
    }
    return sorted(k for k in keys if k)


def lookup_knowledge(repository: KnowledgeRepository, context: str) -> list[Knowledge]:
    """Knowledge rows named (by name or alias) in `context`."""
    return repository.lookup(context_keys(context))
